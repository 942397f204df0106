import Cardio
import Signals

/// ECG wave delineation (issue 30) of the day of 512 Hz ECG of ``ecgBenchmarks(_:)`` through the
/// `waves` family's own analyzer (``ECGWavesFamily``: one lead, P/QRS/T boundaries of every beat,
/// `ecg_waves`, `ecg_intervals` and `ecg_median_beats` rows counted, not kept; every beat normal
/// in `excellent` quality, so that every beat counts in the intervals and the median beat), as a ratio to the R-peak detector on
/// the same signal (`ecg/rpeaks/day512/float`, interleaved in the same run): the target is
/// delineation ≤ 1× the detector's time on top of it. The beats are the detector's peaks (found in
/// set-up), handed to the analyzer as the `ecg_beats` events the ECG family publishes, each after
/// the one-minute block that holds it (the family publishes later; the lead holds its samples).
func wavesBenchmarks(_ scale: BenchmarkScale) -> [BenchmarkCase] {
    let count = scale.dayAt512Hz
    return [
        BenchmarkCase(
            name: "ecg/waves/day512/float", samples: count, bytes: count * 4, reference: "ecg/rpeaks/day512/float"
        ) {
            let signal = ecgDay(count: count)
            let peaks = RPeakDetector.detect(signal, sampleRate: 512)
            let rate = 512.0
            let start = 1_700_000_000.0
            let info = StreamInfo(
                key: StreamKey(deviceID: "bench", sensor: .electrocardiogram, channel: "lead"),
                columns: [ColumnInfo(name: "ecg", unit: .microvolts)], nominalSampleRate: rate)
            let block = 512 * 60
            let zeros = [UInt8](repeating: 0, count: block)
            let stream = AnnouncedStream(index: 0, info: info, file: "bench")
            let name = stream.name
            return {
                var analyzer = ECGWavesFamily.makeAnalyzer(options: ECGWavesFamily.defaultOptions)
                _ = analyzer.claim(stream)
                let output = CountingOutput()
                var first = 0, next = 0
                do {
                    while first < count {
                        let k = min(block, count - first)
                        let b = SampleBlock(
                            stream: 0, segment: 0, firstSample: first, time: .uniform(segmentStart: start, sampleRate: rate),
                            columns: [Array(signal[first..<first + k])], flags: Array(zeros[0..<k]), endsSegment: first + k == count)
                        try analyzer.consume(b, output: output)
                        while next < peaks.count && peaks[next] < first + k {
                            let e = DerivedEvent(
                                series: ECGBeatEvents.series.id, stream: name, time: start + Double(peaks[next]) / rate,
                                values: [.label("N"), .label("excellent")])
                            try analyzer.consume(derived: e, series: ECGBeatEvents.series, output: output)
                            next += 1
                        }
                        first += k
                    }
                    try analyzer.finish(output: output)
                } catch {
                    fatalError("waves benchmark: \(error)")
                }
                // One ecg_waves row per beat, plus the interval windows.
                precondition(output.rows >= peaks.count, "waves benchmark: \(output.rows) rows for \(peaks.count) beats")
                blackHole(output.rows)
            }
        }
    ]
}

import Cardio
import Foundation
import Pipeline
import Recordings
import Rhythm
import Signals

/// Collects the detected beat times of the `beats` table (set-up of the rhythm benchmark).
final class BeatTimeSink: ResultSink {
    var times: [Double] = []
    func begin(recording: String) throws {}
    func declare(_ table: ResultTable) throws {}
    func write(_ table: ResultTable, values: [ResultValue]) throws {
        guard table.name == BeatSeriesTables.beats.table.name,
            let i = table.columns.firstIndex(where: { $0.name == "time" }), case .real(let t) = values[i]
        else { return }
        times.append(t)
    }
    func commit() throws {}
    func rollback() {}
}

/// Drops the rhythm family's rows (the benchmark measures the stage, not output).
final class DiscardingOutput: ResultOutput {
    var rows = 0
    func emit<Row>(_ schema: TableSchema<Row>, _ row: Row) throws { rows += 1 }
    func publish(_ event: DerivedEvent) throws {}
}

/// The rhythm stage alone on the day of ``chainBenchmarks(_:)`` (issue 29: a 24-h single-lead
/// ECG's rhythm stage at most 10 % of the ECG chain's time), measured interleaved with that ECG
/// chain (`ecg/analyze-chain/day512/wfdb16`), so the ratio is the stage's share directly.
///
/// Set-up runs the ECG family once to get the day's detected beats, and cuts the decoded samples
/// into 4096-sample blocks. The timed closure is what ``RhythmFamily`` does in a run: it claims
/// the lead, takes every sample block (atrial-activity ring) and every beat as an `ecg_beats`
/// event (class `N`, quality `good`, QRS width 0.09 s), each beat handed over once the samples
/// have passed it, labels every 30-s window with the `ecg` model and closes the episodes.
func rhythmBenchmarks(_ scale: BenchmarkScale) -> [BenchmarkCase] {
    let count = scale.dayAt512Hz
    return [
        BenchmarkCase(
            name: "rhythm/stage/day512/ecg", samples: count, bytes: count * 4, reference: "ecg/analyze-chain/day512/wfdb16"
        ) {
            let hea = chainRecord(count: count)
            let sink = BeatTimeSink()
            _ = try! RecordingAnalysis.run(
                recording: RecordingInput(path: hea.path), analysis: AnalysisConfiguration(),
                families: [AnalysisFamilyEntry(ECGFamily.self)], sink: sink)
            let beats = sink.times.sorted()
            precondition(beats.count > count / 512 / 2, "rhythm benchmark: \(beats.count) beats")
            let signal = ecgDay(count: count).map { Float((Double($0) * 200).rounded() / 200) }
            let key = StreamKey(deviceID: "day", sensor: .electrocardiogram, channel: "ECG")
            let info = StreamInfo(
                key: key, columns: [ColumnInfo(name: "ECG", unit: .millivolts)], nominalSampleRate: 512, timeOrigin: .streamStart)
            let stream = AnnouncedStream(index: 0, info: info, file: hea.path)
            let blocks = stride(from: 0, to: count, by: 4096).map { a -> SampleBlock in
                let b = min(a + 4096, count)
                return SampleBlock(
                    stream: 0, segment: 0, firstSample: a, time: .uniform(segmentStart: 0, sampleRate: 512),
                    columns: [Array(signal[a..<b])],
                    flags: [UInt8](repeating: 0, count: b - a), endsSegment: b == count)
            }
            let events = beats.map {
                DerivedEvent(
                    series: "ecg_beats", stream: key.description, time: $0,
                    values: [.label("N"), .number(0.09), .label("good"), .number(0.9)])
            }
            let series = DerivedSeries(source: "ecg", name: "ecg_beats", summary: "beats", isEventSeries: true, attributes: [])
            return {
                let output = DiscardingOutput()
                var analyzer = RhythmFamily.makeAnalyzer(options: RhythmOptions())
                precondition(analyzer.claim(stream))
                var next = 0
                for block in blocks {
                    try! analyzer.consume(block, output: output)
                    let end = block.time(at: block.count - 1)
                    while next < events.count && events[next].time <= end {
                        try! analyzer.consume(derived: events[next], series: series, output: output)
                        next += 1
                    }
                }
                try! analyzer.finish(output: output)
                // Every 30-s window is written (episodes add rows only where windows are af).
                precondition(output.rows >= count / 512 / 30, "rhythm benchmark: \(output.rows) rows")
                blackHole(output.rows)
            }
        }
    ]
}

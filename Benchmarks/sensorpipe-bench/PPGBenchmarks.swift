import Cardio
import Foundation
import Pipeline

/// The full PPG chain on one hour of 128 Hz wrist PPG with three optical channels (green, red,
/// infrared) and the device's 3-axis accelerometer, as `sensorpipe analyze` runs it after
/// decoding: grid filtering, pulses and the beat series with PRV per optical stream, quality per
/// window and stream, motion-robust heart rate (online and offline) — against one scalar SOS pass
/// over the same number of samples (6 × 460 800).
///
/// The signal is synthetic (pulses at 60–80 bpm with a diastolic wave, a 1.6 Hz arm-swing
/// artefact in the optical channels and the accelerometer, noise). NeuroKit2's `ppg_process` on
/// one such channel is timed by `scripts/ppg/time-neurokit2-ppg.py`.
func ppgBenchmarks(_ scale: BenchmarkScale) -> [BenchmarkCase] {
    let rate = 128.0
    let count = scale == .full ? 3600 * 128 : 3600 * 128 / 16
    let reference = "ref/sos-df2t-4/hour128x6/float"
    return [
        sosReferenceCase(count: 6 * count, name: reference),
        BenchmarkCase(name: "ppg/analyze-chain/hour128/3ch+acc", samples: 6 * count, bytes: 6 * count * 4, reference: reference) {
            let (optical, acc) = syntheticWristPPG(count: count, rate: rate)
            return {
                var analyzer = makeWristPPGAnalyzer(rate: rate)
                let output = BenchmarkOutput(sink: DiscardingSink())
                feedWristPPG(&analyzer, optical: optical, acc: acc, firstSample: 0, last: true, rate: rate, output: output)
                try! analyzer.finish(output: output)
                precondition(output.rows > count / 128 / 2, "ppg chain benchmark: \(output.rows) rows")
                blackHole(output.rows)
            }
        },
        // The peer's own workload: one optical channel, no accelerometer (information; the
        // issue's target compares the 3-channel chain above with NeuroKit2 on one channel).
        BenchmarkCase(name: "ppg/analyze-chain/hour128/1ch", samples: count, bytes: count * 4, reference: reference) {
            let (optical, _) = syntheticWristPPG(count: count, rate: rate)
            let one = [optical[0]]
            return {
                var analyzer = makeWristPPGAnalyzer(rate: rate, channels: 1, accelerometer: false)
                let output = BenchmarkOutput(sink: DiscardingSink())
                feedWristPPG(&analyzer, optical: one, acc: [], firstSample: 0, last: true, rate: rate, output: output)
                try! analyzer.finish(output: output)
                precondition(output.rows > count / 128 / 2, "ppg 1-channel chain benchmark: \(output.rows) rows")
                blackHole(output.rows)
            }
        },
    ]
}

/// The synthetic wrist recording of the PPG benchmarks: pulses at 60–80 bpm with a diastolic
/// wave, a 1.6 Hz arm-swing artefact in the three optical channels and the accelerometer, noise.
func syntheticWristPPG(count: Int, rate: Double) -> (optical: [[Float]], acc: [[Float]]) {
    var optical = [[Float]](repeating: [Float](repeating: 0, count: count), count: 3)
    var acc = [[Float]](repeating: [Float](repeating: 0, count: count), count: 3)
    var phase = 0.0
    for i in 0..<count {
        let t = Double(i) / rate
        phase += 2 * Double.pi * (70 + 10 * sin(2 * Double.pi * t / 300)) / 60 / rate
        let beat = pow(max(0, sin(phase)), 3) + 0.3 * pow(max(0, sin(phase - 1.2)), 2)
        let motion = 0.8 * sin(2 * Double.pi * 1.6 * t)
        let noise = Double((i &* 2_654_435_761) % 1000) / 1000 - 0.5
        for c in 0..<3 { optical[c][i] = Float(100 + Double(c + 1) * beat + motion + 0.05 * noise) }
        acc[0][i] = Float(0.3 * sin(2 * Double.pi * 1.6 * t))
        acc[1][i] = Float(0.1 * sin(2 * Double.pi * 1.6 * t + 0.5))
        acc[2][i] = Float(1 + 0.02 * noise)
    }
    return (optical, acc)
}

/// The PPG family with a watch's first `channels` optical streams (green, red, infrared) and,
/// when `accelerometer`, its own accelerometer announced (stream index `channels`).
func makeWristPPGAnalyzer(rate: Double, channels: Int = 3, accelerometer: Bool = true) -> PPGFamily.Analyzer {
    var analyzer = PPGFamily.makeAnalyzer(options: PPGFamily.defaultOptions)
    let wavelengths = ["525", "660", "940"]
    for c in 0..<channels {
        _ = analyzer.claim(
            AnnouncedStream(
                index: c,
                info: StreamInfo(
                    key: StreamKey(deviceID: "watch", sensor: .photoplethysmogram, channel: "optical/e\(c)/pd0/s0"),
                    columns: [ColumnInfo(name: "normalizedReflectance", unit: .dimensionless)], nominalSampleRate: rate,
                    attributes: ["nominalWavelength": wavelengths[c]]), file: "bench"))
    }
    guard accelerometer else { return analyzer }
    _ = analyzer.claim(
        AnnouncedStream(
            index: channels,
            info: StreamInfo(
                key: StreamKey(deviceID: "watch", sensor: .photoplethysmogram, channel: "accelerometer"),
                columns: ["x", "y", "z"].map { ColumnInfo(name: $0, unit: .standardGravity) }, nominalSampleRate: rate,
                role: .embeddedAccelerometer),
            file: "bench"))
    return analyzer
}

/// Feeds one stretch of the synthetic recording (sample `firstSample` onwards) in blocks of
/// 65 536 samples: `optical[c]` as stream c, the accelerometer axes (when `acc` is not empty) as
/// stream `optical.count`; `last` ends the segment with its final block.
func feedWristPPG(
    _ analyzer: inout PPGFamily.Analyzer, optical: [[Float]], acc: [[Float]], firstSample: Int, last: Bool, rate: Double,
    output: any ResultOutput
) {
    let count = optical[0].count
    let block = 65_536
    var start = 0
    let time = TimeBase.uniform(segmentStart: 0, sampleRate: rate)
    while start < count {
        let end = min(count, start + block)
        let flags = [UInt8](repeating: 0, count: end - start)
        let ends = last && end == count
        for c in optical.indices {
            try! analyzer.consume(
                SampleBlock(
                    stream: c, segment: 0, firstSample: firstSample + start, time: time, columns: [Array(optical[c][start..<end])],
                    flags: flags, endsSegment: ends), output: output)
        }
        if !acc.isEmpty {
            try! analyzer.consume(
                SampleBlock(
                    stream: optical.count, segment: 0, firstSample: firstSample + start, time: time,
                    columns: acc.map { Array($0[start..<end]) }, flags: flags, endsSegment: ends), output: output)
        }
        start = end
    }
}

/// `sensorpipe-bench --long-ppg DAYS`: DAYS of 128 Hz wrist PPG (three optical channels and the
/// accelerometer; the synthetic hour of `ppg/analyze-chain` replayed, so the input never sits in
/// memory) through the PPG family in this process: resident memory at the end of every day
/// (`/proc/self/statm`), peak resident memory, wall and CPU seconds.
/// With `digest`, the run instead hashes every row the PPG family writes (heart rate, beats, HRV,
/// PPG quality; ``CountingOutput``) and prints the hash and the row count (slower; for showing
/// that two builds write identical tables, not for timing).
func runLongPPGBenchmark(days: Double, json: Bool, digest: Bool = false) -> Int32 {
    let rate = 128.0
    let hourCount = 3600 * 128
    let hours = Int((days * 24).rounded())
    let (optical, acc) = syntheticWristPPG(count: hourCount, rate: rate)
    var analyzer = makeWristPPGAnalyzer(rate: rate)
    if digest {
        let output = CountingOutput(digest: true)
        for h in 0..<hours {
            feedWristPPG(
                &analyzer, optical: optical, acc: acc, firstSample: h * hourCount, last: h == hours - 1, rate: rate,
                output: output)
        }
        try! analyzer.finish(output: output)
        print(String(format: "long PPG: %d h, %d rows, table digest %016llx", hours, output.rows, output.digest))
        return 0
    }
    let output = BenchmarkOutput(sink: DiscardingSink())
    func residentMB() -> Double {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return .nan }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Double(fields[1]) else { return .nan }
        return pages * Double(sysconf(Int32(_SC_PAGESIZE))) / 1e6
    }
    print(
        String(format: "long PPG: %d h at 128 Hz, 3 optical channels + accelerometer; resident after set-up %.1f MB", hours, residentMB()))
    let t0 = Stopwatch.now()
    var perDay = [Double]()
    for h in 0..<hours {
        feedWristPPG(
            &analyzer, optical: optical, acc: acc, firstSample: h * hourCount, last: h == hours - 1, rate: rate, output: output)
        if (h + 1) % 24 == 0 || h == hours - 1 {
            perDay.append(residentMB())
            print(String(format: "  after %3d h: resident %.1f MB, %d rows so far", h + 1, perDay.last!, output.rows))
        }
    }
    try! analyzer.finish(output: output)
    let t1 = Stopwatch.now()
    var usage = rusage()
    getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
    let peak = Double(usage.ru_maxrss) * 1024
    let wall = Double(t1.wall - t0.wall) / 1e9, cpu = Double(t1.cpu - t0.cpu) / 1e9
    print(
        String(
            format: "long PPG: %d h, %d rows; %.1f s wall, %.1f s CPU; peak RSS %.0f MB (input hour %.0f MB)", hours, output.rows, wall,
            cpu, peak / 1e6, Double(6 * hourCount * 4) / 1e6))
    if json {
        print(
            "{\"hours\":\(hours),\"rows\":\(output.rows),\"seconds\":\(wall),\"cpu_seconds\":\(cpu),\"peak_rss_bytes\":\(Int(peak)),"
                + "\"resident_mb_per_day\":\(perDay)}")
    }
    return 0
}

/// Counts rows (the benchmark measures analysis, not output).
final class BenchmarkOutput: ResultOutput {
    let sink: DiscardingSink
    var rows = 0
    init(sink: DiscardingSink) { self.sink = sink }
    func emit<Row>(_ schema: TableSchema<Row>, _ row: Row) throws {
        blackHole(schema.values(of: row).count)
        rows += 1
    }
}

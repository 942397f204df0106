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
            let wavelengths = ["525", "660", "940"]
            return {
                var analyzer = PPGFamily.makeAnalyzer(options: PPGFamily.defaultOptions)
                for c in 0..<3 {
                    _ = analyzer.claim(
                        AnnouncedStream(
                            index: c,
                            info: StreamInfo(
                                key: StreamKey(deviceID: "watch", sensor: .photoplethysmogram, channel: "optical/e\(c)/pd0/s0"),
                                columns: [ColumnInfo(name: "normalizedReflectance", unit: .dimensionless)], nominalSampleRate: rate,
                                attributes: ["nominalWavelength": wavelengths[c]]), file: "bench"))
                }
                _ = analyzer.claim(
                    AnnouncedStream(
                        index: 3,
                        info: StreamInfo(
                            key: StreamKey(deviceID: "watch", sensor: .photoplethysmogram, channel: "accelerometer"),
                            columns: ["x", "y", "z"].map { ColumnInfo(name: $0, unit: .standardGravity) }, nominalSampleRate: rate),
                        file: "bench"))
                let sink = DiscardingSink()
                let output = BenchmarkOutput(sink: sink)
                let block = 65_536
                var start = 0
                while start < count {
                    let end = min(count, start + block)
                    let time = TimeBase.uniform(segmentStart: 0, sampleRate: rate)
                    let flags = [UInt8](repeating: 0, count: end - start)
                    for c in 0..<3 {
                        try! analyzer.consume(
                            SampleBlock(
                                stream: c, segment: 0, firstSample: start, time: time, columns: [Array(optical[c][start..<end])],
                                flags: flags, endsSegment: end == count), output: output)
                    }
                    try! analyzer.consume(
                        SampleBlock(
                            stream: 3, segment: 0, firstSample: start, time: time, columns: acc.map { Array($0[start..<end]) },
                            flags: flags, endsSegment: end == count), output: output)
                    start = end
                }
                try! analyzer.finish(output: output)
                precondition(output.rows > count / 128 / 2, "ppg chain benchmark: \(output.rows) rows")
                blackHole(output.rows)
            }
        },
    ]
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

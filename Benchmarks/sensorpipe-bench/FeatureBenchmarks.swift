import DSP
import Features
import Signals

/// Output that counts rows and drops them (the benchmark times the analysis, not a sink).
final class CountingFeatureOutput: ResultOutput {
    var rows = 0
    func emit<Row>(_ schema: TableSchema<Row>, _ row: Row) throws { rows += 1 }
}

/// Seven days of 50 Hz three-axis accelerometer through the features family (10-s aligned
/// windows: windowing, per-axis and vector-magnitude catalog, SMA, row emission), fed as
/// 4096-sample blocks cut from one synthetic hour replayed with advancing times, so the working
/// set is one hour of input plus the family's state (flat in the recording's length). The
/// reference is ``referenceSOSPass`` over the same number of samples (three axes), on the same
/// replayed hour.
func featureBenchmarks(_ scale: BenchmarkScale) -> [BenchmarkCase] {
    let rate = 50.0
    let hour = 3600 * 50
    let week = scale == .full ? 7 * 24 * hour : 7 * 24 * hour / 16
    let reference = "ref/sos-df2t-4/week50x3/float"
    let axes = (0..<3).map { syntheticSignal(count: hour, sampleRate: rate, seed: UInt64(7 + $0)) }
    func run(options: FeaturesFamily.Options) -> () -> Void {
        let info = StreamInfo(
            key: StreamKey(deviceID: "bench", sensor: .accelerometer, channel: "acceleration"),
            columns: ["x", "y", "z"].map { ColumnInfo(name: $0, unit: .standardGravity) }, nominalSampleRate: rate)
        let block = 4096
        let blocksPerHour = (hour + block - 1) / block
        let pieces: [[[Float]]] = (0..<blocksPerHour).map { b in
            let lo = b * block, hi = min(lo + block, hour)
            return axes.map { Array($0[lo..<hi]) }
        }
        let zeros = [UInt8](repeating: 0, count: block)
        return {
            var analyzer = FeaturesFamily.makeAnalyzer(options: options)
            _ = analyzer.claim(AnnouncedStream(index: 0, info: info, file: "bench"))
            let output = CountingFeatureOutput()
            var first = 0
            let start = 1_700_000_000.0
            while first < week {
                let piece = pieces[(first % hour) / block]
                let n = min(piece[0].count, week - first)
                let b = SampleBlock(
                    stream: 0, segment: 0, firstSample: first, time: .uniform(segmentStart: start, sampleRate: rate),
                    columns: n == piece[0].count ? piece : piece.map { Array($0[0..<n]) },
                    flags: n == block ? zeros : Array(zeros[0..<n]), endsSegment: first + n == week)
                try! analyzer.consume(b, output: output)
                first += n
            }
            try! analyzer.finish(output: output)
            blackHole(output.rows)
        }
    }
    var withoutCatch22 = FeaturesFamily.Options()
    withoutCatch22.catalog = "default"
    var withCatch22 = FeaturesFamily.Options()
    withCatch22.catalog = "all"
    return [
        BenchmarkCase(name: reference, samples: 3 * week, bytes: 3 * week * 4, reference: nil) {
            let x = axes.flatMap { $0 }
            var y = [Float](repeating: 0, count: x.count)
            return {
                var done = 0
                while done < 3 * week {
                    let n = min(x.count, 3 * week - done)
                    x.withUnsafeBufferPointer { xb in
                        y.withUnsafeMutableBufferPointer { referenceSOSPass(xb.baseAddress!, $0.baseAddress!, count: n) }
                    }
                    done += n
                }
                blackHole(y)
            }
        },
        BenchmarkCase(
            name: "features/default/week50x3/float", samples: 3 * week, bytes: 3 * week * 4, reference: reference
        ) { run(options: withoutCatch22) },
        BenchmarkCase(
            name: "features/default+catch22/week50x3/float", samples: 3 * week, bytes: 3 * week * 4,
            reference: reference
        ) { run(options: withCatch22) },
    ]
}

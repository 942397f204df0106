import DSP
import Features
import Foundation
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
    func run(options: FeaturesOptions) -> () -> Void {
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
    // The raw-stream catalog (opt-in since issue 35) is what these cases time.
    var withoutCatch22 = FeaturesOptions()
    withoutCatch22.catalog = "default"
    withoutCatch22.rawStreams = true
    var withCatch22 = FeaturesOptions()
    withCatch22.catalog = "all"
    withCatch22.rawStreams = true
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

/// `sensorpipe-bench --long-features DAYS`: DAYS of 50 Hz three-axis accelerometer through the
/// features family with the whole catalog (catch22 included) in this process, fed as in
/// ``featureBenchmarks`` (4096-sample blocks replayed from one synthetic hour, so the input never
/// grows): CPU seconds, resident memory at the end of every day (flat when the family's state
/// does not grow with the recording), peak RSS, and the same-run reference (one
/// ``referenceSOSPass`` over as many samples) for the ratio. Then the same without catch22.
func runLongFeaturesBenchmark(days: Double, json: Bool) -> Int32 {
    let rate = 50.0
    let hour = 3600 * 50
    let total = Int(days * 24) * hour
    let axes = (0..<3).map { syntheticSignal(count: hour, sampleRate: rate, seed: UInt64(7 + $0)) }
    let block = 4096
    let pieces: [[[Float]]] = (0..<((hour + block - 1) / block)).map { b in
        let lo = b * block, hi = min(lo + block, hour)
        return axes.map { Array($0[lo..<hi]) }
    }
    let zeros = [UInt8](repeating: 0, count: block)
    let info = StreamInfo(
        key: StreamKey(deviceID: "bench", sensor: .accelerometer, channel: "acceleration"),
        columns: ["x", "y", "z"].map { ColumnInfo(name: $0, unit: .standardGravity) }, nominalSampleRate: rate)
    func residentMB() -> Double {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return .nan }
        let fields = text.split(separator: " ")
        return fields.count > 1 ? (Double(fields[1]) ?? .nan) * 4096 / 1e6 : .nan
    }
    // Reference first: the scalar SOS pass over 3 × total values, an hour of values at a time.
    let chunk = axes.flatMap { $0 }
    var out = [Float](repeating: 0, count: chunk.count)
    let r0 = Stopwatch.now()
    for _ in 0..<(total / hour) {
        chunk.withUnsafeBufferPointer { c in
            out.withUnsafeMutableBufferPointer { referenceSOSPass(c.baseAddress!, $0.baseAddress!, count: c.count) }
        }
    }
    blackHole(out)
    let refCPU = Double(Stopwatch.now().cpu - r0.cpu) / 1e9
    for catalog in ["all", "default"] {
        var options = FeaturesOptions()
        options.catalog = catalog
        options.rawStreams = true
        var analyzer = FeaturesFamily.makeAnalyzer(options: options)
        _ = analyzer.claim(AnnouncedStream(index: 0, info: info, file: "bench"))
        let output = CountingFeatureOutput()
        var first = 0
        var daily = [Double]()
        let t0 = Stopwatch.now()
        while first < total {
            let piece = pieces[(first % hour) / block]
            let n = min(piece[0].count, total - first)
            let b = SampleBlock(
                stream: 0, segment: 0, firstSample: first, time: .uniform(segmentStart: 1_700_000_000, sampleRate: rate),
                columns: n == piece[0].count ? piece : piece.map { Array($0[0..<n]) },
                flags: n == block ? zeros : Array(zeros[0..<n]), endsSegment: first + n == total)
            try! analyzer.consume(b, output: output)
            let before = first / (24 * hour)
            first += n
            if first / (24 * hour) > before || first == total { daily.append(residentMB()) }
        }
        try! analyzer.finish(output: output)
        let t1 = Stopwatch.now()
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        let peak = Double(usage.ru_maxrss) * 1024 / 1e6
        let wall = Double(t1.wall - t0.wall) / 1e9, cpu = Double(t1.cpu - t0.cpu) / 1e9
        let windows = total / 500
        print(
            String(
                format: "long features (%@): %.1f days, %d windows, %d rows; %.1f s wall, %.1f s CPU (%.3f ms per window); "
                    + "reference %.2f s CPU, ratio %.1f; RSS at each day's end %@ MB; peak RSS so far %.0f MB",
                catalog, days, windows, output.rows, wall, cpu, cpu * 1000 / Double(windows), refCPU, cpu / refCPU,
                daily.map { String(format: "%.1f", $0) }.joined(separator: " "), peak))
        if json {
            print(
                "{\"catalog\":\"\(catalog)\",\"days\":\(days),\"windows\":\(windows),\"cpu_seconds\":\(cpu),\"seconds\":\(wall),"
                    + "\"reference_cpu_seconds\":\(refCPU),\"ratio\":\(cpu / refCPU),\"rss_mb_per_day\":\(daily),"
                    + "\"peak_rss_mb\":\(peak)}")
        }
        blackHole(output.rows)
    }
    return 0
}

import Foundation

/// The long-recording memory benchmark (`sensorpipe-bench --long-ecg DAYS`): a multi-day two-lead
/// 360 Hz ECG (WFDB format 16, the MIT-BIH 119 excerpt tiled with slow gain changes, baseline
/// wander and noise; lead 1 is lead 0 inverted and scaled) through `sensorpipe run --jobs 1`
/// (one record) and `--jobs 2` (two records, so both workers hold one at once), each a child
/// process: wall seconds, CPU seconds, peak resident memory (`ru_maxrss`), MB/s of input and
/// hours of signal per second. With `--compare BINARY`, an older `sensorpipe` runs the same
/// inputs in the same session, alternating, for the throughput ratio.
func runLongECGBenchmark(days: Double, compare: String?, json: Bool) -> Int32 {
    let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("sensorpipe")
    let scratch = benchmarkScratch.appendingPathComponent("long-ecg")
    let one = scratch.appendingPathComponent("one"), two = scratch.appendingPathComponent("two")
    do {
        for d in [one, two] { try FileManager.default.createDirectory(at: d, withIntermediateDirectories: true) }
        let frames = Int(days * 86_400 * 360)
        let dat = scratch.appendingPathComponent("long.dat")
        let checksums = try writeLongECG(frames: frames, to: dat)
        for (dir, names) in [(one, ["a"]), (two, ["a", "b"])] {
            for name in names {
                let header =
                    "\(name) 2 360 \(frames)\n"
                    + "../long.dat 16 200/mV 16 0 \(checksums.first0) \(checksums.0) 0 MLII\n"
                    + "../long.dat 16 200/mV 16 0 \(checksums.first1) \(checksums.1) 0 V5\n"
                try Data(header.utf8).write(to: dir.appendingPathComponent("\(name).hea"))
            }
        }
        print(
            String(
                format: "long ECG: %.1f days, 2 leads at 360 Hz, %d frames, %.0f MB", days, frames,
                Double(frames * 4) / 1e6))
        var lines = [String]()
        for (label, exe) in [("new", binary.path)] + (compare.map { [("old", $0)] } ?? []) {
            let bench = BatchBenchmark(targetBytes: 0, datasets: scratch, binary: URL(fileURLWithPath: exe), repetitions: 1)
            for (jobs, dir) in [(1, one), (2, two)] {
                let r = try bench.runPipeline(input: dir, jobs: jobs, scratch: scratch)
                let mb = Double(r.bytes) / 1e6
                let line = String(
                    format: "%@ --jobs %d: %d ok, %d failed, %.1f s wall, %.1f s CPU, peak RSS %.0f MB, %.1f MB/s, %.0f h of signal/s",
                    label, jobs, r.ok, r.failed, r.seconds, r.cpuSeconds, Double(r.peakRSSBytes) / 1e6,
                    mb / r.seconds, r.signalHours / r.seconds)
                print(line)
                lines.append(line)
                if json {
                    print(
                        "{\"binary\":\"\(label)\",\"jobs\":\(jobs),\"seconds\":\(r.seconds),\"cpu_seconds\":\(r.cpuSeconds),"
                            + "\"peak_rss_bytes\":\(r.peakRSSBytes),\"bytes\":\(r.bytes),\"signal_hours\":\(r.signalHours),\"ok\":\(r.ok)}")
                }
            }
        }
        try? FileManager.default.removeItem(at: scratch)
        return 0
    } catch {
        FileHandle.standardError.write(Data("sensorpipe-bench: \(error)\n".utf8))
        try? FileManager.default.removeItem(at: scratch)
        return 1
    }
}

/// Writes `frames` two-signal format-16 frames (200 adu/mV) and returns the signals' 16-bit
/// checksums and first values (the header's integrity fields).
func writeLongECG(frames: Int, to url: URL) throws -> (Int, Int, first0: Int, first1: Int) {
    let url119 = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Tests/CardioTests/Fixtures/rpeaks/mitdb119_360.npy")
    let bytes = [UInt8](try Data(contentsOf: url119))
    let headerLength = Int(bytes[8]) | Int(bytes[9]) << 8
    let start = 10 + headerLength
    let tile: [Float] = bytes.withUnsafeBytes { raw in
        (0..<(bytes.count - start) / 4).map { raw.loadUnaligned(fromByteOffset: start + 4 * $0, as: Float.self) }
    }
    guard FileManager.default.createFile(atPath: url.path, contents: nil) else { throw BenchError("cannot create \(url.path)") }
    let handle = try FileHandle(forWritingTo: url)
    defer { try? handle.close() }
    var c0 = 0, c1 = 0
    var first: (Int, Int)?
    var state: UInt64 = 0x9E37_79B9
    let chunk = 1 << 20
    var buffer = [Int16](repeating: 0, count: 2 * chunk)
    var i = 0
    while i < frames {
        let n = min(chunk, frames - i)
        for k in 0..<n {
            let f = i + k
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let noise = Float(Int64(bitPattern: state) >> 40) / Float(1 << 23)
            let t = Double(f) / 360
            let gain = Float(1 + 0.3 * sin(2 * Double.pi * t / 900))
            let wander = Float(0.2 * sin(2 * Double.pi * 0.15 * t))
            let v = gain * tile[f % tile.count] + wander + 0.02 * noise
            let a = Int16(clamping: Int((v * 200).rounded()))
            let b = Int16(clamping: Int((-0.7 * v * 200).rounded()))
            buffer[2 * k] = a
            buffer[2 * k + 1] = b
            if first == nil { first = (Int(a), Int(b)) }
            c0 = (c0 + Int(a)) & 0xFFFF
            c1 = (c1 + Int(b)) & 0xFFFF
        }
        try buffer.withUnsafeBytes { try handle.write(contentsOf: Data($0.prefix(4 * n))) }
        i += n
    }
    func signed(_ c: Int) -> Int { c >= 32768 ? c - 65536 : c }
    return (signed(c0), signed(c1), first?.0 ?? 0, first?.1 ?? 0)
}

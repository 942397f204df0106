import CZlib
import Foundation

/// The whole-pipeline benchmark (`sensorpipe-bench --batch`): `sensorpipe run` over the demo
/// recordings of `Datasets/` repeated (as distinct copies, each a separate recording) until the
/// input reaches a target size, with `--jobs 1` and `--jobs 2`, each as its own process.
///
/// Reported per run: wall seconds, MB/s of input, hours of signal per second (from the run's
/// `--json` summary), peak resident memory of the process (`ru_maxrss` from `wait4`). Reported
/// across runs: scaling = seconds(jobs 1) ÷ seconds(jobs 2); the reference scaling of zlib
/// inflating the same gzip members on 1 and 2 threads, each measured right beside the pipeline run
/// with the same job count; the scaling efficiency = scaling ÷ reference scaling per repetition
/// (the guarded figure: on a machine whose second core is busy elsewhere both scalings drop
/// together); and the ratio of the pipeline's MB/s to the 1-thread inflate MB/s over the same
/// bytes (every demo file is gzip, so inflating is the least any reader must do).
struct BatchBenchmark {
    /// Input bytes to reach.
    var targetBytes: Int
    /// The `Datasets/` folder.
    var datasets: URL
    /// The `sensorpipe` executable.
    var binary: URL
    /// Timed repetitions per job count (the fastest counts).
    var repetitions: Int

    struct Run {
        var jobs: Int
        var seconds: Double
        var peakRSSBytes: Int
        /// User + system CPU seconds of the process.
        var cpuSeconds: Double
        var bytes: Int
        var signalHours: Double
        var ok: Int
        var failed: Int
    }

    /// Demo files (sorted) and their sizes.
    func demoFiles() -> [(path: String, size: Int)] {
        let fm = FileManager.default
        let names = (fm.enumerator(atPath: datasets.path)?.compactMap { $0 as? String } ?? [])
            .filter { $0.hasSuffix(".ndjson.gz") }.sorted()
        return names.map { name in
            let p = datasets.appendingPathComponent(name).path
            return (p, (try? fm.attributesOfItem(atPath: p)[.size] as? Int) ?? 0)
        }
    }

    /// Copies the demo files into `dir/copy-NNNN/` until `targetBytes`; returns the byte total and
    /// the number of recordings. Each copy is its own file with its own content — the demo file's
    /// bytes followed by a small stored gzip member holding `c + 1` blank lines (which the NDJSON
    /// decoder skips) — because the batch analyses a file reached twice (a link) or a byte-identical
    /// copy once (`RecordingDiscovery.unique`).
    func makeInput(in dir: URL) throws -> (bytes: Int, recordings: Int, copies: Int) {
        let files = demoFiles()
        let perCopy = files.reduce(0) { $0 + $1.size }
        guard perCopy > 0 else { throw BenchError("no demo recordings under \(datasets.path)") }
        let copies = (targetBytes + perCopy - 1) / perCopy
        let contents = files.map { FileManager.default.contents(atPath: $0.path) ?? Data() }
        for c in 0..<copies {
            let sub = dir.appendingPathComponent(String(format: "copy-%04d", c))
            try FileManager.default.createDirectory(at: sub, withIntermediateDirectories: true)
            let tail = storedGzipMember([UInt8](repeating: 0x0A, count: c + 1))
            for (f, data) in zip(files, contents) {
                let path = sub.appendingPathComponent((f.path as NSString).lastPathComponent)
                try (data + tail).write(to: path)
            }
        }
        return (copies * perCopy, copies * files.count, copies)
    }

    /// Inflates every demo file as often as the input links it (the whole input's gzip members),
    /// spread over `threads` threads (copy `c` on thread `c % threads`); returns wall seconds.
    /// With 1 and 2 threads, interleaved with the pipeline's `--jobs 1` and `--jobs 2` runs, this
    /// is the reference for the pipeline's scaling: how much a second worker can gain on this
    /// machine at that moment (the other agents on a shared machine take some of the second core).
    func inflateReference(copies: Int, threads: Int) -> Double {
        let files = demoFiles().map { FileManager.default.contents(atPath: $0.path) ?? Data() }
        let t0 = DispatchTime.now().uptimeNanoseconds
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            var out = [UInt8](repeating: 0, count: 1 << 18)
            var produced = 0
            for _ in stride(from: thread, to: copies, by: threads) {
                for data in files { produced &+= inflateGzip(data, scratch: &out) }
            }
            blackHole(produced)
        }
        return Double(DispatchTime.now().uptimeNanoseconds - t0) * 1e-9
    }

    /// Runs `sensorpipe run INPUT --out DB --jobs N --quiet --json` as a child process.
    func runPipeline(input: URL, jobs: Int, scratch: URL) throws -> Run {
        let db = scratch.appendingPathComponent("bench-\(jobs)-\(UUID().uuidString).sqlite")
        let json = scratch.appendingPathComponent("summary-\(jobs).json")
        defer {
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: db.path + suffix) }
        }
        let (status, usage, seconds) = try spawnChild(
            [binary.path, "run", input.path, "--out", db.path, "--jobs", String(jobs), "--quiet", "--json"], stdout: json.path)
        let text = (try? String(contentsOf: json, encoding: .utf8)) ?? ""
        guard let obj = (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any],
            let counts = obj["recordings"] as? [String: Int]
        else {
            throw BenchError("sensorpipe run --jobs \(jobs) printed no summary (status \(status)): \(text.prefix(300))")
        }
        let hours = (obj["signal_hours"] as? [String: Double])?.values.reduce(0, +) ?? 0
        return Run(
            jobs: jobs, seconds: seconds, peakRSSBytes: Int(usage.ru_maxrss) * 1024, cpuSeconds: cpuSeconds(usage),
            bytes: obj["bytes_analysed"] as? Int ?? 0, signalHours: hours,
            ok: counts["ok"] ?? 0, failed: counts["failed"] ?? 0)
    }
}

/// Runs `args` (`args[0]` the executable) as a child process, its standard output to the file
/// `stdout`, its standard error discarded; returns its wait status, resource usage (`wait4`) and
/// wall seconds.
func spawnChild(_ args: [String], stdout: String) throws -> (status: Int32, usage: rusage, seconds: Double) {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 1, stdout, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    var argv: [UnsafeMutablePointer<CChar>?] = args.map { strdup($0) } + [nil]
    defer { for p in argv { free(p) } }
    var pid = pid_t()
    let t0 = DispatchTime.now().uptimeNanoseconds
    let rc = posix_spawn(&pid, args[0], &actions, nil, &argv, environ)
    guard rc == 0 else { throw BenchError("cannot start \(args[0]): errno \(rc)") }
    var status: Int32 = 0
    var usage = rusage()
    while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
    return (status, usage, Double(DispatchTime.now().uptimeNanoseconds - t0) * 1e-9)
}

/// User + system CPU seconds of a resource usage.
func cpuSeconds(_ u: rusage) -> Double {
    Double(u.ru_utime.tv_sec + u.ru_stime.tv_sec) + Double(u.ru_utime.tv_usec + u.ru_stime.tv_usec) * 1e-6
}

/// Inflates every gzip member of `data` through `scratch`; returns the bytes produced.
func inflateGzip(_ data: Data, scratch out: inout [UInt8]) -> Int {
    var produced = 0
    data.withUnsafeBytes { (src: UnsafeRawBufferPointer) in
        var z = z_stream()
        inflateInit2_(&z, 16 + MAX_WBITS, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
        z.next_in = UnsafeMutablePointer(mutating: src.bindMemory(to: Bytef.self).baseAddress)
        z.avail_in = uInt(src.count)
        var rc = Z_OK
        while rc == Z_OK {
            out.withUnsafeMutableBufferPointer { o in
                z.next_out = o.baseAddress
                z.avail_out = uInt(o.count)
                rc = inflate(&z, Z_NO_FLUSH)
                produced &+= o.count - Int(z.avail_out)
            }
            if rc == Z_STREAM_END && z.avail_in > 0 { rc = inflateReset(&z) } // next member
        }
        inflateEnd(&z)
    }
    return produced
}

/// One gzip member (RFC 1952) holding `payload` in a stored deflate block (RFC 1951 §3.2.4);
/// `payload` at most 65,535 bytes.
func storedGzipMember(_ payload: [UInt8]) -> Data {
    precondition(payload.count <= 0xFFFF)
    var out: [UInt8] = [0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 0xFF]
    let n = UInt16(payload.count)
    out += [1, UInt8(n & 0xFF), UInt8(n >> 8), UInt8(~n & 0xFF), UInt8(~n >> 8)] + payload
    let crc = payload.withUnsafeBufferPointer { UInt32(crc32(0, $0.baseAddress, uInt($0.count))) }
    for v in [crc, UInt32(payload.count)] { out += (0..<4).map { UInt8(truncatingIfNeeded: v >> (8 * $0)) } }
    return Data(out)
}

struct BenchError: Error, CustomStringConvertible {
    var description: String
    init(_ d: String) { description = d }
}

/// `sensorpipe-bench --batch`: runs the benchmark, prints the figures (text or one JSON object),
/// checks limits from `--check FILE` (`batch/min_scaling_efficiency_jobs2`, `batch/max_peak_rss_mb`), and
/// returns the exit code.
func runBatchBenchmark(quick: Bool, json: Bool, check: String?, targetMegabytes: Double?) -> Int32 {
    let here = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    let root = here.deletingLastPathComponent().deletingLastPathComponent()
    let binary = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        .deletingLastPathComponent().appendingPathComponent("sensorpipe")
    guard FileManager.default.isExecutableFile(atPath: binary.path) else {
        FileHandle.standardError.write(Data("sensorpipe-bench: \(binary.path) not found; build it first (swift build -c release)\n".utf8))
        return 64
    }
    // The guard (quick + check) takes the median of 5 repetitions of shorter runs: on a shared
    // machine one repetition's scaling can be off by a third (see Benchmarks/README.md).
    let mb = targetMegabytes ?? (quick ? 32 : 1024)
    let bench = BatchBenchmark(
        targetBytes: Int(mb * 1_048_576), datasets: root.appendingPathComponent("Datasets"),
        binary: binary, repetitions: check == nil ? 2 : quick ? 5 : 3)
    let scratch = benchmarkScratch.appendingPathComponent("batch")
    defer { try? FileManager.default.removeItem(at: scratch) }
    do {
        let input = scratch.appendingPathComponent("input")
        try FileManager.default.createDirectory(at: input, withIntermediateDirectories: true)
        let made = try bench.makeInput(in: input)
        // Each pipeline run has its reference (inflate on as many threads as jobs) right beside
        // it; the order alternates per repetition (ref, run / run, ref; jobs 1, 2 / jobs 2, 1) so
        // that neither side is always first. The fastest run per job count is reported.
        var best = [Int: BatchBenchmark.Run]()
        var seconds = [1: [Double](), 2: [Double]()], inflate = [1: [Double](), 2: [Double]()]
        var peakRSS = 0
        for rep in 0..<bench.repetitions {
            for jobs in rep % 2 == 0 ? [1, 2] : [2, 1] {
                func pipeline() throws -> BatchBenchmark.Run {
                    // The guard's self-test (SENSORPIPE_BENCH_SLOWDOWN matching batch/jobsN) runs
                    // the same pipeline that many times and counts the total.
                    var r = try bench.runPipeline(input: input, jobs: jobs, scratch: scratch)
                    for _ in 1..<slowdownFactor(for: "batch/jobs\(jobs)") {
                        let again = try bench.runPipeline(input: input, jobs: jobs, scratch: scratch)
                        r.seconds += again.seconds
                        r.cpuSeconds += again.cpuSeconds
                    }
                    return r
                }
                let r: BatchBenchmark.Run
                if rep % 2 == 0 {
                    inflate[jobs]!.append(bench.inflateReference(copies: made.copies, threads: jobs))
                    r = try pipeline()
                } else {
                    r = try pipeline()
                    inflate[jobs]!.append(bench.inflateReference(copies: made.copies, threads: jobs))
                }
                guard r.ok == made.recordings && r.failed == 0 else {
                    throw BenchError("jobs \(jobs): \(r.ok) ok, \(r.failed) failed of \(made.recordings)")
                }
                seconds[jobs]!.append(r.seconds)
                peakRSS = max(peakRSS, r.peakRSSBytes)
                if best[jobs].map({ r.seconds < $0.seconds }) ?? true { best[jobs] = r }
            }
        }
        let scalings = zip(seconds[1]!, seconds[2]!).map { $0 / $1 }
        let referenceScalings = zip(inflate[1]!, inflate[2]!).map { $0 / $1 }
        let efficiencies = zip(scalings, referenceScalings).map { $0 / $1 }
        let efficiency = medianOf(efficiencies)
        let referenceScaling = medianOf(referenceScalings)
        let inflateSeconds = medianOf(inflate[1]!)
        let one = best[1]!, two = best[2]!
        let scaling = medianOf(scalings)
        let inflateMBps = Double(made.bytes) / 1e6 / inflateSeconds
        func mbps(_ r: BatchBenchmark.Run) -> Double { Double(r.bytes) / 1e6 / r.seconds }
        if json {
            let obj: [String: Any] = [
                "name": "batch/run/datasets", "input_bytes": made.bytes, "recordings": made.recordings,
                "jobs1_seconds": one.seconds, "jobs2_seconds": two.seconds,
                "jobs1_mb_per_second": mbps(one), "jobs2_mb_per_second": mbps(two),
                "jobs1_signal_hours_per_second": one.signalHours / one.seconds,
                "jobs2_signal_hours_per_second": two.signalHours / two.seconds,
                "signal_hours": one.signalHours, "scaling_jobs2": scaling,
                "reference_scaling_jobs2": referenceScaling, "scaling_efficiency_jobs2": efficiency,
                "scaling_efficiencies": efficiencies, "repetitions": bench.repetitions,
                "peak_rss_mb": Double(peakRSS) / 1_048_576,
                "inflate_threads1_seconds": inflate[1]!, "inflate_threads2_seconds": inflate[2]!,
                "jobs1_seconds_all": seconds[1]!, "jobs2_seconds_all": seconds[2]!,
                "jobs1_peak_rss_mb": Double(one.peakRSSBytes) / 1_048_576,
                "jobs2_peak_rss_mb": Double(two.peakRSSBytes) / 1_048_576,
                "jobs1_cpu_seconds": one.cpuSeconds, "jobs2_cpu_seconds": two.cpuSeconds,
                "inflate_mb_per_second": inflateMBps, "ratio_jobs1_vs_inflate": inflateMBps / mbps(one),
            ]
            let data = try JSONSerialization.data(withJSONObject: obj, options: [.sortedKeys])
            print(String(decoding: data, as: UTF8.self))
        } else {
            print(
                String(
                    format: "batch: %d recordings, %.1f MB of input (%.1f h of signal), Datasets/ copied %@",
                    made.recordings, Double(made.bytes) / 1e6, one.signalHours, quick ? "(quick)" : ""))
            for r in [one, two] {
                print(
                    String(
                        format: "  --jobs %d: %7.2f s (CPU %6.2f s)  %7.1f MB/s  %8.1f h of signal/s  peak RSS %6.1f MB",
                        r.jobs, r.seconds, r.cpuSeconds, mbps(r), r.signalHours / r.seconds, Double(r.peakRSSBytes) / 1_048_576))
            }
            print(
                String(
                    format: "  scaling jobs 2 / jobs 1: %.2f× (median of %d); inflate on 2 / 1 threads: %.2f×; efficiency %.3f (%@)",
                    scaling, scalings.count, referenceScaling, efficiency,
                    efficiencies.map { String(format: "%.3f", $0) }.joined(separator: ", ")))
            print(
                String(
                    format: "  zlib inflate of the same bytes: %.1f MB/s (pipeline, 1 job, is %.1f× slower)",
                    inflateMBps, inflateMBps / mbps(one)))
        }
        guard let check else { return 0 }
        guard let data = FileManager.default.contents(atPath: check),
            let limits = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
        else {
            FileHandle.standardError.write(Data("sensorpipe-bench: cannot read thresholds '\(check)'\n".utf8))
            return 64
        }
        var failed = false
        if let minEfficiency = (limits["batch/min_scaling_efficiency_jobs2"] as? NSNumber)?.doubleValue {
            let ok = efficiency >= minEfficiency
            failed = failed || !ok
            FileHandle.standardError.write(
                Data(
                    String(
                        format:
                            "guard: batch scaling efficiency %.3f (min %.3f; scaling %.2f ÷ inflate scaling %.2f, median of %d repetitions) %@\n",
                        efficiency, minEfficiency, scaling, referenceScaling, efficiencies.count, ok ? "ok" : "REGRESSED"
                    ).utf8))
        }
        if let maxRSS = (limits["batch/max_peak_rss_mb"] as? NSNumber)?.doubleValue {
            let peak = Double(peakRSS) / 1_048_576
            let ok = peak <= maxRSS
            failed = failed || !ok
            FileHandle.standardError.write(
                Data(String(format: "guard: batch peak RSS %.1f MB (max %.0f) %@\n", peak, maxRSS, ok ? "ok" : "REGRESSED").utf8))
        }
        for key in limits.keys.sorted()
        where key.hasPrefix("batch/")
            && !["batch/min_scaling_efficiency_jobs2", "batch/max_peak_rss_mb"].contains(key)
        {
            FileHandle.standardError.write(Data("guard: unknown batch limit '\(key)'\n".utf8))
            failed = true
        }
        return failed ? 1 : 0
    } catch {
        FileHandle.standardError.write(Data("sensorpipe-bench --batch: \(error)\n".utf8))
        return 1
    }
}

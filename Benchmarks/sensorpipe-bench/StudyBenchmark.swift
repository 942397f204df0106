import CZlib
import Foundation

/// `sensorpipe-bench --study DIR`: `sensorpipe run DIR --jobs 1` over a study folder (e.g. one
/// `scripts/make-study.py` wrote), against zlib inflating every gzip file under DIR on one thread
/// in the same process run, interleaved (inflate, run / run, inflate, alternating), `repetitions`
/// times. Both sides are timed by CPU time (user + system: the child's from `wait4`, the
/// inflate's from `getrusage`), because the machine is shared; the figure is the median of the
/// per-repetition ratios run CPU ÷ inflate CPU. With `compare`, an older `sensorpipe` runs the
/// same input in each repetition too (its own ratio). `runArguments` are passed to every
/// `sensorpipe run` (e.g. `--features-raw true`). Reported besides: wall seconds, peak RSS, the
/// database's size and the run's summary (recordings, hours of signal).
struct StudyBenchmark {
    var input: URL
    var binaries: [(label: String, path: String)]
    var runArguments: [String]
    var repetitions: Int

    struct Run {
        var cpuSeconds: Double
        var wallSeconds: Double
        var peakRSSMB: Double
        var databaseBytes: Int
        var ok: Int
        var failed: Int
        var signalHours: Double
    }

    /// Every `.gz` file under the input (sorted), read into memory once (outside the timing).
    func gzipFiles() -> [Data] {
        let names = (FileManager.default.enumerator(atPath: input.path)?.compactMap { $0 as? String } ?? [])
            .filter { $0.hasSuffix(".gz") }.sorted()
        return names.compactMap { FileManager.default.contents(atPath: input.appendingPathComponent($0).path) }
    }

    /// CPU seconds (user + system) this process spent inflating `files` once.
    func inflateCPUSeconds(_ files: [Data]) -> Double {
        let before = processCPUSeconds()
        var out = [UInt8](repeating: 0, count: 1 << 18)
        var produced = 0
        for data in files { produced &+= inflateGzip(data, scratch: &out) }
        blackHole(produced)
        return processCPUSeconds() - before
    }

    func processCPUSeconds() -> Double {
        var u = rusage()
        getrusage(RUSAGE_SELF.rawValue, &u)
        return cpuSeconds(u)
    }

    /// `BINARY run INPUT --out DB --jobs 1 --quiet --json RUN-ARGUMENTS` as a child process.
    func run(_ binary: String, scratch: URL) throws -> Run {
        let db = scratch.appendingPathComponent("study-\(UUID().uuidString).sqlite")
        let json = scratch.appendingPathComponent("study-summary.json")
        defer {
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: db.path + suffix) }
        }
        let (status, usage, wall) = try spawnChild(
            [binary, "run", input.path, "--out", db.path, "--jobs", "1", "--quiet", "--json"] + runArguments, stdout: json.path)
        let text = (try? String(contentsOf: json, encoding: .utf8)) ?? ""
        guard let obj = (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any],
            let counts = obj["recordings"] as? [String: Int]
        else { throw BenchError("\(binary) run printed no summary (status \(status)): \(text.prefix(300))") }
        let size = (try? FileManager.default.attributesOfItem(atPath: db.path)[.size] as? Int) ?? 0
        return Run(
            cpuSeconds: cpuSeconds(usage), wallSeconds: wall, peakRSSMB: Double(usage.ru_maxrss) / 1024, databaseBytes: size,
            ok: counts["ok"] ?? 0, failed: counts["failed"] ?? 0,
            signalHours: (obj["signal_hours"] as? [String: Double])?.values.reduce(0, +) ?? 0)
    }
}

/// `sensorpipe-bench --study DIR`: prints the figures (text or one JSON object); exit code.
func runStudyBenchmark(
    input: String, compare: String?, runArguments: [String], repetitions: Int, json: Bool
) -> Int32 {
    let here = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
    var binaries = [(label: "this build", path: here.appendingPathComponent("sensorpipe").path)]
    if let compare { binaries.append((label: "compare", path: URL(fileURLWithPath: compare).path)) }
    for b in binaries where !FileManager.default.isExecutableFile(atPath: b.path) {
        FileHandle.standardError.write(Data("sensorpipe-bench: \(b.path) not found; build it first\n".utf8))
        return 64
    }
    let bench = StudyBenchmark(
        input: URL(fileURLWithPath: input), binaries: binaries, runArguments: runArguments, repetitions: repetitions)
    let scratch = benchmarkScratch.appendingPathComponent("study")
    defer { try? FileManager.default.removeItem(at: scratch) }
    do {
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        let files = bench.gzipFiles()
        let gzipBytes = files.reduce(0) { $0 + $1.count }
        guard gzipBytes > 0 else { throw BenchError("no .gz files under \(input)") }
        var inflate = [Double]()
        var runs = [[StudyBenchmark.Run]](repeating: [], count: binaries.count)
        var ratios = [[Double]](repeating: [], count: binaries.count)
        for rep in 0..<repetitions {
            // Alternate which side goes first, and the binaries' order.
            let order = rep % 2 == 0 ? Array(binaries.indices) : binaries.indices.reversed()
            var reference = 0.0
            if rep % 2 == 0 { reference = bench.inflateCPUSeconds(files) }
            var these = [Int: StudyBenchmark.Run]()
            for b in order { these[b] = try bench.run(binaries[b].path, scratch: scratch) }
            if rep % 2 == 1 { reference = bench.inflateCPUSeconds(files) }
            inflate.append(reference)
            for (b, r) in these {
                guard r.failed == 0, r.ok > 0 else { throw BenchError("\(binaries[b].path): \(r.ok) ok, \(r.failed) failed") }
                runs[b].append(r)
                ratios[b].append(r.cpuSeconds / reference)
            }
        }
        if json {
            var obj: [String: Any] = [
                "name": "study/run-jobs1", "input": input, "gzip_bytes": gzipBytes, "repetitions": repetitions,
                "inflate_cpu_seconds": inflate, "run_arguments": runArguments,
            ]
            for (b, bin) in binaries.enumerated() {
                let key = b == 0 ? "build" : "compare"
                let last = runs[b].last
                var entry = [String: Any]()
                entry["binary"] = bin.path
                entry["cpu_seconds"] = runs[b].map(\.cpuSeconds)
                entry["wall_seconds"] = runs[b].map(\.wallSeconds)
                entry["ratio_cpu_vs_inflate"] = medianOf(ratios[b])
                entry["ratios"] = ratios[b]
                entry["peak_rss_mb"] = runs[b].map(\.peakRSSMB).max() ?? 0
                entry["database_bytes"] = last?.databaseBytes ?? 0
                entry["recordings_ok"] = last?.ok ?? 0
                entry["signal_hours"] = last?.signalHours ?? 0
                obj[key] = entry
            }
            let data = try JSONSerialization.data(withJSONObject: obj, options: [.sortedKeys])
            print(String(decoding: data, as: UTF8.self))
        } else {
            print(
                String(
                    format: "study: %@, %.1f MB of gzip, %d repetitions; zlib inflate CPU %@ s",
                    input, Double(gzipBytes) / 1e6, repetitions,
                    inflate.map { String(format: "%.2f", $0) }.joined(separator: " / ")))
            for (b, bin) in binaries.enumerated() {
                let last = runs[b].last!
                print(
                    String(
                        format:
                            "  %@ (%@): run --jobs 1 CPU %@ s; ratio to inflate %.2f× (%@); %d recordings, %.1f h of signal, database %.1f MB, peak RSS %.0f MB",
                        bin.label, bin.path, runs[b].map { String(format: "%.2f", $0.cpuSeconds) }.joined(separator: " / "),
                        medianOf(ratios[b]), ratios[b].map { String(format: "%.2f", $0) }.joined(separator: ", "),
                        last.ok, last.signalHours, Double(last.databaseBytes) / 1e6, runs[b].map(\.peakRSSMB).max() ?? 0))
            }
        }
        return 0
    } catch {
        FileHandle.standardError.write(Data("sensorpipe-bench --study: \(error)\n".utf8))
        return 1
    }
}

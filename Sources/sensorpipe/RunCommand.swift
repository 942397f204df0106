import Foundation
import Pipeline
import Recordings
import Synchronization

/// A recording's analysis error as text (errors cross threads as values).
struct AnalysisFailure: Error, Sendable {
    var message: String
}

/// `sensorpipe run`: a resumable batch of recordings into one SQLite database.
enum RunCommand {
    static let usage = """
        USAGE: sensorpipe run INPUT… [--out FILE] [--jobs N] [--shard K/N] [--hr-window S] [--hr-step S] [--preset NAME]

        Analyses every recording among the INPUTs (files, or folders searched recursively) into one
        SQLite database (default ./results.sqlite): the tables of `sensorpipe analyze` plus `runs`,
        `recordings` (path, size, content hash, status, error, QC account) and `streams`
        (docs/RESULTS.md). Each recording is written in one transaction. A recording that fails is
        recorded with its error and the batch goes on. Rerunning resumes: recordings already done
        with the same content (FNV-1a 64 hash) and configuration are skipped.

        OPTIONS:
          --out FILE      SQLite database (created if needed)
          --jobs N        recordings analysed in parallel (default: the number of cores); one writer
                          stores them in input order, so the database does not depend on N
          --shard K/N     analyse only part K of N (by a stable hash of each recording's path as
                          given), so N independent jobs with the same INPUTs cover it exactly once
          --hr-window S   heart-rate window, seconds (default 10)
          --hr-step S     heart-rate window step, seconds (default 10)
          --preset NAME   layout of CSV/MATLAB inputs (default: detected from content)
          -h, --help      show this help
        Exit codes: 0 all recordings ok or skipped, 1 some failed, 64 usage error.
        """

    static func run(_ args: [String]) -> Int32 {
        var inputs = [String]()
        var out = "results.sqlite"
        var options = ECGAnalyzer.Options()
        var decode = DecodeOptions()
        var shard: Shard?
        var jobs = ProcessInfo.processInfo.activeProcessorCount
        var cursor = ArgumentCursor(args, usage: usage)
        while let a = cursor.next() {
            if cursor.analysisOption(a, ecg: &options, decode: &decode) { continue }
            switch a {
            case "--out": out = cursor.value(a)
            case "--jobs":
                let v = cursor.value(a)
                guard let n = Int(v), n >= 1 else { CLI.usageError("--jobs needs a positive integer, got '\(v)'", usage: usage) }
                jobs = n
            case "--shard":
                let v = cursor.value(a)
                guard let s = Shard(v) else { CLI.usageError("--shard needs K/N with 1 ≤ K ≤ N, got '\(v)'", usage: usage) }
                shard = s
            case "-h", "--help":
                print(usage)
                return 0
            default:
                if a.hasPrefix("-") { CLI.usageError("unknown option '\(a)'", usage: usage) }
                inputs.append(a)
            }
        }
        guard !inputs.isEmpty else { CLI.usageError("no INPUT given", usage: usage) }
        // Absolute paths, so a rerun from another folder still recognises what is done.
        // The shard is chosen on the paths as given (identical on every node of a job array).
        let files = CLI.expand(inputs).filter { shard?.contains(path: $0) ?? true }
            .map { URL(fileURLWithPath: $0).standardizedFileURL.path }
        let start = Date()
        let batch: BatchDatabase
        do {
            batch = try BatchDatabase(path: out)
            try batch.startRun(softwareVersion: SensorPipeCommand.version,
                               configJSON: configJSON(options: options, decode: decode))
        } catch {
            CLI.error("\(out): \(error)")
            return 1
        }
        var ok = 0, failed = 0, skipped = 0
        // Work in rounds of `jobs` recordings: the main thread hashes and skips what is done,
        // workers analyse the rest into memory in parallel, then the main thread stores them one
        // transaction each, in input order (memory is bounded by `jobs` recordings' results).
        var next = 0
        while next < files.count {
            var round: [(file: String, size: Int, hash: String)] = []
            while round.count < jobs && next < files.count {
                let file = files[next]
                next += 1
                do {
                    let size = (try FileManager.default.attributesOfItem(atPath: file)[.size] as? NSNumber)?.intValue ?? 0
                    let hash = try ContentHash.file(file)
                    if try batch.isDone(path: file, contentHash: hash) {
                        skipped += 1
                    } else {
                        round.append((file, size, hash))
                    }
                } catch let error as SQLiteError {
                    CLI.error("\(out): \(error)")
                    _ = try? batch.finishRun(ok: ok, failed: failed, skipped: skipped)
                    return 1
                } catch {
                    failed += 1
                    print("FAILED  \(file): \(error)")
                    do {
                        try batch.recordFailure(path: file, size: nil, contentHash: nil, error: "\(error)")
                    } catch {
                        CLI.error("\(out): \(error)")
                        return 1
                    }
                }
            }
            let results = Mutex([Int: Result<(RecordingAnalysis.Summary, StagedResults), AnalysisFailure>]())
            let work = round, decodeOptions = decode, ecgOptions = options
            DispatchQueue.concurrentPerform(iterations: work.count) { k in
                let staging = StagingSink()
                let outcome: Result<(RecordingAnalysis.Summary, StagedResults), AnalysisFailure>
                do {
                    let summary = try RecordingAnalysis.run(path: work[k].file, decode: decodeOptions, ecg: ecgOptions,
                                                            sink: staging)
                    outcome = .success((summary, staging.staged))
                } catch {
                    let text = (error as? RecordingError).map(\.description) ?? "\(work[k].file): \(error)"
                    outcome = .failure(AnalysisFailure(message: text))
                }
                results.withLock { $0[k] = outcome }
            }
            let done = results.withLock { $0 }
            for (k, item) in work.enumerated() {
                do {
                    switch done[k]! {
                    case .success(let (summary, staged)):
                        try batch.store(path: item.file, size: item.size, contentHash: item.hash,
                                        summary: summary, results: staged)
                        ok += 1
                        print("ok      \(item.file): \(summary.streams) stream(s), \(summary.beats) beats")
                    case .failure(let failure):
                        failed += 1
                        print("FAILED  \(failure.message)")
                        try batch.recordFailure(path: item.file, size: item.size, contentHash: item.hash,
                                                error: failure.message)
                    }
                } catch {
                    CLI.error("\(out): \(error)")
                    _ = try? batch.finishRun(ok: ok, failed: failed, skipped: skipped)
                    return 1
                }
            }
        }
        do {
            try batch.finishRun(ok: ok, failed: failed, skipped: skipped)
        } catch {
            CLI.error("\(out): \(error)")
            return 1
        }
        let elapsed = Date().timeIntervalSince(start)
        print("""
            \(files.count) recording(s)\(shard.map { " in shard \($0)" } ?? ""): \(ok) ok, \(failed) failed, \
            \(skipped) skipped (already done) in \(String(format: "%.1f", elapsed)) s → \(out)
            """)
        return failed == 0 ? 0 : 1
    }

    /// The run's configuration as canonical JSON (sorted keys); its hash decides resuming, so it
    /// holds every option that changes results, and the software version.
    static func configJSON(options: ECGAnalyzer.Options, decode: DecodeOptions) -> String {
        let config: [String: Any] = [
            "software_version": SensorPipeCommand.version,
            "ecg": [
                "heart_rate_window_s": options.heartRateWindowSeconds,
                "heart_rate_step_s": options.heartRateStepSeconds,
                "hrv_window_s": options.hrvWindowSeconds,
                "quality_window_s": options.qualityWindowSeconds,
            ],
            "decode": ["preset": decode.preset.map { "\($0.rawValue)" } ?? "auto"],
        ]
        let data = (try? JSONSerialization.data(withJSONObject: config, options: [.sortedKeys])) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }
}

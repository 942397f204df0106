import Foundation
import Pipeline
import Recordings

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
          --jobs N        accepted for compatibility; recordings are analysed one at a time for now
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
        var i = 0
        func value(_ name: String) -> String {
            i += 1
            guard i < args.count else { CLI.usageError("\(name) needs a value", usage: usage) }
            return args[i]
        }
        func seconds(_ name: String) -> Double {
            let v = value(name)
            guard let s = Double(v), s > 0, s.isFinite else {
                CLI.usageError("\(name) needs a positive number of seconds, got '\(v)'", usage: usage)
            }
            return s
        }
        while i < args.count {
            let a = args[i]
            switch a {
            case "--out": out = value(a)
            case "--jobs":
                let v = value(a)
                guard let n = Int(v), n >= 1 else { CLI.usageError("--jobs needs a positive integer, got '\(v)'", usage: usage) }
                _ = n
            case "--shard":
                let v = value(a)
                guard let s = Shard(v) else { CLI.usageError("--shard needs K/N with 1 ≤ K ≤ N, got '\(v)'", usage: usage) }
                shard = s
            case "--hr-window": options.heartRateWindowSeconds = seconds(a)
            case "--hr-step": options.heartRateStepSeconds = seconds(a)
            case "--preset": decode.preset = CLI.preset(value(a), usage: usage)
            case "-h", "--help":
                print(usage)
                return 0
            default:
                if a.hasPrefix("-") { CLI.usageError("unknown option '\(a)'", usage: usage) }
                inputs.append(a)
            }
            i += 1
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
        for file in files {
            var size: Int?
            var hash: String?
            do {
                size = (try FileManager.default.attributesOfItem(atPath: file)[.size] as? NSNumber)?.intValue
                let h = try ContentHash.file(file)
                hash = h
                if try batch.isDone(path: file, contentHash: h) {
                    skipped += 1
                    continue
                }
                let summary = try batch.analyze(path: file, size: size ?? 0, contentHash: h, decode: decode, ecg: options)
                ok += 1
                print("ok      \(file): \(summary.streams) stream(s), \(summary.beats) beats")
            } catch let error as SQLiteError {
                CLI.error("\(out): \(error)")
                _ = try? batch.finishRun(ok: ok, failed: failed, skipped: skipped)
                return 1
            } catch {
                failed += 1
                // Decoding errors already name the file (and the place in it).
                let text = (error as? RecordingError).map(\.description) ?? "\(file): \(error)"
                print("FAILED  \(text)")
                do {
                    try batch.recordFailure(path: file, size: size, contentHash: hash, error: "\(error)")
                } catch {
                    CLI.error("\(out): \(error)")
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

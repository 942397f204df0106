import Pipeline
import Recordings

/// Walks a command's arguments; option values are read with usage errors that name the option.
struct ArgumentCursor {
    let args: [String]
    let usage: String
    private(set) var index = 0

    init(_ args: [String], usage: String) {
        self.args = args
        self.usage = usage
    }

    /// The next argument, or `nil` at the end.
    mutating func next() -> String? {
        guard index < args.count else { return nil }
        defer { index += 1 }
        return args[index]
    }

    /// The value following option `name`; `what` names it in the usage error (`--out needs a FILE`).
    mutating func value(_ name: String, _ what: String = "a value") -> String {
        guard let v = next() else { CLI.usageError("\(name) needs \(what)", usage: usage) }
        return v
    }

    /// A positive, finite number of seconds following option `name`.
    mutating func seconds(_ name: String) -> Double {
        let v = value(name)
        guard let s = Double(v), s > 0, s.isFinite else {
            CLI.usageError("\(name) needs a positive number of seconds, got '\(v)'", usage: usage)
        }
        return s
    }

    /// The analysis configuration from `--config FILE` (defaults without it), read before the
    /// other options so that options on the command line override the file wherever they stand.
    func configuration() -> AnalysisConfiguration {
        guard let k = args.firstIndex(of: "--config") else { return AnalysisConfiguration() }
        guard k + 1 < args.count else { CLI.usageError("--config needs a value", usage: usage) }
        do {
            return try AnalysisConfiguration(configurationFile: args[k + 1])
        } catch {
            CLI.usageError("\(error)", usage: usage)
        }
    }

    /// Handles the analysis options shared by `analyze` and `run` (`--hr-window`, `--hr-step`,
    /// `--preset`, `--config FILE`); returns `false` when `option` is not one of them.
    mutating func analysisOption(_ option: String, analysis: inout AnalysisConfiguration) -> Bool {
        switch option {
        case "--hr-window": analysis.ecg.heartRateWindowSeconds = seconds(option)
        case "--hr-step": analysis.ecg.heartRateStepSeconds = seconds(option)
        case "--preset": analysis.decode.preset = CLI.preset(value(option), usage: usage)
        case "--config": _ = value(option)   // read up front by configuration()
        default: return false
        }
        return true
    }
}

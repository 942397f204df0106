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

    /// Handles the analysis options shared by `analyze` and `run`: every declared option of every
    /// registered family (``OptionDescriptor/flag``, e.g. `--ecg-hrv-window-s 300`), the short
    /// aliases `--hr-window` / `--hr-step`, `--preset`, `--no-verify-integrity` and `--config FILE`;
    /// returns `false` when
    /// `option` is not one of them.
    mutating func analysisOption(_ option: String, analysis: inout AnalysisConfiguration) -> Bool {
        // The short aliases set the options of every family that has them (heart-rate windows: ECG and PPG).
        let aliases = [
            "--hr-window": ["--ecg-heart-rate-window-s", "--ppg-heart-rate-window-s"],
            "--hr-step": ["--ecg-heart-rate-step-s", "--ppg-heart-rate-step-s"],
            "--features": ["--features-catalog"],
            "--channel": ["--ecg-channel"],
        ]
        let flags = aliases[option] ?? [option]
        let descriptors = flags.compactMap { f in AnalysisRegistry.families.lazy.flatMap(\.options).first(where: { $0.flag == f }) }
        if !descriptors.isEmpty {
            let text = value(option)
            for d in descriptors {
                guard let v = AnalysisOption<Void>.parse(text, kind: d.kind) else {
                    CLI.usageError("\(option): '\(text)' is not a valid value", usage: usage)
                }
                do {
                    try analysis.set(family: d.family, key: d.key, value: v, origin: option)
                } catch {
                    CLI.usageError("\(error)", usage: usage)
                }
            }
            return true
        }
        switch option {
        case "--preset": analysis.decode.preset = CLI.preset(value(option), usage: usage)
        case "--no-verify-integrity": analysis.decode.verifiesIntegrity = false
        case "--config": _ = value(option) // read up front by configuration()
        default: return false
        }
        return true
    }

    /// The analysis options' help lines, from the families' declarations.
    static var analysisOptionsHelp: String {
        var lines = ["ANALYSIS OPTIONS (also as JSON in --config FILE: {\"family\": {\"key\": value}}):"]
        for family in AnalysisRegistry.families {
            for o in family.options {
                let unit = o.unit.map { " \($0)" } ?? ""
                let range: String
                switch o.kind {
                case .number(let r): range = ", \(OptionValue.number(r.lowerBound))–\(OptionValue.number(r.upperBound))\(unit)"
                case .flag: range = ", true|false"
                case .choice(let w): range = ", " + w.joined(separator: "|")
                case .text: range = ""
                }
                let head = "  \(o.flag) V"
                lines.append(
                    (head.count < 32 ? head.padding(toLength: 32, withPad: " ", startingAt: 0) : head + "  ")
                        + "\(o.summary) (default \(o.defaultValue)\(unit)\(range))")
            }
        }
        lines.append("  --hr-window S, --hr-step S      set --ecg- and --ppg-heart-rate-window-s, --ecg- and --ppg-heart-rate-step-s")
        lines.append("  --features SET                  alias of --features-catalog (`sensorpipe features --list`)")
        lines.append("  --channel NAME|INDEX            alias of --ecg-channel")
        return lines.joined(separator: "\n")
    }
}

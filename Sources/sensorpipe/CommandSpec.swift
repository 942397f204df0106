import Pipeline
import Recordings

/// One option of a command, declared once: the command's `--help`, the shell completions
/// (`sensorpipe completions bash|zsh`) and the man page (`sensorpipe manpage`) are made from it.
struct OptionSpec {
    /// What the value is, for completion.
    enum Value {
        /// A flag without a value.
        case none
        /// A file path (completed from the file system).
        case file(String)
        /// A folder path.
        case folder(String)
        /// One of these words.
        case choice(String, [String])
        /// Any other text (not completed).
        case text(String)

        /// The placeholder shown in help (`PATH`, `N`), or `nil` for a flag.
        var placeholder: String? {
            switch self {
            case .none: nil
            case .file(let p), .folder(let p), .text(let p), .choice(let p, _): p
            }
        }
    }

    /// Spellings, the long one first (`--quiet`, `-q`).
    var flags: [String]
    var value: Value
    /// The help text (wrapped when printed).
    var help: String

    init(_ flags: String..., value: Value = .none, help: String) {
        self.flags = flags
        self.value = value
        self.help = help
    }

    /// The `--help` line(s): flags and placeholder, then the text wrapped at 96 columns.
    var helpLines: String {
        let head = "  " + flags.joined(separator: ", ") + (value.placeholder.map { " " + $0 } ?? "")
        let indent = 18
        var lines = [String]()
        var line = head.count < indent ? head.padding(toLength: indent, withPad: " ", startingAt: 0) : head + "  "
        var width = line.count
        for word in help.split(separator: " ") {
            if width + word.count > 96 && width > indent {
                lines.append(String(line.dropLast(line.hasSuffix(" ") ? 1 : 0)))
                line = String(repeating: " ", count: indent)
                width = indent
            }
            line += word + " "
            width += word.count + 1
        }
        lines.append(String(line.dropLast()))
        return lines.joined(separator: "\n")
    }
}

extension OptionSpec {
    /// `--preset NAME`, shared by the commands that decode.
    static let preset = OptionSpec(
        "--preset", value: .choice("NAME", RecordingPreset.allCases.map(\.rawValue)),
        help: "layout of CSV/MATLAB inputs (default: detected from content)")
    /// `--no-verify-integrity` (``DecodeOptions/verifiesIntegrity`` off), shared by the commands that decode.
    static let noVerifyIntegrity = OptionSpec(
        "--no-verify-integrity",
        help:
            "deliver data whose integrity checks fail (WFDB checksum or header/data mismatch, GT3X CRC-32) and report each "
            + "failure as an issue, instead of failing the recording")
    /// `--config FILE`, shared by `analyze` and `run`.
    static let configFile = OptionSpec(
        "--config", value: .file("FILE"),
        help: "analysis options as JSON (docs/RESULTS.md, \"Configuration files\"); options given on the command line override the file")
}

/// A command declared once: synopsis, description and options.
struct CommandSpec {
    /// The word after `sensorpipe`.
    var name: String
    /// One line for the top-level help and the man page's list.
    var summary: String
    /// The usage line(s) after `sensorpipe `.
    var synopsis: String
    /// What the command does (paragraphs as written).
    var about: String
    /// The command's own options (`-h, --help` is added).
    var options: [OptionSpec]
    /// Whether the analysis options of every registered family apply (`analyze`, `run`).
    var takesAnalysisOptions = false
    /// Text after the options (progress, exit codes).
    var epilogue = ""
    /// What the positional arguments are, for completion: files and folders, or nothing.
    var positionalFiles = true

    /// Every option, `--help` included.
    var allOptions: [OptionSpec] { options + [OptionSpec("--help", "-h", help: "show this help")] }

    /// The command's `--help` text.
    var usage: String {
        var text = "USAGE: sensorpipe \(synopsis)\n\n\(about)\n\nOPTIONS:\n"
        text += allOptions.map(\.helpLines).joined(separator: "\n")
        if takesAnalysisOptions { text += "\n\n" + ArgumentCursor.analysisOptionsHelp }
        if !epilogue.isEmpty { text += "\n\n" + epilogue }
        return text
    }

    /// The analysis options as option declarations (from the registry).
    static var analysisOptions: [OptionSpec] {
        var out = AnalysisRegistry.families.flatMap(\.options).map { o -> OptionSpec in
            let value: OptionSpec.Value
            switch o.kind {
            case .choice(let words): value = .choice("V", words)
            case .flag: value = .choice("V", ["true", "false"])
            case .number, .text: value = .text("V")
            }
            return OptionSpec(o.flag, value: value, help: o.summary + (o.unit.map { " (\($0))" } ?? ""))
        }
        out.append(OptionSpec("--hr-window", value: .text("S"), help: "sets --ecg- and --ppg-heart-rate-window-s"))
        out.append(OptionSpec("--hr-step", value: .text("S"), help: "sets --ecg- and --ppg-heart-rate-step-s"))
        out.append(OptionSpec("--features", value: .text("SET"), help: "alias of --features-catalog"))
        out.append(
            OptionSpec(
                "--channel", value: .text("NAME|INDEX"),
                help:
                    "ECG leads to analyse, comma-separated channel names or 0-based indexes among the ECG streams (alias of --ecg-channel; default every lead)"
            ))
        return out
    }

    /// Options completed for this command: its own, then the analysis options when they apply.
    var completedOptions: [OptionSpec] { allOptions + (takesAnalysisOptions ? Self.analysisOptions : []) }
}

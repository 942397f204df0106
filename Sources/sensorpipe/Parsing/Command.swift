import Foundation
import Pipeline

/// The options of one command: made empty, then filled by the parser.
protocol CommandOptions {
    init()
    /// The positional arguments, in order.
    var arguments: [String] { get set }
}

/// What a command's positional arguments are.
struct ArgumentsSpec {
    /// How they read in the synopsis (`INPUT…`, `INPUT OUTPUT`, `bash|zsh`), or empty for none.
    var placeholder: String
    /// How many are needed.
    var count: ClosedRange<Int>
    /// The words they may be, when they are words (completed and checked); file paths otherwise.
    var words: [String]? = nil

    static let none = ArgumentsSpec(placeholder: "", count: 0...0)
    /// One or more files or folders.
    static func files(_ placeholder: String) -> Self { ArgumentsSpec(placeholder: placeholder, count: 1...Int.max) }
}

/// A command declared once: name, arguments, options (each bound to its place in `Options`),
/// cross-option rules and what it does. ``Command`` erases `Options` so the commands can be
/// listed together; everything the user sees about a command is made from this declaration.
struct CommandDeclaration<Options: CommandOptions> {
    /// The word after `sensorpipe`.
    var name: String
    /// One line for the top-level help and the man page's list.
    var summary: String
    var arguments: ArgumentsSpec
    /// What the command does (paragraphs as written).
    var about: String
    /// The command's own options (`-h, --help` is added).
    var options: [CommandOption<Options>]
    /// Where the analysis options of every registered family go, for commands that take them.
    var analysis: WritableKeyPath<Options, AnalysisConfiguration>? = nil
    /// Text after the options (progress, exit codes).
    var epilogue = ""
    /// Rules between options and arguments, checked after parsing (`--gzip goes with --format csv`).
    var check: (Options) throws(UsageError) -> Void = { _ throws(UsageError) in }
    /// Runs the command; returns the exit code.
    var run: (Options) -> Int32

    /// Every option the parser accepts: the command's own, then the analysis options.
    var allOptions: [CommandOption<Options>] {
        options + (analysis.map { path in AnalysisOptions.options.map { $0.lifted(path) } } ?? [])
    }

    /// Parses `args`: `nil` when `-h`/`--help` is among them.
    func parse(_ args: [String]) throws(UsageError) -> Options? {
        let all = allOptions
        var byFlag = [String: CommandOption<Options>]()
        for o in all { for f in o.spec.flags { byFlag[f] = o } }
        var options = Options()
        var given: [(option: CommandOption<Options>, value: String?)] = []
        var k = 0
        while k < args.count {
            let a = args[k]
            k += 1
            if let o = byFlag[a] {
                var value: String?
                if o.takesValue {
                    guard k < args.count else {
                        throw UsageError("\(a) needs \(o.spec.value.placeholder.map { "a value (\($0))" } ?? "a value")")
                    }
                    value = args[k]
                    k += 1
                }
                given.append((o, value))
            } else if a == "-h" || a == "--help" {
                return nil
            } else if a.hasPrefix("-") {
                throw UsageError("unknown option '\(a)'")
            } else {
                options.arguments.append(a)
            }
        }
        for g in given where g.option.appliesFirst { try g.option.apply(&options, g.value) }
        for g in given where !g.option.appliesFirst { try g.option.apply(&options, g.value) }
        for o in all where o.spec.required && !given.contains(where: { $0.option.spec.flags == o.spec.flags }) {
            throw UsageError(([o.spec.flags[0]] + (o.spec.value.placeholder.map { [$0] } ?? [])).joined(separator: " ") + " is required")
        }
        let n = options.arguments.count
        if n < arguments.count.lowerBound {
            throw UsageError(
                arguments.count.lowerBound == 1 && n == 0 ? "no \(arguments.placeholder) given" : "\(name) takes \(arguments.placeholder)")
        }
        if n > arguments.count.upperBound {
            throw UsageError(
                arguments.count.upperBound == 0 ? "unexpected argument '\(options.arguments[0])'" : "\(name) takes \(arguments.placeholder)"
            )
        }
        if let words = arguments.words, let w = options.arguments.first(where: { !words.contains($0) }) {
            throw UsageError("'\(w)' is not one of \(words.joined(separator: ", "))")
        }
        try check(options)
        return options
    }
}

/// A declared command with its options type erased: what the dispatcher, `--help`, the
/// completions and the man page use.
struct Command {
    var name: String
    var summary: String
    var arguments: ArgumentsSpec
    var about: String
    var epilogue: String
    /// The command's own options, `--help` last.
    var options: [OptionSpec]
    /// The analysis options, when the command takes them.
    var analysisOptions: [OptionSpec]
    /// Parses the arguments and runs; returns the exit code.
    let main: ([String]) -> Int32

    init<O>(_ d: CommandDeclaration<O>) {
        name = d.name
        summary = d.summary
        arguments = d.arguments
        about = d.about
        epilogue = d.epilogue
        options = d.options.map(\.spec) + [OptionSpec(flags: ["--help", "-h"], value: .none, help: "show this help")]
        analysisOptions = d.analysis == nil ? [] : AnalysisOptions.options.map(\.spec)
        let (name, usageLine) = (d.name, Self.usageLine(d.name, d.arguments, d.options.map(\.spec), analysis: d.analysis != nil))
        main = { args in
            let parsed: O?
            do throws(UsageError) {
                parsed = try d.parse(args)
            } catch {
                CLI.usageError(error.message, usage: usageLine, command: name)
            }
            guard let parsed else {
                print(Command(d).help)
                return 0
            }
            return d.run(parsed)
        }
    }

    /// Every option completed for the command: its own, then the analysis options.
    var completedOptions: [OptionSpec] { options + analysisOptions }

    /// Whether the positional arguments are files (completed from the file system).
    var takesFiles: Bool { arguments.count.upperBound > 0 && arguments.words == nil }

    /// The one-line usage printed with a usage error: `sensorpipe run INPUT… [OPTIONS]`.
    static func usageLine(_ name: String, _ arguments: ArgumentsSpec, _ options: [OptionSpec], analysis: Bool) -> String {
        (["sensorpipe", name] + (arguments.placeholder.isEmpty ? [] : [arguments.placeholder])
            + options.filter(\.required).map(\.synopsisWord) + [analysis ? "[OPTIONS] [ANALYSIS OPTIONS]" : "[OPTIONS]"])
            .joined(separator: " ")
    }

    /// The full synopsis after `sensorpipe `: arguments, then every option, wrapped at 96 columns.
    var synopsis: String {
        var words = [name] + (arguments.placeholder.isEmpty ? [] : [arguments.placeholder])
        words += options.filter(\.required).map(\.synopsisWord)
        words += options.filter { !$0.required && $0.flags[0] != "--help" }.map(\.synopsisWord)
        if !analysisOptions.isEmpty { words.append("[ANALYSIS OPTIONS]") }
        var lines = [String]()
        var line = ""
        for w in words {
            if !line.isEmpty && line.count + 1 + w.count > 84 {
                lines.append(line)
                line = String(repeating: " ", count: name.count + 1)
            }
            line += (line.isEmpty || line.hasSuffix(" ") ? "" : " ") + w
        }
        lines.append(line)
        return lines.joined(separator: "\n")
    }

    /// The command's `--help` text.
    var help: String {
        var text = "USAGE: sensorpipe \(synopsis)\n\n\(about)\n\nOPTIONS:\n"
        text += options.map(\.helpLines).joined(separator: "\n")
        if !analysisOptions.isEmpty {
            text += "\n\nANALYSIS OPTIONS (also as JSON in --config FILE: {\"family\": {\"key\": value}}):\n"
            text += analysisOptions.map { o in OptionSpec.wrap(head: "  \(o.flags[0]) \(o.value.placeholder ?? "")", o.help, indent: 34) }
                .joined(separator: "\n")
        }
        if !epilogue.isEmpty { text += "\n\n" + epilogue }
        return text
    }
}

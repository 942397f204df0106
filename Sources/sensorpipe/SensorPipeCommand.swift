import Foundation
import Pipeline
import Recordings

/// `sensorpipe`: the command-line tool of SensorPipe.
@main
struct SensorPipeCommand {
    static var version: String { SensorPipeVersion.current }

    /// Every command, in the order the help lists them.
    static let commands: [CommandSpec] = [
        InspectCommand.spec, AnalyzeCommand.spec, RunCommand.spec, MergeCommand.spec, ConvertCommand.spec,
        TablesCommand.spec, ReportCommand.spec, FeaturesCommand.spec, CompletionsCommand.spec, CompletionsCommand.manpageSpec,
    ]

    static var usage: String {
        var text = "USAGE: sensorpipe <command> [options]\n\nCOMMANDS:\n"
        for c in commands { text += "  " + c.name.padding(toLength: 13, withPad: " ", startingAt: 0) + c.summary + "\n" }
        text += """

            OPTIONS:
              -V, --version  print the version
              -h, --help     show this help

            Run `sensorpipe <command> --help` for a command's options.
            Exit codes: 0 success, 1 some inputs failed, 2 the output could not be written (run),
            64 usage error.
            """
        return text
    }

    static func main() {
        var args = FilePathBytes.arguments // bytes that are not UTF-8 kept (file names may hold them)
        guard let command = args.first else {
            FileHandle.standardError.write(Data((usage + "\n").utf8))
            exit(64)
        }
        args.removeFirst()
        let code: Int32
        switch command {
        case "inspect": code = InspectCommand.run(args)
        case "convert": code = ConvertCommand.run(args)
        case "analyze": code = AnalyzeCommand.run(args)
        case "merge": code = MergeCommand.run(args)
        case "run": code = RunCommand.run(args)
        case "tables": code = TablesCommand.run(args)
        case "completions": code = CompletionsCommand.run(args)
        case "manpage": code = CompletionsCommand.runManpage(args)
        case "features": code = FeaturesCommand.run(args)
        case "report": code = ReportCommand.run(args)
        case "-h", "--help", "help":
            print(usage)
            code = 0
        case "--version", "-V":
            print("sensorpipe \(version)")
            code = 0
        default:
            CLI.usageError("unknown command '\(command)'", usage: usage)
        }
        exit(code)
    }
}

/// Small helpers shared by the commands.
enum CLI {
    /// Prints `message` and the usage to stderr and exits with 64.
    static func usageError(_ message: String, usage: String) -> Never {
        FileHandle.standardError.write(Data("sensorpipe: \(message)\n\n\(usage)\n".utf8))
        exit(64)
    }

    /// Prints an error line to stderr.
    static func error(_ message: String) {
        FileHandle.standardError.write(Data("sensorpipe: \(message)\n".utf8))
    }

    /// Parses `--preset NAME`.
    static func preset(_ name: String, usage: String) -> RecordingPreset {
        guard let p = RecordingPreset(rawValue: name) else {
            usageError(
                "unknown preset '\(name)' (known: \(RecordingPreset.allCases.map(\.rawValue).joined(separator: ", ")))",
                usage: usage)
        }
        return p
    }

    /// Formats a time by what it counts from: Unix seconds as ISO 8601 UTC (`…Z`), device-local
    /// seconds since 1970 as ISO 8601 without a zone plus ` local`, stream-relative seconds as
    /// `+12.345 s`.
    static func time(_ t: Double?, origin: TimeOrigin = .unix) -> String {
        guard let t else { return "-" }
        switch origin {
        case .streamStart: return String(format: "+%.3f s", t)
        case .deviceLocal: return String(iso8601(t).dropLast()) + " local"
        case .unix: return iso8601(t)
        }
    }

    /// ISO 8601 UTC with milliseconds, e.g. `2024-05-21T09:00:00.000Z`.
    static func iso8601(_ t: Double) -> String {
        var seconds = time_t(t.rounded(.down))
        var tm = tm()
        gmtime_r(&seconds, &tm)
        let ms = Int(((t - t.rounded(.down)) * 1000).rounded(.down))
        return String(
            format: "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", tm.tm_year + 1900, tm.tm_mon + 1,
            tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, ms)
    }
}

import Foundation
import Pipeline
import Recordings

/// `sensorpipe`: the command-line tool of SensorPipe.
@main
struct SensorPipeCommand {
    static var version: String { SensorPipeVersion.current }

    /// Every command, declared once, in the order the help lists them.
    static var commands: [Command] {
        [
            InspectCommand.command, AnalyzeCommand.command, RunCommand.command, MergeCommand.command, ConvertCommand.command,
            TablesCommand.command, ReportCommand.command, FeaturesCommand.command, CompletionsCommand.command,
            CompletionsCommand.manpageCommand,
        ]
    }

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
        guard let name = args.first else {
            FileHandle.standardError.write(Data((usage + "\n").utf8))
            exit(64)
        }
        args.removeFirst()
        switch name {
        case "-h", "--help", "help":
            print(usage)
            exit(0)
        case "--version", "-V":
            print("sensorpipe \(version)")
            exit(0)
        default:
            guard let command = commands.first(where: { $0.name == name }) else {
                CLI.usageError("unknown command '\(name)'", usage: "sensorpipe <command> [options]", command: nil)
            }
            exit(command.main(args))
        }
    }
}

/// Small helpers shared by the commands.
enum CLI {
    /// Prints `message`, the one-line usage and the `--help` hint to stderr and exits with 64.
    /// - Parameters:
    ///   - usage: the command's one-line usage (``Command/usageLine(_:_:_:analysis:)``).
    ///   - command: the command's name, or `nil` for the top level.
    static func usageError(_ message: String, usage: String, command: String?) -> Never {
        let hint = command.map { "Run `sensorpipe \($0) --help` for its options." } ?? "Run `sensorpipe --help` for the commands."
        FileHandle.standardError.write(Data("sensorpipe: \(message)\nUSAGE: \(usage)\n\(hint)\n".utf8))
        exit(64)
    }

    /// The command line as typed, quoted for a POSIX shell where needed (the resume hint).
    static var commandLine: String {
        CommandLine.arguments.map { word in
            let plain =
                !word.isEmpty
                && word.unicodeScalars.allSatisfy {
                    $0.isASCII && (CharacterSet.alphanumerics.contains($0) || "_./=:,+-@%".unicodeScalars.contains($0))
                }
            return plain ? word : "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
        }.joined(separator: " ")
    }

    /// Prints an error line to stderr.
    static func error(_ message: String) {
        FileHandle.standardError.write(Data("sensorpipe: \(message)\n".utf8))
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

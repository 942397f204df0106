import Foundation
import Synchronization
import Testing

@testable import Pipeline
@testable import sensorpipe

/// The command line is declared once (``CommandDeclaration``): these tests fail when a declared
/// option or command does not reach `--help`, the completions, the man page or the parser.
@Suite("sensorpipe: every declared option reaches help, completions, man page and parser")
struct DeclarationTests {
    static let bash = CompletionsCommand.bash()
    static let zsh = CompletionsCommand.zsh()
    static let man = CompletionsCommand.manpage()

    static func roff(_ flag: String) -> String { flag.replacingOccurrences(of: "-", with: "\\-") }

    @Test("each command's declared options (its own and the analysis options) are in its --help, both completions and the man page")
    func declaredOptionsEverywhere() {
        let commands = SensorPipeCommand.commands
        #expect(commands.count == 10)
        #expect(Set(commands.map(\.name)).count == commands.count, "a command is declared twice")
        for c in commands {
            #expect(Self.bash.contains("    \(c.name))\n"), "bash completion lacks command \(c.name)")
            #expect(Self.zsh.contains("'\(c.name):"), "zsh completion lacks command \(c.name)")
            #expect(Self.man.contains(".SS \(Self.roff(c.name)) "), "man page lacks command \(c.name)")
            #expect(SensorPipeCommand.usage.contains("  \(c.name) "), "top-level help lacks \(c.name)")
            let help = c.help
            // The bash case of this command: from "    NAME)" to its ";;" line.
            let bashCase =
                Self.bash.components(separatedBy: "\n    \(c.name))\n").dropFirst().first?.components(separatedBy: "\n      ;;\n")
                .first ?? ""
            for o in c.completedOptions {
                for flag in o.flags {
                    #expect(help.contains(flag), "\(c.name) --help lacks \(flag)")
                    #expect(bashCase.contains(flag), "bash completion of \(c.name) lacks \(flag)")
                    #expect(Self.zsh.contains("\(flag)["), "zsh completion lacks \(c.name) \(flag)")
                    #expect(Self.man.contains(Self.roff(flag)), "man page lacks \(c.name) \(flag)")
                }
                if let placeholder = o.value.placeholder {
                    #expect(help.contains("\(o.flags[0]) \(placeholder)"), "\(c.name) --help lacks \(o.flags[0])'s \(placeholder)")
                }
            }
        }
    }

    @Test("every option every registered family declares, and every alias, is an analysis option of analyze, run and features")
    func familyOptions() {
        let declared = AnalysisRegistry.families.flatMap(\.options).map(\.flag) + AnalysisOptions.aliases.map(\.flag)
        #expect(declared.count > 20)
        for name in ["analyze", "run", "features"] {
            let c = SensorPipeCommand.commands.first { $0.name == name }!
            #expect(c.analysisOptions.map { $0.flags[0] } == declared, "\(name)")
        }
        for flag in declared { #expect(Self.man.contains(Self.roff(flag) + " "), "man page lacks \(flag)") }
    }

    @Test("the parser accepts every flag the help of a command shows (its value checked by the declared rule)")
    func parserAcceptsDeclaredFlags() throws {
        let analyze = AnalyzeCommand.command
        for o in analyze.completedOptions where o.flags[0] != "--help" && o.flags[0] != "--config" {
            let value: [String]
            switch o.value {
            case .none: value = []
            case .choice(_, let words): value = [words[0]]
            case .file, .folder, .text: value = ["1"]
            }
            do {
                _ = try AnalyzeCommand.declaration.parse([o.flags[0]] + value + ["x.csv"])
            } catch {
                #expect(!error.message.contains("unknown option"), "\(o.flags[0]): \(error.message)")
            }
        }
        #expect(throws: UsageError.self) { try AnalyzeCommand.declaration.parse(["--no-such-flag", "x"]) }
        let o = try #require(try AnalyzeCommand.declaration.parse(["a", "--out", "d", "--each", "b", "--hr-window", "30"]))
        #expect(o.arguments == ["a", "b"] && o.out == "d" && o.each)
        #expect(o.analysis.values["ecg"]?["heart_rate_window_s"] == .number(30))
        #expect(o.analysis.values["ppg"]?["heart_rate_window_s"] == .number(30))
        #expect(try AnalyzeCommand.declaration.parse(["a", "--help"]) == nil)
    }

    @Test("a value the declared rule refuses is a usage error naming the rule")
    func valueRules() {
        func message(_ args: [String]) -> String {
            do {
                _ = try RunCommand.declaration.parse(args)
                return ""
            } catch { return error.message }
        }
        #expect(message(["x", "--jobs", "0"]) == "--jobs needs an integer from 1 to \(BatchOptions.maximumJobs), got '0'")
        #expect(message(["x", "--format", "xml"]) == "--format needs one of sqlite, csv, got 'xml'")
        #expect(message(["x", "--shard", "3/2"]) == "--shard needs K/N with 1 ≤ K ≤ N, got '3/2'")
        #expect(message(["x", "--gzip"]) == "--gzip goes with --format csv")
        #expect(message(["x", "--out"]) == "--out needs a value (PATH)")
        #expect(message([]) == "no INPUT… given")
        #expect(message(["x", "--include", "a", "--include", "b"]) == "")
    }

    @Test("the one-line usage of a usage error is derived from the declaration")
    func usageLine() {
        let run = RunCommand.command
        #expect(
            Command.usageLine(run.name, run.arguments, run.options, analysis: true) == "sensorpipe run INPUT… [OPTIONS] [ANALYSIS OPTIONS]")
        let merge = MergeCommand.command
        #expect(
            Command.usageLine(merge.name, merge.arguments, merge.options, analysis: false)
                == "sensorpipe merge SHARD.sqlite… --out FILE [OPTIONS]")
    }

    @Test("convert --start reads ISO 8601 with a zone or Unix seconds, and refuses a time without a zone")
    func startTimes() {
        #expect(ConvertOverrides.unixSeconds("2024-05-21T09:00:00Z") == 1_716_282_000)
        #expect(ConvertOverrides.unixSeconds("2024-05-21T11:00:00+02:00") == 1_716_282_000)
        #expect(ConvertOverrides.unixSeconds("2024-05-21T09:00:00.250Z") == 1_716_282_000.25)
        #expect(ConvertOverrides.unixSeconds("1716282000.5") == 1_716_282_000.5)
        #expect(ConvertOverrides.unixSeconds("2024-05-21T09:00:00") == nil)
        #expect(ConvertOverrides.unixSeconds("nan") == nil)
    }

    @Test("Ctrl-C on the bar: the bar's line is cleared and the message stands on its own line")
    func interruptedBar() {
        let written = Mutex([String]())
        let reporter = ProgressReporter(mode: .bar, total: 3) { s in written.withLock { $0.append(s) } }
        let outcome = RecordingOutcome(index: 0, path: "a.ndjson", status: .skipped, bytes: 10, error: nil, summary: nil)
        reporter.report(
            BatchProgress(total: 3, done: 1, bytesTotal: 30, bytesDone: 10, bytesSkipped: 10, elapsedSeconds: 1, latest: outcome))
        #expect(reporter.done == 1)
        reporter.stop("interrupted after 1 of 3 recording(s)")
        let text = written.withLock { $0 }
        #expect(text.count == 2, "\(text)")
        #expect(text.first?.hasPrefix("\r\u{1B}[K[") == true, "a bar was drawn: \(text)")
        #expect(text.last == "\r\u{1B}[Ksensorpipe: interrupted after 1 of 3 recording(s)\n")
        reporter.report(
            BatchProgress(total: 3, done: 2, bytesTotal: 30, bytesDone: 20, bytesSkipped: 20, elapsedSeconds: 2, latest: outcome))
        #expect(written.withLock { $0.count } == 2, "nothing is drawn after the interruption")
    }
}

import Foundation
import Report

/// `sensorpipe report`: HTML reports of a results database.
enum ReportCommand {
    static let spec = CommandSpec(
        name: "report", summary: "HTML reports (one page per recording and an index) from a run's database",
        synopsis: "report RESULTS.sqlite [--out DIR] [--recording PATH|ID]",
        about: """
            Writes one self-contained HTML page per recording of a `sensorpipe run` database
            (recording-<id>.html: inline SVG and CSS, no scripts, no external resources) and an
            index.html listing every recording with its status, error, hours and summary figures.
            A page shows the summary tables, the QC account with a signal timeline, heart rate per
            window with its quality, HRV per window, ECG strips with the detected and corrected beats
            (read back from the recording file when it is still there unchanged; the page says so when
            it moved or changed) and one section per analysis family. The database is only read.
            """,
        options: [
            OptionSpec("--out", value: .folder("DIR"), help: "output folder (default: RESULTS-report beside the database)"),
            OptionSpec(
                "--recording", value: .text("PATH|ID"),
                help: "only this recording: its recordings.id or its path (the latest analysis of that path)"),
        ],
        epilogue: "Exit codes: 0 written, 1 the database could not be read or the folder written, 64 usage error.")
    static let usage = spec.usage

    /// The default report folder of a database: `results.sqlite` → `results-report`.
    static func defaultFolder(for database: String) -> String {
        URL(fileURLWithPath: database).deletingPathExtension().path + "-report"
    }

    static func run(_ args: [String]) -> Int32 {
        var cursor = ArgumentCursor(args, usage: usage)
        var database: String?
        var out: String?
        var recording: String?
        while let a = cursor.next() {
            switch a {
            case "--out": out = cursor.value(a, "a DIR")
            case "--recording": recording = cursor.value(a, "a PATH or ID")
            case "-h", "--help":
                print(usage)
                return 0
            default:
                if a.hasPrefix("-") { CLI.usageError("unknown option '\(a)'", usage: usage) }
                guard database == nil else { CLI.usageError("one RESULTS.sqlite only, got '\(a)' too", usage: usage) }
                database = a
            }
        }
        guard let database else { CLI.usageError("no RESULTS.sqlite given", usage: usage) }
        return write(database: database, out: out ?? defaultFolder(for: database), recording: recording)
    }

    /// Writes the reports and prints where (on stderr with `quietStdout`, so `run --json` keeps
    /// stdout for its JSON); errors go to stderr.
    static func write(database: String, out: String, recording: String?, quietStdout: Bool = false) -> Int32 {
        do {
            let written = try Report.write(database: database, to: out, recording: recording)
            let line = "report: \(written.pages.count) recording page(s) and \(written.index)"
            if quietStdout { FileHandle.standardError.write(Data((line + "\n").utf8)) } else { print(line) }
            return 0
        } catch {
            CLI.error("\(error)")
            return 1
        }
    }
}

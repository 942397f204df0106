import Foundation
import Report

/// `sensorpipe report`: HTML reports of a results database.
enum ReportCommand {
    struct Options: CommandOptions {
        var arguments: [String] = []
        var out: String?
        var recording: String?
    }

    static var command: Command { Command(declaration) }

    static var declaration: CommandDeclaration<Options> {
        CommandDeclaration<Options>(
            name: "report", summary: "HTML reports (one page per recording and an index) from a run's database",
            arguments: ArgumentsSpec(placeholder: "RESULTS.sqlite", count: 1...1),
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
                .value("--out", rule: .folder("DIR"), help: "output folder (default: RESULTS-report beside the database)", \.out),
                .value(
                    "--recording", rule: .text("PATH|ID"),
                    help: "only this recording: its recordings.id or its path (the latest analysis of that path)", \.recording),
            ],
            epilogue: "Exit codes: 0 written, 1 the database could not be read or the folder written, 64 usage error.",
            run: { o in write(database: o.arguments[0], out: o.out ?? defaultFolder(for: o.arguments[0]), recording: o.recording) })
    }

    /// The default report folder of a database: `results.sqlite` → `results-report`.
    static func defaultFolder(for database: String) -> String {
        URL(fileURLWithPath: database).deletingPathExtension().path + "-report"
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

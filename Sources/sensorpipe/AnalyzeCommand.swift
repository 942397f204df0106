import Foundation
import Pipeline
import Recordings

/// `sensorpipe analyze`: one recording in, one CSV per result table out.
enum AnalyzeCommand {
    static let spec = CommandSpec(
        name: "analyze", summary: "the analyses of one recording, as CSV tables",
        synopsis: "analyze INPUT… [--out DIR] [ANALYSIS OPTIONS] [--preset NAME] [--config FILE]",
        about: """
            Analyses one recording (several INPUT files are one recording, decoded side by side) with
            every analysis family and writes one CSV per result table into DIR (default ./results):
            """
                + AnalysisRegistry.resultTables.map {
                    "\n  " + ($0.name + ".csv").padding(toLength: 22, withPad: " ", startingAt: 0) + $0.summary
                }
                .joined() + """

                    Columns and units: docs/RESULTS.md. Times are Unix seconds when the input carries absolute
                    time, otherwise seconds from the stream start (or device-local seconds since 1970 for a
                    GT3X without a time zone); `sensorpipe inspect INPUT` shows each stream's origin. The
                    tables appear only when complete. Streams no analysis covers are named in a warning.
                    """,
        options: [
            OptionSpec("--out", value: .folder("DIR"), help: "output folder (created if needed)"),
            .preset,
            .noVerifyIntegrity,
            .configFile,
        ],
        takesAnalysisOptions: true)
    static let usage = spec.usage

    static func run(_ args: [String]) -> Int32 {
        var inputs = [String]()
        var out = "results"
        var cursor = ArgumentCursor(args, usage: usage)
        var analysis = cursor.configuration()
        while let a = cursor.next() {
            if cursor.analysisOption(a, analysis: &analysis) { continue }
            switch a {
            case "--out": out = cursor.value(a)
            case "-h", "--help":
                print(usage)
                return 0
            default:
                if a.hasPrefix("-") { CLI.usageError("unknown option '\(a)'", usage: usage) }
                inputs.append(a)
            }
        }
        guard let input = inputs.first else { CLI.usageError("no INPUT given", usage: usage) }
        if out.isEmpty { CLI.usageError("--out needs a folder, got an empty path", usage: usage) }
        let sink: CSVResultSink
        do {
            sink = try CSVResultSink(directory: URL(fileURLWithPath: out))
        } catch {
            CLI.error("\(out): cannot create the output folder: \(error)")
            return 1
        }
        // On a terminal, a line redrawn at most 5 times a second once the run takes over a second
        // (the total is unknown before the end, so no ETA: samples, signal time and the rate).
        let start = Date()
        var lastDraw = 0.0, drawn = false
        // SENSORPIPE_PROGRESS_DELAY_S (tests): seconds before the first draw (default 1).
        let delay = ProcessInfo.processInfo.environment["SENSORPIPE_PROGRESS_DELAY_S"].flatMap(Double.init) ?? 1
        let showProgress: ((RecordingAnalysis.Progress) -> Void)? =
            isatty(2) == 0
            ? nil
            : { p in
                let elapsed = Date().timeIntervalSince(start)
                guard elapsed >= delay, elapsed - lastDraw >= 0.2 || !drawn else { return }
                lastDraw = elapsed
                drawn = true
                let text = String(
                    format: "decoded %.1f M samples, %@ of signal (%.1f M samples/s): %@", Double(p.samples) / 1e6,
                    ProgressReporter.clock(p.signalSeconds), Double(p.samples) / 1e6 / elapsed,
                    (input as NSString).lastPathComponent)
                FileHandle.standardError.write(
                    Data(("\r\u{1B}[K" + String(text.prefix(max(ProgressReporter.terminalColumns() - 1, 0)))).utf8))
            }
        let clearProgress = { if drawn { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) } }
        do {
            let summary = try RecordingAnalysis.run(
                recording: RecordingInput(path: input, files: inputs),
                analysis: analysis, sink: sink, progress: showProgress)
            clearProgress()
            print(
                "\(FilePathBytes.display(input)): \(summary.streams) stream(s); \(summary.analysisRowsDescription) → \(out)/"
                    + summary.tables.map { "\($0).csv" }.joined(separator: ", "))
            for issue in summary.issues { CLI.error("warning: \(issue)") }
            for line in summary.unanalysedStreams { CLI.error("warning: not analysed: \(line)") }
            return 0
        } catch {
            clearProgress()
            sink.rollback()
            CLI.error("\(error)")
            return 1
        }
    }
}

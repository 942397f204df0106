import Foundation
import Pipeline
import Recordings

/// `sensorpipe analyze`: one recording in, one CSV per result table out.
enum AnalyzeCommand {
    struct Options: CommandOptions {
        var arguments: [String] = []
        var out = "results"
        var each = false
        var analysis = AnalysisConfiguration()
    }

    static var command: Command { Command(declaration) }

    static var declaration: CommandDeclaration<Options> {
        CommandDeclaration<Options>(
            name: "analyze", summary: "the analyses of one recording, as CSV tables",
            arguments: .files("INPUT…"),
            about: """
                Analyses one recording with every analysis family and writes one CSV per result table
                into DIR (default ./results):
                """
                    + AnalysisRegistry.resultTables.map {
                        "\n  " + ($0.name + ".csv").padding(toLength: 22, withPad: " ", startingAt: 0) + $0.summary
                    }
                    .joined() + """

                        Several INPUT files are one recording (decoded side by side: e.g. a SensorKit
                        accelerometer and PPG export of one device), and analyze says so in its first line;
                        with --each, each INPUT is a recording of its own, written into DIR/NAME/ (NAME: the
                        file name without its extensions). Columns and units: docs/RESULTS.md. Times are Unix
                        seconds when the input carries absolute time, otherwise seconds from the stream start
                        (or device-local seconds since 1970 for a GT3X without a time zone); `sensorpipe
                        inspect INPUT` shows each stream's origin. The tables appear only when complete.
                        Streams no analysis covers are named in a warning.
                        """,
            options: [
                .value("--out", rule: .folder("DIR"), help: "output folder (created if needed)", \.out),
                .flag(
                    "--each",
                    help: "analyse each INPUT as a recording of its own, into DIR/NAME/ (default: all INPUTs are one recording)",
                    \.each),
            ] + SharedOptions.analysis(\.analysis),
            analysis: \.analysis,
            check: { o throws(UsageError) in
                guard o.each else { return }
                if let clash = Dictionary(grouping: o.arguments, by: folderName).first(where: { $0.value.count > 1 }) {
                    throw UsageError("--each: \(clash.value.joined(separator: " and ")) would both write into \(o.out)/\(clash.key)/")
                }
            },
            run: run)
    }

    /// `--each`'s folder for an input: its file name without extensions (`p01.ndjson.gz` → `p01`).
    static func folderName(_ path: String) -> String {
        let name = (path as NSString).lastPathComponent
        return name.split(separator: ".", omittingEmptySubsequences: false).first.map(String.init).flatMap { $0.isEmpty ? nil : $0 } ?? name
    }

    static func run(_ o: Options) -> Int32 {
        guard o.each else {
            if o.arguments.count > 1 {
                print(
                    "one recording of \(o.arguments.count) files (the INPUTs of one analyze are decoded side by side; "
                        + "--each analyses each on its own): " + o.arguments.map(FilePathBytes.display).joined(separator: ", "))
            }
            return analyze(RecordingInput(path: o.arguments[0], files: o.arguments), out: o.out, analysis: o.analysis)
        }
        var failed = 0
        for input in o.arguments {
            let out = (o.out as NSString).appendingPathComponent(folderName(input))
            if analyze(RecordingInput(path: input, files: [input]), out: out, analysis: o.analysis) != 0 { failed += 1 }
        }
        if o.arguments.count > 1 { print("\(o.arguments.count) recording(s): \(o.arguments.count - failed) ok, \(failed) failed") }
        return failed == 0 ? 0 : 1
    }

    /// Analyses one recording into `out`; prints its line (stdout) or its error (stderr).
    static func analyze(_ recording: RecordingInput, out: String, analysis: AnalysisConfiguration) -> Int32 {
        let input = recording.path
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
                recording: recording,
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

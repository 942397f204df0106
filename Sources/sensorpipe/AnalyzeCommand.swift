import Foundation
import Pipeline
import Recordings

/// `sensorpipe analyze`: one recording in, one CSV per result table out.
enum AnalyzeCommand {
    static let usage = """
        USAGE: sensorpipe analyze INPUT… [--out DIR] [ANALYSIS OPTIONS] [--preset NAME] [--config FILE]

        Analyses one recording (several INPUT files are one recording, decoded side by side) and
        writes one CSV per result table into DIR (default ./results):
          beats.csv        detected beats (ECG R-peaks, PPG pulses), RR/NN intervals (ms), HR, artefacts
          heart_rate.csv   mean heart rate per window (bpm); PPG also spectral, online and offline
          hrv.csv          HRV per 5-minute window and for the whole recording (NeuroKit2 names)
          ecg_quality.csv  ECG signal-quality indices and label per 10-s window
          ppg_quality.csv  PPG signal-quality indices and label per 8-s window
        Columns and units: docs/RESULTS.md. Times are Unix seconds when the input carries absolute
        time, otherwise seconds from the stream start (or device-local seconds since 1970 for a
        GT3X without a time zone); `sensorpipe inspect INPUT` shows each stream's origin. The
        tables appear only when complete. Streams no analysis covers are named in a warning.

        OPTIONS:
          --out DIR       output folder (created if needed)
          --preset NAME   layout of CSV/MATLAB inputs (default: detected from content)
          --config FILE   analysis options as JSON (docs/RESULTS.md, "Configuration files");
                          options given on the command line override the file
          -h, --help      show this help

        \(ArgumentCursor.analysisOptionsHelp)
        """

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
        let showProgress: ((RecordingAnalysis.Progress) -> Void)? =
            isatty(2) == 0
            ? nil
            : { p in
                let elapsed = Date().timeIntervalSince(start)
                guard elapsed >= 1, elapsed - lastDraw >= 0.2 else { return }
                lastDraw = elapsed
                drawn = true
                let text = String(
                    format: "decoding %@: %.1f M samples, %@ of signal read (%.1f M samples/s)",
                    (input as NSString).lastPathComponent, Double(p.samples) / 1e6,
                    ProgressReporter.clock(p.signalSeconds), Double(p.samples) / 1e6 / elapsed)
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
                "\(input): \(summary.streams) stream(s), \(summary.beats) beats → \(out)/"
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

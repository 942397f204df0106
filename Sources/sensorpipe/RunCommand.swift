import Foundation
import Pipeline
import Recordings
import Synchronization

/// `sensorpipe run`: a resumable batch of recordings into one SQLite database (or CSV folders).
enum RunCommand {
    /// `--format`.
    enum OutputFormat: String, CaseIterable {
        case sqlite, csv
    }

    struct Options: CommandOptions {
        var arguments: [String] = []
        var out: String?
        var format = OutputFormat.sqlite
        var gzip = false
        var jobs = ProcessInfo.processInfo.activeProcessorCount
        var shard: Shard?
        var filter = RecordingDiscovery.Filter()
        var label: String?
        var quiet = false
        var json = false
        var report = false
        var analysis = AnalysisConfiguration()
    }

    static var command: Command { Command(declaration) }

    static var declaration: CommandDeclaration<Options> {
        CommandDeclaration<Options>(
            name: "run", summary: "resumable batch of recordings into one SQLite database (or CSV folder)",
            arguments: .files("INPUT…"),
            about: """
                Analyses every recording among the INPUTs into one SQLite database (default
                ./results.sqlite): the tables of `sensorpipe analyze` plus `runs`, `recordings` (path,
                size, content hash, status, error, QC account) and `streams` (docs/RESULTS.md). Each
                recording is written in one transaction. A recording that fails is recorded with its error
                and the batch goes on. Rerunning resumes: recordings already done with the same content
                (FNV-1a 64 hash) and configuration are skipped.

                INPUTs are recording files, folders (searched recursively, following symbolic links;
                names starting with . are skipped) or manifests (*.manifest,
                *.list, *.txt: one path per line, # comments, relative to the manifest's folder). A
                recording may span files: a NAME.group file lists its members, and SensorKit files of one
                folder whose names differ only by the sensor (p01_accelerometer.ndjson.gz,
                p01_rotationRate.ndjson.gz) are one recording (docs/RESULTS.md, "Recordings of several files").
                """,
            options: [
                .value(
                    "--out", rule: .file("PATH"),
                    help: "SQLite database, or with --format csv a folder (default results.sqlite, or results/ for csv)", \.out),
                .value(
                    "--format", rule: .choice("F"),
                    help:
                        "sqlite (default) or csv: a folder per recording holding the tables as CSV and recording.json (QC account), "
                        + "plus recordings.csv, runs.ndjson and one long CSV per table for the whole batch (beats.csv, …: a first "
                        + "column `recording`, then the table's columns)",
                    \.format),
                .flag("--gzip", help: "with --format csv: write the long tables gzip-compressed (beats.csv.gz)", \.gzip),
                .value(
                    "--jobs", rule: .integer("N", in: 1...BatchOptions.maximumJobs),
                    help:
                        "recordings analysed in parallel (default: the number of cores); one writer stores them in input order, "
                        + "so the output does not depend on N",
                    \.jobs),
                .value(
                    "--shard", rule: .parsed("K/N", "K/N with 1 ≤ K ≤ N", Shard.init),
                    help:
                        "analyse only part K of N (by a stable hash of each recording's path as given), so N independent jobs "
                        + "with the same INPUTs cover it exactly once",
                    \.shard),
                .appending(
                    "--include", rule: .text("GLOB"),
                    help:
                        "keep only files matching GLOB (repeatable): a pattern without / matches the file name ('*.hea'), "
                        + "one with / the whole path ('*/week1/*')",
                    \.filter.include),
                .appending(
                    "--exclude", rule: .text("GLOB"),
                    help:
                        "leave out files matching GLOB (repeatable; e.g. '*_BPMtrace.mat', the SPC 2015 reference traces, "
                        + "which are not recordings)",
                    \.filter.exclude),
                .value(
                    "--label", rule: .text("TEXT"), help: "a study label stored in runs.label (not part of the configuration)",
                    \.label),
                .flag("--quiet", "-q", help: "no progress bar or per-recording lines; failures and the summary only", \.quiet),
                .flag("--json", help: "print the summary as JSON on stdout (progress stays on stderr)", \.json),
                .flag(
                    "--report",
                    help:
                        "at the end, write the HTML reports of the whole database (as `sensorpipe report`) into "
                        + "RESULTS-report/ beside it (SQLite only)",
                    \.report),
            ] + SharedOptions.analysis(\.analysis),
            analysis: \.analysis,
            epilogue: """
                Progress goes to stderr: a bar on a terminal, one line per recording otherwise. Ctrl-C
                stops the run: recordings already stored stay, the one being written is rolled back, and
                the same command resumes where it stopped.
                Exit codes: 0 all recordings ok or skipped, 1 some recordings failed (each stored with its
                error) or the INPUTs hold no recording, 2 the output could not be opened or written
                (rerun to resume), 64 usage error, 130 interrupted (Ctrl-C; rerun to resume).
                """,
            check: { o throws(UsageError) in
                if o.gzip && o.format != .csv { throw UsageError("--gzip goes with --format csv") }
                if o.report && o.format == .csv { throw UsageError("--report reads the SQLite output; it cannot follow --format csv") }
            },
            run: run)
    }

    static func run(_ o: Options) -> Int32 {
        let (inputs, csv, gzip, quiet, json, report) = (o.arguments, o.format == .csv, o.gzip, o.quiet, o.json, o.report)
        let (shard, jobs, label, filter, analysis) = (o.shard, o.jobs, o.label, o.filter, o.analysis)
        let output = o.out ?? (csv ? "results" : "results.sqlite")
        // The shard is chosen on the paths as given (identical on every node of a job array).
        let recordings: [RecordingInput]
        let found: Int
        do {
            let all = try RecordingDiscovery.recordings(inputs, filter: filter)
            found = all.count
            recordings = all.filter { shard?.contains(path: $0.path) ?? true }
        } catch {
            CLI.error("\(error)")
            return 2
        }
        guard found > 0 else {
            CLI.error(
                "no recordings found in " + inputs.joined(separator: ", ")
                    + " (looked for \(RecordingDiscovery.fileExtensions.joined(separator: ", ")) files, optionally "
                    + RecordingFileNames.compressionSuffixes.joined(separator: "/")
                    + (filter == RecordingDiscovery.Filter() ? ")" : ", kept by the --include/--exclude patterns)"))
            return 1
        }
        let store: BatchStore
        do {
            if csv {
                store = try CSVBatchFolder(
                    directory: URL(fileURLWithPath: output), tables: AnalysisRegistry.resultTables, compressTables: gzip)
            } else {
                store = try BatchDatabase(path: output)
            }
        } catch {
            CLI.error("\(output): \(error)")
            return 2
        }
        var options = BatchOptions(jobs: jobs, softwareVersion: SensorPipeCommand.version, label: label, analysis: analysis)
        options.beforeCommit = stallHook()
        let reporter = ProgressReporter(mode: quiet ? .quiet : (isatty(2) != 0 ? .bar : .lines), total: recordings.count)
        // Ctrl-C: end the bar's line, say what is kept and how to resume, exit 130. The recording
        // being written is rolled back when the database is next opened (as after a crash).
        let interrupt = SignalHandler(SIGINT) {
            reporter.interrupt(
                "interrupted after \(reporter.done) of \(recordings.count) recording(s), kept in \(output) "
                    + "(recordings not finished are redone).\nTo resume, run the same command again: \(CLI.commandLine)")
        }
        let summary: BatchSummary
        do {
            summary = try BatchRunner.run(inputs: recordings, store: store, options: options) { reporter.report($0) }
        } catch {
            interrupt.cancel()
            reporter.clear()
            CLI.error("\(output): \(error)")
            return 2
        }
        interrupt.cancel()
        reporter.clear()
        if json {
            print(summary.json)
        } else {
            print(render(summary, output: output, shard: shard))
        }
        if report {
            let code = ReportCommand.write(
                database: output, out: ReportCommand.defaultFolder(for: output), recording: nil, quietStdout: json)
            if code != 0 { return 2 }
        }
        return summary.failed == 0 ? 0 : 1
    }

    /// The one-screen summary.
    static func render(_ s: BatchSummary, output: String, shard: Shard?) -> String {
        var lines = [
            "\(s.total) recording(s)\(shard.map { " in shard \($0)" } ?? ""): \(s.ok) ok, \(s.failed) failed, "
                + "\(s.skipped) skipped (already done) → \(output)"
        ]
        if !s.signalSecondsBySensor.isEmpty {
            let parts = s.signalSecondsBySensor.sorted { $0.key.rawValue < $1.key.rawValue }.map { k, v in
                "\(k.rawValue) \(String(format: "%.2f", v / 3600)) h decoded, "
                    + "\(String(format: "%.2f", (s.analysedSecondsBySensor[k] ?? 0) / 3600)) h analysed"
            }
            lines.append("signal: " + parts.joined(separator: "; "))
        }
        if s.unanalysedStreams > 0 {
            lines.append(
                "warning: \(s.unanalysedStreams) stream(s) had no analysis in this version "
                    + "(decoded and accounted for only; streams.analysis says why)")
        }
        let mb = Double(s.bytesAnalysed) / 1e6
        lines.append(
            String(
                format: "input %.1f MB read in %.1f s (%.1f MB/s)", mb, s.elapsedSeconds,
                s.elapsedSeconds > 0 ? mb / s.elapsedSeconds : 0))
        // The families' declared figures over the run (beats, steps, wear hours, mean rates, …), per family.
        var families = [String]()
        for t in s.figureTotals where !families.contains(t.family) { families.append(t.family) }
        for family in families {
            let mine = s.figureTotals.filter { $0.family == family }
            let parts = mine.filter { $0.recordingMedians == nil }.map { t in
                let v = t.value == t.value.rounded() ? String(Int(t.value)) : String(format: "%.2f", t.value)
                return "\(t.name) \(v)"
            }
            if !parts.isEmpty { lines.append("\(family): " + parts.joined(separator: ", ")) }
            // Medians are per recording: the lowest and highest recording median, and how many recordings had one.
            let medians = mine.compactMap { t in
                t.recordingMedians.map { m in
                    m.recordings == 1
                        ? String(format: "%@ %.1f (1)", t.name, m.lowest)
                        : String(format: "%@ %.1f…%.1f (%d)", t.name, m.lowest, m.highest, m.recordings)
                }
            }
            if !medians.isEmpty {
                lines.append("\(family): recording medians, lowest…highest (recordings): " + medians.joined(separator: ", "))
            }
        }
        if !s.duplicates.isEmpty {
            lines.append("note: \(s.duplicates.count) input(s) not analysed: the same content as an earlier input (duplicates):")
            for d in s.duplicates.prefix(10) { lines.append("  \(d.path): duplicate of \(d.duplicateOf)") }
            if s.duplicates.count > 10 { lines.append("  … and \(s.duplicates.count - 10) more") }
        }
        if !s.sameContent.isEmpty {
            lines.append(
                "note: \(s.sameContent.count) recording(s) have the same content as one stored by an earlier run (copies; each is stored):")
            for d in s.sameContent.prefix(10) { lines.append("  \(d.path): same content hash as \(d.storedAs)") }
            if s.sameContent.count > 10 { lines.append("  … and \(s.sameContent.count - 10) more") }
        }
        if !s.failures.isEmpty {
            lines.append("failed:")
            for f in s.failures.prefix(10) { lines.append("  \(f.error)") }
            if s.failures.count > 10 { lines.append("  … and \(s.failures.count - 10) more (recordings with status 'failed')") }
        }
        return lines.joined(separator: "\n")
    }

    /// Fault injection for the crash test: with `SENSORPIPE_STALL_BEFORE_COMMIT=N`, the N-th
    /// stored recording stops inside its open transaction (after announcing it on stderr) until
    /// the process is killed.
    static func stallHook() -> (@Sendable (String) -> Void)? {
        guard let v = ProcessInfo.processInfo.environment["SENSORPIPE_STALL_BEFORE_COMMIT"], let n = Int(v), n >= 1 else {
            return nil
        }
        let count = Atomic<Int>(0)
        return { path in
            guard count.add(1, ordering: .relaxed).newValue == n else { return }
            FileHandle.standardError.write(
                Data("sensorpipe: stalling before the commit of \(path) (SENSORPIPE_STALL_BEFORE_COMMIT)\n".utf8))
            while true { sleep(60) }
        }
    }
}

/// Progress on stderr: a redrawn bar on a terminal, one line per recording otherwise, or only
/// failures with `--quiet`. Safe to call from any thread (the batch's writer reports, a signal
/// handler interrupts).
final class ProgressReporter: Sendable {
    enum Mode { case bar, lines, quiet }
    let mode: Mode
    /// Recordings of the batch.
    let total: Int
    private struct State {
        var drawn = false
        var lastDraw = -1.0
        var done = 0
        var interrupted = false
    }
    private let state = Mutex(State())
    private let output: @Sendable (String) -> Void

    /// - Parameters:
    ///   - mode: bar, lines or quiet.
    ///   - total: the recordings of the batch.
    ///   - output: where the text goes (default stderr).
    init(mode: Mode, total: Int, output: @escaping @Sendable (String) -> Void = { FileHandle.standardError.write(Data($0.utf8)) }) {
        self.mode = mode
        self.total = total
        self.output = output
    }

    /// Recordings done (stored, failed or skipped) so far.
    var done: Int { state.withLock { $0.done } }

    func report(_ p: BatchProgress) {
        state.withLock { s in
            guard !s.interrupted else { return }
            s.done = p.done
            report(p, &s)
        }
    }

    /// Ends the bar's line (or the last progress line), prints `message` on stderr and exits with 130.
    func interrupt(_ message: String) -> Never {
        stop(message)
        _exit(130) // not exit(): the batch's threads are still running; the database is left as after a crash
    }

    /// Clears the bar, prints `sensorpipe: message` on its own line, and draws nothing more.
    func stop(_ message: String) {
        state.withLock { s in
            s.interrupted = true
            output((s.drawn ? "\r\u{1B}[K" : "") + "sensorpipe: " + message + "\n")
            s.drawn = false
        }
    }

    private func report(_ p: BatchProgress, _ s: inout State) {
        let o = p.latest
        let line: String
        switch o.status {
        case .ok:
            let unanalysed = o.summary?.unanalysedStreams.count ?? 0
            line =
                "ok      \(o.path): \(o.summary?.streams ?? 0) stream(s); \(o.summary?.analysisRowsDescription ?? "no analysis rows")"
                + (unanalysed > 0 ? " (warning: \(unanalysed) stream(s) not analysed)" : "")
        case .skipped:
            line = "skipped \(o.path) (already done)"
        case .failed:
            line = "FAILED  \(o.error ?? FilePathBytes.display(o.path))"
        }
        switch mode {
        case .quiet:
            if o.status == .failed { write(line + "\n") }
        case .lines:
            write(line + "\n")
        case .bar:
            if o.status == .failed { write("\r\u{1B}[K" + line + "\n") }
            // At most ten redraws a second (and always the last one and after a failure line).
            guard o.status == .failed || p.done == p.total || p.elapsedSeconds - s.lastDraw >= 0.1 else { return }
            s.lastDraw = p.elapsedSeconds
            let rate = (p.bytesPerSecond ?? 0) / 1e6
            let eta = p.etaSeconds.map { "ETA " + Self.clock($0) } ?? "ETA -"
            let text = " \(p.done)/\(p.total) recordings  " + String(format: "%.1f MB/s  ", rate) + eta
            write("\r\u{1B}[K" + Self.barLine(text: text, fraction: p.total > 0 ? Double(p.done) / Double(p.total) : 1))
            s.drawn = true
        }
    }

    /// `m:ss`, or `h:mm:ss` from an hour on.
    static func clock(_ seconds: Double) -> String {
        let t = Int(min(max(seconds, 0), 1e8).rounded())
        return t >= 3600 ? String(format: "%d:%02d:%02d", t / 3600, t / 60 % 60, t % 60) : String(format: "%d:%02d", t / 60, t % 60)
    }

    /// A bar and `text` that fit the terminal's width (the line must not wrap, or the carriage
    /// return redraws only its last part): the bar shrinks first (at most 30 cells, dropped below
    /// 5), then the text is cut.
    static func barLine(text: String, fraction: Double, columns: Int = terminalColumns()) -> String {
        let room = columns - 1 // the cursor's cell
        let width = min(30, room - text.count - 2)
        guard width >= 5 else { return String(text.drop(while: { $0 == " " }).prefix(max(room, 0))) }
        let filled = min(width, max(0, Int((Double(width) * fraction).rounded(.down))))
        return "[" + String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled) + "]" + text
    }

    /// Columns of the terminal on stderr (80 when unknown).
    static func terminalColumns() -> Int {
        var size = winsize()
        guard ioctl(2, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return 80 }
        return Int(size.ws_col)
    }

    /// Removes the bar before the summary.
    func clear() {
        state.withLock { s in
            if s.drawn { output("\r\u{1B}[K") }
            s.drawn = false
        }
    }

    private func write(_ s: String) { output(s) }
}

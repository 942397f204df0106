import Foundation
import Pipeline
import Recordings

/// `sensorpipe convert`: any readable recording → the canonical SensorKit NDJSON schema, EDF+ or BDF+.
enum ConvertCommand {
    /// What `--to` writes.
    enum Target: String, CaseIterable {
        case sensorKitNDJSON = "sensorkit-ndjson"
        case edf
        case bdf
    }

    struct Options: CommandOptions {
        var arguments: [String] = []
        var to: Target = .sensorKitNDJSON
        var decode = DecodeOptions()
        var overrides = ConvertOverrides()
        var results = false
    }

    static var command: Command { Command(declaration) }

    static var declaration: CommandDeclaration<Options> {
        CommandDeclaration<Options>(
            name: "convert", summary: "rewrite any readable recording in the canonical SensorKit schema, EDF+ or BDF+",
            arguments: ArgumentsSpec(placeholder: "INPUT OUTPUT", count: 2...2),
            about: """
                Decodes INPUT (any supported format) and writes it in the canonical SensorKit export schema
                (docs/SCHEMA.md); OUTPUT ending in .gz is gzip-compressed. The output appears only when
                complete (written to OUTPUT.partial, then renamed). Each stream is preceded by a "stream"
                line with its key, time origin and attributes, so the output reads back with the same
                stream keys as INPUT; times without an absolute origin (a WFDB record without a base
                date, a MATLAB file, BUT PPG) are written as seconds from the start and marked
                timeOrigin "stream_start" there (not Unix time), unless --start gives the start.
                SensorKit PPG inputs keep their optical channels' emitter, photodiodes and signal
                identifier; PPG from other formats has none (emitter 0 and an empty
                activePhotodiodeIndexes then mean "not given by the source", and the stream line keeps
                the source's channel).
                --to edf (16-bit EDF+) or --to bdf (24-bit BDF+) writes every uniformly sampled stream's
                columns as signals with an annotation signal: streams read from EDF/BDF keep their digital
                and physical limits and WFDB streams their adu (the digital values read back are the
                input's own), other streams use the full digital range between their minimum and maximum
                (the resolution is printed); EDF+ annotations of an EDF input are written back. Records
                without samples are left out (EDF+D) (docs/SCHEMA.md, "EDF and BDF").
                """,
            options: [
                .value(
                    "--to", rule: .choice("FORMAT", Target.allCases, name: \.rawValue), required: true,
                    help: "output format: sensorkit-ndjson, edf (EDF+, 16-bit) or bdf (BDF+, 24-bit)", \.to),
                .value(
                    "--device", rule: .text("ID"),
                    help:
                        "write every stream, device line and deletion record under device id ID (for formats without "
                        + "one, e.g. a MATLAB file or a CSV; it replaces the source's id)",
                    \.overrides.deviceID),
                .value(
                    "--start", rule: ConvertOverrides.startRule,
                    help:
                        "the recording's start, for streams whose times count from the stream start (WFDB without a base "
                        + "date, MATLAB, BUT PPG, CSV without dates): TIME is ISO 8601 with a zone "
                        + "(2024-05-21T09:00:00Z, 2024-05-21T11:00:00+02:00) or Unix seconds; such streams are written "
                        + "with Unix times (timeOrigin unix); streams with absolute times are left as they are",
                    \.overrides.startUnix),
                SharedOptions.preset(\.decode),
                SharedOptions.noVerifyIntegrity(\.decode),
                SharedOptions.edfSignal(\.decode),
            ] + SharedOptions.csv(\.decode) + [
                .flag(
                    "--results",
                    help:
                        "with --to edf|bdf: also analyse INPUT (default options) and write its results as EDF+ annotations: "
                        + "each detected beat (beat N|S|V|Q@@CHANNEL, pulse@@CHANNEL for PPG), ECG quality window and AF "
                        + "episode (with durations); the results are held in memory",
                    \.results)
            ],
            check: { o throws(UsageError) in
                if o.arguments.contains(where: \.isEmpty) { throw UsageError("INPUT and OUTPUT must not be empty paths") }
            },
            run: run)
    }

    static func run(_ o: Options) -> Int32 {
        let options = o.decode
        let (input, output) = (o.arguments[0], o.arguments[1])
        let partial = output + ".partial"
        if o.to != .sensorKitNDJSON { return runEDF(o) }
        do {
            let opened = try RecordingOpener.open(path: input, options: options)
            let writer = try SensorKitWriter(path: partial, compress: output.hasSuffix(".gz"))
            var issues = 0, annotations = 0
            var overrides = o.overrides
            while let event = try opened.decoder.next() {
                if case .issue(let e) = event {
                    issues += 1
                    CLI.error("warning: \(e)")
                }
                if case .annotation = event { annotations += 1 }
                try writer.write(overrides.apply(event))
            }
            try writer.finish()
            if annotations > 0 {
                CLI.error("warning: \(annotations) annotation(s) of \(input) not written: SensorKit NDJSON has no annotation line")
            }
            guard rename(partial, output) == 0 else {
                CLI.error("\(output): cannot rename from \(partial): \(String(cString: strerror(errno)))")
                return 1
            }
            let samples = opened.decoder.accounts.reduce(0) { $0 + $1.samplesEmitted }
            print(
                "\(input) → \(output): \(opened.decoder.streams.count) stream(s), \(samples) samples"
                    + (issues > 0 ? ", \(issues) issue(s)" : ""))
            if o.overrides.startUnix != nil && overrides.shiftedStreams == 0 {
                CLI.error("warning: --start changed nothing: every stream of \(input) has absolute times")
            }
            for (k, info) in opened.decoder.streams.enumerated() where info.timeOrigin != .unix && !overrides.shifted(stream: k) {
                print(
                    "  \(info.key): times are \(info.timeOrigin == .streamStart ? "seconds from the stream start" : "device-local")"
                        + " (timeOrigin \(info.timeOrigin.rawValue) in its stream line), not Unix time")
            }
            return 0
        } catch {
            unlink(partial)
            CLI.error("\(error)")
            return 1
        }
    }

    /// `--to edf|bdf`.
    static func runEDF(_ o: Options) -> Int32 {
        let (input, output) = (o.arguments[0], o.arguments[1])
        let partial = output + ".partial"
        let writer = EDFWriter(path: partial, bdf: o.to == .bdf)
        do {
            let opened = try RecordingOpener.open(path: input, options: o.decode)
            var overrides = o.overrides
            var issues = 0
            var annotations: [(time: Double, duration: Double?, text: String)] = []
            while let event = try opened.decoder.next() {
                if case .issue(let e) = event {
                    issues += 1
                    CLI.error("warning: \(e)")
                }
                let applied = overrides.apply(event)
                if case .annotation(let a) = applied { annotations.append((a.onsetSeconds, a.durationSeconds, a.text)) }
                try writer.write(applied)
            }
            var subsecond: Double?
            if let edf = opened.decoder as? EDFDecoder {
                subsecond = edf.firstRecordOnsetSeconds.map { $0 - $0.rounded(.down) }
            }
            if o.results {
                switch Result(catching: {
                    try RecordingAnalysis.results(of: RecordingInput(path: input), analysis: AnalysisConfiguration(decode: o.decode))
                }) {
                case .success(let results): annotations += ResultAnnotations.make(results)
                case .failure(let error):
                    unlink(partial)
                    CLI.error("\(input): analysis for --results failed: \(error)")
                    return 1
                }
            }
            try writer.finish(annotations: annotations, subsecondStart: subsecond)
            guard rename(partial, output) == 0 else {
                CLI.error("\(output): cannot rename from \(partial): \(String(cString: strerror(errno)))")
                return 1
            }
            print(
                "\(input) → \(output): \(writer.signalNotes.count) signal(s), \(writer.recordsWritten) record(s), "
                    + "\(annotations.count) annotation(s)" + (issues > 0 ? ", \(issues) issue(s)" : ""))
            for note in writer.signalNotes { print("  \(note)") }
            return 0
        } catch {
            unlink(partial)
            CLI.error("\(error)")
            return 1
        }
    }
}

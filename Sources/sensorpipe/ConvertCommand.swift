import Foundation
import Recordings

/// `sensorpipe convert`: any readable recording → the canonical SensorKit NDJSON schema.
enum ConvertCommand {
    struct Options: CommandOptions {
        var arguments: [String] = []
        var to: RecordingFormat = .sensorKitNDJSON
        var decode = DecodeOptions()
        var overrides = ConvertOverrides()
    }

    static var command: Command { Command(declaration) }

    static var declaration: CommandDeclaration<Options> {
        CommandDeclaration<Options>(
            name: "convert", summary: "rewrite any readable recording in the canonical SensorKit schema",
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
                """,
            options: [
                .value(
                    "--to", rule: .choice("FORMAT", [RecordingFormat.sensorKitNDJSON], name: \.rawValue), required: true,
                    help: "output format; only sensorkit-ndjson", \.to),
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
            ] + SharedOptions.csv(\.decode) + [],
            check: { o throws(UsageError) in
                if o.arguments.contains(where: \.isEmpty) { throw UsageError("INPUT and OUTPUT must not be empty paths") }
            },
            run: run)
    }

    static func run(_ o: Options) -> Int32 {
        let options = o.decode
        let (input, output) = (o.arguments[0], o.arguments[1])
        let partial = output + ".partial"
        do {
            let opened = try RecordingOpener.open(path: input, options: options)
            let writer = try SensorKitWriter(path: partial, compress: output.hasSuffix(".gz"))
            var issues = 0
            var overrides = o.overrides
            while let event = try opened.decoder.next() {
                if case .issue(let e) = event {
                    issues += 1
                    CLI.error("warning: \(e)")
                }
                try writer.write(overrides.apply(event))
            }
            try writer.finish()
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
}

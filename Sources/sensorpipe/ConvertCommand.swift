import Foundation
import Recordings

/// `sensorpipe convert`: any readable recording → the canonical SensorKit NDJSON schema.
enum ConvertCommand {
    static let spec = CommandSpec(
        name: "convert", summary: "rewrite any readable recording in the canonical SensorKit schema",
        synopsis: "convert INPUT --to sensorkit-ndjson OUTPUT [--preset NAME]",
        about: """
            Decodes INPUT (any supported format) and writes it in the canonical SensorKit export schema
            (docs/SCHEMA.md); OUTPUT ending in .gz is gzip-compressed. The output appears only when
            complete (written to OUTPUT.partial, then renamed). Each stream is preceded by a "stream"
            line with its key, time origin and attributes, so the output reads back with the same
            stream keys as INPUT; times without an absolute origin (a WFDB record without a base
            date, a MATLAB file, BUT PPG) are written as seconds from the start and marked
            timeOrigin "stream_start" there (not Unix time).
            """,
        options: [
            OptionSpec("--to", value: .choice("FORMAT", ["sensorkit-ndjson"]), help: "output format; only sensorkit-ndjson"),
            .preset,
            .noVerifyIntegrity,
        ])
    static let usage = spec.usage

    static func run(_ args: [String]) -> Int32 {
        var positional = [String]()
        var to: String?
        var options = DecodeOptions()
        var cursor = ArgumentCursor(args, usage: usage)
        while let a = cursor.next() {
            switch a {
            case "--to": to = cursor.value(a, "a FORMAT")
            case "--preset": options.preset = CLI.preset(cursor.value(a, "a NAME"), usage: usage)
            case "--no-verify-integrity": options.verifiesIntegrity = false
            case "-h", "--help":
                print(usage)
                return 0
            default:
                if a.hasPrefix("-") { CLI.usageError("unknown option '\(a)'", usage: usage) }
                positional.append(a)
            }
        }
        guard positional.count == 2 else { CLI.usageError("convert takes INPUT and OUTPUT", usage: usage) }
        guard to == RecordingFormat.sensorKitNDJSON.rawValue else {
            CLI.usageError("--to must be sensorkit-ndjson", usage: usage)
        }
        let (input, output) = (positional[0], positional[1])
        if input.isEmpty || output.isEmpty { CLI.usageError("INPUT and OUTPUT must not be empty paths", usage: usage) }
        let partial = output + ".partial"
        do {
            let opened = try RecordingOpener.open(path: input, options: options)
            let writer = try SensorKitWriter(path: partial, compress: output.hasSuffix(".gz"))
            var issues = 0
            while let event = try opened.decoder.next() {
                if case .issue(let e) = event {
                    issues += 1
                    CLI.error("warning: \(e)")
                }
                try writer.write(event)
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
            for info in opened.decoder.streams where info.timeOrigin != .unix {
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

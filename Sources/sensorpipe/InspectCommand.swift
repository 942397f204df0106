import Foundation
import Pipeline
import Recordings

/// `sensorpipe inspect`: what is in a recording, stream by stream, with its QC account.
enum InspectCommand {
    struct Options: CommandOptions {
        var arguments: [String] = []
        var json = false
        var decode = DecodeOptions()
        var maxIssues = 5
    }

    static var command: Command { Command(declaration) }

    static var declaration: CommandDeclaration<Options> {
        CommandDeclaration<Options>(
            name: "inspect", summary: "streams, times, rates, segments, gaps and QC of recordings",
            arguments: .files("FILE|DIR…"),
            about: """
                For every recording (folders are searched recursively): format, and per stream its key
                (device/sensor/channel[/session=ID], as in the result tables), what its times count from
                (origin: unix = UTC, stream_start = seconds from the record start, device_local = the
                device's local clock), start and end (UTC for unix, "+seconds" otherwise), nominal and
                measured rate (Hz), segments, gaps, deletion spans, duplicates dropped, masked and
                rejected samples. --json adds the stream's attributes (classification, utc_offset_s,
                device_model, ...).
                """,
            options: [
                .flag("--json", help: "one JSON object per recording, one per line", \.json),
                SharedOptions.preset(\.decode),
                SharedOptions.noVerifyIntegrity(\.decode),
                SharedOptions.edfSignal(\.decode),
            ] + SharedOptions.csv(\.decode) + [
                .value(
                    "--issues", rule: .integer("N", in: 0...Int.max), help: "show at most N recoverable issues per file (default 5)",
                    \.maxIssues)
            ],
            run: run)
    }

    struct StreamReport: Encodable {
        var index: Int
        /// ``StreamKey/description``: the `stream` of the result tables.
        var key: String
        /// ``TimeOrigin`` raw value.
        var timeOrigin: String
        var device: String
        var sensor: String
        var channel: String
        var session: String?
        var columns: [String]
        var units: [String]
        var start: Double?
        var end: Double?
        var startUTC: String
        var endUTC: String
        var nominalSampleRateHz: Double?
        var measuredSampleRateHz: Double?
        var samplesRead: Int
        var samplesEmitted: Int
        var masked: Int
        var duplicatesDropped: Int
        var rejected: Int
        var segments: Int
        var gaps: Int
        var backwardSteps: Int
        var rateChanges: Int
        var deletedSpans: Int
        var deletedSeconds: Double
        var balanced: Bool
        var attributes: [String: String]
    }

    struct FileReport: Encodable {
        var path: String
        var format: String?
        var preset: String?
        var presetDetected: Bool?
        var error: String?
        var streams: [StreamReport] = []
        var deletions: [DeletionRecord] = []
        var issueCount = 0
        var issues: [String] = []
        /// Annotations the file carries (EDF+), `nil` when none.
        var annotations: Int?
    }

    static func run(_ o: Options) -> Int32 {
        let (inputs, json, options, maxIssues) = (o.arguments, o.json, o.decode, o.maxIssues)
        let files: [String]
        do { files = try RecordingDiscovery.expand(inputs) } catch { CLI.error("\(error)"); return 1 }
        var failed = 0
        for path in files {
            let report = inspect(path, options: options, maxIssues: maxIssues)
            if report.error != nil { failed += 1 }
            if json {
                let enc = JSONEncoder()
                enc.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
                enc.nonConformingFloatEncodingStrategy = .convertToString(
                    positiveInfinity: "Infinity", negativeInfinity: "-Infinity", nan: "NaN")
                print(String(decoding: try! enc.encode(report), as: UTF8.self))
            } else {
                printTable(report)
            }
        }
        if !json {
            print("\(files.count) recording(s), \(files.count - failed) read, \(failed) failed")
        }
        return failed == 0 ? 0 : 1
    }

    /// Decodes one file completely (memory bounded by the block size) and reports on it.
    static func inspect(_ path: String, options: DecodeOptions, maxIssues: Int) -> FileReport {
        var report = FileReport(path: path)
        do throws(RecordingError) {
            let opened = try RecordingOpener.open(path: path, options: options)
            report.format = opened.format.rawValue
            report.preset = opened.preset?.rawValue
            report.presetDetected = opened.preset == nil ? nil : opened.presetDetected
            let d = opened.decoder
            while let event = try d.next() {
                switch event {
                case .issue(let e):
                    report.issueCount += 1
                    if report.issues.count < maxIssues { report.issues.append(e.description) }
                case .deletion(let r):
                    report.deletions.append(r)
                case .annotation:
                    report.annotations = (report.annotations ?? 0) + 1
                case .device, .stream, .block:
                    break
                }
            }
            report.streams = zip(d.streams, d.accounts).enumerated().map { k, pair in
                let (info, qc) = pair
                return StreamReport(
                    index: k, key: info.key.description, timeOrigin: info.timeOrigin.rawValue,
                    device: info.key.deviceID, sensor: info.key.sensor.rawValue,
                    channel: info.key.channel, session: info.key.session,
                    columns: info.columns.map(\.name), units: info.columns.map(\.unit.rawValue),
                    start: qc.firstTime, end: qc.lastTime,
                    startUTC: CLI.time(qc.firstTime, origin: info.timeOrigin),
                    endUTC: CLI.time(qc.lastTime, origin: info.timeOrigin),
                    nominalSampleRateHz: info.nominalSampleRate, measuredSampleRateHz: qc.measuredSampleRate,
                    samplesRead: qc.samplesRead, samplesEmitted: qc.samplesEmitted, masked: qc.masked,
                    duplicatesDropped: qc.duplicatesDropped, rejected: qc.rejected, segments: qc.segments,
                    gaps: qc.gaps, backwardSteps: qc.backwardSteps, rateChanges: qc.rateChanges,
                    deletedSpans: qc.deletedSpans, deletedSeconds: qc.deletedSeconds,
                    balanced: qc.isBalanced, attributes: info.attributes)
            }
        } catch {
            report.error = error.description
        }
        return report
    }

    static func printTable(_ r: FileReport) {
        var head = FilePathBytes.display(r.path)
        if let f = r.format {
            head += "  [\(f)" + (r.preset.map { ", preset \($0)\(r.presetDetected == true ? " (detected)" : "")" } ?? "") + "]"
        }
        print(head)
        if let e = r.error {
            print("  ERROR \(e)")
            print("")
            return
        }
        let header = [
            "stream", "origin", "start", "end", "nominal Hz", "measured Hz", "segments", "gaps",
            "deleted", "duplicates", "masked", "rejected", "samples",
        ]
        var rows = [header]
        for s in r.streams {
            rows.append([
                s.key, s.timeOrigin, s.startUTC, s.endUTC,
                s.nominalSampleRateHz.map { String(format: "%.3f", $0) } ?? "-",
                s.measuredSampleRateHz.map { String(format: "%.3f", $0) } ?? "-",
                "\(s.segments)", "\(s.gaps)",
                s.deletedSpans == 0 ? "0" : String(format: "%d (%.0f s)", s.deletedSpans, s.deletedSeconds),
                "\(s.duplicatesDropped)", "\(s.masked)", "\(s.rejected)", "\(s.samplesEmitted)",
            ])
        }
        let widths = header.indices.map { c in rows.map { $0[c].count }.max() ?? 0 }
        for row in rows {
            let cells = row.enumerated().map { c, v in
                c == 0
                    ? v.padding(toLength: widths[c], withPad: " ", startingAt: 0)
                    : String(repeating: " ", count: widths[c] - v.count) + v
            }
            print("  " + cells.joined(separator: "  "))
        }
        for d in r.deletions {
            print("  deleted \(d.deviceID)/\(d.sensor) \(CLI.time(d.startUnix)) – \(CLI.time(d.endUnix)) (\(d.reason.rawValue))")
        }
        if let n = r.annotations {
            print("  \(n) annotation(s) (EDF+ TALs; analyze and run store them in the annotations table)")
        }
        if r.issueCount > 0 {
            print("  \(r.issueCount) issue(s)" + (r.issues.count < r.issueCount ? ", first \(r.issues.count):" : ":"))
            for i in r.issues { print("    \(i)") }
        }
        print("")
    }
}

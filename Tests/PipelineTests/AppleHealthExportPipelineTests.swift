import Cardio
import Foundation
import Pipeline
import Recordings
import Testing
import _TestSupport

/// An Apple Health export through the whole analysis: the device's beat lists become a beat
/// series (`source` `device`) with heart rate and HRV rows; the records appear as streams that
/// nothing analyses, saying so.
@Suite struct AppleHealthExportPipelineTests {
    static let excerpt = Fixtures.repositoryRoot.appendingPathComponent("Datasets/apple-health/export-excerpt.xml").path

    func run(blockCapacity: Int) throws -> (MemorySink, RecordingAnalysis.Summary) {
        let sink = MemorySink()
        let summary = try RecordingAnalysis.run(
            path: Self.excerpt, analysis: AnalysisConfiguration(decode: DecodeOptions(blockCapacity: blockCapacity)), sink: sink)
        return (sink, summary)
    }

    @Test func beatListsBecomeADeviceBeatSeries() throws {
        let (sink, summary) = try run(blockCapacity: 65_536)
        let beats = sink.named("beats").filter { $0["source"] == .text("device") }
        // 46 listed beats, in contiguous runs the device's gaps separate: every listed beat is a row.
        #expect(beats.filter { $0["time"] != .null }.count >= 46, "\(beats.count) beat rows")
        let hrv = sink.named("hrv").filter { $0["source"] == .text("device") }
        #expect(!hrv.isEmpty)
        #expect(!sink.named("heart_rate").filter { $0["source"] == .text("device") }.isEmpty)
        // The records' streams are listed and not analysed.
        let hr = try #require(summary.streamSummaries.first { $0.key.channel == "HeartRate" })
        #expect(hr.analysisDescription == "none: device record, not analysed")
        #expect(hr.account.samplesEmitted == 20)
        let beatStream = try #require(summary.streamSummaries.first { $0.key.sensor == .heartbeat })
        #expect(beatStream.analysisDescription.contains("ppg"))
    }

    /// The summary row of the device's beat lists carries what the tables hold (it said beats 0
    /// and no heart rate under `ppg` while the tables held 46 device beats and 24 rates).
    @Test func deviceBeatListsFillTheirSummaryRow() throws {
        let (sink, summary) = try run(blockCapacity: 65_536)
        let text = try String(contentsOfFile: Self.excerpt, encoding: .utf8)
        let listed = text.components(separatedBy: "<InstantaneousBeatsPerMinute ").count - 1
        let row = try #require(summary.recordingSummaries.first { $0.family == "device" })
        #expect(row.streams == 1 && row.figures.analysedSeconds > 0)
        let beatRows = sink.named("beats").filter { $0["source"] == .text("device") }
        let beats = try #require(row.figures.value("beats", .sum))
        #expect(Int(beats) == beatRows.count && Int(beats) >= listed, "\(beats) beats, \(beatRows.count) rows, \(listed) listed")
        let rates = sink.named("heart_rate").compactMap { r -> Double? in
            guard r["source"] == .text("device"), case .real(let bpm)? = r["bpm"] else { return nil }
            #expect(r["recommended"] == .integer(1), "the device's beat list is its source's one series")
            return bpm
        }
        #expect(!rates.isEmpty && row.figures.value("hr_windows", .sum) == Double(rates.count))
        let mean = try #require(row.figures.value("hr_mean_bpm", .mean))
        #expect(abs(mean - rates.reduce(0, +) / Double(rates.count)) < 1e-9)
        #expect(row.figures.value("hr_max_bpm", .max) == rates.max() && row.figures.value("hr_min_bpm", .min) == rates.min())
        // Nothing is summarised under `ppg`: the export has no optical signal.
        #expect(!summary.recordingSummaries.contains { $0.family == "ppg" })
    }

    @Test func blockSizeDoesNotChangeRows() throws {
        let whole = try run(blockCapacity: 1 << 20).0
        for capacity in [1, 5] {
            let parts = try run(blockCapacity: capacity).0
            for table in ["beats", "heart_rate", "hrv", "rhythm"] {
                #expect(parts.committed[table] == whole.committed[table], "\(table) @\(capacity)")
            }
        }
    }
}

/// The rhythm family on a device's own beat list (`device_beats`): one window per list, intervals
/// only between neighbouring listed beats (never across the list's gaps). Expected values come
/// from the export's text (the listed times), not from SensorPipe.
@Suite struct AppleHealthDeviceRhythmTests {
    /// Unix times of the listed beats: `HH:MM:SS,cc` on 2020-04-11 at UTC+2 (the record's date).
    static func listedTimes(_ xml: String) -> [Double] {
        let day = 1_586_563_200.0 - 7200 // 2020-04-11T00:00:00+02:00
        var out = [Double]()
        for line in xml.split(separator: "\n") where line.contains("<InstantaneousBeatsPerMinute") {
            guard let r = line.range(of: "time=\"") else { continue }
            let t = line[r.upperBound...].prefix { $0 != "\"" }.replacingOccurrences(of: ",", with: ".")
            let p = t.split(separator: ":").compactMap { Double($0) }
            if p.count == 3 { out.append(day + p[0] * 3600 + p[1] * 60 + p[2]) }
        }
        return out
    }

    /// The excerpt with its beat list replaced by beats at `times` (seconds after 23:47:49).
    static func export(beatsAt times: [Double], in dir: TemporaryDirectory) throws -> String {
        let xml = try String(contentsOfFile: AppleHealthExportPipelineTests.excerpt, encoding: .utf8)
        let a = try #require(xml.range(of: "<HeartRateVariabilityMetadataList>"))
        let b = try #require(xml.range(of: "</HeartRateVariabilityMetadataList>"))
        let list = times.map { t -> String in
            let s = 49 + t
            let whole = Int(s.rounded(.down)), cs = Int(((s - Double(whole)) * 100).rounded())
            let (m, sec) = (47 + whole / 60, whole % 60)
            return "   <InstantaneousBeatsPerMinute bpm=\"70\" time=\"23:\(m):" + String(format: "%02d,%02d", sec, cs) + "\" />\n"
        }.joined()
        return dir.write("export.xml", String(xml[..<a.upperBound]) + "\n" + list + "  " + String(xml[b.lowerBound...]))
    }

    static func rhythm(_ path: String) throws -> [[String: ResultValue]] {
        let sink = MemorySink()
        _ = try RecordingAnalysis.run(path: path, analysis: AnalysisConfiguration(), sink: sink)
        return sink.named("rhythm").filter { $0["source"] == .text("device") }
    }

    static func real(_ v: ResultValue?) -> Double? { if case .real(let x)? = v { x } else { nil } }

    @Test("the 46-beat list: one window, its 41 neighbouring intervals (the gaps of 3.9–8.6 s are none)")
    func excerptList() throws {
        let xml = try String(contentsOfFile: AppleHealthExportPipelineTests.excerpt, encoding: .utf8)
        let times = Self.listedTimes(xml)
        #expect(times.count == 46)
        let rr = zip(times, times.dropFirst()).map { $1 - $0 }.filter { $0 <= 2.5 }
        #expect(rr.count == 41) // adjacent_pairs in Datasets/apple-health/sdnn_reference.tsv
        let rows = try Self.rhythm(AppleHealthExportPipelineTests.excerpt)
        #expect(rows.count == 1)
        let w = try #require(rows.first)
        #expect(w["beats"] == .integer(46))
        let total: Double = rr.reduce(0, +)
        let span: Double = times[45] - times[0]
        let meanRate: Double = 60 / (total / 41)
        let start: Double = Self.real(w["window_start"]) ?? .nan
        let end: Double = Self.real(w["window_end"]) ?? .nan
        let rate: Double = Self.real(w["mean_hr_bpm"]) ?? .nan
        let coverage: Double = Self.real(w["rr_coverage"]) ?? .nan
        #expect(abs(start - times[0]) < 1e-6)
        #expect(abs(end - times[45]) < 1e-6)
        #expect(abs(rate - meanRate) < 1e-6)
        #expect(abs(coverage - total / span) < 1e-6)
        #expect(w["null_reason"] == .null && w["model"] == .text("rr-logistic-v1") && w["label"] != .text("insufficient"))
        if case .text(let stream)? = w["stream"] { #expect(stream.contains("/heartbeat/beats")) } else { Issue.record("no stream") }
    }

    @Test("a gap shorter than 2.5 s but longer than twice the intervals is no interval; too few intervals are insufficient")
    func gapsAndTooFewBeats() throws {
        let dir = TemporaryDirectory()
        // 8 beats 0.5 s apart, a 1.6-s gap, 8 more: 14 intervals of 0.5 s, not 15.
        let run = (0..<8).map { Double($0) * 0.5 }
        let rows = try Self.rhythm(try Self.export(beatsAt: run + run.map { $0 + 3.5 + 1.6 }, in: dir))
        #expect(rows.count == 1)
        #expect(rows.first?["beats"] == .integer(16))
        let rate: Double = Self.real(rows.first?["mean_hr_bpm"]) ?? .nan
        let coverage: Double = Self.real(rows.first?["rr_coverage"]) ?? .nan
        #expect(abs(rate - 120) < 1e-6, "\(rows)")
        #expect(abs(coverage - 7 / 8.6) < 1e-6)
        // 5 beats: 3 intervals and a gap: insufficient, with the reason.
        let few = try Self.rhythm(try Self.export(beatsAt: [0, 0.96, 1.83, 2.62, 7.33], in: dir))
        #expect(few.count == 1)
        #expect(few.first?["label"] == .text("insufficient") && few.first?["af_probability"] == .null)
        if case .text(let why)? = few.first?["null_reason"] {
            #expect(why.contains("fewer than 6") && why.contains("(3)") && why.contains("gap"))
        } else {
            Issue.record("no null_reason: \(few)")
        }
    }
}

/// `--csv-mapping FILE`: JSON with the fields of ``CSVMapping``.
@Suite struct CSVMappingFileTests {
    func parse(_ json: String) throws(CSVMappingFile.Error) -> CSVMapping { try CSVMappingFile.parse(Array(json.utf8), name: "m.json") }

    @Test func fullMapping() throws {
        let m = try parse(
            """
            {"deviceID": "wrist", "time": {"column": "timestamp", "unit": "ms", "origin": {"offset": 3600}},
             "streams": [{"sensor": "accelerometer", "channel": "acceleration",
                          "columns": [{"column": "ax", "name": "x", "unit": "mg"}, {"column": 2, "name": "y", "unit": "m/s^2"}],
                          "attributes": {"placement": "wrist"}},
                         {"sensor": "electrocardiogram", "channel": "I", "columns": [{"column": "ecg", "name": "I", "unit": "mV"}]}],
             "hasHeaderRow": true, "delimiter": "semicolon", "decimalSeparator": "comma", "skipLines": 2}
            """)
        let expected = CSVMapping(
            deviceID: "wrist", time: .column(.name("timestamp"), unit: .milliseconds, origin: .offset(seconds: 3600)),
            streams: [
                .init(
                    sensor: .accelerometer, channel: "acceleration",
                    columns: [
                        .init(.name("ax"), name: "x", unit: .gravityCounts(perG: 1000)),
                        .init(.index(2), name: "y", unit: .metresPerSecondSquared),
                    ],
                    attributes: ["placement": "wrist"]),
                .init(sensor: .electrocardiogram, channel: "I", columns: [.init(.name("ecg"), name: "I", unit: .millivolts)]),
            ],
            hasHeaderRow: true, delimiter: .semicolon, decimalSeparator: .comma, skipLines: 2)
        #expect(m == expected)
        let r = try parse(
            #"{"deviceID": "d", "time": {"sampleRate": 64, "startUnix": null}, "streams": [{"sensor": "photoplethysmogram", "channel": "BVP", "columns": [{"column": 0, "name": "BVP", "unit": "1"}]}], "hasHeaderRow": false}"#
        )
        #expect(r.time == .sampleRate(64, startUnix: nil) && !r.hasHeaderRow)
    }

    @Test func errorsNameThePlace() {
        let cases: [(String, String)] = [
            ("{\"deviceID\": \"d\",\n \"time\": }", "m.json:2:"),
            (#"{"deviceID": "d", "time": {"column": "t"}, "streams": [], "colour": 1}"#, "m.json: colour: unknown field"),
            (
                #"{"deviceID": "d", "time": {"column": "t", "unit": "min"}, "streams": [{"sensor": "accelerometer", "channel": "a", "columns": [{"column": "x", "name": "x", "unit": "g"}]}]}"#,
                "m.json: time: time unit 'min'"
            ),
            (
                #"{"deviceID": "d", "time": {"column": "t"}, "streams": [{"sensor": "accelerometer", "channel": "a", "columns": [{"column": "x", "name": "x", "unit": "furlongs"}]}]}"#,
                "m.json: streams[0].columns[0].unit: expected one of g"
            ),
            (
                #"{"deviceID": "d", "time": {"column": "t"}, "streams": [{"sensor": "sonar", "channel": "a", "columns": []}]}"#,
                "m.json: streams[0].sensor: expected accelerometer"
            ),
            (
                #"{"deviceID": "d", "time": {"column": "t"}, "streams": [{"sensor": "accelerometer", "channel": "a", "columns": [{"column": "x", "name": "x", "unit": "g"}]}], "hasHeaderRow": false}"#,
                "m.json: streams[0].columns[0].column: a header name, but hasHeaderRow is false"
            ),
            (#"{"deviceID": "d", "time": {"sampleRate": true}, "streams": []}"#, "m.json: time.sampleRate: expected a rate > 0"),
        ]
        for (json, says) in cases {
            do {
                _ = try parse(json)
                Issue.record("accepted: \(json)")
            } catch {
                #expect(error.description.hasPrefix(says), "\(error.description)")
            }
        }
    }
}

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

    @Test func blockSizeDoesNotChangeRows() throws {
        let whole = try run(blockCapacity: 1 << 20).0
        for capacity in [1, 5] {
            let parts = try run(blockCapacity: capacity).0
            for table in ["beats", "heart_rate", "hrv"] {
                #expect(parts.committed[table] == whole.committed[table], "\(table) @\(capacity)")
            }
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

import Cardio
import Foundation
import Recordings
import Testing
import _TestSupport

@testable import Pipeline

@Suite("Configuration files (--config)")
struct ConfigurationFileTests {
    func load(_ text: String) throws -> AnalysisConfiguration {
        let dir = TemporaryDirectory()
        return try AnalysisConfiguration(configurationFile: dir.write("c.json", Array(text.utf8)))
    }

    @Test("the stored canonical JSON reads back as the same configuration (same hash on resume)")
    func roundTrip() throws {
        var c = AnalysisConfiguration()
        c[ECGFamily.self].heartRateWindowSeconds = 30
        c[ECGFamily.self].heartRateStepSeconds = 15
        c[ECGFamily.self].hrvWindowSeconds = 120
        c[ECGFamily.self].qualityWindowSeconds = 5
        c.decode.preset = .oxfordSteps
        let json = c.canonicalJSON(softwareVersion: "9.9")
        let back = try load(json)
        #expect(back.canonicalJSON(softwareVersion: "9.9") == json)
        #expect(try load("{}").canonicalJSON(softwareVersion: "1") == AnalysisConfiguration().canonicalJSON(softwareVersion: "1"))
    }

    @Test(
        "errors name the file and the key",
        arguments: [
            ("{\"ecg\": {\"hr_window\": 3}}", "unknown key 'ecg.hr_window'"),
            ("{\"ecgs\": {}}", "unknown key 'ecgs'"),
            ("{\"ecg\": {\"heart_rate_window_s\": -1}}", "'ecg.heart_rate_window_s' must be a number from 1"),
            ("{\"ecg\": {\"heart_rate_window_s\": true}}", "'ecg.heart_rate_window_s' must be a number, got true"),
            ("{\"decode\": {\"preset\": \"nope\"}}", "'decode.preset' must be auto or one of"),
            ("{\"ecg\": [1]}", "'ecg' must be an object"),
            ("[1, 2]", "expected a JSON object"),
            ("{\"ecg\": ", "c.json:1:9: not valid JSON"),
        ])
    func errors(text: String, expected: String) {
        do {
            _ = try load(text)
            Issue.record("accepted \(text)")
        } catch {
            let message = "\(error)"
            #expect(message.contains("c.json:") && message.contains(expected), "\(message)")
        }
    }
}

@Suite("Hours of signal per sensor")
struct SignalHoursTests {
    @Test("concurrent channels count once, separate periods add up, PPG temperature is not signal")
    func overlapCounting() {
        var s = RecordingAnalysis.Summary()
        func add(_ device: String, _ sensor: SensorKind, _ channel: String, _ first: Double, _ last: Double, _ covered: Double) {
            var qc = StreamQC()
            qc.firstTime = first
            qc.lastTime = last
            qc.coveredSeconds = covered
            s.streamSummaries.append(
                RecordingAnalysis.StreamSummary(
                    key: StreamKey(deviceID: device, sensor: sensor, channel: channel), file: "f", timeOrigin: .unix,
                    attributes: [:], analyses: sensor == .electrocardiogram ? ["ecg"] : [], account: qc,
                    role: channel == "temperature" ? .temperature : .primary(for: sensor)))
        }
        add("w", .photoplethysmogram, "optical/green", 0, 100, 100)
        add("w", .photoplethysmogram, "optical/ir", 0, 100, 98)
        add("w", .photoplethysmogram, "optical/green", 200, 260, 60)
        add("w", .photoplethysmogram, "temperature", 0, 3600, 3600)
        add("w", .electrocardiogram, "lead", 10, 40, 30)
        add("p", .photoplethysmogram, "optical/green", 0, 50, 50) // another device
        let h = s.signalSecondsBySensor
        #expect(h[.photoplethysmogram] == 210)
        #expect(h[.electrocardiogram] == 30)
        #expect(h[.accelerometer] == nil)
        // Hours analysed count only streams some family used.
        #expect(s.analysedSecondsBySensor[.photoplethysmogram] == nil)
        #expect(s.analysedSecondsBySensor[.electrocardiogram] == 30)
    }
}

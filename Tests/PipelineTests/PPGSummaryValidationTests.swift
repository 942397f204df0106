import Foundation
import Pipeline
import Recordings
import Testing
import _TestSupport

/// Issue 28, "one heart rate a reader can trust": the SPC 2015 recordings that carry a chest ECG
/// (12 training recordings and S04_T01), as SensorKit exports of their wrist PPG and accelerometer
/// (`scripts/ppg/spc2015-to-sensorkit.py`, variant `complete`), run through every registered
/// family. Checks, per recording:
/// - the `ppg` row of `recording_summary` gives a heart rate within 2 bpm of the mean
///   `spectral_offline` rate of the recording (the recommended series; before: an average over
///   the spectral and pulse-count methods, 119.3 against 133.7 bpm on DATA_01);
/// - each optical stream's whole-recording PRV RMSSD is either empty with a `null_reason`, or
///   within a factor 2 of the chest-ECG RMSSD of the same recording (the ECG family on the
///   MATLAB file; before: 262 / 219 ms against 23 ms on DATA_01).
/// Prints the table of docs/VALIDATION.md ("PPG: summary heart rate and PRV against the chest
/// ECG"). Run: `SENSORPIPE_DATASETS=/path/to/shared/datasets swift test -c release --filter
/// PPGSummaryValidationTests` after `python3 scripts/ppg/spc2015-to-sensorkit.py`.
@Suite(
    "SPC 2015 as SensorKit exports: PPG summary heart rate and PRV against the chest ECG",
    .enabled(
        if: Fixtures.sharedDatasets != nil && SPC2015SensorKitFiles.folder != nil,
        "../shared/datasets or .build/derived/spc2015-sensorkit is absent (python3 scripts/ppg/spc2015-to-sensorkit.py writes it): skipped")
)
struct PPGSummaryValidationTests {
    static func real(_ v: ResultValue?) -> Double? {
        if case .real(let x)? = v { return x }
        if case .integer(let x)? = v { return Double(x) }
        return nil
    }

    static func text(_ v: ResultValue?) -> String {
        if case .text(let s)? = v { return s }
        return ""
    }

    @Test("summary heart rate = the spectral_offline mean; PRV RMSSD empty with a reason or within 2× the chest ECG's")
    func summaryAndPRV() throws {
        let derived = try #require(SPC2015SensorKitFiles.folder)
        let configuration = try PPGSPC2015ValidationTests.configuration()
        let ecg = try #require(AnalysisRegistry.family(named: "ecg"))
        let recordings = PPGSPC2015ValidationTests.recordings.filter { $0.set == "training" || $0.name == "S04_T01" }
        try #require(recordings.count == 13)
        var lines = [String]()
        lines.append(
            "| recording | summary HR (bpm) | mean spectral_offline (bpm) | chest ECG RMSSD (ms) | PPG channel | PRV RMSSD (ms) | NN used / intervals | excluded_quality_share | null_reason |"
        )
        lines.append("|---|---:|---:|---:|---|---:|---:|---:|---|")
        var empty = 0, within = 0, outside = [String]()
        for r in recordings {
            let folder = derived.appendingPathComponent("\(r.name)/complete")
            let files = ["photoplethysmogram", "accelerometer"].map { folder.appendingPathComponent("\($0).ndjson.gz").path }
            let sink = MemorySink()
            _ = try RecordingAnalysis.run(
                recording: RecordingInput(path: folder.path, files: files), analysis: configuration,
                families: AnalysisRegistry.families, sink: sink)
            let summary = try #require(sink.named("recording_summary").first { Self.text($0["family"]) == "ppg" })
            let hr = try #require(Self.real(summary["hr_mean_bpm"]), "\(r.name): no summary heart rate")
            let offline = sink.named("heart_rate").filter { Self.text($0["method"]) == "spectral_offline" }.compactMap {
                Self.real($0["bpm"])
            }
            let offlineMean = offline.reduce(0, +) / Double(max(1, offline.count))
            #expect(!offline.isEmpty && abs(hr - offlineMean) <= 2, "\(r.name): summary \(hr) bpm, spectral_offline mean \(offlineMean)")

            let chest = MemorySink()
            _ = try RecordingAnalysis.run(recording: RecordingInput(path: r.data), analysis: configuration, families: [ecg], sink: chest)
            let ecgRow = try #require(
                chest.named("hrv").first { Self.text($0["source"]) == "ecg" && Self.text($0["scope"]) == "recording" })
            let ecgRMSSD = try #require(Self.real(ecgRow["RMSSD"]), "\(r.name): no chest-ECG RMSSD")

            let prv = sink.named("hrv").filter { Self.text($0["source"]) == "ppg" && Self.text($0["scope"]) == "recording" }
            #expect(prv.count == 2, "\(r.name): \(prv.count) whole-recording PRV rows (two optical channels)")
            for row in prv {
                let stream = Self.text(row["stream"])
                let rmssd = Self.real(row["RMSSD"])
                let reason = Self.text(row["null_reason"])
                if let rmssd {
                    let ok = rmssd <= 2 * ecgRMSSD && rmssd >= ecgRMSSD / 2
                    if ok { within += 1 } else { outside.append("\(r.name) \(stream): \(rmssd) ms, chest ECG \(ecgRMSSD) ms") }
                } else {
                    empty += 1
                    #expect(!reason.isEmpty, "\(r.name) \(stream): RMSSD empty without a reason")
                }
                let channel = stream.split(separator: "/").suffix(2).joined(separator: "/")
                let nn = Self.real(row["nn_count"]).map { String(Int($0)) } ?? "–"
                let intervals = Self.real(row["intervals"]).map { String(Int($0)) } ?? "–"
                let share = Self.real(row["excluded_quality_share"]).map { String(format: "%.3f", $0) } ?? "–"
                let shortReason = reason.split(separator: ";").first.map(String.init) ?? ""
                lines.append(
                    String(format: "| %@ | %.1f | %.1f | %.1f |", r.name, hr, offlineMean, ecgRMSSD)
                        + " \(channel) | \(rmssd.map { String(format: "%.1f", $0) } ?? "empty") | \(nn) / \(intervals) | \(share) | \(shortReason) |"
                )
            }
        }
        lines.append("")
        lines.append("PRV rows: \(empty) empty with a reason, \(within) within 2× the chest ECG, \(outside.count) outside.")
        print(lines.joined(separator: "\n"))
        // The issue's target is not met yet (docs/VALIDATION.md): known, and reported again as
        // soon as it is (a known issue that no longer occurs fails the test).
        withKnownIssue("PRV RMSSD outside 2× the chest-ECG RMSSD on some channels (docs/VALIDATION.md)") {
            #expect(outside.isEmpty, "\(outside)")
        }
        #if !DEBUG
            ValidationDocument.replaceBlock(
                "ppgsummary", writtenBy: "PPGSummaryValidationTests", with: lines.joined(separator: "\n") + "\n")
        #endif
    }
}

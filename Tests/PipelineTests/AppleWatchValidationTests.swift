import Foundation
import Pipeline
import Recordings
import Testing
import _TestSupport

/// The six real Apple Watch ECG exports in ../shared/datasets/apple-watch-ecg (not redistributable,
/// so never copied here): the whole chain's heart rate per file against Apple's own classification.
/// ECG app 1.x (these files: "Software Version,1.90") classifies "Sinus Rhythm" only between 50
/// and 100 bpm and "Heart Rate Below 50" below 50 bpm (Apple, "Taking an ECG with the ECG app on
/// Apple Watch", Instructions for Use, ECG app 1.0), an independent reference for the whole chain
/// decode → R-peaks → beat classes → correction → heart rate. The classification is read from the
/// file's text here (independently of the decoder) and must equal `ecg_summary.device_classification`.
///
/// Writes its table to docs/VALIDATION.md (between the `applewatch` markers) in release builds:
/// `SENSORPIPE_DATASETS=/path/to/shared/datasets swift test -c release --filter AppleWatchValidation`
/// (the variable is needed only when ../shared/datasets is not beside the repository).
@Suite(
    "Apple Watch exports: heart rate agrees with Apple's classification",
    .enabled(if: Fixtures.sharedDatasets != nil, "../shared/datasets is absent: Apple Watch validation skipped"))
struct AppleWatchValidationTests {
    static func real(_ v: ResultValue?) -> Double? {
        if case .real(let x)? = v { return x }
        if case .integer(let x)? = v { return Double(x) }
        return nil
    }

    static func number(_ v: Double?, _ digits: Int = 1) -> String { v.map { String(format: "%.\(digits)f", $0) } ?? "–" }

    @Test("mean heart rate per export")
    func heartRates() throws {
        let folder = try #require(Fixtures.sharedDatasets).appendingPathComponent("apple-watch-ecg")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".csv") }.sorted()
        #expect(files.count == 6)
        var table = [
            "| file | Apple classification (file) | `ecg_summary.device_classification` | beats | N / S / V / Q | artefacts flagged | `ecg_summary.mean_hr_bpm` | `recording_summary.hr_mean_bpm` | `usable_share` | HRV RMSSD (ms) |",
            "|---|---|---|---:|---|---:|---:|---:|---:|---:|",
        ]
        for file in files {
            let path = folder.appendingPathComponent(file).path
            let text = try String(contentsOfFile: path, encoding: .utf8)
            let classification =
                text.split(separator: "\n").first { $0.hasPrefix("Classification,") }
                .map { String($0.dropFirst("Classification,".count)) } ?? ""
            let sink = MemorySink()
            _ = try RecordingAnalysis.run(path: path, analysis: AnalysisConfiguration(), sink: sink)
            let summary = try #require(sink.named("ecg_summary").first, "\(file): no ecg_summary row")
            let device: String
            if case .text(let s)? = summary["device_classification"] { device = s } else { device = "" }
            #expect(device == classification, "\(file): device_classification '\(device)', file '\(classification)'")
            let bpm = try #require(Self.real(summary["mean_hr_bpm"]), "\(file): no mean heart rate")
            let ecgRow = sink.named("recording_summary").first { $0["family"] == .text("ecg") }
            let artefacts = sink.named("beats").filter { row in
                if case .text(let a)? = row["artefact"] { return !a.isEmpty } else { return false }
            }.count
            let hrv = sink.named("hrv").first { $0["scope"] == .text("recording") && $0["source"] == .text("ecg") }
            let classes = ["normal", "supraventricular", "ventricular", "unclassifiable"].map {
                Self.real(summary[$0]).map { String(Int($0)) } ?? "–"
            }
            table.append(
                "| \(file) | \(classification) | \(device) | \(Self.real(summary["beats"]).map { String(Int($0)) } ?? "–") | "
                    + classes.joined(separator: " / ")
                    + " | \(artefacts) | \(Self.number(bpm)) | \(Self.number(Self.real(ecgRow?["hr_mean_bpm"]))) | "
                    + "\(Self.number(Self.real(ecgRow?["usable_share"]), 2)) | \(Self.number(Self.real(hrv?["RMSSD"]))) |")
            switch classification {
            case "Heart Rate Below 50": #expect(bpm < 50, "\(file): \(bpm) bpm")
            case "Sinus Rhythm": #expect(bpm >= 50 && bpm <= 100, "\(file): \(bpm) bpm")
            default: Issue.record("\(file): unexpected classification '\(classification)'")
            }
        }
        print(table.joined(separator: "\n"))
        #if !DEBUG
            ValidationDocument.replaceBlock(
                "applewatch", writtenBy: "AppleWatchValidationTests", with: table.joined(separator: "\n") + "\n")
        #endif
    }
}

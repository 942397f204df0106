import Cardio
import Foundation
import Pipeline
import Recordings
import Testing
import _TestSupport

/// BUT PPG (../shared/datasets/butppg-subset, 51 smartphone-camera records of 10 s at 30 Hz with
/// an expert quality label and an ECG reference heart rate): the PPG quality label of each
/// record's 8-s window against the expert label (expert 1 = usable for heart rate ↔ ours good or
/// acceptable), and the heart-rate error on the records labelled good. Nothing was tuned on
/// these records.
@Suite(
    "BUT PPG: PPG quality label and heart rate against the expert labels",
    .enabled(if: Fixtures.sharedDatasets != nil, "../shared/datasets is absent: BUT PPG validation skipped"))
struct PPGBUTValidationTests {
    @Test("sensitivity, specificity and accuracy of the label; heart-rate error on good records")
    func qualityAndHeartRate() throws {
        let path = try #require(Fixtures.sharedDatasets).appendingPathComponent("butppg-subset/myData.csv").path
        // ID RefHR Location Motion Quality "Signal" "Time"
        var reference: [String: (hr: Double, quality: Int)] = [:]
        for line in try String(contentsOfFile: path, encoding: .utf8).split(whereSeparator: \.isNewline).dropFirst() {
            let f = line.split(separator: " ", maxSplits: 5)
            guard f.count >= 5, let hr = Double(f[1]), let q = Int(f[4]) else { continue }
            reference[String(f[0])] = (hr, q)
        }
        #expect(reference.count == 51)
        let ppg = try #require(AnalysisRegistry.family(named: "ppg"))
        let sink = MemorySink()
        _ = try RecordingAnalysis.run(recording: RecordingInput(path: path), analysis: AnalysisConfiguration(), families: [ppg], sink: sink)
        var labels: [String: String] = [:]
        for row in sink.named("ppg_quality") {
            guard case .text(let stream)? = row["stream"], case .text(let label)? = row["label"],
                let id = stream.split(separator: "=").last.map(String.init), labels[id] == nil
            else { continue }
            labels[id] = label
        }
        var spectral: [String: Double] = [:]
        var beats: [String: Double] = [:]
        for row in sink.named("heart_rate") {
            guard case .text(let stream)? = row["stream"], case .real(let bpm)? = row["bpm"],
                let id = stream.split(separator: "=").last.map(String.init)
            else { continue }
            if row["method"] == .text("spectral_offline"), spectral[id] == nil { spectral[id] = bpm }
            if row["method"] == .text("beats"), beats[id] == nil { beats[id] = bpm }
        }
        var tp = 0, fn = 0, tn = 0, fp = 0
        var counts: [String: [Int]] = [:]
        var spectralErrors = [Double](), beatErrors = [Double]()
        for (id, r) in reference {
            let label = labels[id] ?? "none"
            counts[label, default: [0, 0]][r.quality] += 1
            let usable = label == "good" || label == "acceptable"
            switch (r.quality == 1, usable) {
            case (true, true): tp += 1
            case (true, false): fn += 1
            case (false, false): tn += 1
            case (false, true): fp += 1
            }
            if label == "good" {
                if let s = spectral[id] { spectralErrors.append(abs(s - r.hr)) }
                if let b = beats[id] { beatErrors.append(abs(b - r.hr)) }
            }
        }
        let se = Double(tp) / Double(max(1, tp + fn)), sp = Double(tn) / Double(max(1, tn + fp))
        let accuracy = Double(tp + tn) / Double(max(1, reference.count))
        print("| our label | expert 1 (good) | expert 0 (bad) |\n|---|---:|---:|")
        for (label, c) in counts.sorted(by: { $0.key < $1.key }) { print("| \(label) | \(c[1]) | \(c[0]) |") }
        print(String(format: "Se %.3f Sp %.3f accuracy %.3f (TP %d FN %d TN %d FP %d)", se, sp, accuracy, tp, fn, tn, fp))
        func mae(_ e: [Double]) -> Double { e.reduce(0, +) / Double(max(1, e.count)) }
        print(
            String(
                format: "HR MAE on records labelled good: spectral offline %.2f bpm (n %d), beats %.2f bpm (n %d)",
                mae(spectralErrors), spectralErrors.count, mae(beatErrors), beatErrors.count))
        // Regression guards at the measured values with a margin (docs/VALIDATION.md).
        #expect(accuracy >= 0.6)
        #expect(!spectralErrors.isEmpty && mae(spectralErrors) < 10)
    }
}

import Foundation
import Pipeline
import Recordings
import Testing
import _TestSupport

/// The six real Apple Watch ECG exports in ../shared/datasets/apple-watch-ecg (not redistributable,
/// so never copied here): mean heart rate per file against Apple's own classification. ECG app 1.x
/// (these files: "Software Version,1.90") classifies "Sinus Rhythm" only between 50 and 100 bpm
/// and "Heart Rate Below 50" below 50 bpm (Apple, "Taking an ECG with the ECG app on Apple Watch",
/// Instructions for Use, ECG app 1.0), an independent reference for the whole chain
/// decode → R-peaks → correction → NN intervals.
@Suite(
    "Apple Watch exports: heart rate agrees with Apple's classification",
    .enabled(if: Fixtures.sharedDatasets != nil, "../shared/datasets is absent: Apple Watch validation skipped"))
struct AppleWatchValidationTests {
    @Test("mean heart rate per export")
    func heartRates() throws {
        let folder = try #require(Fixtures.sharedDatasets).appendingPathComponent("apple-watch-ecg")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".csv") }.sorted()
        #expect(files.count == 6)
        print("| file | Apple classification | beats | mean HR (bpm) |\n|---|---|---:|---:|")
        for file in files {
            let path = folder.appendingPathComponent(file).path
            let text = try String(contentsOfFile: path, encoding: .utf8)
            let classification =
                text.split(separator: "\n").first { $0.hasPrefix("Classification,") }
                .map { String($0.dropFirst("Classification,".count)) } ?? ""
            let sink = MemorySink()
            _ = try RecordingAnalysis.run(path: path, analysis: AnalysisConfiguration(), sink: sink)
            let nn = sink.named("beats").compactMap { row -> Double? in
                if case .real(let v)? = row["nn_ms"] { return v } else { return nil }
            }
            let bpm = 60000 / (nn.reduce(0, +) / Double(max(nn.count, 1)))
            print("| \(file) | \(classification) | \(nn.count + 1) | \(String(format: "%.1f", bpm)) |")
            switch classification {
            case "Heart Rate Below 50": #expect(bpm < 50, "\(file): \(bpm) bpm")
            case "Sinus Rhythm": #expect(bpm >= 50 && bpm <= 100, "\(file): \(bpm) bpm")
            default: Issue.record("\(file): unexpected classification '\(classification)'")
            }
        }
    }
}

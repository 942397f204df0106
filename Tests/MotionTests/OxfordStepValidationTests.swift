import Foundation
import Motion
import Recordings
import Testing
import _TestSupport

/// Step counts on the Oxford step-counter validation walks (`../shared/datasets/oxford-step-counter-validation`,
/// Salvi et al. 2018; 12 walks of two users with the phone in six positions): the whole chain
/// CSV decoder (preset `oxford-steps`, m/s² → g) → grid → ``MotionStreamAnalyzer`` against the
/// ground-truth device's final step count (from the dataset's SOURCE.md table). Target: mean
/// absolute percentage error ≤ 1 % (issue 12).
@Suite(
    "Steps against the Oxford step-counter ground truth",
    .enabled(if: Fixtures.sharedDatasets != nil, "../shared/datasets is absent: Oxford step validation skipped"))
struct OxfordStepValidationTests {
    static let truth: [String: Int] = [
        "user1_armband": 335, "user1_backpocket": 343, "user1_bag": 346, "user1_frontpocket": 327, "user1_hand": 326,
        "user1_neckpouch": 346, "user2_armband": 343, "user2_backpocket": 337, "user2_bag": 361,
        "user2_frontpocket": 343, "user2_hand": 340, "user2_neckpouch": 360,
    ]

    @Test("mean absolute percentage error over the 12 walks")
    func mape() throws {
        let folder = try #require(Fixtures.sharedDatasets).appendingPathComponent("oxford-step-counter-validation")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".csv.xz") }.sorted()
        #expect(files.count == 12)
        var errors = [Double]()
        print("| file | ground truth | steps | error (%) |\n|---|---:|---:|---:|")
        for file in files {
            let key = file.split(separator: "_").prefix(2).joined(separator: "_")
            let truth = try #require(Self.truth[key])
            let opened = try RecordingOpener.open(path: folder.appendingPathComponent(file).path)
            var analyzer: MotionStreamAnalyzer? = nil
            var index = -1
            var steps = 0
            while let event = try opened.decoder.next() {
                switch event {
                case .stream(let i, let info) where analyzer == nil && MotionFamily.isAccelerometer(info):
                    index = i
                    analyzer = MotionStreamAnalyzer(streamName: key, info: info, options: MotionOptions())
                case .block(let b) where b.stream == index:
                    analyzer?.consume(b)
                    steps += analyzer?.takeEpochs().reduce(0) { $0 + $1.steps } ?? 0
                default: break
                }
            }
            var a = try #require(analyzer)
            _ = a.finish()
            steps += a.takeEpochs().reduce(0) { $0 + $1.steps }
            let error = Double(steps - truth) / Double(truth) * 100
            errors.append(abs(error))
            print("| \(key) | \(truth) | \(steps) | \(String(format: "%+.2f", error)) |")
        }
        let mape = errors.reduce(0, +) / Double(errors.count)
        print("MAPE \(String(format: "%.2f", mape)) %")
        #expect(mape <= 1.0)
    }
}

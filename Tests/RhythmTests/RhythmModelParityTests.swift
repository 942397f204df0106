import Foundation
import Testing
import _TestSupport

@testable import Rhythm

/// The shipped ECG rhythm model in Swift against scikit-learn: `scripts/rhythm/fit.py` writes a
/// few held-out CinC rows (fold 4, never fitted on: three per reference class) with their raw
/// window measures and the class probabilities of scikit-learn's own `predict_proba` on the
/// fitted model (`Fixtures/model-parity.csv`); Swift evaluates its generated parameters on the
/// same measures. Missing measures (empty cells) stay missing on both sides.
@Suite("Rhythm model: Swift inference = scikit-learn predict_proba")
struct RhythmModelParityTests {
    @Test("the ECG model's probabilities match scikit-learn's within 1e-9 on the committed rows")
    func parity() throws {
        let text = try String(contentsOf: Fixtures.url("RhythmTests", "model-parity.csv"), encoding: .utf8)
        let lines = text.split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        let header = try #require(lines.first)
        // The reference probabilities in RhythmModel.classes order (CinC's N, A, O, ~).
        let probabilityColumns = try ["p_N", "p_A", "p_O", "p_~"].map { name in try #require(header.firstIndex(of: name), "\(name)") }
        try #require(probabilityColumns.count == RhythmModel.classes.count)
        let model = RhythmModelParameters.ecg
        #expect(lines.count >= 9)
        for row in lines.dropFirst() {
            let p = model.probabilities { name in
                guard let i = header.firstIndex(of: name), !row[i].isEmpty else { return nil }
                return Double(row[i])
            }
            for (k, column) in probabilityColumns.enumerated() {
                let expected = try #require(Double(row[column]))
                #expect(abs(p[k] - expected) <= 1e-9, "\(row[0]) \(header[column]): \(p[k]) vs \(expected)")
            }
        }
    }
}

import Testing
import _TestSupport

@testable import Cardio

@Suite("PPG quality percentiles")
struct PPGQualityPercentileTests {
    /// The one-pass extremes against a full sort (the definition), with duplicates, ascending
    /// and descending input, and at the 5th/95th percentile indices the quality uses.
    @Test("extremes equal the sorted order statistics", arguments: [3, 4, 20, 199, 200, 1_000])
    func extremes(_ n: Int) {
        var rng = SeededGenerator(seed: UInt64(n))
        var w = PPGQuality.Workspace()
        let low = Int(0.05 * Double(n - 1)), high = Int(0.95 * Double(n - 1))
        for shape in 0..<4 {
            var a = (0..<n).map { _ in (Double.random(in: -1...1, using: &rng) * 8).rounded() / 8 }
            if shape == 1 { a.sort() }
            if shape == 2 { a.sort(by: >) }
            if shape == 3 { a = a.map { $0 * 1e-3 + 100 } }
            let sorted = a.sorted()
            let (b, t) = PPGQuality.extremes(a, low: low, high: high, workspace: &w)
            #expect(b == sorted[low] && t == sorted[high], "n \(n), shape \(shape)")
            var copy = a
            let viaSelect = copy.withUnsafeMutableBufferPointer { PPGQuality.select($0, high) }
            #expect(viaSelect == sorted[high])
        }
    }
}

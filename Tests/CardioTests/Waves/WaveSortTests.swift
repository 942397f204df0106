import Testing
import _TestSupport

@testable import Cardio

/// The waves family's exact order statistics (``WaveSort``) against the standard library's
/// stable `sorted()`: the same bits at every position (duplicates, ±0 in either order, runs of
/// equal values, infinities, sizes around the insertion-sort cut-off).
@Suite("WaveSort: order statistics equal sorted()'s")
struct WaveSortTests {

    static func check(_ v: [Float], positions: [Int]) {
        let sorted = v.sorted()
        let got = v.withUnsafeBufferPointer { WaveSort.orderStatistics($0, positions: positions) }
        #expect(got.count == positions.count)
        for (k, x) in zip(positions, got) {
            #expect(x.bitPattern == sorted[k].bitPattern, "position \(k) of \(v.count): \(x) ≠ \(sorted[k])")
        }
    }

    @Test("every position, random values with few distinct ones and signed zeros")
    func everyPosition() {
        var g = SeededGenerator(seed: 17)
        for n in [1, 2, 3, 5, 15, 16, 17, 18, 33, 64, 100, 255, 256, 1000] {
            for kind in 0..<4 {
                let v: [Float] = (0..<n).map { _ in
                    let r = g.next()
                    switch kind {
                    case 0: return Float(Int64(bitPattern: r) % 1000) / 7
                    case 1: return [Float(0), -0.0, 1, -1][Int(r % 4)]
                    case 2: return 5
                    default: return r % 5 == 0 ? (r % 2 == 0 ? .infinity : -.infinity) : Float(r % 97) - 48
                    }
                }
                Self.check(v, positions: Array(0..<n))
                for k in [0, n / 2, n - 1] { Self.check(v, positions: [k]) }
                let quartiles = Set([n / 4, n / 4 + 1, n / 2, n / 2 + 1, 3 * n / 4, 3 * n / 4 + 1].filter { $0 < n }).sorted()
                Self.check(v, positions: quartiles)
            }
        }
    }

    @Test("repeated positions and a zero after negatives")
    func repeated() {
        Self.check([3, -0.0, 0, -2, 0, -0.0, 1], positions: [1, 1, 2, 3, 3, 4])
        Self.check([0, -0.0], positions: [0, 1])
        Self.check([-0.0, 0], positions: [0, 1])
    }
}

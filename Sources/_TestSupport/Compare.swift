import Foundation

/// Numerical comparison helpers for reference-vector tests.
public enum Compare {
    /// Largest |a − b| / max(|b|, floor), with `floor` = `relativeFloor · max|b|` so that values
    /// near zero are judged against the signal's scale rather than against themselves.
    public static func maxRelativeError(
        _ a: [Double], _ b: [Double],
        relativeFloor: Double = 1e-12
    ) -> Double {
        precondition(a.count == b.count, "length mismatch \(a.count) vs \(b.count)")
        let scale = b.reduce(0) { max($0, abs($1)) }
        let floor = max(scale * relativeFloor, .leastNormalMagnitude)
        var worst = 0.0
        for i in a.indices {
            let e = abs(a[i] - b[i]) / max(abs(b[i]), floor)
            if e > worst || e.isNaN { worst = e.isNaN ? .infinity : e }
        }
        return worst
    }

    /// max|a − b| / max|b| (error relative to the reference's peak magnitude).
    public static func maxErrorRelativeToPeak(_ a: [Double], _ b: [Double]) -> Double {
        precondition(a.count == b.count, "length mismatch \(a.count) vs \(b.count)")
        let scale = b.reduce(0) { max($0, abs($1)) }
        var worst = 0.0
        for i in a.indices {
            let e = abs(a[i] - b[i])
            if e > worst || e.isNaN { worst = e.isNaN ? .infinity : e }
        }
        return scale > 0 ? worst / scale : worst
    }
}

/// A small deterministic generator (SplitMix64) so tests are reproducible.
public struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64
    public init(seed: UInt64) { state = seed }
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A standard normal deviate (Box–Muller, cosine branch; two uniform draws).
    public mutating func gaussian() -> Double {
        let u = Double.random(in: 1e-12..<1, using: &self), v = Double.random(in: 0..<1, using: &self)
        return (-2 * log(u)).squareRoot() * cos(2 * Double.pi * v)
    }

    /// Splits `total` into random block sizes in `1...maxBlock` (for chunked-vs-whole tests).
    public mutating func blockSizes(total: Int, maxBlock: Int) -> [Int] {
        var sizes = [Int]()
        var left = total
        while left > 0 {
            let s = min(left, Int.random(in: 1...maxBlock, using: &self))
            sizes.append(s)
            left -= s
        }
        return sizes
    }
}

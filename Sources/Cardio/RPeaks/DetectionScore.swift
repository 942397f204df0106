/// Counts and timing of a beat-by-beat comparison (``BeatMatching``); scores add up over
/// records (gross statistics, EC57 §4.3).
public struct DetectionScore: Sendable, Hashable {
    /// Sample rate of the offsets, Hz.
    public var sampleRate: Double
    /// Reference beats with a matching detection.
    public var truePositives = 0
    /// Reference beats without one.
    public var falseNegatives = 0
    /// Detections without a reference beat.
    public var falsePositives = 0
    /// Detection − reference offsets of the matched pairs, samples.
    public var offsets: [Int] = []

    /// An empty score.
    /// - Parameter sampleRate: Hz.
    public init(sampleRate: Double) { self.sampleRate = sampleRate }

    /// Sensitivity TP / (TP + FN), 0…1 (NaN without reference beats).
    public var sensitivity: Double { ratio(truePositives, truePositives + falseNegatives) }
    /// Positive predictivity TP / (TP + FP), 0…1 (NaN without detections).
    public var positivePredictivity: Double { ratio(truePositives, truePositives + falsePositives) }
    /// F1 = 2TP / (2TP + FN + FP), 0…1.
    public var f1: Double { ratio(2 * truePositives, 2 * truePositives + falseNegatives + falsePositives) }

    /// Offsets in milliseconds.
    public var offsetsMilliseconds: [Double] { offsets.map { 1000 * Double($0) / sampleRate } }

    /// Timing jitter: median absolute deviation of the offsets from their median, ms (NaN when
    /// nothing matched).
    /// - Complexity: O(n log n).
    public var jitterMilliseconds: Double {
        let o = offsetsMilliseconds
        guard !o.isEmpty else { return .nan }
        let m = Self.median(o)
        return Self.median(o.map { abs($0 - m) })
    }

    /// Median offset, ms (NaN when nothing matched).
    public var medianOffsetMilliseconds: Double {
        let o = offsetsMilliseconds
        return o.isEmpty ? .nan : Self.median(o)
    }

    /// Adds another record's counts (gross statistics). Offsets are kept in milliseconds'
    /// sense only if both scores share the sample rate.
    /// - Parameter other: the record's score.
    /// - Complexity: O(other.offsets.count).
    public mutating func add(_ other: DetectionScore) {
        precondition(other.sampleRate == sampleRate, "sample rates differ: \(other.sampleRate) vs \(sampleRate)")
        truePositives += other.truePositives
        falseNegatives += other.falseNegatives
        falsePositives += other.falsePositives
        offsets += other.offsets
    }

    private func ratio(_ a: Int, _ b: Int) -> Double { b == 0 ? .nan : Double(a) / Double(b) }

    static func median(_ x: [Double]) -> Double {
        let s = x.sorted()
        let n = s.count
        return n % 2 == 1 ? s[n / 2] : 0.5 * (s[n / 2 - 1] + s[n / 2])
    }
}

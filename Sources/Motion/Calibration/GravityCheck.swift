import Foundation

/// The unit check of an accelerometer stream: at rest an accelerometer reads gravity, 1 g. Quiet
/// 10-s windows (the SD of |a| under 10 % of its mean, a scale-free test that leaves out walking
/// and running; at least 50 samples)
/// whose mean |a| lies far from 1 g mean the declared unit is wrong — m/s² labelled as g reads
/// 9.81 "g" at rest (100 % vigorous, ENMO ≈ 8,800 mg), g labelled as m/s² reads 0.10 g.
///
/// Rule: with at least ``minimumStillWindows`` still windows of which fewer than half have a
/// mean within ``plausibleG``, the stream's gravity is implausible (docs/HARDENING.md, "Units").
/// A miscalibrated device is off by a few percent (van Hees et al. 2014 fit offsets of tens of
/// mg), far inside the band.
///
/// Streaming: the state is one window's sums and the counts; any split of the input gives the
/// same verdict.
/// - Complexity: O(1) per sample, O(1) memory.
struct GravityCheck: Sendable {
    /// Window length, s.
    static let windowSeconds = 10.0
    /// Quiet ("still"): SD of |a| below this share of its mean.
    static let stillRelativeSD = 0.1
    /// Fewest samples in a still window.
    static let minimumSamples = 50
    /// Still windows needed for a verdict.
    static let minimumStillWindows = 3
    /// Mean |a| of a still window taken as gravity, g.
    static let plausibleG = 0.7...1.3

    private var window = Int.min
    private var n = 0
    private var sum = 0.0
    private var sumSquares = 0.0
    /// Still windows seen, and those whose mean is plausible.
    private(set) var stillWindows = 0
    private(set) var plausibleWindows = 0
    /// Sum of the still windows' mean |a|, g.
    private var stillSum = 0.0

    /// Adds one sample (g) at time `t` (s).
    @inline(__always)
    mutating func add(time t: Double, x: Float, y: Float, z: Float) {
        let m = (Double(x) * Double(x) + Double(y) * Double(y) + Double(z) * Double(z)).squareRoot()
        guard m.isFinite, t.isFinite, abs(t) < 1e15 else { return }
        let w = Int((t / Self.windowSeconds).rounded(.down))
        if w != window {
            close()
            window = w
        }
        n += 1
        sum += m
        sumSquares += m * m
    }

    private mutating func close() {
        defer { (n, sum, sumSquares) = (0, 0, 0) }
        guard n >= Self.minimumSamples else { return }
        let mean = sum / Double(n)
        let sd = max(0, sumSquares / Double(n) - mean * mean).squareRoot()
        guard mean > 0, sd < Self.stillRelativeSD * mean else { return }
        stillWindows += 1
        stillSum += mean
        if Self.plausibleG.contains(mean) { plausibleWindows += 1 }
    }

    /// Ends the stream: what is wrong with its gravity, or `nil` (also without enough still
    /// windows to tell).
    mutating func finish() -> String? {
        close()
        guard stillWindows >= Self.minimumStillWindows, 2 * plausibleWindows < stillWindows else { return nil }
        let g = stillSum / Double(stillWindows)
        let likely =
            abs(g - 9.80665) < 1.5
            ? " — the values look like m/s² labelled as g (9.81 m/s² = 1 g)"
            : abs(g - 1 / 9.80665) < 0.03 ? " — the values look like g labelled as m/s²" : ""
        return "implausible gravity: \(stillWindows) still 10-s windows average \(String(format: "%.3g", g)) g at rest, "
            + "not 1 g\(likely). Give the acceleration's unit: --motion-acceleration-unit "
            + "m/s^2 (or g), config motion.acceleration_unit"
    }
}

import Foundation

/// Turns (changes of heading) from the rotation rate about the vertical, after the turn detector
/// of El-Gohary, Pearson, McNames et al. 2014, "Continuous monitoring of turning in patients with
/// movement disability", Sensors 14(1):356–369, doi:10.3390/s140100356.
///
/// The input is the vertical rotation rate v = ω · ĝ (the gyroscope's rate projected on the unit
/// gravity direction of ``GravityComplementaryFilter``), in deg/s, low-passed by a second-order
/// Butterworth at 1.5 Hz (causal; our choice, El-Gohary et al. smooth the yaw rate before
/// thresholding). A candidate turn is a run of samples with |v| > 5°/s of one sign; it is a turn
/// when its peak |v| reaches 15°/s, its angle |∫v dt| is at least 45° and it lasts 0.5–10 s (the
/// published thresholds). A turn belongs to the epoch holding its last sample; a candidate cut
/// by a gap in the grid, by a sample without a gravity estimate or by the end of the stream is
/// dropped.
///
/// - Complexity: O(1) per sample, no allocation.
struct TurnDetector: Sendable {
    /// |v| above which a candidate runs, deg/s.
    static let boundaryDegreesPerSecond = 5.0
    /// Peak |v| a turn must reach, deg/s.
    static let peakDegreesPerSecond = 15.0
    /// Smallest turn angle, degrees.
    static let minimumAngleDegrees = 45.0
    /// Duration bounds of a turn, seconds.
    static let minimumSeconds = 0.5
    static let maximumSeconds = 10.0
    /// Cut-off of the low-pass on the vertical rate, Hz.
    static let lowPassHz = 1.5

    let sampleRate: Double
    private let b0, b1, b2, a1, a2: Double
    private var z0 = 0.0, z1 = 0.0
    private var filterStarted = false
    private var sign = 0
    private var samples = 0
    private var angle = 0.0
    private var peak = 0.0

    /// Creates the detector for a grid rate in Hz (> 3 Hz).
    init(sampleRate: Double) {
        self.sampleRate = sampleRate
        // Second-order Butterworth low-pass by the bilinear transform (prewarped).
        let k = tan(Double.pi * Self.lowPassHz / sampleRate)
        let q = 2.0.squareRoot()
        let norm = 1 / (1 + q * k + k * k)
        b0 = k * k * norm
        b1 = 2 * b0
        b2 = b0
        a1 = 2 * (k * k - 1) * norm
        a2 = (1 - q * k + k * k) * norm
    }

    /// Forgets the state (a gap in the grid): a running candidate is dropped.
    mutating func reset() {
        filterStarted = false
        sign = 0
        samples = 0
        angle = 0
        peak = 0
    }

    /// Advances by one grid sample of the vertical rate (deg/s; NaN when no gravity estimate).
    /// - Returns: the angle of a turn that ended at the previous sample (degrees, signed), or `nil`.
    mutating func add(_ rate: Double) -> Double? {
        guard rate.isFinite else {
            reset()
            return nil
        }
        if !filterStarted {
            // Steady state for a constant input equal to the first sample.
            z0 = rate * (1 - b0)
            z1 = rate * (b2 - a2)
            filterStarted = true
        }
        let v = b0 * rate + z0
        z0 = b1 * rate - a1 * v + z1
        z1 = b2 * rate - a2 * v
        let s = v > Self.boundaryDegreesPerSecond ? 1 : (v < -Self.boundaryDegreesPerSecond ? -1 : 0)
        var turn: Double? = nil
        if s != sign {
            turn = closeCandidate()
            sign = s
        }
        if s != 0 {
            samples += 1
            angle += v / sampleRate
            peak = max(peak, abs(v))
        }
        return turn
    }

    private mutating func closeCandidate() -> Double? {
        defer {
            sign = 0
            samples = 0
            angle = 0
            peak = 0
        }
        guard sign != 0 else { return nil }
        let seconds = Double(samples) / sampleRate
        guard peak >= Self.peakDegreesPerSecond, abs(angle) >= Self.minimumAngleDegrees,
            seconds >= Self.minimumSeconds, seconds <= Self.maximumSeconds
        else { return nil }
        return angle
    }
}

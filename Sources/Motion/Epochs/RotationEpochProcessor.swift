import Foundation

/// One clock-aligned epoch of a rotation-rate (gyroscope) stream.
///
/// Angular speed is the norm of the rotation-rate vector, |ω| = √(ωx² + ωy² + ωz²), in degrees
/// per second; the epoch's rotation is its integral over the epoch (the angle turned through,
/// whatever the axis). Metrics are `nil` when the epoch holds less than half of its samples.
///
/// Orientation: when the device's accelerometer is on the same grid, gravity comes from
/// ``GravityComplementaryFilter`` (Mahony et al. 2008) fed with both sensors; the vertical rate
/// is ω · ĝ and turns come from ``TurnDetector`` (El-Gohary et al. 2014). These are `nil` when
/// fewer than half of the epoch's samples have a gravity estimate (no accelerometer paired, or
/// not yet a sample near 1 g).
public struct RotationEpoch: Sendable, Hashable {
    /// Start time (s, the stream's time origin), a multiple of the epoch length.
    public var startSeconds: Double
    /// Epoch length in s.
    public var lengthSeconds: Double
    /// Grid samples in the epoch.
    public var samples: Int
    /// `samples` over the samples a full epoch holds.
    public var coverage: Double
    /// Mean angular speed in deg/s.
    public var meanSpeedDegreesPerSecond: Double?
    /// Largest angular speed in deg/s.
    public var peakSpeedDegreesPerSecond: Double?
    /// Angle turned through in the epoch (∫|ω| dt over the grid samples), in degrees.
    public var rotationDegrees: Double?
    /// Mean rotation rate about each device axis, in deg/s.
    public var meanXDegreesPerSecond: Double?
    public var meanYDegreesPerSecond: Double?
    public var meanZDegreesPerSecond: Double?
    /// Grid samples with an accelerometer sample of the same device on the same grid point.
    public var pairedSamples: Int = 0
    /// Angle of the epoch's mean gyroscope-aided gravity direction with the x, y, z axes'
    /// planes, in degrees (`atan(a / √(b² + c²))`, the convention of ``MotionEpoch``'s angles).
    public var gravityAngleXDegrees: Double?
    public var gravityAngleYDegrees: Double?
    public var gravityAngleZDegrees: Double?
    /// Mean rotation rate about the gravity axis (ω · ĝ, ĝ pointing up), in deg/s.
    public var verticalRateDegreesPerSecond: Double?
    /// Turns ending in the epoch (``TurnDetector``).
    public var turns: Int?
    /// Sum of the absolute angles of those turns, in degrees.
    public var turnDegrees: Double?
}

/// Turns rotation-rate grid samples (rad/s), each with the device's accelerometer sample on the
/// same grid point when there is one (g), into ``RotationEpoch``s: angular speed, the
/// gyroscope-aided gravity direction (``GravityComplementaryFilter``) and turns
/// (``TurnDetector``).
///
/// - Complexity: O(1) per grid sample; no allocation.
struct RotationEpochProcessor {
    let sampleRate: Int
    let samplesPerEpoch: Int
    let epochSeconds: Double
    private var index = Int.min
    private var lastSample = Int.min
    private var n = 0, paired = 0, withGravity = 0, turnCount = 0
    private var speedSum = 0.0, peak = 0.0, sx = 0.0, sy = 0.0, sz = 0.0
    private var gx = 0.0, gy = 0.0, gz = 0.0, verticalSum = 0.0, turnSum = 0.0
    private var filter: GravityComplementaryFilter
    private var turns: TurnDetector
    /// Final epochs, drained by the caller.
    var finished: [RotationEpoch] = []

    init(sampleRate: Int, epochSeconds: Double) {
        self.sampleRate = sampleRate
        self.epochSeconds = epochSeconds.rounded()
        samplesPerEpoch = sampleRate * Int(self.epochSeconds)
        filter = GravityComplementaryFilter(sampleRate: Double(sampleRate))
        turns = TurnDetector(sampleRate: Double(sampleRate))
    }

    /// Adds grid sample `k`: rotation rate `w` (rad/s) and the accelerometer `a` (g) or `nil`.
    mutating func add(index k: Int, w: SIMD3<Double>, a: SIMD3<Double>?) {
        if k != lastSample &+ 1 {
            // A gap in the grid: the filter and the turn detector start over.
            filter = GravityComplementaryFilter(sampleRate: Double(sampleRate))
            turns.reset()
        }
        lastSample = k
        let g = filter.update(acceleration: a ?? SIMD3(repeating: .nan), rotationRate: w)
        let vertical = g.map { (w * $0).sum() * 180 / Double.pi } ?? .nan
        if let turn = turns.add(vertical) {
            // The turn ended at the previous sample: it belongs to the open epoch.
            turnCount += 1
            turnSum += abs(turn)
        }
        let spe = samplesPerEpoch
        let e = k >= 0 ? k / spe : (k - spe + 1) / spe
        if e != index { close(next: e) }
        let speed = (w * w).sum().squareRoot()
        n += 1
        speedSum += speed
        if speed > peak { peak = speed }
        sx += w.x
        sy += w.y
        sz += w.z
        if a != nil { paired += 1 }
        if let g {
            withGravity += 1
            gx += g.x
            gy += g.y
            gz += g.z
            verticalSum += vertical
        }
    }

    /// Ends the stream.
    mutating func finish() { close(next: Int.min) }

    private mutating func close(next: Int) {
        if index != Int.min && n > 0 {
            var e = RotationEpoch(
                startSeconds: Double(index) * epochSeconds, lengthSeconds: epochSeconds, samples: n,
                coverage: Double(n) / Double(samplesPerEpoch))
            e.pairedSamples = paired
            let deg = 180 / Double.pi
            if n * 2 >= samplesPerEpoch {
                let count = Double(n)
                e.meanSpeedDegreesPerSecond = speedSum / count * deg
                e.peakSpeedDegreesPerSecond = peak * deg
                e.rotationDegrees = speedSum / Double(sampleRate) * deg
                e.meanXDegreesPerSecond = sx / count * deg
                e.meanYDegreesPerSecond = sy / count * deg
                e.meanZDegreesPerSecond = sz / count * deg
            }
            if withGravity * 2 >= samplesPerEpoch {
                let count = Double(withGravity)
                e.gravityAngleXDegrees = atan(gx / (gy * gy + gz * gz).squareRoot()) * deg
                e.gravityAngleYDegrees = atan(gy / (gx * gx + gz * gz).squareRoot()) * deg
                e.gravityAngleZDegrees = atan(gz / (gx * gx + gy * gy).squareRoot()) * deg
                e.verticalRateDegreesPerSecond = verticalSum / count
                e.turns = turnCount
                e.turnDegrees = turnSum
            }
            finished.append(e)
        }
        index = next
        n = 0
        paired = 0
        withGravity = 0
        turnCount = 0
        speedSum = 0
        peak = 0
        sx = 0
        sy = 0
        sz = 0
        gx = 0
        gy = 0
        gz = 0
        verticalSum = 0
        turnSum = 0
    }
}

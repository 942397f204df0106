/// One clock-aligned epoch of a rotation-rate (gyroscope) stream.
///
/// Angular speed is the norm of the rotation-rate vector, |ω| = √(ωx² + ωy² + ωz²), in degrees
/// per second; the epoch's rotation is its integral over the epoch (the angle turned through,
/// whatever the axis). Metrics are `nil` when the epoch holds less than half of its samples.
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
}

/// Turns runs of rotation-rate grid samples (rad/s) into ``RotationEpoch``s.
///
/// - Complexity: O(1) per grid sample; no allocation.
struct RotationEpochProcessor: GridConsumer {
    let sampleRate: Int
    let samplesPerEpoch: Int
    let epochSeconds: Double
    private var index = Int.min
    private var n = 0
    private var speedSum = 0.0, peak = 0.0, sx = 0.0, sy = 0.0, sz = 0.0
    /// Final epochs, drained by the caller.
    var finished: [RotationEpoch] = []

    init(sampleRate: Int, epochSeconds: Double) {
        self.sampleRate = sampleRate
        self.epochSeconds = epochSeconds.rounded()
        samplesPerEpoch = sampleRate * Int(self.epochSeconds)
    }

    mutating func consume(
        firstIndex: Int, x: UnsafeBufferPointer<Float>, y: UnsafeBufferPointer<Float>, z: UnsafeBufferPointer<Float>
    ) {
        let spe = samplesPerEpoch
        for i in 0..<x.count {
            let k = firstIndex + i
            let e = k >= 0 ? k / spe : (k - spe + 1) / spe
            if e != index { close(next: e) }
            let a = Double(x[i]), b = Double(y[i]), c = Double(z[i])
            let speed = (a * a + b * b + c * c).squareRoot()
            n += 1
            speedSum += speed
            if speed > peak { peak = speed }
            sx += a
            sy += b
            sz += c
        }
    }

    mutating func endRun() {}

    /// Ends the stream.
    mutating func finish() { close(next: Int.min) }

    private mutating func close(next: Int) {
        if index != Int.min && n > 0 {
            var e = RotationEpoch(
                startSeconds: Double(index) * epochSeconds, lengthSeconds: epochSeconds, samples: n,
                coverage: Double(n) / Double(samplesPerEpoch))
            if n * 2 >= samplesPerEpoch {
                let deg = 180 / Double.pi
                let count = Double(n)
                e.meanSpeedDegreesPerSecond = speedSum / count * deg
                e.peakSpeedDegreesPerSecond = peak * deg
                e.rotationDegrees = speedSum / Double(sampleRate) * deg
                e.meanXDegreesPerSecond = sx / count * deg
                e.meanYDegreesPerSecond = sy / count * deg
                e.meanZDegreesPerSecond = sz / count * deg
            }
            finished.append(e)
        }
        index = next
        n = 0
        speedSum = 0
        peak = 0
        sx = 0
        sy = 0
        sz = 0
    }
}

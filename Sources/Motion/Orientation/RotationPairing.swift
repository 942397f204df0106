import Signals

/// Grid points of one stream waiting to be paired: absolute grid index and three values.
struct PendingGrid: GridConsumer {
    private(set) var index: [Int] = []
    private(set) var x: [Float] = [], y: [Float] = [], z: [Float] = []
    private(set) var head = 0
    /// One past the last grid index received (every grid point below it is final).
    private(set) var horizon = Int.min

    var count: Int { index.count - head }

    mutating func consume(
        firstIndex: Int, x bx: UnsafeBufferPointer<Float>, y by: UnsafeBufferPointer<Float>, z bz: UnsafeBufferPointer<Float>
    ) {
        guard bx.count > 0 else { return }
        for i in 0..<bx.count { index.append(firstIndex + i) }
        x.append(contentsOf: bx)
        y.append(contentsOf: by)
        z.append(contentsOf: bz)
        horizon = firstIndex + bx.count
    }

    mutating func endRun() {}

    /// Drops the first `m` pending points.
    mutating func drop(_ m: Int) {
        head += m
        if head >= 4096 && head * 2 >= index.count {
            index.removeFirst(head)
            x.removeFirst(head)
            y.removeFirst(head)
            z.removeFirst(head)
            head = 0
        }
    }
}

/// Pairs a rotation-rate stream with the accelerometer of the same device, grid point by grid
/// point: both are regularised onto the rotation rate's clock-aligned grid (grid point `k` at
/// time `k / rate` in both), and each gyroscope point `k` is processed once the accelerometer has
/// delivered every grid point up to `k` (or has ended), with the accelerometer's point `k` when
/// there is one.
///
/// **Bound.** At most ``maximumPendingSeconds`` of grid points are held per stream. Past that
/// (the accelerometer far behind the gyroscope, or absent), the oldest gyroscope points are
/// processed without it; accelerometer points older than the gyroscope's are dropped. Such
/// points are counted (``processedAhead``, ``droppedAcceleration``); within the bound the result
/// depends on sample times only, never on block sizes or on how the two streams interleave.
///
/// - Complexity: O(1) per grid point; memory O(rate × ``maximumPendingSeconds``).
struct RotationPairing {
    /// Longest stretch of grid points held for the other stream, seconds.
    static let maximumPendingSeconds = 600.0
    let sampleRate: Int
    var accelerationScale: Float
    var gyroscope = PendingGrid()
    var accelerometer = PendingGrid()
    var accelerometerRegularizer: ClockGridRegularizer
    /// Whether the accelerometer will deliver nothing more.
    var accelerometerEnded = false
    /// Gyroscope points processed before the accelerometer had reached them (bound hit).
    private(set) var processedAhead = 0
    /// Accelerometer points dropped unpaired because they were older than the bound allows.
    private(set) var droppedAcceleration = 0
    /// Gyroscope points that had an accelerometer point.
    private(set) var pairedSamples = 0
    private let limit: Int

    init(sampleRate: Int, accelerationScale: Float) {
        self.sampleRate = sampleRate
        self.accelerationScale = accelerationScale
        accelerometerRegularizer = ClockGridRegularizer(sampleRate: Double(sampleRate))
        limit = max(1, Int(Self.maximumPendingSeconds * Double(sampleRate)))
    }

    /// Regularises one accelerometer block onto the shared grid.
    mutating func addAcceleration(_ block: SampleBlock) {
        accelerometerRegularizer.process(block, scale: accelerationScale, into: &accelerometer)
        if accelerometer.count > limit {
            let m = accelerometer.count - limit
            accelerometer.drop(m)
            droppedAcceleration += m
        }
    }

    /// The accelerometer has ended.
    mutating func endAcceleration() {
        accelerometerRegularizer.finish(into: &accelerometer)
        accelerometerEnded = true
    }

    /// Processes every gyroscope point that can go now (all of them when `final`).
    mutating func drain(into processor: inout RotationEpochProcessor, final: Bool) {
        while gyroscope.count > 0 {
            let g = gyroscope.head
            let k = gyroscope.index[g]
            let ready = final || accelerometerEnded || accelerometer.horizon > k
            if !ready {
                guard gyroscope.count > limit else { return }
                processedAhead += 1
            }
            // Accelerometer points before k have no gyroscope partner.
            var a = accelerometer.head
            while a < accelerometer.index.count && accelerometer.index[a] < k { a += 1 }
            accelerometer.drop(a - accelerometer.head)
            var acceleration: SIMD3<Double>? = nil
            let h = accelerometer.head
            if h < accelerometer.index.count && accelerometer.index[h] == k {
                acceleration = SIMD3(Double(accelerometer.x[h]), Double(accelerometer.y[h]), Double(accelerometer.z[h]))
                accelerometer.drop(1)
                pairedSamples += 1
            }
            let w = SIMD3(Double(gyroscope.x[g]), Double(gyroscope.y[g]), Double(gyroscope.z[g]))
            gyroscope.drop(1)
            processor.add(index: k, w: w, a: acceleration)
        }
    }
}

/// ActiGraph's resampling of 32, 64, 128 and 256 Hz input to 30 Hz (the path of ActiGraph's
/// reference implementation `agcounts`, module `pow2`, that accompanies Neishabouri et al. 2022,
/// "Quantification of acceleration as activity counts in ActiGraph wearable", Scientific Reports
/// 12:11958, doi:10.1038/s41598-022-16003-x), sample by sample:
///
/// 1. upsampling to 256 Hz: zero-stuffing by f = 256 / rate with the input scaled by f, then the
///    255-tap low-pass ``kernel`` centred on each output (numpy's `convolve(…, "same")`: zeros
///    before the segment's start and after its end); skipped at 256 Hz;
/// 2. the single-pole low-pass `y[n] = (1 − b)·x'[n] + (1 − b)·y[n−1]` with `x' = b·x/(1 − b)`,
///    b = 0.307990357416655, started at its steady state for the first value;
/// 3. linear interpolation to 30 Hz: output j at 256 Hz position 256·(j + 1)/30 − 1; the last
///    output of a segment is 0 (as `agcounts` leaves it).
///
/// The caller rounds the 30 Hz values to 0.001 g and runs the 30 Hz count stages.
///
/// - Complexity: O(255 / f) per 256 Hz value, i.e. O(255) per input sample; memory O(255).
package struct ActiGraphPow2Resampler: Sendable {
    /// Decay of the single-pole low-pass (ActiGraph's constant).
    static let decay = 0.307990357416655
    /// Input rates the path defines.
    package static let rates = [32, 64, 128, 256]

    /// Upsampling factor 256 / rate.
    package let factor: Int
    private let half = 127
    // Input samples of the segment (a ring of the last ones the kernel can reach).
    private var ring: [Double]
    private var inputs = 0
    // 256 Hz values.
    private var nextFiltered = 0 // index of the next kernel output
    private var lowPassed: [Double] // ring of the last 64 low-passed 256 Hz values
    private var lastLowPassed = -1 // index of the newest
    private var z = 0.0
    // 30 Hz outputs.
    private var nextOutput = 0
    // Stage values kept by ``stages(of:sampleRate:)`` only.
    private var recording = false
    private var recordedFiltered: [Double] = []
    private var recordedLowPassed: [Double] = []

    /// Creates the resampler for input at `sampleRate` Hz (32, 64, 128 or 256), or `nil`.
    package init?(sampleRate: Int) {
        guard Self.rates.contains(sampleRate) else { return nil }
        factor = 256 / sampleRate
        ring = [Double](repeating: 0, count: 512)
        lowPassed = [Double](repeating: 0, count: 64)
    }

    /// Input samples after which a 30 Hz value no longer changes (the kernel's reach, the
    /// interpolation and the last-sample rule), a safe bound.
    package var latencySamples: Int { (half + 2 * 9 + 1) / factor + 2 }

    /// Starts a new segment.
    package mutating func reset() {
        inputs = 0
        nextFiltered = 0
        lastLowPassed = -1
        z = 0
        nextOutput = 0
    }

    /// Feeds one input sample (g) and hands every 30 Hz value completed by it to `output`.
    @inline(__always)
    package mutating func push(_ x: Double, _ output: (Double) -> Void) {
        ring[inputs & 511] = x
        inputs += 1
        // Kernel outputs m need inputs up to (m + 127) / f.
        let available = factor == 1 ? inputs - 1 : inputs * factor - 1 - half
        advance(through: available, ended: false, output)
    }

    /// Ends the segment: the remaining 30 Hz values (the last one 0) go to `output`.
    package mutating func finish(_ output: (Double) -> Void) {
        if inputs > 0 { advance(through: inputs * factor - 1, ended: true, output) }
        reset()
    }

    private mutating func advance(through last: Int, ended: Bool, _ output: (Double) -> Void) {
        let f = factor
        let n256 = inputs * f
        while nextFiltered <= last {
            let m = nextFiltered
            var v: Double
            if f == 1 {
                v = ring[m & 511]
            } else {
                // v[m] = Σ_k h[k] · u[m + 127 − k], u[i·f] = f · x[i], zero outside the segment.
                v = 0
                let top = m + half
                var i = min(top / f, inputs - 1)
                let lowest = max(0, (m - half + f - 1) / f)
                let scale = Double(f)
                Self.kernel.withUnsafeBufferPointer { h in
                    while i >= lowest {
                        v += h[top - i * f] * (ring[i & 511] * scale)
                        i -= 1
                    }
                }
            }
            lowPass(v)
            if recording {
                recordedFiltered.append(v)
                recordedLowPassed.append(lowPassed[lastLowPassed & 63])
            }
            nextFiltered += 1
            emit(ended: false, n256: n256, output)
        }
        if ended { emit(ended: true, n256: n256, output) }
    }

    /// Every stage of one segment, for validation against ActiGraph's stage vectors.
    /// - Parameters:
    ///   - input: the segment, g.
    ///   - sampleRate: 32, 64, 128 or 256 Hz.
    /// - Returns: the 256 Hz values after the kernel (the input itself at 256 Hz) and after the
    ///   single-pole low-pass, and the 30 Hz values (not rounded); `nil` for another rate.
    /// - Complexity: O(input × 255).
    package static func stages(
        of input: [Double], sampleRate: Int
    ) -> (upsampled: [Double], lowPassed: [Double], thirty: [Double])? {
        guard var r = ActiGraphPow2Resampler(sampleRate: sampleRate) else { return nil }
        r.recording = true
        var thirty = [Double]()
        for x in input { r.push(x) { thirty.append($0) } }
        r.advance(through: r.inputs * r.factor - 1, ended: true) { thirty.append($0) }
        return (r.recordedFiltered, r.recordedLowPassed, thirty)
    }

    private mutating func lowPass(_ v: Double) {
        let a = 1 - Self.decay
        let x = Self.decay * v / a
        if lastLowPassed < 0 { z = a * a / (1 - a) * x }
        let y = a * x + z
        z = a * y
        lastLowPassed += 1
        lowPassed[lastLowPassed & 63] = y
    }

    /// 30 Hz value j interpolates between 256 Hz values idx and idx + 1, idx = ⌊256(j+1)/30⌋ − 1;
    /// it is final once value idx + 1 exists and j is not the segment's last output.
    private mutating func emit(ended: Bool, n256: Int, _ output: (Double) -> Void) {
        let step = 256.0 / 30.0
        let total = n256 * 30 / 256 // outputs of the segment so far (a lower bound until it ends)
        while true {
            let j = nextOutput
            if ended && j == total - 1 {
                output(0)
                nextOutput += 1
                return
            }
            guard j < total - 1 else { return }
            let position = step * Double(j + 1)
            let idx = Int(position.rounded(.down)) - 1
            guard idx + 1 <= lastLowPassed else { return }
            let previous = lowPassed[idx & 63]
            let diff = lowPassed[(idx + 1) & 63] - previous
            let b = previous - diff * Double(idx + 1)
            output(position * diff + b)
            nextOutput += 1
        }
    }
}

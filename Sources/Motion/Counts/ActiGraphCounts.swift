/// ActiGraph activity counts for one axis, computed sample by sample after the open algorithm of
/// Neishabouri et al. 2022, "Quantification of acceleration as activity counts in ActiGraph
/// wearable", Scientific Reports 12:11958, doi:10.1038/s41598-022-16003-x (ActiGraph's published
/// reference implementation, the `agcounts` package):
///
/// 1. resampling to 30 Hz: zero-stuffing by L, the single-pole low-pass
///    `y[m] = a·L·(u[m] + u[m−1]) − b·y[m−1]` with `a = π/(π + 2L)`, `b = (π − 2L)/(π + 2L)`
///    (skipped at 30, 60 and 90 Hz), keeping every M-th value (L/M = 3/4, 3/5, 1/2, 3/7, 3/8, 1/3,
///    3/10 for 40…100 Hz), rounded to 0.001 g (half to even);
/// 2. the published 8th-order IIR band-pass (direct form II transposed; state started at its
///    steady state for the segment's first 30 Hz value), scaled by (3/4096)/(2.6/256)·237.5;
/// 3. the dead-band and saturation: |v| < 4 → 0, |v| > 128 → 128, then the integer part;
/// 4. accumulation to 10 Hz: ⌊(sum of 3 consecutive 30 Hz values)/3⌋; epochs sum these.
///
/// Input in g at an integer rate of 30, 40, …, 100 Hz, or of 32, 64, 128 or 256 Hz, which
/// replace step 1 by ActiGraph's 256 Hz path (``ActiGraphPow2Resampler``). Streaming: the state
/// is carried between calls, so any split of a segment gives the same 10 Hz values; call
/// ``flush()`` then ``reset()`` at a gap.
///
/// - Complexity: O(L) per input sample, no allocation.
struct ActiGraphCountsAxis: Sendable {
    /// Band-pass numerator (ActiGraph's published "input coefficients").
    static let numerator: [Double] = [
        -0.009341062898525, -0.025470289659360, -0.004235264826105, 0.044152415456420,
        0.036493718347760, -0.011893961934740, -0.022917390623150, -0.006788163862310,
    ]
    /// Band-pass denominator without the leading 1 (ActiGraph's "output coefficients").
    static let denominator: [Double] = [
        -3.63367395910957000000, 5.03689812757486000000, -3.09612247819666000000,
        0.50620507633883000000, 0.32421701566682000000, -0.15685485875559000000,
        0.01949130205890000000,
    ]
    /// Gain from filter output to counts (17.127404…, as in ActiLife).
    static let gain = (3.0 / 4096.0) / (2.6 / 256.0) * 237.5
    /// The band-pass's steady state for a unit constant input, per delay (`scipy.signal.lfilter_zi`,
    /// as agcounts starts the filter).
    static let unitState: [Double] = {
        let bs = numerator, as_ = denominator
        var sb = bs[0], sa = 1.0
        for i in 1..<8 { sb += bs[i] }
        for i in 0..<7 { sa += as_[i] }
        let yss = sb / sa
        var z = [Double](repeating: 0, count: 7)
        for i in stride(from: 6, through: 0, by: -1) {
            z[i] = (i + 1 < 8 ? bs[i + 1] : 0) - as_[i] * yss + (i + 1 < 7 ? z[i + 1] : 0)
        }
        return z
    }()

    /// Upsampling and downsampling factors for an input rate, or `nil` when the rate is not one
    /// the algorithm defines.
    static func factors(sampleRate: Int) -> (up: Int, down: Int)? {
        switch sampleRate {
        case 30: return (1, 1)
        case 40: return (3, 4)
        case 50: return (3, 5)
        case 60: return (1, 2)
        case 70: return (3, 7)
        case 80: return (3, 8)
        case 90: return (1, 3)
        case 100: return (3, 10)
        default: return nil
        }
    }

    let up: Int
    let down: Int
    /// The 32/64/128/256 Hz path, or `nil`.
    private var pow2: ActiGraphPow2Resampler?
    let lowPass: Bool
    let a: Double
    let b: Double
    // Resampler state.
    private var phase = 0 // index of the next upsampled value within the segment, modulo `down`
    private let aUp: Double // a · L
    private var previousUp = 0.0 // u[m-1]
    private var previousLow = 0.0 // y[m-1]
    private var bandPass = ActiGraphBandPass<Double>()
    // 10 Hz accumulation.
    private var triad = 0.0
    private var triadCount = 0
    /// Number of 30 Hz values produced in this segment.
    private(set) var produced30 = 0

    /// Creates the stage for input at `sampleRate` Hz (one of 30, 40, …, 100).
    init?(sampleRate: Int) {
        pow2 = ActiGraphPow2Resampler(sampleRate: sampleRate)
        guard let f = Self.factors(sampleRate: sampleRate) ?? (pow2 != nil ? (1, 1) : nil) else { return nil }
        up = f.up
        down = f.down
        lowPass = pow2 == nil && !(sampleRate == 30 || sampleRate == 60 || sampleRate == 90)
        a = Double.pi / (Double.pi + 2 * Double(f.up))
        b = (Double.pi - 2 * Double(f.up)) / (Double.pi + 2 * Double(f.up))
        aUp = a * Double(f.up)
    }

    /// Starts a new segment (a gap: nothing is carried across).
    mutating func reset() {
        phase = 0
        previousUp = 0
        previousLow = 0
        bandPass = ActiGraphBandPass()
        triad = 0
        triadCount = 0
        produced30 = 0
        pow2?.reset()
    }

    /// Input samples after which a 10 Hz value no longer changes, beyond its own 0.1 s.
    var latencySamples: Int { pow2?.latencySamples ?? 0 }

    /// Ends the segment: the 10 Hz values the 256 Hz path still holds (empty otherwise).
    /// - Complexity: O(latency).
    mutating func flush() -> [Double] {
        guard var p = pow2 else { return [] }
        pow2 = nil
        var thirty = [Double]()
        p.finish { thirty.append($0) }
        pow2 = p
        var out = [Double]()
        for v in thirty {
            if let t = push30((v * 1000).rounded(.toNearestOrEven) / 1000) { out.append(t) }
        }
        return out
    }

    /// Feeds one input sample (g); returns the 10 Hz value completed by it, if any. The 10 Hz
    /// value with index `j` (from the segment start) covers input samples from `j · rate / 10`.
    @inline(__always)
    mutating func push(_ x: Double) -> Double? {
        var result: Double? = nil
        if var p = pow2 {
            // At most one 30 Hz value per input sample (rates ≥ 32 Hz); kept general.
            pow2 = nil // no second reference while `p` mutates its buffers
            var first = Double.nan, second = Double.nan, count = 0
            p.push(x) { v in
                if count == 0 { first = v } else { second = v }
                count += 1
            }
            pow2 = p
            precondition(count <= 2)
            if count >= 1, let t = push30((first * 1000).rounded(.toNearestOrEven) / 1000) { result = t }
            if count == 2, let t = push30((second * 1000).rounded(.toNearestOrEven) / 1000) { result = t }
            return result
        }
        for p in 0..<up {
            let u = p == 0 ? x : 0
            let y: Double
            if lowPass {
                y = aUp * (u + previousUp) - b * previousLow
                previousUp = u
                previousLow = y
            } else {
                y = u
            }
            if phase == 0 {
                if let v = push30((y * 1000).rounded(.toNearestOrEven) / 1000) { result = v }
            }
            phase += 1
            if phase == down { phase = 0 }
        }
        return result
    }

    /// One 30 Hz value through the band-pass, dead-band and 10 Hz accumulation.
    @inline(__always)
    private mutating func push30(_ x: Double) -> Double? {
        let y = bandPass.step(x)
        var v = abs(y * Self.gain)
        if v < 4 { v = 0 } else if v > 128 { v = 128 }
        v = v.rounded(.down)
        produced30 += 1
        triad += v
        triadCount += 1
        if triadCount == 3 {
            let out = (triad / 3).rounded(.down)
            triad = 0
            triadCount = 0
            return out
        }
        return nil
    }
}

/// A value the band-pass runs on: one axis (`Double`) or the three axes in SIMD lanes.
protocol ActiGraphBandPassLane: Sendable {
    static var zero: Self { get }
    static func + (lhs: Self, rhs: Self) -> Self
    static func - (lhs: Self, rhs: Self) -> Self
    static func * (lhs: Double, rhs: Self) -> Self
}

extension Double: ActiGraphBandPassLane {}
extension SIMD4: ActiGraphBandPassLane where Scalar == Double {}

/// Step 2 of ActiGraph counts (Neishabouri et al. 2022): the published 8th-order IIR band-pass
/// in direct form II transposed, its state started at the steady state for the segment's first
/// value. One definition for the per-axis stage and the three-lane stage, so both perform the
/// same IEEE operations in the same order (no fused multiply-add).
/// - Complexity: O(1) per value.
struct ActiGraphBandPass<Lane: ActiGraphBandPassLane>: Sendable {
    private var z0 = Lane.zero, z1 = Lane.zero, z2 = Lane.zero, z3 = Lane.zero
    private var z4 = Lane.zero, z5 = Lane.zero, z6 = Lane.zero
    private var started = false

    /// Filters one value (g); returns the band-pass output before the counts gain.
    @inline(__always)
    mutating func step(_ x: Lane) -> Lane {
        if !started {
            started = true
            let u = ActiGraphCountsAxis.unitState
            z0 = u[0] * x; z1 = u[1] * x; z2 = u[2] * x; z3 = u[3] * x
            z4 = u[4] * x; z5 = u[5] * x; z6 = u[6] * x
        }
        let b0 = -0.009341062898525, b1 = -0.025470289659360, b2 = -0.004235264826105
        let b3 = 0.044152415456420, b4 = 0.036493718347760, b5 = -0.011893961934740
        let b6 = -0.022917390623150, b7 = -0.006788163862310
        let a1 = -3.63367395910957000000, a2 = 5.03689812757486000000, a3 = -3.09612247819666000000
        let a4 = 0.50620507633883000000, a5 = 0.32421701566682000000, a6 = -0.15685485875559000000
        let a7 = 0.01949130205890000000
        let y = b0 * x + z0
        z0 = b1 * x + z1 - a1 * y
        z1 = b2 * x + z2 - a2 * y
        z2 = b3 * x + z3 - a3 * y
        z3 = b4 * x + z4 - a4 * y
        z4 = b5 * x + z5 - a5 * y
        z5 = b6 * x + z6 - a6 * y
        z6 = b7 * x - a7 * y
        return y
    }
}

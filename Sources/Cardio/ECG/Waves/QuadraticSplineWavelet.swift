/// The dyadic wavelet transform of Martínez et al. 2004 (after Mallat & Zhong 1992; Li, Zheng &
/// Tai 1995): the derivative of a quadratic spline smoothing function, computed with the
/// algorithme à trous (undecimated). Low-pass `h = [1, 3, 3, 1] / 8`, high-pass `g = [2, −2]`,
/// each dilated by 2^(k−1) zeros at scale 2^k. `W_{2^k}x` is proportional to the derivative of
/// `x` smoothed at scale 2^k: a wave's peak is a zero crossing between two modulus maxima of
/// opposite sign, its boundaries where the modulus falls off. Designed for 250 Hz (scales
/// 2^1…2^5 cover about 62–125 Hz down to 4–8 Hz).
///
/// Streaming: the filters are causal FIRs, so the transform keeps, per scale, the last
/// 3·2^(k−1) samples of the approximation it reads and continues over each new block; the
/// output never depends on how the input is cut into blocks. Only the scales the delineator
/// reads (2^2, 2^4, 2^5) are written out.
///
/// Citation: Martínez JP, Almeida R, Olmos S, Rocha AP, Laguna P (2004) A wavelet-based ECG
/// delineator: evaluation on standard databases. IEEE Trans Biomed Eng 51(4):570–581.
struct QuadraticSplineWavelet {
    /// Scales 2^1 … 2^`scales`.
    static let scales = 5

    /// The group delay of scale 2^k in samples: 2^k − 1.5 (h delays 1.5·2^(j−1) at each of the
    /// k − 1 smoothing steps, g 0.5·2^(k−1) at the last).
    /// - Parameter k: scale exponent, 1…5.
    static func delay(_ k: Int) -> Double { Double(1 << k) - 1.5 }

    /// The output scales: W_{2^2}, W_{2^4} and W_{2^5}, one value per input sample.
    struct Scales {
        var w2: [Float] = []
        var w4: [Float] = []
        var w5: [Float] = []

        /// `count` zeros per scale.
        init(count: Int = 0) {
            w2 = [Float](repeating: 0, count: count)
            w4 = w2
            w5 = w2
        }
    }

    /// A window of the output scales, read in place (valid while the arrays it views are).
    struct ScaleView {
        var w2: UnsafeBufferPointer<Float>
        var w4: UnsafeBufferPointer<Float>
        var w5: UnsafeBufferPointer<Float>
    }

    /// Per scale k (index k − 1): the last 3·2^(k−1) values of the approximation s_{k−1} that
    /// scale 2^k filters (s_0 = x).
    private var history: [[Float]] = (1...scales).map { [Float](repeating: 0, count: 3 << ($0 - 1)) }
    /// Whether ``restart(at:)`` has been called.
    private(set) var started = false

    /// A transform not yet started.
    init() {}

    /// Starts (or starts again) as if every earlier sample equalled `value`: the edge the
    /// whole-window transform has at its first sample, where each filter reads the first value in
    /// place of the samples before it.
    /// - Parameter value: the first sample of the new stretch.
    mutating func restart(at value: Float) {
        var c = value
        for k in 0..<Self.scales {
            for i in history[k].indices { history[k][i] = c }
            c = (c + 3 * c + 3 * c + c) * 0.125
        }
        started = true
    }

    /// Continues the transform over `x` and appends its scales to `out`.
    /// - Parameters:
    ///   - x: samples at 250 Hz, finite.
    ///   - out: receives `x.count` more values per scale.
    /// - Complexity: O(scales · x.count).
    mutating func append(_ x: UnsafeBufferPointer<Float>, to out: inout Scales) {
        let n = x.count
        guard n > 0 else { return }
        // Two work buffers (the approximation a scale reads: its history, then the n new values;
        // and the next one), swapped level by level, and one for a detail scale before it is
        // appended: no allocation per level. The loops read through offset pointers (no index
        // arithmetic that could trap), so the compiler vectorises them; each value is computed
        // as before.
        let cap = (3 << (Self.scales - 1)) + n
        withUnsafeTemporaryAllocation(of: Float.self, capacity: 3 * cap) { buffer in
            var a = buffer.baseAddress!, b = a + cap
            let detail = b + cap
            history[0].withUnsafeBufferPointer { a.update(from: $0.baseAddress!, count: $0.count) }
            (a + history[0].count).update(from: x.baseAddress!, count: n)
            for k in 1...Self.scales {
                let d = 1 << (k - 1), h = 3 * d
                let s = a
                if k == 2 || k == 4 || k == 5 {
                    let p = s + h, q = s + (h - d)
                    for i in 0..<n { detail[i] = 2 * (p[i] - q[i]) }
                    let values = UnsafeBufferPointer(start: detail, count: n)
                    switch k {
                    case 2: out.w2.append(contentsOf: values)
                    case 4: out.w4.append(contentsOf: values)
                    default: out.w5.append(contentsOf: values)
                    }
                }
                if k < Self.scales {
                    let hn = 6 * d
                    history[k].withUnsafeBufferPointer { b.update(from: $0.baseAddress!, count: hn) }
                    let o = b + hn
                    let s0 = s + h, s1 = s + (h - d), s2 = s + (h - 2 * d), s3 = s + (h - 3 * d)
                    for i in 0..<n { o[i] = (s0[i] + 3 * s1[i] + 3 * s2[i] + s3[i]) * 0.125 }
                }
                // The last h values this scale read are its history for the next block.
                history[k - 1].withUnsafeMutableBufferPointer { $0.baseAddress!.update(from: s + n, count: h) }
                swap(&a, &b)
            }
        }
    }

    /// The scales of a whole window `x`, its first sample standing for every earlier one (the
    /// first 3·2^(k−1) or so outputs of each scale see that edge: the caller keeps margins).
    /// - Parameter x: samples at 250 Hz, finite.
    /// - Complexity: O(scales · x.count).
    static func transform(_ x: [Float]) -> Scales {
        var out = Scales()
        guard let first = x.first else { return out }
        var t = QuadraticSplineWavelet()
        t.restart(at: first)
        x.withUnsafeBufferPointer { t.append($0, to: &out) }
        return out
    }
}

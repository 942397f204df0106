/// The dyadic wavelet transform of Martínez et al. 2004 (after Mallat & Zhong 1992; Li, Zheng &
/// Tai 1995): the derivative of a quadratic spline smoothing function, computed with the
/// algorithme à trous. Low-pass `h = [1, 3, 3, 1] / 8`, high-pass `g = [2, −2]`, each dilated by
/// 2^(k−1) zeros at scale 2^k. `W_{2^k}x` is proportional to the derivative of `x` smoothed at
/// scale 2^k: a wave's peak is a zero crossing between two modulus maxima of opposite sign, its
/// boundaries where the modulus falls off. Designed for 250 Hz (scales 2^1…2^5 cover about
/// 62–125 Hz down to 4–8 Hz).
///
/// Citation: Martínez JP, Almeida R, Olmos S, Rocha AP, Laguna P (2004) A wavelet-based ECG
/// delineator: evaluation on standard databases. IEEE Trans Biomed Eng 51(4):570–581.
struct QuadraticSplineWavelet {
    /// Scales 2^1 … 2^`scales`.
    static let scales = 5

    /// `w[k − 1][n]`: W_{2^k}x at index `n` (causal filters; the value at `n` describes the
    /// signal at `n − delay(k)`).
    var w: [[Float]]

    /// The group delay of scale 2^k in samples: 2^k − 1.5 (h delays 1.5·2^(j−1) at each of the
    /// k − 1 smoothing steps, g 0.5·2^(k−1) at the last).
    /// - Parameter k: scale exponent, 1…5.
    static func delay(_ k: Int) -> Double { Double(1 << k) - 1.5 }

    /// Transforms `x`; the first `2^(scales+1)` or so outputs of the coarse scales see the
    /// window's edge (the caller keeps margins).
    /// - Parameter x: samples at 250 Hz.
    /// - Complexity: O(scales · x.count).
    init(_ x: [Float]) {
        let n = x.count
        var s = x
        var next = [Float](repeating: 0, count: n)
        w = []
        w.reserveCapacity(Self.scales)
        for k in 1...Self.scales {
            let d = 1 << (k - 1)
            var wk = [Float](repeating: 0, count: n)
            s.withUnsafeBufferPointer { sp in
                // The first samples see the window's first value in place of the ones before it
                // (clamped indices); the rest run without the clamps.
                let head = min(3 * d, n)
                wk.withUnsafeMutableBufferPointer { wp in
                    for i in 0..<min(d, n) { wp[i] = 2 * (sp[i] - sp[0]) }
                    if d < n { for i in d..<n { wp[i] = 2 * (sp[i] - sp[i - d]) } }
                }
                if k < Self.scales {
                    next.withUnsafeMutableBufferPointer { np in
                        for i in 0..<head {
                            let s0 = sp[i], s1 = sp[max(i - d, 0)], s2 = sp[max(i - 2 * d, 0)], s3 = sp[max(i - 3 * d, 0)]
                            np[i] = (s0 + 3 * s1 + 3 * s2 + s3) * 0.125
                        }
                        if head < n {
                            for i in head..<n {
                                np[i] = (sp[i] + 3 * sp[i - d] + 3 * sp[i - 2 * d] + sp[i - 3 * d]) * 0.125
                            }
                        }
                    }
                }
            }
            w.append(wk)
            if k < Self.scales { swap(&s, &next) }
        }
    }
}

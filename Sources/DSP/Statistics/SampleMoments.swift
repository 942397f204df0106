/// Mean, variance and the third and fourth standardised moments of a window's unmasked samples,
/// with population (biased) estimators as `scipy.stats.skew` / `kurtosis(bias=True)`.
///
/// Two passes in `Double`: the mean, then the central moments (numerically safer than raw power
/// sums for ECG sitting on a large offset).
package struct SampleMoments: Sendable, Equatable {
    /// Unmasked samples used.
    package var count = 0
    /// Mean, signal unit.
    package var mean = Double.nan
    /// Population variance, signal unit².
    package var variance = Double.nan
    /// `m3 / m2^1.5`; NaN when the variance is 0 or fewer than 2 samples.
    package var skewness = Double.nan
    /// Pearson kurtosis `m4 / m2²`; NaN when the variance is 0 or fewer than 2 samples.
    package var kurtosis = Double.nan

    package init(_ x: UnsafeBufferPointer<Float>, masked: UnsafeBufferPointer<Bool>?) {
        let n = x.count
        var sum0 = 0.0, sum1 = 0.0
        var used = 0
        if let m = masked {
            for i in 0..<n where !m[i] { sum0 += Double(x[i]); used += 1 }
        } else {
            var i = 0
            while i + 1 < n {
                sum0 += Double(x[i]); sum1 += Double(x[i + 1]); i += 2
            }
            if i < n { sum0 += Double(x[i]) }
            used = n
        }
        count = used
        guard used > 0 else { return }
        let mu = (sum0 + sum1) / Double(used)
        mean = mu
        var m2a = 0.0, m3a = 0.0, m4a = 0.0
        var m2b = 0.0, m3b = 0.0, m4b = 0.0
        if let m = masked {
            for i in 0..<n where !m[i] {
                let d = Double(x[i]) - mu, d2 = d * d
                m2a += d2; m3a += d2 * d; m4a += d2 * d2
            }
        } else {
            var i = 0
            while i + 1 < n {
                let d = Double(x[i]) - mu, d2 = d * d
                let e = Double(x[i + 1]) - mu, e2 = e * e
                m2a += d2; m3a += d2 * d; m4a += d2 * d2
                m2b += e2; m3b += e2 * e; m4b += e2 * e2
                i += 2
            }
            if i < n {
                let d = Double(x[i]) - mu, d2 = d * d
                m2a += d2; m3a += d2 * d; m4a += d2 * d2
            }
        }
        let c = Double(used)
        let m2 = (m2a + m2b) / c, m3 = (m3a + m3b) / c, m4 = (m4a + m4b) / c
        variance = m2
        guard used >= 2, m2 > 0 else { return }
        skewness = m3 / (m2 * m2.squareRoot())
        kurtosis = m4 / (m2 * m2)
    }
}

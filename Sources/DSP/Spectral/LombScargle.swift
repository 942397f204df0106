#if canImport(Glibc)
    import Glibc
#endif

/// The generalised Lomb–Scargle periodogram of unevenly sampled data, matching
/// `scipy.signal.lombscargle` (SciPy 1.17), with frequencies in Hz.
///
/// For each frequency `f` (Hz), with angular frequency `ω = 2π·f` (rad/s), a weighted least-squares
/// fit `y(t) ≈ a·cos(ω(t − τ)) + b·sin(ω(t − τ)) [+ c]` is made; `τ` decouples the cosine and sine
/// terms (Lomb 1976; Scargle 1982). With ``floatingMean`` the offset `c` is fitted at each
/// frequency (Zechmeister & Kürster 2009), which is what RR-interval series with their large mean
/// need; without it the data are assumed to oscillate about zero (SciPy's `floating_mean=False`).
/// Weights are normalised to sum to 1, as in SciPy.
///
/// SciPy takes **angular** frequencies: `lombscargle(t, y, 2*np.pi*f, ...)` is `power(frequenciesHz: f, ...)`.
/// Normalisations (see ``Normalization``): ``Normalization/power`` is SciPy's default
/// (`normalize=False`), ``Normalization/normalized`` is `normalize=True`, and
/// ``amplitude(frequenciesHz:)`` is `normalize='amplitude'`. ``Normalization/psd`` is the
/// one-sided power spectral density used for HRV band powers.
///
/// **Default differs from SciPy:** `floatingMean` defaults to `true` here (SciPy: `False`).
///
/// Times are shifted internally by a reference time (the midpoint of the span) so that Unix
/// timestamps keep full precision; powers are invariant to that shift and amplitudes are rotated
/// back to SciPy's time origin `t = 0`.
///
/// Algorithm: one pass over the samples per frequency accumulates
/// `Σw·cos ωt, Σw·sin ωt, Σw·cos 2ωt, Σw·sin 2ωt, Σwy·cos ωt, Σwy·sin ωt`; `τ` and the rotated
/// sums then follow in closed form (Press & Rybicki 1989 use the same double-angle sums). For an
/// evenly spaced frequency grid, ``power(startHz:stepHz:count:normalization:)`` advances
/// `cos`/`sin` across frequencies with a rotation recurrence (re-anchored with exact `cos`/`sin`
/// every 32 frequencies), several times faster than evaluating them at every point.
///
/// Sources: N. R. Lomb, "Least-squares frequency analysis of unequally spaced data", Astrophys.
/// Space Sci. 39, 447–462, 1976, doi:10.1007/BF00648343. J. D. Scargle, "Studies in astronomical
/// time series analysis. II. Statistical aspects of spectral analysis of unevenly spaced data",
/// ApJ 263, 835–853, 1982, doi:10.1086/160554. M. Zechmeister and M. Kürster, "The generalised
/// Lomb-Scargle periodogram", A&A 496, 577–584, 2009, doi:10.1051/0004-6361:200811296.
/// R. H. D. Townsend, "Fast calculation of the Lomb-Scargle periodogram using graphics processing
/// units", ApJS 191, 247–253, 2010, doi:10.1088/0067-0049/191/2/247 (single-pass sums, SciPy's
/// earlier variant). W. H. Press and G. B. Rybicki, "Fast algorithm for spectral analysis of
/// unevenly sampled data", ApJ 338, 277–280, 1989, doi:10.1086/167197. HRV use: G. D. Clifford and
/// L. Tarassenko, "Quantifying errors in spectral estimates of HRV due to beat replacement and
/// resampling", IEEE Trans. Biomed. Eng. 52(4), 630–638, 2005, doi:10.1109/TBME.2005.844028.
public struct LombScargle: Sendable {
    /// Units of ``LombScargle/power(frequenciesHz:normalization:)``.
    public enum Normalization: Sendable, Equatable {
        /// SciPy's default (`normalize=False` / `'power'`): `N/4 · 2(a·YC + b·YS)` in units²;
        /// `A²·N/4` for a sinusoid of amplitude `A` (the classical Lomb power, Scargle 1982).
        case power
        /// SciPy's `normalize=True` / `'normalize'`: the fraction of the (weighted, and with a
        /// floating mean, centred) sum of squares explained by the sinusoid, in [0, 1]
        /// (Zechmeister & Kürster 2009, eq. 20).
        case normalized
        /// One-sided power spectral density in units²/Hz: ``power`` · 2 / ``LombScargle/meanSampleRate``.
        /// For evenly sampled data at the Fourier frequencies `k·fs/N` (0 < k < N/2) this equals
        /// `scipy.signal.periodogram(y, fs, detrend=False)` (and, with a floating mean,
        /// `detrend='constant'`), so band powers integrate like a Welch or periodogram PSD, as
        /// HRV frequency-domain measures (VLF/LF/HF in ms²) require.
        case psd
    }

    /// Number of samples.
    public let sampleCount: Int
    /// Whether the offset is fitted at each frequency.
    public let floatingMean: Bool
    /// Mean sample rate in Hz, `(N − 1) / (t_max − t_min)`, used by ``Normalization/psd``.
    public let meanSampleRate: Double
    /// Time subtracted from every sample time before computing (midpoint of the span), seconds.
    public let referenceTime: Double

    let times: [Double] // shifted by referenceTime
    let weights: [Double] // normalised to sum 1
    let weightedValues: [Double] // weights · values
    let weightedMean: Double // Y  = Σ w·y
    let sumOfSquares: Double // YY = Σ w·y² (− Y² with a floating mean)

    /// Prepares a periodogram of `values` sampled at `timesSeconds`.
    /// - Parameters:
    ///   - timesSeconds: sample times in seconds (any order; e.g. R-peak times); at least two
    ///     distinct values.
    ///   - values: one value per time (e.g. RR intervals in ms).
    ///   - weights: optional non-negative weights, one per sample (SciPy `weights`); normalised
    ///     to sum 1. Default: equal weights.
    ///   - floatingMean: fit an offset at each frequency (SciPy `floating_mean`); default `true`
    ///     (SciPy's default is `false`).
    /// - Throws: ``SpectralError`` if fewer than two samples, all times equal, a non-finite time,
    ///   value or weight, a negative weight, or weights summing to zero.
    /// - Complexity: O(N).
    public init(
        timesSeconds: [Double], values: [Double], weights: [Double]? = nil,
        floatingMean: Bool = true
    ) throws(SpectralError) {
        precondition(
            timesSeconds.count == values.count,
            "LombScargle: \(timesSeconds.count) times but \(values.count) values")
        if let weights {
            precondition(
                weights.count == values.count,
                "LombScargle: \(weights.count) weights for \(values.count) values")
        }
        let n = values.count
        guard n >= 2 else { throw SpectralError(.tooFewSamples, "LombScargle: need at least 2 samples, got \(n)") }
        var tMin = Double.infinity, tMax = -Double.infinity
        for (i, t) in timesSeconds.enumerated() {
            guard t.isFinite else { throw SpectralError(.nonFinite, "LombScargle: time \(i) is not finite (\(t))") }
            tMin = min(tMin, t)
            tMax = max(tMax, t)
        }
        guard tMax > tMin else { throw SpectralError(.degenerate, "LombScargle: all sample times are equal") }
        for (i, v) in values.enumerated() where !v.isFinite {
            throw SpectralError(.nonFinite, "LombScargle: value \(i) is not finite (\(v))")
        }
        var w = weights ?? [Double](repeating: 1, count: n)
        var total = 0.0
        for (i, v) in w.enumerated() {
            guard v.isFinite && v >= 0 else {
                throw SpectralError(.invalidWeight, "LombScargle: weight \(i) is negative or not finite (\(v))")
            }
            total += v
        }
        guard total > 0 else { throw SpectralError(.degenerate, "LombScargle: weights sum to zero") }
        let inverse = 1.0 / total
        for i in 0..<n { w[i] = w[i] * inverse }

        let reference = 0.5 * (tMin + tMax)
        var wy = [Double](repeating: 0, count: n)
        var y0 = 0.0, y1 = 0.0, yy0 = 0.0, yy1 = 0.0
        for i in 0..<n {
            wy[i] = w[i] * values[i]
            if i & 1 == 0 { y0 += wy[i]; yy0 += wy[i] * values[i] } else { y1 += wy[i]; yy1 += wy[i] * values[i] }
        }
        let mean = y0 + y1
        var squares = yy0 + yy1
        if floatingMean { squares -= mean * mean }

        sampleCount = n
        self.floatingMean = floatingMean
        meanSampleRate = Double(n - 1) / (tMax - tMin)
        referenceTime = reference
        times = timesSeconds.map { $0 - reference }
        self.weights = w
        weightedValues = wy
        weightedMean = mean
        sumOfSquares = squares
    }

    /// Prepares a periodogram of `Float` values (computed in `Double`).
    /// - Parameters:
    ///   - timesSeconds: sample times in seconds; at least two distinct values.
    ///   - values: one value per time.
    ///   - weights: optional non-negative weights (default equal).
    ///   - floatingMean: fit an offset at each frequency; default `true`.
    /// - Throws: as ``init(timesSeconds:values:weights:floatingMean:)-(_,[Double],_,_)``.
    /// - Complexity: O(N).
    public init(
        timesSeconds: [Double], values: [Float], weights: [Double]? = nil,
        floatingMean: Bool = true
    ) throws(SpectralError) {
        try self.init(
            timesSeconds: timesSeconds, values: values.map(Double.init),
            weights: weights, floatingMean: floatingMean)
    }

    /// The periodogram at arbitrary frequencies.
    /// - Parameters:
    ///   - frequenciesHz: frequencies in Hz (any order; SciPy's angular `freqs` are `2π ×` these).
    ///   - normalization: output units; default ``Normalization/power`` (SciPy's default).
    /// - Returns: one value per frequency.
    /// - Complexity: O(N · M) for N samples and M frequencies, with one `cos` and one `sin` per
    ///   sample and frequency.
    public func power(frequenciesHz: [Double], normalization: Normalization = .power) -> [Double] {
        var out = [Double](repeating: 0, count: frequenciesHz.count)
        for (j, f) in frequenciesHz.enumerated() {
            let omega = 2 * Double.pi * f
            out[j] = finish(directSums(omega: omega), normalization: normalization).power
        }
        return out
    }

    /// The periodogram on the evenly spaced grid `startHz + j·stepHz`, `j = 0 ..< count`.
    ///
    /// Faster than ``power(frequenciesHz:normalization:)`` (trigonometric recurrence across the
    /// grid); same values to ~1e-13 relative.
    /// - Parameters:
    ///   - startHz: first frequency in Hz.
    ///   - stepHz: grid spacing in Hz.
    ///   - count: number of frequencies (≥ 0).
    ///   - normalization: output units; default ``Normalization/power``.
    /// - Returns: `count` values.
    /// - Complexity: O(N · M) multiply-adds plus O(N · M / 32) `cos`/`sin` pairs.
    public func power(
        startHz: Double, stepHz: Double, count: Int,
        normalization: Normalization = .power
    ) -> [Double] {
        precondition(count >= 0, "LombScargle: count must be ≥ 0")
        var out = [Double](repeating: 0, count: count)
        gridSums(startHz: startHz, stepHz: stepHz, count: count) { j, sums in
            out[j] = finish(sums, normalization: normalization).power
        }
        return out
    }

    /// The best-fit complex amplitude at each frequency, as SciPy's `normalize='amplitude'`:
    /// `(a + i·b)·e^{iτ}` with the phase referred to `t = 0`.
    /// - Parameter frequenciesHz: frequencies in Hz.
    /// - Returns: real and imaginary parts, one each per frequency (units of the values).
    /// - Complexity: O(N · M).
    public func amplitude(frequenciesHz: [Double]) -> (real: [Double], imaginary: [Double]) {
        var re = [Double](repeating: 0, count: frequenciesHz.count)
        var im = re
        for (j, f) in frequenciesHz.enumerated() {
            let omega = 2 * Double.pi * f
            let r = finish(directSums(omega: omega), normalization: .power)
            // τ measured from referenceTime; from t = 0 it is τ + ω·referenceTime.
            let phase = r.tau + omega * referenceTime
            let c = cos(phase), s = sin(phase)
            re[j] = r.a * c - r.b * s
            im[j] = r.a * s + r.b * c
        }
        return (re, im)
    }

    // MARK: - Internals

    /// `Σw·cos θ, Σw·sin θ, Σw·cos 2θ, Σw·sin 2θ, Σwy·cos θ, Σwy·sin θ` with `θ = ω·t`.
    struct Sums {
        var c = 0.0, s = 0.0, c2 = 0.0, s2 = 0.0, yc = 0.0, ys = 0.0
        @inline(__always)
        static func + (l: Sums, r: Sums) -> Sums {
            Sums(
                c: l.c + r.c, s: l.s + r.s, c2: l.c2 + r.c2, s2: l.s2 + r.s2,
                yc: l.yc + r.yc, ys: l.ys + r.ys)
        }
    }

    func directSums(omega: Double) -> Sums {
        times.withUnsafeBufferPointer { t in
            weights.withUnsafeBufferPointer { w in
                weightedValues.withUnsafeBufferPointer { wy in
                    var a = Sums(), b = Sums()
                    let n = t.count
                    var i = 0
                    while i + 2 <= n {
                        let t0 = omega * t[i], t1 = omega * t[i + 1]
                        let c0 = cos(t0), s0 = sin(t0), c1 = cos(t1), s1 = sin(t1)
                        let w0 = w[i], w1 = w[i + 1]
                        a.c += w0 * c0; a.s += w0 * s0
                        a.c2 += w0 * (c0 * c0 - s0 * s0); a.s2 += w0 * (2 * c0 * s0)
                        a.yc += wy[i] * c0; a.ys += wy[i] * s0
                        b.c += w1 * c1; b.s += w1 * s1
                        b.c2 += w1 * (c1 * c1 - s1 * s1); b.s2 += w1 * (2 * c1 * s1)
                        b.yc += wy[i + 1] * c1; b.ys += wy[i + 1] * s1
                        i += 2
                    }
                    if i < n {
                        let th = omega * t[i]
                        let c0 = cos(th), s0 = sin(th), w0 = w[i]
                        a.c += w0 * c0; a.s += w0 * s0
                        a.c2 += w0 * (c0 * c0 - s0 * s0); a.s2 += w0 * (2 * c0 * s0)
                        a.yc += wy[i] * c0; a.ys += wy[i] * s0
                    }
                    return a + b
                }
            }
        }
    }

    /// Sums for `startHz + j·stepHz`, `j = 0 ..< count`, delivered to `body` in order. In each
    /// block of 32 frequencies `cos`/`sin` are exact at the first frequency and advanced by the
    /// rotation `(cos Δθ, sin Δθ)`, `Δθ = 2π·stepHz·t`; two samples are interleaved for
    /// instruction-level parallelism.
    func gridSums(startHz: Double, stepHz: Double, count: Int, _ body: (Int, Sums) -> Void) {
        let block = 32
        var acc = [Sums](repeating: Sums(), count: block)
        var accB = acc
        let dOmega = 2 * Double.pi * stepHz
        times.withUnsafeBufferPointer { t in
            weights.withUnsafeBufferPointer { w in
                weightedValues.withUnsafeBufferPointer { wy in
                    acc.withUnsafeMutableBufferPointer { pa in
                        accB.withUnsafeMutableBufferPointer { pb in
                            var j0 = 0
                            while j0 < count {
                                let m = min(block, count - j0)
                                let omega0 = 2 * Double.pi * (startHz + Double(j0) * stepHz)
                                for k in 0..<m { pa[k] = Sums(); pb[k] = Sums() }
                                let n = t.count
                                var i = 0
                                while i + 2 <= n {
                                    let ta = t[i], tb = t[i + 1]
                                    var ca = cos(omega0 * ta), sa = sin(omega0 * ta)
                                    var cb = cos(omega0 * tb), sb = sin(omega0 * tb)
                                    let rca = cos(dOmega * ta), rsa = sin(dOmega * ta)
                                    let rcb = cos(dOmega * tb), rsb = sin(dOmega * tb)
                                    let wa = w[i], wb = w[i + 1], ya = wy[i], yb = wy[i + 1]
                                    for k in 0..<m {
                                        pa[k].c += wa * ca; pa[k].s += wa * sa
                                        pa[k].c2 += wa * (ca * ca - sa * sa)
                                        pa[k].s2 += wa * (2 * ca * sa)
                                        pa[k].yc += ya * ca; pa[k].ys += ya * sa
                                        pb[k].c += wb * cb; pb[k].s += wb * sb
                                        pb[k].c2 += wb * (cb * cb - sb * sb)
                                        pb[k].s2 += wb * (2 * cb * sb)
                                        pb[k].yc += yb * cb; pb[k].ys += yb * sb
                                        let na = ca * rca - sa * rsa, nb = cb * rcb - sb * rsb
                                        sa = sa * rca + ca * rsa; sb = sb * rcb + cb * rsb
                                        ca = na; cb = nb
                                    }
                                    i += 2
                                }
                                if i < n {
                                    let ta = t[i]
                                    var ca = cos(omega0 * ta), sa = sin(omega0 * ta)
                                    let rca = cos(dOmega * ta), rsa = sin(dOmega * ta)
                                    let wa = w[i], ya = wy[i]
                                    for k in 0..<m {
                                        pa[k].c += wa * ca; pa[k].s += wa * sa
                                        pa[k].c2 += wa * (ca * ca - sa * sa)
                                        pa[k].s2 += wa * (2 * ca * sa)
                                        pa[k].yc += ya * ca; pa[k].ys += ya * sa
                                        let na = ca * rca - sa * rsa
                                        sa = sa * rca + ca * rsa
                                        ca = na
                                    }
                                }
                                for k in 0..<m { body(j0 + k, pa[k] + pb[k]) }
                                j0 += m
                            }
                        }
                    }
                }
            }
        }
    }

    /// Closed-form fit from the sums (SciPy's equations, Zechmeister & Kürster 2009 eqs. 8–20,
    /// with `τ` from eq. 19 and the rotated `CC`, `SS` as the eigenvalues of the 2×2 matrix).
    func finish(_ s: Sums, normalization: Normalization) -> (power: Double, a: Double, b: Double, tau: Double) {
        // Centred (floating mean) or raw second moments: CC − SS, 2·CS and CC + SS.
        var ccMinusSs = s.c2
        var twoCs = s.s2
        var trace = 1.0
        var yc = s.yc, ys = s.ys
        if floatingMean {
            ccMinusSs -= s.c * s.c - s.s * s.s
            twoCs -= 2 * s.c * s.s
            trace -= s.c * s.c + s.s * s.s
            yc -= weightedMean * s.c
            ys -= weightedMean * s.s
        }
        let tau = 0.5 * atan2(twoCs, ccMinusSs)
        let d = (ccMinusSs * ccMinusSs + twoCs * twoCs).squareRoot()
        let cosTau = cos(tau), sinTau = sin(tau)
        let ycTau = cosTau * yc + sinTau * ys
        let ysTau = cosTau * ys - sinTau * yc
        let epsneg = Double.ulpOfOne / 2
        var ccTau = 0.5 * (trace + d)
        var ssTau = 0.5 * (trace - d)
        if ccTau < epsneg { ccTau = epsneg }
        if ssTau < epsneg { ssTau = epsneg }
        let a = ycTau / ccTau
        let b = ysTau / ssTau
        let p = 2 * (a * ycTau + b * ysTau)
        let value: Double
        switch normalization {
        case .power: value = p * (Double(sampleCount) / 4)
        case .normalized: value = p * (0.5 / sumOfSquares)
        case .psd: value = p * (Double(sampleCount) / 4) * (2 / meanSampleRate)
        }
        return (value, a, b, tau)
    }
}

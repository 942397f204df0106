#if canImport(Glibc)
    import Glibc
#endif

/// The computations behind ``Catch22`` on raw memory, each following its hctsa v3.0.0 definition
/// (Fulcher & Jones 2017, doi:10.1016/j.cels.2017.10.001) as catch22 v1.1.0 implements it
/// (definitions and where catch22 deviates: `docs/FEATURES.md`).
enum Catch22Math {
    /// ⌈log₂ n⌉ for n ≥ 1 (MATLAB's `nextpow2`).
    static func log2Ceiling(_ n: Int) -> Int {
        var p = 0
        while (1 << p) < n { p += 1 }
        return p
    }

    /// Autocorrelation r(k) = c(k)/c(0) of `y` (mean removed), k = 0..<m, through one
    /// zero-padded FFT of `fft.count` ≥ 2m − 1 points (hctsa `CO_AutoCorr`, 'Fourier').
    static func autocorrelation(
        _ y: UnsafePointer<Double>, _ m: Int, fft: RealFFT<Double>, work: UnsafeMutablePointer<Double>,
        spectrum: UnsafeMutablePointer<Double>, into out: UnsafeMutablePointer<Double>
    ) {
        var mean = 0.0
        for i in 0..<m { mean += y[i] }
        mean /= Double(m)
        for i in 0..<m { work[i] = y[i] - mean }
        lagProducts(m, fft: fft, work: work, spectrum: spectrum)
        let c0 = work[0]
        for k in 0..<m { out[k] = c0 > 0 ? work[k] / c0 : .nan }
    }

    /// Replaces x₀…x_{m−1} in `work[0..<m]` by their lag-product sums (Wiener–Khinchin: the
    /// series zero-padded to `fft.count` points, |FFT|², inverse): afterwards
    /// `work[k] = Σᵢ xᵢ·xᵢ₊ₖ` times the inverse transform's scale, for k < m.
    static func lagProducts(
        _ m: Int, fft: RealFFT<Double>, work: UnsafeMutablePointer<Double>, spectrum: UnsafeMutablePointer<Double>
    ) {
        let count = fft.count
        for i in m..<count { work[i] = 0 }
        fft.forward(work, into: spectrum)
        for k in 0...(count / 2) {
            let re = spectrum[2 * k], im = spectrum[2 * k + 1]
            spectrum[2 * k] = re * re + im * im
            spectrum[2 * k + 1] = 0
        }
        fft.inverse(destroying: spectrum, into: work)
    }

    /// First crossing of `threshold` by x₀, x₁, … (hctsa `BF_PointOfCrossing`): the 1-based
    /// index of the first value past it, and the linearly interpolated 1-based point; (m, m)
    /// when it never crosses.
    static func pointOfCrossing(_ x: UnsafePointer<Double>, _ m: Int, threshold: Double) -> (index: Double, point: Double) {
        guard x[0].isFinite else { return (.nan, .nan) }
        let above = x[0] > threshold
        for k in 1..<m where above ? x[k] - threshold < 0 : x[k] - threshold > 0 {
            return (Double(k + 1), Double(k) + (threshold - x[k - 1]) / (x[k] - x[k - 1]))
        }
        return (Double(m), Double(m))
    }

    /// Lag of the first local minimum of the autocorrelation (hctsa `CO_FirstMin`, 'ac'); n when
    /// there is none.
    static func firstMinimum(_ acf: UnsafePointer<Double>, _ n: Int) -> Double {
        guard n > 2 else { return Double(n) }
        if acf[2] > acf[1] { return 1 }
        for i in 3..<n where acf[i - 2] > acf[i - 1] && acf[i - 1] < acf[i] { return Double(i - 1) }
        return Double(n)
    }

    /// Mean centre of the fullest bins of an equal-width histogram over [min, max] (hctsa
    /// `DN_HistogramMode` with `BF_SimpleBinner`).
    static func histogramMode(_ z: UnsafePointer<Double>, _ n: Int, bins: Int) -> Double {
        var lo = z[0], hi = z[0]
        for i in 1..<n {
            lo = min(lo, z[i])
            hi = max(hi, z[i])
        }
        let range = hi - lo
        let step = range / Double(bins)
        guard step > 0 else { return .nan }
        @inline(__always) func edge(_ i: Int) -> Double { i == bins ? hi : lo + Double(i) * range / Double(bins) }
        return withUnsafeTemporaryAllocation(of: Int.self, capacity: bins) { counts in
            for k in 0..<bins { counts[k] = 0 }
            for i in 0..<n {
                let v = z[i]
                var k = min(bins - 1, max(0, Int((v - lo) / step)))
                if v < edge(k) && k > 0 { k -= 1 }
                if k < bins - 1 && v >= edge(k + 1) { k += 1 }
                counts[k] += 1
            }
            var best = 0
            for k in 0..<bins { best = max(best, counts[k]) }
            var sum = 0.0, ties = 0
            for k in 0..<bins where counts[k] == best {
                // catch22 v1.1.0's centres sit 10⁻⁶ of a bin width below the midpoints
                // (measured against pycatch22 1.0.2; not in hctsa's definition).
                sum += (edge(k) + edge(k + 1)) / 2 - 1e-6 * step
                ties += 1
            }
            return sum / Double(ties)
        }
    }

    /// Median, over thresholds 0, 0.01, 0.02, … of the timing (relative to the middle) of the
    /// samples beyond each threshold (hctsa `DN_OutlierInclude(x, 'pos'|'neg', 0.01).mdrmd`);
    /// thresholds stop once fewer than 2 % of the positive (negative) samples remain.
    static func outlierTiming(
        _ z: UnsafePointer<Double>, _ n: Int, positive: Bool, indices r: UnsafeMutablePointer<Int>,
        medians: UnsafeMutablePointer<Double>
    ) -> Double {
        let sign = positive ? 1.0 : -1.0
        var top = -Double.infinity
        var total = 0
        for i in 0..<n {
            let v = sign * z[i]
            top = max(top, v)
            if v >= 0 { total += 1 }
            r[i] = i
        }
        var count = n, recorded = 0, k = 0
        let half = Double(n) / 2
        while true {
            let threshold = Double(k) * 0.01
            if threshold > top { break }
            var kept = 0
            for j in 0..<count where sign * z[r[j]] >= threshold {
                r[kept] = r[j]
                kept += 1
            }
            count = kept
            if count < 2 || Double(count - 1) / Double(total) * 100 <= 2 { break }
            let median =
                count % 2 == 1 ? Double(r[count / 2] + 1) : Double(r[count / 2 - 1] + 1 + r[count / 2] + 1) / 2
            medians[recorded] = median / half - 1
            recorded += 1
            k += 1
        }
        guard recorded > 0 else { return .nan }
        var sortable = UnsafeMutableBufferPointer(start: medians, count: recorded)
        sortable.sort()
        return recorded % 2 == 1
            ? medians[recorded / 2] : (medians[recorded / 2 - 1] + medians[recorded / 2]) / 2
    }

    /// Power spectrum statistics (hctsa `SP_Summaries(x, 'fft')`): the area of the lowest fifth
    /// of the one-sided angular-frequency PSD and its median (50 %-power) angular frequency.
    static func spectrum(
        _ z: UnsafePointer<Double>, _ n: Int, fft: RealFFT<Double>, work: UnsafeMutablePointer<Double>,
        spectrum s: UnsafeMutablePointer<Double>
    ) -> (area: Double, median: Double) {
        let count = fft.count
        for i in 0..<n { work[i] = z[i] }
        for i in n..<count { work[i] = 0 }
        fft.forward(work, into: s)
        let m = count / 2 + 1
        var total = 0.0
        for k in 0..<m {
            let re = s[2 * k], im = s[2 * k + 1]
            let p = 2 * (re * re + im * im) / Double(n) / (2 * Double.pi)
            work[k] = p
            total += p
        }
        @inline(__always) func w(_ k: Int) -> Double { 2 * Double.pi * (0.5 * (Double(k) / Double(m - 1))) }
        let dw = w(1) - w(0)
        // catch22 v1.1.0 sums ⌈m/5⌉ bins (hctsa's `buffer` gives ⌊m/5⌋; measured against pycatch22).
        let fifth = (m + 4) / 5
        var area = 0.0
        for k in 0..<fifth { area += work[k] }
        var cumulative = 0.0, median = Double.nan
        for k in 0..<m {
            cumulative += work[k]
            if cumulative >= total * 0.5 {
                median = w(k)
                break
            }
        }
        return (area * dw, median)
    }

    /// Sample standard deviation of the residuals of the 3-sample local-mean forecast (hctsa
    /// `FC_LocalSimple(x, 'mean', 3).stde`).
    static func localMeanStandardError(_ z: UnsafePointer<Double>, _ n: Int) -> Double {
        let m = n - 3
        guard m >= 2 else { return .nan }
        var mean = 0.0
        for i in 3..<n { mean += (z[i - 3] + z[i - 2] + z[i - 1]) / 3 - z[i] }
        mean /= Double(m)
        var ss = 0.0
        for i in 3..<n {
            let d = (z[i - 3] + z[i - 2] + z[i - 1]) / 3 - z[i] - mean
            ss += d * d
        }
        return (ss / Double(m - 1)).squareRoot()
    }

    /// Longest run of samples at or above the mean (hctsa `SB_BinaryStats(x, 'mean').longstretch1`).
    static func longestStretchAboveMean(_ z: UnsafePointer<Double>, _ n: Int) -> Double {
        var mean = 0.0
        for i in 0..<n { mean += z[i] }
        mean /= Double(n)
        var run = 0, best = 0
        for i in 0..<n {
            run = z[i] - mean >= 0 ? run + 1 : 0
            best = max(best, run)
        }
        return Double(best)
    }

    /// Longest run of strictly decreasing steps (hctsa `SB_BinaryStats(x, 'diff').longstretch0`).
    static func longestStretchDecreasing(_ z: UnsafePointer<Double>, _ n: Int) -> Double {
        var run = 0, best = 0
        for i in 1..<n {
            run = z[i] - z[i - 1] < 0 ? run + 1 : 0
            best = max(best, run)
        }
        return Double(best)
    }

    /// MATLAB `quantile` of sorted values: linear interpolation at position n·p + ½ (1-based),
    /// clamped to the extremes.
    static func quantile(_ s: UnsafePointer<Double>, _ n: Int, _ p: Double) -> Double {
        let position = Double(n) * p + 0.5
        if position < 1 { return s[0] }
        if position > Double(n) { return s[n - 1] }
        let below = Int(position.rounded(.down))
        let t = position - Double(below)
        return t == 0 ? s[below - 1] : s[below - 1] + t * (s[below] - s[below - 1])
    }

    /// Symbols 0, 1, 2 of an equiprobable 3-letter alphabet (hctsa `SB_CoarseGrain(x,
    /// 'quantile', 3)`); returns how many letters occur.
    static func coarseGrain(
        _ y: UnsafePointer<Double>, _ n: Int, sorted: UnsafePointer<Double>, into symbols: UnsafeMutablePointer<Int>
    ) -> Int {
        let t1 = quantile(sorted, n, 1.0 / 3), t2 = quantile(sorted, n, 2.0 / 3)
        var seen = (false, false, false)
        for i in 0..<n {
            let v = y[i]
            let s = v <= t1 ? 0 : v <= t2 ? 1 : 2
            symbols[i] = s
            if s == 0 { seen.0 = true } else if s == 1 { seen.1 = true } else { seen.2 = true }
        }
        return (seen.0 ? 1 : 0) + (seen.1 ? 1 : 0) + (seen.2 ? 1 : 0)
    }

    /// Entropy of successive symbol pairs of the 3-letter quantile alphabet (hctsa
    /// `SB_MotifThree(x, 'quantile').hh`), with the Miller–Madow bias correction catch22
    /// v1.1.0 applies (its `SB_MotifThree.c`): df/(2(n − 1)) added when df = m₂ − 1 − 2·(3 − 1)
    /// is positive, m₂ the number of occupied pair cells (the two marginals are fixed by the
    /// equiprobable alphabet, hence the 2·(3 − 1) degrees of freedom removed).
    static func motifThreeEntropy(
        _ z: UnsafePointer<Double>, _ n: Int, sorted: UnsafePointer<Double>, symbols: UnsafeMutablePointer<Int>
    ) -> Double {
        _ = coarseGrain(z, n, sorted: sorted, into: symbols)
        return withUnsafeTemporaryAllocation(of: Int.self, capacity: 9) { c in
            for k in 0..<9 { c[k] = 0 }
            for i in 0..<(n - 1) { c[symbols[i] * 3 + symbols[i + 1]] += 1 }
            var h = 0.0, cells = 0
            let pairs = Double(n - 1)
            for k in 0..<9 where c[k] > 0 {
                let p = Double(c[k]) / pairs
                h -= p * log(p)
                cells += 1
            }
            let df = cells - 1 - 2 * (3 - 1)
            return df > 0 ? h + Double(df) / (2 * pairs) : h
        }
    }

    /// Automutual information at `lag` from a `bins`×`bins` histogram with equal-width bins over
    /// [min − 0.1, max + 0.1] (hctsa `CO_HistogramAMI(x, lag, 'even', bins)`), with the
    /// Miller–Madow bias correction (m_x + m_y − m_xy − 1)/(2N) that catch22 v1.1.0 applies
    /// (measured against pycatch22 1.0.2).
    static func histogramAutoMutualInformation(
        _ z: UnsafePointer<Double>, _ n: Int, lag: Int, bins: Int, low: Double, high: Double
    ) -> Double {
        let count = n - lag
        guard count >= 1 else { return .nan }
        return withUnsafeTemporaryAllocation(of: Double.self, capacity: bins + 1) { edges in
            for i in 0...bins { edges[i] = i == bins ? high : low + Double(i) * (high - low) / Double(bins) }
            edges[0] -= 0.1
            edges[bins] += 0.1
            @inline(__always) func bin(_ v: Double) -> Int {
                var k = 0
                for i in 1..<bins where v >= edges[i] { k = i }
                return k
            }
            return withUnsafeTemporaryAllocation(of: Double.self, capacity: bins * bins + 2 * bins) { buffer in
                let p = buffer.baseAddress!
                for k in 0..<(bins * bins + 2 * bins) { p[k] = 0 }
                for i in 0..<count { p[bin(z[i]) * bins + bin(z[i + lag])] += 1 }
                let px = p + bins * bins, py = px + bins
                let total = Double(count)
                var cells = 0
                for a in 0..<bins {
                    for b in 0..<bins {
                        let v = p[a * bins + b] / total
                        p[a * bins + b] = v
                        px[a] += v
                        py[b] += v
                        if v > 0 { cells += 1 }
                    }
                }
                var mi = 0.0, mx = 0, my = 0
                for a in 0..<bins {
                    if px[a] > 0 { mx += 1 }
                    if py[a] > 0 { my += 1 }
                    for b in 0..<bins where p[a * bins + b] > 0 {
                        let v = p[a * bins + b]
                        mi += v * log(v / py[b] / px[a])
                    }
                }
                return mi + Double(mx + my - cells - 1) / (2 * total)
            }
        }
    }

    /// First local minimum of the Gaussian automutual information −½ log(1 − r²(τ)) over
    /// τ = 1…min(maxLag, ⌈n/2⌉) (hctsa `IN_AutoMutualInfoStats(x, 40, 'gaussian').fmmi`, as
    /// catch22 v1.1.0: the first minimum, else the largest lag).
    static func firstMinimumGaussianAMI(
        _ z: UnsafePointer<Double>, _ n: Int, maxLag: Int, ami: UnsafeMutablePointer<Double>
    ) -> Double {
        let lags = min(maxLag, (n + 1) / 2)
        for tau in 1...lags {
            guard tau <= n - 5 else {
                ami[tau - 1] = .nan
                continue
            }
            let m = n - tau
            var mx = 0.0, my = 0.0
            for i in 0..<m {
                mx += z[i]
                my += z[i + tau]
            }
            mx /= Double(m)
            my /= Double(m)
            var sxy = 0.0, sxx = 0.0, syy = 0.0
            for i in 0..<m {
                let a = z[i] - mx, b = z[i + tau] - my
                sxy += a * b
                sxx += a * a
                syy += b * b
            }
            let r = sxy / (sxx * syy).squareRoot()
            ami[tau - 1] = -0.5 * log(1 - r * r)
        }
        if lags >= 3 {
            for j in 0..<(lags - 2) {
                let d0 = ami[j + 1] - ami[j], d1 = ami[j + 2] - ami[j + 1]
                if d0 < 0 && d1 > 0 { return Double(j + 2) }
            }
        }
        return Double(lags)
    }

    /// Trace of the covariance of the 3-state transition matrix of the series decimated by the
    /// autocorrelation's first zero crossing (hctsa `SB_TransitionMatrix(x, 'quantile', 3,
    /// 'ac').sumdiagcov`), the factor capped at ⌊n/50⌋ as catch22 v1.1.0 does. The decimation
    /// uses MATLAB `resample`'s design as SciPy's `resample_poly` reproduces it (Kaiser-windowed
    /// sinc, β = 5, 10 lobes per side, zeros beyond the ends), as catch22 v1.1.0.
    static func transitionCovariance(_ z: UnsafePointer<Double>, _ n: Int, lag: Double, scratch s: Catch22Scratch) -> Double {
        guard lag.isFinite else { return .nan }
        // catch22 v1.1.0 caps the decimation factor at ⌊n/50⌋ (`SB_TransitionMatrix.c`).
        let q = max(1, min(Int(lag), n / 50))
        var y = z
        var m = n
        if q > 1 {
            m = (n + q - 1) / q
            decimate(z, n, by: q, into: s.extra, taps: s.taps(20 * q + 1))
            y = UnsafePointer(s.extra)
        }
        guard m >= 2 else { return .nan }
        let sorted = s.acf2
        for i in 0..<m { sorted[i] = y[i] }
        var sortable = UnsafeMutableBufferPointer(start: sorted, count: m)
        sortable.sort()
        _ = coarseGrain(y, m, sorted: sorted, into: s.indices)
        return withUnsafeTemporaryAllocation(of: Double.self, capacity: 9) { t in
            for k in 0..<9 { t[k] = 0 }
            for i in 0..<(m - 1) { t[s.indices[i] * 3 + s.indices[i + 1]] += 1 }
            let pairs = Double(m - 1)
            var trace = 0.0
            for j in 0..<3 {
                let a = t[j] / pairs, b = t[3 + j] / pairs, c = t[6 + j] / pairs
                let mean = (a + b + c) / 3
                trace += ((a - mean) * (a - mean) + (b - mean) * (b - mean) + (c - mean) * (c - mean)) / 2
            }
            return trace
        }
    }

    /// y[k] = Σᵢ h[i]·x[k·q + 10q − i], k < ⌈n/q⌉, with h a Kaiser-windowed (β = 5) sinc of
    /// cutoff 1/q and 20q + 1 taps normalised to unit DC gain (MATLAB `resample(x, 1, q)`,
    /// `scipy.signal.resample_poly(x, 1, q)`); samples outside the series are 0.
    static func decimate(
        _ x: UnsafePointer<Double>, _ n: Int, by q: Int, into y: UnsafeMutablePointer<Double>,
        taps h: UnsafeMutablePointer<Double>
    ) {
        let half = 10 * q
        let length = 2 * half + 1
        let cutoff = 1 / Double(q)
        let beta = 5.0
        let i0Beta = besselI0(beta)
        var sum = 0.0
        for i in 0..<length {
            let m = Double(i - half)
            let arg = Double.pi * cutoff * m
            let sinc = m == 0 ? 1 : sin(arg) / arg
            let r = m / Double(half)
            let window = besselI0(beta * (max(0, 1 - r * r)).squareRoot()) / i0Beta
            h[i] = cutoff * sinc * window
            sum += h[i]
        }
        for i in 0..<length { h[i] /= sum }
        let outputs = (n + q - 1) / q
        for k in 0..<outputs {
            let centre = k * q + half
            var acc = 0.0
            let lo = max(0, centre - (n - 1)), hi = min(length - 1, centre)
            if lo <= hi { for i in lo...hi { acc += h[i] * x[centre - i] } }
            y[k] = acc
        }
    }

    /// Modified Bessel function of the first kind, order 0 (power series; |x| ≤ 50 here).
    static func besselI0(_ x: Double) -> Double {
        var term = 1.0, sum = 1.0
        let q = x * x / 4
        var k = 1.0
        while term > 1e-17 * sum {
            term *= q / (k * k)
            sum += term
            k += 1
        }
        return sum
    }

    /// Periodicity of Wang, Wirth & Wang (2007, doi:10.1109/ICDM.2007.103) as hctsa
    /// `PD_PeriodicityWang(x).th2`: remove a least-squares cubic spline with one interior knot at
    /// the middle, then return the first autocorrelation peak (lags ≤ ⌈n/3⌉) that follows a
    /// trough, exceeds it by ≥ 0.01 and is positive; 0 when there is none (catch22's value).
    static func periodicityWang(
        _ z: UnsafePointer<Double>, _ n: Int, fft: RealFFT<Double>, detrended y: UnsafeMutablePointer<Double>,
        work: UnsafeMutablePointer<Double>, spectrum: UnsafeMutablePointer<Double>, acf: UnsafeMutablePointer<Double>
    ) -> Double {
        splineResidual(z, n, into: y)
        let count = fft.count
        for i in 0..<n { work[i] = y[i] }
        lagProducts(n, fft: fft, work: work, spectrum: spectrum)
        let lags = (n + 2) / 3
        // acf[k] = mean(y[0..<n−τ]·y[τ..<n]) at τ = k + 1.
        for k in 0..<lags { acf[k] = work[k + 1] / Double(count) / Double(n - k - 1) }
        @inline(__always) func sign(_ v: Double) -> Int { v > 0 ? 1 : v < 0 ? -1 : 0 }
        var lastTrough = -1
        guard lags >= 3 else { return 0 }
        for j in 0..<(lags - 2) {
            let bath = sign(acf[j + 2] - acf[j + 1]) - sign(acf[j + 1] - acf[j])
            let position = j + 1 // 0-based index into acf of the extremum
            if bath == 2 {
                lastTrough = position
            } else if bath == -2 && lastTrough >= 0 {
                let peak = acf[position]
                if peak - acf[lastTrough] >= 0.01 && peak >= 0 { return Double(position + 1) }
            }
        }
        return 0
    }

    /// z minus its least-squares cubic spline with knots at samples 1, (1 + n)/2 and n
    /// (MATLAB `spap2(2, 4, 1:n, z)`), through the truncated-power basis 1, u, u², u³,
    /// (u − ½)₊³ on u ∈ [0, 1].
    static func splineResidual(_ z: UnsafePointer<Double>, _ n: Int, into y: UnsafeMutablePointer<Double>) {
        withUnsafeTemporaryAllocation(of: Double.self, capacity: 36) { (buffer: UnsafeMutableBufferPointer<Double>) in
            let a = buffer.baseAddress! // 5×6 augmented normal equations
            for k in 0..<30 { a[k] = 0 }
            @inline(__always) func basis(_ i: Int, _ f: UnsafeMutablePointer<Double>) {
                let u = Double(i) / Double(n - 1)
                let v = max(0, u - 0.5)
                f[0] = 1
                f[1] = u
                f[2] = u * u
                f[3] = u * u * u
                f[4] = v * v * v
            }
            let f = a + 30
            for i in 0..<n {
                basis(i, f)
                for r in 0..<5 {
                    for c in 0..<5 { a[r * 6 + c] += f[r] * f[c] }
                    a[r * 6 + 5] += f[r] * z[i]
                }
            }
            for col in 0..<5 {
                var pivot = col
                for r in (col + 1)..<5 where abs(a[r * 6 + col]) > abs(a[pivot * 6 + col]) { pivot = r }
                if pivot != col { for c in 0..<6 { (a[col * 6 + c], a[pivot * 6 + c]) = (a[pivot * 6 + c], a[col * 6 + c]) } }
                let d = a[col * 6 + col]
                for r in 0..<5 where r != col {
                    let factor = a[r * 6 + col] / d
                    for c in col..<6 { a[r * 6 + c] -= factor * a[col * 6 + c] }
                }
            }
            var coefficient = (0.0, 0.0, 0.0, 0.0, 0.0)
            coefficient.0 = a[5] / a[0]
            coefficient.1 = a[11] / a[7]
            coefficient.2 = a[17] / a[14]
            coefficient.3 = a[23] / a[21]
            coefficient.4 = a[29] / a[28]
            for i in 0..<n {
                basis(i, f)
                let fit =
                    coefficient.0 * f[0] + coefficient.1 * f[1] + coefficient.2 * f[2] + coefficient.3 * f[3]
                    + coefficient.4 * f[4]
                y[i] = z[i] - fit
            }
        }
    }

    /// Mean absolute difference between the histogram density of successive distances in the
    /// 2-D delay embedding (delay: the autocorrelation's first zero crossing, at most n/10) and
    /// the exponential density fitted to them (hctsa `CO_Embed2_Dist(x, 'tau').d_expfit_meandiff`).
    /// Bins as catch22 v1.1.0: NumPy's 'auto' rule (the narrower of Freedman–Diaconis, with MATLAB
    /// quantiles, and Sturges), density normalisation.
    static func embeddingDistanceExpFit(_ z: UnsafePointer<Double>, _ n: Int, lag: Double, scratch s: Catch22Scratch)
        -> Double
    {
        guard lag.isFinite else { return .nan }
        var tau = Int(lag)
        if Double(tau) > Double(n) / 10 { tau = n / 10 }
        let m = n - tau - 1
        guard m >= 2 else { return .nan }
        let d = s.extra, sorted = s.sorted
        var mean = 0.0
        for i in 0..<m {
            let a = z[i + 1] - z[i], b = z[i + tau + 1] - z[i + tau]
            d[i] = (a * a + b * b).squareRoot()
            sorted[i] = d[i]
            mean += d[i]
        }
        mean /= Double(m)
        guard mean > 0 else { return .nan }
        var sortable = UnsafeMutableBufferPointer(start: sorted, count: m)
        sortable.sort()
        var lo = sorted[0], hi = sorted[m - 1]
        let iqr = quantile(sorted, m, 0.75) - quantile(sorted, m, 0.25)
        let fd = 2 * iqr * pow(Double(m), -1.0 / 3.0)
        let sturges = (hi - lo) / (log2(Double(m)) + 1)
        let width = fd > 0 ? min(fd, sturges) : sturges
        var bins = width > 0 ? Int(min(((hi - lo) / width).rounded(.up), Double(s.capacity))) : 1
        if lo == hi {
            lo -= 0.5
            hi += 0.5
            bins = 1
        }
        // Pathological spreads (an IQR far below the range) are capped at the scratch size.
        bins = min(max(1, bins), s.capacity - 8)
        let counts = s.work
        for k in 0..<bins { counts[k] = 0 }
        let step = (hi - lo) / Double(bins)
        let norm = Double(bins) / (hi - lo)
        @inline(__always) func edge(_ i: Int) -> Double { i == bins ? hi : lo + Double(i) * step }
        for i in 0..<m {
            let v = d[i]
            var k = min(bins - 1, Int((v - lo) * norm))
            if v < edge(k) && k > 0 { k -= 1 }
            if k != bins - 1 && v >= edge(k + 1) { k += 1 }
            counts[k] += 1
        }
        var total = 0.0
        for k in 0..<bins {
            let a = edge(k), b = edge(k + 1)
            let density = counts[k] / Double(m) / (b - a)
            let centre = (a + b) / 2
            total += abs(density - exp(-centre / mean) / mean)
        }
        return total / Double(bins)
    }

    /// Proportion of time scales before the best two-line split of log F(τ) against log τ
    /// (hctsa `SC_FluctAnal(x, 2, 'rsrangefit'|'dfa', 50, 1, [], true).prop_r1`): F is the RMS of
    /// the range (`rsrangefit`) or of all residuals (`dfa`) after removing a straight line from
    /// each non-overlapping segment of the integrated series (for `dfa`, integrated every
    /// second sample, as catch22's lag 2), τ = unique(round(exp(linspace(log 5, log ⌊L/2⌋,
    /// 50)))); the split minimises the summed squared residuals of lines fitted to the scales
    /// up to and from it (≥ 6 on each side). NaN with fewer than 16 scales (L < 40).
    static func fluctuationSplit(
        _ z: UnsafePointer<Double>, _ n: Int, decimation: Int, detrendedFluctuation: Bool, scratch s: Catch22Scratch
    ) -> Double {
        let y = s.extra
        var length = 0
        var sum = 0.0
        var i = 0
        while i < n {
            sum += z[i]
            y[length] = sum
            length += 1
            i += decimation
        }
        let halfLength = length / 2
        guard halfLength >= 5 else { return .nan }
        let taus = s.indices
        var count = 0
        let a = log(5.0), b = log(Double(halfLength))
        for k in 0..<50 {
            let v = k == 49 ? b : a + Double(k) * (b - a) / 49
            let tau = Int((exp(v) + 0.5).rounded(.down))
            if count == 0 || tau != taus[count - 1] {
                taus[count] = tau
                count += 1
            }
        }
        guard count >= 16 else { return .nan }
        let logTau = s.work, logF = s.work + 64
        for k in 0..<count {
            let tau = taus[k]
            let segments = length / tau
            let tbar = Double(tau + 1) / 2
            let stt = Double(tau) * Double(tau * tau - 1) / 12
            var accumulated = 0.0
            for j in 0..<segments {
                let seg = y + j * tau
                var mean = 0.0, sty = 0.0
                for t in 0..<tau {
                    mean += seg[t]
                    sty += (Double(t + 1) - tbar) * seg[t]
                }
                mean /= Double(tau)
                let slope = sty / stt
                let intercept = mean - slope * tbar
                if detrendedFluctuation {
                    for t in 0..<tau {
                        let r = seg[t] - (intercept + slope * Double(t + 1))
                        accumulated += r * r
                    }
                } else {
                    var lo = Double.infinity, hi = -Double.infinity
                    for t in 0..<tau {
                        let r = seg[t] - (intercept + slope * Double(t + 1))
                        lo = min(lo, r)
                        hi = max(hi, r)
                    }
                    accumulated += (hi - lo) * (hi - lo)
                }
            }
            let values = detrendedFluctuation ? Double(segments * tau) : Double(segments)
            logTau[k] = log(Double(tau))
            logF[k] = log((accumulated / values).squareRoot())
        }
        @inline(__always) func sse(_ from: Int, _ to: Int) -> Double {
            let m = Double(to - from)
            var mx = 0.0, my = 0.0
            for k in from..<to {
                mx += logTau[k]
                my += logF[k]
            }
            mx /= m
            my /= m
            var sxx = 0.0, sxy = 0.0, syy = 0.0
            for k in from..<to {
                let dx = logTau[k] - mx, dy = logF[k] - my
                sxx += dx * dx
                sxy += dx * dy
                syy += dy * dy
            }
            return max(0, syy - sxy * sxy / sxx)
        }
        // Each regime holds at least max(8, round(count/4)) scales (the second shares the split
        // point); the first split within a relative 1e-9 of the smallest error wins (catch22
        // v1.1.0, `SC_FluctAnal.c`).
        let minPoints = max(8, Int((0.25 * Double(count)).rounded()))
        guard count >= 2 * minPoints else { return .nan }
        var best = Double.infinity
        for i in minPoints...(count - minPoints) { best = min(best, sse(0, i) + sse(i - 1, count)) }
        var split = minPoints
        for i in minPoints...(count - minPoints) where sse(0, i) + sse(i - 1, count) <= best * (1 + 1e-9) {
            split = i
            break
        }
        return Double(split) / Double(count)
    }
}

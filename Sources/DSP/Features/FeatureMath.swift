#if canImport(Glibc)
    import Glibc
#endif

/// The catalog's computations on raw memory (definitions and sources in ``FeatureCatalog``).
enum FeatureMath {
    /// Arithmetic mean with four accumulators.
    static func mean(_ x: UnsafePointer<Double>, _ n: Int) -> Double {
        var a = 0.0, b = 0.0, c = 0.0, d = 0.0
        var i = 0
        while i + 4 <= n {
            a += x[i]
            b += x[i + 1]
            c += x[i + 2]
            d += x[i + 3]
            i += 4
        }
        while i < n {
            a += x[i]
            i += 1
        }
        return ((a + b) + (c + d)) / Double(n)
    }

    /// (1/n)Σ(xᵢ − mean)².
    static func centralSecondMoment(_ x: UnsafePointer<Double>, _ n: Int, mean: Double) -> Double {
        var a = 0.0, b = 0.0
        var i = 0
        while i + 2 <= n {
            let d0 = x[i] - mean, d1 = x[i + 1] - mean
            a += d0 * d0
            b += d1 * d1
            i += 2
        }
        if i < n { a += (x[i] - mean) * (x[i] - mean) }
        return (a + b) / Double(n)
    }

    /// Writes the 18 statistical features (order of ``FeatureCatalog/definitions(_:)``).
    static func statistical(
        _ x: UnsafePointer<Double>, _ n: Int, mean: Double, flat: Bool, sorted s: UnsafeMutablePointer<Double>,
        into out: UnsafeMutablePointer<Double>
    ) {
        let dn = Double(n)
        var m2 = 0.0, m3 = 0.0, m4 = 0.0, absDev = 0.0, squares = 0.0
        for i in 0..<n {
            let v = x[i]
            let d = v - mean
            let d2 = d * d
            m2 += d2
            m3 += d2 * d
            m4 += d2 * d2
            absDev += abs(d)
            squares += v * v
            s[i] = v
        }
        m2 /= dn
        m3 /= dn
        m4 /= dn
        var sortable = UnsafeMutableBufferPointer(start: s, count: n)
        sortable.sort()
        let lo = s[0], hi = s[n - 1]
        let median = n % 2 == 1 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2
        out[0] = mean
        out[1] = m2.squareRoot()
        out[2] = m2
        out[3] = lo
        out[4] = hi
        out[5] = hi - lo
        out[6] = median
        let p25 = percentile(s, n, 25), p75 = percentile(s, n, 75)
        out[7] = p75 - p25
        var k = 8
        for p in FeatureCatalog.percentiles {
            out[k] = p == 25 ? p25 : p == 75 ? p75 : percentile(s, n, p)
            k += 1
        }
        out[k] = flat ? .nan : m3 / (m2 * m2.squareRoot())
        out[k + 1] = flat ? .nan : m4 / (m2 * m2) - 3
        out[k + 2] = (squares / dn).squareRoot()
        out[k + 3] = medianAbsoluteDeviation(s, n, median: median)
        out[k + 4] = absDev / dn
        out[k + 5] = histogramEntropy(x, n, min: lo, max: hi)
    }

    /// `numpy.percentile(x, p)` (linear) of sorted values, with NumPy's two-sided lerp.
    static func percentile(_ s: UnsafePointer<Double>, _ n: Int, _ p: Double) -> Double {
        let position = (p / 100) * Double(n - 1)
        let below = Int(position.rounded(.down))
        let above = min(below + 1, n - 1)
        let t = position - Double(below)
        let a = s[below], b = s[above]
        let diff = b - a
        return t >= 0.5 ? b - diff * (1 - t) : a + diff * t
    }

    /// Median of |sᵢ − median| by merging the two sorted runs of deviations on either side of
    /// the median (O(n), no extra memory).
    static func medianAbsoluteDeviation(_ s: UnsafePointer<Double>, _ n: Int, median: Double) -> Double {
        var split = 0 // first index with s ≥ median
        var lo = 0, hi = n
        while lo < hi {
            let mid = (lo + hi) / 2
            if s[mid] < median { lo = mid + 1 } else { hi = mid }
        }
        split = lo
        var left = split - 1, right = split
        var previous = 0.0, current = 0.0
        let target = n / 2
        for k in 0...target {
            previous = current
            let l = left >= 0 ? median - s[left] : Double.infinity
            let r = right < n ? s[right] - median : Double.infinity
            if l <= r {
                current = l
                left -= 1
            } else {
                current = r
                right += 1
            }
            if k == target { break }
        }
        return n % 2 == 1 ? current : (previous + current) / 2
    }

    /// Shannon entropy (nats) of the `numpy.histogram(x, bins=10)` counts.
    static func histogramEntropy(_ x: UnsafePointer<Double>, _ n: Int, min lo: Double, max hi: Double) -> Double {
        let bins = FeatureCatalog.histogramBins
        guard hi > lo else { return 0 }
        var counts = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        let step = (hi - lo) / Double(bins)
        let norm = Double(bins) / (hi - lo)
        withUnsafeMutableBytes(of: &counts) { raw in
            let c = raw.bindMemory(to: Int.self)
            @inline(__always) func edge(_ i: Int) -> Double { i == bins ? hi : Double(i) * step + lo }
            for i in 0..<n {
                let v = x[i]
                var k = Int((v - lo) * norm)
                if k == bins { k -= 1 }
                if v < edge(k) { k -= 1 }
                if k != bins - 1 && v >= edge(k + 1) { k += 1 }
                c[k] += 1
            }
        }
        var h = 0.0
        let dn = Double(n)
        withUnsafeBytes(of: &counts) { raw in
            for c in raw.bindMemory(to: Int.self) where c > 0 {
                let p = Double(c) / dn
                h -= p * log(p)
            }
        }
        return h
    }

    /// Writes the 8 temporal features.
    static func temporal(
        _ x: UnsafePointer<Double>, _ n: Int, mean: Double, flat: Bool, sampleRate fs: Double, lag: Int,
        fft: RealFFT<Double>,
        padded y: UnsafeMutablePointer<Double>, spectrum: UnsafeMutablePointer<Double>,
        into out: UnsafeMutablePointer<Double>
    ) {
        var zero = 0, meanCrossings = 0, absDiff = 0.0
        var previousNegative = x[0].sign == .minus
        var previousBelow = (x[0] - mean).sign == .minus
        var ramp = 0.0
        let centre = Double(n - 1) / 2
        ramp += (0 - centre) * (x[0] - mean)
        for i in 1..<max(n, 1) {
            let v = x[i]
            let negative = v.sign == .minus
            let below = (v - mean).sign == .minus
            if negative != previousNegative { zero += 1 }
            if below != previousBelow { meanCrossings += 1 }
            previousNegative = negative
            previousBelow = below
            absDiff += abs(v - x[i - 1])
            ramp += (Double(i) - centre) * (v - mean)
        }
        let dn = Double(n)
        out[0] = Double(zero) * fs / dn
        out[1] = Double(meanCrossings) * fs / dn
        out[2] = n > 1 ? absDiff / Double(n - 1) : .nan
        // Autocorrelation through one zero-padded FFT (length ≥ 2n − 1: no wrap-around).
        let length = fft.count
        for i in 0..<n { y[i] = x[i] - mean }
        for i in n..<length { y[i] = 0 }
        fft.forward(y, into: spectrum)
        let bins = length / 2 + 1
        for k in 0..<bins {
            let re = spectrum[2 * k], im = spectrum[2 * k + 1]
            spectrum[2 * k] = re * re + im * im
            spectrum[2 * k + 1] = 0
        }
        fft.inverse(destroying: spectrum, into: y)
        let r0 = y[0]
        if !flat && r0 > 0 && n > 1 {
            out[3] = y[1] / r0
            out[4] = lag >= 1 && lag < n ? y[lag] / r0 : .nan
            var first = Double.nan
            for k in 1..<n where y[k] <= 0 {
                first = Double(k) / fs
                break
            }
            out[5] = first
        } else {
            out[3] = .nan
            out[4] = .nan
            out[5] = .nan
        }
        // Σ(i − ī)² = n(n² − 1)/12.
        let sxx = dn * (dn * dn - 1) / 12
        out[6] = n > 1 ? ramp / sxx * fs : .nan
        out[7] = Double(localMaxima(x, n))
    }

    /// Local maxima as `scipy.signal.find_peaks` finds them without conditions (a plateau is
    /// one peak when both its neighbours are lower).
    static func localMaxima(_ x: UnsafePointer<Double>, _ n: Int) -> Int {
        var count = 0
        var i = 1
        let last = n - 1
        while i < last {
            if x[i - 1] < x[i] {
                var ahead = i + 1
                while ahead < last && x[ahead] == x[i] { ahead += 1 }
                if x[ahead] < x[i] {
                    count += 1
                    i = ahead
                }
            }
            i += 1
        }
        return count
    }

    /// Welch PSD (periodic Hann, 50 % overlap, constant detrend, density, one-sided), as
    /// `scipy.signal.welch`, into `psd` (`segment/2 + 1` bins).
    static func welch(
        _ x: UnsafePointer<Double>, _ n: Int, plan: SpectralPlan, sampleRate fs: Double,
        work: UnsafeMutablePointer<Double>, spectrum: UnsafeMutablePointer<Double>, psd: UnsafeMutablePointer<Double>
    ) {
        let m = plan.fft.count
        let bins = m / 2 + 1
        let hop = m - m / 2
        let segments = (n - m) / hop + 1
        for k in 0..<bins { psd[k] = 0 }
        plan.window.withUnsafeBufferPointer { w in
            for s in 0..<segments {
                let start = x + s * hop
                let mu = mean(start, m)
                for i in 0..<m { work[i] = (start[i] - mu) * w[i] }
                plan.fft.forward(work, into: spectrum)
                for k in 0..<bins {
                    let re = spectrum[2 * k], im = spectrum[2 * k + 1]
                    psd[k] += re * re + im * im
                }
            }
        }
        let scale = 1 / (fs * plan.sumOfSquares) / Double(segments)
        let lastDoubled = m % 2 == 0 ? bins - 1 : bins
        for k in 0..<bins { psd[k] *= (k > 0 && k < lastDoubled) ? 2 * scale : scale }
    }

    /// Writes the spectral features of a PSD.
    static func spectral(
        psd p: UnsafePointer<Double>, bins: Int, segment: Int, sampleRate fs: Double, bands: [FrequencyBand],
        into out: UnsafeMutablePointer<Double>
    ) {
        let df = 1.0 / (Double(segment) * (1.0 / fs))
        var total = 0.0, moment = 0.0
        var best = -1, bestPower = -Double.infinity
        for k in 0..<bins {
            total += p[k]
            moment += Double(k) * df * p[k]
            if k >= 1 && p[k] > bestPower {
                best = k
                bestPower = p[k]
            }
        }
        guard total > 0 && total.isFinite else {
            for i in 0..<(8 + bands.count) { out[i] = .nan }
            return
        }
        out[0] = best >= 1 ? Double(best) * df : .nan
        out[1] = best >= 1 ? bestPower : .nan
        let centroid = moment / total
        var spread = 0.0, entropy = 0.0, logSum = 0.0, sumAbove = 0.0
        var anyZero = false
        for k in 0..<bins {
            let f = Double(k) * df
            spread += (f - centroid) * (f - centroid) * p[k]
            let q = p[k] / total
            if q > 0 { entropy -= q * log(q) }
            if k >= 1 {
                if p[k] > 0 { logSum += log(p[k]) } else { anyZero = true }
                sumAbove += p[k]
            }
        }
        out[2] = centroid
        out[3] = (spread / total).squareRoot()
        out[4] = bins > 1 ? entropy / log(Double(bins)) : .nan
        if bins > 1 {
            let count = Double(bins - 1)
            out[5] = anyZero ? 0 : exp(logSum / count) / (sumAbove / count)
        } else {
            out[5] = .nan
        }
        var cumulative = 0.0
        var rolloff = Double.nan, edge = Double.nan
        for k in 0..<bins {
            cumulative += p[k]
            if rolloff.isNaN && cumulative >= FeatureCatalog.rolloffFraction * total { rolloff = Double(k) * df }
            if cumulative >= FeatureCatalog.edgeFraction * total {
                edge = Double(k) * df
                break
            }
        }
        out[6] = rolloff
        out[7] = edge
        let nyquist = fs / 2
        for (j, band) in bands.enumerated() {
            guard band.lowHz < nyquist else {
                out[8 + j] = .nan
                continue
            }
            var s = 0.0
            for k in 0..<bins {
                let f = Double(k) * df
                if f >= band.lowHz && f < band.highHz { s += p[k] }
            }
            out[8 + j] = s * df
        }
    }
}

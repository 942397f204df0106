#if canImport(Glibc)
    import Glibc
#endif

/// Welch's PSD (periodic Hann, 50 % overlap, no detrending, density scaling, zero-padding to
/// `fftLength`), exactly as `scipy.signal.welch`, but evaluated only at the bins up to a maximum
/// frequency, each segment's low bins by the chirp z-transform.
///
/// HRV needs the bins up to 0.5 Hz of a series resampled at 100 Hz: about 1 % of the spectrum,
/// and NeuroKit2's FFT length (`2·⌊N/2⌋`) is an arbitrary even number that often has a large
/// prime factor (FFTW then runs 10× slower, and every new length is planned and cached). The
/// chirp z-transform (Bluestein's algorithm) writes the first `K` bins of an `F`-point DFT of an
/// `L`-point segment as a convolution, `X[k] = W^{k²/2} Σₙ (y[n]W^{n²/2}) W^{−(k−n)²/2}`,
/// `W = e^{−2πi/F}`, done with FFTs of a 5-smooth length `M ≥ L + K − 1` (one transform of the
/// chirp per call, two per segment). `|W^{k²/2}| = 1`, so the power needs no final twiddle. The
/// chirp phases `π·(n² mod 2F)/F` are reduced exactly in integers. Results equal DSP's
/// ``Welch`` on the same bins to rounding (tested to 1e-10 of the peak).
///
/// Sources: L. I. Bluestein, "A linear filtering approach to the computation of discrete
/// Fourier transform", IEEE Trans. Audio Electroacoust. 18(4):451–455, 1970,
/// doi:10.1109/TAU.1970.1162132. L. R. Rabiner, R. W. Schafer and C. M. Rader, "The chirp
/// z-transform algorithm", IEEE Trans. Audio Electroacoust. 17(2):86–92, 1969,
/// doi:10.1109/TAU.1969.1162034. P. D. Welch (1967), doi:10.1109/TAU.1967.1161901.
package enum ChirpZWelch {
    /// FFT length above which plans are not cached and the default chunk is shortened.
    static let largeLength = 1 << 18

    /// PSD at `k·fs/fftLength` for the `k` with that frequency ≤ `maximumFrequency`, of a
    /// series held in an array.
    /// - Precondition: `4 ≤ segmentLength ≤ x.count`, `fftLength == 2·segmentLength`.
    package static func psd(
        _ x: [Double], segmentLength l: Int, fftLength f: Int, sampleRate fs: Double,
        maximumFrequency: Double, chunkLength: Int? = nil
    ) -> (frequencies: [Double], power: [Double]) {
        x.withUnsafeBufferPointer { xs in
            psd(
                count: xs.count, segmentLength: l, fftLength: f, sampleRate: fs,
                maximumFrequency: maximumFrequency, chunkLength: chunkLength
            ) { first, count, out in
                out.update(from: xs.baseAddress! + first, count: count)
            }
        }
    }

    /// PSD at `k·fs/fftLength` for the `k` with that frequency ≤ `maximumFrequency`, of a series
    /// of `count` samples that is never held whole: `values(first, n, out)` writes samples
    /// `first ..< first + n` (always within `0 ..< count`) to `out`; each sample is asked for once,
    /// in ascending chunks per block (plus, for an odd segment length, each segment's dropped one).
    ///
    /// Each half-segment block of `h` samples is transformed in chunks of `C` samples: chunk
    /// `[n₀, n₀ + C)` contributes `W^{k·n₀}` times its own chirp z-transform (same filter for
    /// every chunk), the twiddle's phase `2π·(k·n₀ mod F)/F` reduced exactly in integers.
    /// - Parameters:
    ///   - chunkLength: samples per chirp-z chunk; default about three times the number of
    ///     outputs (FFT length ≈ 4× the outputs), or about half the number of outputs when that FFT
    ///     would be longer than 2^18 (series of more than about 18 h at 100 Hz; results then
    ///     differ from the longer chunks' in the last bits), at most one block.
    /// - Precondition: `4 ≤ segmentLength ≤ count`, `fftLength == 2·segmentLength`.
    /// - Complexity: O(N/C · M log M) time for `M ≈ C + 2K` (K bins), O(M + blocks·K) memory:
    ///   independent of `count` apart from the bins.
    package static func psd(
        count n: Int, segmentLength l: Int, fftLength f: Int, sampleRate fs: Double,
        maximumFrequency: Double, chunkLength: Int? = nil,
        values: (_ first: Int, _ count: Int, _ into: UnsafeMutablePointer<Double>) -> Void
    )
        -> (frequencies: [Double], power: [Double])
    {
        precondition(l >= 4 && l <= n && f == 2 * l)
        precondition(chunkLength.map { $0 >= 1 } ?? true, "chirp-z Welch: chunk length must be ≥ 1")
        // rfftfreq(f, 1/fs), as NumPy evaluates it.
        let binWidth = 1.0 / (Double(f) * (1.0 / fs))
        var bins = 0
        while bins <= f / 2 && Double(bins) * binWidth <= maximumFrequency { bins += 1 }
        let frequencies = (0..<bins).map { Double($0) * binWidth }
        guard bins > 0 else { return ([], []) }

        let h = l - l / 2 // hop = half-block length
        let segments = (n - l) / h + 1
        let blockCount = segments + 1
        let needed = bins + 2 // A_j[k], k ∈ [0, K+2)
        let k0 = -(needed - 1) // chirp-z outputs k ∈ [k0, needed − 1]
        let outputs = 2 * needed - 1
        let chunk: Int, m: Int
        if let chunkLength {
            chunk = min(chunkLength, h)
            m = smoothLength(atLeast: outputs + chunk - 1)
        } else {
            var target = min(h, max(3 * outputs, 1 << 15))
            var size = smoothLength(atLeast: outputs + target - 1)
            if size > Self.largeLength {
                // Series longer than about 18 h at 100 Hz: chunks of half the number of outputs
                // (FFT ≈ 1.5× the outputs instead of 4×) cut the buffers and the plan by 2.7, at
                // ≈ 2.3× the transform time (a 7-day series: ≈ 75 MB instead of ≈ 205 MB).
                target = min(h, max(1, outputs / 2))
                size = smoothLength(atLeast: outputs + target - 1)
            }
            m = size
            chunk = min(h, m - outputs + 1)
        }
        // Sizes above 2^18 (multi-day series) are planned for this call only, so their twiddle
        // tables do not stay cached; the plans are the same, so are the results.
        let uncached = m > Self.largeLength
        let fft = uncached ? ComplexFFT<Double>(uncachedCount: m) : ComplexFFT<Double>(count: m)
        defer { if uncached { fft.destroyPlans() } }

        // c(q) = W^{q²/2} = e^{−iπ q²/F}, |q| ≤ K + C + 2.
        let chirpCount = needed + chunk + 1
        var chirpRe = [Double](repeating: 0, count: chirpCount)
        var chirpIm = [Double](repeating: 0, count: chirpCount)
        chirp(count: chirpCount, fftLength: f, re: &chirpRe, im: &chirpIm)
        let work = Double._allocate(2 * m)
        let filter = Double._allocate(2 * m)
        let spectrum = Double._allocate(2 * m)
        defer { Double._free(work); Double._free(filter); Double._free(spectrum) }
        // The samples of a chunk go to the spectrum buffer, free until the forward transform
        // (2M ≥ 2C doubles).
        let valuesP = spectrum, valuesQ = spectrum + chunk

        // b'[p] = conj c(p + k0 − C + 1), p < outputs + C − 1; B' = FFT(b').
        work.initialize(repeating: 0, count: 2 * m)
        for p in 0..<(outputs + chunk - 1) {
            let q = abs(p + k0 - chunk + 1)
            work[2 * p] = chirpRe[q]
            work[2 * p + 1] = -chirpIm[q]
        }
        fft.transform(work, into: filter)

        // Samples first ..< first + count of block `block`, zero past the end of the series.
        func load(block: Int, offset: Int, count: Int, into out: UnsafeMutablePointer<Double>) {
            let first = block * h + offset
            let available = max(0, min(count, n - first))
            if available > 0 { values(first, available, out) }
            for i in available..<count { out[i] = 0 }
        }

        // A_j[k] for every block, k ∈ [0, needed): real and imaginary parts.
        var blockRe = [Double](repeating: 0, count: blockCount * needed)
        var blockIm = [Double](repeating: 0, count: blockCount * needed)
        // Z[k0 + j] of the current pair, accumulated over chunks; twiddles W^{k·n₀}, k < needed.
        var zSumRe = [Double](repeating: 0, count: outputs), zSumIm = zSumRe
        var twRe = [Double](repeating: 0, count: needed), twIm = twRe
        let inverseM = 1.0 / Double(m)
        var pair = 0
        while pair < blockCount {
            let p = pair, q = pair + 1 < blockCount ? pair + 1 : -1
            for j in 0..<outputs { zSumRe[j] = 0; zSumIm[j] = 0 }
            var n0 = 0
            while n0 < h {
                let length = min(chunk, h - n0)
                load(block: p, offset: n0, count: length, into: valuesP)
                if q >= 0 { load(block: q, offset: n0, count: length, into: valuesQ) }
                // a[n] = (x_p[n₀ + n] + i·x_q[n₀ + n])·c(n).
                for i in 0..<length {
                    let re = valuesP[i], im = q >= 0 ? valuesQ[i] : 0
                    work[2 * i] = re * chirpRe[i] - im * chirpIm[i]
                    work[2 * i + 1] = re * chirpIm[i] + im * chirpRe[i]
                }
                for i in (2 * length)..<(2 * m) { work[i] = 0 }
                fft.transform(work, into: spectrum)
                for j in 0..<m {
                    let ar = spectrum[2 * j], ai = spectrum[2 * j + 1]
                    let br = filter[2 * j], bi = filter[2 * j + 1]
                    spectrum[2 * j] = ar * br - ai * bi
                    spectrum[2 * j + 1] = ar * bi + ai * br
                }
                fft.transform(spectrum, into: work, inverse: true)
                twiddles(offset: n0, count: needed, fftLength: f, re: &twRe, im: &twIm)
                // Z[k0 + j] += W^{k·n₀}·c(k0 + j)·conv[j + C − 1]/M.
                for j in 0..<outputs {
                    let k = j + k0
                    let ak = abs(k)
                    let cr = chirpRe[ak], ci = chirpIm[ak]
                    let vr = work[2 * (j + chunk - 1)] * inverseM, vi = work[2 * (j + chunk - 1) + 1] * inverseM
                    let zr = cr * vr - ci * vi, zi = cr * vi + ci * vr
                    let tr = twRe[ak], ti = k >= 0 ? twIm[ak] : -twIm[ak]
                    zSumRe[j] += zr * tr - zi * ti
                    zSumIm[j] += zr * ti + zi * tr
                }
                n0 += chunk
            }
            for k in 0..<needed {
                let zr = zSumRe[k - k0], zi = zSumIm[k - k0]
                let wr = zSumRe[-k - k0], wi = zSumIm[-k - k0] // conj(Z[−k]) = (wr, −wi)
                blockRe[p * needed + k] = 0.5 * (zr + wr)
                blockIm[p * needed + k] = 0.5 * (zi - wi)
                if q >= 0 {
                    // (Z[k] − conj Z[−k]) / (2i)
                    blockRe[q * needed + k] = 0.5 * (zi + wi)
                    blockIm[q * needed + k] = -0.5 * (zr - wr)
                }
            }
            pair += 2
        }

        // Segment j = block j + block j+1 (shifted by h; for odd L without its last sample),
        // then the periodic Hann window in frequency: X[k] = U[k]/2 − U[k−2]/4 − U[k+2]/4.
        var power = [Double](repeating: 0, count: bins)
        var uRe = [Double](repeating: 0, count: needed), uIm = uRe
        let odd = l % 2 == 1
        for s in 0..<segments {
            let next = s + 1
            let lastIndex = s * h + l // sample dropped from block s+1 when L is odd
            var dropped = 0.0
            if odd && lastIndex < n { values(lastIndex, 1, valuesP); dropped = valuesP[0] }
            for k in 0..<needed {
                var br = blockRe[next * needed + k], bi = blockIm[next * needed + k]
                if odd && dropped != 0 {
                    let r = (k * (h - 1)) % f
                    let phi = -2 * Double.pi * Double(r) / Double(f)
                    br -= dropped * cos(phi)
                    bi -= dropped * sin(phi)
                }
                let r = (k * h) % f
                let phi = -2 * Double.pi * Double(r) / Double(f)
                let tr = cos(phi), ti = sin(phi)
                uRe[k] = blockRe[s * needed + k] + tr * br - ti * bi
                uIm[k] = blockIm[s * needed + k] + tr * bi + ti * br
            }
            for k in 0..<bins {
                // U[−k] = conj U[k].
                let lowRe = uRe[abs(k - 2)], lowIm = k >= 2 ? uIm[k - 2] : -uIm[2 - k]
                let re = 0.5 * uRe[k] - 0.25 * lowRe - 0.25 * uRe[k + 2]
                let im = 0.5 * uIm[k] - 0.25 * lowIm - 0.25 * uIm[k + 2]
                power[k] += re * re + im * im
            }
        }
        // Density scaling with Σw² = 3L/8 (periodic Hann), one-sided doubling, mean.
        let scale = 1.0 / (fs * (3.0 * Double(l) / 8.0)) / Double(segments)
        for k in 0..<bins {
            let doubled = k > 0 && k != f / 2
            power[k] *= doubled ? 2 * scale : scale
        }
        return (frequencies, power)
    }

    /// `W^{k·n₀} = e^{−2πi·(k·n₀ mod F)/F}` for `k < count`: exact (integer-reduced phase) at every
    /// 64th `k`, times an exact table of `W^{j·n₀}`, `j < 64`, in between (one rounding each).
    package static func twiddles(offset n0: Int, count: Int, fftLength f: Int, re: inout [Double], im: inout [Double]) {
        let block = 64
        let reduced = n0 % f
        func exact(_ k: Int) -> (Double, Double) {
            let r = ((k % f) * reduced) % f
            let phi = -2 * Double.pi * Double(r) / Double(f)
            return (cos(phi), sin(phi))
        }
        if reduced == 0 {
            for k in 0..<count { re[k] = 1; im[k] = 0 }
            return
        }
        var smallRe = [Double](repeating: 0, count: block), smallIm = smallRe
        for j in 0..<min(block, count) { (smallRe[j], smallIm[j]) = exact(j) }
        var k0 = 0
        while k0 < count {
            let (er, ei) = exact(k0)
            for j in 0..<min(block, count - k0) {
                re[k0 + j] = er * smallRe[j] - ei * smallIm[j]
                im[k0 + j] = er * smallIm[j] + ei * smallRe[j]
            }
            k0 += block
        }
    }

    /// `c(q) = e^{−iπ q²/F}` for `q < count`. Every 64th value is exact (phase `π·(q² mod 2F)/F`
    /// reduced in integers); in between, `c(q₀ + j) = c(q₀)·e^{−iπ j²/F}·g^j` with
    /// `g = e^{−2πi q₀/F}` and an exact table for `j < 64`, so the error stays at a few ulps.
    package static func chirp(count: Int, fftLength f: Int, re: inout [Double], im: inout [Double]) {
        let block = 64
        let twoF = 2 * f
        func exact(_ q: Int) -> (Double, Double) {
            let r = (q % twoF) * (q % twoF) % twoF
            let theta = Double.pi * Double(r) / Double(f)
            return (cos(theta), -sin(theta))
        }
        var smallRe = [Double](repeating: 0, count: block), smallIm = smallRe
        for j in 0..<block { (smallRe[j], smallIm[j]) = exact(j) }
        var q0 = 0
        while q0 < count {
            let (c0r, c0i) = exact(q0)
            let phase = -2 * Double.pi * Double(q0 % f) / Double(f)
            let gr = cos(phase), gi = sin(phase)
            var pr = 1.0, pi = 0.0 // g^j
            for j in 0..<min(block, count - q0) {
                // c(q₀)·e(j)
                let ar = c0r * smallRe[j] - c0i * smallIm[j]
                let ai = c0r * smallIm[j] + c0i * smallRe[j]
                re[q0 + j] = ar * pr - ai * pi
                im[q0 + j] = ar * pi + ai * pr
                let nr = pr * gr - pi * gi
                pi = pr * gi + pi * gr
                pr = nr
            }
            q0 += block
        }
    }

    /// The smallest 2ᵃ3ᵇ5ᶜ ≥ n.
    package static func smoothLength(atLeast n: Int) -> Int {
        var best = Int.max
        var p2 = 1
        while p2 < 2 * n {
            var p3 = p2
            while p3 < 2 * n {
                var p5 = p3
                while p5 < n { p5 *= 5 }
                best = min(best, p5)
                p3 *= 3
            }
            p2 *= 2
        }
        return best
    }
}

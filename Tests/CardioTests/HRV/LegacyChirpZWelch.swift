import DSP
import Foundation

@testable import Cardio

/// The whole-series chirp-z Welch of `ChirpZWelch` before it was made to work block by block
/// (commit 6dbe81a): every block of `h` samples transformed at once from a materialised series.
/// Kept in the tests only, as the reference the streaming path must reproduce.
enum LegacyChirpZWelch {
    /// PSD at `k·fs/fftLength` for the `k` with that frequency ≤ `maximumFrequency`.
    /// - Precondition: `4 ≤ segmentLength ≤ x.count`, `fftLength == 2·segmentLength`.
    static func psd(
        _ x: [Double], segmentLength l: Int, fftLength f: Int, sampleRate fs: Double,
        maximumFrequency: Double
    ) -> (frequencies: [Double], power: [Double]) {
        precondition(l >= 4 && l <= x.count && f == 2 * l)
        // rfftfreq(f, 1/fs), as NumPy evaluates it.
        let binWidth = 1.0 / (Double(f) * (1.0 / fs))
        var bins = 0
        while bins <= f / 2 && Double(bins) * binWidth <= maximumFrequency { bins += 1 }
        let frequencies = (0..<bins).map { Double($0) * binWidth }
        guard bins > 0 else { return ([], []) }

        let h = l - l / 2 // hop = half-block length
        let segments = (x.count - l) / h + 1
        let blockCount = segments + 1
        let needed = bins + 2 // A_j[k], k ∈ [0, K+2)
        let k0 = -(needed - 1) // chirp-z outputs k ∈ [k0, needed − 1]
        let outputs = 2 * needed - 1
        let m = ChirpZWelch.smoothLength(atLeast: outputs + h - 1)
        let fft = ComplexFFT<Double>(count: m)

        // c(q) = W^{q²/2} = e^{−iπ q²/F}, |q| ≤ K + h + 2.
        let chirpCount = needed + h + 1
        var chirpRe = [Double](repeating: 0, count: chirpCount)
        var chirpIm = [Double](repeating: 0, count: chirpCount)
        ChirpZWelch.chirp(count: chirpCount, fftLength: f, re: &chirpRe, im: &chirpIm)
        let work = Double._allocate(2 * m)
        let filter = Double._allocate(2 * m)
        let spectrum = Double._allocate(2 * m)
        defer { Double._free(work); Double._free(filter); Double._free(spectrum) }

        // b'[p] = conj c(p + k0 − h + 1), p < outputs + h − 1; B' = FFT(b').
        work.initialize(repeating: 0, count: 2 * m)
        for p in 0..<(outputs + h - 1) {
            let q = abs(p + k0 - h + 1)
            work[2 * p] = chirpRe[q]
            work[2 * p + 1] = -chirpIm[q]
        }
        fft.transform(work, into: filter)

        // A_j[k] for every block, k ∈ [0, needed): real and imaginary parts.
        var blockRe = [Double](repeating: 0, count: blockCount * needed)
        var blockIm = [Double](repeating: 0, count: blockCount * needed)
        let inverseM = 1.0 / Double(m)
        x.withUnsafeBufferPointer { xs in
            var pair = 0
            while pair < blockCount {
                let p = pair, q = pair + 1 < blockCount ? pair + 1 : -1
                // a[n] = (x_p[n] + i·x_q[n])·c(n).
                for n in 0..<h {
                    let ip = p * h + n
                    let re = ip < xs.count ? xs[ip] : 0
                    var im = 0.0
                    if q >= 0 { let iq = q * h + n; im = iq < xs.count ? xs[iq] : 0 }
                    work[2 * n] = re * chirpRe[n] - im * chirpIm[n]
                    work[2 * n + 1] = re * chirpIm[n] + im * chirpRe[n]
                }
                for i in (2 * h)..<(2 * m) { work[i] = 0 }
                fft.transform(work, into: spectrum)
                for j in 0..<m {
                    let ar = spectrum[2 * j], ai = spectrum[2 * j + 1]
                    let br = filter[2 * j], bi = filter[2 * j + 1]
                    spectrum[2 * j] = ar * br - ai * bi
                    spectrum[2 * j + 1] = ar * bi + ai * br
                }
                fft.transform(spectrum, into: work, inverse: true)
                // Z[k0 + j] = c(k0 + j)·conv[j + h − 1]/M.
                @inline(__always) func z(_ k: Int) -> (Double, Double) {
                    let j = k - k0
                    let cr = chirpRe[abs(k)], ci = chirpIm[abs(k)]
                    let vr = work[2 * (j + h - 1)] * inverseM, vi = work[2 * (j + h - 1) + 1] * inverseM
                    return (cr * vr - ci * vi, cr * vi + ci * vr)
                }
                for k in 0..<needed {
                    let (zr, zi) = z(k)
                    let (wr, wi) = z(-k) // conj(Z[−k]) = (wr, −wi)
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
        }

        // Segment j = block j + block j+1 (shifted by h; for odd L without its last sample),
        // then the periodic Hann window in frequency: X[k] = U[k]/2 − U[k−2]/4 − U[k+2]/4.
        var power = [Double](repeating: 0, count: bins)
        var uRe = [Double](repeating: 0, count: needed), uIm = uRe
        let odd = l % 2 == 1
        for s in 0..<segments {
            let next = s + 1
            let lastIndex = s * h + l // sample dropped from block s+1 when L is odd
            let dropped = odd && lastIndex < x.count ? x[lastIndex] : 0
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

}

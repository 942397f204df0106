import DSP

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The breathing rate of one respiratory signal over one window: the signal (irregular
/// beat-by-beat values) linearly interpolated onto a uniform grid over the window and a margin
/// each side, band-passed to 0.1–0.7 Hz forward and backward (Butterworth), cut to the window,
/// its linear trend removed, Hann-windowed, and the periodogram's largest peak between 0.1 and 0.7 Hz (6–42 breaths/min)
/// refined by a parabola through its neighbours; its quality is the spectral purity (the share
/// of the 0.05–1 Hz power within ±2 / window of the peak: 1 for a pure oscillation, about 0.2
/// for white noise).
///
/// Method: spectral-peak estimation of respiratory rate from a resampled respiratory-induced
/// variation, as compared in P. H. Charlton et al., "An assessment of algorithms to estimate
/// respiratory rate from the electrocardiogram and photoplethysmogram", Physiological
/// Measurement 37(4):610–626 (2016), doi:10.1088/0967-3334/37/4/610, and used per 32-s window by
/// W. Karlen, S. Raman, J. M. Ansermino, G. A. Dumont, "Multiparameter respiratory rate
/// estimation from the photoplethysmogram", IEEE Trans Biomed Eng 60(7):1946–1953 (2013),
/// doi:10.1109/TBME.2013.2246160.
struct RespiratorySpectrum {
    /// The zero-phase Butterworth band-pass (second order per edge, forward and backward) to
    /// the searched band at `gridHz`, or `nil` when the grid cannot hold it.
    static func bandPass(gridHz: Double) -> ZeroPhaseSOSFilter? {
        guard let design = try? ButterworthDesign(order: 2, band: .bandPass(low: band.low, high: band.high), sampleRate: gridHz)
        else { return nil }
        return ZeroPhaseSOSFilter(design.sos)
    }

    /// Lowest and highest breathing frequency searched, Hz.
    static let band = (low: 0.1, high: 0.7)
    /// The band over which purity's total power is taken, Hz.
    static let purityBand = (low: 0.05, high: 1.0)
    /// Frequency step of the evaluated spectrum, Hz (zero padding to about 1/256 Hz).
    static let step = 1.0 / 256

    /// The estimate: rate (breaths/min) and spectral purity (0–1), or `nil` when the signal has
    /// no variation.
    /// - Parameters:
    ///   - times: the values' times, s, increasing.
    ///   - values: the values (finite).
    ///   - start: the window's start, s.
    ///   - seconds: the window's length, s.
    ///   - gridHz: the grid's rate, Hz.
    ///   - margin: the context each side of the window, s (filter transients).
    /// - Complexity: O(grid points × evaluated frequencies) (128 × 244 at the defaults).
    static func estimate(
        times: [Double], values: [Double], start: Double, seconds: Double, margin: Double, gridHz: Double
    ) -> (breathsPerMinute: Double, purity: Double)? {
        let n = Int((seconds * gridHz).rounded(.down))
        let pad = Int((margin * gridHz).rounded(.down))
        guard n >= 8, times.count >= 2 else { return nil }
        var padded = [Double](repeating: 0, count: n + 2 * pad)
        // Linear interpolation over the window and its margins; outside the values' span the
        // nearest value is held.
        var j = 0
        for i in 0..<padded.count {
            let t = start + Double(i - pad) / gridHz
            while j + 1 < times.count && times[j + 1] <= t { j += 1 }
            if t <= times[0] {
                padded[i] = values[0]
            } else if j + 1 >= times.count {
                padded[i] = values[times.count - 1]
            } else {
                let t0 = times[j], t1 = times[j + 1]
                let w = t1 > t0 ? (t - t0) / (t1 - t0) : 0
                padded[i] = values[j] + w * (values[j + 1] - values[j])
            }
        }
        // Zero-phase band-pass to the breathing band over the window and its margins (the
        // margins take the filter's edge transients), then the window itself.
        let m = padded.reduce(0, +) / Double(padded.count)
        for i in padded.indices { padded[i] -= m }
        guard let filter = bandPass(gridHz: gridHz), padded.count > filter.padLength,
            let filtered = try? filter.apply(padded)
        else { return nil }
        var grid = Array(filtered[pad..<(pad + n)])
        // Linear trend (least squares) removed, then a Hann window.
        let mid = Double(n - 1) / 2
        var sx = 0.0, sxy = 0.0, sy = 0.0
        for i in 0..<n {
            let x = Double(i) - mid
            sy += grid[i]
            sxy += x * grid[i]
            sx += x * x
        }
        let mean = sy / Double(n), slope = sxy / sx
        var energy = 0.0
        for i in 0..<n {
            let x = Double(i) - mid
            let hann = 0.5 - 0.5 * cos(2 * Double.pi * Double(i) / Double(n - 1))
            grid[i] = (grid[i] - mean - slope * x) * hann
            energy += grid[i] * grid[i]
        }
        guard energy > 0, energy.isFinite else { return nil }
        let firstBin = Int((purityBand.low / step).rounded(.up)), lastBin = Int((purityBand.high / step).rounded(.down))
        var power = [Double](repeating: 0, count: lastBin - firstBin + 1)
        for b in firstBin...lastBin {
            let w = 2 * Double.pi * Double(b) * step / gridHz
            // Goertzel recursion: |Σ x_i e^{-iwi}|².
            let c = 2 * cos(w)
            var s1 = 0.0, s2 = 0.0
            for x in grid {
                let s0 = x + c * s1 - s2
                s2 = s1
                s1 = s0
            }
            power[b - firstBin] = s1 * s1 + s2 * s2 - c * s1 * s2
        }
        let lowBin = Int((band.low / step).rounded(.up)), highBin = Int((band.high / step).rounded(.down))
        var peak = lowBin
        for b in lowBin...highBin where power[b - firstBin] > power[peak - firstBin] { peak = b }
        let total = power.reduce(0, +)
        guard total > 0 else { return nil }
        // Parabolic refinement of the peak (not across the band's edges).
        var f = Double(peak) * step
        if peak > lowBin && peak < highBin {
            let a = power[peak - 1 - firstBin], b = power[peak - firstBin], c = power[peak + 1 - firstBin]
            let den = a - 2 * b + c
            if den < 0 { f += min(max(0.5 * (a - c) / den, -0.5), 0.5) * step }
        }
        let reach = Int((2 / seconds / step).rounded())
        var near = 0.0
        for b in max(firstBin, peak - reach)...min(lastBin, peak + reach) { near += power[b - firstBin] }
        return (f * 60, near / total)
    }
}

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
/// Two respiratory quality indices come with it, both of the band-passed, detrended window
/// before the Hann window: the autocorrelation at the lag of the peak's period (a respiratory
/// oscillation repeats there: about 0.6–0.9 for breathing in beat-to-beat noise, below 0.45 in
/// 99 % of band-passed noise windows; Birrenkott et al. 2016/2018's autocorrelation RQI), and the
/// rate from counting breaths in the time domain (60 / mean interval between upward zero
/// crossings; Schäfer & Kratky 2008's count method), which agrees with the spectral peak for a
/// respiratory oscillation but not for band-passed noise (whose crossings follow the band's
/// centre while its peak wanders).
///
/// Method: spectral-peak estimation of respiratory rate from a resampled respiratory-induced
/// variation, as compared in P. H. Charlton et al., "An assessment of algorithms to estimate
/// respiratory rate from the electrocardiogram and photoplethysmogram", Physiological
/// Measurement 37(4):610–626 (2016), doi:10.1088/0967-3334/37/4/610, and used per 32-s window by
/// W. Karlen, S. Raman, J. M. Ansermino, G. A. Dumont, "Multiparameter respiratory rate
/// estimation from the photoplethysmogram", IEEE Trans Biomed Eng 60(7):1946–1953 (2013),
/// doi:10.1109/TBME.2013.2246160. Quality indices: D. A. Birrenkott, M. A. F. Pimentel, P. J.
/// Watkinson, D. A. Clifton, "Robust estimation of respiratory rate via ECG- and PPG-derived
/// respiratory quality indices", IEEE EMBC 2016:676–679, doi:10.1109/EMBC.2016.7590792, and "A
/// robust fusion model for estimating respiratory rate from photoplethysmography and
/// electrocardiography", IEEE Trans Biomed Eng 65(9):2033–2041 (2018),
/// doi:10.1109/TBME.2017.2778265; A. Schäfer, K. W. Kratky, "Estimation of breathing rate from
/// respiratory sinus arrhythmia: comparison of various methods", Ann Biomed Eng 36(3):476–485
/// (2008), doi:10.1007/s10439-007-9428-1.
struct RespiratorySpectrum {
    /// One window's estimate and its quality indices.
    struct Estimate: Sendable, Hashable {
        /// The spectral peak, breaths/min.
        var breathsPerMinute: Double
        /// Spectral purity, 0–1.
        var purity: Double
        /// Autocorrelation of the band-passed window at the lag of the peak's period, −1…1.
        var autocorrelation: Double
        /// 60 / mean interval between upward zero crossings of the band-passed window,
        /// breaths/min, or `nil` with fewer than 3 crossings.
        var countedBreathsPerMinute: Double?
        /// The periodogram at multiples of ``step`` over ``purityBand``, normalised to sum 1 (for
        /// spectral fusion, ``fusedPeak(_:seconds:)``).
        var spectrum: [Double] = []
        /// The band-passed, detrended window on the grid (before the Hann window).
        var signal: [Double] = []
    }

    /// The zero-phase Butterworth band-pass (second order per edge, forward and backward) to
    /// the searched band at `gridHz`, or `nil` when the grid cannot hold it.
    static func bandPass(gridHz: Double) -> ZeroPhaseSOSFilter? {
        guard let design = try? ButterworthDesign(order: 2, band: .bandPass(low: band.low, high: band.high), sampleRate: gridHz)
        else { return nil }
        return ZeroPhaseSOSFilter(design.sos)
    }

    /// The Hann window of `n` points, 0.5 − 0.5 cos(2πi / (n − 1)) (as ``estimate(times:values:start:seconds:margin:gridHz:filter:hann:)`` applies it).
    static func hann(_ n: Int) -> [Double] {
        (0..<n).map { 0.5 - 0.5 * cos(2 * Double.pi * Double($0) / Double(n - 1)) }
    }

    /// Lowest and highest breathing frequency searched, Hz.
    static let band = (low: 0.1, high: 0.7)
    /// The band over which purity's total power is taken, Hz.
    static let purityBand = (low: 0.05, high: 1.0)
    /// Frequency step of the evaluated spectrum, Hz (zero padding to about 1/256 Hz).
    static let step = 1.0 / 256

    /// The estimate: rate (breaths/min), spectral purity (0–1) and the quality indices, or `nil`
    /// when the signal has no variation.
    /// - Parameters:
    ///   - times: the values' times, s, increasing.
    ///   - values: the values (finite).
    ///   - start: the window's start, s.
    ///   - seconds: the window's length, s.
    ///   - gridHz: the grid's rate, Hz.
    ///   - filter: the band-pass at `gridHz` when already designed (``bandPass(gridHz:)``), else designed here.
    ///   - window: the Hann window of the window's grid points when already computed (``hann(_:)``), else computed here.
    ///   - margin: the context each side of the window, s (filter transients).
    /// - Complexity: O(m log m) with m = gridHz / step (one 1024-point FFT at the defaults), else
    ///   O(grid points × evaluated frequencies).
    static func estimate(
        times: [Double], values: [Double], start: Double, seconds: Double, margin: Double, gridHz: Double,
        filter designed: ZeroPhaseSOSFilter? = nil, hann window: [Double]? = nil
    ) -> Estimate? {
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
        guard let filter = designed ?? bandPass(gridHz: gridHz), padded.count > filter.padLength,
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
        for i in 0..<n { grid[i] -= mean + slope * (Double(i) - mid) }
        let detrended = grid
        var energy = 0.0
        for i in 0..<n {
            let hann = window?.count == n ? window![i] : 0.5 - 0.5 * cos(2 * Double.pi * Double(i) / Double(n - 1))
            grid[i] *= hann
            energy += grid[i] * grid[i]
        }
        guard energy > 0, energy.isFinite else { return nil }
        let firstBin = Int((purityBand.low / step).rounded(.up)), lastBin = Int((purityBand.high / step).rounded(.down))
        var power = [Double](repeating: 0, count: lastBin - firstBin + 1)
        // The zero-padded DFT at multiples of `step`: one real FFT of gridHz / step points when
        // that is a whole number (FFTW, plan cached), else the Goertzel recursion per bin.
        let fftLength = gridHz / step
        if fftLength == fftLength.rounded(), Int(fftLength) >= n, Int(fftLength) / 2 >= lastBin {
            var input = [Double](repeating: 0, count: Int(fftLength))
            for i in 0..<n { input[i] = grid[i] }
            let spectrum = RealFFT<Double>(count: input.count).forward(input)
            for b in firstBin...lastBin {
                power[b - firstBin] = spectrum[2 * b] * spectrum[2 * b] + spectrum[2 * b + 1] * spectrum[2 * b + 1]
            }
        } else {
            goertzel(grid, gridHz: gridHz, firstBin: firstBin, into: &power)
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
        return Estimate(
            breathsPerMinute: f * 60, purity: near / total,
            autocorrelation: autocorrelation(detrended, lag: gridHz / f),
            countedBreathsPerMinute: countedRate(detrended, gridHz: gridHz), spectrum: power.map { $0 / total },
            signal: detrended)
    }

    /// Spectral fusion: the mean of normalised spectra (``Estimate/spectrum``; several
    /// modulations and adjacent windows), its largest peak in ``band`` refined by a parabola, and
    /// two indices of the peak: its concentration — the share of the mean spectrum within
    /// ±1 / (2 × window) Hz of the peak (about the Hann window's half main lobe: a respiratory
    /// rhythm the modulations share stands out; independent noise spectra average to the
    /// band-pass's smooth shape) — and its local concentration, the share of the mean spectrum
    /// within ±3 / window Hz of the peak that lies within ±1 / (2 × window) Hz of it (a narrow
    /// peak above its own neighbourhood; the broad low-frequency hump of drifting amplitudes,
    /// which can hold a large share of the band, spreads over its neighbourhood). The local
    /// index has the form of a spectral signal-to-noise ratio: the power in a narrow band at the
    /// peak against the power of a wider band around it (G. de Haan, V. Jeanne, "Robust pulse
    /// rate from chrominance-based rPPG", IEEE Trans Biomed Eng 60(10):2878–2886 (2013),
    /// doi:10.1109/TBME.2013.2266196, whose SNR compares the power at the pulse peak with the
    /// rest of the band).
    ///
    /// Methods: spectral fusion of respiratory modulations — the mean of their normalised spectra
    /// before peak picking (S. Nemati, A. Malhotra, G. D. Clifford, "Data fusion for improved
    /// respiration rate estimation", EURASIP J Adv Signal Process 2010:926305 (2010),
    /// doi:10.1155/2010/926305; one of the fusion techniques of Charlton et al. 2016) — averaged
    /// over adjacent windows as Welch's method averages periodograms of successive segments
    /// (P. D. Welch, IEEE Trans Audio Electroacoust 15(2):70–73 (1967)).
    /// - Parameters:
    ///   - spectra: normalised spectra, each over ``purityBand`` at ``step`` (non-empty, equal
    ///     lengths).
    ///   - seconds: the window's length, s (sets the concentration's reach).
    /// - Returns: rate (breaths/min), concentration and local concentration (each 0–1), or `nil`
    ///   for no spectrum.
    /// - Complexity: O(spectra × bins).
    static func fusedPeak(
        _ spectra: [[Double]], seconds: Double
    ) -> (breathsPerMinute: Double, concentration: Double, local: Double)? {
        guard let count = spectra.first?.count, count > 0 else { return nil }
        var mean = [Double](repeating: 0, count: count)
        for s in spectra where s.count == count { for i in 0..<count { mean[i] += s[i] } }
        return mean.withUnsafeBufferPointer { peak(of: $0, seconds: seconds) }
    }

    /// The peak of one spectrum (already the mean): ``fusedPeak(_:seconds:)`` without the
    /// averaging, so a single spectrum is read in place.
    /// - Complexity: O(bins).
    private static func peak(
        of mean: UnsafeBufferPointer<Double>, seconds: Double
    ) -> (breathsPerMinute: Double, concentration: Double, local: Double)? {
        let count = mean.count
        let total = mean.reduce(0, +)
        guard total > 0, total.isFinite else { return nil }
        let firstBin = Int((purityBand.low / step).rounded(.up))
        let lowBin = Int((band.low / step).rounded(.up)), highBin = Int((band.high / step).rounded(.down))
        var peak = lowBin
        for b in lowBin...highBin where mean[b - firstBin] > mean[peak - firstBin] { peak = b }
        var f = Double(peak) * step
        if peak > lowBin && peak < highBin {
            let a = mean[peak - 1 - firstBin], b = mean[peak - firstBin], c = mean[peak + 1 - firstBin]
            let den = a - 2 * b + c
            if den < 0 { f += min(max(0.5 * (a - c) / den, -0.5), 0.5) * step }
        }
        let reach = Int((1 / (2 * seconds) / step).rounded())
        var near = 0.0
        for b in max(firstBin, peak - reach)...min(firstBin + count - 1, peak + reach) { near += mean[b - firstBin] }
        var around = 0.0
        for b in max(firstBin, peak - 6 * reach)...min(firstBin + count - 1, peak + 6 * reach) { around += mean[b - firstBin] }
        return (f * 60, near / total, around > 0 ? near / around : 0)
    }

    /// The most concentrated single modulation's peak: ``fusedPeak(_:seconds:)`` of each
    /// spectrum on its own (each a modulation's normalised spectra averaged over adjacent
    /// windows), the one with the largest concentration (the first of equals). A respiratory
    /// peak that one modulation carries cleanly is diluted in the mean of all the modulations'
    /// spectra by the others' noise; judged on its own, at the largest value its index reaches
    /// over simulated windows without breathing (which, taken over every modulation, includes
    /// the choice of the best), it is found. The concentration is the peakness by which
    /// peak-conditioned spectral averaging admits a derived respiratory signal's spectrum
    /// (R. Bailón, L. Sörnmo, P. Laguna, "A robust method for ECG-based estimation of the
    /// respiratory frequency during stress testing", IEEE Trans Biomed Eng 53(7):1273–1285
    /// (2006), doi:10.1109/TBME.2006.871888).
    /// - Returns: rate (breaths/min), concentration and local concentration, or `nil` without a
    ///   spectrum.
    /// - Complexity: O(spectra × bins).
    static func modulationPeak(
        _ spectra: [[Double]], seconds: Double
    ) -> (breathsPerMinute: Double, concentration: Double, local: Double)? {
        var best: (breathsPerMinute: Double, concentration: Double, local: Double)?
        for s in spectra where !s.isEmpty {
            // One spectrum is its own mean (0 + s[i] is s[i] exactly).
            guard let p = s.withUnsafeBufferPointer({ peak(of: $0, seconds: seconds) }) else { continue }
            if p.concentration > best?.concentration ?? -1 { best = p }
        }
        return best
    }

    /// The product spectrum's peak: the geometric mean over the spectra (each normalised to
    /// unit sum; a floor of 1e-12 keeps the logarithm finite) peak-picked by
    /// ``fusedPeak(_:seconds:)``. Multiplying the spectra of several respiratory modulations
    /// keeps a peak they share and suppresses the peaks each one's own noise puts elsewhere
    /// (S. Nemati, A. Malhotra, G. D. Clifford, "Data fusion for improved respiration rate
    /// estimation", EURASIP J Adv Signal Process 2010:926305 (2010), doi:10.1155/2010/926305,
    /// spectral multiplication of the ECG- and PPG-derived spectra).
    /// - Returns: rate (breaths/min), concentration and local concentration, or `nil` for no
    ///   spectrum.
    /// - Complexity: O(spectra × bins).
    static func productPeak(
        _ spectra: [[Double]], seconds: Double
    ) -> (breathsPerMinute: Double, concentration: Double, local: Double)? {
        guard let count = spectra.first?.count, count > 0 else { return nil }
        var logs = [Double](repeating: 0, count: count)
        var n = 0
        for s in spectra where s.count == count {
            let total = s.reduce(0, +)
            guard total > 0, total.isFinite else { continue }
            for b in 0..<count { logs[b] += log(s[b] / total + 1e-12) }
            n += 1
        }
        guard n > 0 else { return nil }
        for b in 0..<count { logs[b] = exp(logs[b] / Double(n)) }
        return logs.withUnsafeBufferPointer { peak(of: $0, seconds: seconds) }
    }

    /// |Σ x_i e^{−iωi}|² at ω = 2π·b·step/gridHz for the bins from `firstBin` on (Goertzel).
    /// - Complexity: O(bins × n).
    static func goertzel(_ grid: [Double], gridHz: Double, firstBin: Int, into power: inout [Double]) {
        for j in power.indices {
            let w = 2 * Double.pi * Double(firstBin + j) * step / gridHz
            let c = 2 * cos(w)
            var s1 = 0.0, s2 = 0.0
            for x in grid {
                let s0 = x + c * s1 - s2
                s2 = s1
                s1 = s0
            }
            power[j] = s1 * s1 + s2 * s2 - c * s1 * s2
        }
    }

    /// The sample autocorrelation (Σ x_i x_{i+lag} / Σ x_i²; Box & Jenkins) at a fractional lag,
    /// linearly interpolated between the neighbouring whole lags; 0 past the signal's length.
    /// - Complexity: O(n).
    static func autocorrelation(_ x: [Double], lag: Double) -> Double {
        let energy = x.reduce(0) { $0 + $1 * $1 }
        guard energy > 0, lag >= 0 else { return 0 }
        func at(_ k: Int) -> Double {
            guard k < x.count else { return 0 }
            var s = 0.0
            for i in 0..<(x.count - k) { s += x[i] * x[i + k] }
            return s / energy
        }
        let k = Int(lag.rounded(.down)), w = lag - Double(k)
        return at(k) * (1 - w) + at(k + 1) * w
    }

    /// Breaths counted in the time domain: 60 / the mean interval between upward zero crossings
    /// (each placed by linear interpolation), breaths/min; `nil` with fewer than 3 crossings.
    /// - Complexity: O(n).
    static func countedRate(_ x: [Double], gridHz: Double) -> Double? {
        var first = Double.nan, last = Double.nan, crossings = 0
        for i in 1..<x.count where x[i - 1] < 0 && x[i] >= 0 {
            let t = Double(i - 1) + (-x[i - 1]) / (x[i] - x[i - 1])
            if crossings == 0 { first = t }
            last = t
            crossings += 1
        }
        guard crossings >= 3 else { return nil }
        return 60 * gridHz * Double(crossings - 1) / (last - first)
    }
}

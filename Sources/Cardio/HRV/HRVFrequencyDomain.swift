import DSP

#if canImport(Glibc)
    import Glibc
#endif

/// Frequency-domain HRV: power of the NN series in the ULF, VLF, LF, HF and VHF bands (ms²),
/// named and computed as NeuroKit2's `hrv_frequency` (0.2.13) with `normalize=False`.
///
/// **Welch** (default, NeuroKit2's pipeline step by step): the NN intervals are placed at their
/// closing-beat times and resampled at `fs` = 100 Hz on `t₀ + k/fs` (up to and including the
/// first point at or past the last beat) by quadratic-spline interpolation
/// (``QuadraticInterpolatingSpline``, SciPy's `interp1d(kind='quadratic')`); the mean is removed;
/// the lowest frequency analysed is `f_min = 4·fs/N` (`N` resampled points, about 4/duration);
/// Welch's method uses segments of `⌊N/2⌋` points with 50 % overlap, a periodic Hann window, no
/// detrending, an FFT of twice the segment length, density scaling (`scipy.signal.welch`); only
/// the bins up to 0.5 Hz are evaluated (``ChirpZWelch``, equal to DSP's ``Welch`` on those bins).
/// A resampled series of up to 2^20 points (2.9 h at 100 Hz, 8 MB) is evaluated once and kept
/// for the mean and the spectrum; a longer one (8.6 M points for 24 h) is never stored: the
/// spline is evaluated chunk by chunk, once for the mean and once for the spectrum, so memory
/// stays O(beats + 2^20), not O(duration·fs). Both paths give the same bits.
/// **Lomb–Scargle**: the generalised periodogram (DSP ``LombScargle``, floating mean) of the
/// intervals at their beat times on astropy's `autofrequency` grid (step `1/(5·T)`) from
/// `f_min = 4·median(Δt)/N`, scaled as a one-sided PSD in ms²/Hz.
///
/// Band power is the trapezoidal integral of the PSD over the frequencies `f_min ≤ f ≤ 0.5` Hz
/// that lie in `[lower, upper)` (no interpolation at band edges, as NeuroKit2); a band with fewer
/// than two such frequencies is `NaN`. `TP` is the sum of the five bands (NaN bands skipped),
/// `LFHF = LF/HF`, `LFn = LF/TP`, `HFn = HF/TP`, `LnHF = ln HF`.
///
/// Definitional differences, all documented choices of NeuroKit2 that SensorPipe keeps for
/// comparability, except the first:
/// - NeuroKit2's default `normalize=True` divides the PSD by its maximum, making band powers
///   unitless; SensorPipe reports ms² (NeuroKit2's `normalize=False`). Ratios are unaffected.
/// - NeuroKit2's Lomb–Scargle uses astropy's `'psd'` normalisation (ms², not ms²/Hz), so its
///   band "powers" are in ms²·Hz; SensorPipe's equal NeuroKit2's times `2/f̄`, `f̄` the mean
///   beat rate `(n − 1)/(t_last − t_first)`, which makes them comparable with Welch's.
/// - TP includes ULF and VHF and `LFn`, `HFn` are fractions of TP (the Task Force normalises by
///   `TP − VLF` and reports percentages).
///
/// Sources: Task Force (1996), Circulation 93(5):1043–1065, doi:10.1161/01.CIR.93.5.1043
/// (bands). P. D. Welch (1967), doi:10.1109/TAU.1967.1161901. Lomb (1976),
/// doi:10.1007/BF00648343; Scargle (1982), doi:10.1086/160554; G. D. Clifford and
/// L. Tarassenko, "Quantifying errors in spectral estimates of HRV due to beat replacement and
/// resampling", IEEE Trans. Biomed. Eng. 52(4):630–638, 2005, doi:10.1109/TBME.2005.844028.
/// D. Makowski et al., NeuroKit2, Behav. Res. Methods 53:1689–1696, 2021,
/// doi:10.3758/s13428-020-01516-y.
public struct HRVFrequencyDomain: Sendable, Equatable {
    /// Ultra-low-frequency power, ms² (NaN unless the series is long enough).
    public var ulf: Double
    /// Very-low-frequency power, ms².
    public var vlf: Double
    /// Low-frequency power, ms².
    public var lf: Double
    /// High-frequency power, ms².
    public var hf: Double
    /// Very-high-frequency power, ms².
    public var vhf: Double
    /// Total power (sum of the five bands), ms².
    public var tp: Double
    /// LF / HF.
    public var lfhf: Double
    /// LF / TP.
    public var lfn: Double
    /// HF / TP.
    public var hfn: Double
    /// ln(HF), HF in ms².
    public var lnhf: Double
    /// Lowest frequency analysed, Hz.
    public var minimumFrequencyHz: Double

    /// NeuroKit2's column names, in its order.
    public static let metricNames = ["ULF", "VLF", "LF", "HF", "VHF", "TP", "LFHF", "LFn", "HFn", "LnHF"]

    /// Computes the frequency-domain measures of a series.
    /// - Parameters:
    ///   - series: NN intervals (ms) and beat times (s); at least 3 intervals.
    ///   - options: estimator, resampling rate and bands (default: NeuroKit2's Welch).
    /// - Throws: ``HRVError`` if the series has fewer than 3 intervals or is too short for a
    ///   spectrum (fewer than 8 resampled points).
    /// - Complexity: Welch: O(n + N log K) time for `N = duration · interpolationRate` resampled
    ///   points and `K ≈ duration/2` frequencies up to 0.5 Hz, O(n + K + min(N, 2^20)) memory
    ///   (a longer resampled series is evaluated chunk by chunk, never stored). Lomb–Scargle: O(n · F) for
    ///   `F ≈ 2.5 · duration` frequencies up to 0.5 Hz.
    public init(_ series: NNIntervalSeries, options: HRVFrequencyOptions = HRVFrequencyOptions()) throws(HRVError) {
        guard series.count >= 3 else {
            throw HRVError(.tooFewIntervals, "HRV frequency domain: need at least 3 intervals, got \(series.count)")
        }
        let maximumFrequency = options.bands.map(\.upperHz).max()!
        let spectrum: (frequencies: [Double], power: [Double], minimum: Double)
        switch options.method {
        case .welch:
            spectrum = try Self.welchSpectrum(
                series, rate: options.interpolationRate,
                maximumFrequency: maximumFrequency)
        case .lombScargle:
            spectrum = try Self.lombSpectrum(series, maximumFrequency: maximumFrequency)
        }
        self.init(spectrum: spectrum, bands: options.bands)
    }

    /// The measures of a one-sided PSD (ms²/Hz) at ascending frequencies (Hz) from `minimum`.
    init(
        spectrum: (frequencies: [Double], power: [Double], minimum: Double),
        bands: [HRVFrequencyOptions.Band]
    ) {
        var powers = [Double]()
        for band in bands {
            powers.append(Self.bandPower(spectrum.frequencies, spectrum.power, band))
        }
        ulf = powers[0]; vlf = powers[1]; lf = powers[2]; hf = powers[3]; vhf = powers[4]
        var total = 0.0
        for p in powers where !p.isNaN { total += p }
        tp = total
        lfhf = lf / hf
        lfn = lf / total
        hfn = hf / total
        lnhf = log(hf)
        minimumFrequencyHz = spectrum.minimum
    }

    /// The measures as a table with NeuroKit2's names, in ``metricNames`` order.
    /// - Complexity: O(1).
    public var metrics: HRVMetrics {
        HRVMetrics([
            ("ULF", ulf), ("VLF", vlf), ("LF", lf), ("HF", hf), ("VHF", vhf), ("TP", tp),
            ("LFHF", lfhf), ("LFn", lfn), ("HFn", hfn), ("LnHF", lnhf),
        ])
    }

    // MARK: - Internals

    /// Trapezoidal integral over the frequencies in `[lower, upper)`; NaN when it is zero
    /// (fewer than two frequencies), as NeuroKit2.
    static func bandPower(_ f: [Double], _ p: [Double], _ band: HRVFrequencyOptions.Band) -> Double {
        var first = -1, last = -1
        for k in f.indices where f[k] >= band.lowerHz && f[k] < band.upperHz {
            if first < 0 { first = k }
            last = k
        }
        guard first >= 0, last > first else { return .nan }
        var sum = 0.0
        for k in first..<last { sum += (f[k + 1] - f[k]) * (p[k + 1] + p[k]) / 2 }
        return sum == 0 ? .nan : sum
    }

    /// The evenly resampled NN series of NeuroKit2's `intervals_process`, never held whole: points
    /// `t₀ + k·δ`, `δ = (t₀ + 1/fs) − t₀`, `k < ⌈(t_last + 1/fs − t₀)/(1/fs)⌉` (as `numpy.arange`),
    /// evaluated from the spline's pieces on demand.
    struct Resampled {
        let spline: QuadraticInterpolatingSpline
        let start: Double
        let delta: Double
        let count: Int

        init(_ series: NNIntervalSeries, rate: Double) {
            let t = series.closingBeatTimesSeconds
            let step = 1 / rate
            start = t[0]
            count = Int(((t[t.count - 1] + step - start) / step).rounded(.up))
            delta = (start + step) - start
            spline = QuadraticInterpolatingSpline(x: t, y: series.intervalsMilliseconds)
        }

        /// Points `first ..< first + n` into `out`.
        func values(_ first: Int, _ n: Int, into out: UnsafeMutablePointer<Double>) {
            spline.evaluate(start: start, step: delta, firstIndex: first, count: n, into: out)
        }

        /// The mean of all points, summed in index order (as a loop over the whole array).
        func mean() -> Double {
            let chunk = 1 << 14
            let buffer = Double._allocate(chunk)
            defer { Double._free(buffer) }
            var sum = 0.0
            var first = 0
            while first < count {
                let n = min(chunk, count - first)
                values(first, n, into: buffer)
                for i in 0..<n { sum += buffer[i] }
                first += n
            }
            return sum / Double(count)
        }
    }

    static func welchSpectrum(
        _ series: NNIntervalSeries, rate: Double, maximumFrequency: Double,
        chunkLength: Int? = nil, cacheLimit: Int = 1 << 20
    )
        throws(HRVError) -> (frequencies: [Double], power: [Double], minimum: Double)
    {
        let resampled = Resampled(series, rate: rate)
        let n = resampled.count
        guard n >= 8 else { throw HRVError(.tooFewIntervals, "HRV frequency domain: \(n) resampled points, need at least 8") }
        // Up to 2^20 points (8 MB; 2.9 h at 100 Hz), the series is evaluated once and kept: the mean and the Welch segments (which overlap by half) read it instead of
        // evaluating the spline two to three times per point. The values are the same bits.
        if n <= cacheLimit {
            var cached = [Double](repeating: 0, count: n)
            cached.withUnsafeMutableBufferPointer { resampled.values(0, n, into: $0.baseAddress!) }
            var sum = 0.0
            for v in cached { sum += v }
            let mean = sum / Double(n)
            return try welchSpectrum(n: n, rate: rate, maximumFrequency: maximumFrequency, chunkLength: chunkLength) {
                first, count, out in
                cached.withUnsafeBufferPointer { c in
                    for i in 0..<count { out[i] = c[first + i] - mean }
                }
            }
        }
        let mean = resampled.mean()
        return try welchSpectrum(n: n, rate: rate, maximumFrequency: maximumFrequency, chunkLength: chunkLength) {
            first, count, out in
            resampled.values(first, count, into: out)
            for i in 0..<count { out[i] -= mean }
        }
    }

    /// NeuroKit2's Welch PSD of `n` demeaned resampled points that `values(first, count, out)`
    /// writes, on the frequencies from its minimum.
    private static func welchSpectrum(
        n: Int, rate: Double, maximumFrequency: Double, chunkLength: Int?,
        values: (Int, Int, UnsafeMutablePointer<Double>) -> Void
    )
        throws(HRVError) -> (frequencies: [Double], power: [Double], minimum: Double)
    {
        // NeuroKit2's signal_psd: min_frequency = (2·fs)/(N/2), nperseg = int((2/min_f)·fs),
        // capped at int(N/2); nfft = 2·nperseg.
        let half = Double(n) / 2
        let minimum = (2 * rate) / half
        var segment = Int((2 / minimum) * rate)
        if Double(segment) > half { segment = Int(half) }
        let psd = ChirpZWelch.psd(
            count: n, segmentLength: segment, fftLength: 2 * segment, sampleRate: rate,
            maximumFrequency: maximumFrequency, chunkLength: chunkLength
        ) { first, count, out in values(first, count, out) }
        var f = [Double](), p = [Double]()
        for k in psd.frequencies.indices where psd.frequencies[k] >= minimum {
            f.append(psd.frequencies[k])
            p.append(psd.power[k])
        }
        return (f, p, minimum)
    }

    static func lombSpectrum(_ series: NNIntervalSeries, maximumFrequency: Double)
        throws(HRVError) -> (frequencies: [Double], power: [Double], minimum: Double)
    {
        let t = series.closingBeatTimesSeconds
        let n = t.count
        var gaps = [Double](repeating: 0, count: n - 1)
        for i in 0..<(n - 1) { gaps[i] = t[i + 1] - t[i] }
        gaps.sort()
        let medianGap = HRVTimeDomain.percentile(gaps, 50)
        let minimum = (2 * medianGap) / (Double(n) / 2)
        // astropy autofrequency: step 1/(5·baseline), from the given minimum.
        let baseline = t[n - 1] - t[0]
        let step = 1.0 / baseline / 5
        var count = 0
        while minimum + step * Double(count) <= maximumFrequency { count += 1 }
        guard count >= 2 else { throw HRVError(.tooFewIntervals, "HRV frequency domain: series too short for Lomb–Scargle") }
        let periodogram: LombScargle
        do {
            periodogram = try LombScargle(
                timesSeconds: t, values: series.intervalsMilliseconds,
                floatingMean: true)
        } catch { throw HRVError(.spectrum, "HRV frequency domain: \(error.message)") }
        let p = periodogram.power(startHz: minimum, stepHz: step, count: count, normalization: .psd)
        let f = (0..<count).map { minimum + step * Double($0) }
        return (f, p, minimum)
    }
}

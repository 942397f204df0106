#if canImport(Glibc)
    import Glibc
#endif

/// The 22 catch22 features (Lubba et al. 2019, "catch22: CAnonical Time-series CHaracteristics",
/// Data Min. Knowl. Disc. 33, 1821–1852, doi:10.1007/s10618-019-00647-x) of one window, as the
/// reference implementation `pycatch22` 1.0.2 (catch22 C v1.1.0, which follows hctsa v3.0.0,
/// Fulcher & Jones 2017, doi:10.1016/j.cels.2017.10.001) computes them.
///
/// Preprocessing, as catch22: every feature is computed on the z-scored window
/// zᵢ = (xᵢ − x̄)/s with s the sample standard deviation (n − 1). Values are dimensionless, or
/// lags in samples, or angular frequencies in rad/sample (catch22 treats the window as an
/// ordered sequence with unit spacing). Every feature is NaN when the window has fewer than
/// ``minimumCount`` samples or zero variance; the fluctuation-analysis features are also NaN
/// when their integrated series has fewer than 40 samples (fewer than 16 time scales), as in
/// catch22. Definitions and their sources: ``FeatureCatalog/catch22Definitions``.
///
/// Autocorrelations go through zero-padded FFTs on the DSP module's ``RealFFT`` (plans made once
/// per length and kept); scratch memory grows to the longest window seen and is then reused, so
/// a window costs no allocation. A value owns scratch memory: use one per thread.
///
/// - Complexity: O(n log n) per window, plus O(n · t) for the outlier-inclusion features
///   (t ≤ 100·max|zᵢ| thresholds, shrinking candidate sets) and O(20 · n) for the decimation
///   filter of the transition-matrix feature.
public struct Catch22 {
    /// Names, in output order (catch22's order and names).
    public static let names: [String] = [
        "DN_HistogramMode_5", "DN_HistogramMode_10", "DN_OutlierInclude_p_001_mdrmd",
        "DN_OutlierInclude_n_001_mdrmd", "CO_FirstCrossing_acf_1e_pointOfCrossing", "CO_FirstMin_ac",
        "SP_Summaries_fft_area_5_1", "SP_Summaries_fft_wq_50", "FC_LocalSimple_mean3_stde",
        "FC_LocalSimple_mean1_taurat", "MD_pNN_pnn40", "SB_BinaryStats_mean_longstretch1",
        "SB_BinaryStats_diff_longstretch0", "SB_MotifThree_quantile_hh", "CO_HistogramAMI_even_5bin_ami2",
        "CO_trev_1_num", "IN_AutoMutualInfoStats_40_gaussian_fmmi", "SB_TransitionMatrix_quantile_3_ac_sumdiagcov",
        "PD_PeriodicityWang_th0_01", "CO_Embed2_Dist_tau_d_expfit_meandiff",
        "SC_FluctAnal_2_rsrangefit_50_1_logi_prop_r1", "SC_FluctAnal_2_dfa_50_1_2_logi_prop_r1",
    ]

    /// Fewest samples for which the features are computed.
    public static let minimumCount = 10

    var scratch = Catch22Scratch()
    var plans: [Int: RealFFT<Double>] = [:]

    /// Creates an extractor (no memory is reserved until the first window).
    public init() {}

    /// Computes the 22 features of one window.
    /// - Parameters:
    ///   - samples: the window's values in time order (finite).
    ///   - values: receives 22 values in ``names`` order (NaN where undefined).
    /// - Complexity: see the type; no allocation once the scratch fits the window.
    public mutating func extract(_ samples: UnsafeBufferPointer<Double>, into values: UnsafeMutablePointer<Double>) {
        let n = samples.count
        for i in 0..<22 { values[i] = .nan }
        guard n >= Self.minimumCount, let x = samples.baseAddress else { return }
        // A constant window has no z-scores (hctsa's `all(y == y(1))` check).
        var lo = x[0], hi = x[0]
        for i in 1..<n {
            lo = min(lo, x[i])
            hi = max(hi, x[i])
        }
        guard hi > lo else { return }
        if !isKnownUniquelyReferenced(&scratch) { scratch = Catch22Scratch() }
        let s = scratch
        s.reserve(n)
        var mean = 0.0
        for i in 0..<n { mean += x[i] }
        mean /= Double(n)
        var ss = 0.0
        for i in 0..<n { ss += (x[i] - mean) * (x[i] - mean) }
        let sd = (ss / Double(n - 1)).squareRoot()
        guard sd > 0, sd.isFinite else { return }
        let z = s.z
        for i in 0..<n { z[i] = (x[i] - mean) / sd }

        let acfPlan = plan(2 << Catch22Math.log2Ceiling(n))
        Catch22Math.autocorrelation(z, n, fft: acfPlan, work: s.work, spectrum: s.spectrum, into: s.acf)
        let acf = s.acf

        values[0] = Catch22Math.histogramMode(z, n, bins: 5)
        values[1] = Catch22Math.histogramMode(z, n, bins: 10)
        values[2] = Catch22Math.outlierTiming(z, n, positive: true, indices: s.indices, medians: s.work)
        values[3] = Catch22Math.outlierTiming(z, n, positive: false, indices: s.indices, medians: s.work)
        values[4] = Catch22Math.pointOfCrossing(acf, n, threshold: exp(-1)).point - 1
        values[5] = Catch22Math.firstMinimum(acf, n)
        let spectral = Catch22Math.spectrum(
            z, n, fft: plan(1 << Catch22Math.log2Ceiling(n)), work: s.work, spectrum: s.spectrum)
        values[6] = spectral.area
        values[7] = spectral.median
        values[8] = Catch22Math.localMeanStandardError(z, n)
        // Residuals of the one-step local-mean forecast, and their autocorrelation.
        let residual = s.residual
        for i in 1..<n { residual[i - 1] = z[i - 1] - z[i] }
        Catch22Math.autocorrelation(
            residual, n - 1, fft: plan(2 << Catch22Math.log2Ceiling(n - 1)), work: s.work, spectrum: s.spectrum,
            into: s.acf2)
        values[9] =
            (Catch22Math.pointOfCrossing(s.acf2, n - 1, threshold: 0).point - 1)
            / (Catch22Math.pointOfCrossing(acf, n, threshold: 0).point - 1)
        var fluctuations = 0
        for i in 1..<n where abs(z[i] - z[i - 1]) * 1000 > 40 { fluctuations += 1 }
        values[10] = Double(fluctuations) / Double(n - 1)
        values[11] = Catch22Math.longestStretchAboveMean(z, n)
        values[12] = Catch22Math.longestStretchDecreasing(z, n)
        let sorted = s.sorted
        for i in 0..<n { sorted[i] = z[i] }
        var sortable = UnsafeMutableBufferPointer(start: sorted, count: n)
        sortable.sort()
        values[13] = Catch22Math.motifThreeEntropy(z, n, sorted: sorted, symbols: s.indices)
        values[14] = Catch22Math.histogramAutoMutualInformation(z, n, lag: 2, bins: 5, low: sorted[0], high: sorted[n - 1])
        var cubes = 0.0
        for i in 1..<n {
            let d = z[i] - z[i - 1]
            cubes += d * d * d
        }
        values[15] = cubes / Double(n - 1)
        values[16] = Catch22Math.firstMinimumGaussianAMI(z, n, maxLag: 40, ami: s.work)
        let zeroCrossing = Catch22Math.pointOfCrossing(acf, n, threshold: 0).index - 1
        values[17] = Catch22Math.transitionCovariance(
            z, n, lag: zeroCrossing, scratch: s)
        values[18] = Catch22Math.periodicityWang(
            z, n, fft: acfPlan, detrended: s.residual, work: s.work, spectrum: s.spectrum, acf: s.acf2)
        values[19] = Catch22Math.embeddingDistanceExpFit(z, n, lag: zeroCrossing, scratch: s)
        values[20] = Catch22Math.fluctuationSplit(z, n, decimation: 1, detrendedFluctuation: false, scratch: s)
        values[21] = Catch22Math.fluctuationSplit(z, n, decimation: 2, detrendedFluctuation: true, scratch: s)
    }

    /// Computes the 22 features of one window.
    /// - Parameter samples: the window's values in time order.
    /// - Returns: 22 values in ``names`` order.
    /// - Complexity: as ``extract(_:into:)``; allocates the result.
    public mutating func extract(_ samples: [Double]) -> [Double] {
        var out = [Double](repeating: .nan, count: 22)
        samples.withUnsafeBufferPointer { x in out.withUnsafeMutableBufferPointer { extract(x, into: $0.baseAddress!) } }
        return out
    }

    mutating func plan(_ count: Int) -> RealFFT<Double> {
        if let p = plans[count] { return p }
        let p = RealFFT<Double>(count: count)
        plans[count] = p
        return p
    }
}

/// Grow-only scratch memory of ``Catch22``.
final class Catch22Scratch {
    var capacity = 0
    var z = UnsafeMutablePointer<Double>.allocate(capacity: 1)
    var sorted = UnsafeMutablePointer<Double>.allocate(capacity: 1)
    var acf = UnsafeMutablePointer<Double>.allocate(capacity: 1)
    var acf2 = UnsafeMutablePointer<Double>.allocate(capacity: 1)
    var residual = UnsafeMutablePointer<Double>.allocate(capacity: 1)
    var work = UnsafeMutablePointer<Double>.allocate(capacity: 1)
    var spectrum = UnsafeMutablePointer<Double>.allocate(capacity: 1)
    var extra = UnsafeMutablePointer<Double>.allocate(capacity: 1)
    var indices = UnsafeMutablePointer<Int>.allocate(capacity: 1)
    var taps = UnsafeMutablePointer<Double>.allocate(capacity: 1)
    var tapCapacity = 0

    /// Makes every buffer large enough for an `n`-sample window.
    func reserve(_ n: Int) {
        // FFT buffers (≤ 2·2^⌈log₂n⌉ + 2) and the outlier thresholds (≤ 100·√(n − 1) + 1).
        let need = max(4 << Catch22Math.log2Ceiling(max(n, 2)), Int(100 * Double(n).squareRoot())) + 8
        guard need > capacity else { return }
        release()
        capacity = need
        z = .allocate(capacity: need)
        sorted = .allocate(capacity: need)
        acf = .allocate(capacity: need)
        acf2 = .allocate(capacity: need)
        residual = .allocate(capacity: need)
        work = .allocate(capacity: need)
        spectrum = .allocate(capacity: need)
        extra = .allocate(capacity: need)
        indices = .allocate(capacity: need)
    }

    /// Filter taps for a decimation by `count` (grow-only).
    func taps(_ count: Int) -> UnsafeMutablePointer<Double> {
        if count > tapCapacity {
            taps.deallocate()
            taps = .allocate(capacity: count)
            tapCapacity = count
        }
        return taps
    }

    func release() {
        for p in [z, sorted, acf, acf2, residual, work, spectrum, extra] { p.deallocate() }
        indices.deallocate()
    }

    deinit {
        release()
        taps.deallocate()
    }
}

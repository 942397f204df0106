extension FeatureCatalog {
    static let lubba =
        "C. H. Lubba et al., catch22: CAnonical Time-series CHaracteristics, Data Min. Knowl. Disc. 33, 1821–1852, 2019, doi:10.1007/s10618-019-00647-x; definitions of hctsa v3.0.0 (B. D. Fulcher, N. S. Jones, Cell Systems 5, 527, 2017, doi:10.1016/j.cels.2017.10.001) as catch22 v1.1.0 / pycatch22 1.0.2 compute them"

    /// The 22 catch22 features, in catch22's order and under catch22's names, computed on the
    /// z-scored window (sample standard deviation); see ``Catch22``.
    public static let catch22Definitions: [FeatureDefinition] = {
        let undefined =
            "fewer than \(Catch22.minimumCount) valid samples, or zero variance"
        let rows: [(String, String, String)] = [
            ("DN_HistogramMode_5", "1", "mode of z: mean centre of the fullest of 5 equal-width bins over [min, max]"),
            ("DN_HistogramMode_10", "1", "as DN_HistogramMode_5 with 10 bins"),
            (
                "DN_OutlierInclude_p_001_mdrmd", "1",
                "median over thresholds 0, 0.01, … of (median index of samples with z ≥ threshold)/(n/2) − 1, thresholds kept while more than 2 % of the z ≥ 0 samples remain"
            ),
            ("DN_OutlierInclude_n_001_mdrmd", "1", "as DN_OutlierInclude_p_001_mdrmd on −z"),
            (
                "CO_FirstCrossing_acf_1e_pointOfCrossing", "samples",
                "lag where the autocorrelation first falls below 1/e, linearly interpolated"
            ),
            ("CO_FirstMin_ac", "samples", "lag of the first local minimum of the autocorrelation (n if none)"),
            (
                "SP_Summaries_fft_area_5_1", "1",
                "area of the lowest fifth (⌈m/5⌉ of m bins) of the one-sided FFT power spectral density of z over angular frequency (zero-padded to 2^⌈log₂n⌉)"
            ),
            ("SP_Summaries_fft_wq_50", "rad/sample", "angular frequency below which half the spectral power lies (same spectrum)"),
            (
                "FC_LocalSimple_mean3_stde", "1",
                "sample standard deviation of the residuals of predicting zᵢ by the mean of the 3 previous samples"
            ),
            (
                "FC_LocalSimple_mean1_taurat", "1",
                "interpolated first zero crossing of the autocorrelation of the 1-step residuals zᵢ₋₁ − zᵢ, divided by that of z"
            ),
            ("MD_pNN_pnn40", "1", "share of successive differences with 1000·|zᵢ₊₁ − zᵢ| > 40"),
            ("SB_BinaryStats_mean_longstretch1", "samples", "longest run of samples at or above the mean"),
            ("SB_BinaryStats_diff_longstretch0", "samples", "longest run of strictly decreasing steps"),
            (
                "SB_MotifThree_quantile_hh", "nat",
                "entropy of successive pairs of a 3-letter equiprobable alphabet (MATLAB quantiles), plus catch22's Miller–Madow term df/(2(n − 1)) when df = m₂ − 5 > 0 (m₂ occupied pair cells)"
            ),
            (
                "CO_HistogramAMI_even_5bin_ami2", "nat",
                "automutual information at lag 2 from a 5×5 histogram of equal-width bins over [min − 0.1, max + 0.1], Miller–Madow corrected"
            ),
            ("CO_trev_1_num", "1", "time-reversibility statistic mean((zᵢ₊₁ − zᵢ)³)"),
            (
                "IN_AutoMutualInfoStats_40_gaussian_fmmi", "samples",
                "first local minimum of the Gaussian automutual information −½ln(1 − r²(τ)), τ ≤ min(40, ⌈n/2⌉) (the largest τ if none)"
            ),
            (
                "SB_TransitionMatrix_quantile_3_ac_sumdiagcov", "1",
                "trace of the covariance of the 3-state quantile transition matrix of z decimated by the autocorrelation's first negative lag, capped at ⌊n/50⌋"
            ),
            (
                "PD_PeriodicityWang_th0_01", "samples",
                "first autocorrelation peak (lag ≤ ⌈n/3⌉) after a trough, ≥ 0.01 above it and positive, once a 1-knot cubic spline is removed; 0 if none (Wang, Wirth & Wang 2007)"
            ),
            (
                "CO_Embed2_Dist_tau_d_expfit_meandiff", "1",
                "mean |histogram density − fitted exponential density| of successive distances in the 2-D delay embedding (delay: first zero crossing of the autocorrelation, ≤ n/10)"
            ),
            (
                "SC_FluctAnal_2_rsrangefit_50_1_logi_prop_r1", "1",
                "share of time scales before the best two-line split of log(RMS detrended range) against log(scale), each line on at least max(8, round(scales/4)) scales"
            ),
            (
                "SC_FluctAnal_2_dfa_50_1_2_logi_prop_r1", "1",
                "as the previous on detrended fluctuation analysis of every second sample"
            ),
        ]
        return rows.map {
            FeatureDefinition(
                name: $0.0, group: .catch22, unit: $0.1, definition: $0.2 + " (catch22: computed on z-scored values)",
                undefinedWhen: undefined, citation: lubba)
        }
    }()
}

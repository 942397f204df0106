/// The versioned feature catalog: which features exist, in which order, under which names.
///
/// ``version`` changes whenever a name, a definition or the order of the default catalog
/// changes, so a study can pin it (`sensorpipe features --list` prints it with every name).
public enum FeatureCatalog {
    /// Version of the names and definitions (written with every window).
    public static let version = 1

    /// Percentiles of the statistical group (linear interpolation, Hyndman & Fan 1996 type 7).
    public static let percentiles: [Double] = [5, 25, 75, 95]

    /// Bins of the histogram entropy (equal width over the window's range, as `numpy.histogram`).
    public static let histogramBins = 10

    /// Share of the spectral power below ``FeatureExtractor/Configuration`` roll-off frequency.
    public static let rolloffFraction = 0.85

    /// Share of the spectral power below the spectral edge frequency.
    public static let edgeFraction = 0.95

    static let moments =
        "J. Virtanen et al., SciPy 1.0, Nature Methods 17, 261–272, 2020, doi:10.1038/s41592-019-0686-2 (scipy.stats)"
    static let quantiles =
        "R. J. Hyndman, Y. Fan, Sample quantiles in statistical packages, Am. Stat. 50(4), 361–365, 1996, doi:10.1080/00031305.1996.10473566 (definition 7)"
    static let shape =
        "D. N. Joanes, C. A. Gill, Comparing measures of sample skewness and kurtosis, The Statistician 47(1), 183–189, 1998, doi:10.1111/1467-9884.00122"
    static let hampel =
        "F. R. Hampel, The influence curve and its role in robust estimation, JASA 69, 383–393, 1974, doi:10.1080/01621459.1974.10482962"
    static let shannon =
        "C. E. Shannon, A mathematical theory of communication, Bell Syst. Tech. J. 27, 379–423, 1948, doi:10.1002/j.1538-7305.1948.tb01338.x"
    static let kedem =
        "B. Kedem, Spectral analysis and discrimination by zero-crossings, Proc. IEEE 74(11), 1477–1493, 1986, doi:10.1109/PROC.1986.13663"
    static let tsfel =
        "M. Barandas et al., TSFEL: Time Series Feature Extraction Library, SoftwareX 11, 100456, 2020, doi:10.1016/j.softx.2020.100456"
    static let boxJenkins =
        "G. E. P. Box, G. M. Jenkins, G. C. Reinsel, G. M. Ljung, Time Series Analysis: Forecasting and Control, 5th ed., Wiley, 2015, §2.1.5 (biased estimator)"
    static let leastSquares =
        "N. R. Draper, H. Smith, Applied Regression Analysis, 3rd ed., Wiley, 1998, doi:10.1002/9781118625590 (ordinary least squares; numpy.polyfit deg 1)"
    static let findPeaks = moments + " (scipy.signal.find_peaks without conditions)"
    static let welch =
        "P. D. Welch, IEEE Trans. Audio Electroacoust. 15(2), 70–73, 1967, doi:10.1109/TAU.1967.1161901 (scipy.signal.welch)"
    static let peeters =
        "G. Peeters, A large set of audio features for sound description, CUIDADO project report, IRCAM, 2004"
    static let inouye =
        "T. Inouye et al., Quantification of EEG irregularity by use of the entropy of the power spectrum, Electroencephalogr. Clin. Neurophysiol. 79(3), 204–210, 1991, doi:10.1016/0013-4694(91)90138-T"
    static let rampil =
        "I. J. Rampil, A primer for EEG signal processing in anesthesia, Anesthesiology 89(4), 980–1002, 1998, doi:10.1097/00000542-199810000-00023"
    static let mathie =
        "M. J. Mathie et al., Classification of basic daily movements using a triaxial accelerometer, Med. Biol. Eng. Comput. 42, 679–687, 2004, doi:10.1007/BF02347551"

    /// The per-channel features a configuration computes, in output order.
    /// - Parameter configuration: groups, autocorrelation lag and bands.
    /// - Returns: the definitions, in the order ``FeatureExtractor`` writes values.
    /// - Complexity: O(features).
    public static func definitions(_ configuration: FeatureExtractor.Configuration) -> [FeatureDefinition] {
        var out = [FeatureDefinition]()
        let undefinedFlat = "the window's values are all equal (zero variance)"
        if configuration.groups.contains(.statistical) {
            func s(_ name: String, _ unit: String, _ def: String, _ cite: String, undefined: String? = nil) {
                out.append(.init(name: name, group: .statistical, unit: unit, definition: def, undefinedWhen: undefined, citation: cite))
            }
            s("mean", "U", "arithmetic mean (1/n)Σxᵢ", moments)
            s("std", "U", "population standard deviation √((1/n)Σ(xᵢ−x̄)²) (numpy.std, ddof=0)", moments)
            s("var", "U^2", "population variance (1/n)Σ(xᵢ−x̄)² (numpy.var, ddof=0)", moments)
            s("min", "U", "smallest value", moments)
            s("max", "U", "largest value", moments)
            s("range", "U", "max − min", moments)
            s("median", "U", "median (mean of the two middle values for even n)", quantiles)
            s("iqr", "U", "p75 − p25 (scipy.stats.iqr)", quantiles)
            for p in percentiles {
                s(
                    "p\(p < 10 ? "0" : "")\(Int(p))", "U", "\(Int(p))th percentile, linear interpolation (numpy.percentile default)",
                    quantiles)
            }
            s(
                "skewness", "1", "g₁ = m₃/m₂^(3/2) with central moments mₖ = (1/n)Σ(xᵢ−x̄)ᵏ (scipy.stats.skew, bias=True)",
                shape, undefined: undefinedFlat)
            s(
                "kurtosis", "1", "excess kurtosis g₂ = m₄/m₂² − 3 (scipy.stats.kurtosis, fisher=True, bias=True)", shape,
                undefined: undefinedFlat)
            s("rms", "U", "root mean square √((1/n)Σxᵢ²)", moments)
            s("median_abs_dev", "U", "median |xᵢ − median(x)| (scipy.stats.median_abs_deviation, scale=1)", hampel)
            s("mean_abs_dev", "U", "(1/n)Σ|xᵢ − x̄|", moments)
            s(
                "hist_entropy", "nat",
                "Shannon entropy −Σ pₖ ln pₖ of a \(histogramBins)-bin equal-width histogram over [min, max] (numpy.histogram; scipy.stats.entropy), pₖ = countₖ/n; 0 when all values are equal",
                shannon)
        }
        if configuration.groups.contains(.temporal) {
            func t(_ name: String, _ unit: String, _ def: String, _ cite: String, undefined: String? = nil) {
                out.append(.init(name: name, group: .temporal, unit: unit, definition: def, undefinedWhen: undefined, citation: cite))
            }
            t(
                "zero_crossing_rate", "1/s",
                "sign changes between consecutive samples (sign bit, so 0 counts as positive) per second: count · fs / n", kedem)
            t("mean_crossing_rate", "1/s", "as zero_crossing_rate on xᵢ − x̄", kedem)
            t("mean_abs_diff", "U", "(1/(n−1))Σ|xᵢ₊₁ − xᵢ|", tsfel, undefined: "n < 2")
            t(
                "acf_lag1", "1", "autocorrelation at lag 1 sample: Σ(xᵢ−x̄)(xᵢ₊₁−x̄) / Σ(xᵢ−x̄)² (biased estimator)", boxJenkins,
                undefined: undefinedFlat + ", or n < 2")
            let lagMs = Int((configuration.autocorrelationLagSeconds * 1000).rounded())
            t(
                "acf_\(lagMs)ms", "1",
                "autocorrelation (biased estimator) at lag round(\(lagMs) ms · fs) samples", boxJenkins,
                undefined: undefinedFlat + ", or the lag is not shorter than the window")
            t(
                "acf_first_zero", "s",
                "first lag k ≥ 1 with autocorrelation ≤ 0, as k/fs", boxJenkins,
                undefined: undefinedFlat + ", or the autocorrelation stays positive over the window")
            t("slope", "U/s", "least-squares slope of xᵢ against tᵢ = i/fs", leastSquares, undefined: "n < 2")
            t("peak_count", "1", "number of local maxima (plateaus counted once)", findPeaks)
        }
        if configuration.groups.contains(.spectral) {
            let psd =
                "of the Welch PSD Pₖ (periodic Hann, segment min(n, \(configuration.welchSegmentSeconds) s · fs), 50 % overlap, mean removed per segment, density scaling)"
            let zero = "the spectrum has no power (a constant window)"
            func f(_ name: String, _ unit: String, _ def: String, _ cite: String, undefined: String? = zero) {
                out.append(.init(name: name, group: .spectral, unit: unit, definition: def, undefinedWhen: undefined, citation: cite))
            }
            f("dominant_frequency", "Hz", "frequency of the largest Pₖ over k ≥ 1 " + psd, welch)
            f("dominant_power", "U^2/Hz", "that largest Pₖ " + psd, welch)
            f("spectral_centroid", "Hz", "Σ fₖPₖ / ΣPₖ " + psd, peeters)
            f("spectral_spread", "Hz", "√(Σ (fₖ − centroid)² Pₖ / ΣPₖ) " + psd, peeters)
            f("spectral_entropy", "1", "−Σ pₖ ln pₖ / ln K with pₖ = Pₖ/ΣP over all K bins " + psd, inouye)
            f(
                "spectral_flatness", "1", "geometric mean / arithmetic mean of Pₖ over k ≥ 1 " + psd + "; 0 when a bin is 0",
                peeters)
            f(
                "spectral_rolloff", "Hz",
                "smallest fₖ with Σ_{j≤k} Pⱼ ≥ \(rolloffFraction) ΣP " + psd, peeters)
            f(
                "spectral_edge_frequency", "Hz",
                "smallest fₖ with Σ_{j≤k} Pⱼ ≥ \(edgeFraction) ΣP " + psd, rampil)
            for band in configuration.bands {
                f(
                    band.featureName, "U^2",
                    "Σ Pₖ·Δf over \(band.lowHz) Hz ≤ fₖ < \(band.highHz) Hz " + psd, welch,
                    undefined: "the band lies above the Nyquist frequency")
            }
        }
        if configuration.groups.contains(.catch22) { out += catch22Definitions }
        return out
    }

    /// The feature computed across the three axes of a tri-axial stream (channel `xyz`).
    public static let signalMagnitudeArea = FeatureDefinition(
        name: "sma", group: .temporal, unit: "U",
        definition: "signal magnitude area (1/n)Σ(|xᵢ| + |yᵢ| + |zᵢ|) over samples valid on all three axes",
        citation: mathie)
}

/// A frequency band of the band-power features.
public struct FrequencyBand: Sendable, Hashable, Codable {
    /// Lower edge in Hz (included).
    public var lowHz: Double
    /// Upper edge in Hz (excluded).
    public var highHz: Double

    /// Creates a band; `0 ≤ lowHz < highHz`.
    public init(lowHz: Double, highHz: Double) {
        precondition(lowHz >= 0 && highHz > lowHz, "a band needs 0 ≤ low < high")
        self.lowHz = lowHz
        self.highHz = highHz
    }

    /// `bandpower_<low>_<high>hz`, the decimal point written `p` (`bandpower_0p5_3hz`).
    public var featureName: String {
        func word(_ x: Double) -> String {
            let text = x == x.rounded() ? String(Int(x)) : String(x)
            return String(text.map { $0 == "." ? "p" : $0 })
        }
        return "bandpower_\(word(lowHz))_\(word(highHz))hz"
    }
}

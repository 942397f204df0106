/// The signal quality of one window of single-lead ECG (see ``ECGQuality``).
///
/// Every index is dimensionless. NaN marks an index that cannot be computed (a flat window, too
/// few beats).
public struct ECGQualityWindow: Sendable, Equatable {
    /// First sample of the window in the signal given to ``ECGQuality/assess(_:masked:rPeaks:)``.
    public var startSample: Int
    /// Samples in the window.
    public var sampleCount: Int
    /// Share of the window's samples that are masked, 0…1.
    public var maskedFraction: Double
    /// kSQI: Pearson kurtosis of the unmasked samples (Gaussian 3; clean ECG > 5).
    public var kurtosis: Double
    /// Fisher (excess) kurtosis, ``kurtosis`` − 3 (Gaussian 0).
    public var excessKurtosis: Double { kurtosis - 3 }
    /// sSQI: skewness of the unmasked samples.
    public var skewness: Double
    /// pSQI: power in 5–15 Hz over power in 5–40 Hz, 0…1.
    public var pSQI: Double
    /// basSQI: 1 − power in 0–1 Hz over power in 0–40 Hz, 0…1.
    public var basSQI: Double
    /// bSQI (= Zhao & Zhang's qSQI): agreement of the given R-peaks with ``ElgendiQRSDetector``'s
    /// within the matching tolerance, 0…1.
    public var bSQI: Double
    /// R-peaks given for the window (unmasked ones).
    public var beatCount: Int
    /// Beats ``ElgendiQRSDetector`` found in the window (unmasked ones).
    public var secondaryBeatCount: Int
    /// Orphanidou et al. (2015) rules and template correlation on the given R-peaks.
    public var templateMatch: OrphanidouTemplateMatch
    /// The simple heuristic fusion of Zhao & Zhang (2018): the ratings behind ``label``.
    public var heuristicFusion: ZhaoZhangHeuristicFusion
    /// The fuzzy comprehensive evaluation of Zhao & Zhang (2018), reported beside ``label``.
    public var fuzzyEvaluation: ZhaoZhangFuzzyEvaluation
    /// The window's quality: the heuristic fusion's label, or ``ECGQualityLabel/unacceptable``
    /// when more than ``ECGQuality/maximumMaskedFraction`` of the samples are masked.
    public var label: ECGQualityLabel
    /// The fuzzy evaluation's label, with the same masking rule as ``label``.
    public var fuzzyLabel: ECGQualityLabel
}

/// The HRV metrics SensorPipe computes, by their NeuroKit2 names (without its `HRV_` prefix), in
/// the order of ``HRVAnalysis/metricNames`` (time domain, frequency domain, non-linear). Typed
/// keys for ``HRVMetrics``: a misspelt metric does not compile.
public enum HRVMetric: String, Sendable, Hashable, CaseIterable {
    case meanNN = "MeanNN"
    case sdnn = "SDNN"
    case rmssd = "RMSSD"
    case sdsd = "SDSD"
    case cvnn = "CVNN"
    case cvsd = "CVSD"
    case medianNN = "MedianNN"
    case madNN = "MadNN"
    case mcvnn = "MCVNN"
    case iqrnn = "IQRNN"
    case sdrmssd = "SDRMSSD"
    case prc20NN = "Prc20NN"
    case prc80NN = "Prc80NN"
    case pnn50 = "pNN50"
    case pnn20 = "pNN20"
    case minNN = "MinNN"
    case maxNN = "MaxNN"
    case hti = "HTI"
    case tinn = "TINN"
    case ulf = "ULF"
    case vlf = "VLF"
    case lf = "LF"
    case hf = "HF"
    case vhf = "VHF"
    case tp = "TP"
    case lfhf = "LFHF"
    case lfn = "LFn"
    case hfn = "HFn"
    case lnHF = "LnHF"
    case sd1 = "SD1"
    case sd2 = "SD2"
    case sd1sd2 = "SD1SD2"
    case s = "S"
    case csi = "CSI"
    case cvi = "CVI"
    case csiModified = "CSI_Modified"
    case dfaAlpha1 = "DFA_alpha1"
    case dfaAlpha2 = "DFA_alpha2"
    case apEn = "ApEn"
    case sampEn = "SampEn"

    /// The metric's unit (`ms`, `%`, `ms^2`, `ln(ms^2)`), or `nil` for ratios and dimensionless values.
    public var unit: String? {
        switch self {
        case .meanNN, .sdnn, .rmssd, .sdsd, .medianNN, .madNN, .iqrnn, .prc20NN, .prc80NN, .minNN, .maxNN, .tinn, .sd1, .sd2: return "ms"
        case .pnn50, .pnn20: return "%"
        case .ulf, .vlf, .lf, .hf, .vhf, .tp, .s: return "ms^2"
        case .lnHF: return "ln(ms^2)"
        default: return nil
        }
    }
}

extension HRVMetrics {
    /// The value of `metric`, or `nil` when this table does not hold it (a table of one domain).
    /// - Complexity: O(n).
    public subscript(metric: HRVMetric) -> Double? {
        guard let i = names.firstIndex(of: metric.rawValue) else { return nil }
        return values[i]
    }
}

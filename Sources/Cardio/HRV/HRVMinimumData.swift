/// How much data an HRV result rests on (the quality columns of the `hrv` table).
public struct HRVCoverage: Sendable, Equatable {
    /// NN intervals used.
    public var nnCount = 0
    /// Their total duration, seconds (the NN data the metrics see).
    public var nnSeconds = 0.0
    /// Intervals of the corrected beat series ending in the result's span (used or not).
    public var intervalCount = 0
    /// Share of ``intervalCount`` left out as ectopic: a beat classified S, V or Q (or uncertain),
    /// or flagged ectopic by the artefact correction; `nil` without intervals.
    public var excludedEctopicShare: Double?
    /// Share left out because it lies in an `unacceptable` quality window.
    public var excludedQualityShare: Double?
    /// Share left out for another reason (outside 300–2000 ms).
    public var excludedOtherShare: Double?
    /// Share left out because the correction inserted one of its beats for a missed detection
    /// (an interpolated, not measured, interval).
    public var correctedShare: Double?
    /// Share of the result's span that no interval of the beat series covers (masked samples,
    /// segment gaps, no beats detected), 0…1.
    public var gapShare: Double?

    /// Creates a coverage record.
    public init(
        nnCount: Int = 0, nnSeconds: Double = 0, intervalCount: Int = 0, excludedEctopicShare: Double? = nil,
        excludedQualityShare: Double? = nil, excludedOtherShare: Double? = nil, correctedShare: Double? = nil,
        gapShare: Double? = nil
    ) {
        self.nnCount = nnCount
        self.nnSeconds = nnSeconds
        self.intervalCount = intervalCount
        self.excludedEctopicShare = excludedEctopicShare
        self.excludedQualityShare = excludedQualityShare
        self.excludedOtherShare = excludedOtherShare
        self.correctedShare = correctedShare
        self.gapShare = gapShare
    }
}

/// The minimum data each HRV metric needs; a metric below its minimum is left empty (NaN, NULL
/// in the tables) and the reason is given.
///
/// | metrics | minimum | source |
/// | --- | --- | --- |
/// | HF, LnHF, VHF | 60 s of NN data | Task Force 1996: a recording ≥ 10 × the period of the band's lower bound, ~1 min for HF |
/// | LF, LFHF | 120 s of NN data | Task Force 1996: ~2 min for LF (0.04 Hz) |
/// | VLF, TP, LFn, HFn | 300 s of NN data | Task Force 1996: VLF from recordings of 5 min or less "should be avoided"; TP, LFn and HFn (fractions of TP) include VLF |
/// | ULF | a span of 24 h | Task Force 1996: ULF is a 24-hour measure |
/// | HTI, TINN | 1200 s of NN data | Task Force 1996: geometric methods need at least 20 min (preferably 24 h) |
/// | DFA_alpha1 | 160 intervals | Peng et al. 1995 (Chaos 5:82, doi:10.1063/1.166141): α1 over scales up to 16 beats; Hardstone et al. 2012 (Front Physiol 3:450, doi:10.3389/fphys.2012.00450): the largest scale at most N/10 |
/// | DFA_alpha2 | 640 intervals | Peng et al. 1995: α2 over 16–64 beats; N ≥ 10 × 64 as above |
/// | SampEn, ApEn | 200 intervals | Richman & Moorman 2000 (Am J Physiol 278:H2039, doi:10.1152/ajpheart.2000.278.6.H2039): N of 10^m–20^m (100–400 for m = 2); Yentes et al. 2013 (Ann Biomed Eng 41:349, doi:10.1007/s10439-012-0668-3): unstable below ~200 |
///
/// The time-domain and Poincaré metrics need only what their formulas need (2 intervals; 2
/// adjacent pairs for RMSSD and SD1).
public enum HRVMinimumData {
    /// One rule: the metrics, what they need, and the reason text.
    struct Rule {
        var metrics: [HRVMetric]
        var seconds: Double? = nil
        var intervals: Int? = nil
        var span: Double? = nil
        var text: String
        /// Spectral and long-scale metrics: judged on the longest contiguous span.
        var contiguous = true
    }

    static let rules: [Rule] = [
        Rule(metrics: [.hf, .lnHF, .vhf], seconds: 60, text: "< 60 s of NN data (Task Force 1996)"),
        Rule(metrics: [.lf, .lfhf], seconds: 120, text: "< 120 s of NN data (Task Force 1996)"),
        Rule(metrics: [.vlf, .tp, .lfn, .hfn], seconds: 300, text: "< 300 s of NN data (Task Force 1996)"),
        Rule(metrics: [.ulf], span: 86_400, text: "span < 24 h (Task Force 1996)"),
        Rule(metrics: [.hti, .tinn], seconds: 1200, text: "< 20 min of NN data (Task Force 1996)", contiguous: false),
        Rule(metrics: [.dfaAlpha1], intervals: 160, text: "< 160 NN intervals (Peng 1995; N/10 rule)"),
        Rule(metrics: [.dfaAlpha2], intervals: 640, text: "< 640 NN intervals (Peng 1995; N/10 rule)"),
        Rule(
            metrics: [.sampEn, .apEn], intervals: 200, text: "< 200 NN intervals (Richman & Moorman 2000; Yentes 2013)",
            contiguous: false),
    ]

    /// Leaves out the metrics whose minimum data `coverage` does not meet.
    /// - Parameters:
    ///   - metrics: the computed metrics.
    ///   - coverage: the NN data they rest on.
    ///   - spanSeconds: the result's span (end − start), seconds.
    /// - Returns: the metrics with those below their minimum set to NaN, and the reasons
    ///   (`"LF,LFHF: < 120 s of NN data (Task Force 1996); …"`, empty when every metric has its
    ///   minimum).
    ///   - contiguous: the NN data (seconds, intervals) and span (s) of the longest contiguous
    ///     span (``HRVAnalysis/longestContiguousRun(milliseconds:closingTimes:range:)``), which
    ///     the spectral metrics (HF … ULF) and DFA are computed from and judged on; `nil`: the
    ///     whole result is contiguous.
    /// - Complexity: O(metrics).
    public static func apply(
        _ metrics: HRVMetrics, coverage: HRVCoverage, spanSeconds: Double,
        contiguous: (nnSeconds: Double, nnCount: Int, spanSeconds: Double)? = nil
    ) -> (HRVMetrics, String) {
        var failing = Set<String>()
        var reasons = [String]()
        for rule in rules {
            let split = rule.contiguous ? contiguous : nil
            let short =
                (rule.seconds.map { (split?.nnSeconds ?? coverage.nnSeconds) < $0 } ?? false)
                || (rule.intervals.map { (split?.nnCount ?? coverage.nnCount) < $0 } ?? false)
                || (rule.span.map { (split?.spanSeconds ?? spanSeconds) < $0 } ?? false)
            guard short else { continue }
            let names = rule.metrics.map(\.rawValue).filter { metrics.names.contains($0) }
            guard !names.isEmpty else { continue }
            failing.formUnion(names)
            reasons.append(
                names.joined(separator: ",") + ": " + rule.text
                    + (split != nil ? " in the longest contiguous span (holes over 300 s split the NN series)" : ""))
        }
        guard !failing.isEmpty else { return (metrics, "") }
        let kept = HRVMetrics(metrics.map { name, value in (name, failing.contains(name) ? Double.nan : value) })
        return (kept, reasons.joined(separator: "; "))
    }
}

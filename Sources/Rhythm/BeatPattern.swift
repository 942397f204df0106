/// Beat-level measures of one ECG lead window that the RR irregularity (``RRIrregularity``) and
/// the window-level atrial activity (``AtrialActivity``) do not give: how many beats carry the
/// sinus P wave, ventricular ectopy, QRS-width dispersion, pauses and premature intervals, and
/// bigeminal alternation. They follow the features of the CinC 2017 entries that separated
/// "other" rhythms from sinus rhythm and AF: P-wave presence per beat and ectopic patterns
/// (Teijeiro T et al. 2017, "Arrhythmia classification from the abductive interpretation of
/// short single-lead ECG records", Computing in Cardiology 44; Datta S et al. 2017, "Identifying
/// normal, AF and other abnormal ECG rhythms using a cascaded binary classifier", Computing in
/// Cardiology 44), and the beat-morphology and RR-extreme features of Zabihi M et al. 2017
/// ("Detection of atrial fibrillation in ECG hand-held devices using a random forest
/// classifier", Computing in Cardiology 44).
public struct BeatPattern: Sendable, Hashable {
    /// Share of the beats not classed V with a P-window correlation (`ecg_beats.p_correlation`)
    /// of at least ``sinusPCorrelation``: beats preceded by the sinus P wave (high in sinus
    /// rhythm, low in AF, where no P wave repeats, and in ectopic atrial rhythms). `nil` with
    /// fewer than 4 such beats with a correlation.
    public var sinusPShare: Double?
    /// Median P-window correlation of those beats (`nil` likewise).
    public var pCorrelationMedian: Double?
    /// Share of the classified beats the classifier calls V (`nil` without classified beats).
    public var ventricularShare: Double?
    /// Standard deviation of the beats' QRS widths, s (`nil` with fewer than 4 widths): wide
    /// ectopic or aberrant beats among narrow ones.
    public var qrsWidthSpreadSeconds: Double?
    /// Longest kept RR interval over the median one (pauses, dropped beats, blocks; `nil` with
    /// fewer than 4 intervals).
    public var longestRRRatio: Double?
    /// Shortest kept RR interval over the median one (premature beats).
    public var shortestRRRatio: Double?
    /// Bigeminal alternation: share of interval triples (RRᵢ, RRᵢ₊₁, RRᵢ₊₂) whose step RRᵢ → RRᵢ₊₁
    /// exceeds 12.5 % of the median interval while RRᵢ₊₂ returns to within 6.25 % of RRᵢ — a
    /// short–long pattern repeating beat by beat (bigeminy), rare in AF, whose intervals do not
    /// repeat (`nil` with fewer than 4 intervals).
    public var bigeminyShare: Double?

    /// The P-window correlation from which a beat counts as preceded by the sinus P wave: the
    /// beat classifier's own sinus-P criterion (Cardio's `BeatFeatures.sinusRRSeconds`,
    /// correlation ≥ 0.7).
    public static let sinusPCorrelation = 0.7

    /// The measures of a window.
    /// - Parameters:
    ///   - beats: the window's beats, in time order.
    ///   - intervals: its kept RR intervals, s (``RRIrregularity/intervals(_:)``).
    /// - Complexity: O(n log n).
    init(beats: [RhythmBeat], intervals rr: [Double]) {
        var p = [Double]()
        var classed = 0, ventricular = 0
        var widths = [Double]()
        for b in beats {
            if let c = b.beatClass {
                classed += 1
                if c == "V" { ventricular += 1 }
            }
            if b.beatClass != "V" && b.pCorrelation.isFinite { p.append(b.pCorrelation) }
            if b.qrsWidth.isFinite { widths.append(b.qrsWidth) }
        }
        if p.count >= 4 {
            sinusPShare = Double(p.filter { $0 >= Self.sinusPCorrelation }.count) / Double(p.count)
            pCorrelationMedian = RRIrregularity.median(p)
        }
        if classed > 0 { ventricularShare = Double(ventricular) / Double(classed) }
        if widths.count >= 4 {
            let m = widths.reduce(0, +) / Double(widths.count)
            qrsWidthSpreadSeconds = (widths.reduce(0) { $0 + ($1 - m) * ($1 - m) } / Double(widths.count)).squareRoot()
        }
        guard rr.count >= 4 else { return }
        let median = RRIrregularity.median(rr)
        longestRRRatio = rr.max()! / median
        shortestRRRatio = rr.min()! / median
        var alternating = 0
        for i in 0..<(rr.count - 2) where abs(rr[i + 1] - rr[i]) > 0.125 * median && abs(rr[i + 2] - rr[i]) <= 0.0625 * median {
            alternating += 1
        }
        bigeminyShare = Double(alternating) / Double(rr.count - 2)
    }

}

/// The class of one heartbeat, in the four groups of ANSI/AAMI EC57 that a morphology and timing
/// classifier can tell apart: normal (AAMI N: sinus, bundle branch block, escape), supraventricular
/// ectopic (AAMI S), ventricular ectopic (AAMI V) and unclassifiable (AAMI Q: the beat's samples
/// are missing, or its morphology matches neither the normal beats nor a ventricular pattern).
///
/// AAMI's fifth class, fusion (F), is not produced: a fusion beat comes out as normal or
/// ventricular, which EC57 does not count as an error for the VEB statistics.
public enum BeatClass: UInt8, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    case normal = 0
    case supraventricular = 1
    case ventricular = 2
    case unclassifiable = 3

    /// The AAMI letter: `N`, `S`, `V` or `Q`.
    public var code: Character {
        switch self {
        case .normal: "N"
        case .supraventricular: "S"
        case .ventricular: "V"
        case .unclassifiable: "Q"
        }
    }

    public var description: String { String(code) }
}

/// What a classification was based on: the timing and morphology features of one beat.
///
/// Optional features are `nil` where they are undefined (no previous beat, a gap, no normal
/// template yet, samples missing).
public struct BeatFeatures: Sendable, Hashable {
    /// Interval from the previous beat, seconds (`nil` for the first beat or across a gap).
    public var rrPreviousSeconds: Double?
    /// Interval to the next beat, seconds (`nil` for the last beat or across a gap).
    public var rrNextSeconds: Double?
    /// Running RR average before this beat (exponential over the RR intervals), seconds.
    public var rrNormalSeconds: Double?
    /// `rrPreviousSeconds / rrNormalSeconds` (below 1: premature).
    public var prematurity: Double?
    /// QRS duration of this beat, seconds (slope-envelope onset to offset).
    public var qrsWidthSeconds: Double?
    /// The morphology signal (block-averaged to 125–250 Hz, band-passed 0.7–35 Hz) at the R apex,
    /// in the input's unit, signed: the R amplitude above the baseline the high-pass removes.
    public var rAmplitude: Double?
    /// The R apex above the beat's own PR-segment baseline (its mean over 110…70 ms before the
    /// detected peak), in the input's unit, read from the block-averaged signal low-passed at
    /// 35 Hz without the morphology signal's high-pass (whose memory of the previous beats would
    /// tie it to the preceding RR interval); the apex is the local extreme nearest the detected
    /// peak on its deflection's side, refined by a parabola (sub-sample, Merri et al. 1990,
    /// IEEE TBME 37:99): the R amplitude with the local baseline
    /// removed, whatever the lead's unit (the respiratory amplitude modulation; Charlton et al.
    /// 2016, doi:10.1088/0967-3334/37/4/610). `nil` when the beat's samples are masked.
    public var rAboveBaseline: Double?
    /// Area above the PR-segment baseline from QRS onset to offset (the slope-envelope limits of
    /// ``qrsWidthSeconds``) of the same low-passed signal as ``rAboveBaseline`` (not high-passed),
    /// input unit × s, signed: the QRS area whose
    /// respiratory modulation Moody et al. used (G. B. Moody, R. G. Mark, A. Zoccola, S. Mantero,
    /// "Derivation of respiratory signals from multi-lead ECGs", Computers in Cardiology
    /// 12:113–116, 1985). `nil` when the beat's samples are masked.
    public var qrsArea: Double?
    /// QRS duration of the running normal template, seconds.
    public var normalQRSWidthSeconds: Double?
    /// Pearson correlation with the running normal template over −100…+160 ms around the R
    /// apex, at the best alignment within ±40 ms (1 = identical shape).
    public var normalCorrelation: Double?
    /// Where the beat best matches the running normal template (the best alignment within
    /// ±40 ms, or within ±80 ms when the normal QRS is 120 ms or wider, refined to a fraction of
    /// a working sample by a parabola through the neighbouring correlations), in input samples
    /// relative to the given R peak: a fiducial point that is the same for every beat of the
    /// normal morphology, where the R apex can jump between the notches of a wide QRS.
    public var normalAlignmentSamples: Double?
    /// RMS amplitude of this beat over the correlation window relative to the normal template's.
    public var amplitudeRatio: Double?
    /// Whether the dominant QRS deflection has the normal template's sign.
    public var polarityMatchesNormal: Bool?
    /// Morphology cluster the beat was assigned to (a small integer, reused when a cluster is
    /// replaced).
    public var cluster: Int?
    /// The cluster is, at this beat, the one taken as the normal morphology.
    public var inNormalCluster: Bool
    /// Output of the linear model: probability that the beat is ventricular ectopic.
    public var ventricularProbability: Double?
    /// Largest sample-to-sample slope of the morphology signal between 200 ms after the previous
    /// beat and 200 ms before this one, over the smaller of the two beats' QRS slopes (largest
    /// slope within ±50 ms of the R apex): below 0.2 no QRS was
    /// missed in the interval before this beat (``NNSelection``). `nil` for the first beat,
    /// across a gap or masked samples, or when the interval is shorter than 400 ms.
    public var pauseSlopeRatio: Double?
    /// A beat classified normal whose QRS amplitude departs from the running normal amplitude by
    /// more than five running spreads, in a recording that has had a ventricular beat: a
    /// suspected fusion beat or unrecognised ectopic beat (``BeatClassifier``, item 8). The class
    /// stays normal; HRV leaves out the intervals on both sides (``NNSelection``).
    public var fusionSuspected: Bool
    /// |ln(A / Ā)| in running spreads (``BeatClassifier``, item 8): how far this normal beat's
    /// QRS RMS amplitude A lies from the running normal amplitude Ā; ``fusionSuspected`` is
    /// this above 5. `nil` until the check is armed (a ventricular beat and 64 normal beats seen)
    /// and for beats not classified normal.
    public var amplitudeDeviationSpreads: Double?
    /// Pearson correlation of the beat's atrial window (300…60 ms before the R apex, at the
    /// normal template's alignment) with the running sinus P template (``BeatClassifier``, step
    /// 9): near 1 the P wave of the sinus beats; low when the P wave differs (ectopic atrial
    /// focus), is absent or hidden in the previous T wave. `nil` until the template has 8 beats.
    public var pCorrelation: Double?
    /// RMS amplitude of the beat's atrial window over the sinus P template's (step 9).
    public var pAmplitudeRatio: Double?
    /// Running mean of ``pCorrelation`` over the beats that built the sinus P template: how
    /// consistent the atrial activity of the sinus beats is (low in atrial fibrillation or noise).
    public var pTemplateAgreement: Double?
    /// Running RR interval of the beats whose P matches the sinus template (correlation ≥ 0.7),
    /// seconds: the sinus rate when ectopic atrial beats outnumber the sinus ones. `nil` when
    /// none of the last 16 beats had the sinus P wave (the value would be stale).
    public var sinusRRSeconds: Double?
    /// Median of the last 16 successive RR differences over the RR average (before this beat):
    /// low in a regular rhythm even with a few pauses, high in atrial fibrillation.
    public var rrIrregularity: Double?

    public init() {
        inNormalCluster = false
        fusionSuspected = false
    }
}

/// One classified beat: its R-peak sample index (as given), its class and the features used.
public struct ClassifiedBeat: Sendable, Hashable {
    /// R-peak sample index from the start of the stream (as passed to the classifier).
    public var sample: Int
    public var beatClass: BeatClass
    public var features: BeatFeatures

    public init(sample: Int, beatClass: BeatClass, features: BeatFeatures) {
        self.sample = sample
        self.beatClass = beatClass
        self.features = features
    }
}

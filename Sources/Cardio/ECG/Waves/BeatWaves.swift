/// Whether a wave of a beat was delineated.
public enum WaveStatus: String, Sendable, Hashable, CaseIterable {
    /// Found; its boundaries are set (a boundary may still be empty when its own search failed).
    case present
    /// Looked for in a determinable stretch and not found (e.g. no P wave in atrial fibrillation,
    /// a flat T wave).
    case absent
    /// Could not be looked for: masked or missing samples, the segment's edge, or no QRS found.
    case notDeterminable = "not_determinable"
}

/// The shape of a P or T wave from the signs of its wavelet modulus maxima (Martínez et al.
/// 2004, section II-D): upright (rising then falling slope), inverted, biphasic (three
/// alternating slopes), or only one slope found.
public enum WaveShape: String, Sendable, Hashable, CaseIterable {
    case upright
    case inverted
    /// Positive then negative deflection.
    case biphasicPositiveFirst = "biphasic_pos_neg"
    /// Negative then positive deflection.
    case biphasicNegativeFirst = "biphasic_neg_pos"
    /// A single rising slope (no peak is set).
    case risingOnly = "rising_only"
    /// A single falling slope (no peak is set).
    case fallingOnly = "falling_only"
}

/// The wave boundaries of one beat of one lead (or the leads combined), in seconds on the clock
/// of `beats.time`.
public struct BeatWaves: Sendable, Hashable {
    /// The beat's detection time (`beats.time`, and `ecg_beats` event time), s.
    public var beatTime: Double
    /// P wave onset, peak, offset, s (empty unless ``pStatus`` is present, and when its own search failed).
    public var pOnset: Double?
    public var pPeak: Double?
    public var pOffset: Double?
    /// QRS onset and offset, s.
    public var qrsOnset: Double?
    public var qrsOffset: Double?
    /// T wave peak and offset, s.
    public var tPeak: Double?
    public var tOffset: Double?
    public var pStatus: WaveStatus
    public var qrsStatus: WaveStatus
    public var tStatus: WaveStatus
    public var pShape: WaveShape?
    public var tShape: WaveShape?
    /// The beat's class from the ECG family (`N`, `S`, `V`, `Q`), or `nil`.
    public var beatClass: String?
    /// The `ecg_quality` label of the window holding the beat, or `nil`.
    public var signalQuality: String?
    /// The RR interval before the beat (to the previous detected beat of the same segment), s.
    public var rrBefore: Double?
    /// Leads that delineated this beat (1 for a lead; for the combined row, how many leads had it).
    public var leads: Int
    /// The P onset lies on a steeper opposite-sign slope in this lead (an overlapping T wave:
    /// ``WaveDelineator/onsetMasked(_:first:)``); the combined row prefers leads where it does not.
    var pOnsetMasked = false

    /// An empty, not determinable delineation of a beat.
    /// - Parameter beatTime: `beats.time`, s.
    public init(beatTime: Double) {
        self.beatTime = beatTime
        pStatus = .notDeterminable
        qrsStatus = .notDeterminable
        tStatus = .notDeterminable
        leads = 1
    }

    /// Per-beat delineation quality: `complete` (QRS and T delineated with offsets, P delineated
    /// or absent), `partial` (QRS delineated, some other boundary not determinable or not found),
    /// `failed` (no QRS onset/offset).
    public var delineationQuality: String {
        guard qrsStatus == .present, qrsOnset != nil, qrsOffset != nil else { return "failed" }
        let tOK = tStatus == .present && tOffset != nil
        let pOK = pStatus == .absent || (pStatus == .present && pOnset != nil && pOffset != nil)
        return tOK && pOK ? "complete" : "partial"
    }
}

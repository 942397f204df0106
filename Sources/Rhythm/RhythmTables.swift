import Signals

/// A rhythm label of one window (``RhythmWindowRow/label``).
public enum RhythmLabel: String, Sendable, Hashable, CaseIterable {
    /// Regular rhythm with atrial activity locked to the QRS (normal sinus rhythm in CinC 2017's
    /// sense, `N`).
    case sinus
    /// Atrial fibrillation (CinC 2017 `A`).
    case af
    /// Another rhythm: ectopy, blocks, other arrhythmias (CinC 2017 `O`, a heterogeneous class).
    case other
    /// Too noisy to classify (CinC 2017 `~`).
    case noisy
    /// Too few beats to label (``RhythmOptions/minimumIntervals``); `null_reason` says why.
    case insufficient
}

/// Where a window's beats come from (``RhythmWindowRow/source``).
public enum RhythmSource: String, Sendable, Hashable, CaseIterable {
    /// An ECG lead: the ECG family's `ecg_beats` plus the lead's samples (atrial activity).
    case ecg
    /// The ECG family's beat series fused across leads (`ecg_nn` of the fused stream): beat
    /// timing only.
    case fused
    /// A PPG optical stream's pulses (`ppg_pulses`): pulse timing only.
    case ppg
    /// A device's own beat list (`device_beats`: Apple Health `InstantaneousBeatsPerMinute`):
    /// beat timing only, no interval across a gap in the list; windows per run of beats
    /// (``RhythmStream``).
    case device
}

/// One rhythm window of one stream (a row of `rhythm`).
public struct RhythmWindowRow: Sendable, Hashable {
    /// Stream key.
    public var stream: String
    /// Where the beats come from.
    public var source: RhythmSource
    /// Window start and end (exclusive), s, on the stream's clock.
    public var startSeconds: Double
    public var endSeconds: Double
    /// The label.
    public var label: RhythmLabel
    /// The model's probability of AF (0–1), or `nil` when no label was computed.
    public var afProbability: Double?
    /// Beats in the window.
    public var beats: Int
    /// Mean heart rate, bpm, from the kept intervals (`nil` without any).
    public var meanHeartRateBPM: Double?
    /// The RR measures (``RRIrregularity``), or `nil` with too few intervals.
    public var irregularity: RRIrregularity?
    /// The same measures over the intervals between consecutive beats neither of which the ECG
    /// classifier calls ventricular (`V`): ventricular ectopy (a premature beat and its
    /// compensatory pause, bigeminy) left out of the irregularity (ECG leads only; `nil` with
    /// fewer than 4 such intervals).
    public var ectopyFreeIrregularity: RRIrregularity?
    /// Share of the window's beats the ECG classifier calls S or V (`nil` for PPG and fused).
    public var ectopicShare: Double?
    /// Mean QRS width of the window's beats, s (`nil` when none was measured).
    public var qrsWidthSeconds: Double?
    /// Share of beats in `unacceptable` quality windows (`nil` when no beat has a label).
    public var unacceptableShare: Double?
    /// Share of beats in good (PPG) or excellent (ECG) quality windows (`nil` when no beat has a
    /// label).
    public var goodShare: Double?
    /// Kept intervals' total over the window's length (missed beats and gaps lower it).
    public var intervalCoverage: Double?
    /// Atrial-activity measures (ECG leads only).
    public var atrial: AtrialActivity?
    /// Beat-level measures: sinus P per beat, ectopy, pauses, bigeminy (ECG leads only).
    public var pattern: BeatPattern?
    /// The model that labelled the window (``RhythmModel/name``), or `nil`.
    public var model: String?
    /// Why the window has no model label, or `nil`.
    public var nullReason: String?
}

/// One AF episode (a row of `rhythm_episodes`).
public struct RhythmEpisodeRow: Sendable, Hashable {
    /// Stream key.
    public var stream: String
    /// Where the beats come from.
    public var source: RhythmSource
    /// Onset and offset, s: the start of its first AF window and the end of its last.
    public var onsetSeconds: Double
    public var offsetSeconds: Double
    /// AF windows merged.
    public var windows: Int
    /// Beats in those windows.
    public var beats: Int
    /// Mean heart rate over the episode, bpm (beats-weighted mean of the windows' rates).
    public var meanHeartRateBPM: Double?

    /// Offset − onset, s.
    public var durationSeconds: Double { offsetSeconds - onsetSeconds }
}

/// The rhythm family's tables.
public enum RhythmTables {
    /// Rhythm windows.
    public static let windows = TableSchema<RhythmWindowRow>(
        name: "rhythm",
        summary:
            "rhythm label per stream window: a stream of at most single_window_max_s is one window, longer ones window_s windows from the stream start (docs/RHYTHM.md)",
        columns: [
            .init("stream", .text, "stream key (an ECG lead, the fused ECG series, a PPG optical stream, or a device's beat list)") {
                .text($0.stream)
            },
            .init(
                "source", .text,
                "ecg (a lead: beat timing and atrial activity), fused (fused beats: timing only), ppg (pulse timing only), device (the device's own beat list: timing only, windows per run of listed beats)"
            ) {
                .text($0.source.rawValue)
            },
            .init("window_start", .real, unit: "s", "window start (inclusive), on the stream's clock") { .real($0.startSeconds) },
            .init("window_end", .real, unit: "s", "window end (exclusive)") { .real($0.endSeconds) },
            .init("label", .text, "sinus, af, other, noisy or insufficient (too few beats; null_reason says why)") {
                .text($0.label.rawValue)
            },
            .init(
                "af_probability", .real,
                "the model's probability of atrial fibrillation (0–1), before any P-wave rule the model has (docs/RHYTHM.md); NULL when insufficient"
            ) {
                .finite($0.afProbability)
            },
            .init("beats", .integer, "beats in the window") { .integer($0.beats) },
            .init("mean_hr_bpm", .real, unit: "bpm", "60 / mean of the kept RR intervals (0.25–2.5 s between consecutive beats)") {
                .finite($0.meanHeartRateBPM)
            },
            .init("rr_intervals", .integer, "kept RR intervals") { .integer($0.irregularity?.count ?? 0) },
            .init("nrmssd", .real, "RMSSD / mean RR (Dash et al. 2009)") { .finite($0.irregularity?.normalizedRMSSD) },
            .init("shannon_entropy", .real, "Shannon entropy of the 16-bin RR histogram / ln 16 (Dash et al. 2009)") {
                .finite($0.irregularity?.shannonEntropy)
            },
            .init("turning_point_ratio", .real, "turning points / (n − 2) of the RR series (Dash et al. 2009)") {
                .finite($0.irregularity?.turningPointRatio)
            },
            .init("cosen", .real, "coefficient of sample entropy, m = 1, r = 30 ms (Lake & Moorman 2011)") {
                .finite($0.irregularity?.cosEn)
            },
            .init("mad_delta_ratio", .real, "median |ΔRR| / median RR (Petrėnas et al. 2015's irregularity, whole window)") {
                .finite($0.irregularity?.medianAbsoluteDeltaRatio)
            },
            .init("large_delta_share", .real, "share of |ΔRR| above 12.5 % of the median RR") {
                .finite($0.irregularity?.largeDeltaShare)
            },
            .init("rr_cv", .real, "coefficient of variation of the kept RR intervals") {
                .finite($0.irregularity?.coefficientOfVariation)
            },
            .init("rr_coverage", .real, "kept RR intervals' total / window length (missed beats, gaps and pauses lower it)") {
                .finite($0.intervalCoverage)
            },
            .init(
                "nv_rr_intervals", .integer,
                "kept RR intervals between two beats neither of which the ECG classifier calls V; NULL for fused and PPG"
            ) {
                $0.source == .ecg ? .integer($0.ectopyFreeIrregularity?.count ?? 0) : .null
            },
            .init("nv_nrmssd", .real, "nrmssd over those intervals (ventricular ectopy left out); ECG leads") {
                .finite($0.ectopyFreeIrregularity?.normalizedRMSSD)
            },
            .init("nv_shannon_entropy", .real, "shannon_entropy over those intervals; ECG leads") {
                .finite($0.ectopyFreeIrregularity?.shannonEntropy)
            },
            .init("nv_turning_point_ratio", .real, "turning_point_ratio over those intervals; ECG leads") {
                .finite($0.ectopyFreeIrregularity?.turningPointRatio)
            },
            .init("nv_cosen", .real, "cosen over those intervals; ECG leads") { .finite($0.ectopyFreeIrregularity?.cosEn) },
            .init("nv_mad_delta_ratio", .real, "mad_delta_ratio over those intervals; ECG leads") {
                .finite($0.ectopyFreeIrregularity?.medianAbsoluteDeltaRatio)
            },
            .init("nv_large_delta_share", .real, "large_delta_share over those intervals; ECG leads") {
                .finite($0.ectopyFreeIrregularity?.largeDeltaShare)
            },
            .init("nv_rr_cv", .real, "rr_cv over those intervals; ECG leads") {
                .finite($0.ectopyFreeIrregularity?.coefficientOfVariation)
            },
            .init("ectopic_share", .real, "share of beats the ECG beat classifier calls S or V; NULL for fused and PPG") {
                .finite($0.ectopicShare)
            },
            .init("qrs_width_s", .real, unit: "s", "mean QRS width of the beats (ecg_beats.qrs_width_s); NULL for fused and PPG") {
                .finite($0.qrsWidthSeconds)
            },
            .init(
                "unacceptable_share", .real,
                "share of beats in unacceptable quality windows (ecg_quality / ppg_quality; fused series: of its leads' beats in the window)"
            ) {
                .finite($0.unacceptableShare)
            },
            .init("good_share", .real, "share of beats in good (ppg_quality: clean and still wrist) or excellent (ecg_quality) windows") {
                .finite($0.goodShare)
            },
            .init(
                "p_wave_coherence", .real,
                "coherence of the PR segments (R − 300 … R − 60 ms) across beats not classed V: ~1 with a P wave, ~0 without; ECG leads"
            ) {
                .finite($0.atrial?.pWaveCoherence)
            },
            .init("qrs_coherence", .real, "coherence of the QRS segments (R ± 60 ms) across beats; ECG leads") {
                .finite($0.atrial?.qrsCoherence)
            },
            .init(
                "atrial_residual", .real,
                "RMS of the PR segments around their average / QRS template peak-to-peak (f waves, noise); ECG leads"
            ) {
                .finite($0.atrial?.atrialResidual)
            },
            .init("hf_noise", .real, "RMS of what 20-ms smoothing removes from the PR segments / QRS template peak-to-peak; ECG leads") {
                .finite($0.atrial?.highFrequencyNoise)
            },
            .init(
                "f_wave_band_share", .real,
                "share of the Hann-windowed PR residual's power (segments minus their template) at 4–9 Hz, the atrial fibrillatory band; ECG leads"
            ) {
                .finite($0.atrial?.fWaveBandShare)
            },
            .init(
                "sinus_p_share", .real,
                "share of the beats not classed V whose P window matches the classifier's sinus P template (ecg_beats.p_correlation ≥ 0.7); NULL with fewer than 4 such beats with a correlation; ECG leads"
            ) {
                .finite($0.pattern?.sinusPShare)
            },
            .init("p_correlation_median", .real, "median ecg_beats.p_correlation of those beats; ECG leads") {
                .finite($0.pattern?.pCorrelationMedian)
            },
            .init("ventricular_share", .real, "share of beats the ECG beat classifier calls V; ECG leads") {
                .finite($0.pattern?.ventricularShare)
            },
            .init("qrs_width_sd_s", .real, unit: "s", "standard deviation of the beats' QRS widths (at least 4); ECG leads") {
                .finite($0.pattern?.qrsWidthSpreadSeconds)
            },
            .init("rr_max_ratio", .real, "longest kept RR interval / median RR (pauses); ECG leads") {
                .finite($0.pattern?.longestRRRatio)
            },
            .init("rr_min_ratio", .real, "shortest kept RR interval / median RR (premature beats); ECG leads") {
                .finite($0.pattern?.shortestRRRatio)
            },
            .init(
                "bigeminy_share", .real,
                "share of RR triples whose step exceeds 12.5 % of the median RR while the third returns within 6.25 % of the first (short–long repeating); ECG leads"
            ) {
                .finite($0.pattern?.bigeminyShare)
            },
            .init("model", .text, "the model that labelled the window (docs/RHYTHM.md model card); NULL when insufficient") {
                .optional($0.model)
            },
            .init("null_reason", .text, "why the window has no model label; NULL when it has one") { .optional($0.nullReason) },
        ])

    /// AF episodes.
    public static let episodes = TableSchema<RhythmEpisodeRow>(
        name: "rhythm_episodes",
        summary: "atrial-fibrillation episodes: consecutive af windows of a stream merged, kept when at least episode_min_s long",
        columns: [
            .init("stream", .text, "stream key") { .text($0.stream) },
            .init("source", .text, "ecg, fused, ppg or device (as rhythm.source)") { .text($0.source.rawValue) },
            .init("onset", .real, unit: "s", "start of the episode's first af window") { .real($0.onsetSeconds) },
            .init("offset", .real, unit: "s", "end of its last af window") { .real($0.offsetSeconds) },
            .init("duration_s", .real, unit: "s", "offset − onset") { .real($0.durationSeconds) },
            .init("windows", .integer, "af windows merged") { .integer($0.windows) },
            .init("beats", .integer, "beats in those windows") { .integer($0.beats) },
            .init("mean_hr_bpm", .real, unit: "bpm", "beat-weighted mean of the windows' mean_hr_bpm") {
                .finite($0.meanHeartRateBPM)
            },
        ])

    /// The summary figures (family `rhythm`).
    public static let summaryFigures: [SummaryFigure] = [
        SummaryFigure(
            family: "rhythm", name: "rhythm_assessed_hours", unit: "h",
            meaning: "time in rhythm windows labelled sinus, af or other (every labelled stream counts)", aggregation: .sum,
            sourceTable: "rhythm", sourceColumn: "label"),
        SummaryFigure(
            family: "rhythm", name: "af_burden",
            meaning: "AF burden: share of that time in windows labelled af; empty without any", aggregation: .share,
            sourceTable: "rhythm", sourceColumn: "label"),
        SummaryFigure(
            family: "rhythm", name: "af_episodes", type: .integer, meaning: "AF episodes (rhythm_episodes rows) starting then",
            aggregation: .sum, sourceTable: "rhythm_episodes", sourceColumn: "onset"),
        SummaryFigure(
            family: "rhythm", name: "af_longest_episode_min", unit: "min", meaning: "longest of those episodes; empty without any",
            aggregation: .max, sourceTable: "rhythm_episodes", sourceColumn: "duration_s"),
    ]
}

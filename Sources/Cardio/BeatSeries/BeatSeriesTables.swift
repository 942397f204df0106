import Signals

/// The signal a beat series comes from (the `source` column of the beat-series tables).
public enum BeatSource: String, Sendable, Hashable, CaseIterable {
    /// ECG R-peaks.
    case ecg
    /// PPG systolic peaks (pulse-rate variability when written to `hrv`).
    case ppg
    /// ECG R-peaks fused across the leads of a multi-lead recording (``LeadFusion``): each beat
    /// from the cleanest lead at its time.
    case fused
    /// Beats the device detected itself (Apple Health `InstantaneousBeatsPerMinute` lists,
    /// ``SensorKind/heartbeat``).
    case device
}

/// A row of a beat-series table: the value, the stream it comes from and its source signal.
public struct SeriesRow<Value: Sendable>: Sendable {
    /// Stream key (``StreamKey/description``).
    public var stream: String
    /// Source signal.
    public var source: BeatSource
    /// The row's value.
    public var value: Value

    /// Creates a row.
    public init(stream: String, source: BeatSource, value: Value) {
        self.stream = stream
        self.source = source
        self.value = value
    }
}

/// A beat with the label of the quality window it lies in (each family's own quality labels).
public struct LabelledBeat: Sendable, Hashable {
    /// The beat.
    public var beat: SeriesBeat
    /// The quality label of its window, or `nil` outside assessed windows.
    public var qualityLabel: String?

    /// Creates a labelled beat.
    public init(beat: SeriesBeat, qualityLabel: String?) {
        self.beat = beat
        self.qualityLabel = qualityLabel
    }
}

/// The tables of the shared beat-series stage (``BeatSeries``), written by every family that
/// detects beats (ECG today, PPG next), told apart by their `source` column.
public enum BeatSeriesTables {
    /// One row per beat: detected beats, beats inserted by artefact correction, and detected beats
    /// removed as extra (flagged, never silently dropped).
    public static let beats = TableSchema<SeriesRow<LabelledBeat>>(
        name: "beats", summary: "detected beats (ECG R-peaks, PPG systolic peaks) with RR/NN intervals and artefact flags",
        columns: [
            .init("stream", .text, "stream key (device/sensor/channel[/session])") { .text($0.stream) },
            .init(
                "source", .text,
                "signal the beats come from: ecg, ppg (systolic peaks), or fused (ECG leads fused: each beat from the cleanest lead, time shifted by that lead's median delay to the first lead)"
            ) { .text($0.source.rawValue) },
            .init(
                "time", .real, unit: "s",
                "where the detector put the beat (ECG: the refined R apex), never moved by correction; empty for a beat inserted by correction; Unix seconds or seconds from the stream start (streams.time_origin)"
            ) {
                .finite($0.value.beat.detectionTimeSeconds)
            },
            .init(
                "nn_time", .real, unit: "s",
                "the beat's time in the corrected (NN) series (moved to the middle of its neighbours for an ectopic or long/short beat); empty for a beat removed as extra"
            ) {
                .finite($0.value.beat.nnTimeSeconds)
            },
            .init("sample", .integer, "sample index of the detected beat within its segment (empty for an inserted beat)") {
                .optional($0.value.beat.sampleIndex)
            },
            .init("segment", .integer, "segment number within the stream") { .integer($0.value.beat.segment) },
            .init("rr_ms", .real, unit: "ms", "interval from the previous detected beat of the same segment") {
                .finite($0.value.beat.rrMilliseconds)
            },
            .init(
                "nn_ms", .real, unit: "ms",
                "interval from the previous beat of the corrected series, nn_time − previous nn_time (empty for a removed beat)"
            ) {
                .finite($0.value.beat.nnMilliseconds)
            },
            .init("hr_bpm", .real, unit: "bpm", "instantaneous heart rate 60000 / nn_ms") { .finite($0.value.beat.heartRateBPM) },
            .init("artefact", .text, "artefact found at this beat (Lipponen & Tarvainen 2019): ectopic, missed, extra, longShort, or empty")
            {
                .text($0.value.beat.artefact?.rawValue ?? "")
            },
            .init(
                "correction", .text,
                "what correction did: ectopic, longShort, inserted, followsRemovedExtra (combined with '+'), removedExtra, or empty"
            ) {
                .text($0.value.beat.correctionDescription)
            },
            .init(
                "quality", .text,
                "label of the quality window holding the beat (ECG: excellent, barely_acceptable, unacceptable), empty outside assessed windows"
            ) {
                .optional($0.value.qualityLabel)
            },
            .init(
                "class", .text,
                "beat class (ECG, AAMI EC57 groups): N normal, S supraventricular ectopic, V ventricular ectopic, Q unclassifiable; empty for an inserted beat or an unclassified source"
            ) {
                .optional($0.value.beat.beatClass.map { String($0.code) })
            },
            .init(
                "nn_excluded", .text,
                "why the interval ending at this beat is left out of HRV: ectopic, unclassifiable, artefact (flagged ectopic by the correction), range, quality (an unacceptable quality window; PPG also a window with motion or unassessed time), corrected (an inserted beat); empty when used (or no interval); HRV uses the interval between the detected beats"
            ) {
                .optional($0.value.beat.nnExclusion?.rawValue)
            },
        ])

    /// Heart rate per window.
    public static let heartRate = TableSchema<SeriesRow<HeartRateWindow>>(
        name: "heart_rate", summary: "mean heart rate per window",
        columns: [
            .init("stream", .text, "stream key") { .text($0.stream) },
            .init("source", .text, "signal the rate comes from: ecg, ppg or fused (ECG leads fused)") { .text($0.source.rawValue) },
            .init("window_start", .real, unit: "s", "window start (same time scale as beats.time)") { .real($0.value.startSeconds) },
            .init("window_end", .real, unit: "s", "window end (exclusive)") { .real($0.value.endSeconds) },
            .init(
                "bpm", .real, unit: "bpm",
                "60000 / mean NN interval of the intervals ending in the window (PPG pulse count: outside excluded spans); empty with fewer than 2"
            ) {
                .finite($0.value.heartRateBPM)
            },
            .init("beats", .integer, "NN intervals ending in the window that the rate uses (empty for a spectral estimate)") {
                $0.value.method == .beats ? .integer($0.value.intervalCount) : .null
            },
            .init(
                "method", .text, "beats (60000 / mean NN), spectral_online (PPG spectrum tracked causally), spectral_offline (Viterbi path)"
            ) {
                .text($0.value.method.rawValue)
            },
            .init("confidence", .real, "spectral estimates: share of the cleaned PPG spectrum within ±6 bpm of the estimate, 0–1") {
                .finite($0.value.confidence)
            },
            .init(
                "recommended", .integer,
                "1 for the source's one recommended series (docs/HRV.md): ECG method beats of a lead when its device's leads are not fused, the fused series when they are, PPG spectral_offline, the device's own beat list (source device, method beats); 0 for every other row (per-lead rates beside a fused series, PPG spectral_online and the pulse-count beats method); the summaries use only rows with 1"
            ) {
                .integer($0.value.isRecommended ? 1 : 0)
            },
        ])

    /// HRV per window and one row for the whole stream (`scope` = recording).
    public static let hrv = TableSchema<SeriesRow<HRVResult>>(
        name: "hrv", summary: "heart-rate variability (pulse-rate variability for source ppg), NeuroKit2 metric names",
        columns: [
            .init("stream", .text, "stream key") { .text($0.stream) },
            .init("source", .text, "signal the intervals come from: ecg, ppg or fused (ECG leads fused)") { .text($0.source.rawValue) },
            .init("window_start", .real, unit: "s", "window start") { .real($0.value.startSeconds) },
            .init("window_end", .real, unit: "s", "window end") { .real($0.value.endSeconds) },
        ]
            + HRVMetric.allCases.enumerated().map { k, metric in
                .init(metric.rawValue, .real, unit: metric.unit, "NeuroKit2 hrv_* metric \(metric.rawValue)") { row in
                    .finite(k < row.value.metrics.values.count ? row.value.metrics.values[k] : nil)
                }
            } + [
                .init("scope", .text, "window (one HRV window) or recording (the whole stream)") { .text($0.value.scope.rawValue) },
                .init("nn_count", .integer, "NN intervals used") { .integer($0.value.coverage.nnCount) },
                .init("nn_span_s", .real, unit: "s", "total duration of the NN intervals used") { .real($0.value.coverage.nnSeconds) },
                .init("intervals", .integer, "intervals of the corrected beat series ending in the span (used or not)") {
                    .integer($0.value.coverage.intervalCount)
                },
                .init(
                    "excluded_ectopic_share", .real,
                    "share of the intervals left out as ectopic: a beat classified S, V or Q (or uncertain), or flagged ectopic by the correction"
                ) {
                    .finite($0.value.coverage.excludedEctopicShare)
                },
                .init(
                    "excluded_quality_share", .real,
                    "share left out for touching an excluded span: an unacceptable quality window (ECG, PPG), a PPG window with motion (acceleration RMS > 0.1 g) or PPG time outside the assessed steps"
                ) {
                    .finite($0.value.coverage.excludedQualityShare)
                },
                .init("excluded_other_share", .real, "share left out for another reason (outside 300–2000 ms)") {
                    .finite($0.value.coverage.excludedOtherShare)
                },
                .init("corrected_share", .real, "share left out because the correction inserted one of its beats for a missed detection") {
                    .finite($0.value.coverage.correctedShare)
                },
                .init("gap_share", .real, "share of the span no beat interval covers (masked samples, segment gaps, no beats)") {
                    .finite($0.value.coverage.gapShare)
                },
                .init(
                    "null_reason", .text,
                    "metrics left empty because their minimum data is not met, with the rule (docs/HRV.md); empty when none"
                ) {
                    .text($0.value.nullReason)
                },
            ])

    /// Every beat-series table.
    public static var all: [ResultTable] { [beats.table, heartRate.table, hrv.table] }
}

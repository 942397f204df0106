import Signals

/// The tables of the ECG wave delineation.
public enum ECGWavesTables {
    /// One row per delineated beat and stream (a lead, or the leads combined).
    public static let waves = TableSchema<Streamed<BeatWaves>>(
        name: "ecg_waves",
        summary: "per beat and ECG stream: P, QRS and T boundaries (wavelet delineator, Martínez et al. 2004)",
        columns: [
            .init("stream", .text, "stream key (a lead, or device/electrocardiogram/combined for the leads combined)") { .text($0.stream) },
            .init("beat_time", .real, unit: "s", "beats.time of the beat (for combined rows: the first lead's)") {
                .real($0.value.beatTime)
            },
            .init("class", .text, "the beat's class from the ECG family (N, S, V, Q)") { .optional($0.value.beatClass) },
            .init("p_onset", .real, unit: "s", "P wave onset; empty unless p_status is present and the onset was found") {
                .finite($0.value.pOnset)
            },
            .init("p_peak", .real, unit: "s", "P wave peak (zero crossing of the wavelet transform); empty for a one-slope P") {
                .finite($0.value.pPeak)
            },
            .init("p_offset", .real, unit: "s", "P wave offset") { .finite($0.value.pOffset) },
            .init("qrs_onset", .real, unit: "s", "QRS onset") { .finite($0.value.qrsOnset) },
            .init("qrs_offset", .real, unit: "s", "QRS offset (J point)") { .finite($0.value.qrsOffset) },
            .init("t_peak", .real, unit: "s", "T wave peak; empty for a one-slope T") { .finite($0.value.tPeak) },
            .init("t_offset", .real, unit: "s", "T wave offset") { .finite($0.value.tOffset) },
            .init("p_status", .text, "present, absent (looked for, not found) or not_determinable (masked samples, segment edge, no QRS)") {
                .text($0.value.pStatus.rawValue)
            },
            .init("qrs_status", .text, "present or not_determinable") { .text($0.value.qrsStatus.rawValue) },
            .init("t_status", .text, "present, absent or not_determinable") { .text($0.value.tStatus.rawValue) },
            .init(
                "p_shape", .text, "upright, inverted, biphasic_pos_neg, biphasic_neg_pos, rising_only, falling_only; empty unless present"
            ) { .optional($0.value.pShape?.rawValue) },
            .init("t_shape", .text, "as p_shape, for the T wave") { .optional($0.value.tShape?.rawValue) },
            .init("rr_before", .real, unit: "s", "interval from the previous detected beat of the segment") { .finite($0.value.rrBefore) },
            .init("signal_quality", .text, "ecg_quality label of the window holding the beat (beats.quality)") {
                .optional($0.value.signalQuality)
            },
            .init(
                "delineation_quality", .text,
                "complete (QRS and T offset found; P found or absent), partial (QRS found, another boundary not), failed (no QRS onset/offset)"
            ) { .text($0.value.delineationQuality) },
            .init("leads", .integer, "leads that delineated the beat (1 for a lead's row)") { .integer($0.value.leads) },
        ])

    /// Per lead and window: the median beat and its median boundaries.
    public static let medianBeats = TableSchema<Streamed<MedianBeatPoint>>(
        name: "ecg_median_beats",
        summary:
            "per ECG lead and window (median_beat_window_s): the sample-wise median beat of the normal beats in acceptable quality, aligned on R, and its median boundaries",
        columns: [
            .init("stream", .text, "stream key (a lead; leads whose unit is not µV or mV have no rows)") { .text($0.stream) },
            .init("window_start", .real, unit: "s", "window start (a multiple of median_beat_window_s on the beats.time clock)") {
                .real($0.value.windowStart)
            },
            .init("window_end", .real, unit: "s", "window end, exclusive") { .real($0.value.windowEnd) },
            .init(
                "point", .text,
                "sample (the median beat every 4 ms from −300 to +600 ms), or a boundary: p_onset, p_peak, p_offset, qrs_onset, qrs_offset, t_peak, t_offset (its median over the beats, written when found on at least half of them and at least 5)"
            ) { .text($0.value.point) },
            .init("offset", .real, unit: "s", "time from the R peak (beats.time)") { .real($0.value.offset) },
            .init(
                "amplitude", .real, unit: "uV",
                "the median over the beats of the lead at offset (250 Hz grid, linear interpolation) minus each beat's level at its QRS onset (mean of the 16 ms before it); for a boundary, the median beat interpolated at it, empty outside the span"
            ) { .finite($0.value.amplitude) },
            .init(
                "beats", .integer,
                "beats in the median: the qualifying beats, or at most 256 taken evenly from them (a doubling stride), less those whose span holds missing samples"
            ) { .integer($0.value.beats) },
            .init(
                "qualifying_beats", .integer,
                "beats of the window that qualify: N after N, quality excellent or barely_acceptable, QRS onset found (as ecg_intervals)"
            ) { .integer($0.value.qualifyingBeats) },
            .init("note", .text, "how many beats the median holds (and of how many qualifying, when fewer): the plot's title") {
                .text($0.value.note)
            },
        ])

    /// PR, QRS, QT and QTc per window and per stream.
    public static let intervals = TableSchema<Streamed<ECGIntervals>>(
        name: "ecg_intervals",
        summary:
            "per ECG stream and window (and the whole stream): median and IQR of PR, QRS, QT and QTc (Bazett, Fridericia, Framingham, Hodges) over normal beats in acceptable quality",
        columns: intervalColumns)

    static var intervalColumns: [TableSchema<Streamed<ECGIntervals>>.Column] {
        typealias C = TableSchema<Streamed<ECGIntervals>>.Column
        var c: [C] = [
            .init("stream", .text, "stream key") { .text($0.stream) },
            .init("scope", .text, "window or recording (the whole stream)") { .text($0.value.scope) },
            .init("start", .real, unit: "s", "window start (recording: first beat)") { .real($0.value.startSeconds) },
            .init("end", .real, unit: "s", "window end, exclusive (recording: last beat)") { .real($0.value.endSeconds) },
            .init("beats", .integer, "beats delineated in the window") { .integer($0.value.beats) },
            .init(
                "qt_beats", .integer,
                "beats contributing to QT/QTc: N after N, quality excellent or barely_acceptable, QRS onset and T offset found, RR 0.3–2 s"
            ) { .integer($0.value.qtBeats) },
            .init("pr_beats", .integer, "beats contributing to PR (as qt_beats, with a P onset instead of a T offset)") {
                .integer($0.value.prBeats)
            },
            .init("qrs_beats", .integer, "beats contributing to QRS") { .integer($0.value.qrsBeats) },
        ]
        let measures: [(String, String, @Sendable (ECGIntervals) -> ECGIntervals.Spread?)] = [
            ("rr", "RR interval before the QT beats", { $0.rr }),
            ("pr", "PR interval (QRS onset − P onset)", { $0.pr }),
            ("qrs", "QRS duration", { $0.qrs }),
            ("qt", "QT interval (T offset − QRS onset)", { $0.qt }),
            ("qtc_bazett", "QTc Bazett: QT/√RR", { $0.qtcBazett }),
            ("qtc_fridericia", "QTc Fridericia: QT/∛RR", { $0.qtcFridericia }),
            ("qtc_framingham", "QTc Framingham: QT + 154·(1 − RR)", { $0.qtcFramingham }),
            ("qtc_hodges", "QTc Hodges: QT + 1.75·(HR − 60)", { $0.qtcHodges }),
        ]
        for (name, meaning, path) in measures {
            c.append(
                .init("\(name)_ms", .real, unit: "ms", "median \(meaning) over the contributing beats") { .finite(path($0.value)?.median) })
            c.append(.init("\(name)_iqr_ms", .real, unit: "ms", "its interquartile range (Q3 − Q1)") { .finite(path($0.value)?.iqr) })
        }
        c.append(
            .init(
                "null_reason", .text,
                "why QT/QTc or PR is empty: too few qualifying beats, a QT IQR above what RR changes allow, or the leads of a multi-lead device disagree on QT"
            ) { .optional($0.value.nullReason) })
        return c
    }

    /// The summary figures' measures: name, meaning, the window's median and its contributing beats.
    static let summaryMeasures: [(name: String, meaning: String, value: @Sendable (ECGIntervals) -> (Double?, Int))] = [
        ("qtc_fridericia_ms", "QTc Fridericia", { ($0.qtcFridericia?.median, $0.qtBeats) }),
        ("qtc_bazett_ms", "QTc Bazett", { ($0.qtcBazett?.median, $0.qtBeats) }),
        ("qtc_framingham_ms", "QTc Framingham", { ($0.qtcFramingham?.median, $0.qtBeats) }),
        ("qtc_hodges_ms", "QTc Hodges", { ($0.qtcHodges?.median, $0.qtBeats) }),
        ("qt_ms", "QT", { ($0.qt?.median, $0.qtBeats) }),
        ("pr_ms", "PR", { ($0.pr?.median, $0.prBeats) }),
        ("qrs_ms", "QRS duration", { ($0.qrs?.median, $0.qrsBeats) }),
    ]

    /// The family's summary figures: the median of the windows' medians, each window weighted by
    /// the beats that contributed to it (about the median over those beats), per day and per
    /// recording.
    public static var summaryFigures: [SummaryFigure] {
        summaryMeasures.map { m in
            let beats = m.name == "pr_ms" ? "pr_beats" : m.name == "qrs_ms" ? "qrs_beats" : "qt_beats"
            return SummaryFigure(
                family: ECGWavesFamily.name, name: m.name, unit: "ms",
                meaning:
                    "weighted median of the ecg_intervals window medians of \(m.meaning), each window weighted by its \(beats) (normal beats in acceptable quality; the combined stream's windows where a device's leads are combined, else the lead's)",
                aggregation: .median, sourceTable: "ecg_intervals", sourceColumn: m.name)
        }
    }
}

extension ECGIntervals: StreamSummaryValue {
    /// A window's facts: its median of each interval weighted by the beats contributing (the
    /// whole-stream row contributes none, nor a lead's windows where the leads are combined, so
    /// nothing is counted twice).
    public func summaryFacts(stream: String) -> [SummaryFact] {
        guard scope == "window", countsInSummary else { return [] }
        return ECGWavesTables.summaryMeasures.compactMap { m in
            let (median, beats) = m.value(self)
            return median.map {
                SummaryFact(
                    family: ECGWavesFamily.name, stream: stream, startSeconds: startSeconds, endSeconds: endSeconds, figure: m.name,
                    value: $0, weight: Double(beats))
            }
        }
    }
}

import Signals

/// The ECG family's own table (the beat-series tables are ``BeatSeriesTables``).
public enum ECGTables {
    /// ECG signal quality per window (Li et al. 2008; Orphanidou et al. 2015; Zhao & Zhang 2018).
    public static let quality = TableSchema<Streamed<ECGQualityResult>>(
        name: "ecg_quality", summary: "ECG signal-quality indices and label per window",
        columns: [
            .init("stream", .text, "stream key") { .text($0.stream) },
            .init("window_start", .real, unit: "s", "window start") { .real($0.value.startSeconds) },
            .init("window_end", .real, unit: "s", "window end (exclusive)") { .real($0.value.endSeconds) },
            .init("label", .text, "Zhao & Zhang 2018 heuristic fusion: excellent, barely_acceptable, unacceptable") {
                .text($0.value.label.rawValue)
            },
            .init("kSQI", .real, "kurtosis (Pearson; Gaussian = 3)") { .finite($0.value.kurtosis) },
            .init("sSQI", .real, "skewness") { .finite($0.value.skewness) },
            .init("pSQI", .real, "power 5–15 Hz / power 5–40 Hz") { .finite($0.value.pSQI) },
            .init("basSQI", .real, "1 − power 0–1 Hz / power 0–40 Hz") { .finite($0.value.basSQI) },
            .init("bSQI", .real, "agreement of the two QRS detectors within 150 ms (Li et al. 2008)") { .finite($0.value.bSQI) },
            .init("template_correlation", .real, "mean correlation of beats with their average template (Orphanidou et al. 2015)") {
                .finite($0.value.templateCorrelation)
            },
            .init("template_acceptable", .integer, "1 when Orphanidou's feasibility rules hold and the correlation is ≥ 0.66") {
                .integer($0.value.isTemplateAcceptable ? 1 : 0)
            },
            .init("fuzzy_label", .text, "Zhao & Zhang 2018 fuzzy comprehensive evaluation label") { .text($0.value.fuzzyLabel.rawValue) },
            .init("fuzzy_score", .real, "its score") { .finite($0.value.fuzzyScore) },
            .init("masked_fraction", .real, "share of masked samples in the window") { .finite($0.value.maskedFraction) },
            .init("beats", .integer, "primary-detector beats in the window") { .integer($0.value.beatCount) },
        ])

    /// Per-stream summary: beats by class, mean heart rate, ectopic and usable shares.
    public static let summary = TableSchema<Streamed<ECGSummary>>(
        name: "ecg_summary", summary: "per ECG stream: beats by class, mean heart rate, ectopic share, usable share",
        columns: [
            .init("stream", .text, "stream key") { .text($0.stream) },
            .init("beats", .integer, "detected beats kept by the artefact correction") { .integer($0.value.beatCount) },
            .init("normal", .integer, "beats classified N") { .integer($0.value.normalCount) },
            .init("supraventricular", .integer, "beats classified S") { .integer($0.value.supraventricularCount) },
            .init("ventricular", .integer, "beats classified V") { .integer($0.value.ventricularCount) },
            .init("unclassifiable", .integer, "beats classified Q") { .integer($0.value.unclassifiableCount) },
            .init("mean_hr_bpm", .real, unit: "bpm", "60000 / mean interval of the corrected beat series (ectopic beats included)") {
                .finite($0.value.meanHeartRateBPM)
            },
            .init("ectopic_share", .real, "(S + V) / classified beats") { .finite($0.value.ectopicShare) },
            .init("usable_share", .real, "share of the quality-assessed time not labelled unacceptable") {
                .finite($0.value.usableShare)
            },
            .init("nn_share", .real, "share of the corrected series' intervals used as NN intervals by the whole-stream HRV") {
                .finite($0.value.nnShare)
            },
            .init(
                "device_classification", .text,
                "the recording device's own rhythm classification exactly as exported (Apple Health ECG CSV: Classification, e.g. Sinus Rhythm), not SensorPipe's; a fused series takes its first lead's; empty when the input has none"
            ) {
                .optional($0.value.deviceClassification)
            },
        ])
}

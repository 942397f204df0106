import Cardio

/// The result tables SensorPipe writes, shared by `sensorpipe analyze` (CSV) and the batch
/// runner (SQLite). `docs/RESULTS.md` documents them column by column.
public enum ResultTables {
    /// Every result table, in output order.
    public static var all: [ResultTable] { [beats, heartRate, hrv, quality] }

    /// One row per beat: detected beats, beats inserted by artefact correction, and detected beats
    /// removed as extra (flagged, never silently dropped).
    public static let beats = ResultTable(name: "beats", summary: "R-peaks with RR/NN intervals and artefact flags", columns: [
        ResultColumn("stream", .text, "stream key (device/sensor/channel[/session])"),
        ResultColumn("time", .real, unit: "s", "R-peak time: Unix seconds, or seconds from the stream start when the input has no absolute time"),
        ResultColumn("sample", .integer, "sample index of the R apex within its segment (empty for an inserted beat)"),
        ResultColumn("segment", .integer, "segment number within the stream"),
        ResultColumn("rr_ms", .real, unit: "ms", "interval from the previous detected beat of the same segment"),
        ResultColumn("nn_ms", .real, unit: "ms", "interval from the previous beat after artefact correction (empty for a removed beat)"),
        ResultColumn("hr_bpm", .real, unit: "bpm", "instantaneous heart rate 60000 / nn_ms"),
        ResultColumn("artefact", .text, "artefact found at this beat (Lipponen & Tarvainen 2019): ectopic, missed, extra, longShort, or empty"),
        ResultColumn("correction", .text, "what correction did: ectopic, longShort, inserted, followsRemovedExtra, removedExtra (combined with '+'), or empty"),
        ResultColumn("quality", .text, "label of the 10-s quality window holding the beat (excellent, barely_acceptable, unacceptable), empty outside assessed windows"),
    ])

    /// ECG signal quality per 10-s window.
    public static let quality = ResultTable(name: "quality", summary: "ECG signal-quality indices and label per window", columns: [
        ResultColumn("stream", .text, "stream key"),
        ResultColumn("window_start", .real, unit: "s", "window start"),
        ResultColumn("window_end", .real, unit: "s", "window end (exclusive)"),
        ResultColumn("label", .text, "Zhao & Zhang 2018 heuristic fusion: excellent, barely_acceptable, unacceptable"),
        ResultColumn("kSQI", .real, "kurtosis (Pearson; Gaussian = 3)"),
        ResultColumn("sSQI", .real, "skewness"),
        ResultColumn("pSQI", .real, "power 5–15 Hz / power 5–40 Hz"),
        ResultColumn("basSQI", .real, "1 − power 0–1 Hz / power 0–40 Hz"),
        ResultColumn("bSQI", .real, "agreement of the two QRS detectors within 150 ms (Li et al. 2008)"),
        ResultColumn("template_correlation", .real, "mean correlation of beats with their average template (Orphanidou et al. 2015)"),
        ResultColumn("template_acceptable", .integer, "1 when Orphanidou's feasibility rules hold and the correlation is ≥ 0.66"),
        ResultColumn("fuzzy_label", .text, "Zhao & Zhang 2018 fuzzy comprehensive evaluation label"),
        ResultColumn("fuzzy_score", .real, "its score"),
        ResultColumn("masked_fraction", .real, "share of masked samples in the window"),
        ResultColumn("beats", .integer, "primary-detector beats in the window"),
    ])

    /// Heart rate per window.
    public static let heartRate = ResultTable(name: "heart_rate", summary: "mean heart rate per window", columns: [
        ResultColumn("stream", .text, "stream key"),
        ResultColumn("source", .text, "signal the rate comes from: ecg (later ppg)"),
        ResultColumn("window_start", .real, unit: "s", "window start (same time scale as beats.time)"),
        ResultColumn("window_end", .real, unit: "s", "window end (exclusive)"),
        ResultColumn("bpm", .real, unit: "bpm", "60000 / mean NN interval of the intervals ending in the window; empty with fewer than 2"),
        ResultColumn("beats", .integer, "NN intervals ending in the window"),
    ])

    /// HRV per 5-minute window, and one row for the whole recording (`scope` = recording).
    public static let hrv = ResultTable(name: "hrv", summary: "heart-rate variability, NeuroKit2 metric names", columns: [
        ResultColumn("stream", .text, "stream key"),
        ResultColumn("window_start", .real, unit: "s", "window start"),
        ResultColumn("window_end", .real, unit: "s", "window end"),
    ] + HRVAnalysis.metricNames.map { ResultColumn($0, .real, unit: hrvUnit($0), "NeuroKit2 hrv_* metric \($0)") } + [
        ResultColumn("scope", .text, "window (5-min window) or recording (the whole recording)"),
    ])

    /// The unit of an HRV metric by its NeuroKit2 name.
    static func hrvUnit(_ name: String) -> String? {
        switch name {
        case "MeanNN", "SDNN", "RMSSD", "SDSD", "MedianNN", "MadNN", "IQRNN", "Prc20NN", "Prc80NN",
             "MinNN", "MaxNN", "TINN", "SD1", "SD2": return "ms"
        case "pNN50", "pNN20": return "%"
        case "ULF", "VLF", "LF", "HF", "VHF", "TP": return "ms^2"
        case "LnHF": return "ln(ms^2)"
        case "S": return "ms^2"
        default: return nil
        }
    }
}

import Signals

/// The typed results of a recording's PPG analysis (`results[PPGFamily.self]`): the rows of the
/// tables the PPG family wrote, in emission order.
public struct PPGResults: Sendable {
    /// Streams the family analysed (optical channels and the accelerometers it used), in stream order.
    public var streams: [String]
    /// Systolic pulses and the beat series built on them (`beats` rows with `source` `ppg`).
    public var pulses: [SeriesRow<LabelledBeat>]
    /// Heart rate: the pulse series' windows and the spectral estimates (`heart_rate` rows with
    /// `source` `ppg`; spectral rows carry `method` and `confidence`).
    public var heartRate: [SeriesRow<HeartRateWindow>]
    /// Pulse-rate variability per window and per stream (`hrv` rows with `source` `ppg`).
    public var hrv: [SeriesRow<HRVResult>]
    /// Quality per window and optical stream (`ppg_quality`).
    public var quality: [Streamed<PPGQualityResult>]
    /// Problems that left parts unanalysed.
    public var issues: [AnalysisIssue]
}

extension PPGFamily: ResultsProvidingFamily {
    /// The PPG rows of one recording, typed.
    /// - Parameter rows: the recording's rows.
    /// - Complexity: O(rows of the beat-series and PPG tables).
    public static func results(from rows: ResultRows) -> PPGResults {
        PPGResults(
            streams: rows.streamsByFamily[name] ?? [],
            pulses: rows.rows(BeatSeriesTables.beats).filter { $0.source == .ppg },
            heartRate: rows.rows(BeatSeriesTables.heartRate).filter { $0.source == .ppg },
            hrv: rows.rows(BeatSeriesTables.hrv).filter { $0.source == .ppg },
            quality: rows.rows(PPGTables.quality),
            issues: rows.issues.filter { $0.family == name })
    }
}

import Signals

extension ECGFamily: ResultsProvidingFamily {
    /// The ECG results of one recording: one ``ECGResults`` per analysed ECG stream, in stream
    /// order (the fused series is not a stream of the recording and is not among them; its rows
    /// are in the tables with `source` `fused`).
    /// - Parameter rows: the recording's rows.
    /// - Complexity: O(rows of the ECG tables × ECG streams).
    public static func results(from rows: ResultRows) -> [ECGResults] {
        let names = rows.streamsByFamily[name] ?? []
        let beats = rows.rows(BeatSeriesTables.beats).filter { $0.source == .ecg }
        let hr = rows.rows(BeatSeriesTables.heartRate).filter { $0.source == .ecg }
        let hrv = rows.rows(BeatSeriesTables.hrv).filter { $0.source == .ecg }
        let quality = rows.rows(ECGTables.quality)
        let summaries = rows.rows(ECGTables.summary)
        let issues = rows.issues.filter { $0.family == name }
        return names.map { stream in
            ECGResults(
                streamName: stream,
                beats: beats.filter { $0.stream == stream }.map {
                    ECGBeat(beat: $0.value.beat, qualityLabel: $0.value.qualityLabel.flatMap(ECGQualityLabel.init(rawValue:)))
                },
                heartRate: hr.filter { $0.stream == stream }.map(\.value),
                hrv: hrv.filter { $0.stream == stream }.map(\.value),
                quality: quality.filter { $0.stream == stream }.map(\.value),
                issues: issues.filter { $0.stream == stream }.map(\.message),
                summary: summaries.last { $0.stream == stream }?.value)
        }
    }
}

import Cardio
import Signals

/// Every result of one recording, typed: the rows each family emitted, kept as the values the
/// tables are built from, retrievable by their declared schema (``rows(_:)``), with the ECG
/// results grouped per stream (``ecg``). What ``RecordingAnalysis`` writes to a sink, held in
/// memory instead (for analysis code; a batch streams to a database).
public struct RecordingResults: @unchecked Sendable {
    /// The analysis summary (streams, accounts, what analysed them, issues).
    public var summary: RecordingAnalysis.Summary
    var typed: [String: [Any]]

    /// The rows of a table, typed as its schema declares them.
    /// - Parameter schema: a declared table (e.g. ``BeatSeriesTables/beats``).
    /// - Returns: its rows in emission order (empty when the table got none).
    /// - Complexity: O(rows).
    public func rows<Row>(_ schema: TableSchema<Row>) -> [Row] {
        (typed[schema.table.name] ?? []).compactMap { $0 as? Row }
    }

    /// The ECG results per ECG stream, in stream order (beats, heart rate, HRV, quality).
    public var ecg: [ECGResults] {
        let names = summary.streamSummaries.filter { $0.analyses.contains(ECGFamily.name) }.map(\.key.description)
        let beats = rows(BeatSeriesTables.beats).filter { $0.source == .ecg }
        let hr = rows(BeatSeriesTables.heartRate).filter { $0.source == .ecg }
        let hrv = rows(BeatSeriesTables.hrv).filter { $0.source == .ecg }
        let quality = rows(ECGTables.quality)
        let summaries = rows(ECGTables.summary)
        let issues = summary.issues
        return names.map { name in
            ECGResults(
                streamName: name,
                beats: beats.filter { $0.stream == name }.map {
                    ECGBeat(beat: $0.value.beat, qualityLabel: $0.value.qualityLabel.flatMap(ECGQualityLabel.init(rawValue:)))
                },
                heartRate: hr.filter { $0.stream == name }.map(\.value),
                hrv: hrv.filter { $0.stream == name }.map(\.value),
                quality: quality.filter { $0.stream == name }.map(\.value),
                issues: issues.filter { $0.hasPrefix(name + ": ") }.map { String($0.dropFirst(name.count + 2)) },
                summary: summaries.last { $0.stream == name }?.value)
        }
    }
}

extension RecordingAnalysis {
    /// Decodes and analyses a recording with every registered family and returns the typed
    /// results (nothing is written anywhere).
    /// - Parameters:
    ///   - recording: the recording (one file, or several side by side).
    ///   - analysis: decoding and analysis options (default: every default).
    /// - Returns: the typed results and the summary.
    /// - Throws: ``RecordingError`` from decoding.
    /// - Complexity: one pass over the samples; memory O(rows) for the results.
    public static func results(
        of recording: RecordingInput,
        analysis: AnalysisConfiguration = AnalysisConfiguration()
    ) throws -> RecordingResults {
        let sink = CollectingSink()
        let summary = try run(recording: recording, analysis: analysis, sink: sink)
        return RecordingResults(summary: summary, typed: sink.committed)
    }
}

/// Keeps a recording's typed rows in memory.
final class CollectingSink: ResultSink {
    var staged: [String: [Any]] = [:]
    var committed: [String: [Any]] = [:]

    func begin(recording: String) throws { staged = [:] }
    func declare(_ table: ResultTable) throws { staged[table.name, default: []] += [] }
    func emit<Row>(_ schema: TableSchema<Row>, _ row: Row) throws { staged[schema.table.name, default: []].append(row) }
    func write(_ table: ResultTable, values: [ResultValue]) throws {}
    func commit() throws {
        committed = staged
        staged = [:]
    }
    func rollback() { staged = [:] }
}

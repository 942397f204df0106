import Cardio
import Signals

/// Every result of one recording, typed: the rows each family emitted, kept as the values the
/// tables are built from, retrievable per family (`results[ECGFamily.self]`, ``subscript(_:)``)
/// or per declared schema (``rows(_:)``). What ``RecordingAnalysis`` writes to a sink, held in
/// memory instead (for analysis code; a batch streams to a database).
///
/// ```swift
/// let results = try RecordingAnalysis.results(of: RecordingInput(path: path))
/// for ecg in results[ECGFamily.self] { print(ecg.streamName, ecg.meanHeartRateBPM ?? .nan) }
/// print(results[MotionFamily.self].epochs.count, results[PPGFamily.self].heartRate.count)
/// ```
public struct RecordingResults: Sendable {
    /// The analysis summary (streams, accounts, what analysed them, issues).
    public var summary: RecordingAnalysis.Summary
    /// Every emitted row, typed per table, with the streams each family analysed and the issues.
    public var rows: ResultRows

    /// Pairs a summary with the rows of the same run (the streams per family and the issues
    /// are taken from the summary).
    /// - Parameters:
    ///   - summary: the run's summary.
    ///   - rows: the rows it emitted.
    public init(summary: RecordingAnalysis.Summary, rows: ResultRows) {
        self.summary = summary
        var rows = rows
        for s in summary.streamSummaries {
            for family in s.analyses { rows.streamsByFamily[family, default: []].append(s.key.description) }
        }
        rows.issues = summary.analysisIssues
        self.rows = rows
    }

    /// A family's typed results (`results[ECGFamily.self]`: one ``ECGResults`` per ECG stream;
    /// `results[PPGFamily.self]`: ``PPGResults``; ``MotionResults``; ``FeaturesResults``).
    /// - Parameter family: the family type.
    /// - Complexity: that of the family's ``ResultsProvidingFamily/results(from:)``.
    public subscript<F: ResultsProvidingFamily>(_ family: F.Type) -> F.Results {
        F.results(from: rows)
    }

    /// The rows of a table, typed as its schema declares them.
    /// - Parameter schema: a declared table (e.g. ``BeatSeriesTables/beats``).
    /// - Returns: its rows in emission order (empty when the table got none).
    /// - Complexity: O(1).
    public func rows<Row>(_ schema: TableSchema<Row>) -> [Row] { rows.rows(schema) }

    /// The ECG results per ECG stream.
    @available(*, deprecated, message: "use results[ECGFamily.self]")
    public var ecg: [ECGResults] { self[ECGFamily.self] }
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
        return RecordingResults(summary: summary, rows: sink.committed)
    }
}

/// Keeps a recording's typed rows in memory.
final class CollectingSink: ResultSink {
    var staged = ResultRows()
    var committed = ResultRows()

    func begin(recording: String) throws { staged = ResultRows() }
    func declare(_ table: ResultTable) throws {}
    func emit<Row>(_ schema: TableSchema<Row>, _ row: Row) throws { staged.append(row, to: schema) }
    func write(_ table: ResultTable, values: [ResultValue]) throws {}
    func commit() throws {
        committed = staged
        staged = ResultRows()
    }
    func rollback() { staged = ResultRows() }
}

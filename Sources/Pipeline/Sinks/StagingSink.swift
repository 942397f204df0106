/// The rows of one recording's analysis, held in memory so that analyses can run in parallel
/// and a single writer stores them (``BatchDatabase/store(path:size:contentHash:summary:results:)``).
public struct StagedResults: Sendable {
    /// Tables and their rows, in the order they were written.
    public var tables: [(table: ResultTable, rows: [[ResultValue]])] = []
}

/// A ``ResultSink`` that keeps the committed rows in memory (``staged``).
public final class StagingSink: ResultSink {
    private var pending = StagedResults()
    /// The rows of the last committed recording.
    public private(set) var staged = StagedResults()

    /// Creates an empty staging sink.
    public init() {}

    public func begin(recording: String) throws { pending = StagedResults() }

    public func write(_ table: ResultTable, rows: [[ResultValue]]) throws {
        pending.tables.append((table, rows))
    }

    public func commit() throws {
        staged = pending
        pending = StagedResults()
    }

    public func rollback() { pending = StagedResults() }
}

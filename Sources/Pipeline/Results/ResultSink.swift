import Signals

/// Where result rows go. Rows of one recording are written between ``begin(recording:)`` and
/// ``commit()`` and become visible together: a crash or ``rollback()`` leaves none of them.
/// Analyses write through ``ResultOutput/emit(_:_:)`` as their rows become final.
public protocol ResultSink: ResultOutput {
    /// Starts a recording's results.
    func begin(recording: String) throws
    /// Makes sure `table` exists in the output even when it gets no row (a family that claimed a
    /// stream lists all its tables).
    func declare(_ table: ResultTable) throws
    /// Appends one row (exactly the table's columns, in order; built by a ``TableSchema``).
    func write(_ table: ResultTable, values: [ResultValue]) throws
    /// Makes the recording's rows visible, atomically.
    func commit() throws
    /// Discards the recording's rows.
    func rollback()
}

extension ResultSink {
    /// Builds the row's values from its declaration and writes them.
    public func emit<Row>(_ schema: TableSchema<Row>, _ row: Row) throws {
        try write(schema.table, values: schema.values(of: row))
    }
}

import Pipeline

extension ResultSink {
    /// Writes several rows (test shorthand).
    func write(_ table: ResultTable, rows: [[ResultValue]]) throws {
        for r in rows { try write(table, values: r) }
    }
}

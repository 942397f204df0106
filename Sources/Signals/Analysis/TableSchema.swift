/// A result table declared once: its description (``ResultTable``) and, for every column, how
/// the value is read from a typed row. Rows, sinks and the documentation all come from this one
/// declaration, so a row can never hold its values in another order than its columns.
///
/// ```swift
/// let beats = TableSchema<Streamed<ECGBeat>>(name: "beats", summary: "R-peaks") {
///     Column("stream", .text, "stream key") { .text($0.stream) }
///     Column("time", .real, unit: "s", "detection time") { .finite($0.value.detectionTimeSeconds) }
/// }
/// output.emit(beats, Streamed(stream: key, value: beat))
/// ```
public struct TableSchema<Row: Sendable>: Sendable {
    /// One declared column: its description and its reader.
    public struct Column: Sendable {
        /// Name, type, unit and meaning.
        public let description: ResultColumn
        /// Reads the column's value from a row.
        public let value: @Sendable (Row) -> ResultValue

        /// Declares a column.
        /// - Parameters:
        ///   - name: stable column name.
        ///   - type: storage type.
        ///   - unit: unit (`"s"`, `"ms"`, …) or `nil`.
        ///   - summary: one-line meaning.
        ///   - value: reads the value from a row.
        public init(
            _ name: String, _ type: ResultType, unit: String? = nil, _ summary: String,
            value: @escaping @Sendable (Row) -> ResultValue
        ) {
            self.description = ResultColumn(name, type, unit: unit, summary)
            self.value = value
        }
    }

    /// The table's description (what sinks create and documents list).
    public let table: ResultTable
    /// The declared columns, in order.
    public let columns: [Column]

    /// Declares a table.
    /// - Parameters:
    ///   - name: table name (unique across every family: tables never share a name).
    ///   - summary: one-line meaning.
    ///   - columns: the columns, in output order.
    ///   - wideCSV: also write the table as wide CSV files (``WideCSVLayout``); default none.
    public init(name: String, summary: String, columns: [Column], wideCSV: WideCSVLayout? = nil) {
        precondition(Set(columns.map(\.description.name)).count == columns.count, "duplicate column in \(name)")
        var table = ResultTable(name: name, summary: summary, columns: columns.map(\.description))
        table.wideCSV = wideCSV
        self.table = table
        self.columns = columns
    }

    /// The row's values, in column order.
    /// - Complexity: O(columns).
    public func values(of row: Row) -> [ResultValue] {
        columns.map { $0.value(row) }
    }
}

/// A typed row together with the key of the stream it belongs to (the `stream` column every
/// per-stream table starts with).
public struct Streamed<Value: Sendable>: Sendable {
    /// The stream key as the tables write it (``StreamKey/description``).
    public var stream: String
    /// The row's value.
    public var value: Value

    /// Pairs a value with its stream.
    public init(stream: String, value: Value) {
        self.stream = stream
        self.value = value
    }
}

/// Where an analysis sends its rows, as they become final, and the events of the derived series
/// it publishes. Sinks (SQLite, CSV, a worker's spool, an in-memory collector) conform; analyses
/// never know which one they write to.
public protocol ResultOutput: AnyObject {
    /// Appends one row to `schema`'s table.
    /// - Throws: the sink's error (the recording's transaction is then rolled back).
    func emit<Row>(_ schema: TableSchema<Row>, _ row: Row) throws
    /// Publishes one event of a derived series the analysis' family declares
    /// (``AnalysisFamily/publishes``) that is not a row. The runner queues it and hands it to
    /// the subscribed analyzers after the publishing call returns (never re-entrantly); other
    /// outputs ignore it (default).
    /// - Parameter event: the event, its values in the declaration's attribute order.
    /// - Throws: the output's error.
    func publish(_ event: DerivedEvent) throws
    /// Whether events of the series `id` published now reach anyone. A publisher may skip
    /// building events (and keeping what they need) while nobody receives them; the default
    /// says they do.
    /// - Parameter id: the series' ``DerivedSeries/id``.
    /// - Complexity: O(1) expected.
    func isSubscribed(to id: String) -> Bool
}

extension ResultOutput {
    /// Events are ignored by outputs that route none (sinks, collectors).
    public func publish(_ event: DerivedEvent) throws {}
    /// Events may be received (outputs that route none say so as well: they ignore them).
    public func isSubscribed(to id: String) -> Bool { true }
}

/// The type of a result column (maps to SQLite's `TEXT`, `INTEGER`, `REAL`).
public enum ResultType: String, Sendable, Hashable, Codable {
    case text = "TEXT", integer = "INTEGER", real = "REAL"
}

/// One column of a result table: name, type, unit and meaning, so every table documents itself
/// (`docs/RESULTS.md` is generated from these).
public struct ResultColumn: Sendable, Hashable, Codable {
    /// Column name (stable; used in CSV headers and SQLite).
    public var name: String
    /// Storage type.
    public var type: ResultType
    /// Unit, e.g. `"s"`, `"ms"`, `"bpm"`, `"ms^2"`, or `nil` when dimensionless/categorical.
    public var unit: String?
    /// One-line meaning.
    public var summary: String

    /// Creates a column.
    public init(_ name: String, _ type: ResultType, unit: String? = nil, _ summary: String) {
        self.name = name
        self.type = type
        self.unit = unit
        self.summary = summary
    }
}

/// The schema of one result table, shared by every sink (CSV folder, SQLite, NDJSON).
public struct ResultTable: Sendable, Hashable, Codable {
    /// Table name (`beats`, `heart_rate`, …), also the CSV file's base name.
    public var name: String
    /// One-line meaning.
    public var summary: String
    /// Columns in order.
    public var columns: [ResultColumn]

    /// Creates a table schema.
    public init(name: String, summary: String, columns: [ResultColumn]) {
        self.name = name
        self.summary = summary
        self.columns = columns
    }
}

/// One value of a result row.
public enum ResultValue: Sendable, Hashable {
    case text(String)
    case integer(Int)
    case real(Double)
    case null

    /// A real value, or `null` when it is not finite (NaN/∞ are never written as numbers).
    public static func finite(_ x: Double?) -> ResultValue {
        guard let x, x.isFinite else { return .null }
        return .real(x)
    }
}

/// Where result rows go. Rows of one recording are written between ``begin(recording:)`` and
/// ``commit()`` and become visible together: a crash or ``rollback()`` leaves none of them.
public protocol ResultSink: AnyObject {
    /// Starts a recording's results.
    func begin(recording: String) throws
    /// Appends rows (each with exactly the table's columns, in order) to `table`.
    func write(_ table: ResultTable, rows: [[ResultValue]]) throws
    /// Makes the recording's rows visible, atomically.
    func commit() throws
    /// Discards the recording's rows.
    func rollback()
}

/// The type of a result column (maps to SQLite's `TEXT`, `INTEGER`, `REAL`).
public enum ResultType: String, Sendable, Hashable, Codable {
    case text = "TEXT", integer = "INTEGER", real = "REAL"
}

/// One column of a result table: name, type, unit and meaning, so every table documents itself
/// (`docs/RESULTS.md` is checked against these by a test).
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

/// The description of one result table (name, meaning, columns), shared by every sink (CSV
/// folder, SQLite) and the documentation. Rows are built only through a ``TableSchema``, which
/// carries this description together with how each column is read from a typed row.
public struct ResultTable: Sendable, Hashable, Codable {
    /// Table name (`beats`, `heart_rate`, …), also the CSV file's base name.
    public var name: String
    /// One-line meaning.
    public var summary: String
    /// Columns in order.
    public var columns: [ResultColumn]
    /// Also written as wide CSV files by the CSV sinks (``WideCSVLayout``), or `nil`.
    public var wideCSV: WideCSVLayout? = nil

    /// Creates a table description.
    public init(name: String, summary: String, columns: [ResultColumn]) {
        self.name = name
        self.summary = summary
        self.columns = columns
    }

    /// The column signature `name TYPE, name TYPE, …` that stores compare on resume and merge.
    public var signature: String {
        columns.map { "\($0.name) \($0.type.rawValue)" }.joined(separator: ", ")
    }
}

/// One value of a result row.
public enum ResultValue: Sendable, Hashable {
    case text(String)
    case integer(Int)
    case real(Double)
    case null

    /// A real value, or `null` when it is `nil` or not finite (NaN/∞ are never written as numbers).
    public static func finite(_ x: Double?) -> ResultValue {
        guard let x, x.isFinite else { return .null }
        return .real(x)
    }

    /// An integer value, or `null` when `nil`.
    public static func optional(_ x: Int?) -> ResultValue {
        x.map { .integer($0) } ?? .null
    }

    /// A text value, or `null` when `nil`.
    public static func optional(_ x: String?) -> ResultValue {
        x.map { .text($0) } ?? .null
    }
}

/// A problem that left part of a recording unanalysed, with the family and stream it concerns.
public struct AnalysisIssue: Sendable, Hashable, CustomStringConvertible {
    /// The family that reported it (``AnalysisFamily/name``), or `nil` for the decoder's issues.
    public var family: String?
    /// The stream key it concerns (``StreamKey/description``), or `nil` for the whole recording.
    public var stream: String?
    /// What happened.
    public var message: String

    /// Creates an issue.
    /// - Parameters:
    ///   - family: the reporting family, or `nil`.
    ///   - stream: the stream key, or `nil`.
    ///   - message: what happened.
    public init(family: String? = nil, stream: String? = nil, message: String) {
        self.family = family
        self.stream = stream
        self.message = message
    }

    /// `stream: message`, or the message alone.
    public var description: String { stream.map { "\($0): \(message)" } ?? message }
}

/// The rows of one table, typed as its schema declares them.
private struct TypedRows<Row: Sendable>: Sendable {
    var rows: [Row]
}

/// Every row a recording's analysis emitted, kept typed per table (what a sink would have written),
/// with the streams each family analysed and the issues: what a family reads its typed results
/// from (``ResultsProvidingFamily``).
public struct ResultRows: Sendable {
    private var tables: [String: any Sendable] = [:]
    /// Per family name, the stream keys it analysed, in stream order.
    public var streamsByFamily: [String: [String]] = [:]
    /// Every issue of the recording (the decoders' and the families').
    public var issues: [AnalysisIssue] = []

    /// No rows.
    public init() {}

    /// Appends a row to its table.
    /// - Complexity: amortised O(1).
    public mutating func append<Row>(_ row: Row, to schema: TableSchema<Row>) {
        let name = schema.table.name
        var typed = tables.removeValue(forKey: name) as? TypedRows<Row> ?? TypedRows(rows: [])
        typed.rows.append(row)
        tables[name] = typed
    }

    /// The rows of a table, in emission order (empty when the table got none).
    /// - Complexity: O(1).
    public func rows<Row>(_ schema: TableSchema<Row>) -> [Row] {
        (tables[schema.table.name] as? TypedRows<Row>)?.rows ?? []
    }

    /// Names of the tables that got rows.
    public var tableNames: [String] { tables.keys.sorted() }
}

/// A family whose results can be read back typed from what it emitted
/// (`results[ECGFamily.self]`).
public protocol ResultsProvidingFamily: AnalysisFamily {
    /// The family's typed results for one recording.
    associatedtype Results: Sendable
    /// Builds the typed results from the recording's rows.
    /// - Parameter rows: every row of the recording, the streams each family analysed and the issues.
    static func results(from rows: ResultRows) -> Results
}

extension RecordingAnalyzer {
    /// ``issues`` without a stream (analyses that report per stream implement this themselves).
    public var streamIssues: [AnalysisIssue] { issues.map { AnalysisIssue(message: $0) } }
}

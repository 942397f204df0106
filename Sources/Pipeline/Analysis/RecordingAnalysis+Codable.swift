import Signals

// The run summary as JSON (`Codable`): keys are the Swift property names, `analysisRows` a list
// of `{table, rows}` objects, an aggregate's `minimum`/`maximum` absent without facts (they are
// ±∞ then, which JSON cannot hold). Schema version 1 (`RecordingAnalysis.Summary.schemaVersion`).

extension RecordingAnalysis.StreamSummary: Codable {
    private enum CodingKeys: String, CodingKey {
        case key, file, timeOrigin, attributes, analyses, account, role
    }

    /// Decodes a stream summary (``encode(to:)``'s form).
    /// - Throws: `DecodingError` naming the member that is missing or of the wrong type.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            key: try c.decode(StreamKey.self, forKey: .key), file: try c.decode(String.self, forKey: .file),
            timeOrigin: try c.decode(TimeOrigin.self, forKey: .timeOrigin),
            attributes: try c.decode([String: String].self, forKey: .attributes),
            analyses: try c.decode([String].self, forKey: .analyses), account: try c.decode(StreamQC.self, forKey: .account),
            role: try c.decode(StreamRole.self, forKey: .role))
    }

    /// Encodes every member under its property name.
    /// - Throws: the encoder's error.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(key, forKey: .key)
        try c.encode(file, forKey: .file)
        try c.encode(timeOrigin, forKey: .timeOrigin)
        try c.encode(attributes, forKey: .attributes)
        try c.encode(analyses, forKey: .analyses)
        try c.encode(account, forKey: .account)
        try c.encode(role, forKey: .role)
    }
}

extension RecordingAnalysis.Summary: Codable {
    /// Version of the summary's JSON form; raised when a member changes meaning or form.
    public static let schemaVersion = 1

    private enum CodingKeys: String, CodingKey {
        case schemaVersion, streamSummaries, rowsByTable, tables, analysisIssues, rejectedWithoutStream, files, analysisRows
        case recordingSummaries
    }

    private struct Issue: Codable {
        var family: String?
        var stream: String?
        var message: String
    }

    private struct TableRows: Codable {
        var table: String
        var rows: Int
    }

    /// Decodes a summary (``encode(to:)``'s form, any schema version up to ``schemaVersion``).
    /// - Throws: `DecodingError` naming the member that is missing, of the wrong type, or a
    ///   newer schema version.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let version = try c.decode(Int.self, forKey: .schemaVersion)
        guard version <= Self.schemaVersion else {
            throw DecodingError.dataCorruptedError(
                forKey: .schemaVersion, in: c, debugDescription: "summary schema \(version) is newer than \(Self.schemaVersion)")
        }
        self.init()
        streamSummaries = try c.decode([RecordingAnalysis.StreamSummary].self, forKey: .streamSummaries)
        rowsByTable = try c.decode([String: Int].self, forKey: .rowsByTable)
        tables = try c.decode([String].self, forKey: .tables)
        analysisIssues = try c.decode([Issue].self, forKey: .analysisIssues).map {
            AnalysisIssue(family: $0.family, stream: $0.stream, message: $0.message)
        }
        rejectedWithoutStream = try c.decode(Int.self, forKey: .rejectedWithoutStream)
        files = try c.decode([String].self, forKey: .files)
        analysisRows = try c.decode([TableRows].self, forKey: .analysisRows).map { (table: $0.table, rows: $0.rows) }
        recordingSummaries = try c.decode([RecordingSummaryRow].self, forKey: .recordingSummaries)
    }

    /// Encodes the summary with its ``schemaVersion``.
    /// - Throws: the encoder's error.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(Self.schemaVersion, forKey: .schemaVersion)
        try c.encode(streamSummaries, forKey: .streamSummaries)
        try c.encode(rowsByTable, forKey: .rowsByTable)
        try c.encode(tables, forKey: .tables)
        try c.encode(analysisIssues.map { Issue(family: $0.family, stream: $0.stream, message: $0.message) }, forKey: .analysisIssues)
        try c.encode(rejectedWithoutStream, forKey: .rejectedWithoutStream)
        try c.encode(files, forKey: .files)
        try c.encode(analysisRows.map { TableRows(table: $0.table, rows: $0.rows) }, forKey: .analysisRows)
        try c.encode(recordingSummaries, forKey: .recordingSummaries)
    }
}

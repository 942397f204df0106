import Foundation
import Pipeline

/// What a report section reads: the database rows of one recording, its time axis, and the
/// signal read back from its files. Family sections (``FamilySection``) receive it.
struct ReportContext {
    let db: ReportDatabase
    /// `recordings.id`.
    let recordingID: Int
    /// The `recordings` row.
    let recording: ReportDatabase.Row
    /// The `streams` rows, by stream index.
    let streams: [ReportDatabase.Row]
    /// Start and end of the recording's timeline (stream time scale, s).
    let t0: Double, t1: Double
    /// How times read.
    let time: TimeScale
    /// Tables in the database.
    let tables: Set<String>
    /// What was read back from the files (filled after the sections asked for strips).
    var readback = SignalReadback()
    /// The families with results in this recording (``FamilySection/hasResults(_:_:)``, asked once).
    var familiesWithResults = Set<String>()

    /// The columns `table` has in this database (a database written by an older version may
    /// lack a declared column); empty when the table is absent.
    func columns(_ table: String) throws(ReportError) -> Set<String> {
        guard tables.contains(table) else { return [] }
        return try db.columns(of: table)
    }

    /// The declared rows of this recording, with more conditions, in order.
    /// - Parameters:
    ///   - r: the declared row set.
    ///   - extra: more conditions (column = one of the values).
    ///   - notNull: columns that must hold a value.
    ///   - orderBy: ordering criteria; `labelRank` orders a label column by its listed labels first.
    ///   - limit: at most this many rows.
    /// - Returns: the rows; none when the table, or a column a condition names, is absent.
    func select(
        _ r: ReportRows, _ extra: [ReportFilter] = [], notNull: [String] = [], orderBy: [ReportOrder] = [],
        labelRank: (column: String, labels: [String])? = nil, within: [(column: String, lo: Double, hi: Double)] = [],
        limit: Int? = nil
    ) throws(ReportError) -> [ReportDatabase.Row] {
        var rows = [ReportDatabase.Row]()
        try each(r, extra, notNull: notNull, orderBy: orderBy, labelRank: labelRank, within: within, limit: limit) { rows.append($0) }
        return rows
    }

    /// ``select(_:_:notNull:orderBy:labelRank:within:limit:)`` row by row, keeping none: memory
    /// follows one row, never the table.
    func each(
        _ r: ReportRows, _ extra: [ReportFilter] = [], notNull: [String] = [], orderBy: [ReportOrder] = [],
        labelRank: (column: String, labels: [String])? = nil, within: [(column: String, lo: Double, hi: Double)] = [],
        limit: Int? = nil, columns selected: String = "*", _ body: (ReportDatabase.Row) -> Void
    ) throws(ReportError) {
        guard db.mayHaveRows(r.table.name) else { return }
        let have = try columns(r.table.name)
        let filters = r.filters + extra
        var named: [String] = filters.map(\.column)
        named += notNull
        named += orderBy.map(\.column)
        named += within.map(\.column)
        if let rank = labelRank { named.append(rank.column) }
        guard !have.isEmpty, named.allSatisfy({ have.contains($0) }) else { return }
        var sql = "SELECT \(selected) FROM \(Self.quote(r.table.name)) WHERE recording_id = ?"
        var parameters: [ReportDatabase.Value] = [.integer(recordingID)]
        for f in filters {
            sql += " AND \(Self.quote(f.column)) IN (" + f.values.map { _ in "?" }.joined(separator: ", ") + ")"
            parameters += f.values.map { .text($0) }
        }
        for column in notNull { sql += " AND \(Self.quote(column)) IS NOT NULL" }
        if !within.isEmpty {
            // Any of the columns within its range.
            sql += " AND (" + within.map { "\(Self.quote($0.column)) BETWEEN ? AND ?" }.joined(separator: " OR ") + ")"
            for w in within { parameters += [.real(w.lo), .real(w.hi)] }
        }
        var order = [String]()
        if let rank = labelRank {
            order.append(
                "CASE \(Self.quote(rank.column)) " + rank.labels.map { _ in "WHEN ? THEN ? " }.joined()
                    + "ELSE \(rank.labels.count) END DESC")
            for (k, label) in rank.labels.enumerated() { parameters += [.text(label), .integer(k)] }
        }
        order += orderBy.map { "\(Self.quote($0.column)) \($0.descending ? "DESC" : "ASC")" }
        if !order.isEmpty { sql += " ORDER BY " + order.joined(separator: ", ") }
        if let limit { sql += " LIMIT \(limit)" }
        try db.each(sql, parameters, body)
    }

    /// How many declared rows this recording has (SQLite counts; no row is read).
    func count(_ r: ReportRows) throws(ReportError) -> Int {
        var n = 0
        try each(r, columns: "count(*) AS n") { n = $0.int("n") ?? 0 }
        return n
    }

    /// Whether the declared rows exist for this recording.
    func exists(_ r: ReportRows) throws(ReportError) -> Bool { try !select(r, limit: 1).isEmpty }

    /// An SQL identifier, quoted.
    static func quote(_ name: String) -> String {
        guard name.utf8.contains(UInt8(ascii: "\"")) else { return "\"" + name + "\"" }
        return "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// The stream's row in `streams`.
    func stream(_ key: String) -> ReportDatabase.Row? { streams.first { $0.text("stream") == key } }

    /// A new plot over the recording's timeline.
    func plot(id: String, title: String, yLabel: String, v0: Double, v1: Double, height: Double = 230) -> Plot {
        var p = Plot(id: id, title: title, t0: t0, t1: t1, v0: v0, v1: v1, time: time, yLabel: yLabel)
        p.height = height
        return p
    }
}

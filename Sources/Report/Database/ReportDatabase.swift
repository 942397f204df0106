import CSQLite
import Foundation
import Pipeline
import Recordings

/// A results database opened read-only for reports (``Report``). The report reads rows only:
/// it never writes to the database, so it can run while a batch is writing (WAL).
final class ReportDatabase {
    let path: String
    private let handle: OpaquePointer
    /// Columns per table, read once.
    private var columnCache: [String: Set<String>] = [:]
    /// The database's tables, read once when it is opened.
    private(set) var tables: Set<String> = []
    /// The declared result tables holding at least one row, read once when the database is
    /// opened (one statement), or `nil` when that could not be read: queries of a table known to
    /// be empty are not run (most families have no rows in a small database).
    private var filled: Set<String>?

    /// Opens `path` read-only (``SQLiteReadOnly/uri(_:)``: immutable when no writer has it open,
    /// so a database in a folder the user cannot write is read).
    /// - Throws: ``ReportError`` when the file is missing or not an SQLite database.
    init(path: String) throws(ReportError) {
        guard FileManager.default.fileExists(atPath: path) else {
            throw ReportError(code: .databaseMissing, message: "\(path): no such file")
        }
        var db: OpaquePointer?
        let uri = SQLiteReadOnly.uri(path)
        let rc = sqlite3_open_v2(uri, &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX, nil)
        guard rc == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close_v2(db)
            throw ReportError(code: .databaseUnreadable, message: "\(path): \(message)")
        }
        sqlite3_busy_timeout(db, 10_000)
        self.path = path
        handle = db
        sqlite3_exec(db, "PRAGMA trusted_schema = OFF", nil, nil, nil)
        let names: Set<String>
        do {
            names = try tableNames()
        } catch {
            // Not "not a results database": what SQLite said (not a database, cannot open its log, …).
            let hint =
                uri.hasSuffix("mode=ro")
                ? " (it has a write-ahead log, \(path)-wal, which a read-only reader opens through \(path)-shm: "
                    + "give write access to its folder, or let the program writing it finish)" : ""
            throw ReportError(
                code: .databaseUnreadable, message: "\(path): cannot read: \(String(cString: sqlite3_errmsg(db)))\(hint)")
        }
        guard names.contains("recordings") else {
            throw ReportError(
                code: .databaseUnreadable, message: "\(path): not a sensorpipe results database (no recordings table)")
        }
        tables = names
        filled = try? filledTables(among: AnalysisRegistry.resultTables.map(\.name).filter(names.contains))
    }

    /// Which of `names` hold a row: one statement (`SELECT EXISTS(SELECT 1 FROM …)` per table).
    private func filledTables(among names: [String]) throws(ReportError) -> Set<String> {
        guard !names.isEmpty else { return [] }
        let sql = names.map { "SELECT ? AS name, EXISTS (SELECT 1 FROM \(ReportContext.quote($0))) AS filled" }
            .joined(separator: " UNION ALL ")
        var out = Set<String>()
        try each(sql, names.map { .text($0) }) { r in
            if r.int("filled") == 1, let name = r.text("name") { out.insert(name) }
        }
        return out
    }

    /// Whether `table` exists and may hold rows (false when it is known to be empty).
    func mayHaveRows(_ table: String) -> Bool { tables.contains(table) && (filled?.contains(table) ?? true) }

    deinit {
        for s in statements.values { sqlite3_finalize(s.stmt) }
        sqlite3_close_v2(handle)
    }

    /// Prepared statements by SQL text with their column names, reused (reset and re-bound) when
    /// the same query runs again (a series' two passes, every recording's queries): a page's
    /// queries are prepared once per report.
    private var statements: [String: (stmt: OpaquePointer, names: [String])] = [:]

    /// One value read from a result row.
    enum Value: Sendable, Hashable {
        case null, integer(Int), real(Double), text(String)

        var double: Double? {
            switch self {
            case .integer(let n): Double(n)
            case .real(let x): x
            default: nil
            }
        }
        var int: Int? {
            switch self {
            case .integer(let n): n
            case .real(let x): x.isFinite ? Int(x) : nil
            default: nil
            }
        }
        var string: String? {
            switch self {
            case .text(let s): s
            case .integer(let n): String(n)
            case .real(let x): String(x)
            case .null: nil
            }
        }
    }

    /// A result row: values by column name.
    struct Row: Sendable {
        var columns: [String: Value]
        subscript(_ name: String) -> Value { columns[name] ?? .null }
        func double(_ name: String) -> Double? { self[name].double }
        func int(_ name: String) -> Int? { self[name].int }
        func text(_ name: String) -> String? { self[name].string }
    }

    /// Runs a query with bound parameters and returns its rows.
    /// - Throws: ``ReportError`` with SQLite's message.
    func query(_ sql: String, _ parameters: [Value] = []) throws(ReportError) -> [Row] {
        var rows = [Row]()
        try each(sql, parameters) { rows.append($0) }
        return rows
    }

    /// Runs a query and calls `body` for every row (no rows kept).
    func each(_ sql: String, _ parameters: [Value] = [], _ body: (Row) -> Void) throws(ReportError) {
        // A cached statement is taken out while it runs (a query nested in `body` prepares its own).
        let stmt: OpaquePointer, names: [String]
        if let cached = statements.removeValue(forKey: sql) {
            (stmt, names) = cached
        } else {
            var prepared: OpaquePointer?
            let rc = sqlite3_prepare_v2(handle, sql, -1, &prepared, nil)
            guard rc == SQLITE_OK, let prepared else {
                throw ReportError(code: .query, message: "\(path): \(String(cString: sqlite3_errmsg(handle))) in \(sql.prefix(80))")
            }
            stmt = prepared
            names = (0..<sqlite3_column_count(prepared)).map { String(cString: sqlite3_column_name(prepared, $0)) }
        }
        defer {
            sqlite3_reset(stmt)
            sqlite3_clear_bindings(stmt)
            if statements[sql] == nil { statements[sql] = (stmt, names) } else { sqlite3_finalize(stmt) }
        }
        let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
        for (k, v) in parameters.enumerated() {
            let i = Int32(k + 1)
            switch v {
            case .null: sqlite3_bind_null(stmt, i)
            case .integer(let n): sqlite3_bind_int64(stmt, i, Int64(n))
            case .real(let x): sqlite3_bind_double(stmt, i, x)
            case .text(let s): sqlite3_bind_text(stmt, i, s, -1, transient)
            }
        }
        let n = Int32(names.count)
        while true {
            let step = sqlite3_step(stmt)
            if step == SQLITE_DONE { break }
            guard step == SQLITE_ROW else {
                throw ReportError(code: .query, message: "\(path): \(String(cString: sqlite3_errmsg(handle)))")
            }
            var columns = [String: Value](minimumCapacity: Int(n))
            for c in 0..<n {
                let name = names[Int(c)]
                switch sqlite3_column_type(stmt, c) {
                case SQLITE_INTEGER:
                    let v = sqlite3_column_int64(stmt, c)
                    columns[name] = plausible(Double(v), column: name) ? .integer(Int(v)) : .null
                case SQLITE_FLOAT:
                    let x = sqlite3_column_double(stmt, c)
                    columns[name] = plausible(x, column: name) ? .real(x) : .null
                case SQLITE_TEXT: columns[name] = .text(String(cString: sqlite3_column_text(stmt, c)))
                default: columns[name] = .null
                }
            }
            body(Row(columns: columns))
        }
    }

    // MARK: - Plausibility (the report survives any database)

    /// Largest magnitude of a number the report reads: 2^53, beyond which a Double no longer
    /// holds every integer (no count, id, size or time SensorPipe writes comes near it).
    static let largestMagnitude = 9_007_199_254_740_992.0
    /// Times the report reads (Unix seconds, or seconds from a stream's start): the decoders'
    /// rule (``InputLimits/resultTimeSeconds``: 1970 … 2106 for clock readings, ±2^32 s from a
    /// stream's start, and one day beyond for derived times). A session dated in milliseconds
    /// is outside it.
    static let timeRange = InputLimits.resultTimeSeconds
    /// UTC offsets: ±18 h, the analysis' rule (``SummaryTimeBasis/utcOffsetRange``).
    static let utcOffsetRange = SummaryTimeBasis.utcOffsetRange

    /// Whether a column holds times (seconds): `time`, `start`, `end` and names ending in
    /// `_time`, `_start` or `_end` (every declared time column; ``SQLiteResultSink``'s tables).
    static func isTimeColumn(_ name: String) -> Bool {
        name == "time" || name == "start" || name == "end" || name.hasSuffix("_time") || name.hasSuffix("_start")
            || name.hasSuffix("_end")
    }

    /// Distinct values the report skipped as implausible (bit patterns), per column, since
    /// ``resetSkipped()`` (each page names them).
    private(set) var skipped: [String: Set<UInt64>] = [:]

    /// Forgets the skipped values (a new page starts).
    func resetSkipped() { skipped = [:] }

    /// The rule every number read passes (else it is read as NULL and counted in ``skipped``):
    /// finite, at most ``largestMagnitude``, within ``timeRange`` in a time column and within
    /// ``utcOffsetRange`` in `utc_offset_s`.
    private func plausible(_ x: Double, column: String) -> Bool {
        var ok = x.isFinite && abs(x) <= Self.largestMagnitude
        if ok && Self.isTimeColumn(column) { ok = Self.timeRange.contains(x) }
        if ok && column == "utc_offset_s" { ok = Self.utcOffsetRange.contains(Int(x)) && x == x.rounded() }
        if !ok { skipped[column, default: []].insert(x.bitPattern) }
        return ok
    }

    /// A UTC offset read from text (`stream_attributes.value`), `nil` (and counted) outside ±18 h.
    func utcOffset(_ text: String?) -> Int? {
        guard let text else { return nil }
        guard let v = SummaryTimeBasis.utcOffset(text) else {
            skipped["utc_offset_s", default: []].insert((Double(text) ?? .nan).bitPattern)
            return nil
        }
        return v
    }

    /// What was skipped, for the page: `bpm: 2 distinct value(s), e.g. 1e+300`, or `nil`.
    var skippedText: String? {
        guard !skipped.isEmpty else { return nil }
        return skipped.sorted { $0.key < $1.key }.map { column, values in
            let example = values.map(Double.init(bitPattern:)).min { abs($0) > abs($1) } ?? .nan
            return "\(column): \(values.count) distinct value(s), e.g. \(example)"
        }.joined(separator: "; ")
    }

    /// Names of the database's tables.
    func tableNames() throws(ReportError) -> Set<String> {
        Set(try query("SELECT name FROM sqlite_master WHERE type = 'table'").compactMap { $0.text("name") })
    }

    /// The columns of `table` (empty when it does not exist).
    func columns(of table: String) throws(ReportError) -> Set<String> {
        if let known = columnCache[table] { return known }
        let names = Set(
            try query("SELECT name FROM pragma_table_info(?)", [.text(table)]).compactMap { $0.text("name") })
        columnCache[table] = names
        return names
    }
}

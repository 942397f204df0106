import CSQLite
import Foundation

/// A results database opened read-only for reports (``Report``). The report reads rows only:
/// it never writes to the database, so it can run while a batch is writing (WAL).
final class ReportDatabase {
    let path: String
    private let handle: OpaquePointer
    /// Columns per table, read once.
    private var columnCache: [String: Set<String>] = [:]

    /// Opens `path` read-only.
    /// - Throws: ``ReportError`` when the file is missing or not an SQLite database.
    init(path: String) throws(ReportError) {
        guard FileManager.default.fileExists(atPath: path) else {
            throw ReportError(code: .databaseMissing, message: "\(path): no such file")
        }
        var db: OpaquePointer?
        let rc = sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, nil)
        guard rc == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close_v2(db)
            throw ReportError(code: .databaseUnreadable, message: "\(path): \(message)")
        }
        sqlite3_busy_timeout(db, 10_000)
        self.path = path
        handle = db
        guard (try? tableNames().contains("recordings")) == true else {
            throw ReportError(
                code: .databaseUnreadable, message: "\(path): not a sensorpipe results database (no recordings table)")
        }
    }

    deinit { sqlite3_close_v2(handle) }

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
        var stmt: OpaquePointer?
        let rc = sqlite3_prepare_v2(handle, sql, -1, &stmt, nil)
        guard rc == SQLITE_OK, let stmt else {
            throw ReportError(code: .query, message: "\(path): \(String(cString: sqlite3_errmsg(handle))) in \(sql.prefix(80))")
        }
        defer { sqlite3_finalize(stmt) }
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
        let n = sqlite3_column_count(stmt)
        let names = (0..<n).map { String(cString: sqlite3_column_name(stmt, $0)) }
        while true {
            let step = sqlite3_step(stmt)
            if step == SQLITE_DONE { break }
            guard step == SQLITE_ROW else {
                throw ReportError(code: .query, message: "\(path): \(String(cString: sqlite3_errmsg(handle)))")
            }
            var columns = [String: Value](minimumCapacity: Int(n))
            for c in 0..<n {
                switch sqlite3_column_type(stmt, c) {
                case SQLITE_INTEGER: columns[names[Int(c)]] = .integer(Int(sqlite3_column_int64(stmt, c)))
                case SQLITE_FLOAT: columns[names[Int(c)]] = .real(sqlite3_column_double(stmt, c))
                case SQLITE_TEXT: columns[names[Int(c)]] = .text(String(cString: sqlite3_column_text(stmt, c)))
                default: columns[names[Int(c)]] = .null
                }
            }
            body(Row(columns: columns))
        }
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

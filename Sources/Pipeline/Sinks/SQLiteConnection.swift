import CSQLite
import Foundation
import Signals

/// An SQLite failure, with SQLite's own message (`sqlite3_errmsg`) and result code.
public struct SQLiteError: Error, CustomStringConvertible, Sendable {
    /// SQLite's (extended) result code.
    public var code: Int32
    /// What failed, and SQLite's message.
    public var message: String

    public var description: String { "SQLite error \(code): \(message)" }
}

/// How SensorPipe opens a database it only reads (`merge`'s inputs, `report`'s database).
public enum SQLiteReadOnly {
    /// The `file:` URI to open `path` with (`SQLITE_OPEN_READONLY | SQLITE_OPEN_URI`): immutable
    /// (`immutable=1`: no lock, no `-shm`, nothing written beside it, so a database in a folder
    /// the user cannot write opens) when it has no write-ahead log, i.e. no writer has it open;
    /// otherwise read-only through its log (`mode=ro`), so rows committed to the log are seen.
    /// - Complexity: one `stat`.
    public static func uri(_ path: String) -> String { SQLiteConnection.readOnlyURI(path) }
}

/// One SQLite connection (internal plumbing of ``SQLiteResultSink`` and ``BatchDatabase``).
/// Not thread-safe: one writer, used from one task at a time.
final class SQLiteConnection {
    let handle: OpaquePointer

    /// Opens or creates `path` in WAL mode with a busy timeout.
    /// - Parameters:
    ///   - path: the database file (a plain path, never read as a URI).
    ///   - attachesInputs: opens `path` as a `file:` URI so that ``attachReadOnly(_:as:)`` can
    ///     attach other databases read-only (`ATTACH` takes URIs only on such connections).
    init(path: String, busyTimeoutMilliseconds: Int32 = 10_000, attachesInputs: Bool = false) throws {
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX | (attachesInputs ? SQLITE_OPEN_URI : 0)
        handle = try Self.open(attachesInputs ? Self.uri(path) : path, flags: flags, busyTimeoutMilliseconds) {
            "cannot open \(path): \($0)"
        }
        // Functions with side effects never run from a view, trigger or default stored in a file.
        try execute("PRAGMA trusted_schema = OFF")
        try execute("PRAGMA journal_mode = WAL")
        try execute("PRAGMA synchronous = NORMAL")
        try execute("PRAGMA foreign_keys = ON")
    }

    /// Opens `path` for reading only, writing nothing beside it: immutable (`immutable=1`, no
    /// locks, no `-shm`) when it has no write-ahead log, i.e. no writer had it open; otherwise
    /// read-only through its log (`mode=ro`), so committed rows in the log are seen.
    /// - Throws: ``SQLiteError`` naming `path` and the cause (not a database, unreadable, a log
    ///   a read-only open cannot use).
    init(readOnly path: String) throws {
        let uri = Self.readOnlyURI(path)
        handle = try Self.open(uri, flags: SQLITE_OPEN_READONLY | SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX, 10_000) {
            "\(path): cannot open read-only: \($0)"
        }
        do {
            try execute("PRAGMA trusted_schema = OFF")
            _ = try prepare("SELECT COUNT(*) FROM sqlite_master").query([]) { $0.int(0) }
        } catch let e as SQLiteError {
            let hint =
                uri.hasSuffix("mode=ro")
                ? " (it has a write-ahead log, \(path)-wal, which a read-only open reads through \(path)-shm: "
                    + "give write access to its folder, or let the program that writes it finish)" : ""
            throw SQLiteError(code: e.code, message: "\(path): \(String(cString: sqlite3_errmsg(handle)))\(hint)")
        }
    }

    /// `sqlite3_open_v2` with extended result codes and a busy timeout; on failure SQLite's
    /// message, worded by `describe`.
    private static func open(
        _ filename: String, flags: Int32, _ busyTimeoutMilliseconds: Int32, describe: (String) -> String
    ) throws -> OpaquePointer {
        var db: OpaquePointer?
        let rc = sqlite3_open_v2(filename, &db, flags, nil)
        guard rc == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close_v2(db)
            throw SQLiteError(code: rc, message: describe(message))
        }
        sqlite3_extended_result_codes(db, 1)
        sqlite3_busy_timeout(db, busyTimeoutMilliseconds)
        return db
    }

    /// The `file:` URI that opens `path` read-only (see ``init(readOnly:)``).
    static func readOnlyURI(_ path: String) -> String {
        var info = stat()
        let log = stat(path + "-wal", &info) == 0 && info.st_size > 0
        return uri(path) + (log ? "?mode=ro" : "?mode=ro&immutable=1")
    }

    /// `path` as a `file:` URI (absolute, percent-encoded: `?`, `#` and `%` in names stay names).
    static func uri(_ path: String) -> String {
        let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        var out = "file:"
        for byte in absolute.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "/"), UInt8(ascii: "-"), UInt8(ascii: "_"),
                UInt8(ascii: "."), UInt8(ascii: "~"):
                out.append(Character(Unicode.Scalar(byte)))
            default:
                out += String(format: "%%%02X", byte)
            }
        }
        return out
    }

    /// Attaches `path` read-only as `alias` (connection opened with `attachesInputs`).
    func attachReadOnly(_ path: String, as alias: String) throws {
        let uri = Self.readOnlyURI(path)
        do {
            try execute("ATTACH DATABASE '\(uri.replacingOccurrences(of: "'", with: "''"))' AS \(alias)")
        } catch let e as SQLiteError {
            throw SQLiteError(code: e.code, message: "\(path): cannot attach read-only: \(String(cString: sqlite3_errmsg(handle)))")
        }
    }

    deinit { sqlite3_close_v2(handle) }

    func error(_ rc: Int32, _ what: String) -> SQLiteError {
        SQLiteError(code: rc, message: "\(what): \(String(cString: sqlite3_errmsg(handle)))")
    }

    /// Runs one or more statements without results.
    func execute(_ sql: String) throws {
        var message: UnsafeMutablePointer<CChar>?
        let rc = sqlite3_exec(handle, sql, nil, nil, &message)
        if rc != SQLITE_OK {
            let text = message.map { String(cString: $0) } ?? String(cString: sqlite3_errmsg(handle))
            sqlite3_free(message)
            throw SQLiteError(code: rc, message: "\(sql.prefix(80)): \(text)")
        }
    }

    /// Compiles a statement.
    func prepare(_ sql: String) throws -> SQLiteStatement {
        var stmt: OpaquePointer?
        let rc = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &stmt, nil)
        guard rc == SQLITE_OK, let stmt else { throw error(rc, "cannot prepare \(sql.prefix(80))") }
        return SQLiteStatement(connection: self, stmt: stmt)
    }

    /// The rowid of the last insert.
    var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    /// `PRAGMA user_version`.
    func userVersion() throws -> Int {
        let s = try prepare("PRAGMA user_version")
        return try s.query([]) { $0.int(0) }.first ?? 0
    }

    /// Whether a transaction is open.
    var inTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }

    /// Quotes an SQL identifier.
    static func quote(_ name: String) -> String {
        // Most names hold no quote: no Foundation search (a merge quotes every declared column).
        guard name.utf8.contains(UInt8(ascii: "\"")) else { return "\"" + name + "\"" }
        return "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}

/// A prepared statement, reset and re-bound on every use.
final class SQLiteStatement {
    unowned let connection: SQLiteConnection
    let stmt: OpaquePointer

    init(connection: SQLiteConnection, stmt: OpaquePointer) {
        self.connection = connection
        self.stmt = stmt
    }

    deinit { sqlite3_finalize(stmt) }

    /// SQLite's "copy the bytes now" destructor.
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    /// Binds `values` to parameters 1…n; a non-finite real is bound as NULL.
    func bind(_ values: [ResultValue]) throws {
        sqlite3_reset(stmt)
        sqlite3_clear_bindings(stmt)
        for (k, v) in values.enumerated() {
            let i = Int32(k + 1)
            let rc: Int32
            switch v {
            case .null: rc = sqlite3_bind_null(stmt, i)
            case .integer(let n): rc = sqlite3_bind_int64(stmt, i, Int64(n))
            case .real(let x): rc = x.isFinite ? sqlite3_bind_double(stmt, i, x) : sqlite3_bind_null(stmt, i)
            case .text(let s): rc = sqlite3_bind_text(stmt, i, s, -1, Self.transient)
            }
            guard rc == SQLITE_OK else { throw connection.error(rc, "cannot bind parameter \(i)") }
        }
    }

    /// Runs the statement with `values` (no result rows expected).
    func run(_ values: [ResultValue]) throws {
        try bind(values)
        let rc = sqlite3_step(stmt)
        defer { sqlite3_reset(stmt) }
        guard rc == SQLITE_DONE || rc == SQLITE_ROW else {
            throw connection.error(rc, "cannot run \(String(cString: sqlite3_sql(stmt)).prefix(80))")
        }
    }

    /// Runs the statement and maps each result row.
    func query<T>(_ values: [ResultValue], _ row: (SQLiteStatement) throws -> T) throws -> [T] {
        try bind(values)
        defer { sqlite3_reset(stmt) }
        var out = [T]()
        while true {
            let rc = sqlite3_step(stmt)
            if rc == SQLITE_DONE { break }
            guard rc == SQLITE_ROW else {
                throw connection.error(rc, "cannot query \(String(cString: sqlite3_sql(stmt)).prefix(80))")
            }
            out.append(try row(self))
        }
        return out
    }

    func int(_ column: Int32) -> Int { Int(sqlite3_column_int64(stmt, column)) }
    func double(_ column: Int32) -> Double { sqlite3_column_double(stmt, column) }
    func isNull(_ column: Int32) -> Bool { sqlite3_column_type(stmt, column) == SQLITE_NULL }
    func text(_ column: Int32) -> String? {
        guard let p = sqlite3_column_text(stmt, column) else { return nil }
        return String(cString: p)
    }
}

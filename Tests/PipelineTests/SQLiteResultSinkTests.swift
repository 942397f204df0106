import CSQLite
import Foundation
import Pipeline
import Testing

/// Reads one integer/real/text cell with a separate read-only connection (what another process sees).
func sqliteScalar(_ path: String, _ sql: String) throws -> String? {
    var db: OpaquePointer?
    guard sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, nil) == SQLITE_OK else { throw CocoaError(.fileReadUnknown) }
    defer { sqlite3_close_v2(db) }
    var stmt: OpaquePointer?
    guard sqlite3_prepare_v2(db, sql, -1, &stmt, nil) == SQLITE_OK else {
        throw CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: String(cString: sqlite3_errmsg(db))])
    }
    defer { sqlite3_finalize(stmt) }
    guard sqlite3_step(stmt) == SQLITE_ROW else { return nil }
    if sqlite3_column_type(stmt, 0) == SQLITE_NULL { return "NULL" }
    return String(cString: sqlite3_column_text(stmt, 0))
}

@Suite("SQLiteResultSink: transactional SQLite tables")
struct SQLiteResultSinkTests {
    let table = ResultTable(
        name: "demo", summary: "test",
        columns: [
            ResultColumn("stream", .text, "stream"), ResultColumn("time", .real, unit: "s", "time"),
            ResultColumn("n", .integer, "count"),
        ])

    func temporaryPath() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("sink-\(UUID().uuidString).sqlite").path
    }

    func remove(_ path: String) {
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    }

    @Test("rows are visible only after commit, tagged with the recording; schema version set")
    func commitVisibility() throws {
        let path = temporaryPath()
        defer { remove(path) }
        let sink = try SQLiteResultSink(path: path, tables: [table])
        try sink.begin(recording: "a.ndjson")
        try sink.write(table, rows: [[.text("s,1"), .real(1.5), .integer(3)], [.text("x"), .real(2), .null]])
        #expect(try sqliteScalar(path, "SELECT count(*) FROM demo") == "0")
        let id = try #require(sink.recordingID)
        try sink.commit()
        #expect(try sqliteScalar(path, "SELECT count(*) FROM demo WHERE recording_id = \(id)") == "2")
        #expect(try sqliteScalar(path, "SELECT n FROM demo WHERE stream = 'x'") == "NULL")
        #expect(try sqliteScalar(path, "SELECT status FROM recordings WHERE id = \(id)") == "ok")
        #expect(try sqliteScalar(path, "PRAGMA user_version") == String(SQLiteResultSink.schemaVersion))
        #expect(try sqliteScalar(path, "PRAGMA journal_mode") == "wal")
    }

    @Test("rollback leaves neither rows nor a recordings row")
    func rollback() throws {
        let path = temporaryPath()
        defer { remove(path) }
        let sink = try SQLiteResultSink(path: path, tables: [table])
        try sink.begin(recording: "r")
        try sink.write(table, rows: [[.text("x"), .real(1), .integer(1)]])
        sink.rollback()
        #expect(try sqliteScalar(path, "SELECT count(*) FROM demo") == "0")
        #expect(try sqliteScalar(path, "SELECT count(*) FROM recordings") == "0")
        #expect(sink.recordingID == nil)
    }

    @Test("reopening an existing database keeps its rows and appends")
    func reopen() throws {
        let path = temporaryPath()
        defer { remove(path) }
        do {
            let sink = try SQLiteResultSink(path: path, tables: [table])
            try sink.begin(recording: "r1")
            try sink.write(table, rows: [[.text("x"), .real(1), .integer(1)]])
            try sink.commit()
        }
        let again = try SQLiteResultSink(path: path, tables: [table])
        try again.begin(recording: "r2")
        try again.write(table, rows: [[.text("y"), .real(2), .integer(2)]])
        try again.commit()
        #expect(try sqliteScalar(path, "SELECT count(*) FROM demo") == "2")
        #expect(try sqliteScalar(path, "SELECT count(DISTINCT recording_id) FROM demo") == "2")
    }

    @Test("NaN and ±∞ are stored as NULL, never as numbers")
    func nonFinite() throws {
        let path = temporaryPath()
        defer { remove(path) }
        let sink = try SQLiteResultSink(path: path, tables: [table])
        try sink.begin(recording: "r")
        try sink.write(
            table,
            rows: [
                [.text("a"), .real(.nan), .integer(1)], [.text("b"), .real(.infinity), .integer(2)],
                [.text("c"), .real(-.infinity), .integer(3)], [.text("d"), .finite(.nan), .integer(4)],
            ])
        try sink.commit()
        #expect(try sqliteScalar(path, "SELECT count(*) FROM demo WHERE time IS NULL") == "4")
    }

    @Test("a database with a newer schema version is refused with a typed error")
    func newerSchema() throws {
        let path = temporaryPath()
        defer { remove(path) }
        _ = try SQLiteResultSink(path: path, tables: [table])
        var db: OpaquePointer?
        #expect(sqlite3_open(path, &db) == SQLITE_OK)
        #expect(sqlite3_exec(db, "PRAGMA user_version = 99", nil, nil, nil) == SQLITE_OK)
        sqlite3_close(db)
        #expect(throws: SQLiteError.self) { try SQLiteResultSink(path: path, tables: [table]) }
    }
}

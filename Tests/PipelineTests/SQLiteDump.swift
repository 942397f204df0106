import CSQLite
import Foundation

/// Reads SQLite databases back for comparisons in tests.
enum SQLiteDump {
    /// Rows of `sql` as `|`-joined text lines, in the query's order.
    static func rows(_ path: String, _ sql: String) -> [String] {
        var db: OpaquePointer?
        guard sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, nil) == SQLITE_OK else { return ["cannot open \(path)"] }
        defer { sqlite3_close_v2(db) }
        var stmt: OpaquePointer?
        guard sqlite3_prepare_v2(db, sql, -1, &stmt, nil) == SQLITE_OK else {
            return ["cannot prepare \(sql): \(String(cString: sqlite3_errmsg(db)))"]
        }
        defer { sqlite3_finalize(stmt) }
        var out = [String]()
        while sqlite3_step(stmt) == SQLITE_ROW {
            out.append(
                (0..<sqlite3_column_count(stmt)).map { c -> String in
                    sqlite3_column_text(stmt, c).map { String(cString: $0) } ?? "NULL"
                }.joined(separator: "|"))
        }
        return out
    }

    /// Every table but `runs`, each row in rowid order, without the columns that hold wall-clock
    /// times or run numbers (`started_at`, `finished_at`, `run_id`): what must be identical
    /// between two runs over the same inputs.
    static func content(_ path: String) -> [String: [String]] {
        var out = [String: [String]]()
        for table in rows(path, "SELECT name FROM sqlite_master WHERE type = 'table' AND name != 'runs' ORDER BY name") {
            let columns = rows(path, "SELECT name FROM pragma_table_info('\(table)')")
                .filter { !["started_at", "finished_at", "run_id"].contains($0) }
            let list = columns.map { "\"\($0)\"" }.joined(separator: ", ")
            out[table] = rows(path, "SELECT \(list) FROM \"\(table)\" ORDER BY rowid")
        }
        return out
    }

    /// The first difference between two contents, or `nil` when equal.
    static func difference(_ a: [String: [String]], _ b: [String: [String]]) -> String? {
        if a.keys.sorted() != b.keys.sorted() { return "tables \(a.keys.sorted()) vs \(b.keys.sorted())" }
        for (table, rowsA) in a.sorted(by: { $0.key < $1.key }) {
            let rowsB = b[table]!
            if rowsA.count != rowsB.count { return "\(table): \(rowsA.count) vs \(rowsB.count) rows" }
            for (k, (x, y)) in zip(rowsA, rowsB).enumerated() where x != y {
                return "\(table) row \(k): \(x) vs \(y)"
            }
        }
        return nil
    }
}

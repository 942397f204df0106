import Foundation
import Signals

/// Combines the databases of `sensorpipe run --shard K/N` jobs into one (`sensorpipe merge`).
///
/// Each shard is attached and copied in one transaction: its runs, its recordings, their
/// streams and every result table, with run and recording ids shifted past those already in the
/// target, so rows keep pointing at their own recording. A recording already in the target with
/// the same path, content hash, configuration hash and status is not copied again, so merging a
/// shard twice (or a shard that overlaps a resumed run) adds nothing twice.
public enum ShardMerge {
    /// What a merge did.
    public struct Summary: Sendable {
        /// Recordings copied.
        public var recordings = 0
        /// Recordings skipped because the target already had them.
        public var duplicates = 0
    }

    /// Merges `shards` into `target` (created if needed).
    /// - Parameters:
    ///   - shards: shard databases written by `sensorpipe run`.
    ///   - target: the merged database (written to a temporary copy that replaces it at the end,
    ///     so a failed merge leaves it unchanged).
    ///   - allowMixedConfigurations: merge even when the runs used different configurations
    ///     (default: refused, naming the configurations and a database of each).
    /// - Returns: counts of copied and skipped recordings.
    /// - Throws: ``SQLiteError``, e.g. for a shard with a newer schema version.
    /// - Complexity: O(rows) per shard, all in SQLite.
    public static func merge(shards: [String], into target: String, allowMixedConfigurations: Bool = false) throws -> Summary {
        // Everything is merged into a temporary copy that replaces the target only at the end.
        let fm = FileManager.default
        let partial = target + ".merging-\(getpid())"
        for suffix in ["", "-wal", "-shm"] { try? fm.removeItem(atPath: partial + suffix) }
        if fm.fileExists(atPath: target) {
            let existing = try SQLiteConnection(path: target)
            try existing.execute("VACUUM INTO '" + partial.replacingOccurrences(of: "'", with: "''") + "'")
        }
        do {
            let summary = try mergeInPlace(shards: shards, into: partial, allowMixedConfigurations: allowMixedConfigurations)
            for suffix in ["-wal", "-shm"] { try? fm.removeItem(atPath: target + suffix) }
            guard rename(partial, target) == 0 else {
                throw SQLiteError(code: 1, message: "cannot rename \(partial) to \(target): \(String(cString: strerror(errno)))")
            }
            for suffix in ["-wal", "-shm"] { try? fm.removeItem(atPath: partial + suffix) }
            return summary
        } catch var e as SQLiteError {
            for suffix in ["", "-wal", "-shm"] { try? fm.removeItem(atPath: partial + suffix) }
            e.message = e.message.replacingOccurrences(of: partial, with: target)
            throw e
        } catch {
            for suffix in ["", "-wal", "-shm"] { try? fm.removeItem(atPath: partial + suffix) }
            throw error
        }
    }

    static func mergeInPlace(shards: [String], into target: String, allowMixedConfigurations: Bool) throws -> Summary {
        // Every shard's runs must share one configuration (and the target's, when it has runs).
        if !allowMixedConfigurations {
            var hashes = [String: String]() // config hash → the first database using it
            for database in [target] + shards where FileManager.default.fileExists(atPath: database) {
                let c = try SQLiteConnection(path: database)
                let found = (try? c.prepare("SELECT DISTINCT config_hash FROM runs").query([]) { $0.text(0) ?? "" }) ?? []
                for h in found where hashes[h] == nil { hashes[h] = database }
            }
            guard hashes.count <= 1 else {
                throw SQLiteError(
                    code: 1,
                    message: "the databases were analysed with \(hashes.count) different configurations ("
                        + hashes.sorted { $0.key < $1.key }.map { "\($0.key) in \($0.value)" }.joined(separator: ", ")
                        + "); merging them would mix results; pass --allow-mixed-config to merge anyway")
            }
        }
        let sink = try SQLiteResultSink(path: target) // creates the schema
        let db = sink.db
        var summary = Summary()
        for (k, shard) in shards.enumerated() {
            let alias = "shard\(k)"
            let quoted = "'" + shard.replacingOccurrences(of: "'", with: "''") + "'"
            try db.execute("ATTACH DATABASE \(quoted) AS \(alias)")
            defer { try? db.execute("DETACH DATABASE \(alias)") }
            let version = try db.prepare("PRAGMA \(alias).user_version").query([]) { $0.int(0) }.first ?? 0
            guard version == SQLiteResultSink.schemaVersion else {
                throw SQLiteError(
                    code: 1,
                    message: "\(shard): schema version \(version), this build merges version "
                        + "\(SQLiteResultSink.schemaVersion) (open an older shard once with this build's "
                        + "`sensorpipe run`, which migrates it)")
            }
            try db.execute("BEGIN IMMEDIATE")
            do {
                let runOffset = try db.prepare("SELECT COALESCE(MAX(id), 0) FROM main.runs").query([]) { $0.int(0) }.first ?? 0
                let recOffset = try db.prepare("SELECT COALESCE(MAX(id), 0) FROM main.recordings").query([]) { $0.int(0) }.first ?? 0
                try db.execute(
                    """
                    DROP TABLE IF EXISTS temp.merge_new;
                    CREATE TEMP TABLE merge_new AS SELECT r.id FROM \(alias).recordings r WHERE NOT EXISTS (
                      SELECT 1 FROM main.recordings m WHERE m.path = r.path AND m.content_hash IS r.content_hash
                        AND m.config_hash IS r.config_hash AND m.status = r.status);
                    """)
                let total = try db.prepare("SELECT COUNT(*) FROM \(alias).recordings").query([]) { $0.int(0) }.first ?? 0
                let fresh = try db.prepare("SELECT COUNT(*) FROM temp.merge_new").query([]) { $0.int(0) }.first ?? 0
                // Runs that own at least one copied recording.
                try copy(
                    db, table: "runs", from: alias, shift: ["id": runOffset],
                    filter: "id IN (SELECT run_id FROM \(alias).recordings WHERE id IN temp.merge_new)")
                try copy(
                    db, table: "recordings", from: alias, shift: ["id": recOffset, "run_id": runOffset],
                    filter: "id IN temp.merge_new")
                let tables = try db.prepare("SELECT name FROM \(alias).sqlite_master WHERE type = 'table'")
                    .query([]) { $0.text(0) ?? "" }
                for t in tables where t != "runs" && t != "recordings" && t != "table_signatures" && !t.hasPrefix("sqlite_") {
                    try copy(
                        db, table: t, from: alias, shift: ["recording_id": recOffset],
                        filter: "recording_id IN temp.merge_new")
                }
                try db.execute("DROP TABLE temp.merge_new; COMMIT")
                summary.recordings += fresh
                summary.duplicates += total - fresh
            } catch {
                try? db.execute("ROLLBACK")
                throw error
            }
        }
        return summary
    }

    /// `INSERT INTO main.table (cols) SELECT cols (shifted) FROM alias.table WHERE filter`.
    static func copy(
        _ db: SQLiteConnection, table: String, from alias: String, shift: [String: Int],
        filter: String
    ) throws {
        let columns = try db.prepare("PRAGMA \(alias).table_info(\(SQLiteConnection.quote(table)))")
            .query([]) { $0.text(1) ?? "" }
        let shardColumns = try db.prepare("PRAGMA \(alias).table_info(\(SQLiteConnection.quote(table)))")
            .query([]) { "\($0.text(1) ?? "") \(($0.text(2) ?? "").uppercased())" }
        let targetColumns = try db.prepare("PRAGMA main.table_info(\(SQLiteConnection.quote(table)))")
            .query([]) { "\($0.text(1) ?? "") \(($0.text(2) ?? "").uppercased())" }
        if !targetColumns.isEmpty && targetColumns != shardColumns {
            let k =
                zip(targetColumns, shardColumns).enumerated().first { $0.element.0 != $0.element.1 }?.offset
                ?? min(targetColumns.count, shardColumns.count)
            throw SQLiteError(
                code: 1,
                message: "table \(table): column \(k + 1) is "
                    + (k < shardColumns.count ? shardColumns[k] : "missing") + " in the shard and "
                    + (k < targetColumns.count ? targetColumns[k] : "missing") + " in the merged database; "
                    + "shards of different schemas cannot be merged")
        }
        if targetColumns.isEmpty {
            // A result table the target does not have yet: take the shard's definition.
            let sql =
                try db.prepare("SELECT sql FROM \(alias).sqlite_master WHERE type = 'table' AND name = ?")
                .query([.text(table)]) { $0.text(0) ?? "" }.first ?? ""
            try db.execute(sql)
        }
        let names = columns.map(SQLiteConnection.quote).joined(separator: ", ")
        let values = columns.map { c in shift[c].map { "\(SQLiteConnection.quote(c)) + \($0)" } ?? SQLiteConnection.quote(c) }
            .joined(separator: ", ")
        try db.execute(
            "INSERT INTO main.\(SQLiteConnection.quote(table)) (\(names)) SELECT \(values) "
                + "FROM \(alias).\(SQLiteConnection.quote(table)) WHERE \(filter)")
    }
}

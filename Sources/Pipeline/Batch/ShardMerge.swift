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
    ///
    /// Trust model (`docs/ARCHITECTURE.md`, "merge trust model"): shards and an existing target are
    /// inputs, opened read-only (immutable when they have no write-ahead log) and never written;
    /// their schema must be SensorPipe's own declarations (``BatchTables``,
    /// ``AnalysisRegistry/resultTables``: no other table, view, trigger or index, columns as
    /// declared) or the merge is refused; tables are created from the declarations only and no SQL
    /// text read from an input is ever executed; every error names its file; an existing target
    /// the user could not write (or a write-protected one) is refused rather than replaced.
    /// - Parameters:
    ///   - shards: shard databases written by `sensorpipe run`.
    ///   - target: the merged database (written to a temporary copy that replaces it at the end,
    ///     with the target's permissions, so a failed merge leaves it unchanged).
    ///   - allowMixedConfigurations: merge even when the runs used different configurations
    ///     (default: refused, naming the configurations and a database of each).
    /// - Returns: counts of copied and skipped recordings.
    /// - Throws: ``SQLiteError`` naming the file, e.g. for a shard with a newer schema version or
    ///   an undeclared object.
    /// - Complexity: O(rows) per shard, all in SQLite.
    public static func merge(shards: [String], into target: String, allowMixedConfigurations: Bool = false) throws -> Summary {
        // Everything is merged into a temporary copy that replaces the target only at the end.
        let fm = FileManager.default
        let partial = target + ".merging-\(getpid())"
        var existing = stat()
        let targetExists = stat(target, &existing) == 0
        if targetExists {
            guard access(target, W_OK) == 0, existing.st_mode & (S_IWUSR | S_IWGRP | S_IWOTH) != 0 else {
                throw SQLiteError(
                    code: 1,
                    message: "\(target): the merged database exists and is not writable by you; merge refuses "
                        + "to replace it (its owner and permissions would change): make it writable or choose another --out")
            }
            try checkDeclaredSchema(of: target)
        }
        for shard in shards { try checkDeclaredSchema(of: shard) }
        for suffix in ["", "-wal", "-shm"] { try? fm.removeItem(atPath: partial + suffix) }
        if targetExists {
            let source = try SQLiteConnection(readOnly: target)
            do {
                try source.execute("VACUUM INTO '" + partial.replacingOccurrences(of: "'", with: "''") + "'")
            } catch let e as SQLiteError {
                throw SQLiteError(code: e.code, message: "\(target): cannot copy: \(e.message)")
            }
            chmod(partial, existing.st_mode & 0o7777)
            _ = chown(partial, existing.st_uid, existing.st_gid) // keeps the owner when allowed (root)
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

    /// The tables a merge knows: bookkeeping first (runs before recordings), then result tables.
    static let declaredTables: [ResultTable] =
        BatchTables.all.map(\.table)
        + AnalysisRegistry.resultTables.map { t in
            ResultTable(name: t.name, summary: t.summary, columns: SQLiteResultSink.resultPrefix + t.columns)
        }

    /// Refuses a database whose schema is not SensorPipe's declarations: every object of
    /// `sqlite_master` must be a declared table, the `table_signatures` table or an index this
    /// build creates (SQLite's own `sqlite_` objects aside), no stored definition may hold more than
    /// one statement, and each table's columns must be
    /// its declared columns in order (a table may lack declared columns at its end, as one
    /// written by an earlier build does; they merge as NULL). Opens `path` read-only.
    /// - Throws: ``SQLiteError`` naming `path` and the first object or column that differs.
    static func checkDeclaredSchema(of path: String) throws {
        let db = try SQLiteConnection(readOnly: path)
        let tables = declaredTables
        var indexes: Set<String> = ["recordings_lookup"]
        for t in AnalysisRegistry.resultTables { indexes.insert(t.name + "_recording") }
        let known = Set(tables.map(\.name)).union(["table_signatures"])
        let objects = try db.prepare("SELECT type, name, sql FROM sqlite_master").query([]) {
            ($0.text(0) ?? "", $0.text(1) ?? "", $0.text(2) ?? "")
        }
        for (type, name, sql) in objects {
            // SQLite stores one statement per object without its ';': more is text planted to be run.
            guard !sql.contains(";") else {
                throw SQLiteError(
                    code: 1,
                    message: "\(path): the stored definition of \(type) \(SQLiteConnection.quote(name)) holds more than one "
                        + "statement; merge takes only databases whose schema is SensorPipe's own")
            }
        }
        for (type, name, _) in objects where !(name.hasPrefix("sqlite_") && (type == "table" || type == "index")) {
            let declared = (type == "table" && known.contains(name)) || (type == "index" && indexes.contains(name))
            guard declared else {
                throw SQLiteError(
                    code: 1,
                    message: "\(path): \(type) \(SQLiteConnection.quote(name)) is not declared by this build; "
                        + "merge takes only databases whose schema is SensorPipe's own")
            }
        }
        for t in tables + [
            ResultTable(
                name: "table_signatures", summary: "", columns: [.init("name", .text, ""), .init("signature", .text, "")])
        ] {
            let columns = try db.prepare("PRAGMA main.table_info(\(SQLiteConnection.quote(t.name)))")
                .query([]) { (name: $0.text(1) ?? "", type: ($0.text(2) ?? "").uppercased()) }
            for (k, c) in columns.enumerated() {
                guard k < t.columns.count, c.name == t.columns[k].name, c.type == t.columns[k].type.rawValue else {
                    throw SQLiteError(
                        code: 1,
                        message: "\(path): table \(t.name): column \(k + 1) is \(c.name) \(c.type), this build declares "
                            + (k < t.columns.count ? "\(t.columns[k].name) \(t.columns[k].type.rawValue)" : "none")
                            + "; shards of different schemas cannot be merged")
                }
            }
        }
    }

    static func mergeInPlace(shards: [String], into target: String, allowMixedConfigurations: Bool) throws -> Summary {
        // Every shard's runs must share one configuration (and the target's, when it has runs).
        if !allowMixedConfigurations {
            var hashes = [String: String]() // config hash → the first database using it
            for database in [target] + shards where FileManager.default.fileExists(atPath: database) {
                let c = try SQLiteConnection(readOnly: database)
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
        let sink = try SQLiteResultSink(path: target, tables: AnalysisRegistry.resultTables, attachesInputs: true) // creates the schema
        let db = sink.db
        var summary = Summary()
        for (k, shard) in shards.enumerated() {
            do {
                try mergeShard(shard, alias: "shard\(k)", into: db, summary: &summary)
            } catch let e as SQLiteError where !e.message.contains(shard) {
                throw SQLiteError(code: e.code, message: "\(shard): \(e.message)")
            }
        }
        return summary
    }

    /// Copies one shard, attached read-only, in one transaction.
    static func mergeShard(_ shard: String, alias: String, into db: SQLiteConnection, summary: inout Summary) throws {
        try db.attachReadOnly(shard, as: alias)
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
            // Tables without a row in the shard copy nothing: found in one statement (all copied
            // when that fails).
            let filled = try? filledTables(db, alias: alias)
            for table in declaredTables where filled?.contains(table.name) ?? true {
                let filter: String
                var shift = ["recording_id": recOffset]
                switch table.name {
                case "runs":
                    // Runs that own at least one copied recording.
                    filter = "id IN (SELECT run_id FROM \(alias).recordings WHERE id IN temp.merge_new)"
                    shift = ["id": runOffset]
                case "recordings":
                    filter = "id IN temp.merge_new"
                    shift = ["id": recOffset, "run_id": runOffset]
                default:
                    guard table.columns.first?.name == "recording_id" else { continue }
                    filter = "recording_id IN temp.merge_new"
                }
                try copy(db, table: table, from: alias, shift: shift, filter: filter)
            }
            try db.execute("DROP TABLE temp.merge_new; COMMIT")
            summary.recordings += fresh
            summary.duplicates += total - fresh
        } catch {
            try? db.execute("ROLLBACK")
            throw error
        }
    }

    /// The declared tables of the attached shard `alias` holding at least one row.
    static func filledTables(_ db: SQLiteConnection, alias: String) throws -> Set<String> {
        let names = Set(
            try db.prepare("SELECT name FROM \(alias).sqlite_master WHERE type = 'table'").query([]) { $0.text(0) ?? "" })
        let present = declaredTables.map(\.name).filter(names.contains)
        guard !present.isEmpty else { return [] }
        let sql = present.map { "SELECT EXISTS (SELECT 1 FROM \(alias).\(SQLiteConnection.quote($0)))" }.joined(separator: " UNION ALL ")
        let flags = try db.prepare(sql).query([]) { $0.int(0) }
        return Set(zip(present, flags).filter { $0.1 == 1 }.map(\.0))
    }

    /// `INSERT INTO main.table (cols) SELECT cols (shifted) FROM alias.table WHERE filter`, the
    /// columns being the declared ones the shard has (checked by ``checkDeclaredSchema(of:)``);
    /// nothing when the shard lacks the table.
    static func copy(
        _ db: SQLiteConnection, table: ResultTable, from alias: String, shift: [String: Int],
        filter: String
    ) throws {
        let present = try db.prepare("PRAGMA \(alias).table_info(\(SQLiteConnection.quote(table.name)))")
            .query([]) { $0.text(1) ?? "" }
        let columns = table.columns.prefix(present.count).map(\.name)
        guard !present.isEmpty else { return }
        guard columns == present else {
            throw SQLiteError(code: 1, message: "table \(table.name): columns \(present) differ from the declaration")
        }
        let names = columns.map(SQLiteConnection.quote).joined(separator: ", ")
        let values = columns.map { c in shift[c].map { "\(SQLiteConnection.quote(c)) + \($0)" } ?? SQLiteConnection.quote(c) }
            .joined(separator: ", ")
        try db.execute(
            "INSERT INTO main.\(SQLiteConnection.quote(table.name)) (\(names)) SELECT \(values) "
                + "FROM \(alias).\(SQLiteConnection.quote(table.name)) WHERE \(filter)")
    }
}

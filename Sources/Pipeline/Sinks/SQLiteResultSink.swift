import CSQLite
import Foundation
import Signals

/// Writes result tables into an SQLite database, the output of `sensorpipe run`.
///
/// The database holds the result tables (``AnalysisRegistry/tables``, each with an extra leading
/// `recording_id INTEGER` column) and the batch tables `runs`, `recordings` and `streams`
/// (``BatchDatabase`` fills them); `docs/RESULTS.md` documents the schema, whose version is
/// `PRAGMA user_version` (``schemaVersion``). The file is opened in WAL mode with a busy timeout.
///
/// ``begin(recording:)`` opens a `BEGIN IMMEDIATE` transaction and inserts the recording's row
/// into `recordings` (status `running`, which no reader ever sees); ``write(_:rows:)`` reuses one
/// prepared `INSERT` per table; ``commit()`` marks the recording `ok` and commits, so a
/// recording's rows appear together or not at all; ``rollback()`` discards them. Non-finite reals
/// are stored as `NULL`, never as numbers.
public final class SQLiteResultSink: ResultSink {
    /// The schema version written to `PRAGMA user_version`: 3 (beats.time is the detection
    /// time; the corrected series is nn_time/nn_ms; streams carry time_origin, file and analysis).
    public static let schemaVersion = 3
    /// Database file.
    public let path: String
    /// The `recordings.id` of the recording being written, between begin and commit/rollback.
    public private(set) var recordingID: Int64?
    /// The `runs.id` new `recordings` rows refer to (set by ``BatchDatabase``).
    var runID: Int64?
    let db: SQLiteConnection
    private var inserts: [String: SQLiteStatement] = [:]
    private var created: Set<String> = []
    private var lastTable = ""
    private var lastInsert: SQLiteStatement?
    private var values: [ResultValue] = []
    private let insertRecording: SQLiteStatement
    private let markOK: SQLiteStatement

    /// Opens or creates the database and its tables, checking every existing table against its
    /// declaration: a table missing declared columns at its end is extended (`ALTER TABLE … ADD
    /// COLUMN`); any other difference is refused with the table and column named.
    /// - Parameters:
    ///   - path: database file (created if missing).
    ///   - tables: result tables to create up front (default: every registered family's and the
    ///     summary tables, ``AnalysisRegistry/resultTables``).
    /// - Throws: ``SQLiteError`` with SQLite's message; when the file's schema is newer than
    ///   ``schemaVersion``, is an older version holding recordings, or has a table whose columns
    ///   differ from the declaration.
    /// - Complexity: O(number of tables).
    public convenience init(path: String, tables: [ResultTable] = AnalysisRegistry.resultTables) throws {
        try self.init(path: path, tables: tables, attachesInputs: false)
    }

    /// The same, on a connection that can attach inputs read-only (``ShardMerge``).
    init(path: String, tables: [ResultTable], attachesInputs: Bool) throws {
        self.path = path
        db = try SQLiteConnection(path: path, attachesInputs: attachesInputs)
        try db.execute("BEGIN IMMEDIATE")
        do {
            let version = try db.userVersion()
            guard version <= Self.schemaVersion else {
                throw SQLiteError(
                    code: SQLITE_ERROR,
                    message: "\(path) has schema version \(version); "
                        + "this sensorpipe writes version \(Self.schemaVersion)")
            }
            if version > 0 && version < Self.schemaVersion {
                let stored = (try? db.prepare("SELECT COUNT(*) FROM recordings").query([]) { $0.int(0) }.first) ?? 0
                guard stored == 0 else {
                    throw SQLiteError(
                        code: SQLITE_ERROR,
                        message: "\(path) has schema version \(version) with \(stored) "
                            + "recording(s): in that version beats.time held the corrected beat time, in version "
                            + "\(Self.schemaVersion) it is the detection time (the corrected series is nn_time); "
                            + "write the new results to a new database")
                }
                let names = try db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
                    .query([]) { $0.text(0) ?? "" }
                for n in names { try db.execute("DROP TABLE \(SQLiteConnection.quote(n))") }
            }
            try db.execute("CREATE TABLE IF NOT EXISTS table_signatures (name TEXT PRIMARY KEY, signature TEXT NOT NULL)")
            // The tables already there (one statement; absent ones need no column check); the
            // signatures are recorded after the schema changes, by one prepared statement.
            let present = Set(
                try db.prepare("SELECT name FROM main.sqlite_master WHERE type IN ('table', 'view')").query([]) { $0.text(0) ?? "" })
            var signatures = [(name: String, signature: String)]()
            for t in BatchTables.all {
                let signature = try Self.ensure(
                    t.table, create: t.createStatement, in: db, prefix: [], exists: present.contains(t.table.name), signs: false)
                signatures.append((t.table.name, signature))
            }
            try db.execute("CREATE INDEX IF NOT EXISTS recordings_lookup ON recordings (path, content_hash, config_hash, status)")
            for t in tables {
                let signature = try Self.ensure(
                    t, create: Self.createStatement(t), in: db, prefix: Self.resultPrefix, exists: present.contains(t.name), signs: false)
                signatures.append((t.name, signature))
            }
            let sign = try db.prepare(Self.signatureStatement)
            for s in signatures { try sign.run([.text(s.name), .text(s.signature)]) }
            try db.execute("PRAGMA user_version = \(Self.schemaVersion)")
            try db.execute("COMMIT")
        } catch {
            try? db.execute("ROLLBACK")
            throw error
        }
        created = Set(tables.map(\.name))
        insertRecording = try db.prepare("INSERT INTO recordings (run_id, path, status, started_at) VALUES (?, ?, 'running', ?)")
        markOK = try db.prepare("UPDATE recordings SET status = 'ok', finished_at = ? WHERE id = ? AND status = 'running'")
    }

    /// The column every result table starts with.
    static let resultPrefix = [ResultColumn("recording_id", .integer, "recordings.id")]

    /// Creates `table` when missing; otherwise compares its columns with the declaration
    /// (`prefix` + the table's columns), adds declared columns missing at the end, and refuses
    /// any other difference. Records the signature in `table_signatures`.
    /// - Parameters:
    ///   - exists: `false` when the table is known to be absent (its columns are not read).
    ///   - signs: records the signature here (else the caller records the one returned).
    /// - Returns: the table's signature.
    @discardableResult
    static func ensure(
        _ table: ResultTable, create: String, in db: SQLiteConnection, prefix: [ResultColumn], exists: Bool = true,
        signs: Bool = true
    ) throws -> String {
        let expected = prefix + table.columns
        let existing =
            exists
            ? try db.prepare("PRAGMA main.table_info(\(SQLiteConnection.quote(table.name)))")
                .query([]) { (name: $0.text(1) ?? "", type: ($0.text(2) ?? "").uppercased()) } : []
        if existing.isEmpty {
            try db.execute(create)
        } else {
            for (k, column) in existing.enumerated() {
                guard k < expected.count else {
                    throw SQLiteError(
                        code: SQLITE_ERROR,
                        message: "table \(table.name): column \(column.name) is in the "
                            + "database but not declared by this build (\(Self.describe(expected)))")
                }
                guard column.name == expected[k].name, column.type == expected[k].type.rawValue else {
                    throw SQLiteError(
                        code: SQLITE_ERROR,
                        message: "table \(table.name): column \(k + 1) is "
                            + "\(column.name) \(column.type) in the database, this build declares "
                            + "\(expected[k].name) \(expected[k].type.rawValue)")
                }
            }
            for column in expected[existing.count...] {
                try db.execute(
                    "ALTER TABLE \(SQLiteConnection.quote(table.name)) ADD COLUMN "
                        + "\(SQLiteConnection.quote(column.name)) \(column.type.rawValue)")
            }
        }
        let signature = describe(expected)
        if signs { try db.prepare(signatureStatement).run([.text(table.name), .text(signature)]) }
        return signature
    }

    /// Records a table's signature in `table_signatures`.
    static let signatureStatement = "INSERT OR REPLACE INTO table_signatures (name, signature) VALUES (?, ?)"

    static func describe(_ columns: [ResultColumn]) -> String {
        columns.map { "\($0.name) \($0.type.rawValue)" }.joined(separator: ", ")
    }

    /// `CREATE TABLE IF NOT EXISTS` for a result table, plus its `recording_id` index.
    static func createStatement(_ t: ResultTable) -> String {
        let name = SQLiteConnection.quote(t.name)
        let columns =
            ["recording_id INTEGER NOT NULL REFERENCES recordings(id)"]
            + t.columns.map { "\(SQLiteConnection.quote($0.name)) \($0.type.rawValue)" }
        return "CREATE TABLE IF NOT EXISTS \(name) (\(columns.joined(separator: ", ")));\n"
            + "CREATE INDEX IF NOT EXISTS \(SQLiteConnection.quote(t.name + "_recording")) ON \(name) (recording_id);"
    }

    /// Opens the recording's transaction and inserts its `recordings` row.
    /// - Throws: ``SQLiteError`` (e.g. `SQLITE_BUSY` after the busy timeout).
    public func begin(recording: String) throws {
        rollback()
        try db.execute("BEGIN IMMEDIATE")
        do {
            try insertRecording.run([runID.map { .integer(Int($0)) } ?? .null, .text(recording), .real(Self.now())])
            recordingID = db.lastInsertRowID
        } catch {
            rollback()
            throw error
        }
    }

    /// Makes sure `table` exists (result tables of every registered family exist from the start).
    public func declare(_ table: ResultTable) throws {
        if !created.contains(table.name) {
            try Self.ensure(table, create: Self.createStatement(table), in: db, prefix: Self.resultPrefix)
            created.insert(table.name)
        }
    }

    /// Inserts one row into `table` (created on first use), tagged with the current recording.
    /// - Complexity: O(values).
    public func write(_ table: ResultTable, values row: [ResultValue]) throws {
        guard let recordingID else { preconditionFailure("write(_:values:) outside begin/commit") }
        precondition(
            row.count == table.columns.count,
            "row of \(row.count) values for table \(table.name) of \(table.columns.count) columns")
        let insert: SQLiteStatement
        if table.name == lastTable, let last = lastInsert {
            insert = last
        } else {
            try declare(table)
            if let s = inserts[table.name] {
                insert = s
            } else {
                let names = (["recording_id"] + table.columns.map(\.name)).map(SQLiteConnection.quote)
                let marks = Array(repeating: "?", count: names.count).joined(separator: ", ")
                insert = try db.prepare(
                    "INSERT INTO \(SQLiteConnection.quote(table.name)) (\(names.joined(separator: ", "))) VALUES (\(marks))")
                inserts[table.name] = insert
            }
            lastTable = table.name
            lastInsert = insert
        }
        values.removeAll(keepingCapacity: true)
        values.append(.integer(Int(recordingID)))
        values += row
        try insert.run(values)
    }

    /// Inserts one declared row (bookkeeping tables, whose first column is their own).
    func insert<Row>(_ schema: TableSchema<Row>, _ row: Row) throws {
        let key = "bookkeeping:" + schema.table.name
        let insert: SQLiteStatement
        if let s = inserts[key] {
            insert = s
        } else {
            let names = schema.table.columns.map { SQLiteConnection.quote($0.name) }
            let marks = Array(repeating: "?", count: names.count).joined(separator: ", ")
            insert = try db.prepare(
                "INSERT INTO \(SQLiteConnection.quote(schema.table.name)) (\(names.joined(separator: ", "))) VALUES (\(marks))")
            inserts[key] = insert
        }
        try insert.run(schema.values(of: row))
    }

    /// Marks the recording `ok` (unless the owner set another status) and commits.
    public func commit() throws {
        guard let recordingID else { preconditionFailure("commit() outside begin") }
        do {
            try markOK.run([.real(Self.now()), .integer(Int(recordingID))])
            try db.execute("COMMIT")
        } catch {
            rollback()
            throw error
        }
        self.recordingID = nil
    }

    /// Discards the open transaction, if any.
    public func rollback() {
        if db.inTransaction { try? db.execute("ROLLBACK") }
        recordingID = nil
    }

    /// Unix seconds now.
    static func now() -> Double {
        Date().timeIntervalSince1970
    }
}

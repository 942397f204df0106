import CSQLite
import Foundation

/// Writes result tables into an SQLite database, the output of `sensorpipe run`.
///
/// The database holds the result tables (``ResultTables``, each with an extra leading
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
    /// The schema version written to `PRAGMA user_version`.
    public static let schemaVersion = 2
    /// Database file.
    public let path: String
    /// The `recordings.id` of the recording being written, between begin and commit/rollback.
    public private(set) var recordingID: Int64?
    /// The `runs.id` new `recordings` rows refer to (set by ``BatchDatabase``).
    var runID: Int64?
    let db: SQLiteConnection
    private var inserts: [String: SQLiteStatement] = [:]
    private var created: Set<String> = []
    private let insertRecording: SQLiteStatement
    private let markOK: SQLiteStatement

    /// Opens or creates the database and its tables.
    /// - Parameters:
    ///   - path: database file (created if missing).
    ///   - tables: result tables to create up front (others are created on first write).
    /// - Throws: ``SQLiteError`` with SQLite's message, also when the file's schema is newer than
    ///   ``schemaVersion``.
    /// - Complexity: O(number of tables).
    public init(path: String, tables: [ResultTable] = ResultTables.all) throws {
        self.path = path
        db = try SQLiteConnection(path: path)
        try db.execute("BEGIN IMMEDIATE")
        do {
            let version = try db.userVersion()
            guard version <= Self.schemaVersion else {
                throw SQLiteError(code: SQLITE_ERROR, message: "\(path) has schema version \(version); "
                                  + "this sensorpipe writes version \(Self.schemaVersion)")
            }
            if version == 1 { try db.execute(Self.migrationFrom1) }
            try db.execute(Self.batchSchema)
            for t in tables { try db.execute(Self.createStatement(t)) }
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

    /// The `runs`, `recordings` and `streams` tables (see docs/RESULTS.md).
    static let batchSchema = """
        CREATE TABLE IF NOT EXISTS runs (
          id INTEGER PRIMARY KEY, software_version TEXT NOT NULL, config_json TEXT NOT NULL,
          config_hash TEXT NOT NULL, started_at REAL NOT NULL, ended_at REAL,
          recordings_ok INTEGER, recordings_failed INTEGER, recordings_skipped INTEGER);
        CREATE TABLE IF NOT EXISTS recordings (
          id INTEGER PRIMARY KEY, run_id INTEGER REFERENCES runs(id), path TEXT NOT NULL,
          size INTEGER, content_hash TEXT, config_hash TEXT, status TEXT NOT NULL, error TEXT,
          streams INTEGER, beats INTEGER, samples_read INTEGER, samples_emitted INTEGER,
          masked INTEGER, duplicates_dropped INTEGER, rejected INTEGER, gaps INTEGER,
          segments INTEGER, issues TEXT, started_at REAL, finished_at REAL, samples_used INTEGER,
          rejected_unattributed INTEGER);
        CREATE INDEX IF NOT EXISTS recordings_lookup ON recordings (path, content_hash, config_hash, status);
        CREATE TABLE IF NOT EXISTS streams (
          recording_id INTEGER NOT NULL REFERENCES recordings(id), stream_index INTEGER NOT NULL,
          stream TEXT NOT NULL, samples_read INTEGER, samples_emitted INTEGER, masked INTEGER,
          duplicates_dropped INTEGER, rejected INTEGER, gaps INTEGER, backward_steps INTEGER,
          rate_changes INTEGER, segments INTEGER, deleted_spans INTEGER, deleted_seconds REAL,
          first_time REAL, last_time REAL, covered_seconds REAL, measured_rate_hz REAL,
          samples_used INTEGER, sensor TEXT,
          PRIMARY KEY (recording_id, stream_index));
        """

    /// Schema 1 → 2: `samples_used` (= emitted − masked) on `recordings` and `streams`, and
    /// `streams.sensor` (the second part of the stream key).
    static let migrationFrom1 = """
        ALTER TABLE recordings ADD COLUMN samples_used INTEGER;
        ALTER TABLE recordings ADD COLUMN rejected_unattributed INTEGER;
        UPDATE recordings SET samples_used = samples_emitted - masked WHERE samples_emitted IS NOT NULL;
        ALTER TABLE streams ADD COLUMN samples_used INTEGER;
        ALTER TABLE streams ADD COLUMN sensor TEXT;
        UPDATE streams SET samples_used = samples_emitted - masked,
          sensor = substr(substr(stream, instr(stream, '/') + 1), 1,
                          instr(substr(stream, instr(stream, '/') + 1), '/') - 1);
        """

    /// `CREATE TABLE IF NOT EXISTS` for a result table, plus its `recording_id` index.
    static func createStatement(_ t: ResultTable) -> String {
        let name = SQLiteConnection.quote(t.name)
        let columns = ["recording_id INTEGER NOT NULL REFERENCES recordings(id)"]
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

    /// Inserts rows into `table` (created on first use), tagged with the current recording.
    /// - Complexity: O(values).
    public func write(_ table: ResultTable, rows: [[ResultValue]]) throws {
        guard let recordingID else { preconditionFailure("write(_:rows:) outside begin/commit") }
        if !created.contains(table.name) {
            try db.execute(Self.createStatement(table))
            created.insert(table.name)
        }
        let insert: SQLiteStatement
        if let s = inserts[table.name] {
            insert = s
        } else {
            let names = (["recording_id"] + table.columns.map(\.name)).map(SQLiteConnection.quote)
            let marks = Array(repeating: "?", count: names.count).joined(separator: ", ")
            insert = try db.prepare("INSERT INTO \(SQLiteConnection.quote(table.name)) (\(names.joined(separator: ", "))) VALUES (\(marks))")
            inserts[table.name] = insert
        }
        var values = [ResultValue]()
        values.reserveCapacity(table.columns.count + 1)
        for row in rows {
            precondition(row.count == table.columns.count,
                         "row of \(row.count) values for table \(table.name) of \(table.columns.count) columns")
            values.removeAll(keepingCapacity: true)
            values.append(.integer(Int(recordingID)))
            values += row
            try insert.run(values)
        }
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

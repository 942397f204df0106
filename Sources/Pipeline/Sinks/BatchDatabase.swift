import Foundation
import Recordings
import Signals

/// The batch runner's database: an ``SQLiteResultSink`` plus the `runs`, `recordings` and
/// `streams` bookkeeping that makes `sensorpipe run` resumable.
///
/// A recording is done when a `recordings` row with the same path, content hash
/// (``ContentHash/file(_:)``, FNV-1a 64 of the bytes) and configuration hash
/// (``ContentHash/text(_:)`` of the run's configuration JSON, which includes the software
/// version) has status `ok`. Each recording's result rows, its `recordings` row (status, QC
/// account) and its `streams` rows are written in one transaction; a failure is recorded in a
/// separate small transaction.
public final class BatchDatabase: BatchStore {
    /// Where result rows go (same database).
    public let sink: SQLiteResultSink
    /// The current run's `runs.id`, after ``startRun(softwareVersion:configJSON:)``.
    public private(set) var runID: Int64?
    /// The current run's configuration hash.
    public private(set) var configHash = ""
    private var db: SQLiteConnection { sink.db }
    /// Held from opening (or ``startRun(softwareVersion:configJSON:label:)``) to
    /// ``finishRun(ok:failed:skipped:)``.
    private var lock: RunLock?

    /// Opens or creates the database.
    /// - Parameter path: database file.
    /// - Throws: ``SQLiteError``.
    /// - Complexity: O(number of tables).
    public init(path: String) throws {
        // Taken before SQLite opens the file, so a second run is told who holds it rather than
        // waiting on SQLite's busy timeout; released by finishRun.
        lock = try RunLock(path: path + ".lock", guarding: path)
        sink = try SQLiteResultSink(path: path)
    }

    /// Inserts the `runs` row of a new run.
    /// - Parameters:
    ///   - softwareVersion: `sensorpipe --version`.
    ///   - configJSON: the run's configuration (canonical JSON, sorted keys); its hash decides resuming.
    ///   - label: the caller's study label (`runs.label`), or `nil`.
    /// - Returns: the run id.
    /// - Throws: ``SQLiteError``.
    /// - Complexity: O(1).
    @discardableResult
    public func startRun(softwareVersion: String, configJSON: String, label: String? = nil) throws -> Int64 {
        if lock == nil { lock = try RunLock(path: sink.path + ".lock", guarding: sink.path) }
        configHash = ContentHash.text(configJSON)
        try db.prepare("INSERT INTO runs (software_version, config_json, config_hash, started_at, label) VALUES (?, ?, ?, ?, ?)")
            .run([
                .text(softwareVersion), .text(configJSON), .text(configHash), .real(SQLiteResultSink.now()),
                .optional(label),
            ])
        let id = db.lastInsertRowID
        runID = id
        sink.runID = id
        return id
    }

    /// Sets the run's end time and counts.
    /// - Throws: ``SQLiteError``.
    /// - Complexity: O(1).
    public func finishRun(ok: Int, failed: Int, skipped: Int) throws {
        guard let runID else { preconditionFailure("finishRun without startRun") }
        defer { lock = nil }
        try db.prepare("UPDATE runs SET ended_at = ?, recordings_ok = ?, recordings_failed = ?, recordings_skipped = ? WHERE id = ?")
            .run([.real(SQLiteResultSink.now()), .integer(ok), .integer(failed), .integer(skipped), .integer(Int(runID))])
    }

    /// Whether `path` with this content was already analysed successfully with the current configuration.
    /// - Throws: ``SQLiteError``.
    /// - Complexity: one indexed lookup.
    public func isDone(path: String, contentHash: String) throws -> Bool {
        try db.prepare("SELECT 1 FROM recordings WHERE path = ? AND content_hash = ? AND config_hash = ? AND status = 'ok' LIMIT 1")
            .query([.text(path), .text(contentHash), .text(configHash)]) { _ in true }.first ?? false
    }

    /// The (path, content hash) pairs already done (status `ok`) with the current configuration.
    /// - Throws: ``SQLiteError``.
    /// - Complexity: O(recordings in the database).
    public func completedRecordings() throws -> Set<CompletedRecording> {
        Set(
            try db.prepare("SELECT path, content_hash FROM recordings WHERE config_hash = ? AND status = 'ok'")
                .query([.text(configHash)]) { CompletedRecording(path: $0.text(0) ?? "", contentHash: $0.text(1) ?? "") })
    }

    /// Analyses one recording into the database in one transaction: result rows, `recordings` row
    /// (status `ok`, QC totals), `streams` rows. Earlier failed rows for the same path, content
    /// and configuration are replaced.
    /// - Parameters:
    ///   - recording: the recording and its files.
    ///   - size: its size in bytes.
    ///   - contentHash: ``ContentHash/files(_:)`` of its files.
    ///   - analysis: decoding and analysis options.
    /// - Returns: the analysis summary.
    /// - Throws: the decoder's or SQLite's error; nothing of the recording is then stored (call
    ///   ``recordFailure(path:size:contentHash:error:)``).
    /// - Complexity: that of ``RecordingAnalysis/run(path:analysis:sink:beforeCommit:)``.
    public func analyze(
        recording: RecordingInput, size: Int, contentHash: String,
        analysis: AnalysisConfiguration
    ) throws -> RecordingAnalysis.Summary {
        precondition(runID != nil, "analyze without startRun")
        return try RecordingAnalysis.run(recording: recording, analysis: analysis, sink: sink) { summary in
            try self.bookkeeping(summary, path: recording.path, size: size, contentHash: contentHash)
        }
    }

    /// Stores a recording analysed elsewhere (into a ``SpoolSink``, e.g. on another thread) in
    /// one transaction, exactly as ``analyze(path:size:contentHash:analysis:)`` would have.
    /// - Parameters:
    ///   - path: the recording (absolute path).
    ///   - size: its size in bytes.
    ///   - contentHash: ``ContentHash/file(_:)`` of it.
    ///   - summary: the analysis summary.
    ///   - results: the spooled rows (``SpoolSink``).
    ///   - beforeCommit: called inside the open transaction, after every row is written (fault
    ///     injection for tests; default: nothing).
    /// - Throws: ``SQLiteError``; nothing of the recording is then stored.
    /// - Complexity: O(rows).
    public func store(
        path: String, size: Int, contentHash: String, summary: RecordingAnalysis.Summary,
        results: RowSpool, beforeCommit: () -> Void = {}
    ) throws {
        precondition(runID != nil, "store without startRun")
        try sink.begin(recording: path)
        do {
            try sink.write(results)
            try bookkeeping(summary, path: path, size: size, contentHash: contentHash)
            beforeCommit()
            try sink.commit()
        } catch {
            sink.rollback()
            throw error
        }
    }

    /// The `recordings`, `recording_files`, `streams` and `stream_attributes` rows of a
    /// recording, inside its open transaction.
    private func bookkeeping(
        _ summary: RecordingAnalysis.Summary, path: String, size: Int,
        contentHash: String
    ) throws {
        guard let id64 = sink.recordingID else { return }
        let id = Int(id64)
        try deleteFailed(path: path, contentHash: contentHash)
        let qc = summary.accounts
        func sum(_ f: (StreamQC) -> Int) -> Int { qc.reduce(0) { $0 + f($1) } }
        let hours = { (d: [SensorKind: Double]) in d.values.reduce(0, +) / 3600 }
        let fields: [(String, ResultValue)] = [
            ("size", .integer(size)), ("content_hash", .text(contentHash)), ("config_hash", .text(configHash)),
            ("streams", .integer(summary.streams)), ("beats", .integer(summary.beats)),
            ("samples_read", .integer(sum(\.samplesRead) + summary.rejectedWithoutStream)),
            ("samples_emitted", .integer(sum(\.samplesEmitted))), ("masked", .integer(sum(\.masked))),
            ("duplicates_dropped", .integer(sum(\.duplicatesDropped))),
            ("rejected", .integer(sum(\.rejected) + summary.rejectedWithoutStream)), ("gaps", .integer(sum(\.gaps))),
            ("segments", .integer(sum(\.segments))),
            ("issues", summary.issues.isEmpty ? .null : .text(summary.issues.joined(separator: "\n"))),
            ("samples_used", .integer(sum(\.used))), ("rejected_unattributed", .integer(summary.rejectedWithoutStream)),
            ("files", .integer(summary.files.count)), ("signal_hours", .finite(hours(summary.signalSecondsBySensor))),
            ("analysed_hours", .finite(hours(summary.analysedSecondsBySensor))),
        ]
        let declared = Set(BatchTables.recordings.table.columns.map(\.name))
        precondition(fields.allSatisfy { declared.contains($0.0) }, "recordings: undeclared column")
        try db.prepare(
            "UPDATE recordings SET " + fields.map { "\(SQLiteConnection.quote($0.0)) = ?" }.joined(separator: ", ")
                + " WHERE id = ?"
        ).run(fields.map(\.1) + [.integer(id)])
        for (k, file) in summary.files.enumerated() {
            try sink.insert(BatchTables.recordingFiles, RecordingFileEntry(recordingID: id, index: k, path: file))
        }
        for (k, s) in summary.streamSummaries.enumerated() {
            try sink.insert(BatchTables.streams, StreamEntry(recordingID: id, index: k, summary: s))
            for key in s.attributes.keys.sorted() {
                try sink.insert(
                    BatchTables.streamAttributes,
                    StreamAttributeEntry(recordingID: id, index: k, key: key, value: s.attributes[key]!))
            }
        }
    }

    /// Records a failed recording (status `failed`, the error text) in its own transaction,
    /// replacing earlier failed rows for the same path, content and configuration.
    /// - Parameters:
    ///   - path: the recording.
    ///   - size: its size in bytes, when known.
    ///   - contentHash: its content hash, when it could be read.
    ///   - error: what went wrong.
    /// - Throws: ``SQLiteError``.
    /// - Complexity: O(1).
    public func recordFailure(path: String, size: Int?, contentHash: String?, error: String) throws {
        sink.rollback()
        try db.execute("BEGIN IMMEDIATE")
        do {
            if let contentHash { try deleteFailed(path: path, contentHash: contentHash) }
            let now = SQLiteResultSink.now()
            try db.prepare(
                """
                INSERT INTO recordings (run_id, path, size, content_hash, config_hash, status, error, started_at, finished_at)
                VALUES (?, ?, ?, ?, ?, 'failed', ?, ?, ?)
                """
            ).run([
                runID.map { .integer(Int($0)) } ?? .null, .text(path), size.map { .integer($0) } ?? .null,
                contentHash.map { .text($0) } ?? .null, .text(configHash), .text(error), .real(now), .real(now),
            ])
            try db.execute("COMMIT")
        } catch {
            try? db.execute("ROLLBACK")
            throw error
        }
    }

    private func deleteFailed(path: String, contentHash: String) throws {
        try db.prepare("DELETE FROM recordings WHERE path = ? AND content_hash = ? AND config_hash = ? AND status = 'failed'")
            .run([.text(path), .text(contentHash), .text(configHash)])
    }
}

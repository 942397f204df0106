import Foundation
import Recordings

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

    /// Opens or creates the database.
    /// - Parameter path: database file.
    /// - Throws: ``SQLiteError``.
    /// - Complexity: O(number of tables).
    public init(path: String) throws {
        sink = try SQLiteResultSink(path: path)
    }

    /// Inserts the `runs` row of a new run.
    /// - Parameters:
    ///   - softwareVersion: `sensorpipe --version`.
    ///   - configJSON: the run's configuration (canonical JSON, sorted keys); its hash decides resuming.
    /// - Returns: the run id.
    /// - Throws: ``SQLiteError``.
    /// - Complexity: O(1).
    @discardableResult
    public func startRun(softwareVersion: String, configJSON: String) throws -> Int64 {
        configHash = ContentHash.text(configJSON)
        try db.prepare("INSERT INTO runs (software_version, config_json, config_hash, started_at) VALUES (?, ?, ?, ?)")
            .run([.text(softwareVersion), .text(configJSON), .text(configHash), .real(SQLiteResultSink.now())])
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
        Set(try db.prepare("SELECT path, content_hash FROM recordings WHERE config_hash = ? AND status = 'ok'")
            .query([.text(configHash)]) { CompletedRecording(path: $0.text(0) ?? "", contentHash: $0.text(1) ?? "") })
    }

    /// Analyses one recording into the database in one transaction: result rows, `recordings` row
    /// (status `ok`, QC totals), `streams` rows. Earlier failed rows for the same path, content
    /// and configuration are replaced.
    /// - Parameters:
    ///   - path: the recording.
    ///   - size: its size in bytes.
    ///   - contentHash: ``ContentHash/file(_:)`` of it.
    ///   - analysis: decoding and analysis options.
    /// - Returns: the analysis summary.
    /// - Throws: the decoder's or SQLite's error; nothing of the recording is then stored (call
    ///   ``recordFailure(path:size:contentHash:error:)``).
    /// - Complexity: that of ``RecordingAnalysis/run(path:analysis:sink:beforeCommit:)``.
    public func analyze(path: String, size: Int, contentHash: String,
                        analysis: AnalysisConfiguration) throws -> RecordingAnalysis.Summary {
        precondition(runID != nil, "analyze without startRun")
        return try RecordingAnalysis.run(path: path, analysis: analysis, sink: sink) { summary in
            try self.bookkeeping(summary, path: path, size: size, contentHash: contentHash)
        }
    }

    /// Stores a recording analysed elsewhere (into a ``StagingSink``, e.g. on another thread) in
    /// one transaction, exactly as ``analyze(path:size:contentHash:analysis:)`` would have.
    /// - Parameters:
    ///   - path: the recording (absolute path).
    ///   - size: its size in bytes.
    ///   - contentHash: ``ContentHash/file(_:)`` of it.
    ///   - summary: the analysis summary.
    ///   - results: the staged rows.
    ///   - beforeCommit: called inside the open transaction, after every row is written (fault
    ///     injection for tests; default: nothing).
    /// - Throws: ``SQLiteError``; nothing of the recording is then stored.
    /// - Complexity: O(rows).
    public func store(path: String, size: Int, contentHash: String, summary: RecordingAnalysis.Summary,
                      results: StagedResults, beforeCommit: () -> Void = {}) throws {
        precondition(runID != nil, "store without startRun")
        try sink.begin(recording: path)
        do {
            for (table, rows) in results.tables { try sink.write(table, rows: rows) }
            try bookkeeping(summary, path: path, size: size, contentHash: contentHash)
            beforeCommit()
            try sink.commit()
        } catch {
            sink.rollback()
            throw error
        }
    }

    /// The `recordings` and `streams` rows of a recording, inside its open transaction.
    private func bookkeeping(_ summary: RecordingAnalysis.Summary, path: String, size: Int,
                             contentHash: String) throws {
        guard let id = sink.recordingID else { return }
        try deleteFailed(path: path, contentHash: contentHash)
        let qc = summary.accounts
        func sum(_ f: (StreamQC) -> Int) -> Int { qc.reduce(0) { $0 + f($1) } }
        func total(_ f: (StreamQC) -> Int) -> ResultValue { .integer(sum(f)) }
        try db.prepare("""
            UPDATE recordings SET size = ?, content_hash = ?, config_hash = ?, streams = ?, beats = ?,
              samples_read = ?, samples_emitted = ?, masked = ?, duplicates_dropped = ?, rejected = ?,
              gaps = ?, segments = ?, issues = ?, samples_used = ?, rejected_unattributed = ? WHERE id = ?
            """).run([.integer(size), .text(contentHash), .text(configHash), .integer(summary.streams),
                  .integer(summary.beats), .integer(sum(\.samplesRead) + summary.rejectedWithoutStream),
                  total(\.samplesEmitted), total(\.masked), total(\.duplicatesDropped),
                  .integer(sum(\.rejected) + summary.rejectedWithoutStream), total(\.gaps), total(\.segments),
                  summary.issues.isEmpty ? .null : .text(summary.issues.joined(separator: "\n")),
                  total(\.used), .integer(summary.rejectedWithoutStream), .integer(Int(id))])
        let insert = try db.prepare("""
            INSERT INTO streams (recording_id, stream_index, stream, samples_read, samples_emitted, masked,
              duplicates_dropped, rejected, gaps, backward_steps, rate_changes, segments, deleted_spans,
              deleted_seconds, first_time, last_time, covered_seconds, measured_rate_hz, samples_used, sensor)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        for (k, a) in qc.enumerated() {
            let key = k < summary.keys.count ? summary.keys[k].description : "stream \(k)"
            try insert.run([.integer(Int(id)), .integer(k), .text(key), .integer(a.samplesRead),
                        .integer(a.samplesEmitted), .integer(a.masked), .integer(a.duplicatesDropped),
                        .integer(a.rejected), .integer(a.gaps), .integer(a.backwardSteps), .integer(a.rateChanges),
                        .integer(a.segments), .integer(a.deletedSpans), .finite(a.deletedSeconds),
                        .finite(a.firstTime), .finite(a.lastTime), .finite(a.coveredSeconds),
                        .finite(a.measuredSampleRate), .integer(a.used),
                        k < summary.keys.count ? .text(summary.keys[k].sensor.rawValue) : .null])
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
            try db.prepare("""
                INSERT INTO recordings (run_id, path, size, content_hash, config_hash, status, error, started_at, finished_at)
                VALUES (?, ?, ?, ?, ?, 'failed', ?, ?, ?)
                """).run([runID.map { .integer(Int($0)) } ?? .null, .text(path), size.map { .integer($0) } ?? .null,
                          contentHash.map { .text($0) } ?? .null, .text(configHash), .text(error), .real(now), .real(now)])
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

import Recordings
import Signals

/// A bookkeeping table of the batch database: its declaration plus the SQL constraints SQLite
/// needs (keys, references), from which `CREATE TABLE` is generated.
public struct BatchTable: Sendable {
    /// Name, columns, units, meaning.
    public let table: ResultTable
    /// Constraint per column name (`PRIMARY KEY`, `NOT NULL REFERENCES …`).
    let columnConstraints: [String: String]
    /// Table constraints (`PRIMARY KEY (a, b)`).
    let tableConstraints: [String]

    /// `CREATE TABLE IF NOT EXISTS …`.
    var createStatement: String {
        let columns =
            table.columns.map { c in
                "\(SQLiteConnection.quote(c.name)) \(c.type.rawValue)" + (columnConstraints[c.name].map { " " + $0 } ?? "")
            } + tableConstraints
        return "CREATE TABLE IF NOT EXISTS \(SQLiteConnection.quote(table.name)) (\(columns.joined(separator: ", ")));"
    }
}

/// One stream of a stored recording (a row of `streams`).
public struct StreamEntry: Sendable {
    /// The recording's `recordings.id`.
    public var recordingID: Int
    /// Recording-wide stream index.
    public var index: Int
    /// What the analysis said of the stream.
    public var summary: RecordingAnalysis.StreamSummary
}

/// One attribute of a stored stream (a row of `stream_attributes`).
public struct StreamAttributeEntry: Sendable {
    /// The recording's `recordings.id`.
    public var recordingID: Int
    /// Recording-wide stream index.
    public var index: Int
    /// Attribute name.
    public var key: String
    /// Its value, as the source gave it.
    public var value: String
}

/// One file of a stored recording (a row of `recording_files`).
public struct RecordingFileEntry: Sendable {
    /// The recording's `recordings.id`.
    public var recordingID: Int
    /// Position among the recording's files.
    public var index: Int
    /// The file.
    public var path: String
}

/// The batch database's bookkeeping tables (`runs`, `recordings`, `recording_files`, `streams`,
/// `stream_attributes`), declared once: `CREATE TABLE`, the signature checks and
/// `docs/RESULTS.md` come from these.
public enum BatchTables {
    /// One row per `sensorpipe run`.
    public static let runs = BatchTable(
        table: ResultTable(
            name: "runs", summary: "one row per batch run",
            columns: [
                ResultColumn("id", .integer, "run number"),
                ResultColumn("software_version", .text, "SensorPipe's version (SensorPipeVersion.current)"),
                ResultColumn("config_json", .text, "the canonical configuration JSON (every option that changes results)"),
                ResultColumn("config_hash", .text, "FNV-1a 64 of config_json: what resuming compares"),
                ResultColumn("started_at", .real, unit: "s", "Unix time the run started"),
                ResultColumn("ended_at", .real, unit: "s", "Unix time it ended (empty if it was stopped)"),
                ResultColumn("recordings_ok", .integer, "recordings analysed and stored"),
                ResultColumn("recordings_failed", .integer, "recordings that could not be analysed"),
                ResultColumn("recordings_skipped", .integer, "recordings already done (resumed)"),
                ResultColumn("label", .text, "the caller's study label (sensorpipe run --label), or empty"),
            ]),
        columnConstraints: [
            "id": "PRIMARY KEY", "software_version": "NOT NULL", "config_json": "NOT NULL",
            "config_hash": "NOT NULL", "started_at": "NOT NULL",
        ], tableConstraints: [])

    /// One row per recording and run that stored it.
    public static let recordings = BatchTable(
        table: ResultTable(
            name: "recordings", summary: "one row per stored recording",
            columns: [
                ResultColumn("id", .integer, "recording id (result tables' recording_id)"),
                ResultColumn("run_id", .integer, "the run that stored it"),
                ResultColumn("path", .text, "absolute path: the file, a .group manifest, or a folder group's first file"),
                ResultColumn("size", .integer, unit: "bytes", "bytes of all its files (WFDB header and signal files, group members)"),
                ResultColumn("content_hash", .text, "FNV-1a 64 of its file's bytes; of several files, FNV-1a 64 of their hashes"),
                ResultColumn("config_hash", .text, "the run's configuration hash"),
                ResultColumn("status", .text, "ok or failed"),
                ResultColumn("error", .text, "for a failed recording: file[:line[:column]]: code: message"),
                ResultColumn("streams", .integer, "streams decoded"),
                ResultColumn("beats", .integer, "rows written to beats"),
                ResultColumn("samples_read", .integer, "samples read (all streams, plus rejected_unattributed)"),
                ResultColumn("samples_emitted", .integer, "samples delivered to analyses (used + masked)"),
                ResultColumn("masked", .integer, "samples delivered but flagged unusable"),
                ResultColumn("duplicates_dropped", .integer, "duplicate samples dropped"),
                ResultColumn("rejected", .integer, "samples of malformed records (plus rejected_unattributed)"),
                ResultColumn("gaps", .integer, "gaps between segments"),
                ResultColumn("segments", .integer, "segments"),
                ResultColumn("issues", .text, "recoverable problems, one per line"),
                ResultColumn("started_at", .real, unit: "s", "Unix time its analysis was stored (start of the transaction)"),
                ResultColumn("finished_at", .real, unit: "s", "Unix time it was committed"),
                ResultColumn("samples_used", .integer, "samples analyses could use (emitted − masked)"),
                ResultColumn("rejected_unattributed", .integer, "rejected samples that belong to no stream"),
                ResultColumn("files", .integer, "member files (recording_files)"),
                ResultColumn("signal_hours", .real, unit: "h", "hours of signal decoded (concurrent channels of one device once)"),
                ResultColumn("analysed_hours", .real, unit: "h", "hours of signal some analysis used"),
            ]), columnConstraints: ["id": "PRIMARY KEY", "run_id": "REFERENCES runs(id)", "path": "NOT NULL", "status": "NOT NULL"],
        tableConstraints: [])

    /// The files of each stored recording.
    public static let recordingFiles = TableSchema<RecordingFileEntry>(
        name: "recording_files", summary: "the files each recording was decoded from",
        columns: [
            .init("recording_id", .integer, "recordings.id") { .integer($0.recordingID) },
            .init("file_index", .integer, "position among the recording's files") { .integer($0.index) },
            .init("path", .text, "the file (absolute path)") { .text($0.path) },
        ])

    /// One row per stream of a stored recording: its QC account and what analysed it.
    public static let streams = TableSchema<StreamEntry>(
        name: "streams", summary: "every stream of a stored recording, its sample account and its analyses",
        columns: [
            .init("recording_id", .integer, "recordings.id") { .integer($0.recordingID) },
            .init("stream_index", .integer, "recording-wide stream index") { .integer($0.index) },
            .init("stream", .text, "stream key, as in the result tables' stream column") { .text($0.summary.key.description) },
            .init("samples_read", .integer, "samples read") { .integer($0.summary.account.samplesRead) },
            .init("samples_emitted", .integer, "samples delivered (used + masked)") { .integer($0.summary.account.samplesEmitted) },
            .init("masked", .integer, "samples flagged unusable") { .integer($0.summary.account.masked) },
            .init("duplicates_dropped", .integer, "duplicates dropped") { .integer($0.summary.account.duplicatesDropped) },
            .init("rejected", .integer, "samples of malformed records") { .integer($0.summary.account.rejected) },
            .init("gaps", .integer, "gaps") { .integer($0.summary.account.gaps) },
            .init("backward_steps", .integer, "times the clock went backwards") { .integer($0.summary.account.backwardSteps) },
            .init("rate_changes", .integer, "declared rate changes") { .integer($0.summary.account.rateChanges) },
            .init("segments", .integer, "segments") { .integer($0.summary.account.segments) },
            .init("deleted_spans", .integer, "deletion records") { .integer($0.summary.account.deletedSpans) },
            .init("deleted_seconds", .real, unit: "s", "seconds covered by deletion records") {
                .finite($0.summary.account.deletedSeconds)
            },
            .init("first_time", .real, unit: "s", "first sample's time (see time_origin)") { .finite($0.summary.account.firstTime) },
            .init("last_time", .real, unit: "s", "last sample's time (see time_origin)") { .finite($0.summary.account.lastTime) },
            .init("covered_seconds", .real, unit: "s", "seconds covered by segments") { .finite($0.summary.account.coveredSeconds) },
            .init("measured_rate_hz", .real, unit: "Hz", "rate measured from the timestamps") {
                .finite($0.summary.account.measuredSampleRate)
            },
            .init("samples_used", .integer, "samples analyses could use") { .integer($0.summary.account.used) },
            .init("sensor", .text, "sensor (accelerometer, rotationRate, electrocardiogram, photoplethysmogram)") {
                .text($0.summary.key.sensor.rawValue)
            },
            .init("file", .text, "the member file the stream came from") { .text($0.summary.file) },
            .init(
                "time_origin", .text,
                "what the stream's times count from: unix (Unix seconds, UTC), stream_start (seconds from the stream's start; not a date) or device_local (seconds since 1970 on the device's local clock, offset unknown)"
            ) {
                .text($0.summary.timeOrigin.rawValue)
            },
            .init("analysis", .text, "the analysis families applied (joined by +), or 'none: why'") {
                .text($0.summary.analysisDescription)
            },
        ])

    /// Attributes of each stored stream (recording metadata the export carries).
    public static let streamAttributes = TableSchema<StreamAttributeEntry>(
        name: "stream_attributes",
        summary: "metadata of each stream as its source gave it (device model and software, ECG classification, UTC offset, …)",
        columns: [
            .init("recording_id", .integer, "recordings.id") { .integer($0.recordingID) },
            .init("stream_index", .integer, "streams.stream_index") { .integer($0.index) },
            .init("key", .text, "attribute name") { .text($0.key) },
            .init("value", .text, "its value") { .text($0.value) },
        ])

    /// The declared bookkeeping tables, in creation order.
    static var all: [BatchTable] {
        [
            runs, recordings,
            BatchTable(
                table: recordingFiles.table, columnConstraints: ["recording_id": "NOT NULL REFERENCES recordings(id)"],
                tableConstraints: ["PRIMARY KEY (recording_id, file_index)"]),
            BatchTable(
                table: streams.table,
                columnConstraints: [
                    "recording_id": "NOT NULL REFERENCES recordings(id)",
                    "stream_index": "NOT NULL", "stream": "NOT NULL",
                ],
                tableConstraints: ["PRIMARY KEY (recording_id, stream_index)"]),
            BatchTable(
                table: streamAttributes.table, columnConstraints: ["recording_id": "NOT NULL REFERENCES recordings(id)"],
                tableConstraints: ["PRIMARY KEY (recording_id, stream_index, key)"]),
        ]
    }
}

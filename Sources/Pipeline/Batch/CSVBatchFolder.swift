import Foundation
import Recordings
import Signals

/// A batch's results as CSV (`sensorpipe run --format csv`): one folder per recording.
///
/// Layout of the output folder:
/// - `recordings/<name>/`: the recording's tables (`beats.csv`, `heart_rate.csv`, … as written by
///   `sensorpipe analyze`) and `recording.json` (path, size, content and configuration hashes,
///   status, error, issues and the QC account of every stream). `<name>` is the file's name
///   followed by 16 hex digits of the FNV-1a 64 hash of its absolute path, so names never collide.
/// - `recordings.csv`: one line per recording folder (rewritten at the end of every run).
/// - `runs.ndjson`: one JSON line per run start and per run end.
/// - `<table>.csv` (or `<table>.csv.gz` with `compressTables`): one long table per result table
///   for the whole batch — a first column `recording` (the recording's path, as in
///   `recordings.csv`) followed by the table's declared columns — holding every recording whose
///   folder is `ok` under this configuration, ordered by path. Rewritten at the end of every run
///   (written to a hidden partial file, then renamed), so one `pandas.read_csv` or `read.csv`
///   loads a table for the whole batch. The per-recording folders stay: they are what resuming reads.
///
/// A recording is written into a hidden `.partial` folder that is renamed into place when
/// complete (atomic on POSIX file systems): a crash leaves either the whole folder or none.
/// Resuming skips folders whose `recording.json` says `ok` with the same content and configuration.
public final class CSVBatchFolder: BatchStore {
    /// The output folder.
    public let directory: URL
    private var configHash = ""
    private var runNumber: Int64 = 0
    /// Held from ``startRun(softwareVersion:configJSON:label:)`` to ``finishRun(ok:failed:skipped:)``.
    private var lock: RunLock?
    /// The result tables written as long batch tables.
    public let tables: [ResultTable]
    /// Whether the long batch tables are gzip-compressed (`<table>.csv.gz`).
    public let compressTables: Bool

    /// What `recording.json` holds.
    struct RecordingFile: Codable {
        var path: String
        var size: Int?
        var content_hash: String?
        var config_hash: String
        var status: String
        var error: String?
        var streams: [StreamFile]
        var beats: Int
        /// Samples of rejected records that belong to no stream.
        var rejected_unattributed: Int?
        var issues: [String]
        var finished_at: Double
    }

    /// One stream's QC account in `recording.json`.
    struct StreamFile: Codable {
        var stream: String
        var sensor: String?
        var samples_read: Int, samples_used: Int, masked: Int, duplicates_dropped: Int, rejected: Int
        var gaps: Int, segments: Int, deleted_spans: Int, deleted_seconds: Double
        var first_time: Double?, last_time: Double?, covered_seconds: Double, measured_rate_hz: Double?
        var file: String?, time_origin: String?, analysis: String?, attributes: [String: String]?
    }

    /// Opens or creates the output folder.
    /// - Parameters:
    ///   - directory: the folder (created with its parents when missing).
    ///   - tables: the result tables to write as long batch tables (`<table>.csv`); none by
    ///     default. Names must be unique.
    ///   - compressTables: gzip the long tables (`<table>.csv.gz`); default `false`.
    /// - Throws: a file-system error naming it.
    public init(directory: URL, tables: [ResultTable] = [], compressTables: Bool = false) throws {
        self.directory = directory
        self.tables = tables
        self.compressTables = compressTables
        try FileManager.default.createDirectory(
            at: directory.appendingPathComponent("recordings"),
            withIntermediateDirectories: true)
    }

    @discardableResult
    public func startRun(softwareVersion: String, configJSON: String, label: String?) throws -> Int64 {
        if lock == nil {
            lock = try RunLock(path: directory.appendingPathComponent(".sensorpipe.lock").path, guarding: directory.path)
        }
        configHash = ContentHash.text(configJSON)
        let runs = directory.appendingPathComponent("runs.ndjson")
        let previous = (try? String(contentsOf: runs, encoding: .utf8)) ?? ""
        runNumber = Int64(previous.split(separator: "\n").filter { $0.contains("\"event\":\"start\"") }.count + 1)
        try appendRunLine(
            RunLine(
                event: "start", run: runNumber, time: Date().timeIntervalSince1970, software_version: softwareVersion,
                config_hash: configHash, config: configJSON, label: label))
        return runNumber
    }

    public func completedRecordings() throws -> Set<CompletedRecording> {
        var done = Set<CompletedRecording>()
        for record in try recordingFiles() where record.status == "ok" && record.config_hash == configHash {
            if let hash = record.content_hash { done.insert(CompletedRecording(path: record.path, contentHash: hash)) }
        }
        return done
    }

    public func store(
        path: String, size: Int, contentHash: String, summary: RecordingAnalysis.Summary,
        results: RowSpool, beforeCommit: () -> Void
    ) throws {
        let streams = summary.streamSummaries.map { s in
            let a = s.account
            return StreamFile(
                stream: s.key.description, sensor: s.key.sensor.rawValue,
                samples_read: a.samplesRead, samples_used: a.used, masked: a.masked,
                duplicates_dropped: a.duplicatesDropped, rejected: a.rejected, gaps: a.gaps,
                segments: a.segments, deleted_spans: a.deletedSpans, deleted_seconds: a.deletedSeconds,
                first_time: a.firstTime, last_time: a.lastTime, covered_seconds: a.coveredSeconds,
                measured_rate_hz: a.measuredSampleRate, file: s.file, time_origin: s.timeOrigin.rawValue,
                analysis: s.analysisDescription, attributes: s.attributes.isEmpty ? nil : s.attributes)
        }
        let record = RecordingFile(
            path: path, size: size, content_hash: contentHash, config_hash: configHash,
            status: "ok", error: nil, streams: streams, beats: summary.beats,
            rejected_unattributed: summary.rejectedWithoutStream, issues: summary.issues, finished_at: Date().timeIntervalSince1970)
        try publish(record) { partial in
            let sink = try CSVResultSink(directory: partial)
            try sink.begin(recording: path)
            try sink.write(results)
            try sink.commit()
            beforeCommit()
        }
    }

    public func recordFailure(path: String, size: Int?, contentHash: String?, error: String) throws {
        let record = RecordingFile(
            path: path, size: size, content_hash: contentHash, config_hash: configHash,
            status: "failed", error: error, streams: [], beats: 0,
            rejected_unattributed: nil, issues: [],
            finished_at: Date().timeIntervalSince1970)
        try publish(record) { _ in }
    }

    public func finishRun(ok: Int, failed: Int, skipped: Int) throws {
        defer { lock = nil }
        try appendRunLine(
            RunLine(
                event: "end", run: runNumber, time: Date().timeIntervalSince1970, recordings_ok: ok, recordings_failed: failed,
                recordings_skipped: skipped))
        let records = try recordingFiles()
        try writeIndex(records)
        try writeLongTables(records)
    }

    /// The folder name of a recording: its file name plus the hash of its path.
    public static func folderName(for path: String) -> String {
        let base = (path as NSString).lastPathComponent
        let safe = String(base.map { $0.isLetter || $0.isNumber || $0 == "." || $0 == "-" || $0 == "_" ? $0 : "_" })
        let hash = Array(path.utf8).withUnsafeBytes { ContentHash.fnv1a64($0) }
        return safe + "-" + ContentHash.hex(hash)
    }

    /// Writes `record` and whatever `fill` puts in the folder into a `.partial` folder, then
    /// replaces the recording's folder with it.
    private func publish(_ record: RecordingFile, fill: (URL) throws -> Void) throws {
        let fm = FileManager.default
        let name = Self.folderName(for: record.path)
        let root = directory.appendingPathComponent("recordings")
        let partial = root.appendingPathComponent(".\(name).partial")
        let final = root.appendingPathComponent(name)
        try? fm.removeItem(at: partial)
        try fm.createDirectory(at: partial, withIntermediateDirectories: true)
        do {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
            try encoder.encode(record).write(to: partial.appendingPathComponent("recording.json"))
            try fill(partial)
            if fm.fileExists(atPath: final.path) {
                let old = root.appendingPathComponent(".\(name).old")
                try? fm.removeItem(at: old)
                try fm.moveItem(at: final, to: old)
                try fm.moveItem(at: partial, to: final)
                try? fm.removeItem(at: old)
            } else {
                try fm.moveItem(at: partial, to: final)
            }
        } catch {
            try? fm.removeItem(at: partial)
            throw error
        }
    }

    /// Every `recordings/*/recording.json`.
    private func recordingFiles() throws -> [RecordingFile] {
        let root = directory.appendingPathComponent("recordings")
        let names = try FileManager.default.contentsOfDirectory(atPath: root.path).filter { !$0.hasPrefix(".") }.sorted()
        let decoder = JSONDecoder()
        return names.compactMap { name in
            let url = root.appendingPathComponent(name).appendingPathComponent("recording.json")
            guard let data = try? Data(contentsOf: url) else { return nil }
            return try? decoder.decode(RecordingFile.self, from: data)
        }
    }

    /// `recordings.csv`: one line per recording folder.
    private func writeIndex(_ records: [RecordingFile]) throws {
        var text =
            "folder,path,status,size,content_hash,config_hash,streams,beats,samples_read,samples_used,masked,duplicates_dropped,rejected,error\n"
        for r in records {
            let unattributed = r.rejected_unattributed ?? 0
            func sum(_ f: (StreamFile) -> Int, plus: Int = 0) -> String { String(r.streams.reduce(plus) { $0 + f($1) }) }
            let fields: [ResultValue] = [
                .text(Self.folderName(for: r.path)), .text(r.path), .text(r.status), r.size.map { .integer($0) } ?? .null,
                r.content_hash.map { .text($0) } ?? .null, .text(r.config_hash), .integer(r.streams.count),
                .integer(r.beats), .text(sum(\.samples_read, plus: unattributed)), .text(sum(\.samples_used)), .text(sum(\.masked)),
                .text(sum(\.duplicates_dropped)), .text(sum(\.rejected, plus: unattributed)), r.error.map { .text($0) } ?? .null,
            ]
            text += fields.map(CSVResultSink.field).joined(separator: ",") + "\n"
        }
        let url = directory.appendingPathComponent("recordings.csv")
        let partial = directory.appendingPathComponent(".recordings.csv.partial")
        try Data(text.utf8).write(to: partial)
        if rename(partial.path, url.path) != 0 {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path])
        }
    }

    /// One line of `runs.ndjson`: a run's start (software, configuration, label) or end (counts).
    /// Absent members are left out of the line.
    struct RunLine: Encodable {
        var event: String
        var run: Int64
        var time: Double
        var software_version: String? = nil
        var config_hash: String? = nil
        var config: String? = nil
        var label: String? = nil
        var recordings_ok: Int? = nil
        var recordings_failed: Int? = nil
        var recordings_skipped: Int? = nil

        /// The line's JSON object, keys sorted (no newline).
        /// - Throws: `EncodingError` for a non-finite time.
        func json() throws -> Data {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            return try encoder.encode(self)
        }
    }

    private func appendRunLine(_ object: RunLine) throws {
        let url = directory.appendingPathComponent("runs.ndjson")
        var line = try object.json()
        line.append(0x0A)
        if !FileManager.default.fileExists(atPath: url.path) {
            guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
                throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path])
            }
        }
        let handle = try FileHandle(forWritingTo: url)
        defer { try? handle.close() }
        try handle.seekToEnd()
        try handle.write(contentsOf: line)
    }
}

extension CSVBatchFolder {
    /// Errors of the long batch tables.
    public struct LongTableError: Error, CustomStringConvertible, Sendable {
        /// What kind of problem it is; new codes may be added.
        public struct Code: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
            public var rawValue: String
            public init(rawValue: String) { self.rawValue = rawValue }
            public var description: String { rawValue }
            /// A file could not be read, written or renamed.
            public static let io = Code(rawValue: "io")
            /// A recording's table has other columns than this build declares.
            public static let columns = Code(rawValue: "columns")
        }

        /// What kind of problem.
        public var code: Code
        /// What was wrong, naming the file.
        public var description: String

        /// Creates an error.
        /// - Parameters:
        ///   - code: the kind of problem.
        ///   - description: what was wrong, naming the file.
        public init(_ code: Code, description: String) {
            self.code = code
            self.description = description
        }
    }

    /// Writes `<table>.csv` (or `.csv.gz`) for every table in ``tables``: the rows of every
    /// recording folder that is `ok` under this configuration, each prefixed with the recording's
    /// path, ordered by path. Each recording's file is streamed in 1 MiB reads (memory does not
    /// grow with the batch); records are split on line breaks outside RFC 4180 quotes.
    func writeLongTables(_ records: [RecordingFile]) throws {
        let current = records.filter { $0.status == "ok" && $0.config_hash == configHash }.sorted { $0.path < $1.path }
        let root = directory.appendingPathComponent("recordings")
        var chunk = [UInt8](repeating: 0, count: 1 << 20)
        for table in tables {
            let name = table.name + (compressTables ? ".csv.gz" : ".csv")
            let final = directory.appendingPathComponent(name)
            let partial = directory.appendingPathComponent(".\(name).partial")
            let header = table.columns.map(\.name).joined(separator: ",")
            do {
                let out = try OutputFile(path: partial.path, compress: compressTables)
                try out.write(Array(("recording," + header + "\n").utf8))
                for record in current {
                    let url = root.appendingPathComponent(Self.folderName(for: record.path))
                        .appendingPathComponent(table.name + ".csv")
                    guard let input = FileHandle(forReadingAtPath: url.path) else { continue } // no rows of this table
                    defer { try? input.close() }
                    let prefix = Array((CSVResultSink.field(.text(record.path)) + ",").utf8)
                    try append(input, from: url.path, header: header, prefix: prefix, to: out, chunk: &chunk)
                }
                try out.finish()
                if rename(partial.path, final.path) != 0 {
                    throw LongTableError(.io, description: "\(final.path): cannot rename into place: \(String(cString: strerror(errno)))")
                }
            } catch {
                try? FileManager.default.removeItem(at: partial)
                throw error
            }
            // A table written the other way by an earlier run is stale now.
            let other = directory.appendingPathComponent(table.name + (compressTables ? ".csv" : ".csv.gz"))
            try? FileManager.default.removeItem(at: other)
        }
    }

    /// Copies one recording's table file after its header line, starting each record with
    /// `prefix`.
    private func append(
        _ input: FileHandle, from path: String, header: String, prefix: [UInt8], to out: OutputFile,
        chunk: inout [UInt8]
    ) throws {
        var inHeader = true, headerBytes = [UInt8]()
        var quoted = false, atRecordStart = true
        var pending = [UInt8]()
        pending.reserveCapacity(chunk.count + chunk.count / 8)
        while true {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(input.fileDescriptor, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw LongTableError(.io, description: "\(path): cannot read: \(String(cString: strerror(errno)))")
            }
            if n == 0 { break }
            pending.removeAll(keepingCapacity: true)
            for i in 0..<n {
                let c = chunk[i]
                if inHeader {
                    if c == 0x0A {
                        inHeader = false
                        let found = String(decoding: headerBytes, as: UTF8.self)
                        guard found == header else {
                            throw LongTableError(
                                .columns,
                                description:
                                    "\(path): its columns (\(found)) differ from this build's (\(header)); "
                                    + "rerun the batch into a new folder")
                        }
                    } else {
                        headerBytes.append(c)
                    }
                    continue
                }
                if atRecordStart {
                    pending.append(contentsOf: prefix)
                    atRecordStart = false
                }
                pending.append(c)
                if c == UInt8(ascii: "\"") {
                    quoted.toggle()
                } else if c == 0x0A && !quoted {
                    atRecordStart = true
                }
            }
            try out.write(pending)
        }
        if !atRecordStart { try out.write([0x0A]) } // a last record without its line break
    }
}

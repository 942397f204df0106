import Signals

/// A recording already analysed with the current configuration (what resuming skips).
public struct CompletedRecording: Hashable, Sendable {
    /// Absolute path of the recording.
    public var path: String
    /// ``ContentHash/files(_:)`` of its files' bytes.
    public var contentHash: String

    /// Creates a key.
    public init(path: String, contentHash: String) {
        self.path = path
        self.contentHash = contentHash
    }
}

/// Where a batch stores its results: ``BatchDatabase`` (SQLite, the default) or
/// ``CSVBatchFolder`` (a folder of CSV tables per recording).
///
/// Contract: ``store(path:size:contentHash:summary:results:beforeCommit:)`` makes a recording's
/// rows and bookkeeping visible together or not at all; a recording stored with status `ok` is
/// listed by ``completedRecordings()`` in every later run with the same configuration.
public protocol BatchStore: AnyObject {
    /// Records the start of a run; later calls refer to it.
    /// - Parameters:
    ///   - softwareVersion: `sensorpipe --version`.
    ///   - configJSON: ``AnalysisConfiguration/canonicalJSON(softwareVersion:)``.
    ///   - label: the caller's study label, or `nil`.
    /// - Returns: the run's number.
    @discardableResult
    func startRun(softwareVersion: String, configJSON: String, label: String?) throws -> Int64
    /// Recordings already done with the current run's configuration.
    func completedRecordings() throws -> Set<CompletedRecording>
    /// Stores one analysed recording atomically; `beforeCommit` runs once everything is written
    /// but before it becomes visible (fault injection).
    func store(
        path: String, size: Int, contentHash: String, summary: RecordingAnalysis.Summary,
        results: RowSpool, beforeCommit: () -> Void) throws
    /// Records a recording that could not be analysed, with its error.
    func recordFailure(path: String, size: Int?, contentHash: String?, error: String) throws
    /// Records the end of the run and its counts.
    func finishRun(ok: Int, failed: Int, skipped: Int) throws
}

import Recordings
import Signals

/// One recording of a batch: its identity and the files it is decoded from.
///
/// Most recordings are one file (a WFDB record is opened by its `.hea`, which names its signal
/// files). A recording may also span several files of one device — SensorKit exports one fetch
/// per sensor, e.g. `accelerometer.ndjson.gz` and `rotationRate.ndjson.gz` — which are decoded
/// side by side (``RecordingAnalysis``); ``RecordingDiscovery`` documents how files are grouped.
public struct RecordingInput: Sendable, Hashable {
    /// The recording's identity in the results (`recordings.path`): the file itself, the group's
    /// manifest (`*.group`), or for a folder-rule group its first file.
    public var path: String
    /// The files to decode, in order (one for a plain recording).
    public var files: [String]
    /// The formats of ``files``, one per file, when they were already recognised (a batch
    /// recognises each file once, ``RecordingOpener/identify(path:options:)``); `nil`: each file's
    /// format is recognised when it is opened.
    public var formats: [RecordingFormat]?

    /// A recording of one file.
    public init(path: String) {
        self.path = path
        self.files = [path]
    }

    /// A recording of several files.
    /// - Parameters:
    ///   - path: its identity.
    ///   - files: the member files (at least one).
    public init(path: String, files: [String]) {
        precondition(!files.isEmpty, "a recording has at least one file")
        self.path = path
        self.files = files
    }
}

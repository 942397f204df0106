/// A streaming decoder of one recording file: call ``next()`` until it returns `nil`.
///
/// Decoders read with memory bounded by their block size (never by the recording length),
/// announce devices and streams before their first block, and keep a ``StreamQC`` account per
/// stream. A fatal problem (unreadable file, wrong format, missing header) throws a
/// ``RecordingError`` naming the file and place; a recoverable one (one bad line in a good file)
/// is delivered as ``RecordingEvent/issue(_:)``, and its samples are counted as rejected.
public protocol RecordingDecoder: AnyObject {
    /// The file being decoded, as given by the caller.
    var path: String { get }
    /// The format being decoded.
    var format: RecordingFormat { get }
    /// Streams announced so far, indexed as in ``SampleBlock/stream``.
    var streams: [StreamInfo] { get }
    /// QC account per stream (final once ``next()`` has returned `nil`).
    var accounts: [StreamQC] { get }
    /// Samples of rejected records that belong to no stream (the error came before the record
    /// said which stream), so that samples read = samples in streams + these.
    var rejectedSamplesWithoutStream: Int { get }
    /// The next event, or `nil` at the end of the recording.
    /// - Throws: ``RecordingError`` for problems that make the rest of the file unreadable.
    func next() throws(RecordingError) -> RecordingEvent?
}

extension RecordingDecoder {
    /// Formats whose records always name their stream have none.
    public var rejectedSamplesWithoutStream: Int { 0 }
}

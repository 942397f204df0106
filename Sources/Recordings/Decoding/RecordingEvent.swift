/// What a decoder delivers, in order: devices and streams are announced before the first block
/// that uses them.
public enum RecordingEvent: Sendable {
    /// A device description (the schema's `device` line, or derived from a file header).
    case device(DeviceInfo)
    /// A new stream and its index in the decoder's stream table (``RecordingDecoder/streams``),
    /// the number every later ``SampleBlock/stream`` of it carries.
    case stream(index: Int, info: StreamInfo)
    /// A block of samples of an announced stream.
    case block(SampleBlock)
    /// A span of deleted data (known gap).
    case deletion(DeletionRecord)
    /// A recoverable problem (a bad line that was skipped and counted, an unknown field, …).
    case issue(RecordingError)
    /// A note the recording carries at a time (EDF+ annotations), in file order; it belongs to no
    /// stream and may come before or after the blocks around its onset.
    case annotation(RecordingAnnotation)
}

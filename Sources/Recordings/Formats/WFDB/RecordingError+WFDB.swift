extension RecordingError.Code {
    /// A valid input that uses a feature this build does not decode (a WFDB multi-segment
    /// record, FLAC-compressed signal files, AHA-format annotation files, …).
    public static let unsupported = RecordingError.Code(rawValue: "unsupported")
}

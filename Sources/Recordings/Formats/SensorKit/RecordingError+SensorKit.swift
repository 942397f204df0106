/// Warning codes of the SensorKit decoder (delivered as ``RecordingEvent/issue(_:)``, never thrown).
extension RecordingError.Code {
    /// A field the schema does not define (skipped and counted; a warning).
    public static let unknownField = RecordingError.Code(rawValue: "unknown-field")
    /// A line `type` the schema does not define (skipped and counted; a warning).
    public static let unknownLineType = RecordingError.Code(rawValue: "unknown-line-type")
    /// An exact duplicate of an earlier sample (dropped and counted; reported once per stream).
    public static let duplicate = RecordingError.Code(rawValue: "duplicate")
}

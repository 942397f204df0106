import Recordings
import Signals

/// The recording's own annotations (``RecordingAnnotation``: EDF+ TALs), stored as they are
/// decoded (one row each, streamed to the sink, never held for the whole recording). They are
/// the input's content, not SensorPipe results: the table sits beside the results so that both
/// can be read on one clock.
public enum AnnotationTables {
    /// One row per annotation, in file order.
    public static let annotations = TableSchema<RecordingAnnotation>(
        name: "annotations",
        summary:
            "annotations the input carries (EDF+/BDF+ TALs: sleep stages, event markers, comments), one row each, in file order; at most 2^20 per file (more are counted in an issue)",
        columns: [
            .init("device", .text, "device id of the file's streams (the EDF file name without extension)") { .text($0.deviceID) },
            .init("source", .text, "format the annotation was read from: edf (EDF+ and BDF+)") { .text($0.source) },
            .init(
                "onset", .real, unit: "s",
                "onset on the clock of the file's streams (time_origin), the same clock as beats.time: for EDF the header's start date and time plus the TAL onset"
            ) { .finite($0.onsetSeconds) },
            .init("duration_s", .real, unit: "s", "duration the annotation gives; empty when it gives none") {
                .finite($0.durationSeconds)
            },
            .init("text", .text, "the annotation text as written (UTF-8)") { .text($0.text) },
            .init(
                "time_origin", .text,
                "what onset counts from, as streams.time_origin: device_local for EDF (the header's local start, zone not given)"
            ) { .text($0.timeOrigin.rawValue) },
        ])
}

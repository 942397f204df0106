import Signals

/// A note a recording carries at a time of its own (an EDF+ TAL annotation: a sleep stage, an
/// event marker, a clinician's comment), delivered as ``RecordingEvent/annotation(_:)`` in file
/// order and stored by the pipeline in the results' `annotations` table. It is the recording's
/// content, not a SensorPipe result.
public struct RecordingAnnotation: Sendable, Hashable {
    /// Device the annotation belongs to (the device id of the file's streams).
    public var deviceID: String
    /// Onset, s, on the clock of the file's streams (``timeOrigin``): for EDF the header's start
    /// date and time plus the TAL onset, so an annotation lines up with `beats.time` of the same
    /// file.
    public var onsetSeconds: Double
    /// Duration, s, or `nil` when the source gives none.
    public var durationSeconds: Double?
    /// The text (UTF-8).
    public var text: String
    /// Format it was read from (`edf`: EDF+/BDF+ TALs).
    public var source: String
    /// What ``onsetSeconds`` counts from (EDF: ``TimeOrigin/deviceLocal``).
    public var timeOrigin: TimeOrigin

    /// Creates an annotation.
    /// - Parameters:
    ///   - deviceID: the device id of the file's streams.
    ///   - onsetSeconds: onset, s, on the streams' clock.
    ///   - durationSeconds: duration, s, or `nil`.
    ///   - text: the text.
    ///   - source: the format it was read from (`edf`).
    ///   - timeOrigin: what the onset counts from.
    public init(
        deviceID: String, onsetSeconds: Double, durationSeconds: Double?, text: String, source: String, timeOrigin: TimeOrigin
    ) {
        self.deviceID = deviceID
        self.onsetSeconds = onsetSeconds
        self.durationSeconds = durationSeconds
        self.text = text
        self.source = source
        self.timeOrigin = timeOrigin
    }
}

import Signals

/// The beats a device listed itself (``SensorKind/heartbeat`` streams: Apple Health's
/// `InstantaneousBeatsPerMinute` lists), published by the PPG family (``PPGFamily/publishes``) as
/// each is read: one event per listed beat at its time, before any artefact correction (the
/// corrected series is `device_nn`). Beats of a stream come in time order. A new segment starts
/// where the list has a gap (more than twice the recent median interval, ``StreamAssembler``'s
/// rule, or the next list); two beats of different segments are not neighbours, so a consumer
/// never forms an interval across a gap.
public enum DeviceBeatEvents {
    /// `device_beats`.
    public static let series = DerivedSeries(
        source: "device", name: "beats",
        summary: "beats the device listed itself (Apple Health beat lists), at their times, before artefact correction",
        isEventSeries: true,
        attributes: [
            .number(
                "segment", unit: "",
                "segment of the stream holding the beat (beats.segment): a new one after a gap in the device's list; no interval spans two")
        ])

    /// The series' id (``DerivedSeries/id``), `device_beats`.
    public static let id = series.id
}

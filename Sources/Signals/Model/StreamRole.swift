/// What a stream is within its sensor's recording, decided once where the stream is decoded, so
/// that analyses, summaries and routing never infer it from channel names or units.
///
/// Most streams are their sensor's own signal (``primary(for:)``): an ECG lead, an
/// accelerometer's or gyroscope's axes, a PPG optical channel. A SensorKit PPG sample also carries
/// the watch's accelerometer (``embeddedAccelerometer``) and the sensor's temperature
/// (``temperature``), which the decoder announces as streams of their own with these roles.
public enum StreamRole: String, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
    /// The sensor's own signal: an ECG lead, accelerometer or rotation-rate axes.
    case signal
    /// Optical PPG channel(s): reflected or transmitted light (normalised reflectance, camera
    /// brightness, a pulse oximeter's pleth).
    case optical
    /// An accelerometer recorded inside another sensor's samples (the `accelerometer` of a
    /// SensorKit PPG sample): motion on that sensor's clock, in g.
    case embeddedAccelerometer = "embedded_accelerometer"
    /// A temperature recorded beside the signals (the `temperature` of a SensorKit PPG sample):
    /// auxiliary — no physiological analysis reads it, and it is not counted as signal time.
    case temperature
    /// A record the device summarised (an Apple Health heart-rate, SpO₂, step-count or sleep
    /// sample): decoded and accounted for, analysed by no physiological family.
    case record

    /// The role of a stream that is its sensor's own signal: ``optical`` for
    /// ``SensorKind/photoplethysmogram``, ``signal`` otherwise.
    /// - Parameter sensor: the stream's sensor.
    /// - Returns: the role.
    public static func primary(for sensor: SensorKind) -> StreamRole {
        switch sensor {
        case .photoplethysmogram: return .optical
        case .healthRecord: return .record
        default: return .signal
        }
    }

    /// Whether the stream is auxiliary (``temperature``, ``record``): decoded and accounted for, analysed by
    /// no physiological family, left out of the seconds of signal (`streams.analysis` says
    /// `none: auxiliary channel` when nothing claims it).
    public var isAuxiliary: Bool { self == .temperature || self == .record }

    public var description: String { rawValue }
}

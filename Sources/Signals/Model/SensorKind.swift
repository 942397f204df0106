/// The sensors SensorPipe reads, named as SensorKit names them.
///
/// Units in the canonical schema (`docs/SCHEMA.md`): acceleration in g (gravity included),
/// rotation rate in rad/s, ECG in µV, PPG normalised reflectance (dimensionless).
public enum SensorKind: String, Sendable, Hashable, CaseIterable, Codable, CustomStringConvertible {
    /// CoreMotion `CMRecordedAccelerometerData`: x, y, z in g, about 50 Hz with jitter.
    case accelerometer
    /// CoreMotion `CMRecordedRotationRateData`: x, y, z in rad/s.
    case rotationRate
    /// `SRElectrocardiogramSample`: one lead in µV, about 512 Hz.
    case electrocardiogram
    /// `SRPhotoplethysmogramSample`: optical channels (normalised reflectance) and the embedded
    /// accelerometer (g).
    case photoplethysmogram

    public var description: String { rawValue }
}

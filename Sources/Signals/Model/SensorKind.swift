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
    /// Beats detected by the device itself, one sample per beat at its time: column `bpm`, the
    /// instantaneous heart rate the device reports for that beat (count/min; Apple Health
    /// `InstantaneousBeatsPerMinute`). Analysed as a beat series (`source` `device`).
    case heartbeat
    /// Apple Health samples (quantities, categories, workouts) other than beats: one stream per
    /// HealthKit type and source, one sample per record at its start time (column `value` in the
    /// type's converted unit, `duration_s`). Decoded and accounted for; no family analyses them
    /// (role ``StreamRole/record``).
    case healthRecord = "health_record"

    public var description: String { rawValue }
}

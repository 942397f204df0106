/// The physical unit of a column, stated explicitly so nothing downstream guesses.
public enum PhysicalUnit: String, Sendable, Hashable, Codable, CustomStringConvertible {
    /// Standard gravity, 1 g = 9.80665 m/s².
    case standardGravity = "g"
    /// Metres per second squared.
    case metresPerSecondSquared = "m/s^2"
    /// Radians per second.
    case radiansPerSecond = "rad/s"
    /// Microvolts.
    case microvolts = "uV"
    /// Millivolts.
    case millivolts = "mV"
    /// Dimensionless (e.g. PPG normalised reflectance).
    case dimensionless = "1"
    /// Raw analogue-to-digital units (no calibration known).
    case adcUnits = "adu"
    /// Degrees Celsius.
    case degreesCelsius = "degC"
    /// Events per minute (heart rate in bpm, breaths per minute).
    case perMinute = "count/min"
    /// Per cent (0–100).
    case percent = "%"
    /// Milliseconds.
    case milliseconds = "ms"
    /// Seconds.
    case seconds = "s"
    /// A count of events (steps).
    case count = "count"

    public var description: String { rawValue }

    /// Standard gravity in m/s² (CGPM 1901; ISO 80000-3).
    public static let standardGravityInMetresPerSecondSquared = 9.80665
}

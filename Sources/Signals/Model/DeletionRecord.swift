/// Why SensorKit deleted data (`SRDeletionReason`).
public enum DeletionReason: String, Sendable, Hashable, Codable, CaseIterable {
    case userInitiated, lowDiskSpace, ageLimit, noInterestedClients, systemInitiated

    /// Creates the reason from SensorKit's integer raw value (0…4).
    public init?(rawInteger: Int) {
        switch rawInteger {
        case 0: self = .userInitiated
        case 1: self = .lowDiskSpace
        case 2: self = .ageLimit
        case 3: self = .noInterestedClients
        case 4: self = .systemInitiated
        default: return nil
        }
    }
}

/// A span of data the system deleted (`SRDeletionRecord`): a **known gap**. Results over it are
/// reported as missing, never interpolated.
public struct DeletionRecord: Sendable, Hashable, Codable {
    /// Device whose data were deleted.
    public var deviceID: String
    /// Sensor whose data were deleted.
    public var sensor: SensorKind
    /// Start of the deleted span, Unix seconds.
    public var startUnix: Double
    /// End of the deleted span, Unix seconds.
    public var endUnix: Double
    /// Start as raw `SRAbsoluteTime` (kept for audit), if the source gave it.
    public var startRaw: Double?
    /// End as raw `SRAbsoluteTime`, if the source gave it.
    public var endRaw: Double?
    /// Why the data were deleted.
    public var reason: DeletionReason

    /// Duration of the span in seconds.
    public var durationSeconds: Double { endUnix - startUnix }

    /// Creates a deletion record.
    public init(
        deviceID: String, sensor: SensorKind, startUnix: Double, endUnix: Double,
        startRaw: Double? = nil, endRaw: Double? = nil, reason: DeletionReason
    ) {
        self.deviceID = deviceID
        self.sensor = sensor
        self.startUnix = startUnix
        self.endUnix = endUnix
        self.startRaw = startRaw
        self.endRaw = endRaw
        self.reason = reason
    }
}

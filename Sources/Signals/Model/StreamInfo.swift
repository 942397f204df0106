/// Identifies one stream: one sensor × device × channel (and, for ECG, one session).
public struct StreamKey: Sendable, Hashable, Codable, Comparable, CustomStringConvertible {
    /// Device identifier (`deviceId`).
    public var deviceID: String
    /// Sensor.
    public var sensor: SensorKind
    /// Channel within the sensor: `"acceleration"`, `"rotationRate"`, `"ecg"`, PPG optical
    /// channels as `"optical/e<emitter>/pd<i,j>/s<signalIdentifier>"`, the PPG device's
    /// accelerometer as `"accelerometer"`; for other sources the source's channel name.
    public var channel: String
    /// ECG session identifier (`session.identifier`), `nil` for other sensors.
    public var session: String?

    /// Creates a stream key.
    public init(deviceID: String, sensor: SensorKind, channel: String, session: String? = nil) {
        self.deviceID = deviceID
        self.sensor = sensor
        self.channel = channel
        self.session = session
    }

    public var description: String {
        "\(deviceID)/\(sensor)/\(channel)" + (session.map { "/session=\($0)" } ?? "")
    }

    public static func < (a: StreamKey, b: StreamKey) -> Bool { a.description < b.description }
}

/// One column of a stream's structure-of-arrays blocks.
public struct ColumnInfo: Sendable, Hashable, Codable {
    /// Column name, e.g. `"x"`, `"value"`, `"normalizedReflectance"`.
    public var name: String
    /// Physical unit of the values.
    public var unit: PhysicalUnit

    /// Creates a column description.
    public init(name: String, unit: PhysicalUnit) {
        self.name = name
        self.unit = unit
    }
}

/// What a stream's times count from.
public enum TimeOrigin: String, Sendable, Hashable, Codable, CaseIterable {
    /// Unix seconds (UTC): the source carries absolute time.
    case unix
    /// Seconds from the stream's first sample (or the record's nominal start): the source has no
    /// absolute time (a WFDB header without base date and time, a MATLAB matrix, a CSV with
    /// relative times). Never convert these with `pandas.to_datetime(unit="s")`.
    case streamStart = "stream_start"
    /// Seconds since 1970-01-01T00:00:00 on the device's local wall clock, whose offset from UTC
    /// the source does not give (an ActiGraph `.gt3x` without a `TimeZone` line, an ActiGraph raw
    /// CSV export). `pandas.to_datetime(unit="s")` gives the local wall-clock time as a naive
    /// timestamp; it is not UTC.
    case deviceLocal = "device_local"
}

/// Static description of a stream, announced by a decoder before its first block.
public struct StreamInfo: Sendable, Hashable, Codable {
    /// The stream's identity.
    public var key: StreamKey
    /// Columns of every block of this stream, in order.
    public var columns: [ColumnInfo]
    /// The rate the source declares, in Hz (`frequency`, `samplingFrequency`, a header's rate);
    /// `nil` when the source declares none (SensorKit accelerometer: derive it from timestamps).
    public var nominalSampleRate: Double?
    /// Attributes kept from the source, so nothing the source says is lost. Metadata that several
    /// formats carry uses the documented keys of ``StreamAttribute`` (`classification`,
    /// `utc_offset_s`, `device_model`, …); format-specific details use a prefix (`wfdb.*`,
    /// `gt3x.*`, `butppg.*`, `matlab.*`) or the source's own name (SensorKit `lead`, `emitter`).
    public var attributes: [String: String]
    /// What the stream's times count from (``TimeOrigin``); `.unix` unless the source has no
    /// absolute time.
    public var timeOrigin: TimeOrigin
    /// What the stream is within its sensor (``StreamRole``), set by the decoder: the sensor's
    /// own signal unless the decoder says otherwise (a PPG sample's embedded accelerometer or
    /// temperature).
    public var role: StreamRole

    /// Creates a stream description.
    /// - Parameters:
    ///   - key: the stream's identity.
    ///   - columns: its columns.
    ///   - nominalSampleRate: the declared rate in Hz, or `nil`.
    ///   - attributes: what the source says about it.
    ///   - timeOrigin: what its times count from (default `.unix`).
    ///   - role: what it is within its sensor (default ``StreamRole/primary(for:)`` of its sensor).
    public init(
        key: StreamKey, columns: [ColumnInfo], nominalSampleRate: Double? = nil,
        attributes: [String: String] = [:], timeOrigin: TimeOrigin = .unix, role: StreamRole? = nil
    ) {
        self.key = key
        self.columns = columns
        self.nominalSampleRate = nominalSampleRate
        self.attributes = attributes
        self.timeOrigin = timeOrigin
        self.role = role ?? .primary(for: key.sensor)
    }

    /// Decodes a description; one written before roles existed gets its sensor's primary role.
    /// - Parameter decoder: the decoder.
    /// - Throws: `DecodingError` for a malformed description.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        key = try c.decode(StreamKey.self, forKey: .key)
        columns = try c.decode([ColumnInfo].self, forKey: .columns)
        nominalSampleRate = try c.decodeIfPresent(Double.self, forKey: .nominalSampleRate)
        attributes = try c.decode([String: String].self, forKey: .attributes)
        timeOrigin = try c.decode(TimeOrigin.self, forKey: .timeOrigin)
        role = try c.decodeIfPresent(StreamRole.self, forKey: .role) ?? .primary(for: key.sensor)
    }
}

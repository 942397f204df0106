/// Says how to read a delimited text file of sensor samples: its syntax, where time comes from,
/// and which columns are which stream channels in which units.
///
/// One data row is one sample time; each ``Stream`` takes one value per row from its columns.
/// Nothing is guessed except the delimiter when ``Delimiter/automatic`` (see ``CSVDecoder``).
///
/// **Units.** Every value column states its unit. Acceleration is converted to g
/// (1 g = 9.80665 m/s², CGPM 1901) and rotation rate to rad/s, the units of SensorPipe's
/// canonical schema, so every motion stage sees one unit whatever the source; the stream's
/// attributes record the source unit (`"<column>.sourceUnit"`). Other units are kept as
/// declared.
///
/// ```swift
/// // Oxford Step Counter validation walk: no header; ns since boot, acceleration in m/s².
/// let mapping = CSVMapping(
///     deviceID: "samsung-s6",
///     time: .column(.index(0), unit: .nanoseconds, origin: .firstSampleAt(unixSeconds: 1506421989.895)),
///     streams: [.init(sensor: .accelerometer, channel: "acceleration", columns: [
///         .init(.index(1), name: "x", unit: .metresPerSecondSquared),
///         .init(.index(2), name: "y", unit: .metresPerSecondSquared),
///         .init(.index(3), name: "z", unit: .metresPerSecondSquared)])],
///     hasHeaderRow: false)
/// ```
public struct CSVMapping: Sendable, Hashable {
    /// The field separator.
    public enum Delimiter: Sendable, Hashable {
        /// Detect `,`, `;` or tab from the first lines (see ``CSVDecoder``).
        case automatic
        case comma, semicolon, tab

        var byte: UInt8? {
            switch self {
            case .automatic: return nil
            case .comma: return 0x2C
            case .semicolon: return 0x3B
            case .tab: return 0x09
            }
        }
    }

    /// The decimal separator of numbers. A comma is unambiguous only when the field delimiter is
    /// not a comma or the numbers are quoted (RFC 4180).
    public enum DecimalSeparator: Sendable, Hashable {
        case point, comma
    }

    /// A column of the file: by its header name (exact, surrounding spaces ignored) or by its
    /// 0-based position.
    public enum ColumnReference: Sendable, Hashable, CustomStringConvertible {
        case name(String)
        case index(Int)

        public var description: String {
            switch self {
            case .name(let n): return "'\(n)'"
            case .index(let i): return "#\(i)"
            }
        }
    }

    /// The unit of a time column.
    public enum TimeUnit: Sendable, Hashable {
        case seconds, milliseconds, microseconds, nanoseconds

        /// Ticks per second.
        var perSecond: Int64 {
            switch self {
            case .seconds: return 1
            case .milliseconds: return 1_000
            case .microseconds: return 1_000_000
            case .nanoseconds: return 1_000_000_000
            }
        }
    }

    /// How a time column's values map to time (and which ``StreamInfo/timeOrigin`` the streams
    /// get: ``Signals/TimeOrigin/unix`` for `offset` and `firstSampleAt`).
    public enum TimeOrigin: Sendable, Hashable {
        /// Unix seconds = value (converted to s) + `seconds`; `.offset(seconds: 0)` when the
        /// column already holds Unix time.
        case offset(seconds: Double)
        /// The first data row is at `unixSeconds`; later rows keep their distance to it (for
        /// clocks such as "nanoseconds since boot" whose start time is known from elsewhere).
        case firstSampleAt(unixSeconds: Double)
        /// The column counts from the start of the recording (e.g. `time_s` from 0) and no
        /// absolute time is known: values are delivered as written (converted to s) with
        /// ``Signals/TimeOrigin/streamStart``.
        case recordingStart
        /// The column's clock has an unknown epoch (e.g. nanoseconds since boot) and no absolute
        /// time is known: the first data row is at 0, later rows keep their distance to it,
        /// with ``Signals/TimeOrigin/streamStart``.
        case sinceFirstSample
        /// The column holds time since 1970-01-01 on the device's local wall clock, whose UTC
        /// offset is unknown: values are delivered as written (converted to s) with
        /// ``Signals/TimeOrigin/deviceLocal``.
        case deviceLocalClock

        /// The column holds Unix time.
        public static let unixEpoch = TimeOrigin.offset(seconds: 0)
    }

    /// Where sample times come from.
    public enum Time: Sendable, Hashable {
        /// A time column: streams get explicit per-sample times (irregular sampling is kept as
        /// read, never regularised).
        case column(ColumnReference, unit: TimeUnit, origin: TimeOrigin)
        /// No time column: row `k` (blank lines excluded) is at `startUnix + k / sampleRate`;
        /// streams get a uniform time base. With `startUnix` `nil` the start is unknown: row `k`
        /// is at `k / sampleRate` and the streams count from their start
        /// (``Signals/TimeOrigin/streamStart``).
        case sampleRate(Double, startUnix: Double?)
    }

    /// The unit of a value column as written in the file.
    public enum ValueUnit: Sendable, Hashable {
        case standardGravity, metresPerSecondSquared
        case radiansPerSecond, degreesPerSecond
        case microvolts, millivolts, dimensionless, adcUnits, degreesCelsius
        /// Integer counts of `1 / perG` g (e.g. ActiGraph raw data at 256 counts per g).
        case gravityCounts(perG: Double)

        /// The unit delivered and the factor applied to reach it.
        var delivered: (unit: PhysicalUnit, factor: Double, source: String?) {
            switch self {
            case .standardGravity: return (.standardGravity, 1, nil)
            case .metresPerSecondSquared:
                return (.standardGravity, 1 / PhysicalUnit.standardGravityInMetresPerSecondSquared, "m/s^2")
            case .radiansPerSecond: return (.radiansPerSecond, 1, nil)
            case .degreesPerSecond: return (.radiansPerSecond, Double.pi / 180, "deg/s")
            case .microvolts: return (.microvolts, 1, nil)
            case .millivolts: return (.millivolts, 1, nil)
            case .dimensionless: return (.dimensionless, 1, nil)
            case .adcUnits: return (.adcUnits, 1, nil)
            case .degreesCelsius: return (.degreesCelsius, 1, nil)
            case .gravityCounts(let perG): return (.standardGravity, 1 / perG, "1/\(perG) g")
            }
        }
    }

    /// One value column of a stream.
    public struct ValueColumn: Sendable, Hashable {
        /// The file column.
        public var source: ColumnReference
        /// Column name in the stream, e.g. `"x"`.
        public var name: String
        /// Unit of the values in the file.
        public var unit: ValueUnit

        /// Creates a value column.
        /// - Parameters:
        ///   - source: the file column.
        ///   - name: the column's name in the stream.
        ///   - unit: the unit as written in the file.
        /// - Complexity: O(1).
        public init(_ source: ColumnReference, name: String, unit: ValueUnit) {
            if case .index(let i) = source { precondition(i >= 0, "column indices are 0-based and non-negative") }
            precondition(!name.isEmpty, "column name must not be empty")
            self.source = source
            self.name = name
            self.unit = unit
        }
    }

    /// One stream read from the file.
    public struct Stream: Sendable, Hashable {
        /// The sensor.
        public var sensor: SensorKind
        /// Channel name (``StreamKey/channel``), e.g. `"acceleration"`.
        public var channel: String
        /// The stream's value columns.
        public var columns: [ValueColumn]
        /// Extra attributes kept on the stream.
        public var attributes: [String: String]

        /// Creates a stream.
        /// - Parameters:
        ///   - sensor: the sensor.
        ///   - channel: channel name.
        ///   - columns: at least one value column.
        ///   - attributes: extra attributes (default none).
        /// - Complexity: O(1).
        public init(sensor: SensorKind, channel: String, columns: [ValueColumn], attributes: [String: String] = [:]) {
            precondition(!columns.isEmpty, "a stream needs at least one column")
            self.sensor = sensor
            self.channel = channel
            self.columns = columns
            self.attributes = attributes
        }
    }

    /// Device identifier of every stream.
    public var deviceID: String
    /// Where times come from.
    public var time: Time
    /// The streams, announced in this order.
    public var streams: [Stream]
    /// Whether the first (non-skipped) line names the columns.
    public var hasHeaderRow: Bool
    /// The field separator.
    public var delimiter: Delimiter
    /// The decimal separator of numbers.
    public var decimalSeparator: DecimalSeparator
    /// Lines to skip before the header (or the first data row): a free-form preamble.
    public var skipLines: Int

    /// Creates a mapping.
    /// - Parameters:
    ///   - deviceID: device identifier of the streams.
    ///   - time: a time column, or a declared sample rate (Hz, > 0) and start time.
    ///   - streams: at least one stream, distinct (sensor, channel) pairs.
    ///   - hasHeaderRow: whether a header row names the columns (default `true`); without it,
    ///     columns must be referenced by index.
    ///   - delimiter: field separator (default ``Delimiter/automatic``).
    ///   - decimalSeparator: decimal separator (default ``DecimalSeparator/point``).
    ///   - skipLines: preamble lines to skip (default 0).
    /// - Complexity: O(columns) for the checks.
    public init(
        deviceID: String, time: Time, streams: [Stream], hasHeaderRow: Bool = true,
        delimiter: Delimiter = .automatic, decimalSeparator: DecimalSeparator = .point, skipLines: Int = 0
    ) {
        precondition(!streams.isEmpty, "a mapping needs at least one stream")
        precondition(
            Set(streams.map { "\($0.sensor)/\($0.channel)" }).count == streams.count,
            "streams must have distinct sensor/channel pairs")
        precondition(skipLines >= 0, "skipLines must be non-negative")
        switch time {
        case .sampleRate(let rate, let start):
            precondition(rate > 0 && rate.isFinite && (start?.isFinite ?? true), "sample rate must be finite and positive")
        case .column(let ref, _, let origin):
            if case .index(let i) = ref { precondition(i >= 0, "column indices are 0-based and non-negative") }
            switch origin {
            case .offset(let s), .firstSampleAt(let s): precondition(s.isFinite, "time origin must be finite")
            case .recordingStart, .deviceLocalClock, .sinceFirstSample: break
            }
        }
        if !hasHeaderRow {
            var refs = streams.flatMap { $0.columns.map(\.source) }
            if case .column(let ref, _, _) = time { refs.append(ref) }
            precondition(
                refs.allSatisfy { if case .index = $0 { return true } else { return false } },
                "without a header row, columns must be referenced by index")
        }
        self.deviceID = deviceID
        self.time = time
        self.streams = streams
        self.hasHeaderRow = hasHeaderRow
        self.delimiter = delimiter
        self.decimalSeparator = decimalSeparator
        self.skipLines = skipLines
    }
}

/// The stream-level time origin (`Signals.TimeOrigin`; inside ``CSVMapping`` the name is taken
/// by the column mapping's own ``CSVMapping/TimeOrigin``).
typealias StreamTimeOrigin = TimeOrigin

extension CSVMapping {
    /// What the delivered times count from, per ``time``.
    var streamTimeOrigin: StreamTimeOrigin {
        switch time {
        case .sampleRate(_, let start): return start == nil ? .streamStart : .unix
        case .column(_, _, .recordingStart), .column(_, _, .sinceFirstSample): return .streamStart
        case .column(_, _, .deviceLocalClock): return .deviceLocal
        case .column(_, _, .offset), .column(_, _, .firstSampleAt): return .unix
        }
    }
}

extension CSVMapping.TimeOrigin {
    /// The same clock arithmetic in terms of `offset` / `firstSampleAt` (what the row decoder
    /// computes with; the stream's ``StreamInfo/timeOrigin`` comes from the mapping).
    var arithmetic: CSVMapping.TimeOrigin {
        switch self {
        case .offset, .firstSampleAt: return self
        case .recordingStart, .deviceLocalClock: return .offset(seconds: 0)
        case .sinceFirstSample: return .firstSampleAt(unixSeconds: 0)
        }
    }
}

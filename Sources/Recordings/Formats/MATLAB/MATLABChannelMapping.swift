/// Says which parts of which MAT-file variables are which sensor channels.
///
/// A MAT-file holds named numeric arrays and nothing about sensors, units or sampling, so the
/// caller states them: every stream lists its columns, and every column names its source — one
/// row or one column of a 2-D numeric variable — with its unit; the stream gives the sample
/// rate and the time of its first sample. Indices are **0-based** (MATLAB's row 1 is
/// `.row(variable: "sig", index: 0)`).
///
/// ```swift
/// // IEEE SP Cup 2015 test file: `sig` is 5 × N, rows 1–2 PPG, rows 3–5 accelerometer, 125 Hz.
/// let mapping = MATLABChannelMapping.spc2015(includesECG: false)
/// let decoder = try MATLABDecoder(path: "TEST_S01_T01.mat", mapping: mapping)
/// ```
public struct MATLABChannelMapping: Sendable, Hashable {
    /// Where a column's samples come from.
    public enum Source: Sendable, Hashable, CustomStringConvertible {
        /// Row `index` (0-based) of `variable`, whose rows are channels and whose columns are
        /// consecutive samples (e.g. SPC 2015 `sig`, 6 × N).
        case row(variable: String, index: Int)
        /// Column `index` (0-based) of `variable`, whose columns are channels and whose rows are
        /// consecutive samples (e.g. CPSC 2019 `ecg`, 5000 × 1).
        case column(variable: String, index: Int)

        /// The variable's name.
        public var variable: String {
            switch self {
            case .row(let v, _), .column(let v, _): return v
            }
        }

        /// MATLAB notation with 1-based indices, e.g. `sig(2,:)`.
        public var description: String {
            switch self {
            case .row(let v, let i): return "\(v)(\(i + 1),:)"
            case .column(let v, let i): return "\(v)(:,\(i + 1))"
            }
        }
    }

    /// One column of a stream.
    public struct Column: Sendable, Hashable {
        /// Where the samples come from.
        public var source: Source
        /// Column name in the stream, e.g. `"x"`, `"ppg1"`, `"value"`.
        public var name: String
        /// Unit of the stored values (no conversion is applied).
        public var unit: PhysicalUnit

        /// Creates a column.
        /// - Parameters:
        ///   - source: the row or column of a variable.
        ///   - name: the column's name in the stream.
        ///   - unit: the unit of the values as stored.
        /// - Complexity: O(1).
        public init(_ source: Source, name: String, unit: PhysicalUnit) {
            precondition(!name.isEmpty, "column name must not be empty")
            switch source {
            case .row(_, let i), .column(_, let i): precondition(i >= 0, "indices are 0-based and non-negative")
            }
            self.source = source
            self.name = name
            self.unit = unit
        }
    }

    /// One stream: a sensor channel sampled at a known rate.
    public struct Stream: Sendable, Hashable {
        /// The sensor.
        public var sensor: SensorKind
        /// Channel name (``StreamKey/channel``), e.g. `"ecg"`, `"ppg"`, `"acceleration"`.
        public var channel: String
        /// The stream's columns; all must have the same number of samples.
        public var columns: [Column]
        /// Sample rate in Hz.
        public var sampleRate: Double
        /// Time of the first sample, Unix seconds; `nil` (the default) when the file carries no
        /// clock time: the stream then starts at 0 and counts from its start
        /// (``TimeOrigin/streamStart``).
        public var startUnix: Double?
        /// Extra attributes kept on the stream.
        public var attributes: [String: String]

        /// Creates a stream.
        /// - Parameters:
        ///   - sensor: the sensor.
        ///   - channel: channel name.
        ///   - columns: at least one column.
        ///   - sampleRate: Hz, finite and > 0.
        ///   - startUnix: time of the first sample, Unix seconds (default `nil`: unknown, times
        ///     count from the stream start).
        ///   - attributes: extra attributes (default none).
        /// - Complexity: O(1).
        public init(
            sensor: SensorKind, channel: String, columns: [Column], sampleRate: Double,
            startUnix: Double? = nil, attributes: [String: String] = [:]
        ) {
            precondition(!columns.isEmpty, "a stream needs at least one column")
            precondition(sampleRate > 0 && sampleRate.isFinite, "sample rate must be finite and positive")
            precondition(startUnix?.isFinite ?? true, "start time must be finite")
            self.sensor = sensor
            self.channel = channel
            self.columns = columns
            self.sampleRate = sampleRate
            self.startUnix = startUnix
            self.attributes = attributes
        }
    }

    /// Device identifier given to every stream.
    public var deviceID: String
    /// The streams, announced in this order.
    public var streams: [Stream]

    /// Creates a mapping.
    /// - Parameters:
    ///   - deviceID: device identifier of the streams.
    ///   - streams: at least one stream, with distinct (sensor, channel) pairs.
    /// - Complexity: O(streams) for the checks.
    public init(deviceID: String, streams: [Stream]) {
        precondition(!streams.isEmpty, "a mapping needs at least one stream")
        precondition(
            Set(streams.map { "\($0.sensor)/\($0.channel)" }).count == streams.count,
            "streams must have distinct sensor/channel pairs")
        self.deviceID = deviceID
        self.streams = streams
    }

    /// The IEEE Signal Processing Cup 2015 layout (Zhang, Pi & Liu 2015, "TROIKA", IEEE TBME
    /// 62(2):522–531, DOI 10.1109/TBME.2014.2359372): variable `sig` at 125 Hz with, in rows,
    /// [ECG,] two wrist PPG channels (green, raw device units) and a 3-axis wrist accelerometer
    /// (g). Training files and the extra S04_T01 session have the ECG row (6 × N); test files
    /// do not (5 × N).
    /// - Parameters:
    ///   - includesECG: whether row 1 is a chest ECG (training files).
    ///   - deviceID: device identifier (default `"spc2015"`).
    /// - Returns: streams `ecg` (if present; raw units), `ppg` (columns `ppg1`, `ppg2`) and
    ///   `acceleration` (`x`, `y`, `z`).
    /// - Complexity: O(1).
    public static func spc2015(includesECG: Bool, deviceID: String = "spc2015") -> MATLABChannelMapping {
        let o = includesECG ? 1 : 0
        var streams = [Stream]()
        if includesECG {
            streams.append(
                Stream(
                    sensor: .electrocardiogram, channel: "ecg",
                    columns: [Column(.row(variable: "sig", index: 0), name: "value", unit: .adcUnits)],
                    sampleRate: 125))
        }
        streams.append(
            Stream(
                sensor: .photoplethysmogram, channel: "ppg",
                columns: [
                    Column(.row(variable: "sig", index: o), name: "ppg1", unit: .adcUnits),
                    Column(.row(variable: "sig", index: o + 1), name: "ppg2", unit: .adcUnits),
                ],
                sampleRate: 125, attributes: ["wavelengthNanometres": "515"]))
        streams.append(
            Stream(
                sensor: .accelerometer, channel: "acceleration",
                columns: ["x", "y", "z"].enumerated().map { k, name in
                    Column(.row(variable: "sig", index: o + 2 + k), name: name, unit: .standardGravity)
                },
                sampleRate: 125))
        return MATLABChannelMapping(deviceID: deviceID, streams: streams)
    }

    /// The CPSC 2019 QRS-detection layout (Gao et al. 2019, J. Med. Imaging Health Inform.
    /// 9(9):1853–1858): variable `ecg`, 5000 × 1, one lead at 500 Hz in millivolts.
    /// - Parameter deviceID: device identifier (default `"cpsc2019"`).
    /// - Returns: one stream `ecg` with column `value` (mV).
    /// - Complexity: O(1).
    public static func cpsc2019(deviceID: String = "cpsc2019") -> MATLABChannelMapping {
        MATLABChannelMapping(
            deviceID: deviceID,
            streams: [
                Stream(
                    sensor: .electrocardiogram, channel: "ecg",
                    columns: [Column(.column(variable: "ecg", index: 0), name: "value", unit: .millivolts)],
                    sampleRate: 500)
            ])
    }
}

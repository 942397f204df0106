/// A ``CSVMapping`` written on the command line (`sensorpipe run --csv-time … --csv-column …`):
/// the time and the value columns as short texts, collected option by option and turned into a
/// mapping when the file is opened.
///
/// **Time** (`--csv-time`):
/// - `COLUMN[,UNIT[,ORIGIN]]`: a time column by header name or `#N` (0-based position); `UNIT`
///   `s` (default), `ms`, `us`, `ns`; `ORIGIN` `unix` (default: the column holds Unix time),
///   `start` (time since the recording started, no absolute time), `first` (an unknown epoch such
///   as time since boot: counts from the first row), `local` (Unix-like time on the device's
///   local wall clock), `offset=SECONDS` (Unix = value + SECONDS), `first=UNIX` (the first row is
///   at Unix time UNIX) — ``CSVMapping/TimeOrigin``.
/// - `rate=HZ[,start=UNIX]`: no time column; row `k` is at `start + k / HZ`.
///
/// **Columns** (`--csv-column`, repeatable): `SENSOR.NAME=COLUMN[,UNIT]`: `SENSOR` one of
/// `accelerometer` (`acc`), `rotationRate` (`gyro`), `electrocardiogram` (`ecg`),
/// `photoplethysmogram` (`ppg`); `NAME` the column's name in the stream (`x`, `y`, `z` for motion
/// axes; the lead or channel name for ECG/PPG); `COLUMN` a header name or `#N`; `UNIT` one of
/// ``unitNames`` (default: `g` for motion, `uV` for ECG, `1` for PPG). Accelerometer columns
/// form one stream (channel `acceleration`), rotation-rate columns one (channel `rotationRate`);
/// each ECG or PPG column is a stream of its own (channel `NAME`).
public struct CSVColumnOptions: Sendable, Hashable {
    /// One `--csv-column`.
    public struct Column: Sendable, Hashable {
        public var sensor: SensorKind
        public var name: String
        public var source: CSVMapping.ColumnReference
        public var unit: CSVMapping.ValueUnit
    }

    /// The time, once given.
    public var time: CSVMapping.Time?
    /// The value columns, in the order given.
    public var columns: [Column] = []
    /// The device identifier (default: the file name without extension).
    public var deviceID: String?
    /// Whether the file has a header row (default `true`).
    public var hasHeaderRow = true

    /// Creates empty options.
    public init() {}

    /// Unit spellings accepted after a column (`g`, `mg` = 1/1000 g, `m/s^2`, `rad/s`, `deg/s`,
    /// `uV`, `mV`, `1`, `adu`, `degC`, `counts/N` = 1/N g).
    public static let unitNames = ["g", "mg", "m/s^2", "rad/s", "deg/s", "uV", "mV", "1", "adu", "degC", "counts/N"]

    /// Parses a unit spelling of ``unitNames``.
    public static func unit(_ text: String) -> CSVMapping.ValueUnit? {
        switch text {
        case "g": return .standardGravity
        case "mg": return .gravityCounts(perG: 1000)
        case "m/s^2", "m/s2": return .metresPerSecondSquared
        case "rad/s": return .radiansPerSecond
        case "deg/s": return .degreesPerSecond
        case "uV", "µV": return .microvolts
        case "mV": return .millivolts
        case "1": return .dimensionless
        case "adu": return .adcUnits
        case "degC": return .degreesCelsius
        default:
            if text.hasPrefix("counts/"), let n = Double(text.dropFirst(7)), n > 0, n.isFinite { return .gravityCounts(perG: n) }
            return nil
        }
    }

    static func reference(_ text: String) -> CSVMapping.ColumnReference? {
        let t = text.trimmingCharacters()
        if t.isEmpty { return nil }
        if t.hasPrefix("#"), let i = Int(t.dropFirst()), i >= 0 { return .index(i) }
        return .name(t)
    }

    /// Parses a `--csv-time` value.
    /// - Returns: the time, or the reason it cannot be read.
    public static func parseTime(_ text: String) -> Result<CSVMapping.Time, CSVOptionError> {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { String($0).trimmingCharacters() }
        if let first = parts.first, first.hasPrefix("rate=") {
            guard let rate = Double(first.dropFirst(5)), rate > 0, rate.isFinite, parts.count <= 2 else {
                return .failure(CSVOptionError(.time, "'\(text)': expected rate=HZ[,start=UNIX] with HZ > 0"))
            }
            var start: Double?
            if parts.count == 2 {
                guard parts[1].hasPrefix("start="), let s = Double(parts[1].dropFirst(6)), s.isFinite else {
                    return .failure(CSVOptionError(.time, "'\(text)': expected start=UNIX after the rate"))
                }
                start = s
            }
            return .success(.sampleRate(rate, startUnix: start))
        }
        guard (1...3).contains(parts.count), let ref = reference(parts[0]) else {
            return .failure(CSVOptionError(.time, "'\(text)': expected COLUMN[,UNIT[,ORIGIN]] or rate=HZ[,start=UNIX]"))
        }
        var unit = CSVMapping.TimeUnit.seconds
        if parts.count >= 2 {
            switch parts[1] {
            case "s": unit = .seconds
            case "ms": unit = .milliseconds
            case "us", "µs": unit = .microseconds
            case "ns": unit = .nanoseconds
            default: return .failure(CSVOptionError(.time, "'\(text)': time unit '\(parts[1])' is not s, ms, us or ns"))
            }
        }
        var origin = CSVMapping.TimeOrigin.unixEpoch
        if parts.count == 3 {
            let o = parts[2]
            switch o {
            case "unix": origin = .unixEpoch
            case "start": origin = .recordingStart
            case "first": origin = .sinceFirstSample
            case "local": origin = .deviceLocalClock
            default:
                if o.hasPrefix("offset="), let s = Double(o.dropFirst(7)), s.isFinite {
                    origin = .offset(seconds: s)
                } else if o.hasPrefix("first="), let s = Double(o.dropFirst(6)), s.isFinite {
                    origin = .firstSampleAt(unixSeconds: s)
                } else {
                    return .failure(
                        CSVOptionError(.time, "'\(text)': origin '\(o)' is not unix, start, first, local, offset=SECONDS or first=UNIX"))
                }
            }
        }
        return .success(.column(ref, unit: unit, origin: origin))
    }

    /// Parses a `--csv-column` value.
    /// - Returns: the column, or the reason it cannot be read.
    public static func parseColumn(_ text: String) -> Result<Column, CSVOptionError> {
        guard let eq = text.firstIndex(of: "="), let dot = text[..<eq].firstIndex(of: ".") else {
            return .failure(CSVOptionError(.column, "'\(text)': expected SENSOR.NAME=COLUMN[,UNIT] (e.g. acc.x=accX,g)"))
        }
        let sensorText = String(text[..<dot]).trimmingCharacters()
        let name = String(text[text.index(after: dot)..<eq]).trimmingCharacters()
        var rest = String(text[text.index(after: eq)...])
        let sensor: SensorKind
        switch sensorText.lowercased() {
        case "accelerometer", "acc": sensor = .accelerometer
        case "rotationrate", "gyro": sensor = .rotationRate
        case "electrocardiogram", "ecg": sensor = .electrocardiogram
        case "photoplethysmogram", "ppg": sensor = .photoplethysmogram
        default:
            return .failure(
                CSVOptionError(.column, "'\(text)': sensor '\(sensorText)' is not accelerometer (acc), rotationRate (gyro), ecg or ppg"))
        }
        guard !name.isEmpty else { return .failure(CSVOptionError(.column, "'\(text)': the column needs a NAME after '\(sensorText).'")) }
        var unit: CSVMapping.ValueUnit
        switch sensor {
        case .accelerometer: unit = .standardGravity
        case .rotationRate: unit = .radiansPerSecond
        case .electrocardiogram: unit = .microvolts
        default: unit = .dimensionless
        }
        if let comma = rest.lastIndex(of: ","), let u = Self.unit(String(rest[rest.index(after: comma)...]).trimmingCharacters()) {
            unit = u
            rest = String(rest[..<comma])
        } else if let comma = rest.lastIndex(of: ",") {
            let u = String(rest[rest.index(after: comma)...]).trimmingCharacters()
            return .failure(CSVOptionError(.column, "'\(text)': unit '\(u)' is not one of \(unitNames.joined(separator: ", "))"))
        }
        guard let ref = reference(rest) else { return .failure(CSVOptionError(.column, "'\(text)': no COLUMN after '='")) }
        return .success(Column(sensor: sensor, name: name, source: ref, unit: unit))
    }

    /// The mapping these options describe.
    /// - Parameter path: the file (its name is the default device identifier).
    /// - Throws: ``RecordingError`` `.missingField` when the time or the columns are missing,
    ///   `.inconsistent` for a column given twice or a column by name without a header row.
    public func mapping(path: String) throws(RecordingError) -> CSVMapping {
        guard let time else {
            throw RecordingError(
                .missingField, file: path,
                "--csv-column given without --csv-time (a time column: --csv-time COLUMN[,UNIT[,ORIGIN]], or rate=HZ)")
        }
        guard !columns.isEmpty else {
            throw RecordingError(.missingField, file: path, "--csv-time given without --csv-column (e.g. --csv-column acc.x=X,g)")
        }
        var streams: [CSVMapping.Stream] = []
        var seen = Set<String>()
        for c in columns {
            guard seen.insert("\(c.sensor).\(c.name)").inserted else {
                throw RecordingError(.inconsistent, file: path, "--csv-column \(c.sensor).\(c.name) given twice")
            }
            let column = CSVMapping.ValueColumn(c.source, name: c.name, unit: c.unit)
            switch c.sensor {
            case .accelerometer, .rotationRate:
                let channel = c.sensor == .accelerometer ? "acceleration" : "rotationRate"
                if let k = streams.firstIndex(where: { $0.sensor == c.sensor }) {
                    streams[k].columns.append(column)
                } else {
                    streams.append(CSVMapping.Stream(sensor: c.sensor, channel: channel, columns: [column]))
                }
            default:
                streams.append(CSVMapping.Stream(sensor: c.sensor, channel: c.name, columns: [column]))
            }
        }
        if !hasHeaderRow {
            var refs = columns.map(\.source)
            if case .column(let r, _, _) = time { refs.append(r) }
            if let named = refs.first(where: { if case .name = $0 { return true } else { return false } }) {
                throw RecordingError(
                    .inconsistent, file: path, "column \(named) is named, but --csv-no-header says the file has no header row: use #N")
            }
        }
        let name = path.split(separator: "/").last.map(String.init) ?? path
        let stem = name.split(separator: ".").first.map(String.init) ?? name
        return CSVMapping(deviceID: deviceID ?? stem, time: time, streams: streams, hasHeaderRow: hasHeaderRow)
    }
}

/// Why a `--csv-time` or `--csv-column` value cannot be read.
public struct CSVOptionError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Which option is wrong; new codes may be added.
    public struct Code: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        public var rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }
        /// A `--csv-time` value.
        public static let time = Code(rawValue: "csv-time")
        /// A `--csv-column` value.
        public static let column = Code(rawValue: "csv-column")
    }

    /// Which option is wrong.
    public var code: Code
    /// The value and what was expected.
    public var description: String
    init(_ code: Code, _ description: String) {
        self.code = code
        self.description = description
    }
}

/// Column/channel mappings for known layouts of files that carry no self-description
/// (generic CSV and MATLAB files), so they can be decoded without writing a mapping by hand.
///
/// ``RecordingOpener`` recognises these layouts from content when no mapping is given
/// (``detect(path:format:)``) and says which preset it used; pass a preset or an explicit
/// mapping to override.
public enum RecordingPreset: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// Oxford step-counter validation walks (Salvi et al. 2018): no header, 7 columns,
    /// nanoseconds since boot, x/y/z in m/s² (converted to g); the file name's 13-digit
    /// Unix-millisecond stamp is the start time (without one, times count from the first row,
    /// ``TimeOrigin/streamStart``).
    case oxfordSteps = "oxford-steps"
    /// ActiGraph raw samples exported as `unix_time_s,x,y,z` in 1/256 g; despite the name the
    /// seconds are on the device's local clock (``TimeOrigin/deviceLocal``), as in the `.gt3x`.
    case actigraphRawCSV = "actigraph-raw-csv"
    /// IEEE Signal Processing Cup 2015 wrist PPG (variable `sig`, 125 Hz): 2 PPG + 3 acc rows.
    case spc2015 = "spc2015"
    /// SPC 2015 training layout with the ECG row first (6 rows).
    case spc2015WithECG = "spc2015-ecg"
    /// CPSC 2019 QRS-detection records (variable `ecg`, 500 Hz, mV).
    case cpsc2019 = "cpsc2019"
    /// BIDMC PPG and Respiration Dataset signals CSV (Pimentel et al. 2017, PhysioNet `bidmc`):
    /// header `Time [s], RESP, PLETH, II, …` in any column order, 125 Hz: lead `II` as the ECG
    /// stream and `PLETH` as the PPG stream, both in the export's arbitrary units, selected by
    /// name; times count from the first row (``TimeOrigin/streamStart``).
    case bidmc = "bidmc"
    /// Empatica E4 `ACC.csv` (the `info.txt` of every E4 session download: "The first row is the
    /// initial time of the session expressed as unix timestamp in UTC. The second row is the
    /// sample rate expressed in Hz." … "ACC.csv: Data from 3-axis accelerometer sensor … the
    /// unit in this file is 1/64g", 32 Hz): three columns x, y, z, no header; start and rate
    /// read from the first two rows (32 Hz when they cannot be read).
    case empaticaE4ACC = "empatica-e4-acc"
    /// Empatica E4 `BVP.csv` (same `info.txt`: "BVP.csv: Data from photoplethysmograph", 64 Hz):
    /// one column, dimensionless; start and rate from the first two rows (64 Hz otherwise).
    case empaticaE4BVP = "empatica-e4-bvp"

    public var description: String { rawValue }

    /// The CSV mapping of this preset for `path`, or `nil` for MATLAB presets.
    public func csvMapping(path: String) -> CSVMapping? {
        switch self {
        case .oxfordSteps:
            let name = path.split(separator: "/").last.map(String.init) ?? path
            let stamps = name.split(whereSeparator: { !$0.isNumber }).filter { $0.count == 13 }
            let startUnix = stamps.last.flatMap { Double(String($0)) }.map { $0 / 1000 }
            let device = name.split(separator: "_").prefix(2).joined(separator: "-")
            // Without the file name's stamp the start is unknown: times count from the first row.
            return CSVMapping(
                deviceID: device.isEmpty ? "phone" : device,
                time: .column(
                    .index(0), unit: .nanoseconds,
                    origin: startUnix.map { .firstSampleAt(unixSeconds: $0) } ?? .sinceFirstSample),
                streams: [
                    .init(
                        sensor: .accelerometer, channel: "acceleration",
                        columns: [
                            .init(.index(1), name: "x", unit: .metresPerSecondSquared),
                            .init(.index(2), name: "y", unit: .metresPerSecondSquared),
                            .init(.index(3), name: "z", unit: .metresPerSecondSquared),
                        ])
                ],
                hasHeaderRow: false)
        case .actigraphRawCSV:
            return CSVMapping(
                deviceID: "actigraph",
                time: .column(.name("unix_time_s"), unit: .seconds, origin: .deviceLocalClock),
                streams: [
                    .init(
                        sensor: .accelerometer, channel: "acceleration",
                        columns: [
                            .init(.name("x"), name: "x", unit: .gravityCounts(perG: 256)),
                            .init(.name("y"), name: "y", unit: .gravityCounts(perG: 256)),
                            .init(.name("z"), name: "z", unit: .gravityCounts(perG: 256)),
                        ],
                        attributes: ["timeZone": "device local time (not UTC)"])
                ])
        case .bidmc:
            return CSVMapping(
                deviceID: "bidmc-monitor", time: .sampleRate(125, startUnix: nil),
                streams: [
                    .init(sensor: .electrocardiogram, channel: "II", columns: [.init(.name("II"), name: "II", unit: .dimensionless)]),
                    .init(
                        sensor: .photoplethysmogram, channel: "PLETH", columns: [.init(.name("PLETH"), name: "PLETH", unit: .dimensionless)]
                    ),
                ])
        case .empaticaE4ACC, .empaticaE4BVP:
            let e4 = Self.empaticaHead(path: path)
            let acc = self == .empaticaE4ACC
            let rate = e4?.rate ?? (acc ? 32 : 64)
            let stream: CSVMapping.Stream =
                acc
                ? .init(
                    sensor: .accelerometer, channel: "acceleration",
                    columns: [
                        .init(.index(0), name: "x", unit: .gravityCounts(perG: 64)),
                        .init(.index(1), name: "y", unit: .gravityCounts(perG: 64)),
                        .init(.index(2), name: "z", unit: .gravityCounts(perG: 64)),
                    ])
                : .init(sensor: .photoplethysmogram, channel: "BVP", columns: [.init(.index(0), name: "BVP", unit: .dimensionless)])
            return CSVMapping(
                deviceID: "empatica-e4", time: .sampleRate(rate, startUnix: e4?.start), streams: [stream], hasHeaderRow: false,
                delimiter: .comma, skipLines: 2)
        case .spc2015, .spc2015WithECG, .cpsc2019:
            return nil
        }
    }

    /// The start (Unix s) and rate (Hz) of an Empatica E4 CSV's first two rows, with the number
    /// of columns, when the rows have that shape (every column of a row the same value).
    static func empaticaHead(path: String) -> (start: Double, rate: Double, columns: Int)? {
        guard let head = try? ByteSource.peek(path: path, count: 512) else { return nil }
        let lines = String(decoding: head, as: UTF8.self).split(whereSeparator: { $0 == "\n" || $0 == "\r" }).prefix(2)
        guard lines.count == 2 else { return nil }
        let rows = lines.map { $0.split(separator: ",").map { Double($0.trimmingCharacters()) } }
        guard rows[0].count == rows[1].count, let s = rows[0].first ?? nil, let r = rows[1].first ?? nil,
            rows[0].allSatisfy({ $0 == s }), rows[1].allSatisfy({ $0 == r }),
            s > 1e9, s < 1e10, r > 0, r <= 1000
        else { return nil }
        return (s, r, rows[0].count)
    }

    /// The MATLAB mapping of this preset, or `nil` for CSV presets.
    public var matlabMapping: MATLABChannelMapping? {
        switch self {
        case .spc2015: return .spc2015(includesECG: false)
        case .spc2015WithECG: return .spc2015(includesECG: true)
        case .cpsc2019: return .cpsc2019()
        case .oxfordSteps, .actigraphRawCSV, .bidmc, .empaticaE4ACC, .empaticaE4BVP: return nil
        }
    }

    /// Recognises a known layout from the file's content.
    /// - Parameters:
    ///   - path: the file.
    ///   - format: its sniffed format (only `.csv` and `.matlab` have presets).
    /// - Returns: the preset, or `nil` when the layout is not one of the known ones.
    /// - Complexity: reads the first 4 KiB (CSV) or the MAT-file's variable directory.
    public static func detect(path: String, format: RecordingFormat) -> RecordingPreset? {
        switch format {
        case .csv:
            guard let head = try? ByteSource.peek(path: path, count: 4096) else { return nil }
            // The first line by bytes: "\r\n" is one Character in Swift, so splitting a String
            // on "\n" would not end a CRLF line; a byte-order mark is dropped.
            var bytes = head.prefix { $0 != 0x0A }
            if bytes.last == 0x0D { bytes.removeLast() }
            if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
            let first = String(decoding: bytes, as: UTF8.self)
            if first.trimmingCharacters() == "unix_time_s,x,y,z" { return .actigraphRawCSV }
            let names = first.split(separator: ",").map { $0.trimmingCharacters() }
            if names.first == "Time [s]" && names.contains("PLETH") && names.contains("II") { return .bidmc }
            if let e4 = empaticaHead(path: path) {
                let name = (path.split(separator: "/").last.map(String.init) ?? path).uppercased()
                if e4.columns == 3 && e4.rate == 32 && !name.hasPrefix("BVP") { return .empaticaE4ACC }
                if e4.columns == 1 && name.hasPrefix("BVP") { return .empaticaE4BVP }
            }
            let fields = first.split(separator: ",")
            if fields.count == 7, let t = fields.first, t.count >= 10, t.allSatisfy(\.isNumber),
                fields.dropFirst().allSatisfy({ Double($0.trimmingCharacters()) != nil })
            {
                return .oxfordSteps
            }
            return nil
        case .matlab:
            guard let file = try? MATFile(path: path) else { return nil }
            if let sig = file.variables.first(where: { $0.name == "sig" }), sig.dimensions.count == 2 {
                if sig.dimensions[0] == 6 { return .spc2015WithECG }
                if sig.dimensions[0] == 5 { return .spc2015 }
            }
            if let ecg = file.variables.first(where: { $0.name == "ecg" }), ecg.dimensions.count == 2,
                ecg.dimensions.contains(1)
            {
                return .cpsc2019
            }
            return nil
        default:
            return nil
        }
    }
}

extension StringProtocol {
    /// The string without leading and trailing spaces, tabs and line breaks.
    func trimmingCharacters() -> String {
        let ws: Set<Character> = [" ", "\t", "\r", "\n", "\u{FEFF}"]
        var s = Substring(self)
        while let c = s.first, ws.contains(c) { s = s.dropFirst() }
        while let c = s.last, ws.contains(c) { s = s.dropLast() }
        return String(s)
    }
}

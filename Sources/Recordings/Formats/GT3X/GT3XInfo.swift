/// The device description of an ActiGraph `.gt3x` file: its `info.txt` entry.
///
/// `info.txt` holds one `Key: Value` item per line (ActiGraph, "GT3X-File-Format", `info.txt.md`,
/// github.com/actigraph/GT3X-File-Format). Dates are .NET ticks (100 ns since 0001-01-01) on
/// the **device's clock**, which runs in local time; newer ActiLife versions add a `TimeZone`
/// line (e.g. `-05:00:00`) giving that clock's offset from UTC at initialisation.
public struct GT3XInfo: Sendable, Hashable {
    /// Every `Key: Value` line, exactly as written (value trimmed of surrounding spaces).
    public var fields: [String: String]
    /// `Serial Number`; the device identifier.
    public var serialNumber: String
    /// `Device Type`, e.g. `Link`, `wGT3XBT`.
    public var deviceType: String?
    /// `Firmware` version.
    public var firmware: String?
    /// `Sample Rate` in Hz (30–100 on ActiGraph devices).
    public var sampleRate: Double
    /// `Acceleration Scale` in counts per g, when given.
    public var accelerationScale: Double?
    /// `Acceleration Min` in g (the dynamic range), when given.
    public var accelerationMin: Double?
    /// `Acceleration Max` in g, when given.
    public var accelerationMax: Double?
    /// `Start Date` as seconds since 1970-01-01 on the device's local clock, when non-zero.
    public var startDateLocal: Double?
    /// `Stop Date` as seconds since 1970-01-01 on the device's local clock, when non-zero.
    public var stopDateLocal: Double?
    /// `TimeZone` as seconds east of UTC (`-05:00:00` → −18,000), when given.
    public var utcOffsetSeconds: Int?

    /// .NET ticks at 1970-01-01T00:00:00 (`DateTime.UnixEpoch.Ticks`).
    public static let unixEpochTicks: Int64 = 621_355_968_000_000_000

    /// Seconds since 1970-01-01 of a .NET `DateTime.Ticks` value (same clock, local or UTC).
    /// - Parameter ticks: 100-nanosecond intervals since 0001-01-01T00:00:00.
    /// - Returns: seconds since 1970-01-01T00:00:00 on the same clock.
    /// - Complexity: O(1).
    public static func secondsSince1970(dotNetTicks ticks: Int64) -> Double {
        let t = ticks - unixEpochTicks
        // Whole seconds and the remainder separately, so nothing is lost before the final Double.
        return Double(t / 10_000_000) + Double(t % 10_000_000) / 10_000_000
    }

    /// Parses the bytes of `info.txt`.
    /// - Parameters:
    ///   - bytes: the entry's content (UTF-8, an optional byte-order mark, LF or CRLF lines).
    ///   - file: the `.gt3x` path, for error messages.
    /// - Returns: the description.
    /// - Throws: ``RecordingError`` `.missingField` when `Serial Number` or `Sample Rate` is
    ///   absent, `.wrongType` when a numeric item is not a number, `.outOfRange` for a sample
    ///   rate that is not positive or a malformed `TimeZone`.
    /// - Complexity: O(bytes).
    public static func parse(_ bytes: [UInt8], file: String) throws(RecordingError) -> GT3XInfo {
        var text = bytes[...]
        if text.starts(with: [0xEF, 0xBB, 0xBF]) { text = text.dropFirst(3) }
        var fields = [String: String]()
        var lineOf = [String: Int]()
        for (n, rawLine) in text.split(separator: 0x0A, omittingEmptySubsequences: false).enumerated() {
            var line = rawLine
            if line.last == 0x0D { line = line.dropLast() }
            guard let colon = line.firstIndex(of: 0x3A) else { continue }
            let key = trim(String(decoding: line[line.startIndex..<colon], as: UTF8.self))
            let value = trim(String(decoding: line[(colon + 1)...], as: UTF8.self))
            guard !key.isEmpty, fields[key] == nil else { continue }
            fields[key] = value
            lineOf[key] = n + 1
        }
        func where_(_ key: String) -> String { "info.txt line \(lineOf[key] ?? 0)" }
        func number(_ key: String) throws(RecordingError) -> Double? {
            guard let v = fields[key] else { return nil }
            let parsed = Array(v.utf8).withUnsafeBufferPointer { DecimalNumber.parse($0, separators: .either) }
            guard let d = parsed else {
                throw RecordingError(.wrongType, file: file, "\(where_(key)): \(key) '\(v)' is not a number")
            }
            return d
        }
        func ticks(_ key: String) throws(RecordingError) -> Double? {
            guard let v = fields[key] else { return nil }
            guard let t = Int64(v), t >= 0 else {
                throw RecordingError(
                    .wrongType, file: file,
                    "\(where_(key)): \(key) '\(v)' is not a count of .NET ticks (a non-negative integer)")
            }
            return t == 0 ? nil : secondsSince1970(dotNetTicks: t)
        }
        guard let serial = fields["Serial Number"], !serial.isEmpty else {
            throw RecordingError(.missingField, file: file, "info.txt has no 'Serial Number' line (the device identifier)")
        }
        guard let rate = try number("Sample Rate") else {
            throw RecordingError(.missingField, file: file, "info.txt has no 'Sample Rate' line")
        }
        if let why = InputLimits.sampleRateProblem(rate) {
            throw RecordingError(.outOfRange, file: file, "\(where_("Sample Rate")): Sample Rate \(why)")
        }
        var offset: Int?
        if let tz = fields["TimeZone"] {
            guard let o = parseOffset(tz) else {
                throw RecordingError(
                    .outOfRange, file: file,
                    "\(where_("TimeZone")): TimeZone '\(tz)' is not [-]hh:mm[:ss] within ±18 h")
            }
            offset = o
        }
        return GT3XInfo(
            fields: fields, serialNumber: serial, deviceType: fields["Device Type"],
            firmware: fields["Firmware"], sampleRate: rate,
            accelerationScale: try number("Acceleration Scale"),
            accelerationMin: try number("Acceleration Min"),
            accelerationMax: try number("Acceleration Max"),
            startDateLocal: try ticks("Start Date"), stopDateLocal: try ticks("Stop Date"),
            utcOffsetSeconds: offset)
    }

    /// `[+|-]hh:mm[:ss]` → seconds east of UTC, or `nil`.
    static func parseOffset(_ text: String) -> Int? {
        var s = Substring(text)
        var sign = 1
        if s.first == "-" { sign = -1; s = s.dropFirst() } else if s.first == "+" { s = s.dropFirst() }
        let parts = s.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2 || parts.count == 3 else { return nil }
        var values = [Int]()
        for p in parts {
            guard !p.isEmpty, p.count <= 2, p.allSatisfy(\.isASCII), let v = Int(p), v >= 0 else { return nil }
            values.append(v)
        }
        guard values[1] < 60, values.count < 3 || values[2] < 60 else { return nil }
        let seconds = values[0] * 3600 + values[1] * 60 + (values.count == 3 ? values[2] : 0)
        guard seconds <= 18 * 3600 else { return nil }
        return sign * seconds
    }

    static func trim(_ s: String) -> String {
        var t = Substring(s)
        while let c = t.first, c == " " || c == "\t" { t = t.dropFirst() }
        while let c = t.last, c == " " || c == "\t" { t = t.dropLast() }
        return String(t)
    }
}

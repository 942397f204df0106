/// Parsers for the values of an Apple Health ECG export's header lines, as observed in real
/// exports (Health app "Export All Health Data", `electrocardiograms/ecg_<date>.csv`):
/// `Recorded Date,2021-12-17 12:58:58 +0800`, `Sample Rate,513.625 hertz`, `Unit,µV`.
enum AppleHealthECGValues {
    /// Parses `yyyy-MM-dd HH:mm:ss ±hhmm` (or `±hh:mm`) into Unix seconds.
    ///
    /// Days since 1970-01-01 come from Howard Hinnant's `days_from_civil` (proleptic Gregorian
    /// calendar; H. Hinnant, "chrono-Compatible Low-Level Date Algorithms", 2013,
    /// http://howardhinnant.github.io/date_algorithms.html).
    /// - Returns: Unix seconds, or `nil` if the text does not have that shape or a field is out
    ///   of range (month 1–12, day 1–31, hour < 24, minute < 60, second ≤ 60, offset ≤ 18 h).
    /// - Complexity: O(n).
    static func parseDate(_ text: String) -> Double? { parseDateAndOffset(text)?.unix }

    /// `parseDate` with the UTC offset it read: (Unix seconds, seconds east of UTC).
    static func parseDateAndOffset(_ text: String) -> (unix: Double, utcOffsetSeconds: Int)? {
        var text = text
        return text.withUTF8 { parseDateAndOffset(bytes: $0) }
    }

    /// ``parseDateAndOffset(_:)`` of UTF-8 bytes (no `String` made: the export decoder's dates).
    /// - Complexity: O(n).
    static func parseDateAndOffset(bytes text: UnsafeBufferPointer<UInt8>) -> (unix: Double, utcOffsetSeconds: Int)? {
        var lower = 0
        var upper = text.count
        while lower < upper && text[lower] == 0x20 { lower += 1 }
        while upper > lower && text[upper - 1] == 0x20 { upper -= 1 }
        let count = upper - lower
        guard count == 25 || count == 26 else { return nil }
        let b = text.baseAddress! + lower
        /// Two ASCII digits at `i`, or -1.
        func two(_ i: Int) -> Int {
            let hi = UInt(b[i]) &- 0x30
            let lo = UInt(b[i + 1]) &- 0x30
            return hi < 10 && lo < 10 ? Int(hi * 10 + lo) : -1
        }
        guard b[4] == 0x2D, b[7] == 0x2D, b[10] == 0x20, b[13] == 0x3A, b[16] == 0x3A, b[19] == 0x20,
            b[20] == 0x2B || b[20] == 0x2D
        else { return nil }
        let y0 = two(0)
        let y1 = two(2)
        let mo = two(5)
        let d = two(8)
        let h = two(11)
        let mi = two(14)
        let s = two(17)
        let oh = two(21)
        let om = count == 25 ? two(23) : (b[23] == 0x3A ? two(24) : -1)
        guard y0 >= 0, y1 >= 0, d >= 0, om >= 0, (1...12).contains(mo), (1...31).contains(d), h >= 0, h < 24, mi >= 0, mi < 60,
            s >= 0, s <= 60, oh >= 0, oh <= 18, om < 60
        else { return nil }
        let y = y0 * 100 + y1
        let offset = (oh * 3600 + om * 60) * (b[20] == 0x2D ? -1 : 1)
        let days = daysFromCivil(year: y, month: mo, day: d)
        return (Double(days * 86_400 + h * 3600 + mi * 60 + s - offset), offset)
    }

    /// Days from 1970-01-01 to the given proleptic Gregorian date (Hinnant 2013).
    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// Parses a sample rate such as `513.625 hertz`, `512,508 Hertz` or `512 Hz`.
    ///
    /// The number may use a decimal point or a decimal comma (Apple writes numbers in the
    /// locale's format, without digit grouping); the unit word, if present, must be `hertz` or
    /// `Hz` (any case).
    /// - Parameter requireUnit: whether the unit word must be present (used when recognising a
    ///   line by its value alone).
    /// - Returns: the rate in Hz (possibly ≤ 0 or non-finite: the caller range-checks), or `nil`.
    static func parseRate(_ text: String, requireUnit: Bool) -> Double? {
        let trimmed = trim(text)
        var numberPart = Substring(trimmed)
        var unitPart = Substring("")
        if let space = trimmed.firstIndex(where: { $0 == " " || $0 == "\u{00A0}" || $0 == "\u{202F}" }) {
            numberPart = trimmed[..<space]
            unitPart = trimmed[space...].drop { $0 == " " || $0 == "\u{00A0}" || $0 == "\u{202F}" }
        } else if let letter = trimmed.firstIndex(where: { $0.isLetter }) {
            numberPart = trimmed[..<letter] // "512Hz"
            unitPart = trimmed[letter...]
        }
        let unit = unitPart.lowercased()
        if unit.isEmpty {
            if requireUnit { return nil }
        } else if unit != "hertz" && unit != "hz" {
            return nil
        }
        var bytes = Array(numberPart.utf8)
        return bytes.withUnsafeMutableBufferPointer { b in
            DecimalNumber.parse(UnsafeBufferPointer(b), separators: .either)
        }
    }

    /// `text` without leading and trailing ASCII spaces and tabs.
    /// - Complexity: O(length) without a copy per character (the same `Character` comparisons as
    ///   dropping from both ends).
    static func trim(_ text: String) -> String {
        var s = Substring(text)
        while let c = s.first, c == " " || c == "\t" { s.removeFirst() }
        while let c = s.last, c == " " || c == "\t" { s.removeLast() }
        return String(s)
    }

    /// The physical unit of a `Unit` value: `µV` (U+00B5 MICRO SIGN, as Apple writes it), `μV`
    /// (U+03BC), `uV`, or `mV`.
    static func parseUnit(_ text: String) -> PhysicalUnit? {
        switch trim(text) {
        case "\u{00B5}V", "\u{03BC}V", "uV": return .microvolts
        case "mV": return .millivolts
        default: return nil
        }
    }
}

/// Parses decimal numbers from bytes, with a point or a comma as decimal separator, exactly as
/// Swift's `Double(String)` would (correctly rounded), without allocating on the common path.
///
/// Grammar (after trimming ASCII spaces and tabs): `[+-] digits [sep digits] [(e|E) [+-] digits]`
/// with at least one mantissa digit, where `sep` is one of the accepted separators. No digit
/// grouping, no `nan`/`inf`, no hexadecimal: text that is not a plain decimal number is
/// rejected rather than guessed.
///
/// Short numbers (at most 19 significant digits, value below 2^53, power of ten within ±22)
/// take Clinger's fast path: the integer mantissa and the power of ten are both exact
/// doubles, so one IEEE multiplication or division rounds correctly. Everything else falls back
/// to the standard library's correctly rounded conversion.
/// W. D. Clinger (1990), "How to read floating point numbers accurately", PLDI '90,
/// DOI 10.1145/93542.93557.
enum DecimalNumber {
    /// Which decimal separators a field may use.
    struct Separators: OptionSet, Sendable {
        let rawValue: UInt8
        static let point = Separators(rawValue: 1)
        static let comma = Separators(rawValue: 2)
        static let either: Separators = [.point, .comma]
    }

    @usableFromInline static let powersOfTen: [Double] = (0...22).map { e in
        var p = 1.0
        for _ in 0..<e { p *= 10 } // exact up to 1e22
        return p
    }

    /// Whether the field is one of the spellings of a missing value: empty (after trimming),
    /// `NaN` (any case), `NA`, `N/A`, `null` or `NULL`.
    static func isMissing(_ field: UnsafeBufferPointer<UInt8>) -> Bool {
        var lo = 0, hi = field.count
        while lo < hi && (field[lo] == 0x20 || field[lo] == 0x09) { lo += 1 }
        while hi > lo && (field[hi - 1] == 0x20 || field[hi - 1] == 0x09) { hi -= 1 }
        let n = hi - lo
        if n == 0 { return true }
        func lower(_ i: Int) -> UInt8 { field[lo + i] | 0x20 }
        switch n {
        case 2: return field[lo] == 0x4E && field[lo + 1] == 0x41 // NA
        case 3:
            if lower(0) == 0x6E && lower(1) == 0x61 && lower(2) == 0x6E { return true } // nan
            return field[lo] == 0x4E && field[lo + 1] == 0x2F && field[lo + 2] == 0x41 // N/A
        case 4:
            let word = (field[lo], field[lo + 1], field[lo + 2], field[lo + 3])
            return word == (0x6E, 0x75, 0x6C, 0x6C) || word == (0x4E, 0x55, 0x4C, 0x4C) // null, NULL
        default: return false
        }
    }

    /// Parses `field` as a finite decimal number.
    /// - Parameters:
    ///   - field: the bytes of one field (surrounding spaces and tabs are ignored).
    ///   - separators: the accepted decimal separators.
    /// - Returns: the correctly rounded value, or `nil` if the text is not a decimal number
    ///   or its value overflows.
    /// - Complexity: O(n) in the field length.
    static func parse(_ field: UnsafeBufferPointer<UInt8>, separators: Separators) -> Double? {
        var i = 0, end = field.count
        while i < end && (field[i] == 0x20 || field[i] == 0x09) { i += 1 }
        while end > i && (field[end - 1] == 0x20 || field[end - 1] == 0x09) { end -= 1 }
        guard i < end else { return nil }
        let start = i
        var negative = false
        if field[i] == 0x2D || field[i] == 0x2B { negative = field[i] == 0x2D; i += 1 }
        var mantissa: UInt64 = 0
        var significant = 0 // significant digits accumulated in `mantissa`
        var dropped = false // a non-zero digit beyond 19 significant ones
        var exponent = 0 // power of ten applied to `mantissa`
        var digits = 0
        var sawSeparator = false
        while i < end {
            let c = field[i]
            if c >= 0x30 && c <= 0x39 {
                digits += 1
                let d = UInt64(c - 0x30)
                if significant < 19 {
                    if mantissa != 0 || d != 0 {
                        mantissa = mantissa * 10 + d
                        significant += 1
                    }
                    if sawSeparator { exponent -= 1 }
                } else {
                    if d != 0 { dropped = true }
                    if !sawSeparator { exponent += 1 }
                }
            } else if (c == 0x2E && separators.contains(.point)) || (c == 0x2C && separators.contains(.comma)) {
                if sawSeparator { return nil }
                sawSeparator = true
            } else {
                break
            }
            i += 1
        }
        guard digits > 0 else { return nil }
        if i < end {
            guard field[i] == 0x65 || field[i] == 0x45 else { return nil }
            i += 1
            var expNegative = false
            if i < end && (field[i] == 0x2D || field[i] == 0x2B) { expNegative = field[i] == 0x2D; i += 1 }
            var e = 0
            var expDigits = 0
            while i < end, field[i] >= 0x30 && field[i] <= 0x39 {
                if e < 100_000 { e = e * 10 + Int(field[i] - 0x30) }
                expDigits += 1
                i += 1
            }
            guard expDigits > 0, i == end else { return nil }
            exponent += expNegative ? -e : e
        }
        if mantissa == 0 { return negative ? -0.0 : 0.0 }
        if !dropped && mantissa <= (1 << 53) && exponent >= -22 && exponent <= 22 {
            var v = Double(mantissa)
            v = exponent < 0 ? v / powersOfTen[-exponent] : v * powersOfTen[exponent]
            return negative ? -v : v
        }
        return slowParse(UnsafeBufferPointer(rebasing: field[start..<end]))
    }

    /// The standard library's correctly rounded conversion, after normalising a decimal comma.
    static func slowParse(_ text: UnsafeBufferPointer<UInt8>) -> Double? {
        var bytes = Array(text)
        for k in bytes.indices where bytes[k] == 0x2C { bytes[k] = 0x2E }
        guard let v = Double(String(decoding: bytes, as: UTF8.self)), v.isFinite else { return nil }
        return v
    }

    /// Parses `field` as a plain integer (`[+-] digits`, no separator or exponent) that fits
    /// in `Int64`, for timestamps that must not pass through `Double`.
    /// - Returns: the value, or `nil` if the field is not such an integer.
    /// - Complexity: O(n).
    static func parseInteger(_ field: UnsafeBufferPointer<UInt8>) -> Int64? {
        var i = 0, end = field.count
        while i < end && (field[i] == 0x20 || field[i] == 0x09) { i += 1 }
        while end > i && (field[end - 1] == 0x20 || field[end - 1] == 0x09) { end -= 1 }
        guard i < end else { return nil }
        var negative = false
        if field[i] == 0x2D || field[i] == 0x2B { negative = field[i] == 0x2D; i += 1 }
        guard i < end else { return nil }
        var v: Int64 = 0
        while i < end {
            let c = field[i]
            guard c >= 0x30 && c <= 0x39 else { return nil }
            let (m, o1) = v.multipliedReportingOverflow(by: 10)
            let (a, o2) = m.addingReportingOverflow(Int64(c - 0x30))
            guard !o1 && !o2 else { return nil }
            v = a
            i += 1
        }
        return negative ? -v : v
    }
}

/// Decimal numbers to `Double`, correctly rounded (equal to Swift's `Double(String)` bit for
/// bit), for every text decoder: CSV-like fields (``parse(_:separators:)``, with a point or a
/// comma as decimal separator) and JSON numbers already split into significand and exponent
/// (``fastDouble(_:_:negative:)``, used by the SensorKit scanner).
///
/// Field grammar (after trimming ASCII spaces and tabs): `[+-] digits [sep digits] [(e|E) [+-]
/// digits]` with at least one mantissa digit, where `sep` is one of the accepted separators. No
/// digit grouping, no `nan`/`inf`, no hexadecimal: text that is not a plain decimal number is
/// rejected rather than guessed.
///
/// Conversion of a significand `w` (all its digits kept) and exponent `q`, three tiers, each exact:
/// 1. Clinger's fast path (W. D. Clinger, "How to Read Floating Point Numbers Accurately",
///    PLDI 1990, doi:10.1145/93542.93557): when `w ≤ 2^53` and `|q| ≤ 22`, `w` and `10^|q|` are
///    exact doubles and one IEEE multiplication or division rounds correctly.
/// 2. The Eisel–Lemire algorithm (D. Lemire, "Number Parsing at a Gigabyte per Second",
///    Software: Practice and Experience 51(8), 2021, doi:10.1002/spe.2984; N. Mushtak and
///    D. Lemire, "Fast Number Parsing Without Fallback", SPE 53(7), 2023, doi:10.1002/spe.3198)
///    for any 19-digit significand and `q ∈ [−342, 308]`, using a 128-bit product with a
///    truncated power of five (``PowersOfFive``). Subnormal results are not handled here.
/// 3. Otherwise (more than 19 significant digits, subnormal results, overflow), the standard
///    library's `Double(String)` on the text, the reference the tests compare against.
enum DecimalNumber {
    /// Which decimal separators a field may use.
    struct Separators: OptionSet, Sendable {
        let rawValue: UInt8
        static let point = Separators(rawValue: 1)
        static let comma = Separators(rawValue: 2)
        static let either: Separators = [.point, .comma]
    }

    /// Exact powers of ten representable as doubles (10^0 … 10^22).
    static let exactPowersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
        1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
    ]

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
        var dropped = false // a non-zero digit beyond 19 significant ones, or an exponent beyond 100 000
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
                // Beyond 100 000 the exponent is not accumulated: only the text fallback is exact.
                if e < 100_000 { e = e * 10 + Int(field[i] - 0x30) } else { dropped = true }
                expDigits += 1
                i += 1
            }
            guard expDigits > 0, i == end else { return nil }
            exponent += expNegative ? -e : e
        }
        if mantissa == 0 { return negative ? -0.0 : 0.0 }
        if !dropped {
            if let v = clinger(mantissa, exponent, negative: negative) { return v }
            if let v = eiselLemire(mantissa, exponent, negative: negative), v.isFinite { return v }
        }
        return slowParse(UnsafeBufferPointer(rebasing: field[start..<end]))
    }

    /// `w · 10^q` with sign, or `nil` when neither fast tier applies (the caller falls back to
    /// the standard library on the text).
    /// - Parameters:
    ///   - w: decimal significand (at most 19 digits, all kept).
    ///   - q: decimal exponent.
    ///   - negative: sign.
    /// - Returns: the correctly rounded double (possibly ±infinity on overflow), or `nil`.
    /// - Complexity: O(1).
    @inline(__always)
    static func fastDouble(_ w: UInt64, _ q: Int, negative: Bool) -> Double? {
        if w == 0 { return negative ? -0.0 : 0.0 }
        return clinger(w, q, negative: negative) ?? eiselLemire(w, q, negative: negative)
    }

    /// Clinger's fast path: `w · 10^q` with sign when `w ≤ 2^53` and `|q| ≤ 22` (both factors
    /// exact doubles, one correctly rounded operation), else `nil`.
    /// - Complexity: O(1).
    @inline(__always)
    static func clinger(_ w: UInt64, _ q: Int, negative: Bool) -> Double? {
        guard w <= 1 << 53 && q >= -22 && q <= 22 else { return nil }
        let m = Double(w)
        let v = exactPowersOfTen.withUnsafeBufferPointer { p in q < 0 ? m / p[-q] : m * p[q] }
        return negative ? -v : v
    }

    /// Eisel–Lemire conversion (port of `compute_float<binary64>` of the paper's reference
    /// implementation). Returns `nil` for subnormal results (caller falls back).
    static func eiselLemire(_ w0: UInt64, _ q: Int, negative: Bool) -> Double? {
        let sign: UInt64 = negative ? 1 << 63 : 0
        if q < PowersOfFive.smallestPowerOfFive { return negative ? -0.0 : 0.0 }
        if q > PowersOfFive.largestPowerOfFive { return Double(bitPattern: sign | 0x7FF0_0000_0000_0000) }
        let lz = w0.leadingZeroBitCount
        let w = w0 << UInt64(lz)
        let index = 2 * (q - PowersOfFive.smallestPowerOfFive)
        let (high, low): (UInt64, UInt64) = PowersOfFive.table.withUnsafeBufferPointer { t in
            var first = w.multipliedFullWidth(by: t[index])
            let precisionMask: UInt64 = 0xFFFF_FFFF_FFFF_FFFF >> 55 // mantissa bits + 3
            if first.high & precisionMask == precisionMask {
                let second = w.multipliedFullWidth(by: t[index + 1])
                let (sum, overflow) = first.low.addingReportingOverflow(second.high)
                first.low = sum
                if overflow { first.high &+= 1 }
            }
            return (first.high, first.low)
        }
        let upperbit = Int(high >> 63)
        let shift = upperbit + 64 - 52 - 3
        var mantissa = high >> UInt64(shift)
        let power = ((152_170 + 65_536) * q) >> 16 + 63
        var power2 = power + upperbit - lz + 1023
        if power2 <= 0 { return nil } // subnormal: rare, let the fallback handle it
        if low <= 1 && q >= -4 && q <= 23 && mantissa & 3 == 1 {
            if mantissa << UInt64(shift) == high { mantissa &= ~1 }
        }
        mantissa += mantissa & 1
        mantissa >>= 1
        if mantissa >= 2 << 52 {
            mantissa = 1 << 52
            power2 += 1
        }
        mantissa &= ~(1 << 52)
        if power2 >= 0x7FF { return Double(bitPattern: sign | 0x7FF0_0000_0000_0000) }
        return Double(bitPattern: mantissa | UInt64(power2) << 52 | sign)
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

/// Correctly rounded conversion of a JSON number's decimal significand and exponent to `Double`.
///
/// Three tiers, each exact:
/// 1. Clinger's fast path (W. D. Clinger, "How to Read Floating Point Numbers Accurately",
///    PLDI 1990, doi:10.1145/93542.93557): when the significand `w ≤ 2^53` and `|q| ≤ 22`,
///    `w` and `10^|q|` are exact doubles and one IEEE multiplication or division rounds correctly.
/// 2. The Eisel–Lemire algorithm (D. Lemire, "Number Parsing at a Gigabyte per Second",
///    Software: Practice and Experience 51(8), 2021, doi:10.1002/spe.2984; N. Mushtak and
///    D. Lemire, "Fast Number Parsing Without Fallback", SPE 53(7), 2023, doi:10.1002/spe.3198)
///    for any 19-digit significand and `q ∈ [−342, 308]`, using a 128-bit product with a
///    truncated power of five (``PowersOfFive``). Subnormal results are not handled here.
/// 3. Otherwise (more than 19 significant digits, subnormal results), Swift's own
///    `Double(String)`, the reference the decoder's tests compare against.
enum DecimalParser {
    /// Exact powers of ten representable as doubles (10^0 … 10^22).
    static let exactPowersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
        1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
    ]

    /// `w · 10^q` with sign, or `nil` when neither fast tier applies (the caller falls back).
    /// - Parameters:
    ///   - w: decimal significand (at most 19 digits, all kept).
    ///   - q: decimal exponent.
    ///   - negative: sign.
    /// - Returns: the correctly rounded double (possibly ±infinity on overflow), or `nil`.
    /// - Complexity: O(1).
    @inline(__always)
    static func fastDouble(_ w: UInt64, _ q: Int, negative: Bool) -> Double? {
        if w == 0 { return negative ? -0.0 : 0.0 }
        if w <= 1 << 53 && q >= -22 && q <= 22 {
            let m = Double(w)
            let v = exactPowersOfTen.withUnsafeBufferPointer { p in q < 0 ? m / p[-q] : m * p[q] }
            return negative ? -v : v
        }
        return eiselLemire(w, q, negative: negative)
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
}

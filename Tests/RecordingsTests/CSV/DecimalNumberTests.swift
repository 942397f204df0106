import Testing
import _TestSupport

@testable import Recordings

@Suite("DecimalNumber: decimal text to Double")
struct DecimalNumberTests {
    func parse(_ s: String, _ separators: DecimalNumber.Separators = .either) -> Double? {
        var bytes = Array(s.utf8)
        return bytes.withUnsafeMutableBufferPointer { DecimalNumber.parse(UnsafeBufferPointer($0), separators: separators) }
    }

    @Test("random decimal strings parse bitwise as the standard library's correctly rounded strtod")
    func matchesStandardLibrary() {
        var rng = SeededGenerator(seed: 11)
        var mismatches = 0
        for i in 0..<20_000 {
            let digits = Int.random(in: 1...22, using: &rng)
            var s = Int.random(in: 0...3, using: &rng) == 0 ? "-" : ""
            let point = Int.random(in: 0...digits, using: &rng)
            for k in 0..<digits {
                if k == point && k > 0 { s += "." }
                s += String(Int.random(in: 0...9, using: &rng))
            }
            if i % 3 == 0 { s += "e" + String(Int.random(in: -330...310, using: &rng)) }
            let reference = Double(s)
            let got = parse(s)
            if let reference, reference.isFinite {
                if got?.bitPattern != reference.bitPattern { mismatches += 1 }
            } else if got != nil {
                mismatches += 1
            }
        }
        #expect(mismatches == 0)
    }

    /// Whether `parse(s)` equals the standard library bit for bit (`nil` where that is `nil` or
    /// not finite).
    func agreesWithStandardLibrary(_ s: String) -> Bool {
        let got = parse(s)
        guard let reference = Double(s), reference.isFinite else { return got == nil }
        return got?.bitPattern == reference.bitPattern
    }

    @Test("edge cases parse bitwise as the standard library: exponents, long mantissas, signs, subnormals")
    func edgeCases() {
        let long = "1" + String(repeating: "0", count: 100_005)
        let cases = [
            // Clinger's fast path and its borders
            "0.1", "1e22", "1e-22", "1e23", "1e-23", "9007199254740992", "9007199254740993", "9007199254740992.5",
            "9007199254740993.0000000000001", "-9007199254740991e22", "7.2057594037927933e16", "1448997445238699",
            // long mantissas: 19 significant digits (Eisel–Lemire), more (the text fallback), trailing zeros
            "1234567890123456789", "12345678901234567890", "123456789012345678901234567890", "18446744073709551615",
            "18446744073709551616", "9999999999999999999e-19", "0.00000000000000000000000000000123456789012345678",
            "12345678901234567890e-10", "1" + String(repeating: "0", count: 100) + "e-100",
            "00000000000000000000000000001", "000.0001e4", "1.000000000000000000000000000000000000001",
            // exponents: signs, leading zeros, extremes, capped accumulation compensated by the mantissa
            "1e+000", "1E-0", "-2.5e-3", "+3.75E+2", "1e308", "1e-307", "1e-342", "1e-343", "1e-400", "-1e-400",
            "1e-99999999", "0e99999999", long + "e-100005", long + "e-100000", "4e-1000000",
            // subnormals, the smallest normal, the largest finite, just above it
            "4.9406564584124654e-324", "2.4703282292062327e-324", "2.4703282292062328e-324", "5e-324", "3e-324",
            "2.2250738585072011e-308", "2.2250738585072014e-308", "2.225073858507201136057409796709131975934e-308",
            "1.7976931348623157e308", "1.7976931348623158e308", "1.7976931348623159e308", "-1.7976931348623157e308",
            "1.7976931348623157e309",
            // signs and zeros
            "-0", "+0", "-0.0e5", "0e-400", "-1", "+1", ".5", "5.", "-.5e1",
        ]
        for s in cases { #expect(agreesWithStandardLibrary(s), "\(s.count > 60 ? String(s.prefix(20)) + "…" : s)") }
        #expect(parse("1e-400")?.bitPattern == 0 && parse("-1e-400")?.bitPattern == (-0.0).bitPattern)
        // 10^100005 · 10^−100005: the exponent is past the accumulation cap, so only the text
        // fallback is exact (the fast tiers would read 10^5).
        #expect(parse(long + "e-100005") == 1)
    }

    @Test("19-digit significands over every exponent the 128-bit table covers agree with the standard library")
    func eiselLemireTier() {
        var rng = SeededGenerator(seed: 35)
        var mismatches = 0
        for _ in 0..<20_000 {
            let w = UInt64.random(in: 1...9_999_999_999_999_999_999, using: &rng)
            let q = Int.random(in: -350...315, using: &rng)
            let negative = Bool.random(using: &rng)
            let text = (negative ? "-" : "") + "\(w)e\(q)"
            if !agreesWithStandardLibrary(text) { mismatches += 1 }
            // The significand/exponent entry the JSON scanner uses: exact, or `nil` (fallback).
            if let v = DecimalNumber.fastDouble(w, q, negative: negative), v.isFinite,
                v.bitPattern != Double(text)?.bitPattern
            {
                mismatches += 1
            }
        }
        #expect(mismatches == 0)
    }

    @Test("grammar: separators, signs, spaces; rejects grouping, nan, inf, hex")
    func grammar() {
        #expect(parse("27,648") == 27.648 && parse("27.648") == 27.648)
        #expect(parse("27,648", .point) == nil && parse("27.648", .comma) == nil)
        #expect(parse(" -0,5 ") == -0.5 && parse("+3") == 3 && parse(".5") == 0.5 && parse("5.") == 5)
        #expect(parse("-0")?.sign == .minus)
        #expect(parse("1e3") == 1000 && parse("1E-3") == 0.001)
        for bad in [
            "", " ", "-", ".", "1.2.3", "1,234.5", "nan", "NaN", "inf", "0x1p3", "1e", "1e+", "12a", "1 2", "1e400",
            "e5", "1e5.0", "1ee5", "--1", "+-1", "1e-", "1.e", "Infinity", "1_000", "1 e5", "-1e400",
        ] {
            #expect(parse(bad) == nil, "\(bad)")
        }
        var b = Array("99999999999999999999".utf8)
        #expect(b.withUnsafeMutableBufferPointer { DecimalNumber.parseInteger(UnsafeBufferPointer($0)) } == nil) // overflow
        b = Array("1012461540465".utf8)
        #expect(b.withUnsafeMutableBufferPointer { DecimalNumber.parseInteger(UnsafeBufferPointer($0)) } == 1_012_461_540_465)
    }

    @Test("missing-value spellings")
    func missing() {
        func m(_ s: String) -> Bool {
            var b = Array(s.utf8)
            return b.withUnsafeMutableBufferPointer { DecimalNumber.isMissing(UnsafeBufferPointer($0)) }
        }
        for s in ["", "  ", "NaN", "nan", "NAN", "NA", "N/A", "null", "NULL"] { #expect(m(s), "\(s)") }
        for s in ["0", "na", "Null", "none", "-"] { #expect(!m(s), "\(s)") }
    }
}

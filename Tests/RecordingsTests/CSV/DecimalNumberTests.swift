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

    @Test("grammar: separators, signs, spaces; rejects grouping, nan, inf, hex")
    func grammar() {
        #expect(parse("27,648") == 27.648 && parse("27.648") == 27.648)
        #expect(parse("27,648", .point) == nil && parse("27.648", .comma) == nil)
        #expect(parse(" -0,5 ") == -0.5 && parse("+3") == 3 && parse(".5") == 0.5 && parse("5.") == 5)
        #expect(parse("-0")?.sign == .minus)
        #expect(parse("1e3") == 1000 && parse("1E-3") == 0.001)
        for bad in ["", " ", "-", ".", "1.2.3", "1,234.5", "nan", "NaN", "inf", "0x1p3", "1e", "1e+", "12a", "1 2", "1e400"] {
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

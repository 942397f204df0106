import Testing
import _TestSupport

@testable import Recordings

@Suite("JSONScanner: numbers equal Swift's Double(String); integers exact; strict JSON")
struct JSONScannerTests {
    /// Parses `token` as a JSON number with the scanner.
    func scan(_ token: String) -> Result<Double, ScanError> {
        var bytes = Array(token.utf8)
        return bytes.withUnsafeMutableBufferPointer { b in
            var s = JSONScanner(base: UnsafePointer(b.baseAddress!), count: b.count)
            do throws(ScanError) {
                let v = try s.readDouble("n")
                guard s.atEnd else { return .failure(ScanError(.syntax, at: s.i, "not consumed")) }
                return .success(v)
            } catch {
                return .failure(error)
            }
        }
    }

    /// Compares with `Double(token)`: the same bits, or an out-of-range error where Swift overflows.
    func agrees(_ token: String) -> Bool {
        let reference = Double(token)!
        switch scan(token) {
        case .success(let v): return v.bitPattern == reference.bitPattern
        case .failure(let e): return reference.isInfinite && e.code == .outOfRange
        }
    }

    static let edgeCases = [
        "0", "-0", "0.0", "-0.0", "1", "-1", "0.1", "0.2", "0.3", "1e23", "9007199254740993",
        "9007199254740992", "9007199254740991", "18014398509481985", "1.7976931348623157e308",
        "1.7976931348623158e308", "1.7976931348623159e308", "2.2250738585072011e-308",
        "2.2250738585072014e-308", "4.9e-324", "5e-324", "2.4703282292062327e-324",
        "2.4703282292062328e-324", "1e-400", "1e400", "-1e400", "123456789012345678901234567890",
        "0.000000000000000000000000000001", "1716307300.0234567", "1716307300.02", "738000123.5",
        "512.508", "-48.673", "1.1e-6", "2.0e-7", "3.0E-4", "1E+2", "7.3177701707893310e+15",
        "2.2250738585072012e-308", "8.98846567431158e307", "0.1e1", "100000000000000000000000",
        "1448997445238699", "4503599627370497.5", "9223372036854775807", "18446744073709551615",
        "18446744073709551616", "0.500000000000000166533453693773481063544750213623046875",
        "1.00000000000000011102230246251565404236316680908203125",
        "1.00000000000000011102230246251565404236316680908203124",
        "1.00000000000000011102230246251565404236316680908203126",
    ]

    @Test("edge cases: halfway points, limits, subnormals, overflow, long significands")
    func edges() {
        let bad = Self.edgeCases.filter { !agrees($0) }
        #expect(bad.isEmpty, "disagree: \(bad)")
    }

    @Test("200,000 random tokens of every shape agree bit for bit with Double(String)")
    func random() {
        var rng = SeededGenerator(seed: 2024)
        var disagreements = [String]()
        for _ in 0..<200_000 {
            var t = Bool.random(using: &rng) ? "-" : ""
            let intDigits = Int.random(in: 1...20, using: &rng)
            let first = intDigits == 1 ? Int.random(in: 0...9, using: &rng) : Int.random(in: 1...9, using: &rng)
            t += String(first)
            for _ in 1..<intDigits { t += String(Int.random(in: 0...9, using: &rng)) }
            if Bool.random(using: &rng) {
                t += "."
                for _ in 0..<Int.random(in: 1...22, using: &rng) { t += String(Int.random(in: 0...9, using: &rng)) }
            }
            switch Int.random(in: 0...3, using: &rng) {
            case 0: t += "e\(Int.random(in: -30...30, using: &rng))"
            case 1: t += "E+\(Int.random(in: 0...330, using: &rng))"
            case 2: t += "e-\(Int.random(in: 0...345, using: &rng))"
            default: break
            }
            if !agrees(t) { disagreements.append(t) }
        }
        // Shortest round-trip output of random doubles (what the writer produces) as well.
        for _ in 0..<100_000 {
            let d = Double(bitPattern: rng.next() & 0x7FEF_FFFF_FFFF_FFFF)
            if !agrees(d.description) { disagreements.append(d.description) }
        }
        #expect(disagreements.isEmpty, "\(disagreements.prefix(10))")
    }

    @Test("a Float printed shortest round-trip comes back exactly through Double (the writer's contract)")
    func floatThroughDouble() {
        var rng = SeededGenerator(seed: 9)
        var bad = 0
        for _ in 0..<200_000 {
            let f = Float(bitPattern: UInt32(truncatingIfNeeded: rng.next()) & 0x7F7F_FFFF)
            guard case .success(let d) = scan(f.description) else { bad += 1; continue }
            if Float(d).bitPattern != f.bitPattern { bad += 1 }
        }
        #expect(bad == 0)
    }

    func integer(_ token: String, signed: Bool) -> Result<String, ScanError> {
        var bytes = Array(token.utf8)
        return bytes.withUnsafeMutableBufferPointer { b in
            var s = JSONScanner(base: UnsafePointer(b.baseAddress!), count: b.count)
            do throws(ScanError) {
                return .success(signed ? String(try s.readInt64("i")) : String(try s.readUInt64("i")))
            } catch {
                return .failure(error)
            }
        }
    }

    @Test("identifiers and nanosecond counts are exact 64-bit integers")
    func integers() throws {
        #expect(try integer("18446744073709551615", signed: false).get() == "18446744073709551615")
        #expect(try integer("18446744073709551614", signed: false).get() == "18446744073709551614")
        #expect(try integer("9007199254740993", signed: false).get() == "9007199254740993")
        #expect(try integer("-9223372036854775808", signed: true).get() == "-9223372036854775808")
        #expect(try integer("9223372036854775807", signed: true).get() == "9223372036854775807")
        for (t, signed, code) in [
            ("18446744073709551616", false, RecordingError.Code.outOfRange),
            ("9223372036854775808", true, .outOfRange), ("-1", false, .outOfRange),
            ("1.0", false, .wrongType), ("1e3", true, .wrongType), ("\"1\"", false, .wrongType),
            ("01", false, .syntax),
        ] {
            guard case .failure(let e) = integer(t, signed: signed) else { Issue.record("\(t) accepted"); continue }
            #expect(e.code == code, "\(t)")
        }
    }

    func skip(_ text: String) -> ScanError? {
        var bytes = Array(text.utf8)
        return bytes.withUnsafeMutableBufferPointer { b in
            var s = JSONScanner(base: UnsafePointer(b.baseAddress!), count: b.count)
            do throws(ScanError) {
                try s.skipValue()
                try s.expectEnd()
                return nil
            } catch {
                return error
            }
        }
    }

    @Test("strict RFC 8259 validation of skipped values")
    func strictness() {
        for good in ["{}", "[]", "{\"a\":[1,2,{\"b\":null}],\"c\":true,\"d\":\"\\u00e9\\ud83d\\ude00\\n\"}", " 1.5e-3 ", "\"é\""] {
            #expect(skip(good) == nil, "\(good)")
        }
        let bad: [(String, RecordingError.Code)] = [
            ("{\"a\":1,}", .syntax), ("[1,]", .syntax), ("{\"a\" 1}", .syntax), ("[1 2]", .syntax),
            ("NaN", .nonFinite), ("[Infinity]", .nonFinite), ("-Infinity", .nonFinite), ("tru", .truncated),
            ("\"\\ud800\"", .invalidUTF8), ("\"\\x\"", .syntax), ("\"a", .truncated), ("{\"a\":", .truncated),
            ("1.", .truncated), ("1.e5", .syntax), ("-", .truncated), ("+1", .syntax), ("'a'", .syntax),
            ("\"\u{01}\"", .syntax), (String(repeating: "[", count: 300) + String(repeating: "]", count: 300), .syntax),
        ]
        for (text, code) in bad { #expect(skip(text)?.code == code, "\(text)") }
        // Invalid UTF-8: overlong, surrogate, truncated sequence, stray continuation, above U+10FFFF.
        for seq: [UInt8] in [[0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xE2, 0x82], [0x80], [0xF4, 0x90, 0x80, 0x80], [0xFF]] {
            var bytes: [UInt8] = [0x22] + seq + [0x22]
            let code: RecordingError.Code? = bytes.withUnsafeMutableBufferPointer { b in
                var s = JSONScanner(base: UnsafePointer(b.baseAddress!), count: b.count)
                do throws(ScanError) { try s.skipValue(); return nil } catch { return error.code }
            }
            #expect(code == .invalidUTF8, "\(seq)")
        }
    }
}

@Suite("DuplicateWindow: exact keys, bounded memory")
struct DuplicateWindowTests {
    /// The last two cases start below their full table size (``DuplicateWindow/initialSlots``), so
    /// the tables grow while keys arrive: 20,000 never fills a generation (5,400 distinct keys), 4,096
    /// grows to full size and then rolls its generations over.
    @Test(
        "agrees with a reference model of two generations of capacity/2 keys",
        arguments: [(2, 900), (7, 900), (1000, 900), (20_000, 900), (4096, 6000)])
    func reference(capacity: Int, span: UInt64) {
        var w = DuplicateWindow(capacity: capacity)
        var rng = SeededGenerator(seed: UInt64(capacity))
        var current = Set<DuplicateWindow.Key>(), previous = Set<DuplicateWindow.Key>()
        let generation = max(1, capacity / 2)
        var disagreements = 0
        var duplicates = 0
        for _ in 0..<30_000 {
            // Small key space so that repeats are common, both inside and outside the window.
            let k = DuplicateWindow.Key(
                a: UInt64.random(in: 0..<3, using: &rng), b: UInt64.random(in: 0..<span, using: &rng),
                c: UInt64.random(in: 0..<2, using: &rng))
            let expectedNew = !current.contains(k) && !previous.contains(k)
            if w.insert(k, time: Double(k.b)) != expectedNew { disagreements += 1 }
            if expectedNew {
                if current.count == generation { previous = current; current = [] }
                current.insert(k)
            } else {
                duplicates += 1
            }
        }
        #expect(disagreements == 0)
        #expect(duplicates > (capacity >= 1000 ? 1000 : 0))
    }

    @Test("a repeat is always recognised within capacity/2 distinct keys, never beyond capacity")
    func bound() {
        var w = DuplicateWindow(capacity: 100)
        for i in 0..<1000 { _ = w.insert(.init(a: 0, b: UInt64(i), c: 0), time: Double(i)) }
        var recognised = [Bool]()
        for back in [1, 50, 101, 200] {
            recognised.append(!w.insert(.init(a: 0, b: UInt64(1000 - back), c: 0), time: Double(1000 - back)))
        }
        #expect(recognised == [true, true, false, false])
    }
}

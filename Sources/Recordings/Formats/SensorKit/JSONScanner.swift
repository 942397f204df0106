#if canImport(Glibc)
    import Glibc
#endif

/// A problem found while scanning one JSON record: byte offset within the record, code, message.
struct ScanError: Error {
    var code: RecordingError.Code
    var offset: Int
    var message: String

    init(_ code: RecordingError.Code, at offset: Int, _ message: String) {
        self.code = code
        self.offset = offset
        self.message = message
    }
}

/// A strict, allocation-free JSON (RFC 8259) pull scanner over one record held in memory
/// (an NDJSON line, or one element of a MyDataHelps `samples` array).
///
/// The SensorKit decoder drives it with the schema in hand: it asks for the value it expects
/// (`readDouble`, `readUInt64`, `beginObject`, …), so numbers go straight into column buffers
/// without an intermediate document tree. Everything RFC 8259 forbids is rejected with the byte
/// offset of the offending token: invalid UTF-8 (RFC 3629) or unescaped control characters in
/// strings, unpaired surrogate escapes, leading zeros, `NaN`/`Infinity`, trailing garbage.
struct JSONScanner {
    let base: UnsafePointer<UInt8>
    let count: Int
    /// Current offset.
    var i = 0
    /// The last key read by ``nextKey(_:)``: its bytes (escapes undecoded) and, if it contained
    /// escapes, its decoded form.
    var keyStart = 0
    var keyLength = 0
    var keyHadEscapes = false
    /// Deepest nesting accepted when skipping unknown values.
    static let maximumDepth = 256
    /// Counting mode, for the samples of a line already known to be malformed: strings are not
    /// validated (invalid UTF-8, control characters, bad escapes pass) and ``skipValue(depth:)``
    /// follows brackets iteratively, without a depth limit, so that a line's samples can be
    /// counted (as rejected) even where strict parsing failed.
    var lenient = false

    init(base: UnsafePointer<UInt8>, count: Int) {
        self.base = base
        self.count = count
    }

    // MARK: - Bytes

    @inline(__always) var atEnd: Bool { i >= count }

    @inline(__always) func byte(_ k: Int) -> UInt8 { k < count ? base[k] : 0 }

    @inline(__always) mutating func skipWhitespace() {
        while i < count {
            let c = base[i]
            if c == 0x20 || c == 0x0A || c == 0x0D || c == 0x09 { i += 1 } else { return }
        }
    }

    /// What the value starting at `i` looks like, for messages.
    func found(at k: Int) -> String {
        guard k < count else { return "the end of the line" }
        switch base[k] {
        case UInt8(ascii: "\""): return "a string"
        case UInt8(ascii: "{"): return "an object"
        case UInt8(ascii: "["): return "an array"
        case UInt8(ascii: "t"), UInt8(ascii: "f"): return "a boolean"
        case UInt8(ascii: "n"): return "null"
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return "a number"
        case let c where c >= 0x21 && c < 0x7F: return "'\(Character(Unicode.Scalar(c)))'"
        case let c: return "byte 0x\(String(c, radix: 16, uppercase: true))"
        }
    }

    func truncated(_ expected: String) -> ScanError {
        ScanError(.truncated, at: count, "the line ends before the JSON value is complete (expected \(expected))")
    }

    func wrongType(_ expected: String, _ field: StaticString) -> ScanError {
        if i >= count { return truncated(expected + " for '\(field)'") }
        if let nonFinite = nonFiniteToken(at: i) {
            return ScanError(
                .nonFinite, at: i,
                "'\(field)' is \(nonFinite), which is not a JSON number "
                    + "(RFC 8259 §6); expected a finite number")
        }
        return ScanError(.wrongType, at: i, "expected \(expected) for '\(field)', found \(found(at: i))")
    }

    /// `NaN`, `Infinity` or `-Infinity` at `k` (common non-JSON output of some encoders).
    func nonFiniteToken(at k: Int) -> String? {
        func matches(_ s: StaticString, _ from: Int) -> Bool {
            let n = s.utf8CodeUnitCount
            return from + n <= count && memcmp(base + from, s.utf8Start, n) == 0
        }
        if matches("NaN", k) { return "NaN" }
        if matches("Infinity", k) { return "Infinity" }
        if matches("-Infinity", k) { return "-Infinity" }
        return nil
    }

    /// Consumes `c` after optional whitespace.
    @inline(__always)
    mutating func expect(_ c: UInt8, _ what: StaticString) throws(ScanError) {
        skipWhitespace()
        guard i < count else { throw truncated("\(what)") }
        guard base[i] == c else {
            throw ScanError(.syntax, at: i, "expected \(what), found \(found(at: i))")
        }
        i += 1
    }

    /// Consumes `literal` when the bytes at the current offset are exactly it (no whitespace
    /// skipped); otherwise leaves the offset.
    /// - Complexity: O(literal length).
    @inline(__always)
    mutating func consume(_ literal: StaticString) -> Bool {
        let n = literal.utf8CodeUnitCount
        guard i + n <= count, Self.equalBytes(UnsafeRawPointer(base + i), UnsafeRawPointer(literal.utf8Start), n) else {
            return false
        }
        i += n
        return true
    }

    /// Requires that only whitespace remains.
    mutating func expectEnd() throws(ScanError) {
        skipWhitespace()
        if i < count {
            throw ScanError(.syntax, at: i, "unexpected \(found(at: i)) after the end of the JSON object")
        }
    }

    // MARK: - Objects and arrays

    /// Consumes `{` of an object expected for `field`.
    @inline(__always)
    mutating func beginObject(_ field: StaticString) throws(ScanError) {
        skipWhitespace()
        guard i < count, base[i] == UInt8(ascii: "{") else { throw wrongType("an object", field) }
        i += 1
    }

    /// Consumes `[` of an array expected for `field`.
    @inline(__always)
    mutating func beginArray(_ field: StaticString) throws(ScanError) {
        skipWhitespace()
        guard i < count, base[i] == UInt8(ascii: "[") else { throw wrongType("an array", field) }
        i += 1
    }

    /// Advances to the next member of the current object: reads its key and the `:`.
    /// - Returns: `false` at the closing `}` (consumed).
    @inline(__always)
    mutating func nextKey(_ first: inout Bool) throws(ScanError) -> Bool {
        skipWhitespace()
        guard i < count else { throw truncated(first ? "a key or '}'" : "',' or '}'") }
        var c = base[i]
        if c == UInt8(ascii: "}") { i += 1; return false }
        if !first {
            guard c == UInt8(ascii: ",") else {
                throw ScanError(.syntax, at: i, "expected ',' or '}' after an object member, found \(found(at: i))")
            }
            i += 1
            skipWhitespace()
            guard i < count else { throw truncated("a key") }
            c = base[i]
        }
        guard c == UInt8(ascii: "\"") else {
            throw ScanError(.syntax, at: i, "expected a quoted key, found \(found(at: i))")
        }
        // A plain key of at most 15 bytes (the keys of a sample) in two 8-byte words: its
        // closing quote is the first byte that is a quote, backslash, control or non-ASCII
        // byte (the test of ``scanString()``), so it reads the same key without the call.
        var plain = 0
        while plain < 16 && i + plain + 9 <= count {
            let w = UnsafeRawPointer(base + i + 1 + plain).loadUnaligned(as: UInt64.self)
            let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
            let q = w ^ (ones &* 0x22), b = w ^ (ones &* 0x5C)
            let m = ((q &- ones) & ~q | (b &- ones) & ~b | (w &- ones &* 0x20) & ~w | w) & highs
            guard m != 0 else {
                plain += 8
                continue
            }
            plain += m.trailingZeroBitCount >> 3
            guard base[i + 1 + plain] == UInt8(ascii: "\"") else { break }
            keyStart = i + 1
            keyLength = plain
            keyHadEscapes = false
            i += plain + 2
            try expect(UInt8(ascii: ":"), "':' after a key")
            first = false
            return true
        }
        let (s, n, escaped) = try scanString()
        keyStart = s
        keyLength = n
        keyHadEscapes = escaped
        try expect(UInt8(ascii: ":"), "':' after a key")
        first = false
        return true
    }

    /// Advances to the next element of the current array.
    /// - Returns: `false` at the closing `]` (consumed).
    @inline(__always)
    mutating func nextElement(_ first: inout Bool) throws(ScanError) -> Bool {
        skipWhitespace()
        guard i < count else { throw truncated(first ? "a value or ']'" : "',' or ']'") }
        let c = base[i]
        if c == UInt8(ascii: "]") { i += 1; return false }
        if !first {
            guard c == UInt8(ascii: ",") else {
                throw ScanError(.syntax, at: i, "expected ',' or ']' after an array element, found \(found(at: i))")
            }
            i += 1
        }
        first = false
        return true
    }

    /// Whether the last key equals `name` (keys with escapes are compared decoded).
    @inline(__always)
    func keyIs(_ name: StaticString) -> Bool {
        let n = name.utf8CodeUnitCount
        guard keyLength == n else { return keyHadEscapes && key == name.description }
        if keyHadEscapes { return key == name.description }
        return Self.equalBytes(UnsafeRawPointer(base + keyStart), UnsafeRawPointer(name.utf8Start), n)
    }

    /// `memcmp(a, b, n) == 0` for short keys without a library call: two overlapping 8-byte
    /// words for 8 ≤ n ≤ 16, a byte loop otherwise.
    @inline(__always)
    static func equalBytes(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer, _ n: Int) -> Bool {
        if n >= 8 && n <= 16 {
            return a.loadUnaligned(as: UInt64.self) == b.loadUnaligned(as: UInt64.self)
                && a.loadUnaligned(fromByteOffset: n - 8, as: UInt64.self) == b.loadUnaligned(fromByteOffset: n - 8, as: UInt64.self)
        }
        if n > 16 { return memcmp(a, b, n) == 0 }
        for i in 0..<n where a.load(fromByteOffset: i, as: UInt8.self) != b.load(fromByteOffset: i, as: UInt8.self) {
            return false
        }
        return true
    }

    /// The last key, decoded.
    var key: String { decodeString(start: keyStart, length: keyLength, escaped: keyHadEscapes) }

    // MARK: - Strings

    /// Scans a string starting at the opening quote at `i`, validating escapes and UTF-8.
    /// - Returns: start offset and length of the content (escapes undecoded), and whether it
    ///   contains escapes.
    mutating func scanString() throws(ScanError) -> (Int, Int, Bool) {
        i += 1
        let start = i
        var escaped = false
        while true {
            // Skip 8 plain bytes at a time (SWAR): stop at the first '"', '\\', control
            // character or non-ASCII byte (the lowest flagged byte is exact; only bytes above a
            // flagged one can be flagged spuriously).
            while i + 8 <= count {
                let w = UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)
                let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
                let q = w ^ (ones &* 0x22), b = w ^ (ones &* 0x5C)
                let m = ((q &- ones) & ~q | (b &- ones) & ~b | (w &- ones &* 0x20) & ~w | w) & highs
                if m == 0 { i += 8 } else { i += m.trailingZeroBitCount >> 3; break }
            }
            guard i < count else { throw truncated("the closing '\"' of a string") }
            let c = base[i]
            if c == UInt8(ascii: "\"") {
                i += 1
                return (start, i - 1 - start, escaped)
            } else if c == UInt8(ascii: "\\") {
                escaped = true
                if lenient { i += 2 } else { try scanEscape() }
            } else if lenient {
                i += 1
            } else if c < 0x20 {
                throw ScanError(
                    .syntax, at: i,
                    "control character U+00\(c < 16 ? "0" : "")"
                        + "\(String(c, radix: 16, uppercase: true)) must be escaped in a string")
            } else if c < 0x80 {
                i += 1
            } else {
                i += try utf8SequenceLength(at: i)
            }
        }
    }

    /// Validates one escape at `i` (the backslash) and moves past it.
    mutating func scanEscape() throws(ScanError) {
        guard i + 1 < count else { throw truncated("an escape sequence") }
        switch base[i + 1] {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"),
            UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
            i += 2
        case UInt8(ascii: "u"):
            let u = try hex4(at: i + 2)
            if u >= 0xD800 && u <= 0xDBFF {
                guard byte(i + 6) == UInt8(ascii: "\\"), byte(i + 7) == UInt8(ascii: "u"),
                    let low = try? hex4(at: i + 8), low >= 0xDC00 && low <= 0xDFFF
                else {
                    throw ScanError(.invalidUTF8, at: i, "unpaired UTF-16 surrogate escape in a string")
                }
                i += 12
            } else if u >= 0xDC00 && u <= 0xDFFF {
                throw ScanError(.invalidUTF8, at: i, "unpaired UTF-16 surrogate escape in a string")
            } else {
                i += 6
            }
        default:
            throw ScanError(.syntax, at: i, "invalid escape sequence in a string")
        }
    }

    func hex4(at k: Int) throws(ScanError) -> UInt32 {
        guard k + 4 <= count else { throw truncated("four hexadecimal digits after \\u") }
        var v: UInt32 = 0
        for j in k..<k + 4 {
            guard let d = Self.hexDigit(base[j]) else {
                throw ScanError(.syntax, at: j, "expected four hexadecimal digits after \\u")
            }
            v = v << 4 | d
        }
        return v
    }

    /// The value of a hexadecimal digit (`0-9a-fA-F`), or nil.
    @inline(__always)
    static func hexDigit(_ c: UInt8) -> UInt32? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(c - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(c - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(c - UInt8(ascii: "A") + 10)
        default: nil
        }
    }

    /// Length of the valid UTF-8 sequence starting at `k` (a non-ASCII lead byte), following
    /// the well-formed byte sequences of Unicode §3.9, Table 3-7 (no overlongs, surrogates or
    /// values above U+10FFFF).
    func utf8SequenceLength(at k: Int) throws(ScanError) -> Int {
        let c0 = base[k]
        var n = 0
        var lo: UInt8 = 0x80, hi: UInt8 = 0xBF
        switch c0 {
        case 0xC2...0xDF: n = 2
        case 0xE0: n = 3; lo = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: n = 3
        case 0xED: n = 3; hi = 0x9F
        case 0xF0: n = 4; lo = 0x90
        case 0xF1...0xF3: n = 4
        case 0xF4: n = 4; hi = 0x8F
        default:
            throw ScanError(.invalidUTF8, at: k, "invalid UTF-8 byte 0x\(String(c0, radix: 16, uppercase: true)) in a string")
        }
        for j in 1..<n {
            let c = byte(k + j)
            let (l, h) = j == 1 ? (lo, hi) : (UInt8(0x80), UInt8(0xBF))
            guard k + j < count, c >= l && c <= h else {
                throw ScanError(.invalidUTF8, at: k, "invalid UTF-8 sequence in a string")
            }
        }
        return n
    }

    /// Decodes a string's content. Content ``scanString()`` validated decodes exactly; content
    /// scanned leniently (the sample count of a malformed line reads its keys this way) may hold
    /// broken escapes: a `\u` without four hexadecimal digits or an unpaired surrogate becomes
    /// U+FFFD, a backslash at the end is kept, so no input makes decoding fail.
    func decodeString(start: Int, length: Int, escaped: Bool) -> String {
        let raw = UnsafeBufferPointer(start: base + start, count: length)
        guard escaped else { return String(decoding: raw, as: UTF8.self) }
        var out = [UInt8]()
        out.reserveCapacity(length)
        var k = 0
        // Four hexadecimal digits at `at`, or nil.
        func hex(_ at: Int) -> UInt32? {
            guard at >= 0, at + 4 <= length else { return nil }
            var v: UInt32 = 0
            for j in at..<at + 4 {
                guard let d = Self.hexDigit(raw[j]) else { return nil }
                v = v << 4 | d
            }
            return v
        }
        let replacement: [UInt8] = [0xEF, 0xBF, 0xBD] // U+FFFD
        while k < length {
            let c = raw[k]
            guard c == UInt8(ascii: "\\"), k + 1 < length else { out.append(c); k += 1; continue }
            let e = raw[k + 1]
            switch e {
            case UInt8(ascii: "b"): out.append(0x08); k += 2
            case UInt8(ascii: "f"): out.append(0x0C); k += 2
            case UInt8(ascii: "n"): out.append(0x0A); k += 2
            case UInt8(ascii: "r"): out.append(0x0D); k += 2
            case UInt8(ascii: "t"): out.append(0x09); k += 2
            case UInt8(ascii: "u"):
                guard let u = hex(k + 2) else { out.append(contentsOf: replacement); k += 2; continue }
                k += 6
                var scalar: UInt32? = u
                if u >= 0xD800 && u <= 0xDBFF {
                    if k + 1 < length, raw[k] == UInt8(ascii: "\\"), raw[k + 1] == UInt8(ascii: "u"),
                        let low = hex(k + 2), low >= 0xDC00 && low <= 0xDFFF
                    {
                        scalar = 0x10000 + ((u - 0xD800) << 10) + (low - 0xDC00)
                        k += 6
                    } else {
                        scalar = nil
                    }
                }
                if let scalar, let v = Unicode.Scalar(scalar) {
                    out.append(contentsOf: String(Character(v)).utf8)
                } else {
                    out.append(contentsOf: replacement)
                }
            default: out.append(e); k += 2
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Reads a string value expected for `field`.
    /// - Returns: start, length (undecoded content) and whether it has escapes.
    @inline(__always)
    mutating func readStringRange(_ field: StaticString) throws(ScanError) -> (Int, Int, Bool) {
        skipWhitespace()
        guard i < count, base[i] == UInt8(ascii: "\"") else { throw wrongType("a string", field) }
        return try scanString()
    }

    /// Reads and decodes a string value expected for `field`.
    mutating func readString(_ field: StaticString) throws(ScanError) -> String {
        let (s, n, e) = try readStringRange(field)
        return decodeString(start: s, length: n, escaped: e)
    }

    // MARK: - Literals

    /// Consumes `null` if it is next.
    @inline(__always)
    mutating func readNull() -> Bool {
        skipWhitespace()
        if i + 4 <= count && base[i] == UInt8(ascii: "n") && base[i + 1] == UInt8(ascii: "u")
            && base[i + 2] == UInt8(ascii: "l") && base[i + 3] == UInt8(ascii: "l")
        {
            i += 4
            return true
        }
        return false
    }

    mutating func literal(_ s: StaticString) throws(ScanError) {
        let n = s.utf8CodeUnitCount
        guard i + n <= count, memcmp(base + i, s.utf8Start, n) == 0 else {
            if i + n > count && memcmp(base + i, s.utf8Start, count - i) == 0 { throw truncated("'\(s)'") }
            throw ScanError(.syntax, at: i, "expected a JSON value, found \(found(at: i))")
        }
        i += n
    }

    // MARK: - Numbers

    /// Scans a number token (RFC 8259 §6 grammar) at `i` into its significand `w` (at most 19
    /// significant digits) and exponent `q`; `exact` is false if non-zero digits were dropped.
    @inline(__always)
    mutating func scanNumber(_ field: StaticString) throws(ScanError)
        -> (w: UInt64, q: Int, negative: Bool, exact: Bool, start: Int)
    {
        let start = i
        var j = i
        var negative = false
        if j < count && base[j] == UInt8(ascii: "-") { negative = true; j += 1 }
        guard j < count else { throw truncated("a number for '\(field)'") }
        var w: UInt64 = 0
        var digits = 0
        var q = 0
        var exact = true
        var d = base[j] &- 0x30
        if d == 0 {
            j += 1
            if j < count && base[j] &- 0x30 < 10 {
                throw ScanError(.syntax, at: start, "'\(field)': a JSON number must not have leading zeros")
            }
        } else if d < 10 {
            // Eight digits at a time while they fit the 19 kept (the same w, as digit by digit).
            while digits <= 11, let eight = eightDigits(at: j) {
                w = w &* 100_000_000 &+ eight
                digits += 8
                j += 8
            }
            d = j < count ? base[j] &- 0x30 : 255
            while d < 10 {
                if digits < 19 { w = w &* 10 &+ UInt64(d); digits += 1 } else { q += 1; if d != 0 { exact = false } }
                j += 1
                d = j < count ? base[j] &- 0x30 : 255
            }
        } else {
            i = start
            if negative && nonFiniteToken(at: start) == nil {
                throw ScanError(.syntax, at: j, "expected a digit after '-' in '\(field)'")
            }
            throw wrongType("a number", field)
        }
        if j < count && base[j] == UInt8(ascii: ".") {
            j += 1
            d = j < count ? base[j] &- 0x30 : 255
            guard d < 10 else {
                if j >= count { throw truncated("a digit after '.' in '\(field)'") }
                throw ScanError(.syntax, at: j, "expected a digit after '.' in '\(field)'")
            }
            // Eight digits at a time once a non-zero digit is kept (leading zeros of the fraction
            // count no digit) and while they fit the 19 kept; after the first miss fewer than
            // eight digits remain, so digit by digit.
            var wide = true
            repeat {
                if wide && w != 0 {
                    if digits <= 11, let eight = eightDigits(at: j) {
                        w = w &* 100_000_000 &+ eight
                        digits += 8
                        q -= 8
                        j += 8
                        d = j < count ? base[j] &- 0x30 : 255
                        continue
                    }
                    wide = false
                }
                if w == 0 && d == 0 {
                    q -= 1
                } else if digits < 19 {
                    w = w &* 10 &+ UInt64(d); digits += 1; q -= 1
                } else if d != 0 {
                    exact = false
                }
                j += 1
                d = j < count ? base[j] &- 0x30 : 255
            } while d < 10
        }
        if j < count && (base[j] | 0x20) == UInt8(ascii: "e") {
            j += 1
            var expNegative = false
            if j < count && (base[j] == UInt8(ascii: "-") || base[j] == UInt8(ascii: "+")) {
                expNegative = base[j] == UInt8(ascii: "-")
                j += 1
            }
            d = j < count ? base[j] &- 0x30 : 255
            guard d < 10 else {
                if j >= count { throw truncated("exponent digits in '\(field)'") }
                throw ScanError(.syntax, at: j, "expected exponent digits in '\(field)'")
            }
            var e = 0
            repeat {
                if e < 1_000_000 { e = e * 10 + Int(d) }
                j += 1
                d = j < count ? base[j] &- 0x30 : 255
            } while d < 10
            q += expNegative ? -e : e
        }
        i = j
        return (w, q, negative, exact, start)
    }

    /// The value of the eight ASCII digits at `k`, or `nil` when fewer than eight bytes remain or
    /// one of them is not a digit (SWAR: one 8-byte load, three multiplications; Lemire,
    /// "Number parsing at a gigabyte per second", Software: Practice and Experience 51(8), 2021,
    /// doi:10.1002/spe.2984, and simdjson's `parse_eight_digits_unrolled`).
    /// - Complexity: O(1).
    @inline(__always)
    func eightDigits(at k: Int) -> UInt64? {
        guard k + 8 <= count else { return nil }
        let v = UInt64(littleEndian: UnsafeRawPointer(base + k).loadUnaligned(as: UInt64.self))
        // Every byte in 0x30…0x39: its high nibble is 3, and adding 6 keeps it 3.
        guard (v & 0xF0F0_F0F0_F0F0_F0F0) | (((v &+ 0x0606_0606_0606_0606) & 0xF0F0_F0F0_F0F0_F0F0) >> 4) == 0x3333_3333_3333_3333
        else { return nil }
        var x = v & 0x0F0F_0F0F_0F0F_0F0F
        x = (x &* 2561) >> 8
        x = ((x & 0x00FF_00FF_00FF_00FF) &* 6_553_601) >> 16
        return ((x & 0x0000_FFFF_0000_FFFF) &* 42_949_672_960_001) >> 32
    }

    /// Reads a finite number expected for `field`, correctly rounded (equal to Swift's
    /// `Double(String)` for every token; see ``DecimalNumber``).
    /// - Throws: `.wrongType` for non-numbers, `.nonFinite` for `NaN`/`Infinity`,
    ///   `.outOfRange` for numbers beyond ±`Double.greatestFiniteMagnitude`.
    @inline(__always)
    mutating func readDouble(_ field: StaticString) throws(ScanError) -> Double {
        skipWhitespace()
        let n = try scanNumber(field)
        if n.exact, let v = DecimalNumber.fastDouble(n.w, n.q, negative: n.negative), v.isFinite { return v }
        return try slowDouble(field, n.start)
    }

    /// The fallback conversion (more than 19 digits, subnormals, overflow).
    @inline(never)
    func slowDouble(_ field: StaticString, _ start: Int) throws(ScanError) -> Double {
        let token = String(decoding: UnsafeBufferPointer(start: base + start, count: i - start), as: UTF8.self)
        guard let v = Double(token), v.isFinite else {
            throw ScanError(.outOfRange, at: start, "'\(field)' = \(token) is too large for a double")
        }
        return v
    }

    /// Reads a number or `null` (returned as `nil`).
    @inline(__always)
    mutating func readNullableDouble(_ field: StaticString) throws(ScanError) -> Double? {
        if readNull() { return nil }
        return try readDouble(field)
    }

    /// Scans an integer token exactly: magnitude and sign; rejects fractions and exponents.
    @inline(__always)
    mutating func scanInteger(_ field: StaticString) throws(ScanError) -> (magnitude: UInt64, negative: Bool, start: Int) {
        skipWhitespace()
        let start = i
        var j = i
        var negative = false
        if j < count && base[j] == UInt8(ascii: "-") { negative = true; j += 1 }
        guard j < count else { throw truncated("an integer for '\(field)'") }
        var d = base[j] &- 0x30
        guard d < 10 else {
            i = start
            if negative && nonFiniteToken(at: start) == nil {
                throw ScanError(.syntax, at: j, "expected a digit after '-' in '\(field)'")
            }
            throw wrongType("an integer", field)
        }
        if d == 0 && j + 1 < count && base[j + 1] &- 0x30 < 10 {
            throw ScanError(.syntax, at: start, "'\(field)': a JSON number must not have leading zeros")
        }
        var v: UInt64 = 0
        var overflow = false
        var digits = 0
        repeat {
            if digits < 19 {
                v = v &* 10 &+ UInt64(d) // < 10^19 < 2^64: cannot overflow
            } else {
                let (m, o1) = v.multipliedReportingOverflow(by: 10)
                let (s, o2) = m.addingReportingOverflow(UInt64(d))
                overflow = overflow || o1 || o2
                v = s
            }
            digits += 1
            j += 1
            d = j < count ? base[j] &- 0x30 : 255
        } while d < 10
        if j < count && (base[j] == UInt8(ascii: ".") || base[j] | 0x20 == UInt8(ascii: "e")) {
            throw ScanError(.wrongType, at: start, "expected an integer for '\(field)', found a number with a fraction or exponent")
        }
        i = j
        if overflow {
            throw ScanError(
                .outOfRange, at: start,
                "'\(field)' = \(String(decoding: UnsafeBufferPointer(start: base + start, count: j - start), as: UTF8.self)) does not fit in 64 bits"
            )
        }
        return (v, negative, start)
    }

    /// Reads a non-negative integer (`UInt64`, e.g. SensorKit `identifier`), exactly.
    @inline(__always)
    mutating func readUInt64(_ field: StaticString) throws(ScanError) -> UInt64 {
        let (v, negative, start) = try scanInteger(field)
        if negative && v != 0 {
            throw ScanError(.outOfRange, at: start, "'\(field)' must not be negative")
        }
        return v
    }

    /// Reads a signed integer (`Int64`, e.g. `nanosecondsSinceStart`), exactly.
    @inline(__always)
    mutating func readInt64(_ field: StaticString) throws(ScanError) -> Int64 {
        let (v, negative, start) = try scanInteger(field)
        if negative {
            guard v <= UInt64(Int64.max) + 1 else {
                throw ScanError(.outOfRange, at: start, "'\(field)' does not fit in a signed 64-bit integer")
            }
            return v == UInt64(Int64.max) + 1 ? Int64.min : -Int64(v)
        }
        guard v <= UInt64(Int64.max) else {
            throw ScanError(.outOfRange, at: start, "'\(field)' does not fit in a signed 64-bit integer")
        }
        return Int64(v)
    }

    // MARK: - Skipping

    @inline(__always) static func endsToken(_ c: UInt8) -> Bool {
        c == UInt8(ascii: ",") || c == UInt8(ascii: "]") || c == UInt8(ascii: "}") || c == 0x20 || c == 0x09
            || c == 0x0A || c == 0x0D
    }

    /// Skips an object or array at `i` by its brackets (strings stepped over), iteratively: the
    /// counting mode's skip, for nesting of any depth.
    mutating func skipNested() throws(ScanError) {
        var depth = 0
        while i < count {
            let c = base[i]
            if c == UInt8(ascii: "\"") {
                i += 1
                while i < count && base[i] != UInt8(ascii: "\"") { i += base[i] == UInt8(ascii: "\\") ? 2 : 1 }
            } else if c == UInt8(ascii: "{") || c == UInt8(ascii: "[") {
                depth += 1
            } else if c == UInt8(ascii: "}") || c == UInt8(ascii: "]") {
                depth -= 1
                if depth == 0 {
                    i += 1
                    return
                }
            }
            i += 1
        }
        throw truncated("the end of a nested value")
    }

    /// Skips (and strictly validates) one JSON value of any type.
    mutating func skipValue(depth: Int = 0) throws(ScanError) {
        skipWhitespace()
        guard i < count else { throw truncated("a JSON value") }
        if lenient {
            switch base[i] {
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                try skipNested()
                return
            case UInt8(ascii: "\""):
                break
            default:
                // Any scalar token (NaN, 1e999, tru): up to the next delimiter.
                let from = i
                while i < count, !Self.endsToken(base[i]) { i += 1 }
                guard i > from else { throw ScanError(.syntax, at: i, "expected a JSON value, found \(found(at: i))") }
                return
            }
        }
        guard depth < JSONScanner.maximumDepth else {
            throw ScanError(.syntax, at: i, "JSON nesting deeper than \(JSONScanner.maximumDepth) levels")
        }
        switch base[i] {
        case UInt8(ascii: "{"):
            i += 1
            var first = true
            while try nextKey(&first) { try skipValue(depth: depth + 1) }
        case UInt8(ascii: "["):
            i += 1
            var first = true
            while try nextElement(&first) { try skipValue(depth: depth + 1) }
        case UInt8(ascii: "\""):
            _ = try scanString()
        case UInt8(ascii: "t"): try literal("true")
        case UInt8(ascii: "f"): try literal("false")
        case UInt8(ascii: "n"): try literal("null")
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            if let nf = nonFiniteToken(at: i) {
                throw ScanError(.nonFinite, at: i, "\(nf) is not a JSON number (RFC 8259 §6)")
            }
            _ = try scanNumber("value")
        default:
            if let nf = nonFiniteToken(at: i) {
                throw ScanError(.nonFinite, at: i, "\(nf) is not a JSON number (RFC 8259 §6)")
            }
            throw ScanError(.syntax, at: i, "expected a JSON value, found \(found(at: i))")
        }
    }
}

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A streaming XML tokenizer for Apple Health's `export.xml`: start and end tags with their
/// attributes, nothing else kept, in constant memory.
///
/// It reads the subset of XML 1.0 (W3C Recommendation, 5th edition, 2008) that exports use:
/// elements with attributes in any order, quoted with `"` or `'` (§3.1); the predefined entities
/// `&amp; &lt; &gt; &quot; &apos;` and character references `&#N;`/`&#xH;` in attribute values
/// (§4.1, §4.6); the XML declaration and processing instructions, comments, CDATA sections
/// and character data are skipped (§2.5–2.8); the document type declaration is skipped with
/// its internal subset (§2.8; exports of version 3 to 13 carry the HealthKit DTD there).
/// Entities declared in a DTD are never expanded: a reference to one is an error, so an
/// "entity expansion" (billion laughs) input is a located error, not a memory blow-up.
///
/// **Bounds.** One tag (name and attributes) may hold at most ``maximumTagBytes``; elements nest
/// at most ``maximumDepth`` deep. The buffer starts at the input's size (when known) or one read
/// chunk, at least ``minimumCapacity``, and doubles only when a tag does not fit, up to
/// ``maximumTagBytes`` + the read chunk, so memory depends neither on the file nor, for small
/// inputs, on the bound. Every error names the file and the byte offset of the token in the
/// (decompressed) content.
///
/// **Speed.** Bytes are scanned in place (`memchr` for `<` and for the closing quote of a value);
/// names and values are handed out as byte ranges of the buffer (``rawValue(_:)``,
/// ``attribute(_:)``), so a caller builds a `String` only for a value it keeps.
///
/// Not checked (a tokenizer, not a validating parser): that attribute names are unique within
/// a tag and that names are valid XML names beyond "no whitespace, `=`, `/`, `>`".
final class HealthXMLTokenizer {
    /// What ``next()`` found.
    enum Token: Equatable {
        /// A start tag; `selfClosing` for `<name …/>`. Name and attributes stay readable until
        /// the next call.
        case start(selfClosing: Bool)
        /// An end tag `</name>`; the name is readable until the next call.
        case end
    }

    /// Longest tag accepted (bytes from `<` to `>`).
    static let maximumTagBytes = 1 << 20
    /// Deepest element nesting accepted.
    static let maximumDepth = 64
    /// Smallest buffer allocated (bytes).
    static let minimumCapacity = 4096

    /// The file, for error messages.
    let path: String
    /// Where bytes come from: fills the buffer, returns the count (0 at the end).
    private let source: (UnsafeMutableRawBufferPointer) throws(RecordingError) -> Int
    private var buffer: UnsafeMutablePointer<UInt8>
    /// Bytes allocated now (grows up to ``maximumCapacity``).
    private(set) var capacity: Int
    /// Largest buffer: the longest tag plus one read.
    private let maximumCapacity: Int
    private let chunk: Int
    private var start = 0
    private var end = 0
    private var eof = false
    /// Content offset of `buffer[0]`.
    private var base = 0
    /// Current element depth.
    private(set) var depth = 0
    /// Name of the current tag (offsets into the buffer).
    private var nameRange = 0..<0
    /// Attributes of the current start tag.
    private(set) var attributeCount = 0
    /// Four offsets into the buffer per attribute: name start and end, raw value start and end
    /// (``boundsCapacity`` Ints, doubled when a tag has more attributes).
    private var bounds: UnsafeMutablePointer<Int>
    private var boundsCapacity = 64
    /// Content offset of the current tag's `<`.
    private(set) var tagOffset = 0
    /// Names of open elements, for matching end tags (hashes; bounded by ``maximumDepth``).
    private var openNames: [UInt64] = []

    /// Creates a tokenizer over `source`.
    /// - Parameters:
    ///   - path: the file, for error messages.
    ///   - chunkSize: bytes per read (default 1 MiB).
    ///   - sizeHint: the content's length when known (a small input gets a small buffer); `nil`
    ///     when unknown (compressed input).
    ///   - source: fills a buffer, returning the bytes written (0 at the end).
    init(
        path: String, chunkSize: Int = 1 << 20, sizeHint: Int? = nil,
        source: @escaping (UnsafeMutableRawBufferPointer) throws(RecordingError) -> Int
    ) {
        precondition(chunkSize > 0)
        self.path = path
        self.source = source
        chunk = chunkSize
        maximumCapacity = Self.maximumTagBytes + chunkSize + 16
        let wanted = min(chunkSize, max(0, sizeHint ?? chunkSize)) + 16
        capacity = min(maximumCapacity, max(Self.minimumCapacity, wanted))
        buffer = .allocate(capacity: capacity)
        bounds = .allocate(capacity: 64)
    }

    deinit {
        buffer.deallocate()
        bounds.deallocate()
    }

    /// Room for the bounds of `count` attributes.
    private func reserveBounds(_ count: Int) {
        guard 4 * count > boundsCapacity else { return }
        let grown = max(4 * count, 2 * boundsCapacity)
        let larger = UnsafeMutablePointer<Int>.allocate(capacity: grown)
        larger.update(from: bounds, count: boundsCapacity)
        bounds.deallocate()
        bounds = larger
        boundsCapacity = grown
    }

    /// Bytes of content consumed so far.
    var offset: Int { base + start }

    private func error(_ code: RecordingError.Code, at offset: Int, _ message: String) -> RecordingError {
        RecordingError(code, file: path, byteOffset: offset, message)
    }

    /// Moves unread bytes to the front and reads more, doubling the buffer (up to
    /// ``maximumCapacity``) when unread bytes fill it; `false` at the end of the content.
    private func fill() throws(RecordingError) -> Bool {
        if eof { return false }
        if start > 0 {
            let n = end - start
            if n > 0 { buffer.update(from: buffer + start, count: n) }
            base += start
            end = n
            start = 0
        }
        if end == capacity {
            guard capacity < maximumCapacity else { return true }
            let grown = min(maximumCapacity, capacity * 2)
            let larger = UnsafeMutablePointer<UInt8>.allocate(capacity: grown)
            larger.update(from: buffer, count: end)
            buffer.deallocate()
            buffer = larger
            capacity = grown
        }
        let room = capacity - end
        let got = try source(UnsafeMutableRawBufferPointer(start: buffer + end, count: min(room, chunk)))
        if got == 0 {
            eof = true
            return false
        }
        end += got
        return true
    }

    /// The next start or end tag, or `nil` at the end of the document.
    /// - Throws: ``RecordingError`` (`.syntax`, `.truncated`, `.outOfRange`) with the byte offset.
    /// - Complexity: O(bytes up to and including the tag).
    func next() throws(RecordingError) -> Token? {
        while true {
            // Character data up to the next '<'.
            while true {
                if start < end, let found = memchr(buffer + start, 0x3C, end - start) {
                    start = buffer.distance(to: found.assumingMemoryBound(to: UInt8.self))
                    break
                }
                start = end
                if !(try fill()) {
                    if depth > 0 { throw error(.truncated, at: offset, "the document ends inside an element (\(depth) open)") }
                    return nil
                }
            }
            tagOffset = offset
            // Need a few bytes to tell the kind of markup.
            while end - start < 9 { if !(try fill()) { break } }
            let b1 = start + 1 < end ? buffer[start + 1] : 0
            if b1 == 0x3F { // <? … ?>
                try skip(until: [0x3F, 0x3E], what: "processing instruction")
                continue
            }
            if b1 == 0x21 { // <!
                if has("<!--") {
                    try skip(until: [0x2D, 0x2D, 0x3E], what: "comment")
                } else if has("<![CDATA[") {
                    try skip(until: [0x5D, 0x5D, 0x3E], what: "CDATA section")
                } else if has("<!DOCTYPE") {
                    try skipDoctype()
                } else {
                    throw error(.syntax, at: tagOffset, "unknown markup '<!' outside the document type declaration")
                }
                continue
            }
            return try tag()
        }
    }

    private func has(_ text: StaticString) -> Bool {
        let n = text.utf8CodeUnitCount
        guard end - start >= n else { return false }
        let p = text.utf8Start
        for i in 0..<n where buffer[start + i] != p[i] { return false }
        return true
    }

    /// Skips past `terminator` (streaming: any length).
    private func skip(until terminator: [UInt8], what: String) throws(RecordingError) {
        var p = start + 2
        let k = terminator.count
        while true {
            while p + k <= end {
                var match = true
                for i in 0..<k where buffer[p + i] != terminator[i] {
                    match = false
                    break
                }
                if match {
                    start = p + k
                    return
                }
                p += 1
            }
            // Keep the bytes not yet compared: the terminator may straddle reads.
            start = p
            if !(try fill()) { throw error(.truncated, at: tagOffset, "unterminated \(what)") }
            p = start
        }
    }

    /// Skips `<!DOCTYPE …>` with its internal subset `[ … ]`: brackets, quoted literals and
    /// comments inside are honoured, so a `>` in them does not end it.
    private func skipDoctype() throws(RecordingError) {
        var p = start + 9
        var brackets = 0
        var quote: UInt8 = 0
        var inComment = false
        while true {
            while p < end {
                let c = buffer[p]
                if inComment {
                    if c == 0x3E && p >= 2 && buffer[p - 1] == 0x2D && buffer[p - 2] == 0x2D { inComment = false }
                } else if quote != 0 {
                    if c == quote { quote = 0 }
                } else if c == 0x22 || c == 0x27 {
                    quote = c
                } else if c == 0x5B {
                    brackets += 1
                } else if c == 0x5D {
                    brackets -= 1
                } else if c == 0x21 && p + 2 < end && buffer[p - 1] == 0x3C && buffer[p + 1] == 0x2D && buffer[p + 2] == 0x2D {
                    inComment = true
                    p += 2
                } else if c == 0x3E && brackets <= 0 {
                    start = p + 1
                    return
                }
                p += 1
            }
            // Keep the last 3 bytes for the comment checks across reads.
            let keepFrom = max(start, p - 3)
            start = keepFrom
            let rel = p - start
            if !(try fill()) { throw error(.truncated, at: tagOffset, "unterminated document type declaration") }
            p = start + rel
        }
    }

    private static func isSpace(_ c: UInt8) -> Bool { c == 0x20 || c == 0x0A || c == 0x0D || c == 0x09 }

    /// Index of the first `byte` in `buffer[from..<to]`, or `to`.
    @inline(__always)
    private func find(_ byte: UInt8, from: Int, to: Int) -> Int {
        guard from < to, let found = memchr(buffer + from, Int32(byte), to - from) else { return to }
        return buffer.distance(to: found.assumingMemoryBound(to: UInt8.self))
    }

    /// Reads one start or end tag at `start` (`buffer[start] == '<'`).
    private func tag() throws(RecordingError) -> Token {
        if let token = try fastStartTag() { return token }
        return try slowTag()
    }

    /// One pass over a start tag as exports write it, all in the buffer: a name, then
    /// ` name="value"` (or `'value'`) pairs, then `>` or `/>`. `nil` for anything else (an end
    /// tag, white space around `=`, a quote or `<` in a name, a tag the buffer does not hold yet),
    /// which ``slowTag()`` then reads, so both give the same tokens and errors on every input.
    @inline(__always)
    private func fastStartTag() throws(RecordingError) -> Token? {
        let b = buffer
        let e = end
        let s = start
        var q = s + 1
        while q < e {
            let c = b[q]
            if Self.isSpace(c) || c == 0x2F || c == 0x3E { break }
            if c == 0x3D || c == 0x3C || c == 0x22 || c == 0x27 { return nil }
            q += 1
        }
        guard q < e, q > s + 1 else { return nil }
        let name = (s + 1)..<q
        var count = 0
        var close = 0
        var selfClosing = false
        while true {
            let q0 = q
            while q < e && Self.isSpace(b[q]) { q += 1 }
            guard q < e else { return nil }
            var c = b[q]
            if c == 0x3E {
                close = q
                break
            }
            if c == 0x2F {
                guard q + 1 < e, b[q + 1] == 0x3E else { return nil }
                close = q + 1
                selfClosing = true
                break
            }
            guard q > q0 else { return nil }
            let a0 = q
            while q < e {
                c = b[q]
                if c == 0x3D || Self.isSpace(c) { break }
                if c == 0x3C || c == 0x3E || c == 0x22 || c == 0x27 || c == 0x2F { return nil }
                q += 1
            }
            guard q + 1 < e, c == 0x3D, q > a0 else { return nil }
            let quote = b[q + 1]
            guard quote == 0x22 || quote == 0x27 else { return nil }
            let v0 = q + 2
            guard v0 < e, let found = memchr(b + v0, Int32(quote), e - v0) else { return nil }
            q = b.distance(to: found.assumingMemoryBound(to: UInt8.self))
            if 4 * count + 4 > boundsCapacity { reserveBounds(count + 1) }
            let r = bounds + 4 * count
            r[0] = a0
            r[1] = v0 - 2 // at the '=' sign
            r[2] = v0
            r[3] = q
            count += 1
            q += 1
            guard q < e else { return nil }
            c = b[q]
            guard Self.isSpace(c) || c == 0x2F || c == 0x3E else { return nil }
        }
        guard close - s < Self.maximumTagBytes else { return nil }
        nameRange = name
        attributeCount = count
        start = close + 1
        return try opened(selfClosing: selfClosing)
    }

    /// The start tag just read: unless self-closing, its element opens (nesting checked).
    private func opened(selfClosing: Bool) throws(RecordingError) -> Token {
        if !selfClosing {
            if depth >= Self.maximumDepth {
                throw error(.outOfRange, at: tagOffset, "elements nested deeper than \(Self.maximumDepth)")
            }
            depth += 1
            openNames.append(hash(nameRange))
        }
        return .start(selfClosing: selfClosing)
    }

    /// ``tag()`` for any tag: finds the closing `>` outside quotes (reading more as needed), then
    /// reads the name and attributes.
    private func slowTag() throws(RecordingError) -> Token {
        // Find the closing '>' outside quotes, reading more as needed.
        var p = start + 1
        var quote: UInt8 = 0
        while true {
            let b = buffer
            let e = end
            while p < e {
                if quote != 0 {
                    // Inside a value: jump to its closing quote.
                    p = find(quote, from: p, to: e)
                    if p < e {
                        quote = 0
                        p += 1
                    }
                    continue
                }
                let c = b[p]
                if c == 0x22 || c == 0x27 {
                    quote = c
                } else if c == 0x3E {
                    break
                } else if c == 0x3C {
                    throw error(.syntax, at: tagOffset, "'<' inside a tag (unterminated tag?)")
                }
                p += 1
            }
            if p < e { break }
            if p - start >= Self.maximumTagBytes {
                throw error(
                    .outOfRange, at: tagOffset, "tag longer than \(Self.maximumTagBytes) bytes (huge attribute or unterminated tag)")
            }
            let rel = p - start
            if !(try fill()) { throw error(.truncated, at: tagOffset, "unterminated tag") }
            p = start + rel
        }
        let close = p // index of '>'
        if close - start >= Self.maximumTagBytes {
            throw error(
                .outOfRange, at: tagOffset, "tag longer than \(Self.maximumTagBytes) bytes (huge attribute or unterminated tag)")
        }
        defer { start = close + 1 }
        let b = buffer
        var q = start + 1
        if b[q] == 0x2F { // end tag
            q += 1
            let n0 = q
            while q < close && !Self.isSpace(b[q]) { q += 1 }
            nameRange = n0..<q
            while q < close && Self.isSpace(b[q]) { q += 1 }
            guard q == close, !nameRange.isEmpty else { throw error(.syntax, at: tagOffset, "malformed end tag") }
            guard let open = openNames.popLast() else {
                throw error(.syntax, at: tagOffset, "end tag </\(name)> without a start tag")
            }
            guard open == hash(nameRange) else {
                throw error(.syntax, at: tagOffset, "end tag </\(name)> does not close the open element")
            }
            depth -= 1
            attributeCount = 0
            return .end
        }
        var last = close - 1
        let selfClosing = b[last] == 0x2F
        if selfClosing { last -= 1 }
        let n0 = q
        while q <= last && !Self.isSpace(b[q]) && b[q] != 0x2F && b[q] != 0x3D { q += 1 }
        nameRange = n0..<q
        if nameRange.isEmpty { throw error(.syntax, at: tagOffset, "tag without a name") }
        attributeCount = 0
        while true {
            let s0 = q
            while q <= last && Self.isSpace(b[q]) { q += 1 }
            if q > last { break }
            if q == s0 { throw error(.syntax, at: base + q, "attributes must be separated by white space") }
            let a0 = q
            while q <= last && !Self.isSpace(b[q]) && b[q] != 0x3D { q += 1 }
            let a1 = q
            while q <= last && Self.isSpace(b[q]) { q += 1 }
            guard a1 > a0, q <= last, b[q] == 0x3D else {
                throw error(.syntax, at: base + a0, "attribute without '=value'")
            }
            q += 1
            while q <= last && Self.isSpace(b[q]) { q += 1 }
            guard q <= last, b[q] == 0x22 || b[q] == 0x27 else {
                throw error(.syntax, at: base + q, "attribute value not quoted")
            }
            let quoteChar = b[q]
            q += 1
            let v0 = q
            q = find(quoteChar, from: q, to: last + 1)
            guard q <= last else { throw error(.syntax, at: base + v0, "unterminated attribute value") }
            reserveBounds(attributeCount + 1)
            let r = bounds + 4 * attributeCount
            r[0] = a0
            r[1] = a1
            r[2] = v0
            r[3] = q
            attributeCount += 1
            q += 1
        }
        return try opened(selfClosing: selfClosing)
    }

    /// FNV-1a 64 of a name (end tags are matched by hash and length of the open names).
    private func hash(_ r: Range<Int>) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for i in r {
            h ^= UInt64(buffer[i])
            h = h &* 0x100_0000_01b3
        }
        return h ^ UInt64(r.count)
    }

    /// The current tag's name.
    var name: String { String(decoding: UnsafeBufferPointer(start: buffer + nameRange.lowerBound, count: nameRange.count), as: UTF8.self) }

    /// Whether the current tag's name is `text`.
    func nameIs(_ text: StaticString) -> Bool { equal(nameRange, text) }

    private func equal(_ r: Range<Int>, _ text: StaticString) -> Bool {
        equal(r.lowerBound, r.upperBound, text)
    }

    @inline(__always)
    private func equal(_ lower: Int, _ upper: Int, _ text: StaticString) -> Bool {
        let n = text.utf8CodeUnitCount
        guard upper - lower == n else { return false }
        return memcmp(buffer + lower, text.utf8Start, n) == 0
    }

    /// Index of the first attribute called `text` in the current start tag, if any.
    /// - Complexity: O(attributes), names compared as bytes.
    func attribute(_ text: StaticString) -> Int? {
        let r = bounds
        for i in 0..<attributeCount where equal(r[4 * i], r[4 * i + 1], text) { return i }
        return nil
    }

    /// Name of attribute `i` as bytes, valid until the next call.
    func attributeNameBytes(_ i: Int) -> UnsafeBufferPointer<UInt8> {
        let r = bounds + 4 * i
        return UnsafeBufferPointer(start: buffer + r[0], count: r[1] - r[0])
    }

    /// Name of attribute `i`.
    func attributeName(_ i: Int) -> String {
        String(decoding: attributeNameBytes(i), as: UTF8.self)
    }

    /// Raw bytes of attribute `i`'s value (entities not decoded), valid until the next call.
    func rawValue(_ i: Int) -> UnsafeBufferPointer<UInt8> {
        let r = bounds + 4 * i
        return UnsafeBufferPointer(start: buffer + r[2], count: r[3] - r[2])
    }

    /// Attribute `i`'s value with entity and character references decoded.
    /// - Throws: `.syntax` for an unknown entity (one declared in a DTD is never expanded) or a
    ///   malformed reference, `.invalidUTF8` for bytes that are not UTF-8.
    func value(_ i: Int) throws(RecordingError) -> String {
        let raw = rawValue(i)
        let at = valueOffset(i)
        guard raw.contains(0x26) else {
            guard let s = String(validating: raw, as: UTF8.self) else {
                throw error(.invalidUTF8, at: at, "attribute \(attributeName(i)) is not valid UTF-8")
            }
            return s
        }
        var out: [UInt8] = []
        out.reserveCapacity(raw.count)
        var k = 0
        while k < raw.count {
            let c = raw[k]
            guard c == 0x26 else {
                out.append(c)
                k += 1
                continue
            }
            var e = k + 1
            while e < raw.count && raw[e] != 0x3B && e - k < 12 { e += 1 }
            guard e < raw.count, raw[e] == 0x3B else {
                throw error(.syntax, at: at + k, "'&' not followed by a reference ending in ';'")
            }
            let ref = String(decoding: UnsafeBufferPointer(rebasing: raw[(k + 1)..<e]), as: UTF8.self)
            switch ref {
            case "amp": out.append(0x26)
            case "lt": out.append(0x3C)
            case "gt": out.append(0x3E)
            case "quot": out.append(0x22)
            case "apos": out.append(0x27)
            default:
                var scalar: UInt32?
                if ref.hasPrefix("#x") {
                    scalar = UInt32(ref.dropFirst(2), radix: 16)
                } else if ref.hasPrefix("#") {
                    scalar = UInt32(ref.dropFirst(), radix: 10)
                } else {
                    throw error(
                        .syntax, at: at + k,
                        "reference to entity '&\(ref);' (only the five predefined entities are read; DTD entities are never expanded)")
                }
                guard let v = scalar, v != 0, let u = Unicode.Scalar(v) else {
                    throw error(.syntax, at: at + k, "invalid character reference '&\(ref);'")
                }
                out.append(contentsOf: Array(String(Character(u)).utf8))
            }
            k = e + 1
        }
        guard let s = String(validating: out, as: UTF8.self) else {
            throw error(.invalidUTF8, at: at, "attribute \(attributeName(i)) is not valid UTF-8")
        }
        return s
    }

    /// Content offset of attribute `i`'s value, for error messages.
    func valueOffset(_ i: Int) -> Int { base + bounds[4 * i + 2] }
}

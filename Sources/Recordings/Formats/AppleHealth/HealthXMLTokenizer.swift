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
/// at most ``maximumDepth`` deep; the buffer is allocated once (``maximumTagBytes`` + the read
/// chunk), so memory does not depend on the file. Every error names the file and the byte offset
/// of the token in the (decompressed) content.
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

    /// The file, for error messages.
    let path: String
    /// Where bytes come from: fills the buffer, returns the count (0 at the end).
    private let source: (UnsafeMutableRawBufferPointer) throws(RecordingError) -> Int
    private let buffer: UnsafeMutablePointer<UInt8>
    private let capacity: Int
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
    /// Attributes of the current start tag: name and raw value ranges into the buffer.
    private(set) var attributeCount = 0
    private var attributeNames: [Range<Int>] = []
    private var attributeValues: [Range<Int>] = []
    /// Content offset of the current tag's `<`.
    private(set) var tagOffset = 0
    /// Names of open elements, for matching end tags (hashes; bounded by ``maximumDepth``).
    private var openNames: [UInt64] = []

    /// Creates a tokenizer over `source`.
    /// - Parameters:
    ///   - path: the file, for error messages.
    ///   - chunkSize: bytes per read (default 1 MiB).
    ///   - source: fills a buffer, returning the bytes written (0 at the end).
    init(
        path: String, chunkSize: Int = 1 << 20,
        source: @escaping (UnsafeMutableRawBufferPointer) throws(RecordingError) -> Int
    ) {
        self.path = path
        self.source = source
        chunk = chunkSize
        capacity = Self.maximumTagBytes + chunkSize + 16
        buffer = .allocate(capacity: capacity)
    }

    deinit { buffer.deallocate() }

    /// Bytes of content consumed so far.
    var offset: Int { base + start }

    private func error(_ code: RecordingError.Code, at offset: Int, _ message: String) -> RecordingError {
        RecordingError(code, file: path, byteOffset: offset, message)
    }

    /// Moves unread bytes to the front and reads more; `false` at the end of the content.
    private func fill() throws(RecordingError) -> Bool {
        if eof { return false }
        if start > 0 {
            let n = end - start
            if n > 0 { buffer.update(from: buffer + start, count: n) }
            base += start
            end = n
            start = 0
        }
        let room = capacity - end
        guard room > 0 else { return true }
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
                var p = start
                while p < end && buffer[p] != 0x3C { p += 1 }
                start = p
                if p < end { break }
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

    /// Reads one start or end tag at `start` (`buffer[start] == '<'`).
    private func tag() throws(RecordingError) -> Token {
        // Find the closing '>' outside quotes, reading more as needed.
        var p = start + 1
        var quote: UInt8 = 0
        while true {
            while p < end {
                let c = buffer[p]
                if quote != 0 {
                    if c == quote { quote = 0 }
                } else if c == 0x22 || c == 0x27 {
                    quote = c
                } else if c == 0x3E {
                    break
                } else if c == 0x3C {
                    throw error(.syntax, at: tagOffset, "'<' inside a tag (unterminated tag?)")
                }
                p += 1
            }
            if p < end { break }
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
        var q = start + 1
        if buffer[q] == 0x2F { // end tag
            q += 1
            let n0 = q
            while q < close && !Self.isSpace(buffer[q]) { q += 1 }
            nameRange = n0..<q
            while q < close && Self.isSpace(buffer[q]) { q += 1 }
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
        let selfClosing = buffer[last] == 0x2F
        if selfClosing { last -= 1 }
        let n0 = q
        while q <= last && !Self.isSpace(buffer[q]) && buffer[q] != 0x2F && buffer[q] != 0x3D { q += 1 }
        nameRange = n0..<q
        if nameRange.isEmpty { throw error(.syntax, at: tagOffset, "tag without a name") }
        attributeCount = 0
        while true {
            let s0 = q
            while q <= last && Self.isSpace(buffer[q]) { q += 1 }
            if q > last { break }
            if q == s0 { throw error(.syntax, at: base + q, "attributes must be separated by white space") }
            let a0 = q
            while q <= last && !Self.isSpace(buffer[q]) && buffer[q] != 0x3D { q += 1 }
            let a1 = q
            while q <= last && Self.isSpace(buffer[q]) { q += 1 }
            guard a1 > a0, q <= last, buffer[q] == 0x3D else {
                throw error(.syntax, at: base + a0, "attribute without '=value'")
            }
            q += 1
            while q <= last && Self.isSpace(buffer[q]) { q += 1 }
            guard q <= last, buffer[q] == 0x22 || buffer[q] == 0x27 else {
                throw error(.syntax, at: base + q, "attribute value not quoted")
            }
            let quoteChar = buffer[q]
            q += 1
            let v0 = q
            while q <= last && buffer[q] != quoteChar { q += 1 }
            guard q <= last else { throw error(.syntax, at: base + v0, "unterminated attribute value") }
            if attributeCount == attributeNames.count {
                attributeNames.append(a0..<a1)
                attributeValues.append(v0..<q)
            } else {
                attributeNames[attributeCount] = a0..<a1
                attributeValues[attributeCount] = v0..<q
            }
            attributeCount += 1
            q += 1
        }
        if !selfClosing {
            if depth >= Self.maximumDepth {
                throw error(.outOfRange, at: tagOffset, "elements nested deeper than \(Self.maximumDepth)")
            }
            depth += 1
            openNames.append(hash(nameRange))
        }
        return .start(selfClosing: selfClosing)
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
        guard r.count == text.utf8CodeUnitCount else { return false }
        let p = text.utf8Start
        for i in 0..<r.count where buffer[r.lowerBound + i] != p[i] { return false }
        return true
    }

    /// Index of the attribute called `text` in the current start tag, if any.
    func attribute(_ text: StaticString) -> Int? {
        for i in 0..<attributeCount where equal(attributeNames[i], text) { return i }
        return nil
    }

    /// Name of attribute `i`.
    func attributeName(_ i: Int) -> String {
        let r = attributeNames[i]
        return String(decoding: UnsafeBufferPointer(start: buffer + r.lowerBound, count: r.count), as: UTF8.self)
    }

    /// Raw bytes of attribute `i`'s value (entities not decoded), valid until the next call.
    func rawValue(_ i: Int) -> UnsafeBufferPointer<UInt8> {
        let r = attributeValues[i]
        return UnsafeBufferPointer(start: buffer + r.lowerBound, count: r.count)
    }

    /// Attribute `i`'s value with entity and character references decoded.
    /// - Throws: `.syntax` for an unknown entity (one declared in a DTD is never expanded) or a
    ///   malformed reference, `.invalidUTF8` for bytes that are not UTF-8.
    func value(_ i: Int) throws(RecordingError) -> String {
        let raw = rawValue(i)
        let at = base + attributeValues[i].lowerBound
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
    func valueOffset(_ i: Int) -> Int { base + attributeValues[i].lowerBound }
}

#if canImport(Glibc)
    import Glibc
#endif

/// Splits a MyDataHelps SensorKit export (`{"device":{…},"samples":[{…},{…},…]}`) into its
/// top-level members and the elements of its `samples` array **incrementally**, so the array is
/// never held in memory: memory is bounded by the largest single element plus one read chunk.
///
/// Only the structure is checked here (brackets, commas, string boundaries); each element is
/// then parsed strictly by ``JSONScanner``. Elements may span lines (pretty-printed exports).
final class MyDataHelpsSplitter {
    /// One top-level member's value, or one element of `samples`, as a range of ``buffer``
    /// (valid until the next call).
    struct Record {
        /// The top-level key, or `"samples[]"` for an element of `samples`.
        var key: String
        var range: Range<Int>
        var place: RecordPlace
    }

    let source: ByteSource
    private(set) var buffer: [UInt8]
    let maximumRecordLength: Int
    private var pos = 0
    private var end = 0
    private var eof = false
    private var windowOffset = 0
    private var line = 1
    private var lineStart = 0 // content offset of the current line's first byte

    private enum State { case start, members(first: Bool), samples(first: Bool), done }
    private var state = State.start

    init(source: ByteSource, chunkSize: Int = 1 << 20, maximumRecordLength: Int = 64 << 20) {
        self.source = source
        self.maximumRecordLength = maximumRecordLength
        buffer = [UInt8](repeating: 0, count: source.bufferSize(forChunk: chunkSize))
    }

    private var column: Int { windowOffset + pos - lineStart + 1 }

    private func fail(_ code: RecordingError.Code, _ message: String) -> RecordingError {
        RecordingError(code, file: source.path, line: line, column: column, message)
    }

    /// Reads more bytes; keeps `buffer[keepFrom...]` (compacting it to the front).
    /// - Returns: `false` at the end of the content.
    private func fill(keepFrom: Int) throws(RecordingError) -> Bool {
        if eof { return false }
        if keepFrom > 0 {
            let n = end - keepFrom
            buffer.withUnsafeMutableBytes { b in _ = memmove(b.baseAddress!, b.baseAddress! + keepFrom, n) }
            windowOffset += keepFrom
            pos -= keepFrom
            end = n
        }
        if end == buffer.count {
            guard buffer.count < maximumRecordLength else {
                throw fail(.syntax, "a samples element longer than \(maximumRecordLength) bytes")
            }
            buffer.append(contentsOf: repeatElement(0, count: buffer.count))
        }
        let from = end
        let source = self.source
        let got = try buffer.withUnsafeMutableBytes { b in
            Result { () throws(RecordingError) -> Int in
                try source.read(into: UnsafeMutableRawBufferPointer(rebasing: b[from...]))
            }
        }.get()
        if got == 0 { eof = true; return false }
        end += got
        return true
    }

    private func compact() {
        guard pos > 0 else { return }
        let n = end - pos
        buffer.withUnsafeMutableBytes { b in _ = memmove(b.baseAddress!, b.baseAddress! + pos, n) }
        windowOffset += pos
        end = n
        pos = 0
    }

    /// The byte at `pos` (reading more if needed), or `nil` at the end.
    private func peek(keepFrom: Int? = nil) throws(RecordingError) -> UInt8? {
        while pos >= end {
            if try !fill(keepFrom: keepFrom ?? pos) { return nil }
        }
        return buffer[pos]
    }

    private func advance() {
        if buffer[pos] == 0x0A { line += 1; lineStart = windowOffset + pos + 1 }
        pos += 1
    }

    private func skipWhitespace() throws(RecordingError) {
        while let c = try peek(), c == 0x20 || c == 0x0A || c == 0x0D || c == 0x09 { advance() }
    }

    private func expect(_ c: UInt8, _ what: String) throws(RecordingError) {
        try skipWhitespace()
        guard let b = try peek() else { throw fail(.truncated, "the file ends early (expected \(what))") }
        guard b == c else { throw fail(.syntax, "expected \(what)") }
        advance()
    }

    /// Captures the JSON value starting at `pos`, moving it to the front of the buffer.
    private func capture(key: String) throws(RecordingError) -> Record {
        guard try peek() != nil else { throw fail(.truncated, "the file ends early (expected a value)") }
        compact() // the value starts at 0 and stays there while more bytes are read
        let place = RecordPlace(line: line, column: column)
        let start = pos
        var depth = 0
        var inString = false
        var escape = false
        let first = buffer[pos]
        let scalar = first != UInt8(ascii: "{") && first != UInt8(ascii: "[") && first != UInt8(ascii: "\"")
        while true {
            guard let c = try peek(keepFrom: start) else {
                if scalar && depth == 0 { break }
                throw fail(.truncated, "the file ends inside a value that started at line \(place.line), column \(place.column)")
            }
            if inString {
                if escape {
                    escape = false
                } else if c == UInt8(ascii: "\\") {
                    escape = true
                } else if c == UInt8(ascii: "\"") {
                    inString = false; if depth == 0 { advance(); break }
                }
                advance()
                continue
            }
            if scalar {
                if c == UInt8(ascii: ",") || c == UInt8(ascii: "}") || c == UInt8(ascii: "]") || c == 0x20
                    || c == 0x0A || c == 0x0D || c == 0x09
                {
                    break
                }
                advance()
                continue
            }
            switch c {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"): depth -= 1
            default: break
            }
            advance()
            if depth == 0 && !inString { break }
        }
        return Record(key: key, range: 0..<pos, place: place)
    }

    /// The next top-level member value or `samples` element, or `nil` after the closing `}`.
    func next() throws(RecordingError) -> Record? {
        while true {
            switch state {
            case .done:
                return nil
            case .start:
                try skipWhitespace()
                if try peek() == 0xEF { // UTF-8 byte order mark: all three bytes, each checked
                    for expected: UInt8 in [0xEF, 0xBB, 0xBF] {
                        guard let b = try peek() else { throw fail(.truncated, "the file ends inside its byte order mark") }
                        guard b == expected else { throw fail(.syntax, "a byte order mark must be EF BB BF") }
                        advance()
                    }
                }
                try expect(UInt8(ascii: "{"), "'{' opening the MyDataHelps export object")
                state = .members(first: true)
            case .members(let first):
                try skipWhitespace()
                guard let c = try peek() else { throw fail(.truncated, "the file ends before the closing '}'") }
                if c == UInt8(ascii: "}") {
                    advance()
                    try skipWhitespace()
                    if try peek() != nil { throw fail(.syntax, "unexpected content after the top-level object") }
                    state = .done
                    return nil
                }
                if !first { try expect(UInt8(ascii: ","), "',' or '}' between top-level members") }
                try skipWhitespace()
                guard try peek() == UInt8(ascii: "\"") else { throw fail(.syntax, "expected a quoted key") }
                let k = try capture(key: "")
                let key: String? = buffer.withUnsafeBufferPointer { b in
                    var s = JSONScanner(base: b.baseAddress!, count: k.range.count)
                    guard let (start, length, escaped) = try? s.scanString(), s.i == k.range.count else { return nil }
                    return s.decodeString(start: start, length: length, escaped: escaped)
                }
                guard let key else {
                    throw RecordingError(
                        .syntax, file: source.path, line: k.place.line, column: k.place.column,
                        "invalid key string")
                }
                try expect(UInt8(ascii: ":"), "':' after a key")
                try skipWhitespace()
                state = .members(first: false)
                if key == "samples", try peek() == UInt8(ascii: "[") {
                    advance()
                    state = .samples(first: true)
                    continue
                }
                return try capture(key: key)
            case .samples(let first):
                try skipWhitespace()
                guard let c = try peek() else { throw fail(.truncated, "the file ends inside the samples array") }
                if c == UInt8(ascii: "]") {
                    advance()
                    state = .members(first: false)
                    continue
                }
                if !first { try expect(UInt8(ascii: ","), "',' or ']' between samples") }
                try skipWhitespace()
                state = .samples(first: false)
                return try capture(key: "samples[]")
            }
        }
    }
}

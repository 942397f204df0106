#if canImport(Glibc)
    import Glibc
#endif

/// Splits a ``ByteSource`` into lines (LF or CRLF), tracking line numbers and byte offsets,
/// with memory bounded by the longest line plus one chunk.
///
/// Lines are handed out as ranges into ``buffer``, valid until the next call to ``nextLine()``.
public final class LineReader {
    /// The source being read.
    public let source: ByteSource
    /// Bytes of the current window; a line returned by ``nextLine()`` lies inside.
    public private(set) var buffer: [UInt8]
    /// 1-based number of the line last returned.
    public private(set) var lineNumber = 0
    /// Byte offset (in the decompressed content) of the start of the line last returned.
    public private(set) var lineOffset = 0
    /// Longest line accepted, in bytes.
    public let maximumLineLength: Int

    private var start = 0 // first unconsumed byte in buffer
    private var end = 0 // end of valid bytes in buffer
    private var windowOffset = 0 // content offset of buffer[0]
    private var eof = false

    /// Creates a reader.
    /// - Parameters:
    ///   - source: the byte source.
    ///   - chunkSize: bytes requested from the source at a time (default 1 MiB).
    ///   - maximumLineLength: longest accepted line (default 64 MiB); longer lines throw.
    public init(source: ByteSource, chunkSize: Int = 1 << 20, maximumLineLength: Int = 64 << 20) {
        self.source = source
        self.maximumLineLength = maximumLineLength
        buffer = [UInt8](repeating: 0, count: source.bufferSize(forChunk: chunkSize))
    }

    /// Returns the byte range of the next line in ``buffer`` (without its `\n` or `\r\n`), or
    /// `nil` at the end of the content. The last line need not end with a newline.
    /// - Throws: ``RecordingError`` from the source, or `.syntax` for a line longer than
    ///   ``maximumLineLength``.
    /// - Complexity: amortised O(line length) (`memchr`).
    public func nextLine() throws(RecordingError) -> Range<Int>? {
        var scanFrom = start
        while true {
            let found: Int? = buffer.withUnsafeBytes { b in
                guard end > scanFrom else { return nil }
                guard let p = memchr(b.baseAddress! + scanFrom, 0x0a, end - scanFrom) else { return nil }
                return b.baseAddress!.distance(to: UnsafeRawPointer(p))
            }
            if let nl = found {
                let lineStart = start
                var lineEnd = nl
                if lineEnd > lineStart && buffer[lineEnd - 1] == 0x0d { lineEnd -= 1 }
                start = nl + 1
                lineNumber += 1
                lineOffset = windowOffset + lineStart
                return lineStart..<lineEnd
            }
            if eof {
                guard start < end else { return nil }
                let lineStart = start
                var lineEnd = end
                if lineEnd > lineStart && buffer[lineEnd - 1] == 0x0d { lineEnd -= 1 }
                start = end
                lineNumber += 1
                lineOffset = windowOffset + lineStart
                return lineStart..<lineEnd
            }
            // Need more bytes: compact, grow if one line fills the buffer, then read.
            scanFrom = end - start
            if start > 0 {
                let n = end - start
                buffer.withUnsafeMutableBytes { b in
                    _ = memmove(b.baseAddress!, b.baseAddress! + start, n)
                }
                windowOffset += start
                end = n
                start = 0
            }
            if end == buffer.count {
                guard buffer.count < maximumLineLength else {
                    throw RecordingError(
                        .syntax, file: source.path, line: lineNumber + 1,
                        "line longer than \(maximumLineLength) bytes")
                }
                buffer.append(contentsOf: repeatElement(0, count: min(buffer.count, maximumLineLength - buffer.count)))
            }
            let source = self.source, from = end
            let got = try buffer.withUnsafeMutableBytes { b in
                Result { () throws(RecordingError) -> Int in
                    try source.read(into: UnsafeMutableRawBufferPointer(rebasing: b[from...]))
                }
            }.get()
            if got == 0 { eof = true } else { end += got }
            scanFrom = start + scanFrom
        }
    }
}

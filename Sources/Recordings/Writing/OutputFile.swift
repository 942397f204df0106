import CZlib

#if canImport(Glibc)
    import Glibc
#endif

/// A file written front to back through a 1 MiB buffer, plain or gzip-compressed (RFC 1952,
/// zlib deflate level 6): the output of `sensorpipe convert` and of the batch's long CSV tables.
///
/// Bytes go to ``write(_:)``; ``finish()`` flushes (and ends the gzip member) and closes the
/// file. Nothing is renamed here: a caller that must not leave a half-written file writes to a
/// temporary path and renames it after ``finish()``.
public final class OutputFile {
    /// The path written.
    public let path: String
    /// Whether the bytes are gzip-compressed.
    public let compressed: Bool

    private var fd: Int32
    private var buffer: [UInt8] = []
    private var z = z_stream()
    private var zOut = [UInt8](repeating: 0, count: 1 << 16)
    private var finished = false

    /// Creates (truncates) `path`.
    /// - Parameters:
    ///   - path: the file.
    ///   - compress: gzip the bytes (default: whether `path` ends in `.gz`).
    /// - Throws: ``RecordingError`` `.unreadable` naming the file when it cannot be created.
    /// - Complexity: O(1).
    public init(path: String, compress: Bool? = nil) throws(RecordingError) {
        self.path = path
        compressed = compress ?? path.hasSuffix(".gz")
        fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw RecordingError(.unreadable, file: path, "cannot create: \(String(cString: strerror(errno)))") }
        if compressed {
            let rc = deflateInit2_(
                &z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION,
                Int32(MemoryLayout<z_stream>.size))
            guard rc == Z_OK else {
                close(fd)
                fd = -1
                throw RecordingError(.unreadable, file: path, "zlib could not initialise (\(rc))")
            }
        }
        buffer.reserveCapacity(1 << 20)
    }

    deinit {
        if compressed { deflateEnd(&z) }
        if fd >= 0 { close(fd) }
    }

    /// Appends bytes.
    /// - Parameter bytes: what to write.
    /// - Throws: ``RecordingError`` for I/O errors.
    /// - Complexity: O(bytes), amortised.
    public func write(_ bytes: [UInt8]) throws(RecordingError) {
        precondition(!finished, "write after finish")
        buffer.append(contentsOf: bytes)
        if buffer.count >= 1 << 20 { try flush(final: false) }
    }

    /// Flushes what is buffered, ends the gzip member and closes the file (once; later calls do
    /// nothing).
    /// - Throws: ``RecordingError`` for I/O errors.
    /// - Complexity: O(bytes still buffered).
    public func finish() throws(RecordingError) {
        guard !finished else { return }
        finished = true
        try flush(final: true)
        if close(fd) != 0 {
            fd = -1
            throw RecordingError(.unreadable, file: path, "cannot close: \(String(cString: strerror(errno)))")
        }
        fd = -1
    }

    private func writeAll(_ p: UnsafeRawPointer, _ count: Int) throws(RecordingError) {
        var done = 0
        while done < count {
            let n = Glibc.write(fd, p + done, count - done)
            if n < 0 {
                if errno == EINTR { continue }
                throw RecordingError(.unreadable, file: path, "cannot write: \(String(cString: strerror(errno)))")
            }
            done += n
        }
    }

    private func flush(final: Bool) throws(RecordingError) {
        if !compressed {
            let result = buffer.withUnsafeBytes { b in
                Result { () throws(RecordingError) in try writeAll(b.baseAddress ?? UnsafeRawPointer(bitPattern: 1)!, b.count) }
            }
            try result.get()
            buffer.removeAll(keepingCapacity: true)
            return
        }
        let availIn = buffer.count
        var failure: RecordingError?
        buffer.withUnsafeMutableBytes { input in
            z.next_in = input.baseAddress?.assumingMemoryBound(to: Bytef.self)
            z.avail_in = uInt(availIn)
            while true {
                let rc: Int32 = zOut.withUnsafeMutableBytes { o in
                    z.next_out = o.baseAddress!.assumingMemoryBound(to: Bytef.self)
                    z.avail_out = uInt(o.count)
                    return deflate(&z, final ? Z_FINISH : Z_NO_FLUSH)
                }
                let produced = zOut.count - Int(z.avail_out)
                if produced > 0 {
                    let r = zOut.withUnsafeBytes { o in
                        Result { () throws(RecordingError) in try writeAll(o.baseAddress!, produced) }
                    }
                    if case .failure(let e) = r { failure = e; return }
                }
                if final {
                    if rc == Z_STREAM_END { return }
                    if rc != Z_OK && rc != Z_BUF_ERROR {
                        failure = RecordingError(.unreadable, file: path, "deflate failed (\(rc))"); return
                    }
                } else if z.avail_in == 0 && z.avail_out != 0 {
                    return
                }
            }
        }
        buffer.removeAll(keepingCapacity: true)
        if let failure { throw failure }
    }
}

#if canImport(Glibc)
    import Glibc
#endif

/// Reads a file's content in chunks, transparently inflating gzip (RFC 1952; concatenated
/// members too) and zlib streams, and decoding `.xz` files, so every decoder reads plain and
/// compressed files alike with memory bounded by the chunk size.
///
/// Compression is detected from the content (magic bytes `1f 8b` for gzip,
/// `fd 37 7a 58 5a 00` for xz as PhysioNet mirrors and the bundled datasets use), not the file
/// name. xz is decoded in-process by Debian's liblzma (`liblzma-dev`), streaming, with at most
/// ``XZDecoder/memoryLimit`` (128 MiB) for its dictionary. Only regular files are read
/// (``RegularFile``): a FIFO or folder is an error, never a hang.
public final class ByteSource {
    /// Path as given by the caller (used in error messages).
    public let path: String
    /// Whether the content is gzip- or xz-compressed.
    public private(set) var isCompressed = false
    /// Size of the file on disk, in bytes.
    public let fileSize: Int
    /// Decompressed bytes delivered so far.
    public private(set) var offset = 0

    private let fd: Int32
    private let chunkSize: Int
    private var raw: [UInt8]
    private var rawStart = 0
    private var rawEnd = 0
    private var rawEOF = false
    private var rawConsumed = 0 // compressed bytes consumed (for error offsets)
    private var inflater: Inflater? // set for gzip (and zlib) content
    private var xz: XZDecoder? // set for xz content
    private var digest: ContentDigest.Stream? // the bound ContentDigest's hash of this file

    /// Opens `path`.
    /// - Parameters:
    ///   - path: file to read.
    ///   - chunkSize: bytes read from disk at a time (default 1 MiB).
    /// - Throws: ``RecordingError`` `.unreadable` if the file cannot be opened or is not a
    ///   regular file.
    public convenience init(path: String, chunkSize: Int = 1 << 20) throws(RecordingError) {
        try self.init(path: path, chunkSize: chunkSize, hashing: true)
    }

    /// Opens `path`; with `hashing`, the file's bytes feed ``ContentDigest/current`` if one is
    /// bound (a peek does not: it reads only the head).
    init(path: String, chunkSize: Int, hashing: Bool) throws(RecordingError) {
        self.path = path
        self.chunkSize = max(chunkSize, 64)
        (fd, fileSize) = try RegularFile.open(path)
        if hashing, let bound = ContentDigest.current { digest = ContentDigest.Stream(digest: bound, path: path) }
        // A small file needs no full chunk: the on-disk bytes bound what one read can bring.
        raw = [UInt8](repeating: 0, count: min(self.chunkSize, max(fileSize + 1, 64)))
        try fillRaw()
        if rawEnd - rawStart >= 2 && raw[rawStart] == 0x1f && raw[rawStart + 1] == 0x8b {
            isCompressed = true
            try startInflate()
        } else if rawEnd - rawStart >= 6 && raw[0..<6] == [0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00] {
            isCompressed = true
            do {
                xz = try XZDecoder()
            } catch {
                throw RecordingError(.unreadable, file: path, "liblzma could not initialise (\(error.reason))")
            }
        }
    }

    /// A source over bytes already in memory (an entry read from a ZIP archive), plain: no
    /// compression is recognised, nothing is hashed.
    /// - Parameters:
    ///   - bytes: the content.
    ///   - path: the name errors give.
    init(bytes: [UInt8], path: String) {
        self.path = path
        chunkSize = max(bytes.count, 64)
        fd = -1
        fileSize = bytes.count
        raw = bytes
        rawEnd = bytes.count
        rawEOF = true
    }

    deinit {
        if fd >= 0 { close(fd) }
    }

    /// The buffer size a reader of this source needs for reads of up to `chunkSize` bytes: the
    /// content's size + 1 when it is known (a plain file: one read brings everything and the next
    /// says end), else `chunkSize`; at least 256. Readers that grow their buffer for long lines
    /// or records start from this, so a small file never costs a full chunk.
    public func bufferSize(forChunk chunkSize: Int) -> Int {
        max(isCompressed ? chunkSize : min(chunkSize, fileSize + 1), 256)
    }

    private func fillRaw() throws(RecordingError) {
        if rawStart > 0 && rawStart < rawEnd {
            raw.withUnsafeMutableBytes { b in
                _ = memmove(b.baseAddress!, b.baseAddress! + rawStart, rawEnd - rawStart)
            }
        }
        rawEnd -= rawStart
        rawStart = 0
        while rawEnd < raw.count && !rawEOF {
            let want = raw.count - rawEnd
            let got = raw.withUnsafeMutableBytes { b in Glibc.read(fd, b.baseAddress! + rawEnd, want) }
            if got < 0 {
                if errno == EINTR { continue }
                throw RecordingError(
                    .unreadable, file: path, byteOffset: rawConsumed + rawEnd,
                    String(cString: strerror(errno)))
            }
            if got == 0 {
                rawEOF = true
                digest?.finish()
                digest = nil
            } else {
                if let digest {
                    raw.withUnsafeBytes { b in digest.feed(UnsafeRawBufferPointer(rebasing: b[rawEnd..<(rawEnd + got)])) }
                }
                rawEnd += got
            }
        }
    }

    private func startInflate() throws(RecordingError) {
        do {
            inflater = try Inflater(.gzipOrZlib)
        } catch {
            throw RecordingError(.unreadable, file: path, "zlib could not initialise (\(error.code))")
        }
    }

    private func truncatedGzip() -> RecordingError {
        RecordingError(
            .truncated, file: path, byteOffset: rawConsumed,
            "gzip stream ends before its end marker (file truncated?)")
    }

    /// Reads up to `buffer.count` decompressed bytes into `buffer` starting at `start`.
    /// - Returns: bytes read; 0 only at the end of the content.
    /// - Throws: ``RecordingError`` `.truncated` for a gzip stream that ends early, `.syntax` for
    ///   corrupt compressed data, `.unreadable` for I/O errors.
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(RecordingError) -> Int {
        guard buffer.count > 0 else { return 0 }
        if let xz { return try readXZ(xz, into: buffer) }
        guard let inflater else {
            if rawStart == rawEnd {
                if rawEOF { return 0 }
                try fillRaw()
                if rawStart == rawEnd { return 0 }
            }
            let n = min(buffer.count, rawEnd - rawStart)
            raw.withUnsafeBytes { r in
                buffer.baseAddress!.copyMemory(from: r.baseAddress! + rawStart, byteCount: n)
            }
            rawStart += n
            rawConsumed += n
            offset += n
            return n
        }
        var produced = 0
        while produced == 0 {
            if inflater.hasEnded {
                // Another gzip member may follow (concatenated .gz files).
                if rawStart == rawEnd { try fillRaw() }
                if rawStart == rawEnd { return 0 }
                inflater.reset()
            }
            if rawStart == rawEnd {
                try fillRaw()
                if rawStart == rawEnd { throw truncatedGzip() }
            }
            let step = raw.withUnsafeBytes { r in
                inflater.inflate(from: UnsafeRawBufferPointer(rebasing: r[rawStart..<rawEnd]), into: buffer)
            }
            rawStart += step.consumed
            rawConsumed += step.consumed
            produced = step.produced
            switch step.status {
            case .progressed:
                // No progress at all with the whole file read: the member lacks its end.
                if step.consumed == 0 && produced == 0 && rawEOF && rawStart == rawEnd { throw truncatedGzip() }
            case .streamEnded:
                break
            case .failed(let why):
                throw RecordingError(.syntax, file: path, byteOffset: rawConsumed, "corrupt gzip data: \(why)")
            }
        }
        offset += produced
        return produced
    }

    private func readXZ(_ xz: XZDecoder, into buffer: UnsafeMutableRawBufferPointer) throws(RecordingError) -> Int {
        var produced = 0
        while produced == 0 && !xz.hasEnded {
            if rawStart == rawEnd && !rawEOF { try fillRaw() }
            let finishing = rawEOF
            let step = raw.withUnsafeBytes { r in
                xz.decode(from: UnsafeRawBufferPointer(rebasing: r[rawStart..<rawEnd]), into: buffer, finishing: finishing)
            }
            rawStart += step.consumed
            rawConsumed += step.consumed
            produced = step.produced
            switch step.status {
            case .progressed, .streamEnded: break
            case .truncated:
                throw RecordingError(
                    .truncated, file: path, byteOffset: rawConsumed,
                    "xz stream ends before its end marker (file truncated?)")
            case .failed(let why):
                throw RecordingError(.syntax, file: path, byteOffset: rawConsumed, "xz data cannot be decoded: \(why)")
            }
        }
        offset += produced
        return produced
    }

    /// Reads up to `count` bytes from the start of the content without consuming anything else
    /// of the file (for format sniffing): opens a second reader.
    /// - Throws: ``RecordingError`` as ``read(into:)``.
    public static func peek(path: String, count: Int) throws(RecordingError) -> [UInt8] {
        let s = try ByteSource(path: path, chunkSize: max(count, 4096), hashing: false)
        var out = [UInt8](repeating: 0, count: count)
        var filled = 0
        reading: while filled < count {
            let result = out.withUnsafeMutableBytes { b in
                Result { () throws(RecordingError) -> Int in
                    try s.read(into: UnsafeMutableRawBufferPointer(rebasing: b[filled...]))
                }
            }
            switch result {
            case .success(let n):
                if n == 0 { break reading }
                filled += n
            case .failure(let error):
                // A truncated stream is reported by the decoder at its place; sniff what we have.
                if error.code == .truncated && filled > 0 { break reading }
                throw error
            }
        }
        return Array(out[0..<filled])
    }
}

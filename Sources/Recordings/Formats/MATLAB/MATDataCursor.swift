#if canImport(Glibc)
    import Glibc
#endif

/// Reads the bytes of one MAT-file data element sequentially, either straight from the file or
/// through zlib inflate for `miCOMPRESSED` elements, with memory bounded by one input chunk.
///
/// Several cursors may read the same file at once (one per channel source), because reads use
/// `pread` at explicit offsets and never move a shared file position.
final class MATDataCursor {
    let fd: Int32
    let path: String
    /// File offset of the element's first byte (for a compressed element, of the zlib stream).
    let start: Int
    /// Bytes of the element present in the file.
    let length: Int
    /// Whether the bytes are a zlib stream.
    let compressed: Bool
    /// Bytes delivered so far (decompressed bytes for a compressed element).
    private(set) var position = 0

    private var consumed = 0 // file bytes of the element consumed
    private let inflater: Inflater? // set for a compressed element
    private var skipScratch: [UInt8] = []

    /// Opens a cursor on `length` bytes at file offset `start`.
    init(fd: Int32, path: String, start: Int, length: Int, compressed: Bool) throws(RecordingError) {
        self.fd = fd
        self.path = path
        self.start = start
        self.length = length
        self.compressed = compressed
        if compressed {
            do {
                inflater = try Inflater(.zlib, inputBufferSize: 1 << 16)
            } catch {
                throw RecordingError(.unreadable, file: path, byteOffset: start, "zlib could not initialise (\(error.code))")
            }
        } else {
            inflater = nil
        }
    }

    /// Runs `body` on `array`'s bytes, keeping the typed error (the standard library's
    /// `withUnsafeMutableBytes` only rethrows untyped errors).
    @inline(__always)
    static func withBytes<R>(
        of array: inout [UInt8],
        _ body: (UnsafeMutableRawBufferPointer) throws(RecordingError) -> R
    ) throws(RecordingError) -> R {
        try array.withUnsafeMutableBytes { b in Result { () throws(RecordingError) -> R in try body(b) } }.get()
    }

    private func preadFully(_ buffer: UnsafeMutableRawBufferPointer, at offset: Int) throws(RecordingError) -> Int {
        try PositionalRead.read(fd, into: buffer, at: offset, path: path)
    }

    /// Reads up to `buffer.count` bytes.
    /// - Returns: the bytes read; fewer than asked only at the end of the element.
    /// - Throws: `.truncated` when a compressed stream stops before its end marker, `.syntax`
    ///   for corrupt compressed data, `.unreadable` for I/O errors.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws(RecordingError) -> Int {
        guard buffer.count > 0 else { return 0 }
        guard let inflater else {
            let want = min(buffer.count, length - consumed)
            guard want > 0 else { return 0 }
            let got = try preadFully(UnsafeMutableRawBufferPointer(rebasing: buffer[0..<want]), at: start + consumed)
            consumed += got
            position += got
            return got
        }
        let step = try inflater.inflate(into: buffer) { input throws(RecordingError) in
            let want = min(input.count, length - consumed)
            if want == 0 {
                throw RecordingError(
                    .truncated, file: path, byteOffset: start + consumed,
                    "compressed data element starting at byte \(start - 8) ends before its zlib end marker")
            }
            let got = try preadFully(UnsafeMutableRawBufferPointer(rebasing: input[0..<want]), at: start + consumed)
            if got == 0 {
                throw RecordingError(
                    .truncated, file: path, byteOffset: start + consumed,
                    "file ends inside the compressed data element starting at byte \(start - 8)")
            }
            consumed += got
            return got
        }
        if case .failed(let why) = step.status {
            throw RecordingError(
                .syntax, file: path, byteOffset: start - 8,
                "corrupt zlib data in the compressed data element at byte \(start - 8): \(why)")
        }
        position += step.produced
        return step.produced
    }

    /// Reads exactly `buffer.count` bytes.
    /// - Parameter what: what the bytes are, for the error message.
    /// - Throws: `.truncated` if the element ends first.
    func readExactly(into buffer: UnsafeMutableRawBufferPointer, what: @autoclosure () -> String) throws(RecordingError) {
        let at = position
        let got = try read(into: buffer)
        guard got == buffer.count else {
            throw truncation(at: at, needed: buffer.count, what: what())
        }
    }

    /// The error for an element that ends `needed` bytes after `at` is reached.
    func truncation(at: Int, needed: Int, what: String) -> RecordingError {
        if compressed {
            return RecordingError(
                .truncated, file: path, byteOffset: start - 8,
                "the compressed data element at byte \(start - 8) ends at decompressed offset "
                    + "\(position) while reading \(what) (\(needed) bytes from offset \(at))")
        }
        return RecordingError(
            .truncated, file: path, byteOffset: start + at,
            "file ends while reading \(what) (\(needed) bytes expected)")
    }

    /// For a compressed element, inflates whatever follows the bytes read so far up to the zlib
    /// end marker, so the stream's Adler-32 checksum is verified; no effect on plain elements.
    /// - Throws: `.syntax` if the checksum or the data are corrupt, `.truncated` if the stream
    ///   ends early.
    func verifyEnd() throws(RecordingError) {
        guard let inflater else { return }
        if skipScratch.isEmpty { skipScratch = [UInt8](repeating: 0, count: 1 << 16) }
        while !inflater.hasEnded {
            _ = try Self.withBytes(of: &skipScratch) { b throws(RecordingError) in try read(into: b) }
        }
    }

    /// Skips `count` bytes.
    /// - Throws: `.truncated` if the element ends first.
    func skip(_ count: Int, what: @autoclosure () -> String) throws(RecordingError) {
        guard count > 0 else { return }
        if !compressed {
            guard length - consumed >= count else { throw truncation(at: position, needed: count, what: what()) }
            consumed += count
            position += count
            return
        }
        if skipScratch.isEmpty { skipScratch = [UInt8](repeating: 0, count: 1 << 16) }
        var left = count
        while left > 0 {
            let n = min(left, skipScratch.count)
            let at = position
            let got = try Self.withBytes(of: &skipScratch) { b throws(RecordingError) in
                try read(into: UnsafeMutableRawBufferPointer(rebasing: b[0..<n]))
            }
            guard got == n else { throw truncation(at: at, needed: left, what: what()) }
            left -= n
        }
    }
}

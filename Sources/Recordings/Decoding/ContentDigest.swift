import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The content hash of the files a decoder reads, computed from the same bytes while they are
/// decoded (one pass over each file instead of a hashing pass and a decoding pass).
///
/// Bind a digest with `ContentDigest.$current.withValue(digest) { … }` around opening and
/// decoding: every ``ByteSource`` opened on that thread meanwhile (except the format sniff's
/// peek) feeds the raw file bytes it reads — compressed bytes as they are on disk — to the
/// digest. A file counts as hashed only when one source read it from its first byte to its end;
/// ``hash(of:)`` returns `nil` for any file that was not (a decoder that stops early or reads by
/// seeking, such as MATLAB and ActiGraph `.gt3x`), and the caller hashes those files on their own
/// (``fileHash(_:)``). The hash of the bytes actually decoded is what a batch stores.
///
/// The hash is 64-bit FNV-1a (Fowler, Noll & Vo; Eastlake et al., "The FNV Non-Cryptographic
/// Hash Algorithm", IETF draft-eastlake-fnv, 2012–) of each file's bytes; a recording of several
/// files hashes their hashes (``combine(_:)``). It detects changed files reliably for resuming a
/// batch; it is not cryptographic and must not guard against deliberate tampering.
public final class ContentDigest: Sendable {
    /// The digest fed by the sources opened in the current scope, or `nil` (nothing is hashed).
    @TaskLocal public static var current: ContentDigest?

    private let complete = Mutex<[String: UInt64]>([:])

    /// An empty digest.
    public init() {}

    /// FNV-1a 64 offset basis: the state before any byte.
    public static let offsetBasis: UInt64 = 0xcbf2_9ce4_8422_2325
    static let prime: UInt64 = 0x0000_0100_0000_01b3

    /// FNV-1a 64 of `bytes`, continuing from `state`.
    /// - Parameters:
    ///   - bytes: the data.
    ///   - state: the hash so far (``offsetBasis`` to start).
    /// - Returns: the updated state.
    /// - Complexity: O(bytes.count).
    public static func fnv1a64(_ bytes: UnsafeRawBufferPointer, state: UInt64 = offsetBasis) -> UInt64 {
        var h = state
        for b in bytes {
            h ^= UInt64(b)
            h = h &* prime
        }
        return h
    }

    /// The hash of a recording made of files whose hashes are `hashes` (in member order): the one
    /// hash itself for one file; for several, FNV-1a 64 over their 8-byte little-endian values.
    /// - Parameter hashes: per-file FNV-1a 64 values, at least one.
    /// - Returns: the recording's hash.
    /// - Complexity: O(hashes.count).
    public static func combine(_ hashes: [UInt64]) -> UInt64 {
        if hashes.count == 1 { return hashes[0] }
        var h = offsetBasis
        for var v in hashes {
            v = v.littleEndian
            h = withUnsafeBytes(of: &v) { fnv1a64($0, state: h) }
        }
        return h
    }

    /// FNV-1a 64 of one file's bytes, read in 1 MiB blocks (a separate pass; for files the
    /// decoding did not read whole).
    /// - Parameter path: the file.
    /// - Returns: the hash.
    /// - Throws: ``RecordingError`` `.unreadable` naming the file when it cannot be read or is
    ///   not a regular file (a FIFO, folder, device: refused at once, never blocked on).
    /// - Complexity: O(file size) time, O(1 MiB) memory.
    public static func fileHash(_ path: String) throws(RecordingError) -> UInt64 {
        var h = offsetBasis
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
        defer { buffer.deallocate() }
        let (fd, _) = try RegularFile.open(path)
        defer { close(fd) }
        while true {
            let got = read(fd, buffer.baseAddress, buffer.count)
            if got < 0 {
                if errno == EINTR { continue }
                throw RecordingError(.unreadable, file: path, String(cString: strerror(errno)))
            }
            if got == 0 { return h }
            h = fnv1a64(UnsafeRawBufferPointer(rebasing: buffer[0..<got]), state: h)
        }
    }

    /// The hash of `path` as read whole by a source while this digest was bound, or `nil`.
    /// - Parameter path: the file, spelled as the decoder was given it.
    public func hash(of path: String) -> UInt64? {
        complete.withLock { $0[path] }
    }

    /// Records that a source read `path` whole, with hash `value` (the latest read counts).
    func record(_ path: String, _ value: UInt64) {
        complete.withLock { $0[path] = value }
    }

    /// The running hash of one source's file.
    final class Stream {
        let digest: ContentDigest
        let path: String
        var state = ContentDigest.offsetBasis

        init(digest: ContentDigest, path: String) {
            self.digest = digest
            self.path = path
        }

        func feed(_ bytes: UnsafeRawBufferPointer) { state = ContentDigest.fnv1a64(bytes, state: state) }

        /// The source reached the file's end, having fed every byte from the first.
        func finish() { digest.record(path, state) }
    }
}

import Foundation
import Recordings
import Signals

/// The content hash the batch runner uses to recognise a recording it has already analysed:
/// 64-bit FNV-1a over the file's bytes, as 16 lower-case hex digits.
///
/// FNV-1a (Fowler, Noll & Vo; Eastlake et al., "The FNV Non-Cryptographic Hash Algorithm",
/// IETF draft-eastlake-fnv, 2012–) detects changed files reliably for this purpose; it is not
/// cryptographic and must not be used to guard against deliberate tampering.
public enum ContentHash {
    static let offsetBasis: UInt64 = 0xcbf2_9ce4_8422_2325
    static let prime: UInt64 = 0x0000_0100_0000_01b3

    /// FNV-1a 64 of `bytes`, continuing from `state`.
    /// - Parameters:
    ///   - bytes: the data.
    ///   - state: the hash so far (start with the offset basis, the default).
    /// - Returns: the updated hash state.
    /// - Complexity: O(bytes.count).
    public static func fnv1a64(_ bytes: UnsafeRawBufferPointer, state: UInt64 = 0xcbf2_9ce4_8422_2325) -> UInt64 {
        var h = state
        for b in bytes {
            h ^= UInt64(b)
            h = h &* prime
        }
        return h
    }

    /// FNV-1a 64 of a file's bytes, read in 1 MiB blocks, as 16 hex digits.
    /// - Parameter path: the file.
    /// - Returns: the hex digest.
    /// - Throws: as ``files(_:)``.
    /// - Complexity: O(file size) time, O(1 MiB) memory.
    public static func file(_ path: String) throws -> String {
        try files([path])
    }

    /// FNV-1a 64 over the bytes of several files in order (one running state), as 16 hex digits:
    /// the hash of a recording made of several files (a WFDB header and its signal files). For
    /// one file it equals ``file(_:)``.
    /// - Parameter paths: the files.
    /// - Returns: the hex digest.
    /// - Throws: ``RecordingError`` `.unreadable` naming the file when it cannot be read or is
    ///   not a regular file (a FIFO, folder, device: refused at once, never blocked on).
    /// - Complexity: O(total bytes), reading 1 MiB at a time.
    public static func files(_ paths: [String]) throws -> String {
        var h = offsetBasis
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
        defer { buffer.deallocate() }
        for path in paths {
            // Regular files only, opened without blocking (a FIFO must not hang a batch).
            let (fd, _) = try RegularFile.open(path)
            defer { close(fd) }
            while true {
                let got = read(fd, buffer.baseAddress, buffer.count)
                if got < 0 {
                    if errno == EINTR { continue }
                    throw RecordingError(.unreadable, file: path, String(cString: strerror(errno)))
                }
                if got == 0 { break }
                h = fnv1a64(UnsafeRawBufferPointer(rebasing: buffer[0..<got]), state: h)
            }
        }
        return hex(h)
    }

    /// FNV-1a 64 of a string's UTF-8 bytes, as 16 hex digits (the configuration hash).
    /// - Parameter text: the text.
    /// - Returns: the hex digest.
    /// - Complexity: O(text's UTF-8 length).
    public static func text(_ text: String) -> String {
        var t = text
        return hex(t.withUTF8 { fnv1a64(UnsafeRawBufferPointer($0)) })
    }

    static func hex(_ h: UInt64) -> String {
        let s = String(h, radix: 16)
        return String(repeating: "0", count: 16 - s.count) + s
    }
}

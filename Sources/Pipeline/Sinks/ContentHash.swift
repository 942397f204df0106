import Foundation
import Recordings
import Signals

/// The content hash the batch runner uses to recognise a recording it has already analysed:
/// 64-bit FNV-1a over each file's bytes (``ContentDigest``), as 16 lower-case hex digits; a
/// recording of several files hashes its files' hashes (``ContentDigest/combine(_:)``).
///
/// FNV-1a (Fowler, Noll & Vo; Eastlake et al., "The FNV Non-Cryptographic Hash Algorithm",
/// IETF draft-eastlake-fnv, 2012–) detects changed files reliably for this purpose; it is not
/// cryptographic and must not be used to guard against deliberate tampering. A batch computes it
/// while decoding (``ContentDigest``); these functions read the files on their own.
public enum ContentHash {
    /// FNV-1a 64 of `bytes`, continuing from `state`.
    /// - Parameters:
    ///   - bytes: the data.
    ///   - state: the hash so far (start with the offset basis, the default).
    /// - Returns: the updated hash state.
    /// - Complexity: O(bytes.count).
    public static func fnv1a64(_ bytes: UnsafeRawBufferPointer, state: UInt64 = ContentDigest.offsetBasis) -> UInt64 {
        ContentDigest.fnv1a64(bytes, state: state)
    }

    /// FNV-1a 64 of a file's bytes, read in 1 MiB blocks, as 16 hex digits.
    /// - Parameter path: the file.
    /// - Returns: the hex digest.
    /// - Throws: as ``files(_:)``.
    /// - Complexity: O(file size) time, O(1 MiB) memory.
    public static func file(_ path: String) throws -> String {
        try files([path])
    }

    /// The hash of a recording made of several files (a WFDB header and its signal files, a
    /// SensorKit export's sensors), as 16 hex digits: FNV-1a 64 of each file's bytes, combined by
    /// ``ContentDigest/combine(_:)`` (for one file, its hash: equal to ``file(_:)``).
    /// - Parameter paths: the files, in member order.
    /// - Returns: the hex digest.
    /// - Throws: ``RecordingError`` `.unreadable` naming the file when it cannot be read or is
    ///   not a regular file (a FIFO, folder, device: refused at once, never blocked on).
    /// - Complexity: O(total bytes), reading 1 MiB at a time.
    public static func files(_ paths: [String]) throws -> String {
        var hashes = [UInt64]()
        for path in paths { hashes.append(try ContentDigest.fileHash(path)) }
        return hex(ContentDigest.combine(hashes))
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

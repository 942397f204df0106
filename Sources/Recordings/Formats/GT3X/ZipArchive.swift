#if canImport(Glibc)
    import Glibc
#endif

/// The directory of a ZIP archive: entry names, compression methods, sizes, CRC-32 values and
/// where each entry's data start, read from the central directory at the end of the file.
///
/// Follows PKWARE's APPNOTE.TXT (".ZIP File Format Specification", version 6.3.10, 2022):
/// end of central directory record (§4.3.16), ZIP64 end of central directory record and locator
/// (§4.3.14–4.3.15), central directory headers (§4.3.12) with the ZIP64 extended information
/// extra field (§4.5.3), local file headers (§4.3.7). Multi-disk (spanned) archives and
/// encrypted entries are refused. Reads use `pread` at explicit offsets, so several entry
/// readers can share the descriptor.
final class ZipArchive {
    /// One entry of the central directory.
    struct Entry {
        /// Name as stored (UTF-8 or CP437; only ASCII names matter here).
        var name: String
        /// General purpose bit flags (bit 0: encrypted, bit 3: sizes in a data descriptor).
        var flags: UInt16
        /// Compression method (0 stored, 8 deflate).
        var method: UInt16
        /// CRC-32 of the uncompressed data.
        var crc32: UInt32
        /// Bytes of (compressed) data in the archive.
        var compressedSize: Int
        /// Bytes once uncompressed.
        var uncompressedSize: Int
        /// File offset of the entry's local file header.
        var localHeaderOffset: Int
        /// File offset of the entry's central directory header (for error messages).
        var directoryOffset: Int
    }

    /// Path as given by the caller.
    let path: String
    /// Size of the file in bytes.
    let fileSize: Int
    /// Entries in directory order.
    private(set) var entries: [Entry] = []
    /// File offset of the central directory.
    private(set) var directoryOffset = 0
    /// The open file, or −1 once closed (closed exactly once: a second close could close a
    /// descriptor another thread has just been given).
    private(set) var fd: Int32

    static let localHeaderSignature: UInt32 = 0x0403_4B50
    static let centralHeaderSignature: UInt32 = 0x0201_4B50
    static let endSignature: UInt32 = 0x0605_4B50
    static let zip64EndSignature: UInt32 = 0x0606_4B50
    static let zip64LocatorSignature: UInt32 = 0x0706_4B50

    /// Opens `path` and reads its central directory.
    /// - Throws: ``RecordingError``: `.unreadable` (open/read failure), `.empty`, `.unknownFormat`
    ///   (not a ZIP archive), `.truncated` (no end record, or a directory beyond the end of the
    ///   file), `.syntax` (a malformed directory), `.unsupported` (spanned archives).
    /// - Complexity: O(directory size); reads at most 64 KiB + the directory.
    init(path: String) throws(RecordingError) {
        self.path = path
        (fd, fileSize) = try RegularFile.open(path)
        do {
            try readDirectory()
        } catch {
            close(fd)
            fd = -1
            throw error
        }
    }

    deinit { if fd >= 0 { close(fd) } }

    /// Reads up to `buffer.count` bytes at file offset `offset`; fewer only at the end of the file.
    func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int) throws(RecordingError) -> Int {
        try PositionalRead.read(fd, into: buffer, at: offset, path: path)
    }

    /// `count` bytes at `offset` (fewer at the end of the file).
    func bytes(at offset: Int, count: Int) throws(RecordingError) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: count)
        let got = try out.withUnsafeMutableBytes { b in
            Result { () throws(RecordingError) -> Int in try read(into: b, at: offset) }
        }.get()
        out.removeLast(count - got)
        return out
    }

    static func u16(_ b: [UInt8], _ i: Int) -> Int { Int(b[i]) | Int(b[i + 1]) << 8 }
    static func u32(_ b: [UInt8], _ i: Int) -> Int { u16(b, i) | u16(b, i + 2) << 16 }
    static func u64(_ b: [UInt8], _ i: Int) -> UInt64 { UInt64(u32(b, i)) | UInt64(u32(b, i + 4)) << 32 }

    /// A 64-bit size or offset that must fit in the file.
    func checked(_ v: UInt64, _ what: String, at offset: Int) throws(RecordingError) -> Int {
        guard v <= UInt64(Int.max / 2) else {
            throw RecordingError(.syntax, file: path, byteOffset: offset, "ZIP64 \(what) \(v) is not a valid size")
        }
        return Int(v)
    }

    private func readDirectory() throws(RecordingError) {
        guard fileSize > 0 else { throw RecordingError(.empty, file: path, "the file is empty") }
        let head = try bytes(at: 0, count: min(4, fileSize))
        let startsLikeZip =
            head.count == 4 && head[0] == 0x50 && head[1] == 0x4B
            && (head[2] == 3 || head[2] == 5) && (head[3] == 4 || head[3] == 6)
        guard startsLikeZip else {
            throw RecordingError(
                .unknownFormat, file: path, byteOffset: 0,
                "not a ZIP archive (a .gt3x file is one): the file does not start with 'PK\\3\\4'")
        }
        // The end record is the last 22 bytes plus a comment of up to 65,535 bytes.
        let tailCount = min(fileSize, 22 + 65_535)
        let tailStart = fileSize - tailCount
        let tail = try bytes(at: tailStart, count: tailCount)
        var end: Int?
        var i = tail.count - 22
        while i >= 0 {
            if tail[i] == 0x50 && tail[i + 1] == 0x4B && tail[i + 2] == 5 && tail[i + 3] == 6
                && i + 22 + Self.u16(tail, i + 20) <= tail.count
            {
                end = i
                break
            }
            i -= 1
        }
        guard let e = end else {
            throw RecordingError(
                .truncated, file: path, byteOffset: fileSize,
                "the ZIP archive has no end-of-central-directory record "
                    + "(the file ends here; truncated?)")
        }
        let endOffset = tailStart + e
        let disk = Self.u16(tail, e + 4), directoryDisk = Self.u16(tail, e + 6)
        var count = Self.u16(tail, e + 10)
        var size = Self.u32(tail, e + 12)
        var offset = Self.u32(tail, e + 16)
        if count == 0xFFFF || size == 0xFFFF_FFFF || offset == 0xFFFF_FFFF {
            // ZIP64: the locator sits just before the end record.
            guard endOffset >= 20 else {
                throw RecordingError(
                    .syntax, file: path, byteOffset: endOffset,
                    "ZIP64 end-of-central-directory locator missing before the end record")
            }
            let loc = try bytes(at: endOffset - 20, count: 20)
            guard Self.u32(loc, 0) == Self.zip64LocatorSignature else {
                throw RecordingError(
                    .syntax, file: path, byteOffset: endOffset - 20,
                    "ZIP64 end-of-central-directory locator missing before the end record")
            }
            let recordOffset = try checked(Self.u64(loc, 8), "end record offset", at: endOffset - 12)
            let rec = try bytes(at: recordOffset, count: 56)
            guard rec.count == 56, Self.u32(rec, 0) == Self.zip64EndSignature else {
                throw RecordingError(
                    .syntax, file: path, byteOffset: recordOffset,
                    "expected the ZIP64 end-of-central-directory record here")
            }
            count = try checked(Self.u64(rec, 32), "entry count", at: recordOffset + 32)
            size = try checked(Self.u64(rec, 40), "directory size", at: recordOffset + 40)
            offset = try checked(Self.u64(rec, 48), "directory offset", at: recordOffset + 48)
        } else if disk != 0 || directoryDisk != 0 {
            throw RecordingError(
                .unsupported, file: path, byteOffset: endOffset,
                "spanned (multi-disk) ZIP archives are not decoded")
        }
        guard offset + size <= endOffset else {
            throw RecordingError(
                .truncated, file: path, byteOffset: endOffset,
                "the end record places the central directory at bytes \(offset)..<\(offset + size), "
                    + "beyond its own position (file truncated or corrupt)")
        }
        guard size <= 64 << 20 else {
            throw RecordingError(
                .unsupported, file: path, byteOffset: offset,
                "central directory of \(size) bytes is larger than 64 MiB")
        }
        directoryOffset = offset
        let dir = try bytes(at: offset, count: size)
        var p = 0
        for _ in 0..<count {
            guard p + 46 <= dir.count, Self.u32(dir, p) == Self.centralHeaderSignature else {
                throw RecordingError(
                    .syntax, file: path, byteOffset: offset + p,
                    "expected a ZIP central directory header (PK\\1\\2) here")
            }
            let nameLength = Self.u16(dir, p + 28), extraLength = Self.u16(dir, p + 30)
            let commentLength = Self.u16(dir, p + 32)
            let next = p + 46 + nameLength + extraLength + commentLength
            guard next <= dir.count else {
                throw RecordingError(
                    .syntax, file: path, byteOffset: offset + p,
                    "ZIP central directory header runs past the end of the directory")
            }
            var entry = Entry(
                name: String(decoding: dir[(p + 46)..<(p + 46 + nameLength)], as: UTF8.self),
                flags: UInt16(Self.u16(dir, p + 8)), method: UInt16(Self.u16(dir, p + 10)),
                crc32: UInt32(Self.u32(dir, p + 16)), compressedSize: Self.u32(dir, p + 20),
                uncompressedSize: Self.u32(dir, p + 24), localHeaderOffset: Self.u32(dir, p + 42),
                directoryOffset: offset + p)
            // ZIP64 extended information: only the fields whose 32-bit value is saturated, in order.
            var x = p + 46 + nameLength
            let extraEnd = x + extraLength
            while x + 4 <= extraEnd {
                let id = Self.u16(dir, x), length = Self.u16(dir, x + 2)
                guard x + 4 + length <= extraEnd else { break }
                if id == 0x0001 {
                    var f = x + 4
                    func take() throws(RecordingError) -> Int {
                        guard f + 8 <= x + 4 + length else {
                            throw RecordingError(
                                .syntax, file: path, byteOffset: offset + f,
                                "ZIP64 extra field of '\(entry.name)' is too short")
                        }
                        defer { f += 8 }
                        return try checked(Self.u64(dir, f), "size or offset", at: offset + f)
                    }
                    if entry.uncompressedSize == 0xFFFF_FFFF { entry.uncompressedSize = try take() }
                    if entry.compressedSize == 0xFFFF_FFFF { entry.compressedSize = try take() }
                    if entry.localHeaderOffset == 0xFFFF_FFFF { entry.localHeaderOffset = try take() }
                }
                x += 4 + length
            }
            entries.append(entry)
            p = next
        }
    }

    /// The entry called `name`, if any.
    func entry(named name: String) -> Entry? { entries.first { $0.name == name } }

    /// File offset of the first data byte of `entry` (after its local header), checked to lie,
    /// with its compressed size, inside the file.
    /// - Throws: `.syntax` for a missing local header, `.truncated` when the data run past the
    ///   end of the file, `.unsupported` for encrypted entries or methods other than stored and
    ///   deflate.
    func dataStart(of entry: Entry) throws(RecordingError) -> Int {
        if entry.flags & 1 != 0 {
            throw RecordingError(
                .unsupported, file: path, byteOffset: entry.directoryOffset,
                "ZIP entry '\(entry.name)' is encrypted")
        }
        guard entry.method == 0 || entry.method == 8 else {
            throw RecordingError(
                .unsupported, file: path, byteOffset: entry.directoryOffset,
                "ZIP entry '\(entry.name)' uses compression method \(entry.method); "
                    + "only 0 (stored) and 8 (deflate) are decoded")
        }
        let h = try bytes(at: entry.localHeaderOffset, count: 30)
        guard h.count == 30, Self.u32(h, 0) == Self.localHeaderSignature else {
            throw RecordingError(
                .syntax, file: path, byteOffset: entry.localHeaderOffset,
                "expected the local file header (PK\\3\\4) of ZIP entry '\(entry.name)' here")
        }
        let start = entry.localHeaderOffset + 30 + Self.u16(h, 26) + Self.u16(h, 28)
        guard start + entry.compressedSize <= fileSize else {
            throw RecordingError(
                .truncated, file: path, byteOffset: fileSize,
                "the file ends before the \(entry.compressedSize) data bytes of ZIP entry "
                    + "'\(entry.name)' starting at byte \(start)")
        }
        return start
    }
}

import CZlib

/// Reads one ZIP entry's uncompressed bytes sequentially — stored, or raw deflate (RFC 1951,
/// zlib `inflateInit2` with window bits −15) — with memory bounded by one 64 KiB input chunk,
/// and checks the entry's size and CRC-32 once its end is reached.
final class ZipEntryReader {
    let archive: ZipArchive
    let entry: ZipArchive.Entry
    /// File offset of the entry's first data byte.
    let dataStart: Int
    /// Uncompressed bytes delivered so far.
    private(set) var position = 0
    /// Whether the end of the entry has been reached.
    private(set) var atEnd = false

    private var consumed = 0
    private let inflater: Inflater? // set for a deflated entry
    private var crc: uLong = 0

    /// Opens `entry` of `archive`.
    /// - Throws: the errors of ``ZipArchive/dataStart(of:)``; `.unreadable` if zlib fails.
    init(archive: ZipArchive, entry: ZipArchive.Entry) throws(RecordingError) {
        self.archive = archive
        self.entry = entry
        dataStart = try archive.dataStart(of: entry)
        crc = crc32(0, nil, 0)
        if entry.method == 8 {
            do {
                inflater = try Inflater(.rawDeflate, inputBufferSize: 1 << 16)
            } catch {
                throw RecordingError(
                    .unreadable, file: archive.path, byteOffset: dataStart,
                    "zlib could not initialise (\(error.code))")
            }
        } else {
            inflater = nil
        }
    }

    /// Reads up to `buffer.count` uncompressed bytes.
    /// - Returns: the bytes read; 0 only at the end of the entry.
    /// - Throws: `.truncated` when the deflate stream stops before its end marker, `.syntax` for
    ///   corrupt deflate data (file offset of the compressed byte), `.unreadable` for I/O errors.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws(RecordingError) -> Int {
        guard buffer.count > 0, !atEnd else { return 0 }
        var produced = 0
        if let inflater {
            let archive = self.archive
            let step = try inflater.inflate(into: buffer) { input throws(RecordingError) in
                let want = min(input.count, entry.compressedSize - consumed)
                guard want > 0 else {
                    throw RecordingError(
                        .truncated, file: archive.path, byteOffset: dataStart + consumed,
                        "the deflate data of ZIP entry '\(entry.name)' end before their end marker")
                }
                let at = dataStart + consumed
                let got = try archive.read(into: UnsafeMutableRawBufferPointer(rebasing: input[0..<want]), at: at)
                guard got > 0 else {
                    throw RecordingError(
                        .truncated, file: archive.path, byteOffset: at,
                        "the file ends inside the deflate data of ZIP entry '\(entry.name)'")
                }
                consumed += got
                return got
            }
            produced = step.produced
            switch step.status {
            case .progressed: break
            case .streamEnded: atEnd = true
            case .failed(let why):
                throw RecordingError(
                    .syntax, file: archive.path,
                    byteOffset: dataStart + consumed - inflater.bufferedInputCount,
                    "corrupt deflate data in ZIP entry '\(entry.name)' (detected at this byte): \(why)")
            }
        } else {
            let want = min(buffer.count, entry.compressedSize - consumed)
            if want > 0 {
                produced = try archive.read(
                    into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<want]),
                    at: dataStart + consumed)
                consumed += produced
            }
            if produced < buffer.count { atEnd = true }
        }
        if produced > 0 {
            crc = crc32(crc, buffer.baseAddress!.assumingMemoryBound(to: Bytef.self), uInt(produced))
            position += produced
        }
        return produced
    }

    /// Compares the delivered size and CRC-32 with the directory (call once ``read(into:)``
    /// has returned 0).
    /// - Returns: `nil` when both match, otherwise what differs.
    func verify() -> String? {
        var problems = [String]()
        if position != entry.uncompressedSize {
            problems.append("\(position) bytes instead of the \(entry.uncompressedSize) the ZIP directory gives")
        }
        if UInt32(truncatingIfNeeded: crc) != entry.crc32 {
            problems.append(
                "CRC-32 0x\(hex32(UInt32(truncatingIfNeeded: crc))) instead of the ZIP directory's "
                    + "0x\(hex32(entry.crc32))")
        }
        return problems.isEmpty ? nil : problems.joined(separator: "; ")
    }

    private func hex32(_ v: UInt32) -> String {
        let s = String(v, radix: 16, uppercase: true)
        return String(repeating: "0", count: 8 - s.count) + s
    }

    /// Reads the whole entry (small entries such as `info.txt`).
    /// - Parameter limit: largest accepted uncompressed size in bytes.
    /// - Throws: as ``read(into:)``; `.unsupported` above `limit`.
    func readAll(limit: Int) throws(RecordingError) -> [UInt8] {
        guard entry.uncompressedSize <= limit else {
            throw RecordingError(
                .unsupported, file: archive.path, byteOffset: entry.directoryOffset,
                "ZIP entry '\(entry.name)' is \(entry.uncompressedSize) bytes, more than \(limit)")
        }
        var out = [UInt8](repeating: 0, count: max(entry.uncompressedSize, 1) + 1)
        var filled = 0
        while true {
            let from = filled
            let n = try out.withUnsafeMutableBytes { b in
                Result { () throws(RecordingError) -> Int in
                    try read(into: UnsafeMutableRawBufferPointer(rebasing: b[from...]))
                }
            }.get()
            if n == 0 { break }
            filled += n
            if filled == out.count {
                guard out.count <= limit else {
                    throw RecordingError(
                        .unsupported, file: archive.path, byteOffset: entry.directoryOffset,
                        "ZIP entry '\(entry.name)' is larger than \(limit) bytes")
                }
                out.append(contentsOf: repeatElement(0, count: out.count))
            }
        }
        out.removeLast(out.count - filled)
        return out
    }
}

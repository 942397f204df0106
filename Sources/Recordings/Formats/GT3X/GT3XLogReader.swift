/// Splits the `log.bin` entry of a `.gt3x` file into log records, streaming, with memory bounded
/// by the read size plus one record (at most 65,544 bytes).
///
/// Record layout (ActiGraph, "GT3X-File-Format", README "Log Record Format"): separator `0x1E`,
/// type (1 byte), timestamp (UInt32 little-endian, Unix seconds on the device clock), payload size
/// (UInt16 little-endian), payload, checksum — the one's complement of the XOR of the header and
/// payload bytes. Zero bytes between records occur and are skipped (same README, "Extra bytes
/// with 0's between valid records").
final class GT3XLogReader {
    /// One record; its payload lies in ``GT3XLogReader/buffer`` until the next call.
    struct Record {
        /// Offset of the separator byte in `log.bin`.
        var offset: Int
        var type: UInt8
        var timestamp: UInt32
        /// Payload bytes within ``GT3XLogReader/buffer``.
        var payload: Range<Int>
        /// Checksum byte stored after the payload.
        var storedChecksum: UInt8
        /// Checksum computed from the header and payload.
        var computedChecksum: UInt8
        var checksumMatches: Bool { storedChecksum == computedChecksum }
    }

    let entry: ZipEntryReader
    let path: String
    /// Current window of `log.bin`.
    private(set) var buffer: [UInt8]
    private var start = 0
    private var end = 0
    private var windowOffset = 0 // log.bin offset of buffer[0]
    private var eof = false

    /// Creates a reader over `entry`, reading `readSize` bytes at a time (at least 64 KiB + 9).
    init(entry: ZipEntryReader, path: String, readSize: Int = 1 << 20) {
        self.entry = entry
        self.path = path
        buffer = [UInt8](repeating: 0, count: max(readSize, 65_544 + 16))
    }

    /// Makes at least `n` unread bytes available; `false` at the end of the entry before that.
    private func ensure(_ n: Int) throws(RecordingError) -> Bool {
        while end - start < n {
            if eof { return false }
            if start > 0 {
                let count = end - start
                buffer.withUnsafeMutableBytes { b in
                    b.baseAddress!.copyMemory(from: b.baseAddress! + start, byteCount: count)
                }
                windowOffset += start
                end = count
                start = 0
            }
            let entry = self.entry, from = end
            let got = try buffer.withUnsafeMutableBytes { b in
                Result { () throws(RecordingError) -> Int in
                    try entry.read(into: UnsafeMutableRawBufferPointer(rebasing: b[from...]))
                }
            }.get()
            if got == 0 { eof = true } else { end += got }
        }
        return true
    }

    /// The next record, or `nil` at the end of `log.bin`.
    /// - Throws: ``RecordingError`` `.syntax` when a byte other than `0x1E` or `0x00` stands
    ///   where a record must start (the framing is lost), `.truncated` when `log.bin` ends inside
    ///   a record, and the errors of the entry reader.
    /// - Complexity: O(payload size).
    func next() throws(RecordingError) -> Record? {
        while true {
            guard try ensure(1) else { return nil }
            let b = buffer[start]
            if b == 0 { start += 1; continue }
            guard b == 0x1E else {
                throw RecordingError(
                    .syntax, file: path, byteOffset: windowOffset + start,
                    "log.bin byte \(windowOffset + start): expected a record separator 0x1E, found "
                        + "0x\(Self.hex(b)) (the record framing is lost)")
            }
            break
        }
        let offset = windowOffset + start
        guard try ensure(8) else {
            throw RecordingError(
                .truncated, file: path, byteOffset: offset,
                "log.bin ends inside the header of the record starting at log.bin byte \(offset)")
        }
        let type = buffer[start + 1]
        var ts = UInt32(buffer[start + 2])
        ts |= UInt32(buffer[start + 3]) << 8
        ts |= UInt32(buffer[start + 4]) << 16
        ts |= UInt32(buffer[start + 5]) << 24
        let size = Int(buffer[start + 6]) | Int(buffer[start + 7]) << 8
        guard try ensure(9 + size) else {
            throw RecordingError(
                .truncated, file: path, byteOffset: offset,
                "log.bin ends inside the record starting at log.bin byte \(offset) (type 0x\(Self.hex(type)), "
                    + "\(size) payload bytes declared, \(max(0, end - start - 8)) present)")
        }
        let computed = buffer.withUnsafeBytes { b in Self.xor(UnsafeRawBufferPointer(rebasing: b[start..<start + 8 + size])) }
        let record = Record(
            offset: offset, type: type, timestamp: ts, payload: (start + 8)..<(start + 8 + size),
            storedChecksum: buffer[start + 8 + size], computedChecksum: ~computed)
        start += 9 + size
        return record
    }

    /// XOR of all bytes, eight at a time.
    static func xor(_ bytes: UnsafeRawBufferPointer) -> UInt8 {
        var acc: UInt64 = 0
        var i = 0
        let n = bytes.count
        while i + 8 <= n {
            acc ^= bytes.loadUnaligned(fromByteOffset: i, as: UInt64.self)
            i += 8
        }
        var tail: UInt8 = 0
        while i < n { tail ^= bytes[i]; i += 1 }
        acc ^= acc >> 32
        acc ^= acc >> 16
        acc ^= acc >> 8
        return UInt8(truncatingIfNeeded: acc) ^ tail
    }

    static func hex(_ b: UInt8) -> String {
        let s = String(b, radix: 16, uppercase: true)
        return s.count == 1 ? "0" + s : s
    }
}

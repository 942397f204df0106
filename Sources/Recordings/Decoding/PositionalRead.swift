import Glibc

/// Reads from a file descriptor at an offset (`pread`), retrying short reads and `EINTR`.
enum PositionalRead {
    /// Reads up to `buffer.count` bytes at file offset `offset`; fewer only at the end of the file.
    /// - Parameters:
    ///   - fd: an open descriptor.
    ///   - buffer: where the bytes go.
    ///   - offset: file offset, bytes.
    ///   - path: the file, for the error.
    /// - Returns: bytes read.
    /// - Throws: ``RecordingError`` `.unreadable` naming the file and the byte offset.
    /// - Complexity: O(buffer.count).
    static func read(
        _ fd: Int32, into buffer: UnsafeMutableRawBufferPointer, at offset: Int,
        path: String
    ) throws(RecordingError) -> Int {
        var done = 0
        while done < buffer.count {
            let got = pread(fd, buffer.baseAddress! + done, buffer.count - done, off_t(offset + done))
            if got < 0 {
                if errno == EINTR { continue }
                throw RecordingError(.unreadable, file: path, byteOffset: offset + done, String(cString: strerror(errno)))
            }
            if got == 0 { break }
            done += got
        }
        return done
    }
}

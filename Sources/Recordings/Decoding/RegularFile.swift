#if canImport(Glibc)
    import Glibc
#endif

/// Opens input files for reading, refusing anything that is not a regular file (or a symbolic
/// link to one) without ever blocking: a FIFO, socket, device or folder among the inputs is a
/// clear error for that file, never a hang.
///
/// The file is opened with `O_NONBLOCK` (opening a FIFO without a writer would otherwise wait
/// forever), checked with `fstat`, and only then switched back to blocking reads.
public enum RegularFile {
    /// What kind of file `mode` (`st_mode`) describes, for messages.
    static func kind(_ mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFDIR: return "a folder"
        case S_IFIFO: return "a FIFO (named pipe)"
        case S_IFSOCK: return "a socket"
        case S_IFCHR: return "a character device"
        case S_IFBLK: return "a block device"
        case S_IFLNK: return "a symbolic link"
        default: return "not a regular file"
        }
    }

    /// The message for a non-regular file of mode `mode`.
    static func refusal(_ mode: mode_t) -> String {
        "the path names \(kind(mode)), not a regular file; only regular files (or symbolic links to them) are read"
    }

    /// Opens `path` read-only (close-on-exec) after checking that it is a regular file. A path
    /// with bytes that are not UTF-8 is given as ``FilePathBytes`` decodes it.
    /// - Parameter path: the file.
    /// - Returns: an open, blocking file descriptor and the file's size in bytes; the caller closes it.
    /// - Throws: ``RecordingError`` `.unreadable` naming the file: the system's reason when it
    ///   cannot be opened (`No such file or directory`, …), or what it is when it is not a regular file.
    /// - Complexity: O(1) system calls; never blocks on a FIFO.
    public static func open(_ path: String) throws(RecordingError) -> (fd: Int32, size: Int) {
        let fd = FilePathBytes.withCString(path) { Glibc.open($0, O_RDONLY | O_CLOEXEC | O_NONBLOCK) }
        guard fd >= 0 else {
            throw RecordingError(.unreadable, file: path, String(cString: strerror(errno)))
        }
        var st = stat()
        guard fstat(fd, &st) == 0 else {
            let why = String(cString: strerror(errno))
            close(fd)
            throw RecordingError(.unreadable, file: path, why)
        }
        guard st.st_mode & S_IFMT == S_IFREG else {
            close(fd)
            throw RecordingError(.unreadable, file: path, refusal(st.st_mode))
        }
        let flags = fcntl(fd, F_GETFL)
        if flags >= 0 { _ = fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) }
        return (fd, Int(st.st_size))
    }

    /// Whether `path` exists and is a regular file (following symbolic links), without opening it.
    /// - Parameter path: the file.
    /// - Returns: `nil` when it is a regular file, else the reason it would be refused
    ///   (missing, or what it is).
    /// - Complexity: one `stat`.
    public static func problem(_ path: String) -> String? {
        guard let st = FilePathBytes.status(path) else { return String(cString: strerror(errno)) }
        return st.st_mode & S_IFMT == S_IFREG ? nil : refusal(st.st_mode)
    }
}

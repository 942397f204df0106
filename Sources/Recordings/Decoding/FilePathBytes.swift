#if canImport(Glibc)
    import Glibc
#endif

/// File names as the file system has them: bytes. Linux allows any byte but `/` and NUL in a name,
/// while a Swift `String` holds only valid Unicode; reading a name that is not UTF-8 (a Latin-1
/// `é` as byte 0xE9, from an old export or a Windows share) into a `String` the usual way turns
/// each bad byte into U+FFFD, and the file can then never be opened again.
///
/// SensorPipe keeps such names reversibly: a byte that is not part of valid UTF-8 becomes the
/// private-use code point U+10FF00 + byte (U+10FF80 … U+10FFFF, from plane 16, which no
/// published character set assigns); every system call gets the original bytes back through
/// ``withCString(_:_:)``. Paths read from the command line (``arguments``), from folders
/// (``directoryEntries(_:)``) and from manifests (``decode(_:)``) go through it, so a
/// recording named with such bytes is found, opened, hashed and stored under that same string (in
/// SQLite as its UTF-8, each escaped byte as the 4-byte UTF-8 of its code point). Caveat: a name
/// that really contains code points U+10FF80 … U+10FFFF is read as bytes (none is known to exist).
public enum FilePathBytes {
    /// First code point of the escapes (byte 0x80 maps to U+10FF80).
    static let escapeBase: UInt32 = 0x10_FF00

    /// A string for the bytes of a path: valid UTF-8 decoded, every other byte escaped.
    /// - Parameter bytes: the path's bytes (no NUL).
    /// - Returns: the string (equal to the UTF-8 decoding when the bytes are valid UTF-8).
    /// - Complexity: O(bytes).
    public static func decode(_ bytes: some Collection<UInt8>) -> String {
        if let valid = String(validating: bytes, as: UTF8.self) { return valid }
        var out = String.UnicodeScalarView()
        let b = Array(bytes)
        var i = 0
        while i < b.count {
            let length = sequenceLength(b, at: i)
            if length > 0, let s = String(validating: b[i..<i + length], as: UTF8.self) {
                out.append(contentsOf: s.unicodeScalars)
                i += length
            } else {
                out.append(Unicode.Scalar(escapeBase + UInt32(b[i]))!)
                i += 1
            }
        }
        return String(out)
    }

    /// The length of the well-formed UTF-8 sequence starting at `i`, or 0 (RFC 3629 §4).
    static func sequenceLength(_ b: [UInt8], at i: Int) -> Int {
        let c = b[i]
        let n: Int
        switch c {
        case 0x00...0x7F: return 1
        case 0xC2...0xDF: n = 2
        case 0xE0...0xEF: n = 3
        case 0xF0...0xF4: n = 4
        default: return 0
        }
        guard i + n <= b.count else { return 0 }
        for k in 1..<n where b[i + k] & 0xC0 != 0x80 { return 0 }
        // Overlong and surrogate forms are rejected by the validating decoder.
        return n
    }

    /// The bytes of a path string: escaped bytes restored, everything else as UTF-8.
    /// - Parameter path: a path (from ``decode(_:)`` or any string).
    /// - Returns: the bytes, without a terminating NUL.
    /// - Complexity: O(length).
    public static func bytes(_ path: String) -> [UInt8] {
        var out = [UInt8]()
        out.reserveCapacity(path.utf8.count)
        for s in path.unicodeScalars {
            if s.value >= escapeBase + 0x80 && s.value <= escapeBase + 0xFF {
                out.append(UInt8(s.value - escapeBase))
            } else {
                out.append(contentsOf: String(s).utf8)
            }
        }
        return out
    }

    /// The path for messages: each escaped byte shown as `\xE9`, everything else as it is.
    /// - Parameter path: the path.
    /// - Returns: printable text.
    /// - Complexity: O(length).
    public static func display(_ path: String) -> String {
        var out = ""
        for s in path.unicodeScalars {
            if s.value >= escapeBase + 0x80 && s.value <= escapeBase + 0xFF {
                out += "\\x" + String(s.value - escapeBase, radix: 16, uppercase: true)
            } else {
                out.unicodeScalars.append(s)
            }
        }
        return out
    }

    /// Calls `body` with the path's original bytes as a NUL-terminated C string (for `open`,
    /// `stat`, `opendir`, …).
    /// - Parameters:
    ///   - path: the path.
    ///   - body: the call.
    /// - Returns: what `body` returns.
    /// - Complexity: O(length).
    public static func withCString<R>(_ path: String, _ body: (UnsafePointer<CChar>) throws -> R) rethrows -> R {
        // Plain UTF-8 (the usual case) needs no copy.
        if !path.unicodeScalars.contains(where: { $0.value >= escapeBase + 0x80 && $0.value <= escapeBase + 0xFF }) {
            return try path.withCString(body)
        }
        var b = bytes(path)
        b.append(0)
        return try b.withUnsafeBufferPointer { p in
            try p.withMemoryRebound(to: CChar.self) { try body($0.baseAddress!) }
        }
    }

    /// The process's arguments (without the program name), each decoded by ``decode(_:)``
    /// (`CommandLine.arguments` would replace bad bytes with U+FFFD).
    public static var arguments: [String] {
        (1..<Int(CommandLine.argc)).map { k in
            guard let p = CommandLine.unsafeArgv[k] else { return "" }
            return decode(UnsafeBufferPointer(start: UnsafeRawPointer(p).assumingMemoryBound(to: UInt8.self), count: strlen(p)))
        }
    }

    /// The names in a folder (without `.` and `..`), each decoded by ``decode(_:)``, or `nil`
    /// when the folder cannot be read.
    /// - Parameter folder: the folder.
    /// - Returns: the names, in the order the file system gives them.
    /// - Complexity: O(entries).
    public static func directoryEntries(_ folder: String) -> [String]? {
        guard let dir = withCString(folder, { opendir($0) }) else { return nil }
        defer { closedir(dir) }
        var names = [String]()
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw -> String in
                let count = raw.firstIndex(of: 0) ?? raw.count
                return decode(raw[0..<count])
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// `stat(2)` of a path (following symbolic links), or `nil` with `errno` set.
    /// - Parameter path: the path.
    /// - Returns: the status.
    /// - Complexity: one system call.
    public static func status(_ path: String) -> stat? {
        var st = stat()
        return withCString(path) { stat($0, &st) } == 0 ? st : nil
    }
}

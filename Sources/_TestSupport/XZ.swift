import Foundation

/// Unpacks the `.xz`-compressed files of the shared datasets (`../shared/datasets`) for suites
/// that read them, with the system's `xz`.
public enum XZ {
    /// What went wrong unpacking a file.
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// Whether an `xz` executable is installed.
    public static var isAvailable: Bool {
        ["/usr/bin/xz", "/bin/xz", "/usr/local/bin/xz"].contains { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Decompresses `source` (an `.xz` file) to `destination` unless it exists already. The
    /// output goes to a uniquely named partial file first and is moved into place only when `xz`
    /// exits with status 0, so suites running in parallel may unpack the same file and a failed
    /// run leaves nothing behind.
    /// - Parameters:
    ///   - source: the compressed file.
    ///   - destination: the decompressed file to create.
    /// - Throws: ``Failure`` naming `source` when `xz` cannot run or exits with a non-zero status,
    ///   or when the result cannot be placed at `destination`.
    /// - Complexity: one `xz -dc` process per call that unpacks.
    public static func unpack(_ source: URL, to destination: URL) throws {
        let fm = FileManager.default
        guard !fm.fileExists(atPath: destination.path) else { return }
        try? fm.createDirectory(at: destination.deletingLastPathComponent(), withIntermediateDirectories: true)
        let partial = destination.deletingLastPathComponent()
            .appendingPathComponent("\(destination.lastPathComponent).\(UUID().uuidString).partial")
        _ = fm.createFile(atPath: partial.path, contents: nil)
        let out = try FileHandle(forWritingTo: partial)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["xz", "-dc", source.path]
        p.standardOutput = out
        do {
            try p.run()
        } catch {
            try? out.close()
            try? fm.removeItem(at: partial)
            throw Failure(description: "cannot run xz on \(source.path): \(error)")
        }
        p.waitUntilExit()
        try out.close()
        guard p.terminationStatus == 0 else {
            try? fm.removeItem(at: partial)
            throw Failure(description: "xz exited with status \(p.terminationStatus) on \(source.path)")
        }
        if (try? fm.moveItem(at: partial, to: destination)) == nil {
            try? fm.removeItem(at: partial)
            guard fm.fileExists(atPath: destination.path) else { throw Failure(description: "cannot place \(destination.path)") }
        }
    }
}

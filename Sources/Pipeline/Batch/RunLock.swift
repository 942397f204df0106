import Foundation
import Signals

/// An exclusive lock on a batch's output, held while a run writes it: `flock(2)` on
/// `OUTPUT.lock` (a file beside the database, or inside a CSV folder), taken without waiting.
/// A second `sensorpipe run` on the same output fails at once, naming the process that holds it,
/// instead of storing every recording twice. The lock file stays (it holds only a process id);
/// the lock itself is released when the run ends or its process dies.
final class RunLock {
    private let fd: Int32

    /// Takes the lock.
    /// - Parameters:
    ///   - path: the lock file.
    ///   - output: the output it guards, for the message.
    /// - Throws: ``BatchStoreError`` when another process holds it or the file cannot be opened.
    init(path: String, guarding output: String) throws {
        fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            throw BatchStoreError(.locked, description: "\(path): cannot open the lock file: \(String(cString: strerror(errno)))")
        }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            var buffer = [UInt8](repeating: 0, count: 32)
            let n = pread(fd, &buffer, 31, 0)
            let holder = n > 0 ? String(decoding: buffer[0..<n], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines) : "?"
            close(fd)
            throw BatchStoreError(
                .locked,
                description: "another sensorpipe run (process \(holder)) is writing \((output as NSString).lastPathComponent); "
                    + "wait for it to finish or write to another --out")
        }
        let pid = Array("\(getpid())\n".utf8)
        _ = ftruncate(fd, 0)
        _ = pwrite(fd, pid, pid.count, 0)
    }

    deinit {
        flock(fd, LOCK_UN)
        close(fd)
    }
}

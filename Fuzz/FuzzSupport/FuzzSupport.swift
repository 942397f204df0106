import Recordings

#if canImport(Glibc)
    import Glibc
#endif

/// Shared by the libFuzzer targets (`scripts/fuzz.sh`): decoders read paths, so each input is
/// written to a file in a per-process folder (in /dev/shm when present), then decoded to the end.
public enum FuzzSupport {
    /// Hands the process to libFuzzer with `callback` as the target (libFuzzer's own `main` is
    /// replaced by SwiftPM's entry point, so its driver is called explicitly).
    public static func run(_ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32) -> Never {
        var argc = CommandLine.argc
        var argv = CommandLine.unsafeArgv
        exit(LLVMFuzzerRunDriver(&argc, &argv, callback))
    }

    /// The per-process scratch folder.
    public static let folder: String = {
        let base = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp"
        let path = "\(base)/sensorpipe-fuzz-\(getpid())"
        mkdir(path, 0o700)
        return path
    }()

    /// Writes `bytes` to `name` in ``folder``; returns the path.
    @discardableResult
    public static func write(_ bytes: UnsafeRawBufferPointer, name: String) -> String {
        let path = folder + "/" + name
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        precondition(fd >= 0, "cannot write \(path)")
        var done = 0
        while done < bytes.count {
            let n = Glibc.write(fd, bytes.baseAddress! + done, bytes.count - done)
            precondition(n > 0, "short write to \(path)")
            done += n
        }
        close(fd)
        return path
    }

    /// The input as a buffer.
    public static func buffer(_ data: UnsafePointer<UInt8>?, _ size: Int) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: data, count: data == nil ? 0 : size)
    }

    /// Decodes every event; a `RecordingError` is the expected outcome for bad input. After a
    /// clean end every stream's account must balance (samples read = emitted + duplicates +
    /// rejected): a violation is a bug, reported as a crash.
    public static func drain(_ make: () throws(RecordingError) -> any RecordingDecoder) {
        guard let decoder = try? make() else { return }
        var events = 0
        do {
            while try decoder.next() != nil { events += 1 }
        } catch {
            return
        }
        for (k, a) in decoder.accounts.enumerated() where !a.isBalanced {
            fatalError("stream \(k) of \(decoder.path): unbalanced account \(a)")
        }
        _ = events
    }
}

/// `int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*cb)(const uint8_t *, size_t))` (libFuzzer).
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<Int32>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
) -> Int32

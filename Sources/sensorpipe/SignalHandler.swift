import Foundation

/// Per signal number, the write end of the pipe its C handler writes to (-1: none). A C signal
/// handler cannot capture context; it only writes one byte here (`write(2)` is
/// async-signal-safe) and a thread does the rest.
nonisolated(unsafe) private let signalPipeWriteEnds: UnsafeMutablePointer<Int32> = {
    let p = UnsafeMutablePointer<Int32>.allocate(capacity: 65)
    p.initialize(repeating: -1, count: 65)
    return p
}()

/// Runs a handler on a thread of its own when the process receives a signal (instead of the
/// signal's default action), until ``cancel()`` restores the default action. (A Dispatch signal
/// source does not see a signal on Linux unless every thread blocks it.)
final class SignalHandler {
    private let signal: Int32
    private let readEnd: Int32
    private let writeEnd: Int32
    /// Whether the signal was ignored when the handler was installed (it then stays ignored).
    private let ignored: Bool

    /// - Parameters:
    ///   - signal: the signal (`SIGINT`; 1…64).
    ///   - handler: runs once, on its own thread, after the first such signal.
    init(_ signal: Int32, handler: @escaping @Sendable () -> Void) {
        precondition(signal > 0 && signal <= 64, "signal number out of range")
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { fatalError("pipe(2) failed: \(String(cString: strerror(errno)))") }
        self.signal = signal
        (readEnd, writeEnd) = (fds[0], fds[1])
        signalPipeWriteEnds[Int(signal)] = writeEnd
        let previous = Foundation.signal(signal) { s in
            var byte: UInt8 = 1
            _ = write(signalPipeWriteEnds[Int(s)], &byte, 1)
        }
        // A signal ignored at start stays ignored (a background job of a non-interactive shell
        // ignores SIGINT); one blocked by the parent (a test runner's Process) is unblocked for
        // this thread and the threads it starts from now on.
        ignored = unsafeBitCast(previous, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self)
        if ignored {
            Foundation.signal(signal, SIG_IGN)
        } else {
            var set = sigset_t()
            sigemptyset(&set)
            sigaddset(&set, signal)
            pthread_sigmask(SIG_UNBLOCK, &set, nil)
        }
        let readEnd = self.readEnd
        Thread.detachNewThread {
            var byte: UInt8 = 0
            while true {
                let n = read(readEnd, &byte, 1)
                if n == 1 { return handler() }
                if n < 0 && errno == EINTR { continue }
                close(readEnd) // the write end was closed: cancelled
                return
            }
        }
    }

    /// Stops handling; the signal's previous action (default, or ignored) applies again.
    func cancel() {
        if !ignored { Foundation.signal(signal, SIG_DFL) }
        signalPipeWriteEnds[Int(signal)] = -1
        close(writeEnd)
    }
}

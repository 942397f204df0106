import Dispatch
import Foundation

/// Runs a handler when the process receives a signal (instead of the signal's default action),
/// until ``cancel()``: the default action is then restored.
final class SignalHandler {
    private let signal: Int32
    private let source: any DispatchSourceSignal

    /// - Parameters:
    ///   - signal: the signal (`SIGINT`).
    ///   - handler: runs on a global queue, not in the signal's context.
    init(_ signal: Int32, handler: @escaping @Sendable () -> Void) {
        self.signal = signal
        Foundation.signal(signal, SIG_IGN) // delivered to the dispatch source only
        source = DispatchSource.makeSignalSource(signal: signal, queue: .global())
        source.setEventHandler(handler: handler)
        source.resume()
    }

    /// Stops handling; the signal's default action applies again.
    func cancel() {
        source.cancel()
        Foundation.signal(signal, SIG_DFL)
    }
}

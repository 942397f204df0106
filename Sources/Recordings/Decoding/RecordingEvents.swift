/// The events of one recording file as an `AsyncSequence`: the pull-based decoder
/// (``RecordingDecoder/next()``) behind `for try await`.
///
/// Each iteration opens the file anew (``RecordingOpener/open(path:options:)``, on the first
/// `next()`) and closes it when the iterator ends, throws or is dropped, so the sequence is a
/// `Sendable` value that can be iterated several times. Decoding runs on the calling task (one
/// block per `next()`, no extra thread). A cancelled task gets `CancellationError` at its next
/// `next()`, never a silently short recording.
///
/// ```swift
/// for try await event in RecordingEvents(path: "Datasets/ecg/watch-1_mitdb100_1716282000.ndjson.gz") {
///     if case .block(let block) = event { samples += block.count }
/// }
/// ```
public struct RecordingEvents: AsyncSequence, Sendable {
    public typealias Element = RecordingEvent

    /// The recording file.
    public let path: String
    /// Format, mapping and block-size overrides.
    public let options: DecodeOptions

    /// The events of `path`.
    /// - Parameters:
    ///   - path: a recording file, as for ``RecordingOpener/open(path:options:)``.
    ///   - options: format, mapping and block-size overrides (default: automatic).
    public init(path: String, options: DecodeOptions = DecodeOptions()) {
        self.path = path
        self.options = options
    }

    public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(path: path, options: options) }

    /// Decodes on demand, one event per `next()`.
    public struct AsyncIterator: AsyncIteratorProtocol {
        let path: String
        let options: DecodeOptions
        var decoder: (any RecordingDecoder)?
        var ended = false

        /// The next event, or `nil` at the end of the recording.
        /// - Throws: ``RecordingError`` when the file cannot be opened or read on;
        ///   `CancellationError` when the task is cancelled. After a throw the iterator ends.
        /// - Complexity: one decoder step (at most one block of samples).
        public mutating func next() async throws -> RecordingEvent? {
            if Task.isCancelled && !ended {
                end()
                throw CancellationError()
            }
            return try step()
        }

        /// One decoder step (synchronous: the decoder never waits on other tasks).
        private mutating func step() throws -> RecordingEvent? {
            guard !ended else { return nil }
            do {
                if decoder == nil { decoder = try RecordingOpener.open(path: path, options: options).decoder }
                if let event = try decoder?.next() { return event }
            } catch {
                end()
                throw error
            }
            end()
            return nil
        }

        /// Releases the decoder (and its file).
        private mutating func end() {
            ended = true
            decoder = nil
        }
    }
}

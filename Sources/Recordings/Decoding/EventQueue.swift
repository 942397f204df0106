/// The events a decoder has produced but not yet delivered, first in first out, and at most one
/// error deferred until they are all delivered.
///
/// Decoders produce events in batches (a chunk of a file) and hand them out one per
/// ``RecordingDecoder/next()``; delivered slots are dropped when the queue runs empty (and
/// before the storage is handed to a producer), so memory stays bounded by the largest batch.
struct EventQueue {
    /// Events appended so far; `storage[head...]` are not yet delivered.
    private var storage: [RecordingEvent] = []
    private var head = 0
    private var deferredError: RecordingError?

    /// Creates an empty queue.
    init() {}

    /// Whether every queued event has been delivered (a deferred error does not count).
    var isEmpty: Bool { head == storage.count }

    /// Queues `event` after the others.
    /// - Complexity: amortised O(1).
    mutating func append(_ event: RecordingEvent) {
        storage.append(event)
    }

    /// Queues `events` after the others, in order.
    /// - Complexity: amortised O(`events.count`).
    mutating func append(contentsOf events: [RecordingEvent]) {
        storage.append(contentsOf: events)
    }

    /// Makes ``next()`` throw `error` once every event queued before or after this call has been
    /// delivered (a decoder that meets a fatal problem first delivers the samples before it).
    /// - Complexity: O(1).
    mutating func deferError(_ error: RecordingError) {
        deferredError = error
    }

    /// Removes and returns the oldest undelivered event.
    /// - Returns: the event; `nil` when none is queued (then the delivered slots are dropped).
    /// - Throws: the deferred error, once, when no event is queued.
    /// - Complexity: O(1), or O(events delivered) when the queue runs empty.
    mutating func next() throws(RecordingError) -> RecordingEvent? {
        if head < storage.count {
            let event = storage[head]
            head += 1
            return event
        }
        storage.removeAll(keepingCapacity: true)
        head = 0
        if let error = deferredError {
            deferredError = nil
            throw error
        }
        return nil
    }

    /// Runs `body` on the undelivered events as one array, which it may append to: for the
    /// producers that write `into: &events` (``StreamAssembler``, ``CSVRowDecoder``) or swap a
    /// working array in and out around a hot loop.
    /// - Parameter body: appends events; must not remove any.
    /// - Returns: what `body` returns.
    /// - Throws: what `body` throws.
    /// - Complexity: O(1) plus `body`, or O(events queued) to drop delivered slots first.
    mutating func withEvents<R, E: Error>(_ body: (inout [RecordingEvent]) throws(E) -> R) throws(E) -> R {
        if head > 0 {
            if head == storage.count {
                storage.removeAll(keepingCapacity: true)
            } else {
                storage.removeSubrange(0..<head)
            }
            head = 0
        }
        return try body(&storage)
    }
}

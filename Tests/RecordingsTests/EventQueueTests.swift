import Testing

@testable import Recordings

@Suite("EventQueue: decoders' undelivered events and deferred error")
struct EventQueueTests {
    static func issue(_ message: String) -> RecordingEvent {
        .issue(RecordingError(.syntax, file: "f", message))
    }

    /// The message of an issue event (the events these tests queue).
    static func message(_ event: RecordingEvent?) -> String? {
        if case .issue(let e)? = event { return e.message }
        return nil
    }

    @Test("first in, first out; nil once empty")
    func order() throws {
        var q = EventQueue()
        #expect(q.isEmpty)
        q.append(Self.issue("a"))
        q.append(contentsOf: [Self.issue("b"), Self.issue("c")])
        #expect(!q.isEmpty)
        #expect(Self.message(try q.next()) == "a")
        q.append(Self.issue("d"))
        for expected in ["b", "c", "d"] { #expect(Self.message(try q.next()) == expected) }
        #expect(q.isEmpty)
        #expect(try q.next() == nil)
        #expect(try q.next() == nil)
    }

    @Test("a deferred error comes after every queued event, also those queued after it, once")
    func deferredError() throws {
        var q = EventQueue()
        q.append(Self.issue("a"))
        q.deferError(RecordingError(.truncated, file: "f", "stop"))
        q.append(Self.issue("b"))
        #expect(Self.message(try q.next()) == "a")
        #expect(Self.message(try q.next()) == "b")
        #expect(throws: RecordingError(.truncated, file: "f", "stop")) { try q.next() }
        #expect(try q.next() == nil)
    }

    @Test("withEvents hands over exactly the undelivered events, and what is appended to them follows")
    func withEvents() throws {
        var q = EventQueue()
        q.append(contentsOf: [Self.issue("a"), Self.issue("b"), Self.issue("c")])
        #expect(Self.message(try q.next()) == "a")
        let seen = q.withEvents { events -> [String?] in
            events.append(Self.issue("d"))
            return events.map { Self.message($0) }
        }
        #expect(seen == ["b", "c", "d"])
        for expected in ["b", "c", "d"] { #expect(Self.message(try q.next()) == expected) }
        #expect(q.withEvents { $0.isEmpty })
        #expect(try q.next() == nil)
    }
}

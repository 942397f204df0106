import Signals
import Testing

@Suite("AnalyzerTable: the per-stream analysers of a recording analysis")
struct AnalyzerTableTests {
    struct Counter {
        var samples: [Int] = []
        mutating func add(_ n: Int) -> Int {
            samples.append(n)
            return samples.count
        }
    }

    struct Failure: Error {}

    @Test("update mutates in place, keeps the value after a throw, and order is the order of adding")
    func updateAndOrder() throws {
        var t = AnalyzerTable<String, Counter>()
        t.add(Counter(), for: "b")
        t.add(Counter(), for: "a")
        t.add(Counter(samples: [9]), for: "b") // replaces, keeps its place
        #expect(t.order == ["b", "a"])
        #expect(t.update("a") { $0.add(1) } == 1)
        #expect(t.update("a") { $0.add(2) } == 2)
        #expect(t.update("missing") { $0.add(1) } == nil)
        #expect(throws: Failure.self) {
            try t.update("b") { c in
                _ = c.add(5)
                throw Failure()
            }
        }
        #expect(t["b"]?.samples == [9, 5]) // the mutation before the throw stays
        #expect(t.contains("a") && !t.contains("missing"))
        let removed = t.remove("a")
        #expect(removed?.samples == [1, 2] && t["a"] == nil && !t.contains("a"))
        #expect(t.order == ["b", "a"]) // a removed key stays listed
    }

    @Test("a mutation through update does not copy the analyser's storage")
    func noCopy() {
        var t = AnalyzerTable<Int, Counter>()
        t.add(Counter(samples: Array(0..<1000)), for: 0)
        let before = t[0]!.samples.withUnsafeBufferPointer { $0.baseAddress }
        t.update(0) { $0.samples[0] = -1 }
        let after = t[0]!.samples.withUnsafeBufferPointer { $0.baseAddress }
        #expect(before == after)
    }
}

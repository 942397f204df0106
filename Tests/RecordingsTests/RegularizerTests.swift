import Foundation
import Recordings
import Testing
import _TestSupport

@Suite("Regularizer: explicit, segment-bounded resampling onto a uniform grid")
struct RegularizerTests {
    func jitteryBlocks(capacity: Int) -> [SampleBlock] {
        var rng = SeededGenerator(seed: 11)
        var a = StreamAssembler(stream: 0, columnCount: 2, uniform: false, blockCapacity: capacity)
        var events = [RecordingEvent]()
        var t = 100.0
        for i in 0..<500 {
            t += 0.02 + Double.random(in: -0.005...0.005, using: &rng)
            if i == 250 { t += 1.0 } // a gap: two segments
            let v: [Float] = [Float(3 * t - 300), Float(sin(2 * .pi * 0.5 * t))]
            let flags: SampleFlags = i == 100 ? .signalInvalid : []
            v.withUnsafeBufferPointer { a.append(time: t, values: $0, flags: flags, into: &events) }
        }
        a.finish(into: &events)
        return events.compactMap { if case .block(let b) = $0 { return b } else { return nil } }
    }

    func regularize(_ blocks: [SampleBlock]) -> [SampleBlock] {
        var r = Regularizer(sampleRate: 50)
        var out = [SampleBlock]()
        for b in blocks { r.process(b, into: &out) }
        return out
    }

    @Test("output is identical for any input block size")
    func chunkedEqualsWhole() {
        let whole = regularize(jitteryBlocks(capacity: 100_000))
        for capacity in [1, 3, 17, 128] {
            let chunked = regularize(jitteryBlocks(capacity: capacity))
            for seg in 0..<2 {
                let a = whole.filter { $0.segment == seg }, b = chunked.filter { $0.segment == seg }
                #expect(a.flatMap { $0.columns[0] } == b.flatMap { $0.columns[0] })
                #expect(a.flatMap { $0.columns[1] } == b.flatMap { $0.columns[1] })
                #expect(a.flatMap(\.flags) == b.flatMap(\.flags))
                #expect(b.last?.endsSegment == true)
            }
        }
    }

    @Test("linear signals are reproduced exactly on the grid; nothing crosses the gap")
    func linearExactAndGap() {
        let out = regularize(jitteryBlocks(capacity: 64))
        for seg in 0..<2 {
            let blocks = out.filter { $0.segment == seg }
            var worst: Float = 0
            var n = 0
            for b in blocks {
                for i in 0..<b.count {
                    let t = b.time(at: i)
                    worst = max(worst, abs(b.columns[0][i] - Float(3 * t - 300)))
                    n += 1
                }
            }
            #expect(worst < 1e-3) // Float rounding of values ~100
            #expect(n > 200 && n < 260) // ~5 s per segment at 50 Hz
        }
        // Segment 1 starts after the gap: its first grid time is its own first timestamp.
        let first1 = out.first { $0.segment == 1 }!
        let last0 = out.last { $0.segment == 0 }!
        #expect(first1.time(at: 0) - last0.time(at: last0.count - 1) > 1.0)
        // The masked input sample masks the grid points beside it.
        let maskedCount = out.reduce(0) { $0 + $1.maskedCount }
        #expect(maskedCount >= 1 && maskedCount <= 2)
    }

    @Test("the shared grid: times as declared (k / rate or k · step), the walk hands over exactly the due points")
    func sharedGrid() {
        var rng = SeededGenerator(seed: 5)
        // Grid times against the plain formulas (the table path for k / R ≥ 2048, division below).
        for rate in [25.0, 50.0, 100.0, 30.5] {
            let grid = ClockGrid(sampleRate: rate, origin: 1_716_282_000)
            for _ in 0..<2000 {
                let k = Int.random(in: -1000...200_000_000, using: &rng)
                #expect(grid.time(k) == 1_716_282_000 + Double(k) / rate)
            }
        }
        let stepped = ClockGrid(step: 1 / 25.0, origin: 12.5)
        for k in [0, 1, 7, 12_345, 9_999_999] { #expect(stepped.time(k) == 12.5 + Double(k) * (1 / 25.0)) }
        // The exact walk: each grid point once, in order, in the input interval that covers it.
        var walk = GridWalk(grid: ClockGrid(sampleRate: 50, origin: 3))
        var t = 3.0, previous = 3.0, seen = [Int]()
        walk.next = 1
        for _ in 0..<1000 {
            t += 0.02 + Double.random(in: -0.015...0.015, using: &rng)
            walk.advance(through: t) { k, g, onSample in
                #expect(g > previous && g <= t && onSample == (g == t))
                seen.append(k)
            }
            previous = t
        }
        #expect(seen == Array(1..<(seen.count + 1)))
        #expect(3 + Double(seen.count + 1) / 50 > t)
        // Snapping: a time within 0.1 % of a grid interval of a point is on it.
        var snapping = GridWalk(grid: ClockGrid(sampleRate: 50), snap: 1e-3)
        let onPoint = snapping.startRun(at: 2.0 - 0.00001)
        #expect(onPoint && snapping.next == 100)
        let offPoint = snapping.startRun(at: 2.001)
        #expect(!offPoint && snapping.next == 101)
    }
}

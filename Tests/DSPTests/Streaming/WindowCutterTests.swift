import DSP
import Testing

@Suite("WindowCutter: windows, clock alignment and the latency hold")
struct WindowCutterTests {
    @Test("stream-start windows: starts, ends, the window holding a position (floor division)")
    func startAligned() {
        let c = WindowCutter(length: 1000, step: 250, origin: 0)
        #expect(c.start(of: 3) == 750 && c.end(of: 3) == 1750)
        let e = WindowCutter(length: 500, step: 500, origin: 0)
        #expect(e.window(containing: 0) == 0 && e.window(containing: 499) == 0 && e.window(containing: 500) == 1)
        #expect(e.window(containing: -1) == -1 && e.window(containing: -500) == -1 && e.window(containing: -501) == -2)
        let s = WindowCutter(length: 10.0, step: 5.0, origin: 3.5)
        #expect(s.start(of: 2) == 13.5 && s.end(of: 2) == 23.5 && s.window(containing: 13.4) == 1)
    }

    @Test("clock-aligned windows start at multiples of the step at or before the first sample")
    func clockAligned() {
        let c = WindowCutter(length: 10.0, step: 10.0, alignedTo: 0, startingAt: 1_700_000_003.7)
        #expect(c.start(of: c.next) == 1_700_000_000 && c.end(of: c.next) == 1_700_000_010)
        let overlapping = WindowCutter(length: 30.0, step: 10.0, alignedTo: 0, startingAt: 25.0)
        #expect(overlapping.start(of: overlapping.next) == 20)
        let negative = WindowCutter(length: 10.0, step: 10.0, alignedTo: 0, startingAt: -0.5)
        #expect(negative.start(of: negative.next) == -10)
    }

    @Test("the hold releases each window once, in order, only when final through its end")
    func hold() {
        var c = WindowCutter(length: 8, step: 2, origin: 0)
        var released = [Int]()
        for limit in [5, 8, 9, 13, 13, 100] {
            while let k = c.nextFinal(through: limit) {
                released.append(k)
                c.releaseNext()
                if released.count == 20 { break }
            }
        }
        #expect(released == Array(0..<20))
        var d = WindowCutter(length: 8, step: 2, origin: 0)
        #expect(d.nextFinal(through: 7) == nil && d.nextFinal(through: 8) == 0)
        #expect(d.isFinal(1, through: 10) && !d.isFinal(2, through: 11))
        d.skip(toFirstEndingAfter: 40)
        #expect(d.next == 17 && d.end(of: d.next) == 42 && d.end(of: d.next - 1) == 40)
        d.skip(toFirstEndingAfter: 3) // never back
        #expect(d.next == 17)
    }

    @Test("valid fraction: valid ÷ expected, at most 1, 0 when nothing is expected")
    func validFraction() {
        #expect(WindowCutter<Double>.validFraction(valid: 400, expected: 500) == 0.8)
        #expect(WindowCutter<Double>.validFraction(valid: 600, expected: 500) == 1)
        #expect(WindowCutter<Double>.validFraction(valid: 3, expected: .nan) == 0)
    }
}

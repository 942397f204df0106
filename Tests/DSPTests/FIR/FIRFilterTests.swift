import DSP
import Testing
import _TestSupport

/// Feeds `x` to a copy of `filter` in the given block sizes, then finishes.
func runChunked<P: StreamingProcessor>(_ filter: P, _ x: [P.Scalar], blocks: [Int]) -> [P.Scalar] {
    var f = filter
    var out = [P.Scalar]()
    var start = 0
    x.withUnsafeBufferPointer { xb in
        for b in blocks {
            f.process(UnsafeBufferPointer(rebasing: xb[start..<start + b]), into: &out)
            start += b
        }
    }
    f.finish(into: &out)
    return out
}

/// Number of positions where two arrays differ in any bit (or `Int.max` if the lengths differ).
func bitDifferences<T: BinaryFloatingPoint>(_ a: [T], _ b: [T]) -> Int {
    guard a.count == b.count else { return Int.max }
    var n = 0
    for i in a.indices where a[i] != b[i] || a[i].sign != b[i].sign { n += 1 }
    return n
}

@Suite("FIRFilter (direct form) against numpy.convolve")
struct FIRFilterTests {
    @Test("Double, odd and even tap counts, equals np.convolve(x, h, 'same')")
    func sameConvolution() throws {
        let x = try Fixtures.doubles("DSPTests", "fir/conv_short_x.npy")
        let cases = try FIRFixtures.cases("conv_short")
        #expect(cases.count == 12)
        for i in stride(from: 0, to: cases.count, by: 2) {
            let h = cases[i].values, y = cases[i + 1].values
            let got = FIRFilter<Double>(taps: h).apply(x)
            #expect(got.count == x.count)
            guard got.count == x.count else { continue }
            let e = Compare.maxErrorRelativeToPeak(got, y)
            // Measured ≤ 1.5e-15 (M = 1000).
            #expect(e < 1e-13, "taps \(h.count): error \(e)")
        }
    }

    @Test("Signals shorter than the filter: the 'full' convolution sliced at the delay")
    func shortSignals() throws {
        let cases = try FIRFixtures.cases("conv_edge")
        var h = [Double]()
        var checked = 0
        var i = 0
        while i < cases.count {
            if cases[i].string("part") == "h" { h = cases[i].values; i += 1; continue }
            let x = cases[i].values, y = cases[i + 1].values
            let got = FIRFilter<Double>(taps: h).apply(x)
            #expect(got.count == x.count)
            if got.count == x.count {
                #expect(Compare.maxErrorRelativeToPeak(got, y) < 1e-13)
            }
            checked += 1
            i += 2
        }
        #expect(checked == 12)
    }

    @Test("Chunked feeding (random blocks, 1, primes) is bit-identical to whole")
    func chunkedIsExact() throws {
        let x = try Fixtures.doubles("DSPTests", "fir/conv_short_x.npy").map(Float.init)
        let h = try FIRDesign(tapCount: 63, response: .bandPass(low: 5, high: 30), sampleRate: 512).taps
        let filter = FIRFilter<Float>(taps: h)
        let whole = filter.apply(x)
        var rng = SeededGenerator(seed: 7)
        let plans: [[Int]] = [
            rng.blockSizes(total: x.count, maxBlock: 50),
            rng.blockSizes(total: x.count, maxBlock: 5000),
            [Int](repeating: 1, count: x.count),
            [7, 13, 101, 1009] + [Int](repeating: 1, count: x.count - 1130),
        ]
        for blocks in plans {
            #expect(blocks.reduce(0, +) == x.count)
            #expect(bitDifferences(runChunked(filter, x, blocks: blocks), whole) == 0)
        }
    }

    @Test("finish resets: a second segment gives the same output; empty input gives none")
    func segments() throws {
        let x = try Fixtures.doubles("DSPTests", "fir/conv_short_x.npy")
        var f = FIRFilter<Double>(taps: [0.25, 0.5, 0.25])
        var a = [Double](), b = [Double](), c = [Double]()
        f.process(x, into: &a); f.finish(into: &a)
        f.process(x, into: &b); f.finish(into: &b)
        f.finish(into: &c)
        #expect(a.count == x.count)
        #expect(bitDifferences(a, b) == 0)
        #expect(c.isEmpty)
        #expect(f.delay == 1)
    }
}

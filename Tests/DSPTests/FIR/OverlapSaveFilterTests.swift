import DSP
import Testing
import _TestSupport

@Suite("OverlapSaveFilter against numpy.convolve")
struct OverlapSaveFilterTests {
    @Test("Float, 1e5 samples, 1025-tap band-pass: within 1e-5 of the float64 reference (relative to its peak)")
    func longFloat() throws {
        let x = try Fixtures.doubles("DSPTests", "fir/conv_long_x.npy").map(Float.init)
        let h = try Fixtures.doubles("DSPTests", "fir/conv_long_h.npy")
        let y = try Fixtures.doubles("DSPTests", "fir/conv_long_y.npy")
        let filter = OverlapSaveFilter<Float>(taps: h)
        #expect(filter.fftSize == 16384)
        let got = filter.apply(x).map(Double.init)
        #expect(got.count == y.count)
        guard got.count == y.count else { return }
        let e = Compare.maxErrorRelativeToPeak(got, y)
        // Measured 2.4e-7 (float32 arithmetic; the float32 storage of the reference is 3.5e-8).
        #expect(e < 1e-5, "error relative to peak \(e)")
        // The Swift design reproduces the fixture's taps.
        let design = try FIRDesign(tapCount: 1025, response: .bandPass(low: 0.5, high: 40), sampleRate: 512)
        #expect(Compare.maxErrorRelativeToPeak(design.taps, h) < 1e-12)
    }

    @Test(
        "Double, odd and even tap counts, several FFT sizes: equals np.convolve 'same'",
        arguments: [nil, 0, 1, 3] as [Int?])
    func shortDouble(sizeChoice: Int?) throws {
        let x = try Fixtures.doubles("DSPTests", "fir/conv_short_x.npy")
        let cases = try FIRFixtures.cases("conv_short")
        for i in stride(from: 0, to: cases.count, by: 2) {
            let h = cases[i].values, y = cases[i + 1].values
            // nil: default; 0: N = M (one output per frame); 1: next power of two ≥ M + 1;
            // 3: a non-power-of-two (3·2^k) size.
            let m = h.count
            var n: Int? = nil
            switch sizeChoice {
            case 0: n = m
            case 1: n = 1 << (Int.bitWidth - (m).leadingZeroBitCount)
            case 3: n = 3 * (1 << (Int.bitWidth - (m).leadingZeroBitCount))
            default: n = nil
            }
            let filter = OverlapSaveFilter<Double>(taps: h, fftSize: n)
            let got = filter.apply(x)
            #expect(got.count == x.count)
            guard got.count == x.count else { continue }
            let e = Compare.maxErrorRelativeToPeak(got, y)
            // Measured ≤ 8e-16.
            #expect(e < 1e-13, "taps \(m), fftSize \(filter.fftSize): error \(e)")
        }
    }

    @Test("Signals shorter than the filter and than one frame")
    func shortSignals() throws {
        let cases = try FIRFixtures.cases("conv_edge")
        var h = [Double]()
        var checked = 0
        var i = 0
        while i < cases.count {
            if cases[i].string("part") == "h" { h = cases[i].values; i += 1; continue }
            let x = cases[i].values, y = cases[i + 1].values
            for n in [nil, h.count] as [Int?] {
                let got = OverlapSaveFilter<Double>(taps: h, fftSize: n).apply(x)
                #expect(got.count == x.count)
                if got.count == x.count {
                    #expect(Compare.maxErrorRelativeToPeak(got, y) < 1e-13)
                }
            }
            checked += 1
            i += 2
        }
        #expect(checked == 12)
    }

    @Test("Chunked feeding (random blocks, 1, primes, blocks > FFT size) is bit-identical to whole")
    func chunkedIsExact() throws {
        let x = try Fixtures.doubles("DSPTests", "fir/conv_long_x.npy").map(Float.init)
        let h = try Fixtures.doubles("DSPTests", "fir/conv_long_h.npy")
        let filter = OverlapSaveFilter<Float>(taps: h)
        let whole = filter.apply(x)
        var rng = SeededGenerator(seed: 11)
        let n = x.count
        let plans: [[Int]] = [
            rng.blockSizes(total: n, maxBlock: 40_000), // many blocks larger than N = 16384
            rng.blockSizes(total: n, maxBlock: 700),
            [Int](repeating: 1, count: n),
            [16411, 7, 1, 16381, 2, 101] + [Int](repeating: 1, count: 5) + [n - 32908], // primes
            [n],
        ]
        for blocks in plans {
            #expect(blocks.reduce(0, +) == n)
            #expect(bitDifferences(runChunked(filter, x, blocks: blocks), whole) == 0)
        }
    }

    @Test("Agrees with the direct-form FIRFilter")
    func agreesWithDirectForm() throws {
        let x = try Fixtures.doubles("DSPTests", "fir/conv_short_x.npy")
        for (m, response) in [
            (101, FIRDesign.Response.highPass(cutoff: 20)),
            (64, .lowPass(cutoff: 30)),
        ] {
            let h = try FIRDesign(tapCount: m, response: response, sampleRate: 512).taps
            let direct = FIRFilter<Double>(taps: h).apply(x)
            let fast = OverlapSaveFilter<Double>(taps: h).apply(x)
            #expect(Compare.maxErrorRelativeToPeak(fast, direct) < 1e-13)
        }
    }

    @Test("Copies stream independently; finish resets for a new segment")
    func valueSemanticsAndSegments() throws {
        let x = try Fixtures.doubles("DSPTests", "fir/conv_short_x.npy").map(Float.init)
        let h = try FIRDesign(tapCount: 257, response: .lowPass(cutoff: 40), sampleRate: 512).taps
        var a = OverlapSaveFilter<Float>(taps: h, fftSize: 512)
        let whole = a.apply(x)
        var outA = [Float]()
        a.process(Array(x[..<1000]), into: &outA)
        var b = a // copy mid-stream
        var outB = outA
        a.process(Array(x[1000...]), into: &outA)
        a.finish(into: &outA)
        b.process(Array(x[1000...]), into: &outB)
        b.finish(into: &outB)
        #expect(bitDifferences(outA, whole) == 0)
        #expect(bitDifferences(outB, whole) == 0)
        // After finish the filter starts a new segment from zero state.
        var again = [Float]()
        a.process(x, into: &again)
        a.finish(into: &again)
        #expect(bitDifferences(again, whole) == 0)
        var none = [Float]()
        a.finish(into: &none)
        #expect(none.isEmpty)
    }

    @Test("Default FFT sizes")
    func defaultSizes() {
        #expect(OverlapSaveFilter<Float>.defaultFFTSize(tapCount: 1) == 256)
        #expect(OverlapSaveFilter<Float>.defaultFFTSize(tapCount: 17) == 256)
        #expect(OverlapSaveFilter<Float>.defaultFFTSize(tapCount: 257) == 4096)
        #expect(OverlapSaveFilter<Float>.defaultFFTSize(tapCount: 1025) == 16384)
        #expect(OverlapSaveFilter<Float>.defaultFFTSize(tapCount: 8193) == 32768)
        #expect(OverlapSaveFilter<Double>.defaultFFTSize(tapCount: 1025) == 4096)
        #expect(OverlapSaveFilter<Double>.defaultFFTSize(tapCount: 100_000) >= 100_000)
    }
}

import Testing
import _TestSupport

@testable import DSP

@Suite("PolyphaseResampler against scipy.signal.resample_poly")
struct PolyphaseResamplerTests {
    static let ratios = [(128, 512), (512, 125), (360, 500), (3, 2), (1, 1), (2, 1), (1, 3), (7, 3)]

    static func load(_ name: String) throws -> [Double] {
        try Fixtures.doubles("DSPTests", "resample/\(name).npy")
    }

    @Test(
        "Prototype filter equals firwin(2H+1, 1/max, kaiser 5)·up",
        arguments: [(1, 4), (512, 125), (18, 25)])
    func prototypeFilter(up: Int, down: Int) throws {
        let expected = try Self.load("h_\(up)_\(down)")
        let kernel = ResamplingKernel<Double>(up: up, down: down, kaiserBeta: 5)
        #expect(2 * kernel.halfLength + 1 == expected.count)
        // Undo the polyphase layout: branch p, slot i holds h[p + (L−1−i)·up].
        var h = [Double](repeating: .nan, count: expected.count)
        for p in 0..<up {
            for i in 0..<kernel.tapsPerPhase {
                let index = p + (kernel.tapsPerPhase - 1 - i) * up
                if index < h.count { h[index] = kernel.taps[p * kernel.tapsPerPhase + i] }
            }
        }
        #expect(Compare.maxErrorRelativeToPeak(h, expected) < 1e-14)
    }

    @Test("Double: whole signal within 1e-13 of SciPy", arguments: ratios)
    func wholeDouble(up: Int, down: Int) throws {
        let x = try Self.load("x_double")
        let expected = try Self.load("y_double_\(up)_\(down)")
        let resampler = PolyphaseResampler<Double>(up: up, down: down)
        #expect(resampler.outputCount(forInputCount: x.count) == expected.count)
        let y = resampler.apply(x)
        try #require(y.count == expected.count)
        #expect(Compare.maxErrorRelativeToPeak(y, expected) < 1e-13)
    }

    @Test("Double: signals shorter than the filter", arguments: [1, 2, 5, 17])
    func short(n: Int) throws {
        let x = try Self.load("x_short_\(n)")
        for (up, down) in [(128, 512), (512, 125), (3, 2)] {
            let expected = try Self.load("y_short_\(n)_\(up)_\(down)")
            let y = PolyphaseResampler<Double>(up: up, down: down).apply(x)
            try #require(y.count == expected.count)
            #expect(Compare.maxErrorRelativeToPeak(y, expected) < 1e-13, "n=\(n) \(up)/\(down)")
        }
    }

    @Test(
        "Float: 1e5 and 2e4 samples within 1e-5 (of peak) of SciPy's float32 result",
        arguments: [("long", 128, 512), ("mid", 360, 500), ("mid", 512, 125)])
    func wholeFloat(name: String, up: Int, down: Int) throws {
        let x = try Self.load("x_float_\(name)").map(Float.init)
        let expected = try Self.load("y_float_\(name)_\(up)_\(down)")
        let y = PolyphaseResampler<Float>(up: up, down: down).apply(x)
        try #require(y.count == expected.count)
        let error = Compare.maxErrorRelativeToPeak(y.map(Double.init), expected)
        #expect(error < 1e-5)
    }

    @Test("Factors are reduced by their gcd")
    func reduction() {
        let r = PolyphaseResampler<Float>(up: 360, down: 500)
        #expect(r.upFactor == 18 && r.downFactor == 25)
        #expect(r.filterLength == 501)
        #expect(r.outputCount(forInputCount: 1001) == 721) // ⌈1001·18/25⌉
        #expect(PolyphaseResampler<Float>(up: 7, down: 7).outputCount(forInputCount: 5) == 5)
        #expect(PolyphaseResampler<Double>(up: 3, down: 2).apply([]).isEmpty)
    }
}

@Suite("StreamingPolyphaseResampler: chunked equals whole")
struct StreamingPolyphaseResamplerTests {
    @Test(
        "Random block sizes give bit-identical output (Double)",
        arguments: PolyphaseResamplerTests.ratios)
    func chunkedDouble(up: Int, down: Int) throws {
        let x = try PolyphaseResamplerTests.load("x_double")
        let whole = PolyphaseResampler<Double>(up: up, down: down).apply(x)
        var rng = SeededGenerator(seed: UInt64(up * 1000 + down))
        var stream = StreamingPolyphaseResampler<Double>(up: up, down: down)
        for maxBlock in [1, 7, 64, 1000, 5000] {
            var out = [Double]()
            var start = 0
            for size in rng.blockSizes(total: x.count, maxBlock: maxBlock) {
                stream.process(Array(x[start..<start + size]), into: &out)
                start += size
            }
            stream.finish(into: &out) // also resets: the next round reuses the stream
            try #require(out.count == whole.count, "maxBlock \(maxBlock)")
            let mismatches = zip(out, whole).filter { $0 != $1 }.count
            #expect(mismatches == 0, "maxBlock \(maxBlock)")
        }
    }

    @Test("Streaming Float matches SciPy within 1e-5 and equals whole-signal output")
    func chunkedFloat() throws {
        let x = try PolyphaseResamplerTests.load("x_float_long").map(Float.init)
        let expected = try PolyphaseResamplerTests.load("y_float_long_128_512")
        let whole = PolyphaseResampler<Float>(up: 128, down: 512).apply(x)
        var rng = SeededGenerator(seed: 42)
        var stream = StreamingPolyphaseResampler<Float>(up: 128, down: 512)
        var out = [Float]()
        var start = 0
        for size in rng.blockSizes(total: x.count, maxBlock: 4096) {
            x.withUnsafeBufferPointer { stream.process(UnsafeBufferPointer(rebasing: $0[start..<start + size]), into: &out) }
            start += size
        }
        stream.finish(into: &out)
        try #require(out.count == expected.count)
        #expect(zip(out, whole).filter { $0 != $1 }.count == 0)
        #expect(Compare.maxErrorRelativeToPeak(out.map(Double.init), expected) < 1e-5)
    }

    @Test("Short segments and empty blocks", arguments: [1, 2, 5, 17])
    func shortSegments(n: Int) throws {
        let x = try PolyphaseResamplerTests.load("x_short_\(n)")
        for (up, down) in [(128, 512), (512, 125), (3, 2)] {
            let expected = try PolyphaseResamplerTests.load("y_short_\(n)_\(up)_\(down)")
            var stream = StreamingPolyphaseResampler<Double>(up: up, down: down)
            var out = [Double]()
            stream.process([], into: &out)
            for v in x { stream.process([v], into: &out); stream.process([], into: &out) }
            stream.finish(into: &out)
            try #require(out.count == expected.count)
            #expect(Compare.maxErrorRelativeToPeak(out, expected) < 1e-13, "n=\(n) \(up)/\(down)")
        }
        var empty = StreamingPolyphaseResampler<Double>(up: 3, down: 2)
        var out = [Double]()
        empty.finish(into: &out)
        #expect(out.isEmpty)
    }

    @Test("Outputs are emitted as soon as their inputs have arrived")
    func latency() {
        // 1/4: output j needs inputs up to 4j + 40, so 1000 inputs (0…999) finalise outputs 0…239.
        var stream = StreamingPolyphaseResampler<Float>(up: 1, down: 4)
        var out = [Float]()
        stream.process([Float](repeating: 1, count: 1000), into: &out)
        #expect(out.count == 240)
        stream.finish(into: &out)
        #expect(out.count == 250)
    }
}

import DSP
import Testing
import _TestSupport

@Suite("FFT against numpy.fft")
struct FFTTests {
    static let sizes = [1, 2, 7, 64, 1000, 4096, 6561]

    @Test("RealFFT<Double> matches numpy.fft.rfft", arguments: sizes)
    func realDouble(n: Int) throws {
        let x = try Fixtures.doubles("DSPTests", "fft/x_\(n).npy")
        let expected = try Fixtures.doubles("DSPTests", "fft/rfft_\(n).npy")
        let fft = RealFFT<Double>(count: n)
        let got = fft.forward(x)
        #expect(Compare.maxErrorRelativeToPeak(got, expected) < 1e-13)
        // Round trip: inverse is unnormalised.
        let back = fft.inverse(got).map { $0 / Double(n) }
        #expect(Compare.maxErrorRelativeToPeak(back, x) < 1e-13)
    }

    @Test("RealFFT<Float> matches numpy.fft.rfft", arguments: sizes)
    func realFloat(n: Int) throws {
        let x = try Fixtures.doubles("DSPTests", "fft/x_\(n).npy").map(Float.init)
        let expected = try Fixtures.doubles("DSPTests", "fft/rfft_\(n).npy")
        let got = RealFFT<Float>(count: n).forward(x).map(Double.init)
        #expect(Compare.maxErrorRelativeToPeak(got, expected) < 1e-5)
    }

    @Test("ComplexFFT<Double> matches numpy.fft.fft", arguments: sizes)
    func complexDouble(n: Int) throws {
        let z = try Fixtures.doubles("DSPTests", "fft/z_\(n).npy")
        let expected = try Fixtures.doubles("DSPTests", "fft/fft_\(n).npy")
        let fft = ComplexFFT<Double>(count: n)
        let got = fft.transform(z)
        #expect(Compare.maxErrorRelativeToPeak(got, expected) < 1e-13)
        let back = fft.transform(got, inverse: true).map { $0 / Double(n) }
        #expect(Compare.maxErrorRelativeToPeak(back, z) < 1e-13)
    }

    @Test("Unaligned pointers take the unaligned plan and give the same result")
    func unaligned() throws {
        let n = 4096
        let x = try Fixtures.doubles("DSPTests", "fft/x_\(n).npy").map(Float.init)
        let fft = RealFFT<Float>(count: n)
        let reference = fft.forward(x)
        var shifted = [Float](repeating: 0, count: n + 1)
        for i in 0..<n { shifted[i + 1] = x[i] }
        var out = [Float](repeating: 0, count: fft.spectrumCount + 1)
        shifted.withUnsafeBufferPointer { s in
            out.withUnsafeMutableBufferPointer { o in
                fft.forward(s.baseAddress! + 1, into: o.baseAddress! + 1)
            }
        }
        let error = Compare.maxErrorRelativeToPeak(out[1...].map(Double.init), reference.map(Double.init))
        #expect(error < 1e-6)
    }

    @Test("One cached plan serves many threads at once")
    func concurrentUse() async throws {
        let n = 1000
        let x = try Fixtures.doubles("DSPTests", "fft/x_\(n).npy")
        let expected = RealFFT<Double>(count: n).forward(x)
        let results = await withTaskGroup(of: [Double].self) { group in
            for _ in 0..<16 { group.addTask { RealFFT<Double>(count: n).forward(x) } }
            var all = [[Double]]()
            for await r in group { all.append(r) }
            return all
        }
        #expect(results.count == 16)
        #expect(results.allSatisfy { $0 == expected })
    }
}

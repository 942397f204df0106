import DSP
import Foundation
import Testing
import _TestSupport

@Suite("Welch and periodogram against scipy.signal")
struct WelchTests {
    static let welchCases = [
        "w256_default", "w1000_linear_spectrum", "w4096_none_density", "w4096_median_spectrum",
        "w1000_median_even", "w255_boxcar_pad512", "w1001_odd_linear", "w1001_pad1501_spectrum",
        "hrv_w256_linear", "hrv_w1000_constant", "hrv_short_shrink", "hrv_short_shrink_nfft512",
    ]
    static let periodogramCases = [
        "p1000_boxcar_constant", "p1001_hann_linear_spectrum", "p1000_pad1024_none",
        "p1000_pad1025_hann", "p1000_trunc600_linear", "p20001_boxcar_constant",
        "hrv_p1201_constant", "hrv_p1200_hann_linear",
    ]

    /// Builds the estimator a fixture case describes.
    static func welch(for c: [String: Any]) -> Welch {
        Welch(
            segmentLength: c["nperseg"] as! Int, overlap: c["noverlap"] as? Int,
            window: SpectralFixtures.window(c["window"] as! String),
            detrend: SpectralFixtures.detrend(c["detrend"] as! String),
            scaling: SpectralFixtures.scaling(c["scaling"] as! String),
            average: c["average"] as! String == "median" ? .median : .mean,
            fftLength: c["nfft"] as? Int, sampleRate: c["fs"] as! Double)
    }

    @Test("Welch matches scipy.signal.welch (per-bin relative error < 1e-9)", arguments: welchCases)
    func welchMatchesSciPy(name: String) throws {
        let c = try SpectralFixtures.spectralCase("welch", name)
        let signal = try SpectralFixtures.doubles(c["signal"] as! String)
        let n = c["length"] as! Int
        let expectedF = try SpectralFixtures.doubles("welch_\(name)_f")
        let expectedP = try SpectralFixtures.doubles("welch_\(name)_p")
        let w = Self.welch(for: c)
        // x512 is stored as float32: feed it as Float (the streaming hot path); x4 as Double.
        let psd =
            c["signal"] as! String == "x512"
            ? try w.estimate(signal[..<n].map(Float.init))
            : try w.estimate(Array(signal[..<n]))
        #expect(psd.frequencies.count == expectedF.count)
        #expect(psd.power.count == expectedP.count)
        guard psd.power.count == expectedP.count else { return }
        let fError = SpectralFixtures.binError(psd.frequencies, expectedF)
        let pError = SpectralFixtures.binError(psd.power, expectedP)
        print("welch \(name): segments \(psd.segmentCount), frequency error \(fError), power error \(pError)")
        #expect(fError < 1e-14)
        #expect(pError < 1e-9)
    }

    @Test(
        "periodogram matches scipy.signal.periodogram (per-bin relative error < 1e-9)",
        arguments: periodogramCases)
    func periodogramMatchesSciPy(name: String) throws {
        let c = try SpectralFixtures.spectralCase("periodogram", name)
        let signal = try SpectralFixtures.doubles(c["signal"] as! String)
        let n = c["length"] as! Int
        let expectedF = try SpectralFixtures.doubles("periodogram_\(name)_f")
        let expectedP = try SpectralFixtures.doubles("periodogram_\(name)_p")
        let window = SpectralFixtures.window(c["window"] as! String)
        let detrend = SpectralFixtures.detrend(c["detrend"] as! String)
        let scaling = SpectralFixtures.scaling(c["scaling"] as! String)
        let fs = c["fs"] as! Double
        let psd =
            c["signal"] as! String == "x512"
            ? try periodogram(
                signal[..<n].map(Float.init), sampleRate: fs, window: window,
                fftLength: c["nfft"] as? Int, detrend: detrend, scaling: scaling)
            : try periodogram(
                Array(signal[..<n]), sampleRate: fs, window: window,
                fftLength: c["nfft"] as? Int, detrend: detrend, scaling: scaling)
        #expect(psd.power.count == expectedP.count)
        guard psd.power.count == expectedP.count else { return }
        let fError = SpectralFixtures.binError(psd.frequencies, expectedF)
        let pError = SpectralFixtures.binError(psd.power, expectedP)
        print("periodogram \(name): frequency error \(fError), power error \(pError)")
        #expect(fError < 1e-14)
        #expect(pError < 1e-9)
    }

    @Test(
        "Streaming Welch: random blocks give bit-identical PSDs to the whole signal",
        arguments: [
            "w1000_linear_spectrum", "w1000_median_even", "w255_boxcar_pad512",
            "hrv_w256_linear", "hrv_short_shrink",
        ])
    func chunkedEqualsWhole(name: String) throws {
        let c = try SpectralFixtures.spectralCase("welch", name)
        let signal = try SpectralFixtures.doubles(c["signal"] as! String)
        let n = c["length"] as! Int
        let nperseg = c["nperseg"] as! Int
        let whole = try Self.welch(for: c).estimate(Array(signal[..<n]))
        var rng = SeededGenerator(seed: 7)
        // Blocks much smaller and much larger than a segment, including single samples.
        for maxBlock in [1, 7, nperseg - 1, nperseg + 3, 3 * nperseg] where maxBlock <= 5000 || n < 40_000 {
            let blocks = rng.blockSizes(total: n, maxBlock: maxBlock)
            var welch = Self.welch(for: c)
            var start = 0
            for (b, size) in blocks.enumerated() {
                // Alternate Float and Double blocks: both widen exactly to Double.
                let chunk = Array(signal[start..<start + size])
                if c["signal"] as! String == "x512" && b % 2 == 0 {
                    welch.process(chunk.map(Float.init))
                } else {
                    welch.process(chunk)
                }
                start += size
            }
            let chunked = try welch.estimate()
            let differing = zip(chunked.power, whole.power).filter { $0 != $1 }.count
            #expect(differing == 0, "maxBlock \(maxBlock): \(differing) bins differ")
            #expect(chunked.segmentCount == whole.segmentCount)
        }
    }

    @Test("Welch keeps value semantics, estimate() does not consume, reset() starts over")
    func valueSemantics() throws {
        let x = try SpectralFixtures.doubles("x4")
        let half = x.count / 2
        var a = Welch(segmentLength: 256, sampleRate: 4)
        a.process(Array(x[..<half]))
        var b = a // copy mid-stream
        let mid = try a.estimate()
        a.process(Array(x[half...]))
        b.process(Array(x[half...]))
        let ea = try a.estimate(), eb = try b.estimate()
        #expect(ea.power == eb.power)
        #expect(ea.segmentCount > mid.segmentCount)
        let whole = try Welch(segmentLength: 256, sampleRate: 4).estimate(x)
        #expect(ea.power == whole.power)
        b.reset()
        #expect(b.segmentCount == 0 && b.sampleCount == 0)
        #expect(throws: SpectralError.self) { try b.estimate() }
        b.process(x)
        #expect(try b.estimate().power == whole.power)
    }

    @Test("Empty signals and too-short custom windows are reported as errors")
    func errors() {
        #expect(throws: SpectralError.self) { try periodogram([Double]()) }
        let w = Welch(segmentLength: 4, overlap: 0, window: .custom([1, 2, 2, 1]))
        #expect(throws: SpectralError.self) { try w.estimate([1.0, 2.0, 3.0]) }
        #expect(throws: Never.self) { try w.estimate([1.0, 2.0, 3.0, 4.0]) }
    }

    @Test("A custom window equal to the built-in Hann gives the same PSD")
    func customWindow() throws {
        let x = try SpectralFixtures.doubles("x4")
        let hann = try Welch(segmentLength: 256, sampleRate: 4).estimate(x)
        // Periodic Hann written independently: 0.5 − 0.5·cos(2πk/n).
        let values: [Double] = (0..<256).map { (k: Int) -> Double in
            0.5 - 0.5 * cos(2 * Double.pi * Double(k) / 256)
        }
        let custom = try Welch(segmentLength: 256, window: .custom(values), sampleRate: 4).estimate(x)
        #expect(SpectralFixtures.binError(custom.power, hann.power) < 1e-12)
    }
}

import DSP
import Foundation
import Testing
import _TestSupport

@testable import Cardio

@Suite("HRV frequency domain")
struct HRVFrequencyDomainTests {
    /// Welch band powers against NeuroKit2's `hrv_frequency(normalize=False)` (issue tolerance
    /// 3 %; the pipeline is reproduced step by step, measured ≤ 1e-13).
    @Test("Welch matches NeuroKit2", arguments: HRVFixtures.seriesNames)
    func welch(_ name: String) throws {
        let c = try HRVFixtures.load(name)
        let metrics = try HRVFrequencyDomain(c.series).metrics
        let worst = HRVFixtures.worst(metrics, c.reference("frequency_welch"), names: HRVFrequencyDomain.metricNames)
        #expect(worst.error <= 1e-9, "\(name): \(worst.name) off by \(worst.error)")
        // NeuroKit2's default normalize=True changes powers but not their ratios.
        let ratios = HRVFixtures.worst(metrics, c.reference("frequency_welch_normalized"), names: ["LFHF", "LFn", "HFn"])
        #expect(ratios.error <= 1e-9, "\(name): \(ratios.name) off by \(ratios.error)")
    }

    /// Lomb–Scargle against NeuroKit2 (`psd_method="lomb", interpolation_rate=None`), whose
    /// band powers are in ms²·Hz: ours × f̄/2 (f̄ the mean beat rate) must equal them. Checked
    /// against NeuroKit2's own output (astropy's approximate method, issue tolerance 3 %) and
    /// against the same pipeline with astropy's exact method.
    @Test("Lomb–Scargle matches NeuroKit2", arguments: HRVFixtures.seriesNames)
    func lombScargle(_ name: String) throws {
        let c = try HRVFixtures.load(name)
        let metrics = try HRVFrequencyDomain(c.series, options: .init(method: .lombScargle)).metrics
        let grid = c.json["lomb_grid"] as! [String: Any]
        let meanRate = grid["mean_sample_rate"] as! Double
        let factor = meanRate / 2
        var scale = [String: Double]()
        for n in ["ULF", "VLF", "LF", "HF", "VHF", "TP"] { scale[n] = factor }
        let names = ["ULF", "VLF", "LF", "HF", "VHF", "TP", "LFHF", "LFn", "HFn"]
        let exact = HRVFixtures.worst(metrics, c.reference("frequency_lomb_exact"), names: names, scale: scale)
        #expect(exact.error <= 1e-9, "\(name): \(exact.name) off by \(exact.error)")
        let nk = HRVFixtures.worst(metrics, c.reference("frequency_lomb"), names: names, scale: scale)
        #expect(nk.error <= 0.03, "\(name): \(nk.name) off by \(nk.error)")
        // LnHF converts by adding ln(f̄/2).
        let lnhf = metrics[.lnHF]! + log(factor)
        #expect(abs(lnhf - c.reference("frequency_lomb")["LnHF"]!) <= 1e-6)
        #expect(
            abs(
                (grid["min_frequency"] as! Double)
                    - (try HRVFrequencyDomain(c.series, options: .init(method: .lombScargle))).minimumFrequencyHz) <= 1e-15)
    }

    /// The chirp-z Welch equals DSP's Welch (FFT of the full length) on the bins it evaluates,
    /// for even and odd segment lengths.
    @Test("chirp-z Welch equals DSP Welch", arguments: [2_001, 2_000, 777])
    func chirpZ(_ segment: Int) throws {
        var rng = SeededGenerator(seed: UInt64(segment))
        let count = 2 * segment + 37
        var x = [Double](repeating: 0, count: count)
        for i in 0..<count {
            let t = Double(i) / 100
            x[i] =
                40 * sin(2 * Double.pi * 0.1 * t) + 20 * sin(2 * Double.pi * 0.27 * t)
                + Double.random(in: -5...5, using: &rng)
        }
        let fast = ChirpZWelch.psd(
            x, segmentLength: segment, fftLength: 2 * segment, sampleRate: 100,
            maximumFrequency: 0.5)
        let welch = Welch(
            segmentLength: segment, window: .hann, detrend: .none, fftLength: 2 * segment,
            sampleRate: 100)
        let full = try welch.estimate(x)
        let bins = fast.power.count
        #expect(bins == full.frequencies.filter { $0 <= 0.5 }.count)
        let reference = Array(full.power[0..<bins])
        #expect(Compare.maxErrorRelativeToPeak(fast.power, reference) <= 1e-10)
        #expect(Compare.maxRelativeError(fast.frequencies, Array(full.frequencies[0..<bins])) == 0)
    }

    @Test("quadratic spline interpolates its sites and reproduces a quadratic")
    func spline() {
        let x = [0.0, 0.7, 1.5, 2.1, 3.3, 4.0, 5.2]
        let y = x.map { 3 - 2 * $0 + 0.5 * $0 * $0 }
        let s = QuadraticInterpolatingSpline(x: x, y: y)
        var out = [Double](repeating: 0, count: 53)
        out.withUnsafeMutableBufferPointer { s.evaluate(start: 0, step: 0.1, count: 53, into: $0.baseAddress!) }
        var worst = 0.0
        for i in 0..<53 {
            let t = min(Double(i) * 0.1, 5.2)
            worst = max(worst, abs(out[i] - (3 - 2 * t + 0.5 * t * t)))
        }
        #expect(worst < 1e-12)
    }

    @Test("too short a series throws")
    func tooShort() throws {
        let s = try NNIntervalSeries(intervalsMilliseconds: [800, 810])
        #expect(throws: HRVError.self) { try HRVFrequencyDomain(s) }
    }
}

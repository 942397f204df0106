import Cardio
import Foundation
import Testing
import _TestSupport

/// Hand-checked cases for each index: sines, a flat line, Gaussian noise, beat lists.
@Suite("ECG signal-quality indices on hand-checked signals")
struct ECGSignalQualityIndexTests {
    static func sine(
        frequency: Double, sampleRate: Double, seconds: Double, amplitude: Double = 1,
        offset: Double = 0
    ) -> [Float] {
        let n = Int(sampleRate * seconds)
        return (0..<n).map { Float(offset + amplitude * sin(2 * Double.pi * frequency * Double($0) / sampleRate)) }
    }

    static func gaussian(count: Int, seed: UInt64) -> [Float] {
        var g = SeededGenerator(seed: seed)
        var out = [Float](repeating: 0, count: count)
        var i = 0
        while i < count {
            let u1 = Double.random(in: Double.ulpOfOne..<1, using: &g), u2 = Double.random(in: 0..<1, using: &g)
            let r = (-2 * log(u1)).squareRoot()
            out[i] = Float(r * cos(2 * .pi * u2))
            if i + 1 < count { out[i + 1] = Float(r * sin(2 * .pi * u2)) }
            i += 2
        }
        return out
    }

    @Test("a sine over whole periods: kurtosis 1.5 (Pearson), skewness 0")
    func sineMoments() {
        // 10 Hz at 360 Hz for 10 s: 100 whole periods; mean sin⁴ / (mean sin²)² = (3/8)/(1/4).
        let x = Self.sine(frequency: 10, sampleRate: 360, seconds: 10, amplitude: 2, offset: 5)
        #expect(abs(ECGSignalQualityIndex.kurtosis(x) - 1.5) < 1e-5)
        #expect(abs(ECGSignalQualityIndex.excessKurtosis(x) + 1.5) < 1e-5)
        #expect(abs(ECGSignalQualityIndex.skewness(x)) < 1e-5)
    }

    @Test("Gaussian noise: excess kurtosis ≈ 0 (Fisher), Pearson ≈ 3, skewness ≈ 0")
    func gaussianMoments() {
        let x = Self.gaussian(count: 100_000, seed: 7)
        // Standard errors √(24/n) = 0.015 and √(6/n) = 0.008: bounds at about 4 σ.
        #expect(abs(ECGSignalQualityIndex.excessKurtosis(x)) < 0.06)
        #expect(abs(ECGSignalQualityIndex.kurtosis(x) - 3) < 0.06)
        #expect(abs(ECGSignalQualityIndex.skewness(x)) < 0.035)
    }

    @Test("a flat line has no moments and no spectrum (NaN)")
    func flat() {
        let x = [Float](repeating: 0.7, count: 3600)
        #expect(ECGSignalQualityIndex.kurtosis(x).isNaN)
        #expect(ECGSignalQualityIndex.skewness(x).isNaN)
        #expect(ECGSignalQualityIndex.pSQI(x, sampleRate: 360).isNaN)
        #expect(ECGSignalQualityIndex.basSQI(x, sampleRate: 360).isNaN)
    }

    @Test("pSQI and basSQI of pure tones sit at the ends of their range")
    func toneSpectra() {
        let fs = 360.0
        let inQRS = Self.sine(frequency: 10, sampleRate: fs, seconds: 10)
        let aboveQRS = Self.sine(frequency: 25, sampleRate: fs, seconds: 10)
        let baseline = Self.sine(frequency: 0.5, sampleRate: fs, seconds: 10)
        #expect(ECGSignalQualityIndex.pSQI(inQRS, sampleRate: fs) > 0.999)
        #expect(ECGSignalQualityIndex.pSQI(aboveQRS, sampleRate: fs) < 0.001)
        #expect(ECGSignalQualityIndex.basSQI(inQRS, sampleRate: fs) > 0.999)
        #expect(ECGSignalQualityIndex.basSQI(baseline, sampleRate: fs) < 0.001)
        // Equal-power tones at 10 and 25 Hz: half the 5–40 Hz power is in 5–15 Hz.
        let mix = zip(inQRS, aboveQRS).map { $0 + $1 }
        #expect(abs(ECGSignalQualityIndex.pSQI(mix, sampleRate: fs) - 0.5) < 0.002)
    }

    @Test("bSQI counts one-to-one matches within the tolerance")
    func beatAgreement() {
        #expect(ECGSignalQualityIndex.bSQI([100, 200, 300], [100, 200, 300], toleranceSamples: 0) == 1)
        #expect(ECGSignalQualityIndex.bSQI([100, 200], [150, 250], toleranceSamples: 10) == 0)
        // 100~105 and 300~300 match: 2 / (3 + 4 − 2).
        #expect(ECGSignalQualityIndex.bSQI([300, 100, 200], [105, 260, 300, 400], toleranceSamples: 10) == 0.4)
        // One beat of b cannot match two of a.
        #expect(ECGSignalQualityIndex.bSQI([100, 104], [102], toleranceSamples: 5) == 0.5)
        #expect(ECGSignalQualityIndex.bSQI([], [], toleranceSamples: 5) == 0)
        #expect(ECGSignalQualityIndex.bSQI([100], [], toleranceSamples: 5) == 0)
        // Beats within the tolerance of a window edge are left out: only 500 vs 505 remain.
        #expect(ECGSignalQualityIndex.bSQI([3, 500, 997], [505], toleranceSamples: 10, sampleCount: 1000) == 1)
        #expect(ECGSignalQualityIndex.bSQI([3, 500, 997], [505], toleranceSamples: 10) == 1.0 / 3)
    }

    @Test("masked samples are left out of the moments and add no power")
    func masking() {
        let fs = 250.0
        var x = Self.sine(frequency: 10, sampleRate: fs, seconds: 10)
        var mask = [Bool](repeating: false, count: x.count)
        for i in 1000..<1200 { x[i] = 50; mask[i] = true }
        let kept = zip(x, mask).filter { !$0.1 }.map(\.0)
        // Same samples, other summation order: equal to rounding.
        #expect(abs(ECGSignalQualityIndex.kurtosis(x, masked: mask) - ECGSignalQualityIndex.kurtosis(kept)) < 1e-12)
        #expect(abs(ECGSignalQualityIndex.skewness(x, masked: mask) - ECGSignalQualityIndex.skewness(kept)) < 1e-12)
        let mean = kept.reduce(0.0) { $0 + Double($1) } / Double(kept.count)
        var filled = x
        for i in 1000..<1200 { filled[i] = Float(mean) }
        let a = ECGSignalQualityIndex.pSQI(x, sampleRate: fs, masked: mask)
        let b = ECGSignalQualityIndex.pSQI(filled, sampleRate: fs)
        #expect(abs(a - b) < 1e-6, "pSQI masked \(a) vs mean-filled \(b)")
        #expect(ECGSignalQualityIndex.pSQI(x, sampleRate: fs) < 0.9) // the spikes would count
    }
}

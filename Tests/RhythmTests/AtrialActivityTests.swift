import Foundation
import Signals
import Testing

@testable import Rhythm

/// ``AtrialActivity/fWaveBandShare`` on synthetic 300-Hz signals whose residual is known by
/// construction: narrow QRS spikes at irregular beat times plus either a 6-Hz sinusoid that is not
/// locked to the beats (fibrillatory waves) or white noise.
@Suite("Rhythm: atrial activity, the f-wave band share of the PR residual")
struct AtrialActivityTests {
    static let rate = 300.0

    /// Irregular beat times (s) over about 36 s: intervals 0.6–1.1 s from a fixed sequence.
    static let beats: [Double] = {
        let steps = [0.83, 0.61, 1.07, 0.74, 0.95, 0.66, 1.02, 0.79, 0.88, 0.69]
        var t = [1.0]
        for k in 0..<40 { t.append(t[t.count - 1] + steps[k % steps.count]) }
        return t
    }()

    /// The measures of a signal made of QRS spikes (Gaussian, σ 8 ms, amplitude 1) at ``beats``
    /// plus `atrial(sample index)`.
    func measures(_ atrial: (Int) -> Double) throws -> AtrialActivity {
        let n = Int(((Self.beats.last ?? 0) + 1) * Self.rate)
        var x = [Float](repeating: 0, count: n)
        for i in 0..<n {
            let t = Double(i) / Self.rate
            var v = atrial(i)
            for b in Self.beats where abs(t - b) < 0.05 { v += exp(-0.5 * pow((t - b) / 0.008, 2)) }
            x[i] = Float(v)
        }
        var ring = SampleRing()
        ring.sampleRate = Self.rate
        ring.append(
            SampleBlock(
                stream: 0, segment: 0, firstSample: 0, time: .uniform(segmentStart: 0, sampleRate: Self.rate), columns: [x],
                flags: [UInt8](repeating: 0, count: n), endsSegment: true))
        return try #require(
            AtrialActivity(
                samples: ring, beats: Self.beats, ventricular: [Bool](repeating: false, count: Self.beats.count), previousBeat: nil))
    }

    @Test("6-Hz waves not locked to the QRS put most of the residual's power in 4–9 Hz; white noise does not")
    func bandShare() throws {
        let waves = try measures { 0.1 * sin(2 * Double.pi * 6 * Double($0) / Self.rate + 0.3) }
        // A fixed-seed linear congruential generator: uniform noise of zero mean.
        var state: UInt64 = 12345
        let noise = try measures { _ in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return 0.1 * (Double(state >> 11) / Double(1 << 53) - 0.5)
        }
        #expect(waves.segments >= 30)
        // White noise after the 20-ms moving average: about a quarter of its power in the band
        // (the smoothing's power response integrates to rate / (2 · 7) ≈ 21 Hz, about 5–6 Hz of
        // it between 3.5 and 9.5 Hz). A 6-Hz wave: the 240-ms Hann window spreads it over ±8 Hz,
        // leaving about 0.7 in the band (numpy, the same steps on random phases: 0.69; noise 0.25).
        #expect(waves.fWaveBandShare > 0.5, "\(waves.fWaveBandShare)")
        #expect(noise.fWaveBandShare < 0.35, "\(noise.fWaveBandShare)")
        #expect(waves.fWaveBandShare <= 1.05)
        // The waves are not locked to the beats: they stay in the residual (atrial_residual).
        #expect(waves.atrialResidual > 0.03, "\(waves.atrialResidual)")
    }
}

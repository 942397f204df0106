import Foundation
import Signals
import Testing

@testable import Respiration

/// The rate bands of spectral fusion's concentration thresholds (``RespirationOptions/rateBands``,
/// session 18).
@Suite struct RespirationRateBandTests {
    /// The thresholds at a peak's rate are the flat options below 12 breaths/min and the band's
    /// (the table `scripts/respiration/spectral-threshold.py` printed, `rate_bands`) above,
    /// never above the flat ones; off, or at another span than 2, the flat ones everywhere.
    @Test func thresholdsDependOnThePeaksRate() {
        let options = RespirationOptions()
        let fused = SpectralThreshold(source: .fused, options)
        #expect(fused.at(10) == SpectralThreshold.Pair(concentration: 0.22, local: 0.40))
        #expect(fused.at(12) == SpectralThreshold.Pair(concentration: 0.21, local: 0.38))
        #expect(fused.at(17.5) == SpectralThreshold.Pair(concentration: 0.19, local: 0.38))
        #expect(fused.at(25) == SpectralThreshold.Pair(concentration: 0.16, local: 0.33))
        let ecg = SpectralThreshold(source: .ecg, options)
        #expect(ecg.at(19.9) == SpectralThreshold.Pair(concentration: 0.18, local: 0.38))
        // The PPG's band below 16/min (0.26) is above the flat option (0.22): the option holds.
        let ppg = SpectralThreshold(source: .ppg, options)
        #expect(ppg.at(14) == SpectralThreshold.Pair(concentration: 0.22, local: 0.43))
        #expect(ppg.at(21) == SpectralThreshold.Pair(concentration: 0.18, local: 0.40))
        var off = options
        off.rateBands = false
        #expect(SpectralThreshold(source: .fused, off).at(25) == SpectralThreshold.Pair(concentration: 0.22, local: 0.40))
        var span1 = options
        span1.spectralSpan = 1
        #expect(SpectralThreshold(source: .fused, span1).at(25) == SpectralThreshold.Pair(concentration: 0.22, local: 0.40))
        // Where the span is not full (a recording's first and last two windows): the flat ones.
        #expect(
            SpectralThreshold(source: .fused, options, fullSpan: false).at(25) == SpectralThreshold.Pair(concentration: 0.22, local: 0.40))
        var strict = options
        strict.minimumConcentrationFused = 0.1
        #expect(SpectralThreshold(source: .fused, strict).at(25).concentration == 0.1)
    }

    /// Where no breathing exists — white noise in every modulation, motion (walks and steps per
    /// modulation, jittered beat times), other realisations than the other suites' — the lowered
    /// thresholds at higher rates give no row a rate.
    @Test(arguments: [31, 32, 33, 34] as [UInt64]) func noBreathingGivesNoRateThroughTheRateBands(seed: UInt64) throws {
        for (name, events) in [
            ("noise", baselineBreathing(seed: seed, baseline: 0)),
            ("motion", baselineBreathing(seed: seed, baseline: 0, motion: true)),
        ] {
            let rows = try runRespiration(events)
            #expect(rows.count >= 60)
            for w in rows {
                #expect(w.value.breathsPerMinute == nil, "\(name) seed \(seed): \(w.value.source) \(w.value.startSeconds) s")
            }
        }
    }

    /// Breathing at 20/min in beat noise (R amplitude, QRS area and pulse amplitude modulated
    /// by 3 %, the interval by 1.5 %, against ±10 % noise per beat): with the rate bands more
    /// fused rows have the rate than without, each within 2 breaths/min (weak breathing: the peak
    /// of a noisy spectrum; a window the flat thresholds also rate is 1.8 off).
    @Test func weakFastBreathingIsFoundThroughTheRateBands() throws {
        let e = SyntheticBeats(seconds: 640, breathsPerMinute: 20, noise: 0.1, depth: 0.03).events()
        var off = RespirationOptions()
        off.rateBands = false
        let with = try runRespiration(e.ecg + e.ppg).filter { $0.value.source == .fused }
        let without = try runRespiration(e.ecg + e.ppg, options: off).filter { $0.value.source == .fused }
        let on = with.compactMap(\.value.breathsPerMinute), before = without.compactMap(\.value.breathsPerMinute)
        for r in on + before { #expect(abs(r - 20) < 2, "\(r)") }
        #expect(on.count >= before.count + 3, "with the bands \(on.count), without \(before.count) of \(with.count)")
    }
}

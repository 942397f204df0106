import Foundation
import Signals
import Testing

@testable import Respiration

/// The rate bands of spectral fusion's concentration thresholds (``RespirationOptions/rateBands``).
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
        // The joint index off in both: it finds these windows on its own.
        var on = RespirationOptions()
        on.jointIndex = false
        var off = on
        off.rateBands = false
        let with = try runRespiration(e.ecg + e.ppg, options: on).filter { $0.value.source == .fused }
        let without = try runRespiration(e.ecg + e.ppg, options: off).filter { $0.value.source == .fused }
        let banded = with.compactMap(\.value.breathsPerMinute), before = without.compactMap(\.value.breathsPerMinute)
        for r in banded + before { #expect(abs(r - 20) < 2, "\(r)") }
        #expect(banded.count >= before.count + 3, "with the bands \(banded.count), without \(before.count) of \(with.count)")
    }

    /// The joint index's threshold (``RespirationOptions/jointIndex``) at a peak's rate
    /// is its band's (the table `scripts/respiration/spectral-threshold.py` printed, `joint_bands`);
    /// off, at another span than 2, or where the span is not full, it is not tested.
    @Test func jointIndexThresholdsDependOnThePeaksRate() {
        let options = RespirationOptions()
        let fused = SpectralThreshold(source: .fused, options)
        #expect(fused.joint(8) == 0.076)
        #expect(fused.joint(12) == 0.062)
        #expect(fused.joint(19.9) == 0.049)
        #expect(fused.joint(30) == 0.048)
        #expect(SpectralThreshold(source: .ecg, options).joint(17) == 0.053)
        #expect(SpectralThreshold(source: .ppg, options).joint(13) == 0.090)
        var off = options
        off.jointIndex = false
        #expect(SpectralThreshold(source: .fused, off).joint(20) == nil)
        var span1 = options
        span1.spectralSpan = 1
        #expect(SpectralThreshold(source: .fused, span1).joint(20) == nil)
        #expect(SpectralThreshold(source: .fused, options, fullSpan: false).joint(20) == nil)
    }

    /// Where no breathing exists (white noise in every modulation; motion), other realisations
    /// than the rate bands' test: the joint index gives no row a rate that the rule without it
    /// does not give, and no rate at all except where the rule without it already leaks (recorded
    /// as a known issue: seed 43's noise gives its last window's PPG row, and so its fused row, 9.5
    /// breaths/min with the joint index off as well — the flat PPG thresholds' own out-of-sample
    /// leak at a recording's edge, where the joint index does not apply).
    @Test(arguments: [41, 42, 43, 44, 45, 46] as [UInt64]) func noBreathingGivesNoRateThroughTheJointIndex(seed: UInt64) throws {
        var off = RespirationOptions()
        off.jointIndex = false
        for (name, events) in [
            ("noise", baselineBreathing(seed: seed, baseline: 0)),
            ("motion", baselineBreathing(seed: seed, baseline: 0, motion: true)),
        ] {
            let rows = try runRespiration(events)
            let without = try runRespiration(events, options: off)
            #expect(rows.count >= 60)
            #expect(rows.count == without.count)
            for (w, o) in zip(rows, without) {
                #expect(
                    w.value.breathsPerMinute == nil || w.value.breathsPerMinute == o.value.breathsPerMinute,
                    "\(name) seed \(seed): \(w.value.source) \(w.value.startSeconds) s")
                let message: Comment = "\(name) seed \(seed): \(w.value.source) \(w.value.startSeconds) s"
                if o.value.breathsPerMinute != nil {
                    withKnownIssue("the rule without the joint index already gives this row a rate: its own leak") {
                        #expect(w.value.breathsPerMinute == nil, message)
                    }
                } else {
                    #expect(w.value.breathsPerMinute == nil, message)
                }
            }
        }
    }

    /// Weak breathing at 16/min in beat noise (R amplitude, QRS area and pulse amplitude modulated
    /// by 1.5 %, the interval and baseline by 0.75 %, against ±10 % noise per beat): with the joint
    /// index more fused rows have the rate than without (12 against 8 of 20 when written), each
    /// within 2 breaths/min.
    @Test func weakBreathingIsFoundThroughTheJointIndex() throws {
        let e = SyntheticBeats(seconds: 640, breathsPerMinute: 16, noise: 0.1, depth: 0.015).events()
        var off = RespirationOptions()
        off.jointIndex = false
        let with = try runRespiration(e.ecg + e.ppg).filter { $0.value.source == .fused }
        let without = try runRespiration(e.ecg + e.ppg, options: off).filter { $0.value.source == .fused }
        let on = with.compactMap(\.value.breathsPerMinute), before = without.compactMap(\.value.breathsPerMinute)
        for r in on + before { #expect(abs(r - 16) < 2, "\(r)") }
        #expect(on.count >= before.count + 3, "with the joint index \(on.count), without \(before.count) of \(with.count)")
    }
}

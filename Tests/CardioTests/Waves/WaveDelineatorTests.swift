import Foundation
import Testing

@testable import Cardio

/// ``WaveDelineator`` on synthetic beats whose waves are placed by construction: Gaussian P and
/// T waves and a narrow QRS at known times, upright, inverted and absent. Expected values are the
/// construction's, never the code's.
@Suite("WaveDelineator: synthetic beats")
struct WaveDelineatorTests {
    /// One beat at 250 Hz centred on ``WaveDelineator/beatIndex``: P peak at R − 160 ms, T peak
    /// at R + 280 ms (σ 40 ms), QRS of three Gaussians (Q, R, S; σ 8–10 ms).
    static func beat(pAmplitude: Float, tAmplitude: Float) -> [Float] {
        let r = Double(WaveDelineator.beatIndex) / 250
        let g = Self.gaussian
        return (0..<WaveDelineator.length).map { i in
            let t = Double(i) / 250
            var v: Float = pAmplitude * g(t, r - 0.16, 0.02)
            v += -0.15 * g(t, r - 0.025, 0.008) + 1.2 * g(t, r, 0.01) - 0.3 * g(t, r + 0.025, 0.008)
            v += tAmplitude * g(t, r + 0.28, 0.04)
            return v
        }
    }

    /// A beat window at 250 Hz (``WaveDelineator/length`` samples) from a function of the sample
    /// index, its time (s) and the time of R (s).
    static func signal(_ value: (Int, Double, Double) -> Float) -> [Float] {
        let r = Double(WaveDelineator.beatIndex) / 250
        return (0..<WaveDelineator.length).map { i in value(i, Double(i) / 250, r) }
    }

    /// A unit Gaussian of centre `c` and width `s` (seconds) at time `t`.
    static func gaussian(_ t: Double, _ c: Double, _ s: Double) -> Float { Float(exp(-0.5 * pow((t - c) / s, 2))) }

    static func time(_ position: Double?) -> Double? { position.map { ($0 - Double(WaveDelineator.beatIndex)) / 250 } }

    @Test("upright P and T: peaks within 8 ms of the Gaussians' centres, QRS around R")
    func upright() throws {
        let m = WaveDelineator.delineate(Self.beat(pAmplitude: 0.15, tAmplitude: 0.3), valid: 0..<WaveDelineator.length, rr: 0.8, next: nil)
        #expect(m.qrs == .present && m.t == .present && m.p == .present)
        #expect(m.tShape == .upright && m.pShape == .upright)
        let tPeak = try #require(Self.time(m.tPeak)), pPeak = try #require(Self.time(m.pPeak))
        #expect(abs(tPeak - 0.28) < 0.008, "T peak \(tPeak)")
        #expect(abs(pPeak + 0.16) < 0.008, "P peak \(pPeak)")
        let on = try #require(Self.time(m.qrsOnset)), off = try #require(Self.time(m.qrsOffset))
        // The Q and S Gaussians (σ 8 ms) reach 5 % of their height ≈ 2.4 σ from their centres.
        #expect(on < -0.03 && on > -0.07, "QRS onset \(on)")
        #expect(off > 0.03 && off < 0.07, "QRS offset \(off)")
        let tOff = try #require(Self.time(m.tOffset))
        #expect(tOff > 0.28 + 0.04 && tOff < 0.28 + 0.16, "T offset \(tOff)")
    }

    @Test("inverted T is found as inverted, with its peak at the trough")
    func invertedT() throws {
        let m = WaveDelineator.delineate(
            Self.beat(pAmplitude: 0.15, tAmplitude: -0.3), valid: 0..<WaveDelineator.length, rr: 0.8, next: nil)
        #expect(m.t == .present)
        #expect(m.tShape == .inverted)
        let tPeak = try #require(Self.time(m.tPeak))
        #expect(abs(tPeak - 0.28) < 0.008, "T trough \(tPeak)")
    }

    @Test("a beat without P or T waves: both absent, QRS present")
    func absentWaves() {
        let m = WaveDelineator.delineate(Self.beat(pAmplitude: 0, tAmplitude: 0), valid: 0..<WaveDelineator.length, rr: 0.8, next: nil)
        #expect(m.qrs == .present)
        #expect(m.t == .absent, "T \(m.t) \(String(describing: m.tShape))")
        #expect(m.p == .absent, "P \(m.p) \(String(describing: m.pShape))")
    }

    /// ``beat(pAmplitude:tAmplitude:)`` with the T peak at R + `tPeak` s (σ 30 ms), plus a P-like
    /// Gaussian (0.15, σ 20 ms) at R + `late` s and, when `next` is given, the next beat's QRS there.
    static func beat(tPeak: Double, late: Double, next: Double?) -> [Float] {
        let r = Double(WaveDelineator.beatIndex) / 250
        let g = Self.gaussian
        func qrs(_ t: Double, _ c: Double) -> Float { -0.15 * g(t, c - 0.025, 0.008) + 1.2 * g(t, c, 0.01) - 0.3 * g(t, c + 0.025, 0.008) }
        return (0..<WaveDelineator.length).map { i in
            let t = Double(i) / 250
            var v: Float = 0.15 * g(t, r - 0.16, 0.02) + qrs(t, r) + 0.3 * g(t, r + tPeak, 0.03) + 0.15 * g(t, r + late, 0.02)
            if let n = next { v += qrs(t, r + n) }
            return v
        }
    }

    @Test("after a pause, the next beat's P wave (PR 160 ms) is not taken as the T's third phase")
    func nextPWaveOutsideT() throws {
        // Previous RR 1.6 s (window up to R + 500 ms), next beat at R + 620 ms, its P at R + 460 ms.
        let m = WaveDelineator.delineate(
            Self.beat(tPeak: 0.30, late: 0.46, next: 0.62), valid: 0..<WaveDelineator.length, rr: 1.6,
            next: Double(WaveDelineator.beatIndex) + 0.62 * 250)
        #expect(m.t == .present && m.tShape == .upright, "T \(m.t) \(String(describing: m.tShape))")
        let tOff = try #require(Self.time(m.tOffset))
        // Between the T peak + 40 ms and the P's onset (its centre − 2σ).
        #expect(tOff > 0.34 && tOff < 0.42, "T offset \(tOff)")
    }

    @Test("a wave whose slope lies more than 200 ms after the T's first slope is not the T's third phase")
    func lateWaveOutsideT() throws {
        // T at R + 240 ms; a U-like wave at R + 460 ms; no next beat in the window.
        let m = WaveDelineator.delineate(
            Self.beat(tPeak: 0.24, late: 0.46, next: nil), valid: 0..<WaveDelineator.length, rr: 0.8, next: nil)
        #expect(m.t == .present && m.tShape == .upright, "T \(m.t) \(String(describing: m.tShape))")
        let tOff = try #require(Self.time(m.tOffset))
        #expect(tOff > 0.28 && tOff < 0.42, "T offset \(tOff)")
    }

    @Test("a P whose falling slope has a shoulder (two maxima of one sign) ends after the shoulder")
    func notchedP() throws {
        // P of two Gaussians: 0.12 at R − 200 ms (σ 20 ms) and 0.10 at R − 140 ms (σ 15 ms); the
        // signal falls all the way from the first peak through the second's shoulder, so scale
        // 2^4 has one rising maximum and two falling ones. The P ends about 2.5 σ after the
        // second centre (R − 102 ms); the first falling maximum alone would end it near R − 160 ms.
        let g = Self.gaussian
        let x = Self.signal { _, t, r in
            var v: Float = 0.12 * g(t, r - 0.2, 0.02) + 0.10 * g(t, r - 0.14, 0.015)
            v += -0.15 * g(t, r - 0.025, 0.008) + 1.2 * g(t, r, 0.01) - 0.3 * g(t, r + 0.025, 0.008)
            return v + 0.3 * g(t, r + 0.28, 0.04)
        }
        let m = WaveDelineator.delineate(x, valid: 0..<WaveDelineator.length, rr: 0.8, next: nil)
        #expect(m.p == .present && m.pShape == .upright, "P \(m.p) \(String(describing: m.pShape))")
        let on = try #require(Self.time(m.pOnset)), off = try #require(Self.time(m.pOffset))
        #expect(on < -0.22 && on > -0.28, "P onset \(on)")
        #expect(off > -0.125 && off < -0.07, "P offset \(off)")
    }

    @Test("a paced beat: the QRS ends after the wide paced complex, not after the pacing spike")
    func pacedBeat() throws {
        // A one-sample pacing spike (4 mV) at R, then a wide ventricular complex: +0.8 at R + 50 ms
        // and −0.5 at R + 110 ms (σ 20 ms), which returns to the baseline about 2.5 σ after its
        // last centre (R + 160 ms); its scale-2^2 slopes are about an eighth of the spike's.
        let g = Self.gaussian
        let x = Self.signal { i, t, r in
            var v: Float = i == WaveDelineator.beatIndex ? 4 : 0
            v += 0.8 * g(t, r + 0.05, 0.02) - 0.5 * g(t, r + 0.11, 0.02)
            return v - 0.3 * g(t, r + 0.36, 0.05)
        }
        let m = WaveDelineator.delineate(x, valid: 0..<WaveDelineator.length, rr: 0.8, next: nil)
        #expect(m.qrs == .present)
        let on = try #require(Self.time(m.qrsOnset)), off = try #require(Self.time(m.qrsOffset))
        #expect(on <= 0 && on > -0.02, "QRS onset \(on)")
        #expect(off > 0.13 && off < 0.2, "QRS offset \(off)")
    }

    @Test("a broad QS deflection: the QRS ends after its upstroke, 90 ms after the downstroke")
    func broadQS() throws {
        // A QS complex of one negative Gaussian (σ 45 ms, −1.5 mV) centred on R: its steepest
        // downstroke lies at R − 45 ms and its upstroke at R + 45 ms, 90 ms apart (beyond the wide-QRS
        // rule's 80-ms step), each as steep as the other; it is back within 5 % of the baseline
        // 2.45 σ after R (R + 110 ms). A low T wave follows at R + 360 ms.
        let g = Self.gaussian
        let x = Self.signal { _, t, r in -1.5 * g(t, r, 0.045) + 0.3 * g(t, r + 0.36, 0.05) }
        let m = WaveDelineator.delineate(x, valid: 0..<WaveDelineator.length, rr: 1.0, next: nil)
        #expect(m.qrs == .present)
        let off = try #require(Self.time(m.qrsOffset))
        #expect(off > 0.045 && off < 0.16, "QRS offset \(off)")
    }

    /// The median of |w| over `w[from..<to]` by sorting (the lower middle value of an even
    /// count; 0 when empty): the reference for ``WaveDelineator/exceedsMedianMagnitude``.
    static func medianMagnitude(_ w: UnsafeBufferPointer<Float>, from: Int, to: Int) -> Float {
        let m = w[max(from, 0)..<min(to, w.count)].map { abs($0) }.sorted()
        return m.isEmpty ? 0 : m[(m.count - 1) / 2]
    }

    @Test("the noise test counts instead of sorting: same answer as v > factor × median |w|")
    func noiseGateEqualsMedian() {
        // A deterministic pseudo-random sequence (with repeated values, so ties occur), every
        // range length 0…40 and thresholds on both sides of each range's median.
        var state: UInt32 = 12345
        let w: [Float] = (0..<200).map { _ in
            state = state &* 1_664_525 &+ 1_013_904_223
            return Float(Int(state >> 24) % 23 - 11) * 0.25
        }
        w.withUnsafeBufferPointer { p in
            for from in stride(from: 0, to: 160, by: 7) {
                for n in 0...40 {
                    let median = Self.medianMagnitude(p, from: from, to: from + n)
                    for v: Float in [0, 0.5, 6 * median - 0.25, 6 * median, 6 * median + 0.25, 20] {
                        #expect(WaveDelineator.exceedsMedianMagnitude(v, factor: 6, p, from: from, to: from + n) == (v > 6 * median))
                    }
                }
            }
        }
    }

    /// Whether the P onset is masked, on the scale 2^4 of a P Gaussian (σ 20 ms, 0.1) at 1 s
    /// preceded by the downslope of a T Gaussian (σ 40 ms) centred 130 ms before it.
    static func masked(tAmplitude: Float) -> Bool {
        let x: [Float] = (0..<500).map { i in
            let t = Double(i) / 250
            return 0.1 * gaussian(t, 1.0, 0.02) + tAmplitude * gaussian(t, 0.87, 0.04)
        }
        let w4 = QuadraticSplineWavelet.transform(x).w4
        // The P's rising slope: the largest W near its inflection (centre − σ), delayed by the scale.
        let c = 250 - 5 + Int(QuadraticSplineWavelet.delay(4))
        let first = (c - 4...c + 4).max { w4[$0] < w4[$1] }!
        return w4.withUnsafeBufferPointer { WaveDelineator.onsetMasked($0, first: first) }
    }

    @Test("a P onset on a steeper T downslope is masked; after a shallower one or none it is not")
    func maskedOnset() {
        // The steepest slopes: T A/σ · e^(−1/2) with A/σ = 10 or 2.5 /s, the P's 5 /s.
        #expect(Self.masked(tAmplitude: 0.4))
        #expect(!Self.masked(tAmplitude: 0.1))
        #expect(!Self.masked(tAmplitude: 0))
        // An isolated P of a whole beat is not masked.
        let m = WaveDelineator.delineate(Self.beat(pAmplitude: 0.15, tAmplitude: 0.3), valid: 0..<WaveDelineator.length, rr: 0.8, next: nil)
        #expect(m.p == .present && !m.pOnsetMasked)
    }

    @Test("samples missing around the beat: not determinable")
    func notDeterminable() {
        let m = WaveDelineator.delineate(
            Self.beat(pAmplitude: 0.15, tAmplitude: 0.3), valid: WaveDelineator.beatIndex - 10..<WaveDelineator.length, rr: 0.8, next: nil)
        #expect(m.qrs == .notDeterminable && m.p == .notDeterminable && m.t == .notDeterminable)
    }
}

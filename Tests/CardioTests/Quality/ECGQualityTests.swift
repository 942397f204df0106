import Cardio
import Foundation
import Testing
import _TestSupport

/// Windowing, masking, the Orphanidou rules and the Zhao & Zhang fusion on hand-built inputs.
@Suite("ECG quality windows, rules and fusion")
struct ECGQualityTests {
    /// Identical Gaussian "QRS" bumps (σ = 10 ms) at the given times, on a flat line.
    static func pulses(at seconds: [Double], sampleRate: Double, duration: Double) -> (signal: [Float], peaks: [Int]) {
        let n = Int(duration * sampleRate)
        var x = [Float](repeating: 0, count: n)
        let sigma = 0.01 * sampleRate
        var peaks: [Int] = []
        for t in seconds {
            let c = Int((t * sampleRate).rounded())
            peaks.append(c)
            for i in max(0, c - Int(6 * sigma))..<min(n, c + Int(6 * sigma) + 1) {
                let d = Double(i - c) / sigma
                x[i] += Float(exp(-0.5 * d * d))
            }
        }
        return (x, peaks)
    }

    @Test("identical beats at 60 bpm: feasible, correlation 1, acceptable")
    func regularBeats() {
        let (x, peaks) = Self.pulses(at: (0..<10).map { 0.5 + Double($0) }, sampleRate: 250, duration: 10)
        let t = OrphanidouTemplateMatch(samples: x, rPeaks: peaks, sampleRate: 250)
        #expect(t.beatCount == 10)
        #expect(abs(t.heartRateBeatsPerMinute - 60) < 1e-12)
        #expect(abs(t.rrRatio - 1) < 1e-12)
        #expect(t.isFeasible)
        #expect(abs(t.templateCorrelation - 1) < 1e-12)
        #expect(t.isAcceptable)
    }

    @Test("the feasibility rules: heart rate, gaps, RR ratio")
    func feasibility() {
        let fs = 250.0
        // 200 bpm: too fast.
        let fast = Self.pulses(at: stride(from: 0.2, to: 9.9, by: 0.3).map { $0 }, sampleRate: fs, duration: 10)
        #expect(!OrphanidouTemplateMatch(samples: fast.signal, rPeaks: fast.peaks, sampleRate: fs).isFeasible)
        // A 3.5-s pause between beats.
        let pause = Self.pulses(at: [0.5, 1.5, 2.5, 6.0, 7.0, 8.0, 9.0], sampleRate: fs, duration: 10)
        let p = OrphanidouTemplateMatch(samples: pause.signal, rPeaks: pause.peaks, sampleRate: fs)
        #expect(abs(p.maximumGapSeconds - 3.5) < 1e-12 && !p.isFeasible)
        // Beats stop after 4 s: the gap to the window's end counts.
        let stop = Self.pulses(at: [0.5, 1.5, 2.5, 3.5], sampleRate: fs, duration: 10)
        #expect(!OrphanidouTemplateMatch(samples: stop.signal, rPeaks: stop.peaks, sampleRate: fs).isFeasible)
        // RR of 0.4 s and 1.0 s: ratio 2.5.
        let irregular = Self.pulses(at: [0.5, 0.9, 1.9, 2.9, 3.3, 4.3, 5.3, 6.3, 7.3, 8.3, 9.3], sampleRate: fs, duration: 10)
        let r = OrphanidouTemplateMatch(samples: irregular.signal, rPeaks: irregular.peaks, sampleRate: fs)
        #expect(abs(r.rrRatio - 2.5) < 1e-12 && !r.isFeasible)
        // One beat: nothing to measure.
        let one = OrphanidouTemplateMatch(samples: stop.signal, rPeaks: [125], sampleRate: fs)
        #expect(one.heartRateBeatsPerMinute.isNaN && !one.isFeasible && one.templateCorrelation.isNaN)
    }

    @Test("fuzzy evaluation of a clean and a useless window, by hand")
    func fuzzyByHand() {
        let clean = ZhaoZhangFuzzyEvaluation(qSQI: 1, pSQI: 0.6, kSQI: 10, basSQI: 1)
        // qSQI 100 %: H 1, I 1/(1+(25/7.5)²), J 1/(1+9²); basSQI 100 %: H 1, I 1/(1+(8/2.5)²), J 1/(1+3²).
        let qu: Double = 25 / 7.5, bu: Double = 8 / 2.5
        let qI: Double = 1 / (1 + qu * qu), qJ: Double = 1 / 82, bI: Double = 1 / (1 + bu * bu), bJ = 0.1
        let b: [Double] = [1, 0.4 * qI + 0.1 * bI, 0.4 * qJ + 0.1 * bJ]
        let num: Double = b[0] * b[0] + 2 * b[1] * b[1] + 3 * b[2] * b[2]
        let den: Double = b[0] * b[0] + b[1] * b[1] + b[2] * b[2]
        let v = num / den
        #expect(zip(clean.evaluation, b).allSatisfy { abs($0 - $1) < 1e-15 })
        #expect(abs(clean.score - v) < 1e-15)
        #expect(clean.label == .excellent)
        let useless = ZhaoZhangFuzzyEvaluation(qSQI: 0.2, pSQI: 0.1, kSQI: 2, basSQI: 0.5)
        // pSQI 0.1: J only; qSQI 20 % and basSQI 50 %: J = 1, small Cauchy tails in I.
        let uq: Double = 55 / 7.5, ub: Double = 42 / 2.5
        let uselessI: Double = 0.4 / (1 + uq * uq) + 0.1 / (1 + ub * ub)
        #expect(useless.evaluation[0] == 0 && useless.evaluation[2] == 1)
        #expect(abs(useless.evaluation[1] - uselessI) < 1e-15)
        #expect(useless.label == .unacceptable)
        // NaN indices count as unacceptable evidence.
        let nan = ZhaoZhangFuzzyEvaluation(qSQI: .nan, pSQI: .nan, kSQI: .nan, basSQI: .nan)
        #expect(nan.label == .unacceptable && nan.score == 3)
    }

    /// basSQI's H meets `x/100` at 95 % only to 2e-6: the published 0.8718 is √19/5 = 0.871779…
    /// rounded (at x = 95 the Cauchy branch is 0.9500021).
    @Test("the memberships are continuous where the published pieces meet")
    func continuity() {
        func at(_ q: Double, _ p: Double, _ b: Double) -> [[Double]] {
            ZhaoZhangFuzzyEvaluation(qSQI: q, pSQI: p, kSQI: 10, basSQI: b).memberships
        }
        let e = 1e-9
        for (q, p, b) in [(0.80, 0.25, 0.90), (0.90, 0.35, 0.95), (0.55, 0.15, 0.85), (0.7, 0.22, 0.93), (0.7, 0.28, 0.93)] {
            let lo = at(q - e, p - e, b - e), hi = at(q + e, p + e, b + e)
            for i in 0..<4 { for j in 0..<3 { #expect(abs(lo[i][j] - hi[i][j]) < 3e-6, "row \(i) col \(j) at \(q), \(p), \(b)") } }
        }
    }

    @Test("heuristic fusion: ratings and counts")
    func heuristic() {
        let good = ZhaoZhangHeuristicFusion(qSQI: 0.95, pSQI: 0.6, kSQI: 8, basSQI: 0.97, maximumHeartRateBeatsPerMinute: 70)
        #expect(good.ratings == [.optimal, .optimal, .optimal, .optimal] && good.label == .excellent)
        // pSQI 0.75 is optimal below 130 bpm, unqualified at 140 bpm (bounds 0.4–0.7).
        let slow = ZhaoZhangHeuristicFusion(qSQI: 0.95, pSQI: 0.75, kSQI: 8, basSQI: 0.92, maximumHeartRateBeatsPerMinute: 100)
        let fast = ZhaoZhangHeuristicFusion(qSQI: 0.95, pSQI: 0.75, kSQI: 8, basSQI: 0.92, maximumHeartRateBeatsPerMinute: 140)
        #expect(slow.ratings[1] == .optimal && slow.label == .excellent)
        #expect(fast.ratings[1] == .unqualified && fast.label == .barelyAcceptable)
        let bad = ZhaoZhangHeuristicFusion(qSQI: 0.7, pSQI: 0.2, kSQI: 3, basSQI: 0.97, maximumHeartRateBeatsPerMinute: 70)
        #expect(bad.ratings == [.suspicious, .unqualified, .unqualified, .optimal] && bad.label == .unacceptable)
    }

    @Test("windows tile the signal; each equals the window assessed alone")
    func windowing() throws {
        let c = try QualityCase.load("clean_360")
        // 25 s: the 10-s fixture, then itself again, then 5 s of it: two whole windows.
        let signal = c.samples + c.samples + Array(c.samples[0..<1800])
        let peaks = c.rPeaks + c.rPeaks.map { $0 + 3600 } + c.rPeaks.filter { $0 < 1800 }.map { $0 + 7200 }
        let q = ECGQuality(sampleRate: 360)
        let windows = q.assess(signal, rPeaks: peaks.shuffled())
        #expect(windows.count == 2)
        #expect(windows.map(\.startSample) == [0, 3600])
        var second = q.assessWindow(Array(signal[3600..<7200]), rPeaks: c.rPeaks)
        second.startSample = 3600
        #expect(windows[1] == second)
        #expect(windows[0].beatCount == c.rPeaks.count)
    }

    @Test("a flat window and a mostly masked window are unacceptable")
    func unusable() throws {
        let q = ECGQuality(sampleRate: 250)
        let flat = q.assessWindow([Float](repeating: 1, count: 2500), rPeaks: [])
        #expect(flat.label == .unacceptable && flat.fuzzyLabel == .unacceptable)
        #expect(flat.bSQI == 0 && flat.secondaryBeatCount == 0 && flat.kurtosis.isNaN)

        let c = try QualityCase.load("noise010_250")
        var mask = [Bool](repeating: false, count: c.samples.count)
        for i in 0..<200 { mask[i] = true } // 8 %: still judged by the indices
        let light = q.assessWindow(c.samples, masked: mask, rPeaks: c.rPeaks)
        #expect(abs(light.maskedFraction - 0.08) < 1e-12)
        #expect(light.label == .barelyAcceptable && light.fuzzyLabel == .excellent) // as unmasked
        #expect(light.beatCount == c.rPeaks.filter { $0 >= 200 }.count)
        for i in 0..<400 { mask[i] = true } // 16 % > 10 %
        let heavy = q.assessWindow(c.samples, masked: mask, rPeaks: c.rPeaks)
        #expect(heavy.label == .unacceptable && heavy.fuzzyLabel == .unacceptable)
        // The indices alone would pass it.
        #expect(heavy.heuristicFusion.label == .barelyAcceptable && heavy.fuzzyEvaluation.label == .excellent)
    }
}

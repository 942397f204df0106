import Cardio
import Foundation
import Testing

/// The beat series' normal-to-normal selection (`NNSelection`), its HRV coverage columns and the
/// minimum-data rules (`HRVMinimumData`), on synthetic beat times whose NN intervals are known
/// by construction.
@Suite("Normal-to-normal selection and HRV guards")
struct NNSelectionTests {
    /// Sinus beats every 0.8 s with a slow 7-beat modulation, `count` beats.
    static func sinus(_ count: Int) -> [Double] {
        (0..<count).map { k in 1 + Double(k) * 0.8 + 0.02 * sin(2 * Double.pi * Double(k) / 7) }
    }

    static func run(
        _ times: [Double], classes: [BeatClass?], uncertain: Set<Int> = [], exclude: [(Double, Double)] = [],
        pauses: [Int: Double] = [:]
    ) -> (beats: [SeriesBeat], hrv: [HRVResult]) {
        var series = BeatSeries()
        series.cover(from: 0, to: times.last! + 1)
        for (k, t) in times.enumerated() {
            series.append(
                segment: 0, sampleIndex: Int((t * 360).rounded()), timeSeconds: t, beatClass: classes[k],
                uncertain: uncertain.contains(k), pauseSlopeRatio: pauses[k])
        }
        for (a, b) in exclude { series.excludeFromHRV(from: a, to: b) }
        var beats = [SeriesBeat](), hrv = [HRVResult]()
        series.finish(beat: { beats.append($0) }, heartRate: { _ in }, hrv: { hrv.append($0) })
        return (beats, hrv)
    }

    /// Sample SD of `x`.
    static func sd(_ x: [Double]) -> Double {
        let m = x.reduce(0, +) / Double(x.count)
        return (x.reduce(0) { $0 + ($1 - m) * ($1 - m) } / Double(x.count - 1)).squareRoot()
    }

    @Test("intervals touching a ventricular beat are left out; SDNN is that of the rest")
    func ventricular() throws {
        var t = Self.sinus(400)
        t[200] = t[199] + 0.45 // premature V beat, compensatory pause to beat 201
        var classes = [BeatClass?](repeating: .normal, count: 400)
        classes[200] = .ventricular
        let out = Self.run(t, classes: classes)
        let whole = try #require(out.hrv.last)
        #expect(whole.scope == .recording)
        #expect(out.beats[200].beatClass == .ventricular)
        #expect(out.beats[200].nnExclusion == .ectopic)
        #expect(out.beats[201].nnExclusion == .ectopic)
        // The correction may also flag a neighbour of the V beat ectopic (reason `artefact`);
        // no other interval is left out.
        let used = (1..<400).filter { out.beats[$0].nnExclusion == nil }
        for k in 1..<400 where out.beats[k].nnExclusion != nil && k != 200 && k != 201 {
            #expect(
                out.beats[k].nnExclusion == .artefact && abs(k - 200) <= 3, "beat \(k): \(String(describing: out.beats[k].nnExclusion))")
        }
        #expect(used.count >= 395 && whole.intervalCount == used.count && whole.coverage.nnCount == used.count)
        #expect(whole.coverage.intervalCount == 399)
        #expect(abs((whole.coverage.excludedEctopicShare ?? 0) - Double(399 - used.count) / 399) < 1e-12)
        // Independent NN intervals: the input beat times of the used intervals.
        let nn = used.map { 1000 * (t[$0] - t[$0 - 1]) }
        let sdnn = try #require(whole.metrics[.sdnn])
        #expect(abs(sdnn - Self.sd(nn)) < 1e-9 * Self.sd(nn))
    }

    @Test("a pause without a QRS stays one NN interval; one with a QRS-like slope is split and left out")
    func pause() throws {
        var t = Self.sinus(400)
        t.remove(at: 200) // a 1.6 s pause between beats 199 and 200: the correction inserts a beat
        let classes = [BeatClass?](repeating: .normal, count: 399)
        let pause = 1000 * (t[200] - t[199])
        var counts = [Int]()
        for (ratio, kept) in [(0.05, true), (0.5, false)] {
            let out = Self.run(t, classes: classes, pauses: [200: ratio])
            let k = try #require(out.beats.firstIndex { $0.detectionTimeSeconds == nil })
            #expect(out.beats[k].nnExclusion == .corrected)
            #expect(out.beats[k + 1].detectionTimeSeconds == t[200])
            #expect(out.beats[k + 1].nnExclusion == (kept ? nil : .corrected))
            let whole = try #require(out.hrv.last)
            let longest = try #require(whole.metrics[.maxNN])
            #expect(kept ? abs(longest - pause) < 1e-6 : longest < 1000, "longest NN \(longest) ms")
            counts.append(whole.intervalCount)
        }
        #expect(counts == [counts[1] + 1, counts[1]])
    }

    @Test("uncertain and unclassifiable beats are left out as unclassifiable; unlabelled series keep every interval")
    func uncertainAndUnlabelled() throws {
        let t = Self.sinus(300)
        var classes = [BeatClass?](repeating: .normal, count: 300)
        classes[100] = .unclassifiable
        let out = Self.run(t, classes: classes, uncertain: [150])
        #expect(out.beats[100].nnExclusion == .unclassifiable && out.beats[101].nnExclusion == .unclassifiable)
        #expect(out.beats[150].nnExclusion == .unclassifiable && out.beats[151].nnExclusion == .unclassifiable)
        #expect(out.hrv.last?.coverage.nnCount == 299 - 4)
        let plain = Self.run(t, classes: [BeatClass?](repeating: nil, count: 300))
        #expect(plain.beats.allSatisfy { $0.beatClass == nil && $0.nnExclusion == nil })
        #expect(plain.hrv.last?.coverage.nnCount == 299)
    }

    @Test("intervals in an excluded span are left out as quality")
    func qualitySpan() throws {
        let t = Self.sinus(300)
        let out = Self.run(t, classes: [BeatClass?](repeating: .normal, count: 300), exclude: [(100, 110)])
        // Intervals overlapping [100, 110): closing beat after 100 and opening beat before 110.
        var expected = 0
        for k in 1..<300 where t[k] > 100 && t[k - 1] < 110 { expected += 1 }
        let excluded = out.beats.filter { $0.nnExclusion == .quality }.count
        #expect(excluded == expected && expected > 10)
        let whole = try #require(out.hrv.last)
        #expect(abs((whole.coverage.excludedQualityShare ?? 0) - Double(expected) / 299) < 1e-12)
    }

    @Test("metrics below their minimum data are empty, with the reason")
    func minimumData() throws {
        // 90 s of beats: HF has its minute, LF (2 min), VLF (5 min), SampEn (200) and DFA do not.
        let t = Self.sinus(114)
        let out = Self.run(t, classes: [BeatClass?](repeating: .normal, count: 114))
        let whole = try #require(out.hrv.last)
        #expect(whole.coverage.nnSeconds > 60 && whole.coverage.nnSeconds < 120)
        #expect(whole.metrics[.hf]?.isFinite == true)
        #expect(whole.metrics[.rmssd]?.isFinite == true)
        for m in [HRVMetric.lf, .lfhf, .vlf, .tp, .lfn, .hfn, .ulf, .hti, .tinn, .dfaAlpha1, .dfaAlpha2, .sampEn, .apEn] {
            #expect(whole.metrics[m]?.isNaN == true, "\(m.rawValue) should be empty")
            #expect(whole.nullReason.contains(m.rawValue), "\(m.rawValue) missing from \(whole.nullReason)")
        }
        #expect(whole.nullReason.contains("LF,LFHF: < 120 s of NN data"))
        // 8 minutes: LF and SampEn have their minimum, VLF its 5 minutes, ULF not its 24 h.
        let long = Self.run(Self.sinus(600), classes: [BeatClass?](repeating: .normal, count: 600)).hrv.last!
        #expect(long.metrics[.lf]?.isFinite == true && long.metrics[.vlf]?.isFinite == true)
        #expect(long.metrics[.sampEn]?.isFinite == true && long.metrics[.ulf]?.isNaN == true)
        #expect(!long.nullReason.contains("LF,LFHF") && long.nullReason.contains("ULF"))
    }
}

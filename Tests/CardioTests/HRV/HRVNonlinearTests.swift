import DSP
import Testing
import _TestSupport

@testable import Cardio

@Suite("HRV non-linear")
struct HRVNonlinearTests {
    /// Against NeuroKit2's `hrv_nonlinear` (issue tolerances: 1 % Poincaré, 3 % SampEn, ApEn,
    /// DFA; the definitions are reproduced exactly, measured ≤ 3e-14).
    @Test("matches NeuroKit2 hrv_nonlinear", arguments: HRVFixtures.seriesNames)
    func neuroKit2(_ name: String) throws {
        let c = try HRVFixtures.load(name)
        let metrics = try HRVNonlinear(c.series).metrics
        let reference = c.reference("nonlinear")
        let poincare = HRVFixtures.worst(metrics, reference, names: ["SD1", "SD2", "SD1SD2", "S", "CSI", "CVI", "CSI_Modified"])
        #expect(poincare.error <= 1e-9, "\(name): \(poincare.name) off by \(poincare.error)")
        let rest = HRVFixtures.worst(metrics, reference, names: ["SampEn", "ApEn", "DFA_alpha1", "DFA_alpha2"])
        #expect(rest.error <= 1e-9, "\(name): \(rest.name) off by \(rest.error)")
    }

    /// The range-counting template matcher equals the O(n²) pair loop, including ties at
    /// exactly `r` (integer data with integer `r`).
    @Test("template counts equal brute force", arguments: [(1.0, true), (2.0, true), (7.3, false)])
    func templateCounts(_ r: Double, _ quantized: Bool) {
        var rng = SeededGenerator(seed: 42)
        let n = 700
        var x = [Double](repeating: 0, count: n)
        var level = 0.0
        for i in 0..<n {
            level = 0.9 * level + Double.random(in: -6...6, using: &rng)
            x[i] = quantized ? (level + 800).rounded() : level + 800
        }
        let fast2 = TemplateMatchCounter.countsLength2(x, count: n - 1, tolerance: r)
        let slow2 = TemplateMatchCounter.bruteForceCounts(x, length: 2, count: n - 1, tolerance: r)
        #expect(zip(fast2, slow2).filter { $0 != $1 }.count == 0)
        let fast3 = TemplateMatchCounter.countsLength3(x, count: n - 2, tolerance: r)
        let slow3 = TemplateMatchCounter.bruteForceCounts(x, length: 3, count: n - 2, tolerance: r)
        #expect(zip(fast3, slow3).filter { $0 != $1 }.count == 0)
        // The sweep split by third-coordinate rank (the memory-bounded path of long series)
        // gives the same counts for any number of groups, including more groups than points.
        for groups in [2, 3, 8, 1_000] {
            let grouped = TemplateMatchCounter.countsLength3(x, count: n - 2, tolerance: r, groups: groups)
            #expect(zip(grouped, slow3).filter { $0 != $1 }.count == 0, "\(groups) groups")
        }
        let pairs = TemplateMatchCounter.countsByPairs(x, tolerance: r)
        #expect(pairs.length2 == slow2)
        #expect(pairs.length3 == slow3)
        // The pair loop over templates sorted by their first value, and the choice between it
        // and the range counting (a budget of 0 pairs forces the range counting).
        let sorted = TemplateMatchCounter.countsBySortedPairs(x, tolerance: r)
        #expect(sorted?.length2 == slow2)
        #expect(sorted?.length3 == slow3)
        #expect(TemplateMatchCounter.countsBySortedPairs(x, tolerance: r, maximumPairs: 0) == nil)
        let chosen = TemplateMatchCounter.counts(x, tolerance: r)
        #expect(chosen.length2 == slow2 && chosen.length3 == slow3)
        // The range counting with the order by first value computed once for both lengths.
        let order = TemplateMatchCounter.sortedIndices32(n - 1) { x[$0] }
        #expect(TemplateMatchCounter.countsLength2(x, count: n - 1, tolerance: r, orderA: order) == slow2)
        #expect(TemplateMatchCounter.countsLength3(x, count: n - 2, tolerance: r, orderA: order) == slow3)
        #expect(TemplateMatchCounter.countsLength3(x, count: n - 2, tolerance: r, groups: 3, orderA: order) == slow3)
    }

    /// The sorted pair loop on series with many equal values (runs of ties in the sort key and
    /// distances of exactly `r`) and on the shortest series.
    @Test("sorted template counts with ties equal brute force", arguments: [0.0, 1.0, 3.0])
    func sortedCountsWithTies(_ r: Double) {
        var rng = SeededGenerator(seed: 11)
        for n in [3, 4, 5, 50, 400] {
            let x = (0..<n).map { _ in Double(Int.random(in: 0...6, using: &rng)) * 1.5 }
            let slow2 = TemplateMatchCounter.bruteForceCounts(x, length: 2, count: n - 1, tolerance: r * 1.5)
            let slow3 = TemplateMatchCounter.bruteForceCounts(x, length: 3, count: n - 2, tolerance: r * 1.5)
            let sorted = TemplateMatchCounter.countsBySortedPairs(x, tolerance: r * 1.5)
            #expect(sorted?.length2 == slow2, "n = \(n)")
            #expect(sorted?.length3 == slow3, "n = \(n)")
        }
    }

    /// DFA from double-double cumulative sums equals a direct per-window least-squares fit even
    /// when the profile is large (a strong drift makes it reach ~10⁷).
    @Test("DFA fluctuation equals direct window fits under a large drift")
    func dfaPrecision() {
        var rng = SeededGenerator(seed: 7)
        let n = 20_000
        var x = [Double](repeating: 0, count: n)
        for i in 0..<n {
            // Long stretches far from the mean: the profile drifts by ~10⁷ ms.
            let drift = i < n / 2 ? 1_300.0 : 300.0
            x[i] = drift + Double.random(in: -3...3, using: &rng)
        }
        let dfa = DetrendedFluctuation(x)
        var worst = 0.0
        for w in [4, 7, 11, 64, 1_000] {
            worst = max(worst, abs(dfa.fluctuation(scale: w) / Self.directFluctuation(x, w) - 1))
        }
        #expect(worst <= 1e-9)
    }

    /// The window arithmetic spelled out for inlining gives the same bits as DSP's
    /// `DoubleDouble` operators, on a drifting series and on the fixtures.
    @Test("DFA window arithmetic is bit-identical to DoubleDouble")
    func dfaBitIdentical() throws {
        var rng = SeededGenerator(seed: 3)
        var series = [(0..<5_000).map { i in (i < 2_500 ? 1_300.0 : 300.0) + Double.random(in: -3...3, using: &rng) }]
        for name in HRVFixtures.seriesNames { series.append(try HRVFixtures.load(name).series.intervalsMilliseconds) }
        var compared = 0
        for x in series {
            let dfa = DetrendedFluctuation(x)
            for w in [4, 5, 11, 12, 17, 64, 333, 1_000] where w < x.count {
                let fast = dfa.fluctuation(scale: w), reference = dfa.fluctuationByDoubleDouble(scale: w)
                #expect(fast.bitPattern == reference.bitPattern, "n = \(x.count), w = \(w): \(fast) vs \(reference)")
                compared += 1
            }
        }
        #expect(compared >= 20)
    }

    /// NeuroKit2's F(w) by explicit per-window fits, each window centred first.
    static func directFluctuation(_ x: [Double], _ w: Int) -> Double {
        let n = x.count
        let mean = x.reduce(0, +) / Double(n)
        var y = [Double](repeating: 0, count: n)
        var s = 0.0
        for i in 0..<n { s += x[i] - mean; y[i] = s }
        var total = 0.0, used = 0
        var start = 0
        while start < n - w {
            let seg = Array(y[start..<(start + w)])
            let ref = seg[0]
            let z = seg.map { $0 - ref }
            let uMean = Double(w - 1) / 2
            let zMean = z.reduce(0, +) / Double(w)
            var sxy = 0.0, sxx = 0.0
            for u in 0..<w { sxy += (Double(u) - uMean) * (z[u] - zMean); sxx += (Double(u) - uMean) * (Double(u) - uMean) }
            let slope = sxy / sxx
            var rss = 0.0
            for u in 0..<w { let r = z[u] - zMean - slope * (Double(u) - uMean); rss += r * r }
            let v = rss / Double(w)
            if v > 1e-8 { total += v; used += 1 }
            start += w / 2
        }
        return (total / Double(used)).squareRoot()
    }

    @Test("Peng 1995 scales and short series")
    func options() throws {
        let c = try HRVFixtures.load("syn1200q")
        let peng = try HRVNonlinear(c.series, options: .peng1995)
        let dfa = DetrendedFluctuation(c.series.intervalsMilliseconds)
        #expect(abs(peng.dfaAlpha1 - dfa.alpha(scales: Array(4...16))) <= 1e-12)
        #expect(abs(peng.dfaAlpha2 - dfa.alpha(scales: Array(16...64))) <= 1e-12)
        let short = try HRVNonlinear(NNIntervalSeries(intervalsMilliseconds: [800, 810, 790, 805, 795, 800, 812, 799, 801, 806, 790]))
        #expect(short.dfaAlpha1.isNaN && short.dfaAlpha2.isNaN)
    }
}

extension DetrendedFluctuation {
    /// ``fluctuation(scale:)`` with DSP's `DoubleDouble` operators (the reference the
    /// spelled-out window arithmetic must equal bit for bit).
    func fluctuationByDoubleDouble(scale w: Int) -> Double {
        precondition(w >= 2 && w < count, "DFA scale must be in 2 ..< n")
        let wd = Double(w)
        let centre = (wd - 1) / 2
        let sxx = wd * (wd * wd - 1) / 12
        var total = 0.0
        var used = 0
        var s = 0
        while s < count - w {
            let e = s + w
            let s0 = p0[e] - p0[s], s1 = p1[e] - p1[s], s2 = p2[e] - p2[s]
            let syy = (s2 - DoubleDouble.square(s0) / wd).value
            let sxy = (s1 - s0 * (Double(s) + centre)).value
            let variance = (syy - sxy * sxy / sxx) / wd
            if variance > 1e-8 { total += variance; used += 1 }
            s += w / 2
        }
        return used > 0 ? (total / Double(used)).squareRoot() : .nan
    }
}

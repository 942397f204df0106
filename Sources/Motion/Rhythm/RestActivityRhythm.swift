import Foundation

/// Non-parametric and cosinor measures of the rest-activity rhythm of a binned activity series
/// that starts at midnight (bin 0 covers 00:00 on the stream's clock), `binsPerDay` bins per day,
/// `NaN` for a missing bin (not worn, or a day below the wear rule).
///
/// - Interdaily stability and intradaily variability: Witting W et al. (1990) "Alterations in the
///   circadian rest-activity rhythm in aging and Alzheimer's disease", Biol Psychiatry
///   27(6):563–572, doi:10.1016/0006-3223(90)90523-5; van Someren EJW et al. (1999) "Bright light
///   therapy: improved sensitivity to its effects on rest-activity rhythms in Alzheimer patients by
///   application of nonparametric methods", Chronobiol Int 16(4):505–518,
///   doi:10.3109/07420529908998724. The papers' formulas (population variances, the grand mean):
///   IS = N·Σₕ(x̄ₕ − x̄)² / (p·Σᵢ(xᵢ − x̄)²), IV = N·Σᵢ(xᵢ − xᵢ₋₁)² / ((N − 1)·Σᵢ(xᵢ − x̄)²), over the
///   present bins; a difference needs both bins present (the numerator is then the mean over the
///   present pairs).
/// - L5, M10 and RA: the least-active 5 h and most-active 10 h of the average 24-h profile
///   (windows wrap midnight), RA = (M10 − L5) / (M10 + L5) (van Someren 1999).
/// - Cosinor: single-component 24-h cosinor by least squares on the present bins at their centre
///   times (Cornelissen G (2014) "Cosinor-based rhythmometry", Theor Biol Med Model 11:16,
///   doi:10.1186/1742-4682-11-16).
/// - Sleep regularity index: Phillips AJK et al. (2017) "Irregular sleep/wake patterns are
///   associated with poorer academic performance and delayed circadian and sleep/wake timing",
///   Sci Rep 7:3216, doi:10.1038/s41598-017-03171-4, in the form for missing data of Fischer D et
///   al. (2021) "Measuring sleep regularity: theoretical properties and practical usage of
///   existing metrics", Sleep 44(10):zsab103: SRI = 200·P(same state 24 h apart) − 100 over the
///   pairs of bins 24 h apart with a state on both (Phillips' formula when nothing is missing).
enum RestActivityRhythm {
    /// The interdaily stability (0…1), or `nil` without two present bins or without variance.
    /// - Complexity: O(bins).
    static func interdailyStability(_ x: [Double], binsPerDay p: Int) -> Double? {
        var sum = 0.0, n = 0
        var profileSum = [Double](repeating: 0, count: p), profileCount = [Int](repeating: 0, count: p)
        for (i, v) in x.enumerated() where v.isFinite {
            sum += v
            n += 1
            profileSum[i % p] += v
            profileCount[i % p] += 1
        }
        guard n >= 2 else { return nil }
        let mean = sum / Double(n)
        var total = 0.0
        for v in x where v.isFinite { total += (v - mean) * (v - mean) }
        var between = 0.0, positions = 0
        for h in 0..<p where profileCount[h] > 0 {
            let d = profileSum[h] / Double(profileCount[h]) - mean
            between += d * d
            positions += 1
        }
        guard total > 0, positions > 0 else { return nil }
        return (between / Double(positions)) / (total / Double(n))
    }

    /// The intradaily variability (0…≈2), or `nil` without a present pair or without variance.
    /// - Complexity: O(bins).
    static func intradailyVariability(_ x: [Double]) -> Double? {
        var sum = 0.0, n = 0
        for v in x where v.isFinite {
            sum += v
            n += 1
        }
        guard n >= 2 else { return nil }
        let mean = sum / Double(n)
        var total = 0.0
        for v in x where v.isFinite { total += (v - mean) * (v - mean) }
        var squares = 0.0, pairs = 0
        for i in 1..<x.count where x[i].isFinite && x[i - 1].isFinite {
            let d = x[i] - x[i - 1]
            squares += d * d
            pairs += 1
        }
        guard total > 0, pairs > 0 else { return nil }
        return (squares / Double(pairs)) / (total / Double(n))
    }

    /// The average 24-h profile: the mean of the present bins at each position of the day (`NaN`
    /// where none is present).
    /// - Complexity: O(bins).
    static func profile(_ x: [Double], binsPerDay p: Int) -> [Double] {
        var s = [Double](repeating: 0, count: p), c = [Int](repeating: 0, count: p)
        for (i, v) in x.enumerated() where v.isFinite {
            s[i % p] += v
            c[i % p] += 1
        }
        return (0..<p).map { c[$0] > 0 ? s[$0] / Double(c[$0]) : .nan }
    }

    /// The window of `bins` consecutive positions of a 24-h profile (wrapping midnight) with the
    /// lowest or highest mean, the earliest start among equals; windows holding a missing
    /// position are skipped.
    /// - Returns: the start position and the window's mean, or `nil` when every window misses a
    ///   position.
    /// - Complexity: O(positions · bins).
    static func extremeWindow(_ profile: [Double], bins: Int, lowest: Bool) -> (start: Int, mean: Double)? {
        let p = profile.count
        guard bins >= 1, bins <= p else { return nil }
        var best: (start: Int, mean: Double)? = nil
        for s in 0..<p {
            var sum = 0.0
            var complete = true
            for k in 0..<bins {
                let v = profile[(s + k) % p]
                if !v.isFinite {
                    complete = false
                    break
                }
                sum += v
            }
            guard complete else { continue }
            let m = sum / Double(bins)
            if let b = best, lowest ? m >= b.mean : m <= b.mean { continue }
            best = (s, m)
        }
        return best
    }

    /// A single-component cosinor fit, y = M + A·cos(2π(t − φ)/24 h), by least squares.
    /// - Parameters:
    ///   - x: the series (bin 0 at midnight).
    ///   - binSeconds: bin length, s (a bin's time is its centre).
    /// - Returns: mesor M, amplitude A ≥ 0 and the acrophase φ as the clock time of the fitted
    ///   peak in h (0 ≤ φ < 24), or `nil` with fewer than three present bins or a singular fit.
    /// - Complexity: O(bins).
    static func cosinor(_ x: [Double], binSeconds: Double) -> (mesor: Double, amplitude: Double, acrophaseHours: Double)? {
        // Normal equations of [1, cos ωt, sin ωt], accumulated about the means.
        var n = 0.0, sy = 0.0, sc = 0.0, ss = 0.0
        var rows = [(y: Double, c: Double, s: Double)]()
        rows.reserveCapacity(x.count)
        let omega = 2 * Double.pi / 86_400
        for (i, v) in x.enumerated() where v.isFinite {
            let t = (Double(i) + 0.5) * binSeconds
            let c = cos(omega * t), s = sin(omega * t)
            rows.append((v, c, s))
            n += 1
            sy += v
            sc += c
            ss += s
        }
        guard n >= 3 else { return nil }
        let my = sy / n, mc = sc / n, ms = ss / n
        var cc = 0.0, cs = 0.0, ssum = 0.0, cy = 0.0, sy2 = 0.0
        for r in rows {
            let c = r.c - mc, s = r.s - ms, y = r.y - my
            cc += c * c
            cs += c * s
            ssum += s * s
            cy += c * y
            sy2 += s * y
        }
        let det = cc * ssum - cs * cs
        guard det > 1e-12 * max(cc * ssum, 1e-300) else { return nil }
        let beta = (cy * ssum - sy2 * cs) / det
        let gamma = (sy2 * cc - cy * cs) / det
        let mesor = my - beta * mc - gamma * ms
        var peak = atan2(gamma, beta) / omega / 3600
        if peak < 0 { peak += 24 }
        if peak >= 24 { peak -= 24 }
        return (mesor, (beta * beta + gamma * gamma).squareRoot(), peak)
    }

    /// The sleep regularity index from per-bin states (0 wake, 1 sleep, anything else missing).
    /// - Returns: the index (−100…100) and the number of pairs 24 h apart with both states
    ///   known, or `nil` without any pair.
    /// - Complexity: O(bins).
    static func sleepRegularity(_ states: [UInt8], binsPerDay p: Int) -> (index: Double, pairs: Int)? {
        var same = 0, pairs = 0
        var i = 0
        while i + p < states.count {
            let a = states[i], b = states[i + p]
            if a <= 1 && b <= 1 {
                pairs += 1
                if a == b { same += 1 }
            }
            i += 1
        }
        guard pairs > 0 else { return nil }
        return (200 * Double(same) / Double(pairs) - 100, pairs)
    }
}

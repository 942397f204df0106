import Foundation

/// Day-level measures of the epoch series, as the accelerometry literature defines them.
enum DailyActivityMeasures {
    /// The acceleration above which the day's most active `minutes` lie (Rowlands AV et al. (2018)
    /// "Beyond cut points: accelerometer metrics that capture the physical activity profile", Med
    /// Sci Sports Exerc 50(6):1323–1332, doi:10.1249/MSS.0000000000001561): the k-th highest
    /// epoch value, k = ⌈minutes·60 / epoch⌉ — the lowest epoch of the most active X minutes.
    /// - Parameters:
    ///   - sortedDescending: the day's worn epoch values, highest first.
    ///   - minutes: X.
    ///   - epochSeconds: epoch length, s.
    /// - Returns: the value, or `nil` with fewer than k epochs.
    /// - Complexity: O(1).
    static func accelerationAboveTop(_ sortedDescending: [Double], minutes: Double, epochSeconds: Double) -> Double? {
        let k = Int((minutes * 60 / epochSeconds).rounded(.up))
        guard k >= 1, sortedDescending.count >= k else { return nil }
        return sortedDescending[k - 1]
    }

    /// Lower edges of the intensity-gradient bins in mg: 0, 25, …, 4000 (25-mg bins), the last bin
    /// 4000–8000 mg (GGIR's default `iglevels`); a value of 8000 mg or more falls in no bin.
    static let gradientEdges: [Double] = stride(from: 0.0, through: 4000, by: 25).map { $0 } + [8000]

    /// The intensity gradient (Rowlands et al. 2018): the time in each intensity bin (minutes) and
    /// the bin's midpoint (mg) on log–log axes; the slope (gradient, negative), intercept and R²
    /// of the least-squares line through the bins that hold time.
    /// - Parameters:
    ///   - values: the day's worn epoch values, mg.
    ///   - epochSeconds: epoch length, s.
    /// - Returns: the fit, or `nil` with fewer than two bins holding time.
    /// - Complexity: O(epochs + bins).
    static func intensityGradient(_ values: [Double], epochSeconds: Double) -> (gradient: Double, intercept: Double, r2: Double)? {
        let edges = gradientEdges
        var counts = [Int](repeating: 0, count: edges.count - 1)
        for v in values where v >= 0 && v < edges[edges.count - 1] {
            let k = v < 4000 ? Int(v / 25) : edges.count - 2
            counts[min(k, counts.count - 1)] += 1
        }
        var xs = [Double](), ys = [Double]()
        for (k, c) in counts.enumerated() where c > 0 {
            xs.append(log((edges[k] + edges[k + 1]) / 2))
            ys.append(log(Double(c) * epochSeconds / 60))
        }
        guard xs.count >= 2 else { return nil }
        let n = Double(xs.count)
        let mx = xs.reduce(0, +) / n, my = ys.reduce(0, +) / n
        var sxx = 0.0, sxy = 0.0, syy = 0.0
        for (x, y) in zip(xs, ys) {
            sxx += (x - mx) * (x - mx)
            sxy += (x - mx) * (y - my)
            syy += (y - my) * (y - my)
        }
        guard sxx > 0 else { return nil }
        let slope = sxy / sxx
        let r2 = syy > 0 ? (sxy * sxy) / (sxx * syy) : 1
        return (slope, my - slope * mx, r2)
    }

    /// Epochs covered by bouts: every epoch of a window of `length` epochs that starts and ends
    /// with a flagged epoch, holds at least `criterion` (0…1) flagged epochs, and holds no run of
    /// unflagged epochs longer than `maximumBreak` epochs (GGIR's bout rule: the 80 % criterion,
    /// bouts begin and end with an epoch above the threshold, breaks of at most 1 min).
    /// - Complexity: O(epochs).
    static func boutCoverage(_ flagged: [Bool], length: Int, criterion: Double, maximumBreak: Int) -> [Bool] {
        let n = flagged.count
        var covered = [Bool](repeating: false, count: n)
        guard length >= 1, n >= length else { return covered }
        // Prefix counts of flagged epochs and of positions where an unflagged run exceeds the break.
        var flaggedBefore = [Int](repeating: 0, count: n + 1)
        var longBefore = [Int](repeating: 0, count: n + 1)
        var run = 0
        for i in 0..<n {
            run = flagged[i] ? 0 : run + 1
            flaggedBefore[i + 1] = flaggedBefore[i] + (flagged[i] ? 1 : 0)
            longBefore[i + 1] = longBefore[i] + (run == maximumBreak + 1 ? 1 : 0)
        }
        let needed = criterion * Double(length)
        var delta = [Int](repeating: 0, count: n + 1)
        for s in 0...(n - length) {
            let e = s + length // exclusive
            guard flagged[s], flagged[e - 1], Double(flaggedBefore[e] - flaggedBefore[s]) >= needed,
                longBefore[e] == longBefore[s]
            else { continue }
            delta[s] += 1
            delta[e] -= 1
        }
        var open = 0
        for i in 0..<n {
            open += delta[i]
            covered[i] = open > 0
        }
        return covered
    }

    /// Maximal runs of consecutive flagged epochs, as lengths in epochs.
    /// - Complexity: O(epochs).
    static func runLengths(_ flagged: [Bool]) -> [Int] {
        var out = [Int](), run = 0
        for f in flagged {
            if f {
                run += 1
            } else if run > 0 {
                out.append(run)
                run = 0
            }
        }
        if run > 0 { out.append(run) }
        return out
    }

    /// The p-quantile (0…1) of sorted values with linear interpolation (R's type 7, NumPy's
    /// default), or `nil` when empty.
    /// - Complexity: O(1).
    static func quantile(sortedAscending v: [Double], _ p: Double) -> Double? {
        guard !v.isEmpty else { return nil }
        let h = Double(v.count - 1) * p
        let lo = Int(h.rounded(.down)), hi = min(lo + 1, v.count - 1)
        return v[lo] + (h - Double(lo)) * (v[hi] - v[lo])
    }
}

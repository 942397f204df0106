import Foundation

/// RR-interval irregularity measures of one rhythm window, each from a cited method, computed
/// over the intervals between consecutive beats of the window (an interval is kept when it lies
/// in 0.25–2.5 s: shorter ones are double detections, longer ones gaps or pauses the detector
/// missed beats in).
public struct RRIrregularity: Sendable, Hashable {
    /// Intervals kept.
    public var count: Int
    /// Mean interval, s.
    public var meanSeconds: Double
    /// Normalised RMSSD: root mean square of successive differences over the mean interval
    /// (Dash S et al. 2009, Ann Biomed Eng 37:1701–1709).
    public var normalizedRMSSD: Double
    /// Shannon entropy of the intervals' 16-bin histogram between their minimum and maximum,
    /// normalised by ln 16 (0–1; Dash et al. 2009, without their outlier removal).
    public var shannonEntropy: Double
    /// Turning-point ratio: turning points over the intervals that can be one, n − 2 (Dash et al.
    /// 2009; 2/3 expected for a random series).
    public var turningPointRatio: Double
    /// Coefficient of sample entropy, COSEn = SampEn(m = 1, r = 30 ms) + ln(2r) − ln(mean RR)
    /// (Lake DE, Moorman JR 2011, Am J Physiol Heart Circ Physiol 300:H319–H325); when no
    /// template pair of length 2 matches, the match count is taken as one, and when no pair of
    /// length 1 matches either, SampEn is ln(n(n − 1)), the largest the counts allow (the value
    /// stays finite).
    public var cosEn: Double
    /// Median of |ΔRR| over the median interval: the robust irregularity that Petrėnas A,
    /// Marozas V, Sörnmo L (2015, Comput Biol Med 65:184–191) track with an 8-beat median.
    public var medianAbsoluteDeltaRatio: Double
    /// Share of successive differences larger than 12.5 % of the window's median interval
    /// (the ectopic-or-irregular criterion of the Lipponen–Tarvainen correction scaled down).
    public var largeDeltaShare: Double
    /// Coefficient of variation of the intervals.
    public var coefficientOfVariation: Double

    /// Intervals between consecutive beat times, the kept ones only.
    /// - Parameter beatTimes: beat times in s, in order.
    /// - Returns: the kept intervals, s.
    /// - Complexity: O(n).
    public static func intervals(_ beatTimes: [Double]) -> [Double] {
        var out = [Double]()
        out.reserveCapacity(max(0, beatTimes.count - 1))
        for i in beatTimes.indices.dropFirst() {
            let rr = beatTimes[i] - beatTimes[i - 1]
            if keeps(rr) { out.append(rr) }
        }
        return out
    }

    /// Whether an interval (s) is kept: 0.25–2.5 s (``intervals(_:)``).
    @inline(__always) static func keeps(_ rr: Double) -> Bool { rr >= 0.25 && rr <= 2.5 }

    /// The measures of a window's kept intervals, or `nil` with fewer than 4.
    /// - Parameter rr: intervals in s (``intervals(_:)``).
    /// - Complexity: O(n²) for the sample entropy (n ≤ a window's beats).
    public init?(intervals rr: [Double]) {
        let n = rr.count
        guard n >= 4 else { return nil }
        count = n
        let mean = rr.reduce(0, +) / Double(n)
        meanSeconds = mean
        var ssd = 0.0
        var deltas = [Double]()
        deltas.reserveCapacity(n - 1)
        for i in 1..<n {
            let d = rr[i] - rr[i - 1]
            ssd += d * d
            deltas.append(abs(d))
        }
        normalizedRMSSD = (ssd / Double(n - 1)).squareRoot() / mean
        var variance = 0.0
        for x in rr { variance += (x - mean) * (x - mean) }
        coefficientOfVariation = (variance / Double(n - 1)).squareRoot() / mean
        // Shannon entropy over 16 bins.
        let lo = rr.min()!, hi = rr.max()!
        if hi - lo <= 0 {
            shannonEntropy = 0
        } else {
            var bins = [Int](repeating: 0, count: 16)
            for x in rr { bins[min(15, Int((x - lo) / (hi - lo) * 16))] += 1 }
            var h = 0.0
            for c in bins where c > 0 {
                let p = Double(c) / Double(n)
                h -= p * log(p)
            }
            shannonEntropy = h / log(16)
        }
        var turns = 0
        for i in 1..<(n - 1) where (rr[i] - rr[i - 1]) * (rr[i + 1] - rr[i]) < 0 { turns += 1 }
        turningPointRatio = Double(turns) / Double(n - 2)
        let medianRR = Self.median(rr)
        medianAbsoluteDeltaRatio = Self.median(deltas) / medianRR
        largeDeltaShare = Double(deltas.filter { $0 > 0.125 * medianRR }.count) / Double(deltas.count)
        cosEn = Self.sampleEntropy(rr, tolerance: 0.030) + log(2 * 0.030) - log(mean)
    }

    /// Sample entropy with template length m = 1 (Richman & Moorman 2000): −ln(A / B), with B
    /// the pairs of length-1 templates within `tolerance` (Chebyshev) and A those of length 2;
    /// A = 0 counts as 1; B = 0 gives ln(n(n − 1)).
    static func sampleEntropy(_ x: [Double], tolerance r: Double) -> Double {
        let n = x.count
        var a = 0, b = 0
        for i in 0..<(n - 1) {
            for j in (i + 1)..<(n - 1) where abs(x[i] - x[j]) <= r {
                b += 1
                if abs(x[i + 1] - x[j + 1]) <= r { a += 1 }
            }
        }
        guard b > 0 else { return log(Double(n)) + log(Double(n - 1)) }
        return -log(Double(max(a, 1)) / Double(b))
    }

    static func median(_ x: [Double]) -> Double {
        let s = x.sorted()
        let m = s.count / 2
        return s.count % 2 == 1 ? s[m] : 0.5 * (s[m - 1] + s[m])
    }
}

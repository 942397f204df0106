#if canImport(Glibc)
    import Glibc
#endif

/// Time-domain HRV: statistics of the NN intervals and of their successive differences, named
/// and defined as NeuroKit2's `hrv_time` (0.2.13).
///
/// Definitions (NN in ms, ΔNN the successive differences, see ``NNIntervalSeries`` for which
/// differences count as successive):
/// - `MeanNN`, `SDNN` (sample SD, n − 1), `MedianNN`, `MinNN`, `MaxNN`;
///   `MadNN = 1.4826 · median|NN − median NN|`; `IQRNN`, `Prc20NN`, `Prc80NN` are NumPy's
///   linear-interpolation percentiles.
/// - `RMSSD = √mean(ΔNN²)`, `SDSD = SD(ΔNN)` (n − 1); `CVNN = SDNN/MeanNN`,
///   `CVSD = RMSSD/MeanNN`, `MCVNN = MadNN/MedianNN`, `SDRMSSD = SDNN/RMSSD` (Sollers 2007).
/// - `pNN50`, `pNN20`: percentage of |ΔNN| > 50 (20) ms. **As NeuroKit2**, the count is divided
///   by (number of differences + 1), not by the number of differences.
/// - `HTI` (HRV triangular index): NN count / height of the histogram with bins of 1/128 s
///   (7.8125 ms) starting at 0 ms.
/// - `TINN`: base `M − N` of the triangle that best fits the same histogram in least squares
///   (Task Force 1996): `q(t) = 0` outside `[N, M]`, linear up to the histogram's peak `(X, Y)`
///   and down again, each bin's count placed at its left edge, `N` and `M` searched over all bin
///   edges. **Differs from NeuroKit2**, whose search never resets its inner loop (so only the
///   first `N` is tried), counts the error only inside `[N, M]`, and returns 0 when every error
///   exceeds 2¹⁴ (long recordings).
///
/// Sources: Task Force of the European Society of Cardiology and the North American Society of
/// Pacing and Electrophysiology, "Heart rate variability: standards of measurement,
/// physiological interpretation and clinical use", Circulation 93(5):1043–1065, 1996,
/// doi:10.1161/01.CIR.93.5.1043. D. Makowski et al., "NeuroKit2: A Python toolbox for
/// neurophysiological signal processing", Behav. Res. Methods 53:1689–1696, 2021,
/// doi:10.3758/s13428-020-01516-y. F. Shaffer and J. P. Ginsberg, "An overview of heart rate
/// variability metrics and norms", Front. Public Health 5:258, 2017,
/// doi:10.3389/fpubh.2017.00258.
public struct HRVTimeDomain: Sendable, Equatable {
    /// Mean NN interval, ms.
    public var meanNN: Double
    /// Standard deviation of NN intervals (n − 1), ms.
    public var sdnn: Double
    /// Root mean square of successive differences, ms.
    public var rmssd: Double
    /// Standard deviation of successive differences (n − 1), ms.
    public var sdsd: Double
    /// SDNN / MeanNN.
    public var cvnn: Double
    /// RMSSD / MeanNN.
    public var cvsd: Double
    /// Median NN interval, ms.
    public var medianNN: Double
    /// Scaled median absolute deviation `1.4826 · median|NN − median|`, ms.
    public var madNN: Double
    /// MadNN / MedianNN.
    public var mcvnn: Double
    /// Interquartile range of NN, ms.
    public var iqrNN: Double
    /// SDNN / RMSSD.
    public var sdrmssd: Double
    /// 20th percentile of NN, ms.
    public var prc20NN: Double
    /// 80th percentile of NN, ms.
    public var prc80NN: Double
    /// Percentage of successive differences above 50 ms (NeuroKit2's denominator).
    public var pnn50: Double
    /// Percentage of successive differences above 20 ms (NeuroKit2's denominator).
    public var pnn20: Double
    /// Shortest NN interval, ms.
    public var minNN: Double
    /// Longest NN interval, ms.
    public var maxNN: Double
    /// HRV triangular index (dimensionless).
    public var hti: Double
    /// Triangular interpolation of the NN histogram (Task Force 1996), ms.
    public var tinn: Double

    /// Width of the histogram bins for HTI and TINN: 1/128 s in ms (Task Force 1996).
    public static let histogramBinMilliseconds = 1000.0 / 128.0

    /// NeuroKit2's column names, in its order.
    public static let metricNames = [
        "MeanNN", "SDNN", "RMSSD", "SDSD", "CVNN", "CVSD", "MedianNN", "MadNN", "MCVNN", "IQRNN",
        "SDRMSSD", "Prc20NN", "Prc80NN", "pNN50", "pNN20", "MinNN", "MaxNN", "HTI", "TINN",
    ]

    /// Computes the time-domain measures of a series.
    /// - Parameter series: NN intervals (ms) with their successive flags.
    /// - Complexity: O(n log n) (sorting for the percentiles) plus O(B²) for TINN over `B`
    ///   histogram bins (about 130 for 0.4–1.4 s intervals).
    public init(_ series: NNIntervalSeries) {
        let nn = series.intervalsMilliseconds
        let n = nn.count
        let flags = series.isSuccessive

        var sum = 0.0, minimum = Double.infinity, maximum = -Double.infinity
        for v in nn {
            sum += v
            minimum = min(minimum, v)
            maximum = max(maximum, v)
        }
        let mean = sum / Double(n)
        var squares = 0.0
        for v in nn { squares += (v - mean) * (v - mean) }
        let sdnn = (squares / Double(n - 1)).squareRoot()

        var diffSum = 0.0, diffSquares = 0.0, diffCount = 0, over50 = 0, over20 = 0
        for i in 0..<(n - 1) where flags[i] {
            let d = nn[i + 1] - nn[i]
            diffSum += d
            diffSquares += d * d
            diffCount += 1
            if abs(d) > 50 { over50 += 1 }
            if abs(d) > 20 { over20 += 1 }
        }
        var diffDeviation = 0.0
        let diffMean = diffCount > 0 ? diffSum / Double(diffCount) : .nan
        for i in 0..<(n - 1) where flags[i] {
            let d = nn[i + 1] - nn[i] - diffMean
            diffDeviation += d * d
        }
        let rmssd = diffCount > 0 ? (diffSquares / Double(diffCount)).squareRoot() : .nan
        let sdsd = diffCount > 1 ? (diffDeviation / Double(diffCount - 1)).squareRoot() : .nan

        let sorted = nn.sorted()
        let median = Self.percentile(sorted, 50)
        var deviations = nn.map { abs($0 - median) }
        deviations.sort()
        let mad = 1.4826 * Self.percentile(deviations, 50)

        meanNN = mean
        self.sdnn = sdnn
        self.rmssd = rmssd
        self.sdsd = sdsd
        cvnn = sdnn / mean
        cvsd = rmssd / mean
        medianNN = median
        madNN = mad
        mcvnn = mad / median
        iqrNN = Self.percentile(sorted, 75) - Self.percentile(sorted, 25)
        sdrmssd = sdnn / rmssd
        prc20NN = Self.percentile(sorted, 20)
        prc80NN = Self.percentile(sorted, 80)
        pnn50 = Double(over50) / Double(diffCount + 1) * 100
        pnn20 = Double(over20) / Double(diffCount + 1) * 100
        minNN = minimum
        maxNN = maximum
        let histogram = Self.histogram(nn, maximum: maximum)
        var peak = 0
        for k in histogram.indices where histogram[k] > histogram[peak] { peak = k }
        hti = Double(n) / Double(histogram[peak])
        tinn = Self.tinn(histogram: histogram, peak: peak)
    }

    /// The measures as a table with NeuroKit2's names, in ``metricNames`` order.
    /// - Complexity: O(1) (19 entries).
    public var metrics: HRVMetrics {
        HRVMetrics([
            ("MeanNN", meanNN), ("SDNN", sdnn), ("RMSSD", rmssd), ("SDSD", sdsd), ("CVNN", cvnn),
            ("CVSD", cvsd), ("MedianNN", medianNN), ("MadNN", madNN), ("MCVNN", mcvnn),
            ("IQRNN", iqrNN), ("SDRMSSD", sdrmssd), ("Prc20NN", prc20NN), ("Prc80NN", prc80NN),
            ("pNN50", pnn50), ("pNN20", pnn20), ("MinNN", minNN), ("MaxNN", maxNN), ("HTI", hti),
            ("TINN", tinn),
        ])
    }

    // MARK: - Internals

    /// NumPy's default (`'linear'`) percentile of sorted data: `q` in 0…100.
    static func percentile(_ sorted: [Double], _ q: Double) -> Double {
        let n = sorted.count
        let position = q / 100 * Double(n - 1)
        let lower = Int(position.rounded(.down))
        let upper = min(lower + 1, n - 1)
        let t = position - Double(lower)
        let a = sorted[lower], b = sorted[upper]
        // NumPy's _lerp: a + (b − a)·t, or b − (b − a)(1 − t) for t ≥ 0.5.
        let d = b - a
        return t >= 0.5 ? b - d * (1 - t) : a + d * t
    }

    /// Counts per bin of `numpy.histogram(nn, bins=np.arange(0, max + w, w))`, `w` = 1/128 s:
    /// bin `k` is `[k·w, (k+1)·w)`, the last bin closed.
    static func histogram(_ nn: [Double], maximum: Double) -> [Int] {
        let w = histogramBinMilliseconds
        let edgeCount = Int(((maximum + w) / w).rounded(.up))
        let binCount = max(edgeCount - 1, 1)
        var counts = [Int](repeating: 0, count: binCount)
        for v in nn {
            var k = Int(v / w)
            // Exact edge membership (edges k·w are exact: w is a power-of-two fraction).
            if k > 0 && v < Double(k) * w { k -= 1 }
            if v >= Double(k + 1) * w { k += 1 }
            counts[min(max(k, 0), binCount - 1)] += 1
        }
        return counts
    }

    /// Task Force TINN over the histogram: the least-squares triangle splits into a left error
    /// depending only on `N` and a right error depending only on `M`, each minimised on its own
    /// (first minimum on ties, as a search in increasing order).
    static func tinn(histogram d: [Int], peak: Int) -> Double {
        let w = histogramBinMilliseconds
        let bins = d.count
        let x = (0...bins).map { Double($0) * w } // left edges, plus the last right edge
        let peakX = x[peak], peakY = Double(d[peak])
        var bestLeft = Double.infinity, bestN = peakX
        if peak > 0 {
            for n in 0..<peak {
                var error = 0.0
                let slope = peakY / (peakX - x[n])
                for k in 0..<peak {
                    let q = k < n ? 0 : slope * (x[k] - x[n])
                    let e = Double(d[k]) - q
                    error += e * e
                }
                if error < bestLeft { bestLeft = error; bestN = x[n] }
            }
        }
        var bestRight = Double.infinity, bestM = peakX
        if peak + 1 <= bins {
            for m in (peak + 1)...bins {
                let endX = x[m]
                let slope = peakY / (endX - peakX)
                var error = 0.0
                for k in (peak + 1)..<max(bins, peak + 1) {
                    let q = x[k] < endX ? slope * (endX - x[k]) : 0
                    let e = Double(d[k]) - q
                    error += e * e
                }
                if error < bestRight { bestRight = error; bestM = endX }
            }
        }
        return bestM - bestN
    }
}

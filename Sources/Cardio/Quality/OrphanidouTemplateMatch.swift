/// The ECG quality rules of Orphanidou et al. (2015): heart-rate and RR feasibility, then the
/// mean correlation of each beat with the window's average beat.
///
/// For one window with R-peaks `r₁ < … < r_m` (sample indices inside the window):
/// 1. **Feasibility** (all must hold): heart rate `60 / mean(RR)` within 40–180 bpm; no gap
///    between successive beats longer than 3 s; longest RR over shortest RR at most 2.2.
///    *Deviation:* the gaps from the window's start to the first beat and from the last beat to
///    the window's end count as gaps too, so a window whose ECG stops after two beats fails; the
///    paper states the rule for successive beats only.
/// 2. **Template matching:** each beat is the `w` samples starting `⌊w/2⌋` before its R-peak,
///    `w` = the median RR interval in samples (rounded half to even); beats not wholly inside the
///    window are left out. The template is the sample-wise mean of the beats; the index is the
///    mean Pearson correlation of each beat with the template.
/// 3. The window is **acceptable** when feasible and the mean correlation is at least 0.66 (the
///    paper's ECG threshold).
///
/// The correlation is computed on the samples as given (``ECGQuality`` passes the raw window);
/// baseline wander inside a beat lowers it.
///
/// Source: C. Orphanidou, T. Bonnici, P. Charlton, D. Clifton, D. Vallance and L. Tarassenko,
/// "Signal-quality indices for the electrocardiogram and photoplethysmogram: derivation and
/// applications to wireless monitoring", *IEEE J. Biomed. Health Inform.* 19(3):832–838, 2015,
/// doi:10.1109/JBHI.2014.2338351.
public struct OrphanidouTemplateMatch: Sendable, Equatable {
    /// Lowest feasible heart rate, bpm.
    public static let minimumHeartRate = 40.0
    /// Highest feasible heart rate, bpm.
    public static let maximumHeartRate = 180.0
    /// Longest feasible gap without a beat, seconds.
    public static let maximumGapSeconds = 3.0
    /// Largest feasible ratio of the longest to the shortest RR interval.
    public static let maximumRRRatio = 2.2
    /// Smallest acceptable mean beat-template correlation for ECG.
    public static let correlationThreshold = 0.66

    /// Beats (R-peaks) in the window.
    public var beatCount: Int
    /// `60 / mean(RR)`, beats per minute; NaN with fewer than 2 beats.
    public var heartRateBeatsPerMinute: Double
    /// Longest gap without a beat, edges included, seconds; NaN with fewer than 2 beats.
    public var maximumGapSeconds: Double
    /// Longest over shortest RR interval; NaN with fewer than 2 beats.
    public var rrRatio: Double
    /// All three feasibility rules hold.
    public var isFeasible: Bool
    /// Mean correlation of the complete beats with their average, −1…1; NaN with fewer than 2
    /// complete beats.
    public var templateCorrelation: Double
    /// Feasible and ``templateCorrelation`` ≥ ``correlationThreshold``.
    public var isAcceptable: Bool { isFeasible && templateCorrelation >= Self.correlationThreshold }

    /// Evaluates one window.
    /// - Parameters:
    ///   - samples: the window's samples.
    ///   - rPeaks: R-peak sample indices relative to the window's start; values outside the window
    ///     are ignored; any order.
    ///   - sampleRate: Hz, positive.
    /// - Complexity: O(n + m log m) for n samples and m beats.
    public init(samples: [Float], rPeaks: [Int], sampleRate: Double) {
        self = samples.withUnsafeBufferPointer { Self(samples: $0, rPeaks: rPeaks, sampleRate: sampleRate) }
    }

    /// Evaluates one window.
    /// - Parameters:
    ///   - samples: the window's samples.
    ///   - rPeaks: R-peak sample indices relative to the window's start.
    ///   - sampleRate: Hz, positive.
    /// - Complexity: O(n + m log m).
    public init(samples: UnsafeBufferPointer<Float>, rPeaks: [Int], sampleRate: Double) {
        precondition(sampleRate > 0 && sampleRate.isFinite, "sampleRate must be positive")
        let n = samples.count
        let peaks = rPeaks.filter { $0 >= 0 && $0 < n }.sorted()
        beatCount = peaks.count
        heartRateBeatsPerMinute = .nan
        maximumGapSeconds = .nan
        rrRatio = .nan
        isFeasible = false
        templateCorrelation = .nan
        guard peaks.count >= 2 else { return }
        var rr = [Int](repeating: 0, count: peaks.count - 1)
        for i in rr.indices { rr[i] = peaks[i + 1] - peaks[i] }
        let rrSum = rr.reduce(0, +)
        heartRateBeatsPerMinute = 60 * sampleRate * Double(rr.count) / Double(rrSum)
        let longest = rr.max()!, shortest = rr.min()!
        let gap = max(longest, peaks[0], n - peaks[peaks.count - 1])
        maximumGapSeconds = Double(gap) / sampleRate
        rrRatio = shortest > 0 ? Double(longest) / Double(shortest) : .infinity
        isFeasible =
            heartRateBeatsPerMinute >= Self.minimumHeartRate
            && heartRateBeatsPerMinute <= Self.maximumHeartRate
            && maximumGapSeconds <= Self.maximumGapSeconds
            && rrRatio <= Self.maximumRRRatio
        let sortedRR = rr.sorted()
        let mid = sortedRR.count / 2
        let median =
            sortedRR.count % 2 == 1
            ? Double(sortedRR[mid])
            : Double(sortedRR[mid - 1] + sortedRR[mid]) / 2
        let w = Int(median.rounded(.toNearestOrEven))
        templateCorrelation = Self.meanTemplateCorrelation(samples, peaks: peaks, width: w)
    }

    /// Mean correlation of the complete `width`-sample beats with their average.
    static func meanTemplateCorrelation(_ x: UnsafeBufferPointer<Float>, peaks: [Int], width w: Int) -> Double {
        let n = x.count
        guard w >= 2 else { return .nan }
        let starts = peaks.map { $0 - w / 2 }.filter { $0 >= 0 && $0 + w <= n }
        guard starts.count >= 2 else { return .nan }
        var template = [Double](repeating: 0, count: w)
        for s in starts {
            for j in 0..<w { template[j] += Double(x[s + j]) }
        }
        let count = Double(starts.count)
        for j in 0..<w { template[j] /= count }
        var tMean = 0.0
        for v in template { tMean += v }
        tMean /= Double(w)
        var tss = 0.0
        for v in template { tss += (v - tMean) * (v - tMean) }
        var sum = 0.0
        for s in starts {
            var bMean = 0.0
            for j in 0..<w { bMean += Double(x[s + j]) }
            bMean /= Double(w)
            var sxy = 0.0, sxx = 0.0
            for j in 0..<w {
                let b = Double(x[s + j]) - bMean, t = template[j] - tMean
                sxy += b * t
                sxx += b * b
            }
            sum += sxy / (sxx * tss).squareRoot()
        }
        return sum / count
    }
}

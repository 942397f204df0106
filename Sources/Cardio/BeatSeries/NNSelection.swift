/// Why an interval of the corrected beat series is left out of HRV (the `nn_excluded` column of
/// `beats`).
public enum NNExclusion: String, Sendable, Hashable, CaseIterable {
    /// One of its beats is a supraventricular or ventricular ectopic beat.
    case ectopic
    /// One of its beats is unclassifiable, or its classification is uncertain (a normal beat with a
    /// high ventricular probability, or a suspected fusion beat: ``BeatFeatures/fusionSuspected``).
    case unclassifiable
    /// The artefact correction (Lipponen & Tarvainen 2019) flagged one of its beats ectopic: a
    /// timing no sinus beat has, whatever the morphology says.
    case artefact
    /// Outside ``NNSelection/rangeMilliseconds``.
    case range
    /// It lies in a span excluded from HRV (ECG: an `unacceptable` quality window).
    case quality
    /// One of its beats was inserted by the correction for a missed detection (its timing is
    /// interpolated, not measured), and the signal does not show the interval to be a pause.
    case corrected
}

/// The rule that makes an interval of a classified beat series normal-to-normal (NN).
///
/// Task Force of the ESC and NASPE (1996), "Heart rate variability: standards of measurement,
/// physiological interpretation and clinical use", Circulation 93(5):1043–1065,
/// doi:10.1161/01.CIR.93.5.1043: NN intervals are those between adjacent QRS complexes
/// resulting from sinus node depolarisations. An interval is used when both its beats are
/// classified normal with certainty (``BeatClassifier``), neither is flagged ectopic by the
/// Lipponen & Tarvainen (2019) correction (a premature beat the morphology classifier took for
/// normal: supraventricular beats keep the normal QRS shape), neither was inserted by the
/// correction for a missed detection, and it lies within 300–2000 ms (30–200 bpm). The interval
/// is measured between the two detected beats (the correction never moves them); an extra
/// detection the correction removed does not split it.
///
/// Pauses: the correction (timing only) takes an interval of about twice the local median for a
/// missed beat. When the ECG between the two detected beats holds no deflection with a fifth of
/// their QRS slope (``BeatFeatures/pauseSlopeRatio`` below 0.2: no QRS was missed), the
/// interval is a real pause between two sinus-conducted beats — a sinus pause, a blocked
/// premature atrial beat, a dropped beat of AV block, a long interval of atrial fibrillation —
/// and is kept as one NN interval between the two detected beats (the Task Force's definition
/// counts it; the inserted beat stays in the heart-rate series). The 0.2 is the detector's
/// search-back fraction (``BeatClassifier``, item 7); it was checked on the MIT-BIH records of
/// docs/VALIDATION.md, where the 68 QRS complexes the detector missed inside such intervals
/// gave ratios of 0.26 and above and the 245 pauses without a beat 0.28 and below (all but
/// three below 0.2).
public enum NNSelection {
    /// Accepted NN interval range, milliseconds (30–200 bpm).
    public static let rangeMilliseconds: ClosedRange<Double> = NormalToNormalIntervals.defaultRangeMilliseconds

    /// Why the interval between two consecutive beats of a classified series is excluded, or
    /// `nil` when it is NN.
    /// - Parameters:
    ///   - labels: the two beats' labels (``BeatClass`` raw value; bit 7 set when uncertain).
    ///   - flagged: whether the correction flagged each beat ectopic.
    ///   - inserted: whether one of the beats was inserted by the correction.
    ///   - milliseconds: the interval.
    /// - Complexity: O(1).
    static func exclusion(labels: (UInt8, UInt8), flagged: (Bool, Bool), inserted: Bool, milliseconds: Double) -> NNExclusion? {
        if inserted { return .corrected }
        let a = BeatClass(rawValue: labels.0 & 0x7F), b = BeatClass(rawValue: labels.1 & 0x7F)
        if a == .supraventricular || a == .ventricular || b == .supraventricular || b == .ventricular { return .ectopic }
        if a != .normal || b != .normal || (labels.0 | labels.1) & 0x80 != 0 { return .unclassifiable }
        if flagged.0 || flagged.1 { return .artefact }
        if !rangeMilliseconds.contains(milliseconds) { return .range }
        return nil
    }
}

/// Every interval of a corrected beat series with its exclusion (heart rate uses them all, HRV
/// the NN ones).
///
/// Memory: 17 bytes per interval while HRV takes the heart-rate interval and time (an
/// unclassified series, e.g. PPG), 33 once one differs (a classified series measures HRV
/// between the detected beats' fiducial points).
struct CorrectedIntervals {
    /// Intervals of the corrected series (heart rate).
    private(set) var milliseconds: [Double] = []
    /// Closing times of the corrected series.
    private(set) var times: [Double] = []
    /// 0 = used; else 1 + the ``NNExclusion`` index.
    private(set) var exclusion: [UInt8] = []
    /// ``exclusion`` of an interval in an excluded span (``NNExclusion/quality``).
    static let qualityCode = UInt8(NNExclusion.allCases.firstIndex(of: .quality)! + 1)
    /// HRV's intervals and closing times when one differs from the heart-rate ones, else empty.
    private var hrvValues: [Double] = []
    private var hrvClosing: [Double] = []
    private var separate = false

    var count: Int { milliseconds.count }

    /// The interval HRV takes when it is used (with classes: between the detected beats).
    func hrvMilliseconds(_ k: Int) -> Double { separate ? hrvValues[k] : milliseconds[k] }

    /// Closing time HRV takes (with classes: the detection time plus the fiducial offset).
    func hrvTime(_ k: Int) -> Double { separate ? hrvClosing[k] : times[k] }

    mutating func append(
        milliseconds ms: Double, hrvMilliseconds hrv: Double, closingTime t: Double, hrvClosingTime ht: Double,
        exclusion e: NNExclusion?
    ) {
        if !separate && (hrv != ms || ht != t) {
            separate = true
            hrvValues = milliseconds
            hrvClosing = times
        }
        milliseconds.append(ms)
        times.append(t)
        exclusion.append(e.map { UInt8(NNExclusion.allCases.firstIndex(of: $0)! + 1) } ?? 0)
        if separate {
            hrvValues.append(hrv)
            hrvClosing.append(ht)
        }
    }

    /// The first interval whose HRV closing time is at or after `start` (the times ascend).
    func firstHRV(atOrAfter start: Double) -> Int {
        var lo = 0, hi = count
        while lo < hi {
            let m = (lo + hi) / 2
            if hrvTime(m) < start { lo = m + 1 } else { hi = m }
        }
        return lo
    }

    /// The coverage of the intervals closing in `[start, end)`.
    func coverage(from start: Double, to end: Double, nnCount: Int, nnSeconds: Double) -> HRVCoverage {
        // HRV's time base (with classes: the fiducial points), as the result's start and end.
        let lo = firstHRV(atOrAfter: start)
        var total = 0, ectopic = 0, quality = 0, other = 0, repairedCount = 0
        var covered = 0.0
        var k = lo
        while k < count && hrvTime(k) < end {
            total += 1
            covered += milliseconds[k] / 1000
            switch exclusion[k] {
            case 0: break
            case 1, 2, 3: ectopic += 1
            case 5: quality += 1
            case 6: repairedCount += 1
            default: other += 1
            }
            k += 1
        }
        func share(_ n: Int) -> Double? { total > 0 ? Double(n) / Double(total) : nil }
        let span = end - start
        return HRVCoverage(
            nnCount: nnCount, nnSeconds: nnSeconds, intervalCount: total, excludedEctopicShare: share(ectopic),
            excludedQualityShare: share(quality), excludedOtherShare: share(other), correctedShare: share(repairedCount),
            gapShare: span > 0 ? min(max(1 - covered / span, 0), 1) : nil)
    }
}

extension BeatSeries {
    /// Whether the interval from `opening` to `closing` (seconds) touches an excluded span.
    func isUnusable(from opening: Double, to closing: Double) -> Bool {
        var lo = 0, hi = unusable.count
        while lo < hi {
            let m = (lo + hi) / 2
            if unusable[m].end <= opening { lo = m + 1 } else { hi = m }
        }
        return lo < unusable.count && unusable[lo].start < closing
    }

    /// Runs the HRV analysis on the NN intervals of `all` (windows, then the whole series);
    /// `all` is emptied before the whole-series analysis (which needs only the NN intervals).
    func emitHRV(_ all: inout CorrectedIntervals, hrv: (HRVResult) throws -> Void) rethrows {
        var used = 0
        for k in 0..<all.count where all.exclusion[k] == 0 { used += 1 }
        var nn = [Double](), nnTimes = [Double]()
        nn.reserveCapacity(used)
        nnTimes.reserveCapacity(used)
        // With the adjacency rule: whether each NN interval directly follows the previous NN one.
        var adjacent = [Bool]()
        var previous = -2
        for k in 0..<all.count where all.exclusion[k] == 0 {
            nn.append(all.hrvMilliseconds(k))
            nnTimes.append(all.hrvTime(k))
            if options.hrvForFragmentedSeries { adjacent.append(k == previous + 1) }
            previous = k
        }
        guard nn.count >= 2, let series = try? NNIntervalSeries(intervalsMilliseconds: nn, closingBeatTimesSeconds: nnTimes)
        else {
            // Intervals were there but too few are NN: one whole-series row, every metric empty,
            // saying why and what was left out (no row without any interval, as before).
            if all.count >= 2 {
                let last = all.count - 1
                let start = all.hrvTime(0) - all.hrvMilliseconds(0) / 1000, end = all.hrvTime(last)
                var seconds = 0.0
                for v in nn { seconds += v / 1000 }
                let coverage = all.coverage(from: start, to: end.nextUp, nnCount: nn.count, nnSeconds: seconds)
                try hrv(
                    HRVResult(
                        startSeconds: start, endSeconds: end, scope: .recording, metrics: HRVMetrics(), intervalCount: nn.count,
                        coverage: coverage,
                        nullReason:
                            "all metrics: \(nn.count) NN interval\(nn.count == 1 ? "" : "s") of \(all.count) left after the exclusions (2 needed)"
                    ))
            }
            all = CorrectedIntervals()
            return
        }
        let analysis = HRVAnalysis(windowSeconds: options.hrvWindowSeconds)
        func coverage(_ start: Double, _ end: Double, _ scope: HRVResult.Scope, _ r: Range<Int>) -> HRVCoverage {
            var seconds = 0.0
            for k in r { seconds += nn[k] / 1000 }
            // The whole-series row ends at its last beat: its interval is inside.
            let coverEnd = scope == .recording ? end.nextUp : end
            return all.coverage(from: start, to: coverEnd, nnCount: r.count, nnSeconds: seconds)
        }
        func result(
            _ start: Double, _ end: Double, _ scope: HRVResult.Scope, _ metrics: HRVMetrics, _ r: Range<Int>, _ coverage: HRVCoverage
        ) -> HRVResult {
            if options.hrvForFragmentedSeries, r.count >= 2 {
                var pairs = 0
                for i in r.dropFirst() where adjacent[i] { pairs += 1 }
                if 2 * pairs < r.count - 1 {
                    return HRVResult(
                        startSeconds: start, endSeconds: end, scope: scope, metrics: HRVMetrics(), intervalCount: r.count,
                        coverage: coverage,
                        nullReason:
                            "all metrics: \(pairs) of \(r.count - 1) successive NN differences are between adjacent intervals; half needed (Task Force 1996: differences of adjacent NN intervals)"
                    )
                }
            }
            // Spectral and long-scale metrics rest on the longest contiguous span only.
            var contiguous: (nnSeconds: Double, nnCount: Int, spanSeconds: Double)?
            let run = HRVAnalysis.longestContiguousRun(milliseconds: nn, closingTimes: nnTimes, range: r)
            if run != r, !run.isEmpty {
                var seconds = 0.0
                for k in run { seconds += nn[k] / 1000 }
                contiguous = (seconds, run.count, nnTimes[run.upperBound - 1] - (nnTimes[run.lowerBound] - nn[run.lowerBound] / 1000))
            }
            let (kept, reason) = HRVMinimumData.apply(metrics, coverage: coverage, spanSeconds: end - start, contiguous: contiguous)
            return HRVResult(
                startSeconds: start, endSeconds: end, scope: scope, metrics: kept, intervalCount: r.count,
                coverage: coverage, nullReason: reason)
        }
        for w in analysis.windows(series, covered: covered) {
            try hrv(
                result(
                    w.startSeconds, w.endSeconds, .window, w.metrics, w.intervals,
                    coverage(w.startSeconds, w.endSeconds, .window, w.intervals)))
        }
        let start = nnTimes[0] - nn[0] / 1000, end = nnTimes[nnTimes.count - 1]
        var whole = coverage(start, end, .recording, 0..<nn.count)
        if options.hrvForFragmentedSeries {
            // The shares over every interval of the series (the span keeps the NN data's ends).
            let first = all.hrvTime(0) - all.hrvMilliseconds(0) / 1000, last = all.hrvTime(all.count - 1)
            let span = whole
            whole = all.coverage(from: first, to: last.nextUp, nnCount: span.nnCount, nnSeconds: span.nnSeconds)
            whole.gapShare = span.gapShare
        }
        all = CorrectedIntervals()
        let metrics = analysis.metrics(series)
        try hrv(result(start, end, .recording, metrics, 0..<nn.count, whole))
    }
}

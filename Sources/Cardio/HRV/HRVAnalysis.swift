/// HRV of a recording: time-domain, frequency-domain and non-linear measures for the whole NN
/// series and for consecutive windows (5 minutes by default, the Task Force's short-term
/// length), as one table per window with NeuroKit2's metric names.
///
/// Windows are aligned to the start of the recording (the opening beat of the first interval,
/// `t₀ − NN₀/1000`): window `k` holds the intervals whose closing beat falls in
/// `[start + k·W, start + (k+1)·W)`. Only windows that end at or before the last beat are
/// returned (a trailing partial window is not analysed), and every returned window keeps its
/// place even when its measures cannot be computed (then they are NaN and ``HRVWindowResult/failure``
/// says why), so windows are never dropped silently.
///
/// ```swift
/// let series = try NNIntervalSeries(beatTimesSeconds: rPeakTimes)
/// let analysis = HRVAnalysis()
/// let whole = analysis.metrics(series)               // HRVMetrics: MeanNN … SampEn
/// for window in analysis.windows(series) { print(window.startSeconds, window.metrics[.rmssd]!) }
/// ```
///
/// Source: Task Force (1996), Circulation 93(5):1043–1065, doi:10.1161/01.CIR.93.5.1043
/// (5-minute short-term recordings).
public struct HRVAnalysis: Sendable, Equatable {
    /// Frequency-domain options.
    public var frequency: HRVFrequencyOptions
    /// Non-linear options.
    public var nonlinear: HRVNonlinearOptions
    /// Window length in seconds; default 300.
    public var windowSeconds: Double

    /// Every metric name, in table order: time domain, frequency domain, non-linear.
    public static let metricNames =
        HRVTimeDomain.metricNames + HRVFrequencyDomain.metricNames
        + HRVNonlinear.metricNames

    /// Creates an analysis.
    /// - Parameters:
    ///   - frequency: frequency-domain options (default: NeuroKit2's Welch).
    ///   - nonlinear: non-linear options (default: NeuroKit2's).
    ///   - windowSeconds: window length in seconds (default 300), > 0.
    /// - Complexity: O(1).
    public init(
        frequency: HRVFrequencyOptions = HRVFrequencyOptions(),
        nonlinear: HRVNonlinearOptions = HRVNonlinearOptions(), windowSeconds: Double = 300
    ) {
        precondition(windowSeconds > 0 && windowSeconds.isFinite, "HRV window length must be positive")
        self.frequency = frequency
        self.nonlinear = nonlinear
        self.windowSeconds = windowSeconds
    }

    /// All measures of a series, in ``metricNames`` order.
    /// - Parameter series: NN intervals (ms) and beat times (s).
    /// - Returns: the table; a domain that cannot be computed (too few intervals) is NaN.
    /// - Complexity: as ``HRVTimeDomain``, ``HRVFrequencyDomain`` and ``HRVNonlinear`` together:
    ///   O(n log² n + N log N) for `n` intervals and `N` resampled points.
    public func metrics(_ series: NNIntervalSeries) -> HRVMetrics {
        metricsAndFailure(series).metrics
    }

    /// The complete windows of a series and their measures.
    /// - Parameter series: NN intervals (ms) and beat times (s).
    /// - Returns: one result per complete window, in time order.
    /// - Parameters:
    ///   - series: NN intervals (ms) and beat times (s).
    ///   - covered: the spans (first and last sample time, s, in order) the stream's samples
    ///     cover, when known: a window holding no interval and meeting no span is a gap and is
    ///     stepped over (no row); `nil` (default) keeps every complete window.
    /// - Complexity: O(n + spans) to cut the windows plus the analysis of each.
    public func windows(_ series: NNIntervalSeries, covered: [(start: Double, end: Double)]? = nil) -> [HRVWindowResult] {
        windowRanges(series, covered: covered).map { window in
            let metrics: HRVMetrics
            var failure: HRVError?
            do throws(HRVError) {
                let part = try series.slice(window.intervals)
                (metrics, failure) = metricsAndFailure(part)
            } catch {
                metrics = Self.undefinedMetrics
                failure = error
            }
            return HRVWindowResult(
                startSeconds: window.start, endSeconds: window.start + windowSeconds,
                intervals: window.intervals, metrics: metrics, failure: failure)
        }
    }

    /// The complete windows of a series: start time (s) and the intervals whose closing beat
    /// falls in each.
    /// - Parameter series: NN intervals and beat times.
    /// - Returns: `(start, intervals)` per complete window; a window may hold no interval.
    /// - Parameter covered: as in ``windows(_:covered:)``.
    /// - Complexity: O(n + windows) (with `covered`: O(n + spans)).
    public func windowRanges(
        _ series: NNIntervalSeries, covered: [(start: Double, end: Double)]? = nil
    ) -> [(start: Double, intervals: Range<Int>)] {
        let t = series.closingBeatTimesSeconds
        let origin = t[0] - series.intervalsMilliseconds[0] / 1000
        let last = t[t.count - 1]
        var out = [(start: Double, intervals: Range<Int>)]()
        var i = 0
        var k = 0
        var c = 0
        while origin + Double(k + 1) * windowSeconds <= last {
            let start = origin + Double(k) * windowSeconds
            let end = origin + Double(k + 1) * windowSeconds
            if let covered, i >= t.count || t[i] >= end {
                // No interval closes in this window: unless samples cover part of it, it lies in
                // a gap; go to the window of the next interval or covered span.
                while c < covered.count && covered[c].end < start { c += 1 }
                let next = min(i < t.count ? t[i] : .infinity, c < covered.count ? covered[c].start : .infinity)
                if next >= end {
                    guard next.isFinite else { break }
                    k = max(k + 1, Int(((next - origin) / windowSeconds).rounded(.down)))
                    continue
                }
            }
            let first = i
            while i < t.count && t[i] < end { i += 1 }
            out.append((start, first..<i))
            k += 1
        }
        return out
    }

    // MARK: - Internals

    static let undefinedMetrics = HRVMetrics(metricNames.map { ($0, Double.nan) })

    /// The longest hole in the NN data that spectral and long-scale metrics bridge, seconds: a
    /// hole (from one NN interval's closing beat to the next one's opening beat) longer than
    /// 300 s — the period of the VLF band's lower bound, 0.0033 Hz (Task Force 1996) — splits
    /// the series into contiguous spans (docs/HARDENING.md, "Gaps").
    public static let maximumBridgedHoleSeconds = 300.0

    /// The contiguous spans of NN intervals `range` (split at holes longer than
    /// ``maximumBridgedHoleSeconds``), in order.
    /// - Parameters:
    ///   - milliseconds: NN intervals, ms.
    ///   - closingTimes: their closing beats' times, s.
    ///   - range: the intervals considered (default: all).
    /// - Complexity: O(range.count).
    public static func contiguousRuns(
        milliseconds: [Double], closingTimes: [Double], range: Range<Int>? = nil
    ) -> [Range<Int>] {
        let range = range ?? 0..<closingTimes.count
        guard !range.isEmpty else { return [range] }
        var runs = [Range<Int>]()
        var start = range.lowerBound
        for i in range.dropFirst() where closingTimes[i] - milliseconds[i] / 1000 - closingTimes[i - 1] > maximumBridgedHoleSeconds {
            runs.append(start..<i)
            start = i
        }
        runs.append(start..<range.upperBound)
        return runs
    }

    /// The contiguous span of intervals `range` with the most NN data (the first of equal ones).
    /// - Parameters: as ``contiguousRuns(milliseconds:closingTimes:range:)``.
    /// - Complexity: O(range.count).
    public static func longestContiguousRun(
        milliseconds: [Double], closingTimes: [Double], range: Range<Int>? = nil
    ) -> Range<Int> {
        var best = range ?? 0..<closingTimes.count, bestSeconds = -1.0
        for r in contiguousRuns(milliseconds: milliseconds, closingTimes: closingTimes, range: range) {
            var seconds = 0.0
            for k in r { seconds += milliseconds[k] / 1000 }
            if seconds > bestSeconds { (best, bestSeconds) = (r, seconds) }
        }
        return best
    }

    func metricsAndFailure(_ series: NNIntervalSeries) -> (metrics: HRVMetrics, failure: HRVError?) {
        var table = HRVTimeDomain(series).metrics
        var failure: HRVError?
        // Spectral and long-scale (DFA) metrics see one contiguous span: the longest. A series
        // without a long hole is its own longest span (results as before).
        let run = Self.longestContiguousRun(
            milliseconds: series.intervalsMilliseconds, closingTimes: series.closingBeatTimesSeconds)
        let contiguous = run.count == series.count ? series : (try? series.slice(run))
        do throws(HRVError) {
            guard let contiguous else {
                throw HRVError(.tooFewIntervals, "the longest contiguous span holds \(run.count) interval(s)")
            }
            table.append(contentsOf: try HRVFrequencyDomain(contiguous, options: frequency).metrics)
        } catch {
            failure = error
            for name in HRVFrequencyDomain.metricNames { table.append(name, .nan) }
        }
        do throws(HRVError) {
            var metrics = try HRVNonlinear(series, options: nonlinear).metrics
            if run.count != series.count {
                let part = contiguous.flatMap { try? HRVNonlinear($0, options: nonlinear).metrics }
                let dfa: [HRVMetric] = [.dfaAlpha1, .dfaAlpha2]
                metrics = HRVMetrics(
                    metrics.map { n, v in
                        guard let m = dfa.first(where: { $0.rawValue == n }) else { return (n, v) }
                        return (n, part?[m] ?? .nan)
                    })
            }
            table.append(contentsOf: metrics)
        } catch {
            failure = failure ?? error
            for name in HRVNonlinear.metricNames { table.append(name, .nan) }
        }
        return (table, failure)
    }
}

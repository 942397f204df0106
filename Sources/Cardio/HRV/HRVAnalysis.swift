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
    /// - Complexity: O(n) to cut the windows plus the analysis of each.
    public func windows(_ series: NNIntervalSeries) -> [HRVWindowResult] {
        windowRanges(series).map { window in
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
    /// - Complexity: O(n + windows).
    public func windowRanges(_ series: NNIntervalSeries) -> [(start: Double, intervals: Range<Int>)] {
        let t = series.closingBeatTimesSeconds
        let origin = t[0] - series.intervalsMilliseconds[0] / 1000
        let last = t[t.count - 1]
        var out = [(start: Double, intervals: Range<Int>)]()
        var i = 0
        var k = 0
        while origin + Double(k + 1) * windowSeconds <= last {
            let start = origin + Double(k) * windowSeconds
            let end = origin + Double(k + 1) * windowSeconds
            let first = i
            while i < t.count && t[i] < end { i += 1 }
            out.append((start, first..<i))
            k += 1
        }
        return out
    }

    // MARK: - Internals

    static let undefinedMetrics = HRVMetrics(metricNames.map { ($0, Double.nan) })

    func metricsAndFailure(_ series: NNIntervalSeries) -> (metrics: HRVMetrics, failure: HRVError?) {
        var table = HRVTimeDomain(series).metrics
        var failure: HRVError?
        do throws(HRVError) {
            table.append(contentsOf: try HRVFrequencyDomain(series, options: frequency).metrics)
        } catch {
            failure = error
            for name in HRVFrequencyDomain.metricNames { table.append(name, .nan) }
        }
        do throws(HRVError) {
            table.append(contentsOf: try HRVNonlinear(series, options: nonlinear).metrics)
        } catch {
            failure = failure ?? error
            for name in HRVNonlinear.metricNames { table.append(name, .nan) }
        }
        return (table, failure)
    }
}

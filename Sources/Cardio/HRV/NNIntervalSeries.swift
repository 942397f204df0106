/// A series of normal-to-normal (NN) intervals in milliseconds, with the time of the beat that
/// closes each interval, as HRV analyses take them.
///
/// Without times, the beats are taken to be consecutive and times are the running sum of the
/// intervals (NeuroKit2's `intervals_time = cumsum(rri / 1000)`). With times, a gap in the
/// series (intervals removed around an artefact or an ectopic beat) is recognised as in
/// NeuroKit2's `_intervals_successive`: the difference between intervals `i` and `i + 1` is
/// *successive* when `|1000·(t[i+1] − t[i]) − NN[i+1]| ≤ 10 ms`. Successive differences only
/// enter RMSSD, SDSD, pNN50/pNN20 and the Poincaré plot; the frequency domain interpolates
/// across gaps by time, and SampEn, ApEn and DFA use the intervals as a contiguous sequence (as
/// NeuroKit2 does).
public struct NNIntervalSeries: Sendable, Equatable {
    /// NN intervals in milliseconds, all finite and positive.
    public let intervalsMilliseconds: [Double]
    /// Time of the beat closing each interval, in seconds, strictly increasing.
    public let closingBeatTimesSeconds: [Double]
    /// `count − 1` flags: whether intervals `i` and `i + 1` are adjacent (no gap between them).
    public let isSuccessive: [Bool]

    /// Tolerance in ms between a beat-time difference and the next interval for the two
    /// intervals to count as adjacent (NeuroKit2's `thresh_unequal`).
    public static let successiveToleranceMilliseconds = 10.0

    /// Creates a series from NN intervals and, optionally, the times of their closing beats.
    /// - Parameters:
    ///   - intervalsMilliseconds: NN intervals in ms (finite, > 0), at least 2.
    ///   - closingBeatTimesSeconds: time in seconds of the beat that ends each interval
    ///     (strictly increasing), or `nil` (default) for consecutive beats starting at
    ///     `NN[0] / 1000` s.
    /// - Throws: ``HRVError`` if fewer than 2 intervals, a non-finite or non-positive interval,
    ///   or times that are non-finite or not increasing.
    /// - Complexity: O(n).
    public init(intervalsMilliseconds: [Double], closingBeatTimesSeconds: [Double]? = nil) throws(HRVError) {
        let n = intervalsMilliseconds.count
        guard n >= 2 else { throw HRVError(.tooFewIntervals, "NN series: need at least 2 intervals, got \(n)") }
        for (i, v) in intervalsMilliseconds.enumerated() where !(v.isFinite && v > 0) {
            throw HRVError(.invalidInterval, "NN series: interval \(i) is not a finite positive number of ms (\(v))")
        }
        var times: [Double]
        if let given = closingBeatTimesSeconds {
            precondition(given.count == n, "NN series: \(given.count) times for \(n) intervals")
            for i in 0..<n {
                guard given[i].isFinite else { throw HRVError(.nonFinite, "NN series: time \(i) is not finite") }
                if i > 0 && given[i] <= given[i - 1] {
                    throw HRVError(.timeOrder, "NN series: time \(i) (\(given[i]) s) is not after time \(i - 1)")
                }
            }
            times = given
        } else {
            // np.nancumsum(rri / 1000): a sequential running sum.
            times = [Double](repeating: 0, count: n)
            var sum = 0.0
            for i in 0..<n {
                sum += intervalsMilliseconds[i] / 1000
                times[i] = sum
            }
        }
        var successive = [Bool](repeating: true, count: n - 1)
        for i in 0..<(n - 1) {
            let dt = (times[i + 1] - times[i]) * 1000
            successive[i] = abs(dt - intervalsMilliseconds[i + 1]) <= Self.successiveToleranceMilliseconds
        }
        self.intervalsMilliseconds = intervalsMilliseconds
        self.closingBeatTimesSeconds = times
        self.isSuccessive = successive
    }

    /// Creates a series from beat times: intervals between consecutive beats, all adjacent.
    /// - Parameter beatTimesSeconds: beat (R-peak) times in seconds, strictly increasing, at least 3.
    /// - Throws: ``HRVError`` if fewer than 3 beats or times not strictly increasing.
    /// - Complexity: O(n).
    public init(beatTimesSeconds: [Double]) throws(HRVError) {
        guard beatTimesSeconds.count >= 3 else {
            throw HRVError(.tooFewIntervals, "NN series: need at least 3 beats, got \(beatTimesSeconds.count)")
        }
        var intervals = [Double](repeating: 0, count: beatTimesSeconds.count - 1)
        for i in 1..<beatTimesSeconds.count {
            intervals[i - 1] = (beatTimesSeconds[i] - beatTimesSeconds[i - 1]) * 1000
        }
        try self.init(
            intervalsMilliseconds: intervals,
            closingBeatTimesSeconds: Array(beatTimesSeconds.dropFirst()))
    }

    /// Number of intervals.
    /// - Complexity: O(1).
    public var count: Int { intervalsMilliseconds.count }

    /// Whether every pair of neighbouring intervals is adjacent.
    /// - Complexity: O(n).
    public var isContiguous: Bool { !isSuccessive.contains(false) }

    /// The intervals in `range` (with their times) as a series of its own.
    /// - Parameter range: at least 2 interval indices.
    /// - Returns: the sub-series; successive flags are recomputed (the same within the range).
    /// - Throws: ``HRVError`` if the range holds fewer than 2 intervals.
    /// - Complexity: O(range.count).
    public func slice(_ range: Range<Int>) throws(HRVError) -> NNIntervalSeries {
        precondition(range.lowerBound >= 0 && range.upperBound <= count, "NN series: range out of bounds")
        return try NNIntervalSeries(
            intervalsMilliseconds: Array(intervalsMilliseconds[range]),
            closingBeatTimesSeconds: Array(closingBeatTimesSeconds[range]))
    }
}

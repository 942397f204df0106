/// Windows of the heart-rate and HRV results.
public struct BeatSeriesOptions: Sendable, Hashable {
    /// Heart-rate window length, seconds (default 10).
    public var heartRateWindowSeconds = 10.0
    /// Heart-rate window step, seconds (default 10).
    public var heartRateStepSeconds = 10.0
    /// HRV window length, seconds (default 300, the Task Force's short-term length).
    public var hrvWindowSeconds = 300.0
    /// Whether the heart-rate windows also leave out the intervals in spans excluded with
    /// ``BeatSeries/excludeFromHRV(from:to:)`` (default `false`: ECG heart rate uses every
    /// corrected interval; the PPG pulse count sets it, so its rates skip unacceptable and
    /// motion windows).
    public var heartRateExcludesSpans = false
    /// Whether an HRV result needs at least half of its successive NN differences to be
    /// between adjacent intervals of the corrected series (default `false`: ECG keeps
    /// NeuroKit2's convention of differencing the NN intervals that remain). The Task Force
    /// (1996) defines RMSSD, SDSD and pNN50 over differences of *adjacent* NN intervals; when
    /// exclusions leave mostly isolated intervals, most differences span an excluded stretch
    /// and measure the gap, not beat-to-beat variability. A result below the rule keeps its
    /// coverage, every metric empty, and says why in `null_reason`. Also, the whole-series
    /// row's coverage (intervals, excluded shares) counts every interval of the series, not
    /// only those between its first and last NN interval. The PPG family sets it (its
    /// exclusions — unacceptable and motion windows — fragment the pulse series).
    public var hrvForFragmentedSeries = false
    /// Creates default options.
    public init() {}
}

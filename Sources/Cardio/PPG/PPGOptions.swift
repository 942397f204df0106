/// Options of the PPG analysis.
public struct PPGOptions: Sendable, Hashable {
    /// Heart-rate window length, seconds (default 8, the SPC 2015 convention); the PPG quality
    /// windows are the same windows.
    public var heartRateWindowSeconds = 8.0
    /// Heart-rate window step, seconds (default 2).
    public var heartRateStepSeconds = 2.0
    /// Pulse-rate variability window length, seconds (default 300).
    public var hrvWindowSeconds = 300.0
    /// Creates default options.
    public init() {}

    /// The beat series' options (its heart-rate windows are these windows too).
    var series: BeatSeriesOptions {
        var o = BeatSeriesOptions()
        o.heartRateWindowSeconds = heartRateWindowSeconds
        o.heartRateStepSeconds = heartRateStepSeconds
        o.heartRateExcludesSpans = true
        o.hrvForFragmentedSeries = true
        o.hrvWindowSeconds = hrvWindowSeconds
        return o
    }
}

/// Windows of the heart-rate and HRV results.
public struct BeatSeriesOptions: Sendable, Hashable {
    /// Heart-rate window length, seconds (default 10).
    public var heartRateWindowSeconds = 10.0
    /// Heart-rate window step, seconds (default 10).
    public var heartRateStepSeconds = 10.0
    /// HRV window length, seconds (default 300, the Task Force's short-term length).
    public var hrvWindowSeconds = 300.0
    /// Creates default options.
    public init() {}
}

/// The HRV measures of one window of a recording (see ``HRVAnalysis/windows(_:)``).
public struct HRVWindowResult: Sendable, Equatable {
    /// Window start, seconds (same time base as the beat times).
    public var startSeconds: Double
    /// Window end (exclusive), seconds.
    public var endSeconds: Double
    /// Indices of the series' intervals in this window.
    public var intervals: Range<Int>
    /// All measures, in ``HRVAnalysis/metricNames`` order; NaN where not computable.
    public var metrics: HRVMetrics
    /// Why some measures are NaN (too few intervals), or `nil`.
    public var failure: HRVError?
}

/// How windows are cut from a stream or a derived series.
public struct FeatureWindowing: Sendable, Hashable {
    /// Window length in seconds.
    public var lengthSeconds: Double
    /// Step between window starts in seconds (< length: overlapping windows).
    public var stepSeconds: Double
    /// Whether window starts are multiples of ``stepSeconds`` on the stream's clock (UTC for Unix
    /// times: 10-s windows start at :00, :10, …), so windows of different streams and
    /// recordings line up; otherwise the grid starts at the stream's first sample.
    public var alignsToClock: Bool
    /// Windows whose valid fraction is below this are reported without features.
    public var minimumValidFraction: Double

    /// Creates a windowing.
    /// - Parameters:
    ///   - lengthSeconds: window length in s (> 0); default 10.
    ///   - stepSeconds: step in s (> 0); default 10 (adjacent windows).
    ///   - alignsToClock: align starts to multiples of the step; default `true`.
    ///   - minimumValidFraction: 0…1; default 0.8.
    public init(
        lengthSeconds: Double = 10, stepSeconds: Double = 10, alignsToClock: Bool = true,
        minimumValidFraction: Double = 0.8
    ) {
        precondition(lengthSeconds > 0 && stepSeconds > 0, "window length and step must be positive")
        precondition((0...1).contains(minimumValidFraction), "minimumValidFraction must be in 0…1")
        self.lengthSeconds = lengthSeconds
        self.stepSeconds = stepSeconds
        self.alignsToClock = alignsToClock
        self.minimumValidFraction = minimumValidFraction
    }
}

/// One window cut by ``FeatureWindower``: its span, how much of it is valid and its valid
/// samples, channel by channel (masked, missing and non-finite samples left out, never filled in).
///
/// The sample pointers are valid only during the callback that receives the window.
public struct FeatureWindowSpan {
    /// Window start (inclusive), on the stream's clock, in s.
    public var startSeconds: Double
    /// Window end (exclusive), in s.
    public var endSeconds: Double
    /// Samples present in the window (valid or not).
    public var sampleCount: Int
    /// Valid samples (every channel finite and the sample not masked).
    public var validCount: Int
    /// Sample rate used for the expected count and for the features, in Hz: the stream's
    /// nominal rate, else 1 / the median interval between the window's samples; NaN when the
    /// window has fewer than 2 samples and no nominal rate.
    public var sampleRate: Double
    /// `min(1, validCount / (length · sampleRate))`: the share of the window covered by valid
    /// samples (gaps, masked samples and deleted spans lower it).
    public var validFraction: Double
    /// Whether ``validFraction`` reaches the windowing's minimum (features are computed).
    public var isComputable: Bool

    let base: UnsafePointer<Double>
    let stride: Int

    /// The valid samples of channel `c`, in time order (``validCount`` values).
    /// - Complexity: O(1).
    public func channel(_ c: Int) -> UnsafeBufferPointer<Double> {
        UnsafeBufferPointer(start: base + c * stride, count: validCount)
    }
}

/// The per-stream quality-control account a decoder keeps: where every sample read went.
///
/// Invariant (tested for every decoder): `samplesRead == samplesEmitted + duplicatesDropped +
/// rejected`, and `samplesEmitted == used + masked`. Nothing is dropped without being counted.
public struct StreamQC: Sendable, Hashable, Codable {
    /// Samples read from the source for this stream.
    public var samplesRead = 0
    /// Samples delivered in blocks (masked ones included).
    public var samplesEmitted = 0
    /// Delivered samples that are masked (``SampleFlags/maskingFlags``).
    public var masked = 0
    /// Exact duplicates dropped (same key as an earlier sample).
    public var duplicatesDropped = 0
    /// Samples on lines or records that failed to decode, or whose time went backwards within a
    /// batch, and were therefore not delivered.
    public var rejected = 0
    /// Segment breaks caused by a gap longer than two sample periods.
    public var gaps = 0
    /// Segment breaks caused by time going backwards.
    public var backwardSteps = 0
    /// Segment breaks caused by a change of the declared sample rate.
    public var rateChanges = 0
    /// Number of segments delivered.
    public var segments = 0
    /// Deletion records applying to this stream's device and sensor.
    public var deletedSpans = 0
    /// Total seconds covered by those deletion records.
    public var deletedSeconds = 0.0
    /// Time of the first delivered sample (Unix s), if any.
    public var firstTime: Double?
    /// Time of the last delivered sample (Unix s), if any.
    public var lastTime: Double?

    /// Delivered samples that are usable (not masked).
    public var used: Int { samplesEmitted - masked }

    /// Whether the accounting invariant holds.
    public var isBalanced: Bool { samplesRead == samplesEmitted + duplicatesDropped + rejected }

    /// Sum over segments of (last sample time − first sample time), seconds.
    public var coveredSeconds = 0.0

    /// Measured mean sample rate (Hz): sample intervals inside segments ÷ ``coveredSeconds``;
    /// `nil` when no segment has two samples.
    public var measuredSampleRate: Double? {
        let intervals = samplesEmitted - segments
        return coveredSeconds > 0 && intervals > 0 ? Double(intervals) / coveredSeconds : nil
    }

    /// Creates an empty account.
    public init() {}
}

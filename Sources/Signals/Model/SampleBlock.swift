/// A block of consecutive samples of one stream and one segment, as contiguous
/// structure-of-arrays columns.
///
/// Blocks are what flows between pipeline stages: a few thousand to a few hundred thousand
/// samples of one stream. Columns are `Float` (one array per ``StreamInfo/columns`` entry,
/// in that order); times are `Double` (see ``TimeBase``); one flag byte per sample
/// (``SampleFlags``). A block never spans a segment boundary; the last block of a segment has
/// ``endsSegment`` set so stages flush their look-ahead there.
public struct SampleBlock: Sendable {
    /// Index of the stream in the decoder's stream table (order of announcement).
    public var stream: Int
    /// Segment number within the stream, from 0.
    public var segment: Int
    /// Index of this block's first sample within its segment.
    public var firstSample: Int
    /// The block's time base.
    public var time: TimeBase
    /// One array per column, all of length ``count``.
    public var columns: [[Float]]
    /// One ``SampleFlags`` raw value per sample.
    public var flags: [UInt8]
    /// Whether this is the last block of its segment.
    public var endsSegment: Bool

    /// Number of samples in the block.
    public var count: Int { flags.count }

    /// Creates a block; all columns and `flags` must have the same length.
    public init(
        stream: Int, segment: Int, firstSample: Int, time: TimeBase, columns: [[Float]],
        flags: [UInt8], endsSegment: Bool
    ) {
        precondition(columns.allSatisfy { $0.count == flags.count }, "column lengths differ")
        if case .explicit(let t) = time { precondition(t.count == flags.count, "time length differs") }
        self.stream = stream
        self.segment = segment
        self.firstSample = firstSample
        self.time = time
        self.columns = columns
        self.flags = flags
        self.endsSegment = endsSegment
    }

    /// Time of sample `i` of this block, in Unix seconds.
    /// - Complexity: O(1).
    @inlinable
    public func time(at i: Int) -> Double {
        switch time {
        case .uniform(let start, let rate): return start + Double(firstSample + i) / rate
        case .explicit(let t): return t[i]
        }
    }

    /// Number of masked samples (any of ``SampleFlags/maskingFlags`` set).
    /// - Complexity: O(n).
    public var maskedCount: Int {
        let m = SampleFlags.maskingFlags.rawValue
        var n = 0
        for f in flags where f & m != 0 { n += 1 }
        return n
    }
}

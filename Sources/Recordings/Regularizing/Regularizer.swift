/// Puts an irregularly sampled stream (explicit timestamps, e.g. the SensorKit accelerometer
/// jittering around 50 Hz) onto a uniform time grid, segment by segment.
///
/// This is an explicit, documented operation: decoders never regularise. For each segment the
/// grid is anchored at the segment's first timestamp `t₀`, with points `t₀ + k / sampleRate` up
/// to the segment's last timestamp; nothing is produced across a segment boundary, so gaps and
/// deleted spans stay gaps. Each grid value is the **linear interpolation** between the two
/// input samples that bracket it (or the input value itself when a timestamp falls exactly on
/// the grid); its flags are the union of the two neighbours' flags, so a grid point next to a
/// masked sample is masked.
///
/// The grid and the walk over it are the shared ``ClockGrid`` and ``GridWalk`` (Signals).
///
/// Streaming: feed the blocks of one stream in order; the output is identical for any input
/// block sizes (only the last input sample is carried between blocks).
///
/// Source: linear interpolation onto a uniform grid, e.g. as used for accelerometer
/// harmonisation in van Hees et al. 2013, "Separating movement and gravity components in an
/// acceleration signal…", PLoS ONE 8(4):e61691 (GGIR resampling).
public struct Regularizer: Sendable {
    /// Output sample rate in Hz.
    public let sampleRate: Double

    private var segment = -1
    /// The grid of the current segment (origin t₀) and its next grid index (``GridWalk``).
    private var walk: GridWalk
    private var produced = 0 // grid samples emitted in this segment
    private var hasPrevious = false
    private var previousTime = 0.0
    private var previousValues: [Float] = []
    private var previousFlags: UInt8 = 0

    /// Creates a regulariser.
    /// - Parameter sampleRate: grid rate in Hz (> 0), e.g. 50 for SensorKit accelerometry.
    public init(sampleRate: Double) {
        precondition(sampleRate > 0 && sampleRate.isFinite, "sampleRate must be positive")
        self.sampleRate = sampleRate
        walk = GridWalk(grid: ClockGrid(sampleRate: sampleRate))
    }

    /// Regularises one block (explicit time base) of the stream.
    /// - Parameters:
    ///   - block: the next block of the stream, in order.
    ///   - output: receives zero or one uniform-time block (same stream and segment numbers).
    /// - Complexity: O(input + output samples).
    public mutating func process(_ block: SampleBlock, into output: inout [SampleBlock]) {
        guard case .explicit(let times) = block.time else {
            preconditionFailure("Regularizer takes blocks with explicit times")
        }
        let columnCount = block.columns.count
        if block.segment != segment {
            segment = block.segment
            hasPrevious = false
            produced = 0
            walk = GridWalk(grid: ClockGrid(sampleRate: sampleRate, origin: times.first ?? walk.grid.origin))
        }
        var outColumns = [[Float]](repeating: [], count: columnCount)
        var outFlags = [UInt8]()
        let firstOut = produced
        for i in 0..<block.count {
            let t = times[i]
            if hasPrevious {
                // Grid points in (previousTime, t]: interpolate.
                let (previousTime, previousFlags) = (self.previousTime, self.previousFlags)
                let previousValues = self.previousValues
                walk.advance(through: t) { _, g, onSample in
                    guard g > previousTime else { return }
                    let w = Float((g - previousTime) / (t - previousTime))
                    for c in 0..<columnCount {
                        let a = previousValues[c], b = block.columns[c][i]
                        outColumns[c].append(onSample ? b : a + (b - a) * w)
                    }
                    outFlags.append(onSample ? block.flags[i] : (previousFlags | block.flags[i]))
                }
            } else {
                // First sample of the segment sits on grid point 0.
                for c in 0..<columnCount { outColumns[c].append(block.columns[c][i]) }
                outFlags.append(block.flags[i])
                walk.next = 1
                previousValues = [Float](repeating: 0, count: columnCount)
            }
            hasPrevious = true
            previousTime = t
            for c in 0..<columnCount { previousValues[c] = block.columns[c][i] }
            previousFlags = block.flags[i]
        }
        produced += outFlags.count
        if !outFlags.isEmpty || block.endsSegment {
            output.append(
                SampleBlock(
                    stream: block.stream, segment: block.segment, firstSample: firstOut,
                    time: .uniform(segmentStart: walk.grid.origin, sampleRate: sampleRate),
                    columns: outColumns, flags: outFlags, endsSegment: block.endsSegment))
        }
    }
}

import Recordings
import Signals

/// Puts an ECG stream that arrives with explicit per-sample times (a CSV time column: seconds,
/// milliseconds, nanoseconds, rounded to the column's resolution) onto a uniform grid before the
/// families see it, because R-peak detection, delineation and the rhythm measures need a fixed
/// sample rate. Decoders never regularise (``Regularizer``); this is the analysis's own, stated
/// step, taken for ECG streams only (the motion and PPG families grid their explicit-time
/// streams themselves).
///
/// Per segment (the decoder's segments: a gap of more than two sample periods or time going
/// backwards starts a new one), the grid rate is the mean rate over the segment's first
/// ``lookAhead`` samples, `(n − 1) / (t[n−1] − t[0])` — the mean, not the median interval,
/// because rounded times (360 Hz written in whole milliseconds: intervals of 2 and 3 ms) have a
/// median far from the true period — and is taken as the nearest whole number of hertz when
/// within 0.1 % of it (device rates are nominal integers; clock drift stays well inside that).
/// Each grid point is the linear interpolation between the two samples around it
/// (``Regularizer``), so a grid point at a sample's own time is that sample. The segment's first
/// ``lookAhead`` samples are held until the rate is known, so the output does not depend on how
/// the input is cut into blocks, and memory is bounded by the look-ahead.
///
/// A segment with a single sample has no rate: it is passed on unchanged (the ECG family reports
/// its explicit times). A block whose time span would make more than twice its own samples (plus
/// the look-ahead) on the grid — intervals that grew far past the grid period inside one
/// segment, which no sampled ECG does — is passed on unchanged with the rest of its segment and
/// named in ``notes``, so a file cannot make the grid allocate what its times merely claim.
///
/// Source: linear interpolation onto a uniform grid, as ``Regularizer`` (van Hees et al. 2013,
/// PLoS ONE 8(4):e61691, GGIR's resampling).
struct ECGTimeGridding {
    /// Samples of a segment read before its grid rate is fixed.
    static let lookAhead = 2_048

    private var segment = -1
    private var held: [SampleBlock] = []
    private var heldCount = 0
    private var regularizer: Regularizer?
    /// The grid rate (Hz) of each segment gridded so far, in order (for the stream's note).
    private(set) var rates: [Double] = []
    /// Segments whose gridding stopped, and why.
    private(set) var notes: [String] = []
    private var lastTime = 0.0
    private var stopped = false

    /// Takes the stream's next block; appends the blocks the families get to `output`.
    /// - Complexity: O(input + output samples).
    mutating func process(_ block: SampleBlock, into output: inout [SampleBlock]) {
        guard case .explicit = block.time else {
            output.append(block)
            return
        }
        if block.segment != segment {
            release(into: &output)
            segment = block.segment
            regularizer = nil
            stopped = false
        }
        if regularizer != nil {
            grid(block, into: &output)
            return
        }
        held.append(block)
        heldCount += block.count
        if heldCount >= Self.lookAhead || block.endsSegment { release(into: &output) }
    }

    /// Releases what is held (the end of the stream, or of a segment whose last block did not
    /// say so).
    mutating func finish(into output: inout [SampleBlock]) { release(into: &output) }

    /// Fixes the held segment's rate from its first samples and grids the held blocks.
    private mutating func release(into output: inout [SampleBlock]) {
        guard !held.isEmpty else { return }
        defer {
            held.removeAll()
            heldCount = 0
        }
        let last = min(heldCount, Self.lookAhead) - 1
        guard last >= 1, let rate = Self.rate(held, lastIndex: last) else {
            output += held
            return
        }
        // The held samples are the look-ahead and at most one block past it: their span at the
        // mean rate of the first look-ahead samples is checked as later blocks are.
        regularizer = Regularizer(sampleRate: rate)
        rates.append(rate)
        lastTime = held[0].time(at: 0)
        for b in held { grid(b, into: &output) }
    }

    /// Grids one block of the current segment (its rate fixed), unless the block's span would
    /// put far more points on the grid than it has samples: then the rest of the segment is
    /// passed on unchanged and named in ``notes``.
    private mutating func grid(_ block: SampleBlock, into output: inout [SampleBlock]) {
        guard !stopped, let rate = regularizer?.sampleRate else {
            output.append(block)
            return
        }
        if block.count > 0 {
            let points = (block.time(at: block.count - 1) - lastTime) * rate
            guard points <= Double(2 * block.count + Self.lookAhead) else {
                stopped = true
                notes.append(
                    "segment \(segment): sample intervals grew far past the \(rate) Hz grid's period inside the segment; "
                        + "the rest of the segment is left with its explicit times (not analysed)")
                output.append(block)
                return
            }
            lastTime = block.time(at: block.count - 1)
        }
        regularizer!.process(block, into: &output)
    }

    /// The mean rate over samples `0…lastIndex` of the held blocks, rounded to whole hertz
    /// within 0.1 %; `nil` when the times do not advance.
    static func rate(_ blocks: [SampleBlock], lastIndex: Int) -> Double? {
        guard let first = blocks.first, first.count > 0 else { return nil }
        let t0 = first.time(at: 0)
        var offset = 0
        for b in blocks {
            if lastIndex < offset + b.count {
                let span = b.time(at: lastIndex - offset) - t0
                guard span > 0, span.isFinite else { return nil }
                let measured = Double(lastIndex) / span
                let whole = measured.rounded()
                return whole > 0 && abs(measured - whole) <= 0.001 * measured ? whole : measured
            }
            offset += b.count
        }
        return nil
    }
}

/// Cuts one stream's samples into segments and blocks, and keeps the stream's QC account.
///
/// Every decoder feeds each stream's samples, in file order, to one assembler. A new **segment**
/// starts when (SensorKit schema, "Reader rules"):
/// - time goes backwards or stands still (`dt ≤ 0` between consecutive samples),
/// - the interval exceeds two sample periods (`dt > 2·T`), or
/// - the declared sample rate changes.
/// `T` is the declared period (1 / nominal rate) when the source declares one, otherwise the
/// median of the last 15 intervals of the stream (so a jittery ~50 Hz accelerometer is judged
/// by its own recent rhythm, never by an assumed rate).
///
/// Blocks hold at most `blockCapacity` samples and never span segments; a full block is held
/// back until the next sample shows whether it ends its segment, so memory stays at two blocks
/// per stream whatever the recording length. Nothing is reserved ahead of the data: a block's
/// buffers grow with its samples, keep their capacity only from one full block to the next
/// (never past a segment's end), so a stream of 5 samples costs 5 samples, not a block's
/// capacity (10,000 five-sample streams held 16 KB per column each: about 1 GB).
public struct StreamAssembler: Sendable {
    /// Index of the stream (the order in which its ``StreamInfo`` was announced).
    public let stream: Int
    /// Number of value columns.
    public let columnCount: Int
    /// Maximum samples per block.
    public let blockCapacity: Int
    /// Whether blocks carry a uniform time base (``TimeBase/uniform(segmentStart:sampleRate:)``)
    /// or explicit per-sample times.
    public let uniform: Bool
    /// The stream's account; decoders add `samplesRead`, `duplicatesDropped` and `rejected`.
    public var qc = StreamQC()

    // Current segment.
    var segment = -1
    var segmentStart = 0.0
    var segmentRate = 0.0 // declared rate of the segment (0: none)
    var segmentCount = 0 // samples delivered or pending in this segment
    var segmentFirstTime = 0.0
    var lastTime = -Double.infinity
    // Current block under construction.
    var blockFirst = 0
    var columns: [[Float]]
    var times: [Double] = []
    var flags: [UInt8] = []
    // A full block held back until we know whether it ends its segment.
    var held: SampleBlock?
    // Recent intervals for the period estimate of streams without a declared rate.
    var recent = [Double](repeating: 0, count: 15)
    var recentCount = 0
    var recentNext = 0
    var lastPeriodEstimate: Double?
    // Set by ``markGap()``: the next sample starts a new segment, counted as a gap.
    var gapPending = false

    /// Creates an assembler.
    /// - Parameters:
    ///   - stream: index of the stream.
    ///   - columnCount: number of value columns.
    ///   - uniform: `true` for regularly sampled sources (requires a declared rate per run).
    ///   - blockCapacity: maximum samples per block (default 65,536).
    public init(stream: Int, columnCount: Int, uniform: Bool, blockCapacity: Int = 65_536) {
        precondition(blockCapacity > 0 && columnCount > 0)
        self.stream = stream
        self.columnCount = columnCount
        self.uniform = uniform
        self.blockCapacity = blockCapacity
        columns = Array(repeating: [], count: columnCount)
    }

    /// The period used for the gap rule, in seconds, or `nil` if none is known yet.
    var periodEstimate: Double? {
        if segmentRate > 0 { return 1 / segmentRate }
        if recentCount >= 3 {
            let s = recent[0..<recentCount].sorted()
            return s[recentCount / 2]
        }
        return lastPeriodEstimate
    }

    /// Classifies the step from the last sample to a new sample at `time` with declared `rate`
    /// (0 when undeclared); returns `true` if a new segment must start, and counts why.
    mutating func needsBreak(time: Double, rate: Double) -> Bool {
        guard segment >= 0 else { return true }
        if gapPending { gapPending = false; qc.gaps += 1; return true }
        if rate != segmentRate { qc.rateChanges += 1; return true }
        let dt = time - lastTime
        if !(dt > 0) { qc.backwardSteps += 1; return true }
        if segmentRate == 0 && recentCount >= 3 {
            // dt > 2·median(recent) ⇔ more than half of the recent intervals are < dt/2: the
            // same rule as `periodEstimate` without sorting (this runs for every sample).
            let half = dt / 2
            var below = 0
            for k in 0..<recentCount where recent[k] < half { below += 1 }
            if below >= recentCount / 2 + 1 { qc.gaps += 1; return true }
            return false
        }
        if let period = periodEstimate, dt > 2 * period { qc.gaps += 1; return true }
        return false
    }

    mutating func startSegment(time: Double, rate: Double, into events: inout [RecordingEvent]) {
        closeSegment(into: &events)
        segment += 1
        qc.segments += 1
        segmentStart = time
        segmentRate = rate
        segmentCount = 0
        segmentFirstTime = time
        blockFirst = 0
        if let p = periodEstimate { lastPeriodEstimate = p }
        recentCount = 0
        recentNext = 0
        if qc.firstTime == nil { qc.firstTime = time }
    }

    /// Ends the current segment: flushes the held and the partial block, the last marked
    /// ``SampleBlock/endsSegment``.
    mutating func closeSegment(into events: inout [RecordingEvent]) {
        guard segment >= 0, segmentCount > 0 || held != nil else { return }
        if flags.isEmpty {
            if var h = held { h.endsSegment = true; events.append(.block(h)); held = nil }
        } else {
            if let h = held { events.append(.block(h)); held = nil }
            events.append(.block(makeBlock(endsSegment: true)))
        }
        qc.coveredSeconds += lastTime - segmentFirstTime
        segmentCount = 0
    }

    mutating func makeBlock(endsSegment: Bool) -> SampleBlock {
        let time: TimeBase =
            uniform
            ? .uniform(segmentStart: segmentStart, sampleRate: segmentRate)
            : .explicit(times)
        let b = SampleBlock(
            stream: stream, segment: segment, firstSample: blockFirst, time: time,
            columns: columns, flags: flags, endsSegment: endsSegment)
        blockFirst += flags.count
        // The block took the buffers: new ones of the full block's size only when another full
        // block is likely (not at a segment's end, where a stream may stop for good).
        let keep = !endsSegment
        for c in 0..<columnCount { columns[c].removeAll(keepingCapacity: keep) }
        flags.removeAll(keepingCapacity: keep)
        times.removeAll(keepingCapacity: keep)
        return b
    }

    /// Moves a full block to the held slot, emitting the previously held one (which is now known
    /// not to end its segment).
    mutating func rotateIfFull(into events: inout [RecordingEvent]) {
        guard flags.count == blockCapacity else { return }
        if let h = held { events.append(.block(h)) }
        held = makeBlock(endsSegment: false)
    }

    /// Appends one sample with an explicit timestamp (irregular streams).
    /// - Parameters:
    ///   - time: Unix seconds.
    ///   - values: one value per column (NaN for a missing value, flagged ``SampleFlags/missing``).
    ///   - flags: the sample's flags.
    ///   - declaredRate: the rate the source declares for this sample (Hz), 0 if none.
    ///   - events: receives finished blocks.
    /// - Complexity: amortised O(columns); O(15 log 15) when a period estimate is needed.
    public mutating func append(
        time: Double, values: UnsafeBufferPointer<Float>, flags f: SampleFlags,
        declaredRate: Double = 0, into events: inout [RecordingEvent]
    ) {
        precondition(!uniform, "use appendRun for uniform streams")
        precondition(values.count == columnCount)
        if needsBreak(time: time, rate: declaredRate) {
            startSegment(time: time, rate: declaredRate, into: &events)
        } else {
            recent[recentNext] = time - lastTime
            recentNext = (recentNext + 1) % recent.count
            recentCount = min(recentCount + 1, recent.count)
        }
        for c in 0..<columnCount { columns[c].append(values[c]) }
        times.append(time)
        flags.append(f.rawValue)
        account(time: time, flags: f)
        rotateIfFull(into: &events)
    }

    mutating func account(time: Double, flags f: SampleFlags) {
        segmentCount += 1
        lastTime = time
        qc.samplesEmitted += 1
        if f.isMasked { qc.masked += 1 }
        qc.lastTime = time
    }

    /// Appends a run of consecutive samples at a declared rate starting at `start` (uniform
    /// streams: an ECG batch, a block of a WFDB record). The run continues the current segment
    /// when its first sample is 0 < dt ≤ 2 periods after the segment's last sample and the rate
    /// is unchanged; its samples then take the segment's grid times.
    /// - Parameters:
    ///   - start: time of the run's first sample, Unix seconds.
    ///   - sampleRate: declared rate in Hz (> 0).
    ///   - columns: one buffer per column, equal lengths.
    ///   - flags: one flag byte per sample (same length), or `nil` for all-clear.
    ///   - events: receives finished blocks.
    /// - Complexity: O(run length × columns).
    public mutating func appendRun(
        start: Double, sampleRate: Double,
        columns values: [UnsafeBufferPointer<Float>],
        flags runFlags: UnsafeBufferPointer<UInt8>?,
        into events: inout [RecordingEvent]
    ) {
        precondition(uniform, "use append(time:…) for irregular streams")
        precondition(sampleRate > 0 && sampleRate.isFinite)
        precondition(values.count == columnCount)
        let n = values.first?.count ?? 0
        guard n > 0 else { return }
        if needsBreak(time: start, rate: sampleRate) {
            startSegment(time: start, rate: sampleRate, into: &events)
        }
        let masking = SampleFlags.maskingFlags.rawValue
        var i = 0
        while i < n {
            let room = blockCapacity - flags.count
            let take = min(room, n - i)
            for c in 0..<columnCount {
                columns[c].append(contentsOf: UnsafeBufferPointer(rebasing: values[c][i..<i + take]))
            }
            if let runFlags {
                let slice = UnsafeBufferPointer(rebasing: runFlags[i..<i + take])
                flags.append(contentsOf: slice)
                var m = 0
                for f in slice where f & masking != 0 { m += 1 }
                qc.masked += m
            } else {
                flags.append(contentsOf: repeatElement(0, count: take))
            }
            segmentCount += take
            qc.samplesEmitted += take
            i += take
            rotateIfFull(into: &events)
        }
        lastTime = segmentStart + Double(segmentCount - 1) / segmentRate
        qc.lastTime = lastTime
    }

    /// Declares a known gap after the last sample (a rejected sample of a regularly sampled
    /// stream, whose slot the time rule cannot see): the next sample starts a new segment, and
    /// the break is counted in ``StreamQC/gaps``. No effect before the first sample.
    /// - Complexity: O(1).
    public mutating func markGap() {
        if segment >= 0 { gapPending = true }
    }

    /// Ends the stream: flushes everything still held.
    public mutating func finish(into events: inout [RecordingEvent]) {
        closeSegment(into: &events)
    }
}

import Signals

/// The streaming delineation of one ECG lead: resamples and transforms the lead once
/// (``WaveGrid``: one 250 Hz grid and its wavelet scales per segment, shared by all beats) and
/// delineates each beat the ECG family publishes (`ecg_beats`) with ``WaveDelineator`` on the
/// scales within −1.0…+1.2 s of it, once those are known and the next beat is (or its segment has
/// ended). Each beat depends only on the segment's samples and the neighbouring beats' times, so
/// the result never depends on how the stream is cut into blocks or when the events arrive.
///
/// Memory: the grid and its three scales (4 floats per 4 ms) from the oldest waiting beat (−1 s)
/// on, at most ``holdSeconds`` of them, whatever the recording's length.
struct WaveLead {
    /// Grid samples older than this behind the newest one are dropped even when a beat could
    /// still need them (the ECG family publishes a beat at most one quality window, ≤ 600 s, plus
    /// the detector's latency after it).
    static let holdSeconds = 660.0

    struct Beat {
        var time: Double
        var beatClass: String?
        var quality: String?
    }

    var segment = -1
    var segmentStart = 0.0
    /// The current segment on the 250 Hz grid; `nil` when it is not uniform at 100–2000 Hz.
    var grid: WaveGrid?
    var segmentEnded = false
    /// Beats waiting for delineation, in time order.
    var pending: [Beat] = []
    /// The last delineated beat (its time and class), for the RR interval before the next one.
    var previous: (time: Double, beatClass: String?)?
    var done: [BeatWaves] = []
    /// The median beat per window (``MedianBeatAccumulator``), `nil` when the lead's unit is not
    /// a voltage (µV or mV), and the rows of the windows it has closed.
    var medians: MedianBeatAccumulator?
    var doneMedians: [MedianBeatPoint] = []
    /// One beat's span for the median beat (reused).
    private var medianSamples = [Float](repeating: 0, count: MedianBeatAccumulator.count)
    /// µV per unit of the lead's values.
    let microvoltsPerUnit: Double
    /// One beat's window of the grid and its scales (reused).
    private var window = [Float](repeating: .nan, count: WaveDelineator.length)
    private var scales = QuadraticSplineWavelet.Scales(count: WaveDelineator.length)

    /// A lead.
    /// - Parameters:
    ///   - streamName: the stream's name.
    ///   - microvoltsPerUnit: µV per unit of its values, `nil` when unknown (no median beat).
    ///   - medianWindowSeconds: the median beat's window length, s.
    init(streamName: String, microvoltsPerUnit: Double? = nil, medianWindowSeconds: Double = 3600) {
        self.streamName = streamName
        self.microvoltsPerUnit = microvoltsPerUnit ?? 1
        if microvoltsPerUnit != nil { medians = MedianBeatAccumulator(windowSeconds: medianWindowSeconds) }
    }
    let streamName: String

    /// The end of the current segment's samples so far, s (−∞ without a grid).
    private var end: Double { grid.map { segmentStart + Double($0.received) / $0.sampleRate } ?? -.infinity }

    /// Feeds a block of the lead.
    mutating func consume(_ block: SampleBlock) {
        guard block.count > 0 || block.endsSegment else { return }
        if block.segment != segment {
            segmentEnded = true
            process(final: false)
            segment = block.segment
            segmentEnded = false
            grid = nil
            if case .uniform(let start, let r) = block.time, r >= 100 && r <= 2000 {
                segmentStart = start
                grid = WaveGrid(sampleRate: r)
            }
        }
        if grid != nil {
            let mask = SampleFlags.maskingFlags.rawValue
            var values = block.columns[0]
            // One branch-free OR over the flags (vectorises), then the masked samples if any.
            let any = block.flags.withUnsafeBufferPointer { fp in
                var a: UInt8 = 0
                for f in fp { a |= f }
                return a & mask != 0
            }
            if any {
                for i in 0..<block.count where block.flags[i] & mask != 0 { values[i] = .nan }
            }
            values.withUnsafeBufferPointer { grid!.append(UnsafeBufferPointer(rebasing: $0[0..<block.count])) }
        }
        if block.endsSegment { segmentEnded = true }
        process(final: false)
        trim()
    }

    /// Hands out the delineated beats and median beat rows made since the last call.
    mutating func take() -> ([BeatWaves], [MedianBeatPoint]) {
        // Handed over (not copied and cleared, which would copy the buffer the caller holds).
        var d: [BeatWaves] = [], m: [MedianBeatPoint] = []
        swap(&d, &done)
        swap(&m, &doneMedians)
        return (d, m)
    }

    /// Takes a published beat.
    mutating func add(_ beat: Beat) {
        pending.append(beat)
        process(final: false)
    }

    /// Delineates every waiting beat with what is known (end of the recording).
    mutating func flushAll() {
        segmentEnded = true
        process(final: true)
        if let m = medians { doneMedians += m.finish() }
    }

    /// The beat's position on the grid: the nearest grid index and the rest, in grid samples
    /// (a rest under 0.001 sample is rounding of a time on the grid, taken as 0).
    private func gridPosition(_ time: Double) -> (index: Int, rest: Double) {
        let p = (time - segmentStart) * WaveDelineator.rate
        let i = Int(p.rounded())
        let rest = p - Double(i)
        return (i, abs(rest) < 1e-3 ? 0 : rest)
    }

    /// Delineates the waiting beats whose scales and next beat are known.
    /// - Parameter final: the recording has ended (nothing more will come).
    private mutating func process(final: Bool) {
        while let b = pending.first {
            let end = end
            var hasNext = pending.count > 1
            if !final {
                // A beat after the end of an ended segment belongs to the next one: wait for it.
                if segmentEnded && b.time >= end { return }
                if !segmentEnded && b.time >= segmentStart {
                    guard hasNext, let g = grid, g.produced >= gridPosition(b.time).index - WaveDelineator.beatIndex + WaveDelineator.length
                    else { return }
                }
            }
            if hasNext && segmentEnded && pending[1].time >= end { hasNext = false }
            let next = hasNext ? pending[1].time : nil
            done.append(delineate(b, next: next))
            previous = (b.time, b.beatClass)
            pending.removeFirst()
        }
    }

    /// Drops grid samples no waiting or future beat can need.
    private mutating func trim() {
        guard let produced = grid?.produced else { return }
        // The oldest waiting beat needs its window; later beats come after the last delineated one;
        // before any beat of the segment, everything is kept (up to the hold bound).
        var keepFrom = segmentStart
        if let last = pending.first?.time ?? previous?.time, last >= segmentStart {
            keepFrom = last - WaveDelineator.before - 1
        }
        let keep = Int(((keepFrom - segmentStart) * WaveDelineator.rate).rounded(.down)) - 2
        grid?.drop(before: max(keep, produced - Int(Self.holdSeconds * WaveDelineator.rate)))
    }

    /// The beat's boundaries.
    private mutating func delineate(_ b: Beat, next: Double?) -> BeatWaves {
        var out = BeatWaves(beatTime: b.time)
        out.beatClass = b.beatClass
        out.signalQuality = b.quality
        if let p = previous, p.time >= segmentStart, b.time >= segmentStart { out.rrBefore = b.time - p.time }
        guard grid != nil, b.time >= segmentStart else { return out }
        let (r, rest) = gridPosition(b.time)
        let from = r - WaveDelineator.beatIndex
        // Past an ended segment's last sample the grid is not valid (and the transform holds
        // the last valid value, as a window cut at the end would).
        if segmentEnded { grid!.extend(to: from + WaveDelineator.length) }
        // Window positions: the beat is at `beatIndex + rest`.
        let nextPosition = next.map { Double(WaveDelineator.beatIndex) + ($0 - b.time) * WaveDelineator.rate + rest }
        let rr = out.rrBefore
        let m = grid!.withWindow(from: from, centre: WaveDelineator.beatIndex, window: &window, scratch: &scales) { view, valid in
            WaveDelineator.delineate(view, valid: valid, rr: rr, next: nextPosition)
        }
        let origin = rest == 0 ? b.time - WaveDelineator.before : b.time - WaveDelineator.before - rest / WaveDelineator.rate
        func t(_ p: Double?) -> Double? { p.map { origin + $0 / WaveDelineator.rate } }
        out.qrsStatus = m.qrs
        out.qrsOnset = t(m.qrsOnset)
        out.qrsOffset = t(m.qrsOffset)
        out.pStatus = m.p
        out.pOnset = t(m.pOnset)
        out.pPeak = t(m.pPeak)
        out.pOffset = t(m.pOffset)
        out.pShape = m.pShape
        out.pOnsetMasked = m.pOnsetMasked
        out.tStatus = m.t
        out.tPeak = t(m.tPeak)
        out.tOffset = t(m.tOffset)
        out.tShape = m.tShape
        accumulateMedian(out, position: Double(r) + rest)
        return out
    }

    /// Adds a delineated beat to its window's median beat when it qualifies (the rule of
    /// ``ECGIntervals``: normal after normal, acceptable quality, QRS onset found) and is taken.
    /// - Parameters:
    ///   - w: the beat's boundaries.
    ///   - position: the beat's grid position (fractional).
    private mutating func accumulateMedian(_ w: BeatWaves, position: Double) {
        guard medians != nil else { return }
        doneMedians += medians!.enter(w.beatTime)
        guard w.beatClass == "N", previous?.beatClass == "N", w.signalQuality == "excellent" || w.signalQuality == "barely_acceptable",
            w.qrsStatus == .present, let on = w.qrsOnset, medians!.takesNext()
        else { return }
        let rate = WaveDelineator.rate
        // The level: the mean of the grid over the 16 ms before the QRS onset.
        let level = grid!.mean(endingAt: position + (on - w.beatTime) * rate, count: 5)
        guard level.isFinite,
            grid!.copy(
                from: position - MedianBeatAccumulator.before * rate, into: &medianSamples, level: level, scale: Float(microvoltsPerUnit))
        else { return }
        let marks = [w.pOnset, w.pPeak, w.pOffset, w.qrsOnset, w.qrsOffset, w.tPeak, w.tOffset].map { t in
            t.map { Float($0 - w.beatTime) } ?? .nan
        }
        medians!.keep(samples: medianSamples, boundaries: marks)
    }
}

import Signals

/// The streaming delineation of one ECG lead: holds the lead's recent samples and the beats the
/// ECG family publishes (`ecg_beats`), and delineates each beat (``WaveDelineator``) once the
/// samples up to 1.2 s after it and the next beat are known (or its segment has ended). Each beat
/// depends only on the samples within −1.0…+1.2 s of it and on the neighbouring beats' times, so
/// the result never depends on how the stream is cut into blocks or when the events arrive.
///
/// Memory: the samples from the oldest waiting beat (−1 s) on, at most ``holdSeconds`` of them.
struct WaveLead {
    let streamName: String
    /// Samples older than this behind the newest one are dropped even when a beat could still
    /// need them (the ECG family publishes a beat at most one quality window, ≤ 600 s, plus the
    /// detector's latency after it).
    static let holdSeconds = 660.0

    struct Beat {
        var time: Double
        var beatClass: String?
        var quality: String?
    }

    var segment = -1
    var segmentStart = 0.0
    var rate = 0.0
    var uniform = false
    /// Raw samples (NaN where masked) of the current segment from segment index `base` on.
    var samples: [Float] = []
    var base = 0
    var received = 0
    var segmentEnded = false
    /// Beats waiting for delineation, in time order.
    var pending: [Beat] = []
    /// The last delineated beat (its time and class), for the RR interval before the next one.
    var previous: (time: Double, beatClass: String?)?
    /// Beats seen so far whose time is at or after this belong to the current segment.
    var done: [BeatWaves] = []

    init(streamName: String) { self.streamName = streamName }

    /// Feeds a block of the lead.
    mutating func consume(_ block: SampleBlock) {
        guard block.count > 0 || block.endsSegment else { return }
        if block.segment != segment {
            segmentEnded = true
            process(final: false)
            segment = block.segment
            samples.removeAll(keepingCapacity: true)
            base = 0
            received = 0
            segmentEnded = false
            if case .uniform(let start, let r) = block.time {
                segmentStart = start
                rate = r
                uniform = r >= 100 && r <= 2000
            } else {
                uniform = false
            }
        }
        if uniform {
            let mask = SampleFlags.maskingFlags.rawValue
            samples.reserveCapacity(samples.count + block.count)
            for i in 0..<block.count {
                let v = block.columns[0][i]
                samples.append(block.flags[i] & mask != 0 ? .nan : v)
            }
            received += block.count
        }
        if block.endsSegment { segmentEnded = true }
        process(final: false)
        trim()
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
    }

    /// Delineates the waiting beats whose samples and next beat are known.
    /// - Parameter final: the recording has ended (nothing more will come).
    private mutating func process(final: Bool) {
        while let b = pending.first {
            let end = rate > 0 ? segmentStart + Double(received) / rate : -Double.infinity
            var hasNext = pending.count > 1
            if !final {
                // A beat after the end of an ended segment belongs to the next one: wait for it.
                if segmentEnded && b.time >= end { return }
                if !segmentEnded && b.time >= segmentStart {
                    guard hasNext && end >= b.time + WaveDelineator.after else { return }
                }
            }
            if hasNext && segmentEnded && pending[1].time >= end { hasNext = false }
            let next = hasNext ? pending[1].time : nil
            done.append(delineate(b, next: next))
            previous = (b.time, b.beatClass)
            pending.removeFirst()
        }
    }

    /// Drops samples no waiting or future beat can need.
    private mutating func trim() {
        guard uniform else { return }
        // The oldest waiting beat needs its window; later beats come after the last delineated one;
        // before any beat of the segment, everything is kept (up to the hold bound).
        let end = segmentStart + Double(received) / rate
        var keepFrom = segmentStart
        if let last = pending.first?.time ?? previous?.time, last >= segmentStart {
            keepFrom = last - WaveDelineator.before - 1
        }
        keepFrom = max(keepFrom, end - Self.holdSeconds)
        let drop = Int(((keepFrom - segmentStart) * rate).rounded(.down)) - 2 - base
        if drop > 65_536 || (drop > 0 && drop > samples.count / 2) {
            let n = min(drop, samples.count)
            samples.removeFirst(n)
            base += n
        }
    }

    /// The beat's boundaries.
    private func delineate(_ b: Beat, next: Double?) -> BeatWaves {
        var out = BeatWaves(beatTime: b.time)
        out.beatClass = b.beatClass
        out.signalQuality = b.quality
        if let p = previous, p.time >= segmentStart, b.time >= segmentStart { out.rrBefore = b.time - p.time }
        guard uniform, b.time >= segmentStart, rate > 0 else { return out }
        let (x, valid) = window(at: b.time)
        let nextPosition = next.map { Double(WaveDelineator.beatIndex) + ($0 - b.time) * WaveDelineator.rate }
        let m = WaveDelineator.delineate(x, valid: valid, rr: out.rrBefore, next: nextPosition)
        let origin = b.time - WaveDelineator.before
        func t(_ p: Double?) -> Double? { p.map { origin + $0 / WaveDelineator.rate } }
        out.qrsStatus = m.qrs
        out.qrsOnset = t(m.qrsOnset)
        out.qrsOffset = t(m.qrsOffset)
        out.pStatus = m.p
        out.pOnset = t(m.pOnset)
        out.pPeak = t(m.pPeak)
        out.pOffset = t(m.pOffset)
        out.pShape = m.pShape
        out.tStatus = m.t
        out.tPeak = t(m.tPeak)
        out.tOffset = t(m.tOffset)
        out.tShape = m.tShape
        return out
    }

    /// The lead around `time` at 250 Hz (a centred moving average of ⌊rate/250⌋ rounded to an odd
    /// length against aliasing, then linear interpolation) and the contiguous range of
    /// positions around the beat that hold finite samples.
    func window(at time: Double) -> ([Float], Range<Int>) {
        let n = WaveDelineator.length
        var x = [Float](repeating: .nan, count: n)
        var half = Int(rate / WaveDelineator.rate) / 2
        if rate <= WaveDelineator.rate { half = 0 }
        let width = Float(2 * half + 1)
        let origin = time - WaveDelineator.before
        let exact = rate == WaveDelineator.rate
        // The raw indices the window reads (one more at each end for the interpolation), and
        // their moving averages computed once (each output sample reads two).
        let first = Int(((origin - segmentStart) * rate).rounded(.down)) - 1
        let last = Int(((origin + Double(n - 1) / WaveDelineator.rate - segmentStart) * rate).rounded(.up)) + 1
        var averaged = [Float](repeating: .nan, count: max(last - first + 1, 0))
        samples.withUnsafeBufferPointer { sp in
            averaged.withUnsafeMutableBufferPointer { ap in
                for i in first...last {
                    let k = i - base
                    guard k - half >= 0, k + half < sp.count else { continue }
                    if half == 0 {
                        ap[i - first] = sp[k]
                    } else {
                        var s: Float = 0
                        for j in k - half...k + half { s += sp[j] }
                        ap[i - first] = s / width
                    }
                }
            }
        }
        averaged.withUnsafeBufferPointer { ap in
            func raw(_ i: Int) -> Float { i >= first && i <= last ? ap[i - first] : .nan }
            for j in 0..<n {
                let u = (origin + Double(j) / WaveDelineator.rate - segmentStart) * rate
                if exact {
                    x[j] = raw(Int(u.rounded()))
                } else {
                    let i0 = Int(u.rounded(.down))
                    let f = Float(u - Double(i0))
                    let a = raw(i0), b = raw(i0 + 1)
                    x[j] = a + (b - a) * f
                }
            }
        }
        var lo = WaveDelineator.beatIndex, hi = WaveDelineator.beatIndex
        guard x[lo].isFinite else { return (x.map { $0.isFinite ? $0 : 0 }, lo..<lo) }
        while lo > 0 && x[lo - 1].isFinite { lo -= 1 }
        while hi < n - 1 && x[hi + 1].isFinite { hi += 1 }
        // Padding: the nearest valid value (the wavelet sees a flat edge).
        for j in 0..<lo { x[j] = x[lo] }
        for j in (hi + 1)..<n { x[j] = x[hi] }
        return (x, lo..<(hi + 1))
    }
}

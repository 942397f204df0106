import Signals

/// One beat as the rhythm family keeps it until its window is labelled.
struct RhythmBeat: Sendable {
    var time: Double
    /// Classifier class (`N`, `S`, `V`, `Q`), or `nil`.
    var beatClass: String?
    var qrsWidth: Double
    /// Quality label of the beat's window, or `nil`.
    var quality: String?
    /// Segment of a device's beat list (``RhythmSource/device``): beats of different segments
    /// are not neighbours (a gap in the list lies between them).
    var segment = 0
    /// The classifier's P-window correlation with its sinus P template (`ecg_beats.p_correlation`),
    /// NaN when none.
    var pCorrelation = Double.nan
}

/// The rhythm analysis of one stream: its beats (and, for an ECG lead, its recent samples) until
/// each window is final, then the window's row and the episode bookkeeping.
///
/// A window is final once the stream's samples have passed its end by 0.1 s (the QRS segments
/// of its last beats) and a beat at or after its end has arrived (every beat of the window has
/// then been published, as beats of a stream come in time order), or once the samples have
/// passed its end by ``beatLatencySeconds`` before the current block (an ECG lead or a PPG
/// stream, which hold samples: no beat source publishes a beat later than that after its
/// samples, and a block's beats come after the block; a stretch without beats — a lead off, a
/// PPG off the wrist — then writes its windows and frees their samples instead of holding them
/// until the next beat), or at the end of the recording. Until the stream is longer than ``RhythmOptions/singleWindowMaxSeconds`` nothing
/// is final: a shorter stream is one window from its first to its last sample.
///
/// A device's beat list (``RhythmSource/device``) has no samples of its own, only its beats
/// (``appendDevice(_:output:)``): a run of beats whose neighbours are at most
/// ``RhythmOptions/windowSeconds`` apart (one Apple Health list: about a minute, with gaps of a
/// few seconds) is one window from its first beat to its last (inclusive) when it spans at most
/// ``RhythmOptions/singleWindowMaxSeconds``, else ``RhythmOptions/windowSeconds`` windows from
/// its first beat; the hours between lists get no windows. Intervals are formed only between
/// consecutive beats of one segment (``RhythmBeat/segment``), never across a gap in the list.
struct RhythmStream: Sendable {
    let name: String
    let source: RhythmSource
    let options: RhythmOptions
    /// First and last sample time (s) of the stream; for the fused series, of its leads.
    var start: Double?
    var lastSample = -Double.infinity
    var samplePeriod = 0.0
    /// ECG leads: the samples (atrial activity); PPG streams: the samples (pulse timing at the
    /// upstroke, ``upstrokeMiddle(samples:peak:previous:)``).
    var ring: SampleRing?
    /// ECG leads: the f-wave band's Fourier kernels at the ring's rate (``AtrialActivity/BandKernel``).
    var bandKernel: AtrialActivity.BandKernel?
    var beats: [RhythmBeat] = []
    var lastBeat = -Double.infinity
    /// The last sample time before the current block (s): the beats of samples up to it less
    /// ``beatLatencySeconds`` have all been published (they come after their block).
    var settledSample = -Double.infinity
    /// End of the last window written (s): a beat before it arrived too late to be counted.
    var writtenUpTo = -Double.infinity
    /// Beats that arrived after their window was written (named in the family's issues).
    var lateBeats = 0
    var previousBeat: Double?
    var nextWindow = 0
    var isLong = false
    /// Spans without samples longer than one window (time order): windows inside one are not
    /// written — cost follows the data, never the time span (docs/HARDENING.md, "Gaps").
    var gaps: [(from: Double, to: Double)] = []
    var episode: RhythmEpisodeRow?
    /// The fused series: its leads' beats as (time, in an unacceptable quality window), in
    /// arrival order (each lead's in time order), kept until their window is written.
    var leadQuality: [(time: Double, unacceptable: Bool)] = []
    var episodeRate = 0.0

    init(name: String, source: RhythmSource, options: RhythmOptions, keepsSamples: Bool) {
        self.name = name
        self.source = source
        self.options = options
        if keepsSamples { ring = SampleRing() }
    }

    /// Takes a block of the stream's samples (first column).
    mutating func consume(_ block: SampleBlock) {
        guard block.count > 0 else { return }
        if start == nil { start = block.time(at: 0) }
        let first = block.time(at: 0)
        if lastSample.isFinite && first - lastSample > options.windowSeconds { gaps.append((lastSample, first)) }
        if samplePeriod == 0 {
            if case .uniform(_, let rate) = block.time, rate > 0 {
                samplePeriod = 1 / rate
            } else if block.count > 1 {
                samplePeriod = (block.time(at: block.count - 1) - block.time(at: 0)) / Double(block.count - 1)
            }
            if samplePeriod > 0 { ring?.sampleRate = 1 / samplePeriod }
        }
        ring?.append(block)
        settledSample = lastSample
        lastSample = max(lastSample, block.time(at: block.count - 1))
        if let s = start, lastSample - s > options.singleWindowMaxSeconds { isLong = true }
    }

    /// Takes a beat (in time order).
    mutating func append(_ beat: RhythmBeat) {
        guard beat.time >= lastBeat else { return }
        guard beat.time >= writtenUpTo else {
            lateBeats += 1
            return
        }
        lastBeat = beat.time
        beats.append(beat)
    }

    /// Moves a series without samples of its own (the fused one) to a lead's last sample time (s).
    mutating func extend(toLastSample time: Double) {
        lastSample = max(lastSample, time)
        if let s = start, lastSample - s > options.singleWindowMaxSeconds { isLong = true }
    }

    /// Takes one lead beat's quality (the fused series' gate).
    mutating func appendLeadQuality(time: Double, unacceptable: Bool) {
        leadQuality.append((time, unacceptable))
    }

    /// Takes a beat of a device's list (in time order): a beat more than
    /// ``RhythmOptions/windowSeconds`` after the previous one ends the previous run, whose
    /// windows are then written.
    mutating func appendDevice(_ beat: RhythmBeat, output: any ResultOutput) throws {
        guard beat.time >= lastBeat else { return }
        if lastBeat.isFinite && beat.time - lastBeat > options.windowSeconds { try emitDeviceRun(output: output) }
        if start == nil { start = beat.time }
        lastBeat = beat.time
        beats.append(beat)
    }

    /// Writes the windows of the run of device beats held (see the type's description).
    private mutating func emitDeviceRun(output: any ResultOutput) throws {
        guard let first = beats.first?.time, let last = beats.last?.time else { return }
        let end = last.nextUp // the last beat is inside its window
        if last - first <= options.singleWindowMaxSeconds {
            try emit(window: first, end, output: output)
        } else {
            var k = 0.0
            while first + k * options.windowSeconds < end {
                let a = first + k * options.windowSeconds
                try emit(window: a, min(a + options.windowSeconds, end), output: output)
                k += 1
            }
        }
    }

    /// Emits every final window (all of them when `final`) and the episodes they close.
    mutating func emitFinal(output: any ResultOutput, final: Bool) throws {
        if source == .device {
            // Runs are written as they end (``appendDevice(_:output:)``); the last one here.
            guard final else { return }
            try emitDeviceRun(output: output)
            try closeEpisode(output: output)
            return
        }
        guard let s = start else { return }
        let end = lastSample + samplePeriod
        if !isLong {
            guard final else { return }
            if nextWindow == 0 && end > s { try emit(window: s, end, output: output) }
            nextWindow = 1
            try closeEpisode(output: output)
            return
        }
        let length = options.windowSeconds
        while true {
            let a = s + Double(nextWindow) * length
            while let g = gaps.first, g.to <= a { gaps.removeFirst() }
            if let g = gaps.first, a >= g.from, a + length <= g.to {
                // A window wholly inside a gap: step to the window holding the gap's end.
                nextWindow = max(nextWindow + 1, Int(((g.to - s) / length).rounded(.down)))
                continue
            }
            var b = a + length
            if final {
                guard a < end else { break }
                b = min(b, end)
            } else {
                // A stream holding samples (an ECG lead, a PPG stream) also writes a window whose
                // beats have all been published although none came after it, so a stretch without
                // beats does not hold its samples; the fused series holds none.
                let settled = ring != nil && settledSample >= b + Self.beatLatencySeconds
                guard lastSample >= b + 0.1 && (lastBeat >= b || settled) else { break }
            }
            try emit(window: a, b, output: output)
            writtenUpTo = b
            nextWindow += 1
            ring?.drop(before: b - Self.ringMargin)
        }
        if final { try closeEpisode(output: output) }
        // PPG: a pulse's foot search reads at most 1.5 s before it and never before the previous
        // pulse (``upstrokeMiddle(samples:peak:previous:)``), and pulses come in time order, so no
        // sample before the first pending pulse (else the last one) less 1.5 s is read again.
        if source == .ppg, let t = beats.first?.time ?? (lastBeat.isFinite ? lastBeat : nil) {
            ring?.drop(before: t - Self.ringMargin)
        }
    }

    private mutating func emit(window a: Double, _ b: Double, output: any ResultOutput) throws {
        var k = 0
        while k < beats.count && beats[k].time < a { k += 1 }
        if k > 0 { previousBeat = beats[k - 1].time }
        var n = k
        while n < beats.count && beats[n].time < b { n += 1 }
        let inWindow = Array(beats[k..<n])
        var times = inWindow.map(\.time)
        if source == .ppg, let ring {
            // Pulse timing at the upstroke's middle rather than the systolic peak.
            var previous = previousBeat
            for i in times.indices {
                let peak = times[i]
                if let t = Self.upstrokeMiddle(samples: ring, peak: peak, previous: previous) { times[i] = t }
                previous = peak
            }
        }
        var rr = RRIrregularity.intervals(times)
        if source == .device {
            // A device's list: neighbours only within a segment (no interval across a gap).
            rr = []
            for i in inWindow.indices.dropFirst() where inWindow[i].segment == inWindow[i - 1].segment {
                let interval = inWindow[i].time - inWindow[i - 1].time
                if RRIrregularity.keeps(interval) { rr.append(interval) }
            }
        }
        var row = RhythmWindowRow(
            stream: name, source: source, startSeconds: a, endSeconds: b, label: .insufficient, afProbability: nil,
            beats: inWindow.count)
        if !rr.isEmpty {
            let mean = rr.reduce(0, +) / Double(rr.count)
            row.meanHeartRateBPM = 60 / mean
            row.intervalCoverage = rr.reduce(0, +) / (b - a)
        }
        row.irregularity = RRIrregularity(intervals: rr)
        if source == .ecg && !inWindow.isEmpty {
            let classed = inWindow.filter { $0.beatClass != nil }
            if !classed.isEmpty {
                row.ectopicShare = Double(classed.filter { $0.beatClass == "S" || $0.beatClass == "V" }.count) / Double(classed.count)
            }
            // Intervals between two beats neither of which is ventricular (RRIrregularity's range).
            var nv = [Double]()
            nv.reserveCapacity(inWindow.count)
            for i in inWindow.indices.dropFirst() where inWindow[i].beatClass != "V" && inWindow[i - 1].beatClass != "V" {
                let interval = inWindow[i].time - inWindow[i - 1].time
                if RRIrregularity.keeps(interval) { nv.append(interval) }
            }
            row.ectopyFreeIrregularity = RRIrregularity(intervals: nv)
            let widths = inWindow.map(\.qrsWidth).filter(\.isFinite)
            if !widths.isEmpty { row.qrsWidthSeconds = widths.reduce(0, +) / Double(widths.count) }
            row.pattern = BeatPattern(beats: inWindow, intervals: rr)
        }
        let labelled = inWindow.filter { $0.quality != nil }
        if !labelled.isEmpty {
            row.unacceptableShare = Double(labelled.filter { $0.quality == "unacceptable" }.count) / Double(labelled.count)
            row.goodShare = Double(labelled.filter { $0.quality == "good" || $0.quality == "excellent" }.count) / Double(labelled.count)
        }
        if source == .fused {
            // The leads' beats in the window (every lead), their unacceptable share.
            var n = 0, bad = 0
            for q in leadQuality where q.time >= a && q.time < b {
                n += 1
                if q.unacceptable { bad += 1 }
            }
            if n > 0 { row.unacceptableShare = Double(bad) / Double(n) }
            leadQuality.removeAll { $0.time < b }
        }
        if source == .ecg, let ring {
            if ring.sampleRate >= 50 && bandKernel?.rate != ring.sampleRate {
                bandKernel = AtrialActivity.BandKernel(rate: ring.sampleRate)
            }
            row.atrial = AtrialActivity(
                samples: ring, beats: times, ventricular: inWindow.map { $0.beatClass == "V" }, previousBeat: previousBeat,
                kernel: bandKernel)
        }
        if Double(rr.count) < options.minimumIntervals {
            row.nullReason =
                "fewer than \(Int(options.minimumIntervals.rounded(.up))) RR intervals of 0.25–2.5 s in the window (\(rr.count))"
                + (source == .device ? "; intervals only between neighbouring listed beats, none across a gap in the device's list" : "")
        } else {
            // The model is fetched here, once per labelled window, not handed down per beat or block.
            let model = RhythmFamily.Analyzer.model(for: source)
            let p = model.probabilities(row)
            row.label = model.label(p, of: row)
            row.afProbability = p[1]
            row.model = model.name
            // PPG quality gate: a window is af only when at least half its pulses lie in good
            // quality windows (clean pulses, still wrist); otherwise it is noisy.
            if source == .ppg && row.label == .af && (row.goodShare ?? 0) < 0.5 { row.label = .noisy }
            // Fused series (timing only): a window is af only when fewer than half its leads'
            // beats lie in unacceptable ECG quality windows; otherwise it is noisy.
            if source == .fused && row.label == .af && (row.unacceptableShare ?? 0) >= 0.5 { row.label = .noisy }
        }
        try output.emit(RhythmTables.windows, row)
        if n > 0 { previousBeat = beats[n - 1].time }
        beats.removeFirst(n)
        try track(row, output: output)
    }

    /// Seconds of samples kept before the next window's start: the PR segment of an ECG lead's
    /// first beat (0.3 s) and the foot search of a PPG stream's first pulse (1.5 s,
    /// ``upstrokeMiddle(samples:peak:previous:)``).
    static let ringMargin = 1.6

    /// The longest a beat source publishes a beat after its samples (s): an ECG lead's beats wait
    /// for their quality window's label (`quality_window_s`, at most 600 s) and the detector's
    /// look-ahead (seconds); PPG pulses for the detector's look-ahead (seconds). The same bound
    /// as the waves family's hold (`WaveLead.holdSeconds`).
    static let beatLatencySeconds = 660.0

    /// The time of a PPG pulse's middle-amplitude point: where the upstroke first reaches half
    /// the way from the foot (the minimum since the previous pulse, at most 1.5 s before the
    /// peak, as the PPG family's `foot_value`) to the systolic peak, linearly interpolated between
    /// samples. Peralta E, Lázaro J, Bailón R, Marozas V, Gil E (2019), Optimal fiducial points
    /// for pulse rate variability analysis from forehead and finger photoplethysmographic
    /// signals, Physiol Meas 40:025007, found this point the fiducial whose pulse-to-pulse
    /// intervals agree best with the ECG's RR intervals (the systolic peak, blunt and shaped by
    /// reflected waves, agrees worse); the rhythm model's timing inputs were fitted on ECG beat
    /// times. `nil` (the peak time is kept) when the samples are not kept, hold a masked sample or
    /// a gap, or the peak is not above the foot.
    /// - Parameters:
    ///   - samples: the stream's recent samples.
    ///   - peak: the published pulse time (systolic peak), s.
    ///   - previous: the previous pulse's time, s, or `nil`.
    /// - Complexity: O(samples between the foot search's start and the peak).
    static func upstrokeMiddle(samples: SampleRing, peak: Double, previous: Double?) -> Double? {
        let from = max(previous ?? -Double.infinity, peak - 1.5)
        guard samples.sampleRate > 0, let k = samples.index(atOrAfter: peak), let lo = samples.index(atOrAfter: from), lo < k
        else { return nil }
        var x = [Double](repeating: 0, count: k - lo + 1)
        let ok = x.withUnsafeMutableBufferPointer { samples.segment(from: lo, count: k - lo + 1, into: $0) }
        guard ok else { return nil }
        var f = 0
        for i in x.indices where x[i] < x[f] { f = i }
        let top = x[x.count - 1]
        guard top > x[f] else { return nil }
        let half = (x[f] + top) / 2
        var i = f
        while i + 1 < x.count - 1 && x[i + 1] < half { i += 1 }
        let step = x[i + 1] - x[i]
        let fraction = step > 0 ? min(1, max(0, (half - x[i]) / step)) : 0
        let t0 = samples.time(at: lo + i), t1 = samples.time(at: lo + i + 1)
        return t0 + fraction * (t1 - t0)
    }

    /// Episodes: consecutive af windows (each starting where the previous ended) merge; any
    /// other label ends the episode, which is kept when at least the minimum long.
    private mutating func track(_ row: RhythmWindowRow, output: any ResultOutput) throws {
        if row.label == .af, var e = episode, abs(e.offsetSeconds - row.startSeconds) < 1e-6 {
            e.offsetSeconds = row.endSeconds
            e.windows += 1
            e.beats += row.beats
            episodeRate += (row.meanHeartRateBPM ?? 0) * Double(row.beats)
            episode = e
            return
        }
        try closeEpisode(output: output)
        if row.label == .af {
            episode = RhythmEpisodeRow(
                stream: name, source: source, onsetSeconds: row.startSeconds, offsetSeconds: row.endSeconds, windows: 1,
                beats: row.beats)
            episodeRate = (row.meanHeartRateBPM ?? 0) * Double(row.beats)
        }
    }

    private mutating func closeEpisode(output: any ResultOutput) throws {
        guard var e = episode else { return }
        episode = nil
        guard e.durationSeconds >= options.episodeMinimumSeconds - 1e-3 else { return } // within 1 ms (clock rounding)
        if e.beats > 0 { e.meanHeartRateBPM = episodeRate / Double(e.beats) }
        try output.emit(RhythmTables.episodes, e)
    }
}

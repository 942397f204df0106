/// Cuts a stream of timed, multi-channel samples into windows (``FeatureWindowing``) and hands
/// each window's valid samples to a callback as soon as the window is complete.
///
/// Works on any stream or derived series: samples appended one at a time (NN intervals at their
/// beat times, heart-rate or ENMO epochs at their start times); the `Features` module adds the
/// blocks of a recording's streams.
/// Samples must arrive in non-decreasing time; a sample earlier than the previous one ends every
/// open window and restarts the grid. Results depend on sample times and values only, never on
/// how the samples were split into blocks. Windows with no sample at all (inside a long gap)
/// are skipped; every other window is reported with its valid fraction.
///
/// Memory: the samples of one window (length · rate · (channels + 2) values), whatever the
/// stream's duration.
public struct FeatureWindower {
    /// The windowing.
    public let windowing: FeatureWindowing
    /// Number of channels per sample.
    public let channelCount: Int
    /// The stream's declared rate in Hz, if any.
    public let nominalSampleRate: Double?

    var times: [Double] = []
    var values: [Double] = [] // sample-major, channelCount per sample
    var valid: [Bool] = []
    /// The window grid; ``WindowCutter/next`` is the current window.
    var cutter: WindowCutter<Double>
    var started = false
    var lastTime = -Double.infinity
    var gathered: [Double] = []
    var intervals: [Double] = []

    /// Creates a windower.
    /// - Parameters:
    ///   - windowing: length, step, alignment and minimum valid fraction.
    ///   - channelCount: values per sample (≥ 1).
    ///   - nominalSampleRate: declared rate in Hz, or `nil` to estimate it per window from the
    ///     median interval between samples.
    public init(windowing: FeatureWindowing, channelCount: Int, nominalSampleRate: Double?) {
        precondition(channelCount >= 1, "at least one channel")
        self.windowing = windowing
        self.channelCount = channelCount
        self.nominalSampleRate = nominalSampleRate.flatMap { $0 > 0 && $0.isFinite ? $0 : nil }
        cutter = WindowCutter(length: windowing.lengthSeconds, step: windowing.stepSeconds, origin: 0)
    }

    /// Appends one sample.
    /// - Parameters:
    ///   - time: its time in s (non-decreasing).
    ///   - values: ``channelCount`` values.
    ///   - valid: `false` for a masked sample (it counts as present but is never used).
    ///   - emit: receives every window this sample completes.
    /// - Complexity: amortised O(channels) plus the callbacks.
    public mutating func append(
        time: Double, values sample: UnsafeBufferPointer<Double>, valid isValid: Bool,
        emit: (FeatureWindowSpan) throws -> Void
    ) rethrows {
        precondition(sample.count == channelCount, "one value per channel")
        guard time.isFinite else { return }
        if time < lastTime { try finish(emit: emit) }
        if !started {
            started = true
            let (length, step) = (windowing.lengthSeconds, windowing.stepSeconds)
            cutter =
                windowing.alignsToClock
                ? WindowCutter(length: length, step: step, alignedTo: 0, startingAt: time)
                : WindowCutter(length: length, step: step, origin: time)
        }
        // Every window ending at or before this sample is complete.
        while cutter.nextFinal(through: time) != nil {
            try emitCurrent(emit)
            advance(before: time)
        }
        lastTime = time
        times.append(time)
        valid.append(isValid)
        for c in 0..<channelCount { values.append(sample[c]) }
    }

    /// Emits the windows still open (the last ones are usually incomplete and carry their
    /// valid fraction) and starts over.
    /// - Complexity: O(buffered samples) plus the callbacks.
    public mutating func finish(emit: (FeatureWindowSpan) throws -> Void) rethrows {
        while started && !times.isEmpty {
            try emitCurrent(emit)
            advance(before: .infinity)
        }
        times.removeAll(keepingCapacity: true)
        values.removeAll(keepingCapacity: true)
        valid.removeAll(keepingCapacity: true)
        started = false
        lastTime = -.infinity
    }

    /// Moves to the next window, drops samples before it, and skips windows that can hold no
    /// sample before `time`.
    mutating func advance(before time: Double) {
        cutter.releaseNext()
        let start = cutter.start(of: cutter.next)
        var drop = 0
        while drop < times.count && times[drop] < start { drop += 1 }
        if drop > 0 {
            times.removeFirst(drop)
            valid.removeFirst(drop)
            values.removeFirst(drop * channelCount)
        }
        // The first window that can contain `time`: start > time − length.
        if times.isEmpty && time.isFinite { cutter.skip(toFirstEndingAfter: time) }
    }

    mutating func emitCurrent(_ emit: (FeatureWindowSpan) throws -> Void) rethrows {
        let start = cutter.start(of: cutter.next)
        let end = cutter.end(of: cutter.next)
        var count = 0
        while count < times.count && times[count] < end { count += 1 }
        guard count > 0 else { return }
        var rate = nominalSampleRate ?? .nan
        if nominalSampleRate == nil && count >= 2 {
            intervals.removeAll(keepingCapacity: true)
            for i in 1..<count { intervals.append(times[i] - times[i - 1]) }
            intervals.sort()
            let m = intervals.count
            let median = m % 2 == 1 ? intervals[m / 2] : (intervals[m / 2 - 1] + intervals[m / 2]) / 2
            rate = median > 0 ? 1 / median : .nan
        }
        let stride = max(count, 1)
        let needed = stride * channelCount
        if gathered.count < needed { gathered = [Double](repeating: 0, count: needed) }
        var n = 0
        let channels = channelCount
        values.withUnsafeBufferPointer { v in
            gathered.withUnsafeMutableBufferPointer { g in
                for i in 0..<count where valid[i] {
                    for c in 0..<channels { g[c * stride + n] = v[i * channels + c] }
                    n += 1
                }
            }
        }
        let expected = windowing.lengthSeconds * rate
        let fraction = WindowCutter<Double>.validFraction(valid: n, expected: expected)
        try gathered.withUnsafeBufferPointer { g in
            try emit(
                FeatureWindowSpan(
                    startSeconds: start, endSeconds: end, sampleCount: count, validCount: n, sampleRate: rate,
                    validFraction: fraction,
                    isComputable: n >= 2 && rate.isFinite && fraction >= windowing.minimumValidFraction,
                    base: g.baseAddress!, stride: stride))
        }
    }
}

/// The detected beats of a ``BeatSeries`` until it finishes, stored compactly and exactly: every
/// accessor returns the bits that were appended.
///
/// - Segments: one run per stretch of beats of one segment (and one time base), not a number per
///   beat.
/// - Sample indices: `Int32` while every index fits (a 31-day recording at 800 Hz does), else
///   `Int` from then on.
/// - Times: a beat whose time is exactly its run's uniform time base,
///   `start + Double(sampleIndex) / sampleRate` (the time a uniformly sampled stream gives its
///   sample), stores nothing; from the first beat that is not (explicit sample times, or a
///   caller without a time base, e.g. the ECG), every time is stored as a `Double`.
/// - Beat classes, fiducial offsets and pause-slope ratios: stored only from the first beat that
///   has one (an unclassified source, e.g. PPG, has none).
///
/// Bytes per beat: 4 for a uniformly sampled unclassified series (PPG), 21 for a classified one
/// (ECG: sample, time, class, fiducial offset, pause ratio), against 29 for the per-beat arrays
/// it replaces; arrays grow by doubling, so up to twice that is reserved.
struct BeatStore: Sendable {
    /// A stretch of consecutive beats of one segment with one time base.
    struct Run: Sendable {
        var first: Int
        var segment: Int32
        /// The segment's first sample time, seconds, and sample rate, Hz (0: no time base).
        var timeStart: Double
        var sampleRate: Double
    }

    private(set) var runs: [Run] = []
    private var narrowSamples: [Int32] = []
    private var wideSamples: [Int] = []
    private var isWide = false
    private var storedTimes: [Double] = []
    private var timesStored = false
    /// ``BeatSeries/unlabelled`` for every beat while empty.
    private var labels: [UInt8] = []
    /// +0 for every beat while empty.
    private var fiducials: [Float] = []
    /// NaN for every beat while empty.
    private var pauseRatios: [Float] = []
    /// Beats stored.
    private(set) var count = 0

    /// Appends a beat.
    /// - Parameters:
    ///   - segment: its segment.
    ///   - sampleIndex: its sample within the segment.
    ///   - time: its time, seconds.
    ///   - timeBase: the segment's uniform time base (first sample time, s; sample rate, Hz), or
    ///     `nil` when the stream has none.
    ///   - label: class raw value (bit 7: uncertain) or ``BeatSeries/unlabelled``.
    ///   - fiducial: HRV fiducial offset, seconds.
    ///   - pauseRatio: pause-slope ratio, or NaN.
    /// - Complexity: amortised O(1) (O(count) once, when the first value of a lazily stored
    ///   column arrives).
    mutating func append(
        segment: Int32, sampleIndex: Int, time: Double, timeBase: (start: Double, rate: Double)?, label: UInt8,
        fiducial: Float, pauseRatio: Float
    ) {
        let base = timeBase ?? (0, 0)
        if let last = runs.last, last.segment == segment, last.timeStart.bitPattern == base.start.bitPattern,
            last.sampleRate.bitPattern == base.rate.bitPattern
        {
            // Same run.
        } else {
            runs.append(Run(first: count, segment: segment, timeStart: base.start, sampleRate: base.rate))
        }
        if !isWide, let narrow = Int32(exactly: sampleIndex) {
            narrowSamples.append(narrow)
        } else {
            if !isWide {
                wideSamples = narrowSamples.map { Int($0) }
                narrowSamples = []
                isWide = true
            }
            wideSamples.append(sampleIndex)
        }
        count += 1
        if !timesStored {
            let predicted = base.rate > 0 ? base.start + Double(sampleIndex) / base.rate : Double.nan
            if base.rate <= 0 || predicted.bitPattern != time.bitPattern {
                var all = [Double]()
                all.reserveCapacity(count)
                for i in 0..<(count - 1) { all.append(self.time(at: i)) }
                storedTimes = all
                timesStored = true
            }
        }
        if timesStored { storedTimes.append(time) }
        if label != BeatSeries.unlabelled || !labels.isEmpty {
            if labels.isEmpty { labels = [UInt8](repeating: BeatSeries.unlabelled, count: count - 1) }
            labels.append(label)
        }
        if fiducial.bitPattern != 0 || !fiducials.isEmpty {
            if fiducials.isEmpty { fiducials = [Float](repeating: 0, count: count - 1) }
            fiducials.append(fiducial)
        }
        if !pauseRatio.isNaN || !pauseRatios.isEmpty {
            if pauseRatios.isEmpty { pauseRatios = [Float](repeating: .nan, count: count - 1) }
            pauseRatios.append(pauseRatio)
        }
    }

    /// The run holding beat `i`.
    private func run(of i: Int) -> Run { runs[runIndex(of: i)] }

    /// Segment of beat `i`. - Complexity: O(log runs).
    func segment(at i: Int) -> Int32 { run(of: i).segment }

    /// Sample index of beat `i`. - Complexity: O(1).
    func sample(at i: Int) -> Int { isWide ? wideSamples[i] : Int(narrowSamples[i]) }

    /// Time of beat `i`, seconds. - Complexity: O(1) when times are stored, else O(log runs).
    func time(at i: Int) -> Double {
        if timesStored { return storedTimes[i] }
        let r = run(of: i)
        return r.timeStart + Double(sample(at: i)) / r.sampleRate
    }

    /// Times of the beats in `range`, seconds. - Complexity: O(range.count + log runs).
    func times(_ range: Range<Int>) -> [Double] {
        if timesStored { return Array(storedTimes[range]) }
        var out = [Double]()
        out.reserveCapacity(range.count)
        var r = range.isEmpty ? 0 : runIndex(of: range.lowerBound)
        for i in range {
            while r + 1 < runs.count && runs[r + 1].first <= i { r += 1 }
            out.append(runs[r].timeStart + Double(sample(at: i)) / runs[r].sampleRate)
        }
        return out
    }

    private func runIndex(of i: Int) -> Int {
        var lo = 0, hi = runs.count
        while hi - lo > 1 {
            let m = (lo + hi) / 2
            if runs[m].first <= i { lo = m } else { hi = m }
        }
        return lo
    }

    /// Class raw value of beat `i` (bit 7: uncertain), or ``BeatSeries/unlabelled``.
    func label(at i: Int) -> UInt8 { labels.isEmpty ? BeatSeries.unlabelled : labels[i] }

    /// HRV fiducial offset of beat `i`, seconds.
    func fiducial(at i: Int) -> Float { fiducials.isEmpty ? 0 : fiducials[i] }

    /// Pause-slope ratio of beat `i` (NaN when unknown).
    func pauseRatio(at i: Int) -> Float { pauseRatios.isEmpty ? .nan : pauseRatios[i] }

    /// The beats of each stretch of consecutive beats with one segment number, in order.
    /// - Complexity: O(runs).
    var segmentRanges: [(segment: Int32, range: Range<Int>)] {
        var out = [(segment: Int32, range: Range<Int>)]()
        for (k, r) in runs.enumerated() {
            let end = k + 1 < runs.count ? runs[k + 1].first : count
            if let last = out.last, last.segment == r.segment {
                out[out.count - 1].range = last.range.lowerBound..<end
            } else {
                out.append((r.segment, r.first..<end))
            }
        }
        return out
    }

    /// Bytes the stored beats take (element sizes, not the arrays' reserve): for the documented
    /// figures and their test.
    var storedBytes: Int {
        runs.count * MemoryLayout<Run>.stride + narrowSamples.count * 4 + wideSamples.count * 8 + storedTimes.count * 8
            + labels.count + fiducials.count * 4 + pauseRatios.count * 4
    }
}

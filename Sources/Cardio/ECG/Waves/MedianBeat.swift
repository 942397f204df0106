/// One row of a window's median beat (``ECGWavesTables/medianBeats``): a sample of the median
/// beat, or one of its median boundaries.
public struct MedianBeatPoint: Sendable, Hashable {
    /// The window, s on the `beats.time` clock (start inclusive, end exclusive).
    public var windowStart: Double
    public var windowEnd: Double
    /// `sample`, or the boundary: `p_onset`, `p_peak`, `p_offset`, `qrs_onset`, `qrs_offset`,
    /// `t_peak`, `t_offset`.
    public var point: String
    /// Time from the R peak (`beats.time`), s.
    public var offset: Double
    /// The median beat at ``offset``, µV (for a boundary: the median beat linearly interpolated
    /// at it; `nil` when it lies outside the span).
    public var amplitude: Double?
    /// Beats in the median, and qualifying beats in the window (the median's beats are taken
    /// evenly from them).
    public var beats: Int
    public var qualifyingBeats: Int

    /// What the plot's title says: how many beats, and why fewer than qualify.
    public var note: String
}

/// The median beat of one lead per window: the sample-wise median of the window's qualifying
/// beats (as ``ECGIntervals``'s: normal after normal, quality `excellent` or `barely_acceptable`,
/// QRS delineated), each aligned on its detection time over −300…+600 ms on the 4-ms grid
/// (linear interpolation of the 250 Hz grid) with its level at the QRS onset (the mean of the
/// 16 ms before it, the PR segment's end) subtracted; and the median of each boundary relative to
/// R over the same beats, drawn when it was found on at least half of them (and at least
/// ``ECGIntervals/minimumBeats``).
///
/// Memory: at most ``capacity`` beats per window, whatever its length: once full, every other
/// kept beat is dropped and only every second later one is kept (systematic sampling with a
/// doubling stride), so the beats kept are spread evenly over the window and depend only on
/// the order of the beats, never on block sizes.
struct MedianBeatAccumulator {
    /// The span around R, s, and its step.
    static let before = 0.3
    static let after = 0.6
    static let step = 1 / WaveDelineator.rate
    static let count = Int(((before + after) / step).rounded()) + 1
    /// Most beats kept per window.
    static let capacity = 256
    /// Boundary names, in the order ``add(beatTime:samples:boundaries:)`` takes them.
    static let boundaryNames = ["p_onset", "p_peak", "p_offset", "qrs_onset", "qrs_offset", "t_peak", "t_offset"]

    let windowSeconds: Double
    var window: Int?
    /// Qualifying beats seen in the window, the stride, the kept beats' samples (``count`` each)
    /// and boundaries (NaN where not found).
    var seen = 0
    var stride = 1
    var samples: [Float] = []
    var boundaries: [Float] = []
    var kept: Int { boundaries.count / Self.boundaryNames.count }

    init(windowSeconds: Double) { self.windowSeconds = windowSeconds }

    /// The window a beat belongs to; closes the previous one when it differs.
    /// - Returns: the closed window's rows (empty with fewer than ``ECGIntervals/minimumBeats`` beats).
    mutating func enter(_ beatTime: Double) -> [MedianBeatPoint] {
        let k = Int((beatTime / windowSeconds).rounded(.down))
        guard let c = window, c != k else {
            window = k
            return []
        }
        let rows = result(window: c)
        window = k
        seen = 0
        stride = 1
        samples.removeAll(keepingCapacity: true)
        boundaries.removeAll(keepingCapacity: true)
        return rows
    }

    /// Whether the next qualifying beat of the window is kept (call once per qualifying beat,
    /// after ``enter(_:)``; then ``keep(samples:boundaries:)`` when it returns `true`).
    mutating func takesNext() -> Bool {
        defer { seen += 1 }
        guard seen % stride == 0 else { return false }
        if kept == Self.capacity {
            // Keep every other kept beat (those at multiples of the doubled stride).
            var s = [Float](), b = [Float]()
            s.reserveCapacity(samples.count)
            b.reserveCapacity(boundaries.count)
            let n = Self.boundaryNames.count
            for i in Swift.stride(from: 0, to: kept, by: 2) {
                s.append(contentsOf: samples[(i * Self.count)..<((i + 1) * Self.count)])
                b.append(contentsOf: boundaries[(i * n)..<((i + 1) * n)])
            }
            samples = s
            boundaries = b
            stride *= 2
            return seen % stride == 0
        }
        return true
    }

    /// Keeps a beat.
    /// - Parameters:
    ///   - beat: ``count`` samples (level subtracted), µV.
    ///   - marks: the boundaries relative to R, s (NaN where not found), in ``boundaryNames`` order.
    mutating func keep(samples beat: [Float], boundaries marks: [Float]) {
        samples.append(contentsOf: beat)
        boundaries.append(contentsOf: marks)
    }

    /// The last window's rows.
    func finish() -> [MedianBeatPoint] { window.map { result(window: $0) } ?? [] }

    /// The median beat and boundaries of window `k`.
    /// - Complexity: O(count · kept · log kept).
    func result(window k: Int) -> [MedianBeatPoint] {
        let n = kept
        guard n >= ECGIntervals.minimumBeats else { return [] }
        let start = Double(k) * windowSeconds, end = Double(k + 1) * windowSeconds
        // Non-empty here: n ≥ minimumBeats columns, and found.count ≥ minimumBeats.
        // The median of the values read as Double (``ECGWavesFamily/Combiner/median(_:)``'s
        // rule: the mean of the middle two for an even count) from their order statistics
        // (exact selection: the same values as sorting the Doubles).
        func median(_ v: UnsafeBufferPointer<Float>) -> Double {
            let c = v.count
            if c % 2 == 1 { return Double(WaveSort.orderStatistics(v, positions: [c / 2])[0]) }
            let m = WaveSort.orderStatistics(v, positions: [c / 2 - 1, c / 2])
            return 0.5 * (Double(m[0]) + Double(m[1]))
        }
        func median(_ v: [Float]) -> Double { v.withUnsafeBufferPointer { median($0) } }
        var beat = [Double](repeating: 0, count: Self.count)
        var column = [Float](repeating: 0, count: n)
        samples.withUnsafeBufferPointer { sp in
            column.withUnsafeMutableBufferPointer { cp in
                for j in 0..<Self.count {
                    for i in 0..<n { cp[i] = sp[i * Self.count + j] }
                    beat[j] = median(UnsafeBufferPointer(cp))
                }
            }
        }
        func offset(_ j: Int) -> Double { -Self.before + Double(j) * Self.step }
        let note = n == seen ? "median of \(n) beats" : "median of \(n) of \(seen) beats"
        var rows = (0..<Self.count).map {
            MedianBeatPoint(
                windowStart: start, windowEnd: end, point: "sample", offset: offset($0), amplitude: beat[$0], beats: n,
                qualifyingBeats: seen, note: note)
        }
        let kinds = Self.boundaryNames.count
        for (b, name) in Self.boundaryNames.enumerated() {
            let found = (0..<n).map { boundaries[$0 * kinds + b] }.filter(\.isFinite)
            guard found.count >= ECGIntervals.minimumBeats, 2 * found.count >= n else { continue }
            let t = median(found)
            let p = (t + Self.before) / Self.step
            var amplitude: Double?
            if p >= 0 && p <= Double(Self.count - 1) {
                let i = min(Int(p.rounded(.down)), Self.count - 2), f = p - Double(i)
                amplitude = beat[i] + (beat[i + 1] - beat[i]) * f
            }
            rows.append(
                MedianBeatPoint(
                    windowStart: start, windowEnd: end, point: name, offset: t, amplitude: amplitude, beats: n, qualifyingBeats: seen,
                    note: note))
        }
        return rows
    }
}

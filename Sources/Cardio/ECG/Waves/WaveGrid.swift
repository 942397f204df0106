/// One segment of an ECG lead on the delineator's 250 Hz grid, streaming: the lead resampled once
/// (a centred moving average of ⌊rate/250⌋ samples rounded to an odd length against aliasing,
/// then linear interpolation; a 250 Hz lead is taken as it is) and transformed once
/// (``QuadraticSplineWavelet``), the grid and its scales kept in a ring that every beat's
/// delineation reads. Grid sample `j` is the lead at `segmentStart + j / 250` s.
///
/// Edges: the transform has none inside a stretch of valid samples. Where a stretch starts (the
/// segment's first valid sample, or the first after masked samples) it restarts as if the
/// earlier samples equalled that first value; over masked samples and past the segment's end
/// (``extend(to:)``) it continues on the last valid value. These are the edges a window cut
/// around one beat has (its first and last valid values repeated), so a beat's delineation
/// reads the same scales as on its own window wherever its window holds the stretch's start or end.
///
/// Memory: the grid from ``drop(before:)``'s index on (the caller bounds it), plus a few raw samples.
struct WaveGrid {
    /// The lead's sample rate, Hz.
    let sampleRate: Double
    /// Half the moving average's length, raw samples (0: none).
    let half: Int
    /// The lead is at 250 Hz: grid sample `j` is raw sample `j`.
    let exact: Bool

    /// Raw samples (NaN where masked) from raw index `rawBase` on, and how many arrived.
    private var raw: [Float] = []
    private var rawBase = 0
    private(set) var received = 0

    /// The grid (NaN where not valid) and its scales from grid index `base` on.
    private(set) var x: [Float] = []
    private(set) var scales = QuadraticSplineWavelet.Scales()
    private(set) var base = 0
    private var wavelet = QuadraticSplineWavelet()
    /// The runs of grid indices that are not valid (non-finite), in order, disjoint (those
    /// before ``base`` are forgotten).
    private var invalid: [Range<Int>] = []
    /// The last valid grid value, and whether the last grid sample was valid.
    private var hold: Float = 0
    private var inStretch = false

    /// The next grid index to be produced.
    var produced: Int { base + x.count }

    /// An empty segment.
    /// - Parameter sampleRate: the lead's rate, Hz (100–2000).
    init(sampleRate: Double) {
        self.sampleRate = sampleRate
        exact = sampleRate == WaveDelineator.rate
        half = sampleRate <= WaveDelineator.rate ? 0 : Int(sampleRate / WaveDelineator.rate) / 2
    }

    /// Appends raw samples (NaN where masked) and produces every grid sample they complete.
    /// - Complexity: O(values.count + grid samples produced · scales).
    mutating func append(_ values: UnsafeBufferPointer<Float>) {
        raw.append(contentsOf: values)
        received += values.count
        let step = sampleRate / WaveDelineator.rate
        let width = Float(2 * half + 1)
        let first = produced
        let fresh: [Float] = raw.withUnsafeBufferPointer { rp in
            if exact {
                guard received > first else { return [] }
                return Array(rp[(first - rawBase)..<(received - rawBase)])
            }
            // At most this many grid samples complete (the loop's guard decides).
            let capacity = max(Int(Double(received) / step) + 2 - first, 0)
            // Through pointers (no trapping index arithmetic, no per-sample append), each value
            // computed as before: the centred sum from the lowest index up, divided by the width,
            // then the linear interpolation (u ≥ 0, so truncation is the floor).
            return [Float](unsafeUninitializedCapacity: capacity) { out, made in
                let r = rp.baseAddress! - rawBase
                let o = out.baseAddress!
                let half = half, received = received
                /// Raw index of grid sample `j`'s left neighbour, and the grid sample complete.
                @inline(__always) func left(_ j: Int) -> Int { Int(Double(j) * step) }
                @inline(__always) func complete(_ j: Int) -> Bool { left(j) + 1 + half < received }
                // The end: the first grid sample not complete (the index is monotone in j).
                var end = first + capacity
                while end > first && !complete(end - 1) { end -= 1 }
                // The head of a segment, where the left average would reach before its first
                // sample: not valid (the interpolation of a missing value is missing).
                var j = first, n = 0
                while j < end && left(j) - half < 0 {
                    o[n] = .nan
                    n += 1
                    j += 1
                }
                // The body: every average inside the raw samples received.
                if half == 1 && j < end {
                    // The 512 Hz case: the 3-sample averages of the raw samples the body reads,
                    // once each in one pass that vectorises (the same sums in the same order, so
                    // the same values), then the interpolation between neighbours.
                    let lo = left(j), count = left(end - 1) + 2 - lo
                    let averages = [Float](unsafeUninitializedCapacity: count) { ap, made in
                        let d = ap.baseAddress!, q = r + lo
                        for i in 0..<count { d[i] = ((((0 as Float) + q[i - 1]) + q[i]) + q[i + 1]) / width }
                        made = count
                    }
                    averages.withUnsafeBufferPointer { ap in
                        let m = ap.baseAddress! - lo
                        while j < end {
                            let u = Double(j) * step
                            let i0 = Int(u)
                            let f = Float(u - Double(i0))
                            let a = m[i0], b = m[i0 + 1]
                            o[n] = a + (b - a) * f
                            n += 1
                            j += 1
                        }
                    }
                } else {
                    while j < end {
                        let u = Double(j) * step
                        let i0 = Int(u)
                        let f = Float(u - Double(i0))
                        let a: Float, b: Float
                        if half == 0 {
                            a = r[i0]
                            b = r[i0 + 1]
                        } else {
                            a = Self.average(r + (i0 - half), count: 2 * half + 1, width: width)
                            b = Self.average(r + (i0 + 1 - half), count: 2 * half + 1, width: width)
                        }
                        o[n] = a + (b - a) * f
                        n += 1
                        j += 1
                    }
                }
                made = n
            }
        }
        push(fresh)
        // Keep the raw samples the next grid sample reads.
        let needed = exact ? produced : Int((Double(produced) * step).rounded(.down)) - half - 1
        let drop = needed - rawBase
        if drop > 4096 && drop > raw.count / 2 {
            raw.removeFirst(drop)
            rawBase += drop
        }
    }

    /// The mean of `count` samples from `p`: their sum from the first, divided by `width`.
    @inline(__always)
    private static func average(_ p: UnsafePointer<Float>, count: Int, width: Float) -> Float {
        var s: Float = 0
        for k in 0..<count { s += p[k] }
        return s / width
    }

    /// Past the segment's end: grid samples up to `end` (exclusive) are not valid (the transform
    /// continues on the last valid value).
    /// - Parameter end: grid index.
    mutating func extend(to end: Int) {
        guard end > produced else { return }
        push([Float](repeating: .nan, count: end - produced))
    }

    /// Transforms new grid samples: stretch by stretch of valid and masked ones.
    private mutating func push(_ fresh: [Float]) {
        guard !fresh.isEmpty else { return }
        let first = produced
        x.append(contentsOf: fresh)
        fresh.withUnsafeBufferPointer { fp in
            // Usually every sample is valid: one branch-free pass (exponent bits all ones is
            // what `isFinite` rejects) instead of a scan for the stretches' ends.
            let bits = UnsafeRawPointer(fp.baseAddress!).assumingMemoryBound(to: UInt32.self)
            var nonFinite: UInt32 = 0
            for k in 0..<fp.count { nonFinite |= (bits[k] & 0x7F80_0000) == 0x7F80_0000 ? 1 : 0 }
            var i = 0
            while i < fp.count {
                var e = i + 1
                let valid = fp[i].isFinite
                if nonFinite == 0 {
                    e = fp.count
                } else {
                    while e < fp.count && fp[e].isFinite == valid { e += 1 }
                }
                if valid {
                    if !inStretch { wavelet.restart(at: fp[i]) }
                    wavelet.append(UnsafeBufferPointer(rebasing: fp[i..<e]), to: &scales)
                    hold = fp[e - 1]
                } else {
                    if let last = invalid.last, last.upperBound == first + i {
                        invalid[invalid.count - 1] = last.lowerBound..<(first + e)
                    } else {
                        invalid.append((first + i)..<(first + e))
                    }
                    if wavelet.started {
                        let held = [Float](repeating: hold, count: e - i)
                        held.withUnsafeBufferPointer { wavelet.append($0, to: &scales) }
                    } else {
                        for k in [0, 1, 2] { appendZeros(k, e - i) }
                    }
                }
                inStretch = valid
                i = e
            }
        }
    }

    private mutating func appendZeros(_ k: Int, _ n: Int) {
        switch k {
        case 0: scales.w2.append(contentsOf: repeatElement(0, count: n))
        case 1: scales.w4.append(contentsOf: repeatElement(0, count: n))
        default: scales.w5.append(contentsOf: repeatElement(0, count: n))
        }
    }

    /// Copies the grid at fractional indices `position`, `position + 1`, … (linear
    /// interpolation with the one fraction of `position`) into `out`, times `scale`, minus
    /// `level`; `false` (and `out` partly written) when one of them is not valid, not produced
    /// or already dropped.
    /// - Parameters:
    ///   - position: the first fractional grid index.
    ///   - out: receives `out.count` values.
    ///   - level: subtracted before scaling.
    ///   - scale: the factor.
    /// - Complexity: O(out.count).
    func copy(from position: Double, into out: inout [Float], level: Float, scale: Float) -> Bool {
        let i0 = Int(position.rounded(.down))
        let f = Float(position - Double(i0))
        let n = out.count
        guard i0 >= base, i0 + n + (f == 0 ? 0 : 1) <= produced else { return false }
        return x.withUnsafeBufferPointer { xp in
            out.withUnsafeMutableBufferPointer { op in
                let p = xp.baseAddress! + (i0 - base)
                for j in 0..<n {
                    let a = p[j]
                    let v = f == 0 ? a : a + (p[j + 1] - a) * f
                    guard v.isFinite else { return false }
                    op[j] = (v - level) * scale
                }
                return true
            }
        }
    }

    /// The mean of the grid over `count` samples ending at fractional index `position` (each
    /// linearly interpolated), NaN when one is not valid, not produced or already dropped.
    /// - Parameters:
    ///   - position: the last fractional grid index.
    ///   - count: how many samples, one grid step apart.
    func mean(endingAt position: Double, count: Int) -> Float {
        // The values ``copy(from:into:level:scale:)`` gives, summed from the first as they come
        // (no array).
        let from = position - Double(count - 1)
        let i0 = Int(from.rounded(.down))
        let f = Float(from - Double(i0))
        guard i0 >= base, i0 + count + (f == 0 ? 0 : 1) <= produced else { return .nan }
        return x.withUnsafeBufferPointer { xp in
            let p = xp.baseAddress! + (i0 - base)
            var s: Float = 0
            for j in 0..<count {
                let a = p[j]
                let v = f == 0 ? a : a + (p[j + 1] - a) * f
                guard v.isFinite else { return .nan }
                s += v
            }
            return s / Float(count)
        }
    }

    /// Forgets grid samples before grid index `index` (in large steps, so the cost stays linear).
    mutating func drop(before index: Int) {
        let n = min(index - base, x.count)
        guard n > 65_536 || (n > 0 && n > x.count / 2) else { return }
        x.removeFirst(n)
        invalid.removeAll { $0.upperBound <= base + n }
        scales.w2.removeFirst(n)
        scales.w4.removeFirst(n)
        scales.w5.removeFirst(n)
        base += n
    }

    /// Runs `body` on the window of grid indices `from ..< from + count` and the contiguous
    /// stretch of valid positions around `centre`: in place when the window lies in the ring and
    /// no stretch starts inside it (the usual case), otherwise on a copy made by
    /// ``window(from:centre:into:scales:)`` into the scratch buffers.
    /// - Parameters:
    ///   - from: the window's first grid index.
    ///   - centre: the position in the window the stretch must hold.
    ///   - window: scratch of the window's length for the grid (used for a copy).
    ///   - scratch: scratch scales of the window's length (used for a copy).
    ///   - body: reads the scales and the valid stretch.
    func withWindow<R>(
        from: Int, centre: Int, window: inout [Float], scratch: inout QuadraticSplineWavelet.Scales,
        _ body: (QuadraticSplineWavelet.ScaleView, Range<Int>) -> R
    ) -> R {
        let n = window.count
        if from >= base && from + n <= produced {
            let o = from - base
            // The stretch from the invalid runs: the first run ending after the centre, and
            // the one before it.
            let c = from + centre
            var lo = 0, hi = invalid.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if invalid[mid].upperBound <= c { lo = mid + 1 } else { hi = mid }
            }
            let valid: Range<Int>
            if centre < 0 || centre >= n || (lo < invalid.count && invalid[lo].lowerBound <= c) {
                valid = centre..<centre
            } else {
                let a = lo > 0 ? max(invalid[lo - 1].upperBound - from, 0) : 0
                let b = lo < invalid.count ? min(invalid[lo].lowerBound - from, n) : n
                valid = a..<b
            }
            if valid.isEmpty || valid.lowerBound == 0 {
                return scales.w2.withUnsafeBufferPointer { a in
                    scales.w4.withUnsafeBufferPointer { b in
                        scales.w5.withUnsafeBufferPointer { c in
                            body(
                                QuadraticSplineWavelet.ScaleView(
                                    w2: UnsafeBufferPointer(rebasing: a[o..<(o + n)]), w4: UnsafeBufferPointer(rebasing: b[o..<(o + n)]),
                                    w5: UnsafeBufferPointer(rebasing: c[o..<(o + n)])), valid)
                        }
                    }
                }
            }
        }
        let valid = self.window(from: from, centre: centre, into: &window, scales: &scratch)
        return scratch.w2.withUnsafeBufferPointer { a in
            scratch.w4.withUnsafeBufferPointer { b in
                scratch.w5.withUnsafeBufferPointer { c in body(QuadraticSplineWavelet.ScaleView(w2: a, w4: b, w5: c), valid) }
            }
        }
    }

    /// Copies grid indices `from ..< from + window.count` into `window` (NaN where not valid,
    /// before the segment or already dropped, or not produced) and their scales into `scales`,
    /// and returns the contiguous stretch of valid positions around `centre`. Scales before that
    /// stretch are zero (the window-edge rule: the lead before the stretch's first value is that
    /// value, so its derivative is zero).
    /// - Parameters:
    ///   - from: the window's first grid index.
    ///   - centre: the position in the window the stretch must hold.
    func window(from: Int, centre: Int, into window: inout [Float], scales out: inout QuadraticSplineWavelet.Scales) -> Range<Int> {
        let n = window.count
        let lo = max(from, base), hi = min(from + n, produced)
        window.withUnsafeMutableBufferPointer { wp in
            for i in 0..<n { wp[i] = .nan }
            if lo < hi { for g in lo..<hi { wp[g - from] = x[g - base] } }
        }
        var a = centre, b = centre
        guard centre >= 0, centre < n, window[centre].isFinite else { return centre..<centre }
        while a > 0 && window[a - 1].isFinite { a -= 1 }
        while b < n - 1 && window[b + 1].isFinite { b += 1 }
        func copy(_ src: [Float], _ dst: inout [Float]) {
            dst.withUnsafeMutableBufferPointer { dp in
                src.withUnsafeBufferPointer { sp in
                    for i in 0..<n {
                        let g = from + i
                        dp[i] = i < a || g < base || g >= hi ? 0 : sp[g - base]
                    }
                }
            }
        }
        copy(scales.w2, &out.w2)
        copy(scales.w4, &out.w4)
        copy(scales.w5, &out.w5)
        return a..<(b + 1)
    }
}

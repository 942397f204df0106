import Foundation
import Signals

/// Atrial-activity and morphology measures of one rhythm window, from the ECG samples around the
/// window's beats: beat-aligned segments averaged into a template (signal averaging, as in
/// QRST cancellation: Stridh M, Sörnmo L 2001, IEEE Trans Biomed Eng 48:105–111).
///
/// In sinus rhythm every beat has a P wave at a fixed distance before its QRS, so the PR
/// segments average coherently; in atrial fibrillation there is none, and the fibrillatory
/// waves are not locked to the QRS, so the PR segments average out and what is left around the
/// template is larger (the P-wave absence and f-wave criteria of the ECG definition of AF,
/// Hindricks G et al. 2020 ESC Guidelines for AF, Eur Heart J 42:373–498).
///
/// Every segment is smoothed by a 20-ms moving average and has its least-squares line removed
/// (baseline wander); segments with a masked or missing sample are left out.
public struct AtrialActivity: Sendable, Hashable {
    /// PR segments used (beats not classed ventricular whose previous interval is at least
    /// 0.4 s, so the segment does not hold the previous T wave).
    public var segments: Int
    /// P-wave coherence: the power of the averaged PR segment (R − 300 ms … R − 60 ms) over the
    /// mean power of the single segments, corrected for the 1/N an uncorrelated signal averages
    /// to: (ratio − 1/N) / (1 − 1/N); about 1 when every beat has the same P wave, about 0
    /// without atrial activity locked to the QRS.
    public var pWaveCoherence: Double
    /// The same coherence for the QRS (R − 60 ms … R + 60 ms): low for noise, misdetections and
    /// beats of varying morphology.
    public var qrsCoherence: Double
    /// RMS of the PR segments around their template, over the peak-to-peak amplitude of the QRS
    /// template: atrial activity not locked to the QRS (f waves) and noise.
    public var atrialResidual: Double
    /// RMS of what the 20-ms smoothing removed from the PR segments, over the QRS template's
    /// peak-to-peak amplitude: high-frequency noise.
    public var highFrequencyNoise: Double
    /// f-wave band share: the share of the residual's power (each PR segment minus the PR
    /// template, Hann-windowed) between 4 and 9 Hz — the band of the dominant atrial frequency of
    /// atrial fibrillation (Bollmann A, Husser D, Mainardi L et al. 2006, Analysis of surface
    /// electrocardiograms in atrial fibrillation, Europace 8:911–926) — from the segments'
    /// discrete-time Fourier transforms at 4, 5, …, 9 Hz (1-Hz spacing, each standing for its
    /// 1-Hz band) over their power by Parseval: 2 Σ_f |X(f)|² / (rate · Σ x²). This is the
    /// spectral view of the residual that QRST cancellation leaves (Stridh M, Sörnmo L 2001;
    /// Rieta JJ, Castells F, Sánchez C et al. 2004, Atrial activity extraction for atrial
    /// fibrillation analysis using blind source separation, IEEE Trans Biomed Eng
    /// 51:1176–1186, who measure the spectral concentration of the atrial residual around its
    /// 3–9 Hz peak). The segments are 240 ms long (one or two f-wave cycles; the Hann window's
    /// main lobe is ±8 Hz wide), so this says where the residual's power lies — slow f waves
    /// against broadband noise and the remains of P and T waves — rather than estimating a
    /// dominant frequency.
    public var fWaveBandShare: Double

    /// The measures from a window's samples and beats, or `nil` with fewer than 4 usable beats.
    /// - Parameters:
    ///   - samples: the signal around the window (``SampleRing``), NaN where masked.
    ///   - beats: the window's beat times, s, in order.
    ///   - ventricular: per beat, whether the ECG classifier calls it ventricular (`V`): such a
    ///     beat has no PR segment of its own (no conducted P wave before a ventricular ectopic
    ///     beat), so it is left out of the P-wave template.
    ///   - previousBeat: the beat before the window's first, or `nil`.
    ///   - kernel: the ``BandKernel`` of the samples' rate, kept by the caller across windows
    ///     (built here when `nil` or of another rate).
    /// - Complexity: O(beats · segment length).
    init?(samples: SampleRing, beats: [Double], ventricular: [Bool], previousBeat: Double?, kernel: BandKernel? = nil) {
        let rate = samples.sampleRate
        guard rate >= 50 else { return nil }
        let (prStart, prEnd) = Self.prBounds(rate: rate)
        let prLength = prStart - prEnd, qrsLength = 2 * prEnd + 1
        let smooth = max(1, Int((0.020 * rate).rounded()) | 1)
        guard prLength >= 8 else { return nil }
        // The window's segments are cut first, each kind one after another in beat order
        // (``SegmentSet``); each is then smoothed and has its least-squares line removed four
        // segments at a time, one SIMD lane per segment (``SegmentSet/smoothDetrend()``): every
        // lane runs the scalar steps of its own segment in their order, so each segment's values
        // are those of the segment processed alone. The sums over the window's segments (template,
        // power, noise, residual) then run over the segments and their samples in the order
        // averaging the stored segments would; the PR ones in one pass, so their serial sums overlap.
        var qrs = SegmentSet(line: LineGeometry(count: qrsLength), smooth: smooth, measuresNoise: false, capacity: beats.count)
        var prSet = SegmentSet(line: LineGeometry(count: prLength), smooth: smooth, measuresNoise: true, capacity: beats.count)
        var previous = previousBeat
        // The samples of the beat ``readAhead`` beats on are read ahead
        // (``SampleRing/touch(from:count:)``: one sample per cache line) while this beat's
        // segments are cut, so the copies do not wait on memory one after another; what was read
        // only feeds a capacity request (no result depends on it).
        let starts = beats.map { samples.index(atOrAfter: $0) }
        var touched: UInt32 = 0
        for k in 0..<min(Self.readAhead, starts.count) {
            if let n = starts[k] { touched |= samples.touch(from: n - prStart, count: prStart + prEnd + 1) }
        }
        qrs.raw.withUnsafeMutableBufferPointer { qrsRaw in
            prSet.raw.withUnsafeMutableBufferPointer { prRaw in
                for (k, t) in beats.enumerated() {
                    defer { previous = t }
                    if k + Self.readAhead < starts.count, let n = starts[k + Self.readAhead] {
                        touched |= samples.touch(from: n - prStart, count: prStart + prEnd + 1)
                    }
                    guard let r = starts[k] else { continue }
                    let q = qrs.count * qrsLength
                    if samples.segment(
                        from: r - prEnd, count: qrsLength, into: UnsafeMutableBufferPointer(rebasing: qrsRaw[q..<(q + qrsLength)]))
                    {
                        qrs.count += 1
                    }
                    if let p = previous, t - p >= 0.4, !ventricular[k] {
                        let o = prSet.count * prLength
                        if samples.segment(
                            from: r - prStart, count: prLength, into: UnsafeMutableBufferPointer(rebasing: prRaw[o..<(o + prLength)]))
                        {
                            prSet.count += 1
                        }
                    }
                }
            }
        }
        qrs.raw.reserveCapacity(qrs.raw.count + Int(touched & 1))
        let prCount = prSet.count, qrsCount = qrs.count
        guard prCount >= 4, qrsCount >= 4 else { return nil }
        qrs.smoothDetrend()
        prSet.smoothDetrend()
        segments = prCount
        // Template sums (each sample's own sum, in segment order).
        let qrsSum = qrs.templateSum(), prSum = prSet.templateSum()
        let prTemplate = prSum.map { $0 / Double(prCount) }, qrsTemplate = qrsSum.map { $0 / Double(qrsCount) }
        // The residual's Hann window and its Fourier kernels (built once per stream and rate).
        let kernel = kernel.flatMap { $0.rate == rate ? $0 : nil } ?? BandKernel(rate: rate)
        let bands = Self.fWaveBand.count
        let hann = kernel.hann, cosines = kernel.cosines, sines = kernel.sines
        // The serial sums, each over its segments and their samples in order: the QRS power is
        // stepped through beside the PR ones (segment k's samples with PR segment k's first ones),
        // as the sums are independent.
        var qrsPower = 0.0, prPower = 0.0, noise = 0.0, residual = 0.0, windowed = 0.0, bandPower = 0.0
        let shared = min(qrsLength, prLength)
        qrs.smoothed.withUnsafeBufferPointer { q in
            prSet.smoothed.withUnsafeBufferPointer { pr in
                prSet.removed.withUnsafeBufferPointer { removed in
                    prTemplate.withUnsafeBufferPointer { template in
                        hann.withUnsafeBufferPointer { hann in
                            cosines.withUnsafeBufferPointer { cosines in
                                sines.withUnsafeBufferPointer { sines in
                                    // One PR sample's sums; its residual's Fourier sums, every
                                    // frequency in one pass (one lane each, in sample order).
                                    @inline(__always) func step(
                                        _ o: Int, _ i: Int, _ re: inout SIMD8<Double>, _ im: inout SIMD8<Double>
                                    ) {
                                        let s = pr[o + i]
                                        prPower += s * s
                                        let r = removed[o + i]
                                        noise += r * r
                                        let x = s - template[i]
                                        residual += x * x
                                        let w = hann[i] * x
                                        windowed += w * w
                                        let v = SIMD8<Double>(repeating: x)
                                        re += v * cosines[i]
                                        im += v * sines[i]
                                    }
                                    for k in 0..<prCount {
                                        let o = k * prLength
                                        var re = SIMD8<Double>(), im = SIMD8<Double>()
                                        if k < qrsCount {
                                            let oq = k * qrsLength
                                            for i in 0..<shared {
                                                let y = q[oq + i]
                                                qrsPower += y * y
                                                step(o, i, &re, &im)
                                            }
                                            for i in shared..<qrsLength {
                                                let y = q[oq + i]
                                                qrsPower += y * y
                                            }
                                            for i in shared..<prLength { step(o, i, &re, &im) }
                                        } else {
                                            for i in 0..<prLength { step(o, i, &re, &im) }
                                        }
                                        for f in 0..<bands { bandPower += re[f] * re[f] + im[f] * im[f] }
                                    }
                                    for k in prCount..<max(prCount, qrsCount) {
                                        for i in 0..<qrsLength {
                                            let y = q[k * qrsLength + i]
                                            qrsPower += y * y
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        pWaveCoherence = Self.coherence(power: prPower, count: prCount, template: prTemplate)
        qrsCoherence = Self.coherence(power: qrsPower, count: qrsCount, template: qrsTemplate)
        let amplitude = (qrsTemplate.max() ?? 0) - (qrsTemplate.min() ?? 0)
        let n = Double(prCount * prLength)
        atrialResidual = amplitude > 0 ? (residual / n).squareRoot() / amplitude : .nan
        highFrequencyNoise = amplitude > 0 ? (noise / n).squareRoot() / amplitude : .nan
        fWaveBandShare = windowed > 0 ? 2 * bandPower / (rate * windowed) : .nan
    }

    /// The index geometry of a least-squares line over `count` samples: the centre index and
    /// Σ (i − centre)², summed in index order.
    struct LineGeometry {
        let count: Int
        let centre: Double
        let sxx: Double

        init(count: Int) {
            self.count = count
            centre = (Double(count) - 1) / 2
            var sxx = 0.0
            for i in 0..<count {
                let d = Double(i) - centre
                sxx += d * d
            }
            self.sxx = sxx
        }
    }

    /// One kind of segment (QRS or PR) of a window: its segments as cut, one after another
    /// (``count`` of them, each ``LineGeometry/count`` long), and after ``smoothDetrend()`` each
    /// smoothed and detrended, and what the smoothing removed.
    struct SegmentSet {
        let line: LineGeometry
        /// Moving-average width (odd), samples.
        let smooth: Int
        /// Whether ``removed`` is computed (the PR segments' high-frequency noise).
        let measuresNoise: Bool
        /// Segments cut.
        var count = 0
        /// The segments as cut (``SampleRing/segment(from:count:into:)``), room for the capacity
        /// rounded up to whole groups of ``SegmentSet/lanes`` (the lanes past ``count`` are zeros
        /// and their results unused).
        var raw: [Double]
        /// Each segment smoothed (centred moving average of width ``smooth``, the ends averaged
        /// over the samples present) with its least-squares line removed.
        var smoothed: [Double]
        /// Each raw segment with its own least-squares line removed, minus ``smoothed``: what the
        /// smoothing took away (when ``measuresNoise``).
        var removed: [Double]

        /// Σ over the segments, in order, of each sample: the template's sum.
        func templateSum() -> [Double] {
            let n = line.count
            var sum = [Double](repeating: 0, count: n)
            smoothed.withUnsafeBufferPointer { s in
                sum.withUnsafeMutableBufferPointer { sum in
                    for k in 0..<count {
                        let o = k * n
                        for i in 0..<n { sum[i] += s[o + i] }
                    }
                }
            }
            return sum
        }

        /// Segments processed side by side, one per SIMD lane.
        static let lanes = 4

        init(line: LineGeometry, smooth: Int, measuresNoise: Bool, capacity: Int) {
            self.line = line
            self.smooth = smooth
            self.measuresNoise = measuresNoise
            let room = (capacity + Self.lanes - 1) / Self.lanes * Self.lanes * line.count
            raw = [Double](repeating: 0, count: room)
            smoothed = [Double](repeating: 0, count: room)
            removed = measuresNoise ? [Double](repeating: 0, count: room) : []
        }

        /// Fills ``smoothed`` (and ``removed``) from ``raw``, ``lanes`` segments at a time. Per
        /// lane, the steps and their order are those of one segment alone: the running sum
        /// (prefix sums, in sample order), the moving average from it and its sum, the means,
        /// Σ (i − centre)·(x − mean), the slopes, and the line removed sample by sample.
        mutating func smoothDetrend() {
            typealias V = SIMD4<Double>
            let n = line.count, h = smooth / 2, measuresNoise = measuresNoise, width = smooth
            let centre = line.centre, sxx = line.sxx, length = Double(n)
            guard count > 0, n > 0 else { return }
            var prefix = [V](repeating: .zero, count: n + 1)
            var values = [V](repeating: .zero, count: n)
            var smoothedLanes = [V](repeating: .zero, count: n)
            let groups = (count + Self.lanes - 1) / Self.lanes
            raw.withUnsafeBufferPointer { raw in
                smoothed.withUnsafeMutableBufferPointer { out in
                    removed.withUnsafeMutableBufferPointer { removedOut in
                        prefix.withUnsafeMutableBufferPointer { prefix in
                            values.withUnsafeMutableBufferPointer { x in
                                smoothedLanes.withUnsafeMutableBufferPointer { s in
                                    for g in 0..<groups {
                                        let o0 = 4 * g * n, o1 = o0 + n, o2 = o1 + n, o3 = o2 + n
                                        var running = V.zero
                                        for i in 0..<n {
                                            let v = V(raw[o0 + i], raw[o1 + i], raw[o2 + i], raw[o3 + i])
                                            x[i] = v
                                            running += v
                                            prefix[i + 1] = running
                                        }
                                        var smoothedMean = V.zero
                                        for i in 0..<n {
                                            let v: V
                                            if width > 1 {
                                                let lo = max(0, i - h), hi = min(n, i + h + 1)
                                                v = (prefix[hi] - prefix[lo]) / V(repeating: Double(hi - lo))
                                            } else {
                                                v = x[i]
                                            }
                                            s[i] = v
                                            smoothedMean += v
                                        }
                                        smoothedMean /= V(repeating: length)
                                        let rawMean = prefix[n] / V(repeating: length)
                                        var smoothedCovariance = V.zero, rawCovariance = V.zero
                                        for i in 0..<n {
                                            let d = V(repeating: Double(i) - centre)
                                            smoothedCovariance += d * (s[i] - smoothedMean)
                                            if measuresNoise { rawCovariance += d * (x[i] - rawMean) }
                                        }
                                        let smoothedSlope = sxx > 0 ? smoothedCovariance / V(repeating: sxx) : .zero
                                        let rawSlope = sxx > 0 ? rawCovariance / V(repeating: sxx) : .zero
                                        for i in 0..<n {
                                            let d = V(repeating: Double(i) - centre)
                                            let v = s[i] - smoothedMean - smoothedSlope * d
                                            out[o0 + i] = v[0]
                                            out[o1 + i] = v[1]
                                            out[o2 + i] = v[2]
                                            out[o3 + i] = v[3]
                                            if measuresNoise {
                                                let r = (x[i] - rawMean - rawSlope * d) - v
                                                removedOut[o0 + i] = r[0]
                                                removedOut[o1 + i] = r[1]
                                                removedOut[o2 + i] = r[2]
                                                removedOut[o3 + i] = r[3]
                                            }
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    }
    /// Beats whose samples are read ahead (``SampleRing/touch(from:count:)``) of the one cut.
    static let readAhead = 8

    /// The whole frequencies (Hz) of ``fWaveBandShare``'s band.
    static let fWaveBand = 4...9

    /// The PR segment's bounds at a sample rate, samples before R: R − 300 ms … R − 60 ms.
    static func prBounds(rate: Double) -> (start: Int, end: Int) {
        (Int((0.300 * rate).rounded()), Int((0.060 * rate).rounded()))
    }

    /// The Hann window of a PR segment and the Fourier kernels of ``fWaveBand`` (window times
    /// cosine and sine at each whole frequency: per sample, one lane per frequency, the lanes past
    /// the band zero) at one sample rate: the same for every window of a stream, so built once
    /// (their trigonometric functions cost more than a window's transforms).
    struct BandKernel: Sendable {
        let rate: Double
        let hann: [Double]
        let cosines: [SIMD8<Double>]
        let sines: [SIMD8<Double>]

        init(rate: Double) {
            self.rate = rate
            let (start, end) = AtrialActivity.prBounds(rate: rate)
            let n = start - end
            let hann = (0..<n).map { 0.5 - 0.5 * cos(2 * Double.pi * Double($0) / Double(max(1, n - 1))) }
            precondition(AtrialActivity.fWaveBand.count <= 8)
            var cosines = [SIMD8<Double>](repeating: .zero, count: n), sines = cosines
            for (lane, f) in AtrialActivity.fWaveBand.enumerated() {
                let w = 2 * Double.pi * Double(f) / rate
                for i in 0..<n {
                    cosines[i][lane] = hann[i] * cos(w * Double(i))
                    sines[i][lane] = hann[i] * sin(w * Double(i))
                }
            }
            self.hann = hann
            self.cosines = cosines
            self.sines = sines
        }
    }

    /// Coherence of `count` segments from their summed power (Σ x² over every sample of every
    /// segment) and their template.
    static func coherence(power: Double, count: Int, template: [Double]) -> Double {
        let n = Double(count)
        let single = power / n
        var averaged = 0.0
        for x in template { averaged += x * x }
        guard single > 0 else { return .nan }
        return (averaged / single - 1 / n) / (1 - 1 / n)
    }
}

/// The recent samples of one ECG stream, so a window's segments can be cut once its beats are
/// known; samples before a time no open window needs are dropped.
///
/// The stream's blocks are kept as they came (their first column and flags share the blocks'
/// storage; times are computed from each block's time base when asked), so taking a block costs
/// O(1), not a copy per sample.
struct SampleRing: Sendable {
    // One entry per block kept (structure of arrays, so reading a time copies no array):
    // the index since the stream start of its first sample and one past its last, its first
    // column and flags (sharing the block's storage), and its time base (``SampleBlock/time(at:)``:
    // `base + Double(firstSample + j) / rate` when uniform, else `explicitTimes`).
    private var firsts: [Int] = []
    private var ends: [Int] = []
    private var values: [[Float]] = []
    private var flags: [[UInt8]] = []
    private var uniform: [Bool] = []
    private var bases: [Double] = []
    private var firstSamples: [Int] = []
    private var rates: [Double] = []
    private var explicitTimes: [[Double]] = []
    /// Whether consecutive samples of the block are closer than the gap limit by construction:
    /// a uniform time base with spacing 1/rate ≤ 1.2/sampleRate, below the limit 1.5/sampleRate
    /// by far more than the rounding of the computed times.
    private var closeSpaced: [Bool] = []
    /// Index (since the stream start) of the first sample kept, and one past the last.
    private var firstKept = 0
    private var total = 0
    /// Rate in Hz (the stream's nominal rate, else the first block's median spacing).
    var sampleRate: Double = 0
    /// Samples kept.
    var count: Int { total - firstKept }

    /// Takes a block's first column (masked samples read as NaN).
    mutating func append(_ block: SampleBlock) {
        guard let column = block.columns.first, block.count > 0 else { return }
        firsts.append(total)
        total += column.count
        ends.append(total)
        values.append(column)
        flags.append(block.flags)
        firstSamples.append(block.firstSample)
        switch block.time {
        case .uniform(let start, let rate):
            uniform.append(true)
            bases.append(start)
            rates.append(rate)
            explicitTimes.append([])
            closeSpaced.append(rate > 0 && sampleRate > 0 && 1 / rate <= 1.2 / sampleRate)
        case .explicit(let t):
            uniform.append(false)
            bases.append(0)
            rates.append(0)
            explicitTimes.append(t)
            closeSpaced.append(false)
        }
    }

    /// The run (block) holding sample `absolute` (since the stream start).
    private func run(holding absolute: Int) -> Int {
        var lo = 0, hi = firsts.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if firsts[mid] <= absolute { lo = mid } else { hi = mid - 1 }
        }
        return lo
    }

    /// Time (s) of sample `j` of run `r`, as ``SampleBlock/time(at:)`` computes it.
    private func time(run r: Int, _ j: Int) -> Double {
        uniform[r] ? bases[r] + Double(firstSamples[r] + j) / rates[r] : explicitTimes[r][j]
    }

    /// Time (s) of kept sample `i`.
    func time(at i: Int) -> Double {
        let a = firstKept + i
        let r = run(holding: a)
        return time(run: r, a - firsts[r])
    }

    /// The index of the first kept sample at or after `t` (times in order).
    /// The samples are nearly evenly spaced, so the search starts where the rate puts `t` and
    /// steps to the answer; it falls back to halving when that takes more than 4 steps (a gap).
    private func lowerBound(_ t: Double) -> Int {
        let n = count
        if n > 0 && sampleRate > 0 {
            let x = ((t - time(at: 0)) * sampleRate).rounded(.up)
            if x.isFinite {
                var g = Int(max(0, min(Double(n), x))), steps = 0
                while g > 0 && steps < 4 && time(at: g - 1) >= t {
                    g -= 1
                    steps += 1
                }
                while g < n && steps < 4 && time(at: g) < t {
                    g += 1
                    steps += 1
                }
                // The first sample at or after t (times in order: the one index halving finds).
                if (g == 0 || time(at: g - 1) < t) && (g == n || time(at: g) >= t) { return g }
            }
        }
        var lo = 0, hi = n
        while lo < hi {
            let mid = (lo + hi) / 2
            if time(at: mid) < t { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    /// Drops samples before `time`.
    mutating func drop(before time: Double) {
        let lo = lowerBound(time)
        // Amortised: only compact when the dropped part is large.
        guard (lo > 0 && lo >= count / 2) || lo > 65_536 else { return }
        firstKept += lo
        var k = 0
        while k < ends.count && ends[k] <= firstKept { k += 1 }
        guard k > 0 else { return }
        firsts.removeFirst(k)
        ends.removeFirst(k)
        values.removeFirst(k)
        flags.removeFirst(k)
        uniform.removeFirst(k)
        bases.removeFirst(k)
        firstSamples.removeFirst(k)
        rates.removeFirst(k)
        explicitTimes.removeFirst(k)
        closeSpaced.removeFirst(k)
    }

    /// The index of the first sample at or after `t` (within half a sample), or `nil`.
    func index(atOrAfter t: Double) -> Int? {
        let lo = lowerBound(t)
        if lo > 0 && t - time(at: lo - 1) < 0.5 / sampleRate { return lo - 1 }
        return lo < count ? lo : nil
    }

    /// Reads the kept samples `start..<start + n` (clamped to those kept) one per 64-byte line
    /// of values and of flags, so that their cache lines are fetched ahead of
    /// ``segment(from:count:into:)``: a software prefetch.
    /// - Returns: the OR of the values' bit patterns and the flags read (meaningless; it only
    ///   makes the reads happen).
    func touch(from start: Int, count n: Int) -> UInt32 {
        let lo = max(0, start), hi = min(count, start + n)
        guard lo < hi else { return 0 }
        var acc: UInt32 = 0
        var a = firstKept + lo
        let end = firstKept + hi
        var r = run(holding: a)
        while a < end {
            if a >= ends[r] {
                r += 1
                continue
            }
            let j0 = a - firsts[r], j1 = min(end, ends[r]) - firsts[r]
            values[r].withUnsafeBufferPointer { v in
                flags[r].withUnsafeBufferPointer { f in
                    var j = j0
                    while j < j1 {
                        acc |= v[j].bitPattern
                        j += 16
                    }
                    j = j0
                    while j < j1 {
                        acc |= UInt32(f[j])
                        j += 64
                    }
                    acc |= v[j1 - 1].bitPattern | UInt32(f[j1 - 1])
                }
            }
            a = j1 + firsts[r]
        }
        return acc
    }

    /// Puts `count` samples from index `start` as Double into `out` (which must hold at least
    /// `count`) and returns `true`, or returns `false` when they run outside the kept samples,
    /// hold a masked sample or a gap (spacing over 1.5 samples); `out` is then not meaningful.
    func segment(from start: Int, count n: Int, into out: UnsafeMutableBufferPointer<Double>) -> Bool {
        guard start >= 0, start + n <= count, n > 0 else { return false }
        precondition(out.count >= n)
        let maxGap = 1.5 / sampleRate
        let mask = SampleFlags.maskingFlags.rawValue
        var a = firstKept + start, k = 0
        var r = run(holding: a)
        while k < n {
            // The part of the segment in run r (a block): samples j0..<j0 + m.
            if a >= ends[r] { r += 1 }
            let j0 = a - firsts[r], m = min(n - k, ends[r] - a)
            if k > 0 && j0 == 0 && time(run: r, 0) - time(run: r - 1, ends[r - 1] - firsts[r - 1] - 1) > maxGap { return false }
            if !closeSpaced[r] {
                for j in max(j0, 1)..<(j0 + m) where j > j0 || k > 0 {
                    if time(run: r, j) - time(run: r, j - 1) > maxGap { return false }
                }
            }
            // One pass without early exit (it vectorises): every sample converted, the flags
            // OR-ed and the largest exponent field kept; a masked flag or an all-ones exponent
            // (infinite or NaN) then rejects the segment, as testing each sample would.
            let ok = values[r].withUnsafeBufferPointer { values in
                flags[r].withUnsafeBufferPointer { flags in
                    var flagged: UInt8 = 0, exponent: UInt32 = 0
                    for j in j0..<(j0 + m) {
                        let v = values[j]
                        flagged |= flags[j]
                        exponent = max(exponent, v.bitPattern & 0x7F80_0000)
                        out[k + j - j0] = Double(v)
                    }
                    return flagged & mask == 0 && exponent != 0x7F80_0000
                }
            }
            guard ok else { return false }
            k += m
            a += m
        }
        return true
    }
}

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
    /// PR segments used (beats whose previous interval is at least 0.4 s, so the segment does
    /// not hold the previous T wave).
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

    /// The measures from a window's samples and beats, or `nil` with fewer than 4 usable beats.
    /// - Parameters:
    ///   - samples: the signal around the window (``SampleRing``), NaN where masked.
    ///   - beats: the window's beat times, s, in order.
    ///   - previousBeat: the beat before the window's first, or `nil`.
    /// - Complexity: O(beats · segment length).
    init?(samples: SampleRing, beats: [Double], previousBeat: Double?) {
        let rate = samples.sampleRate
        guard rate >= 50 else { return nil }
        let prStart = Int((0.300 * rate).rounded()), prEnd = Int((0.060 * rate).rounded())
        let prLength = prStart - prEnd, qrsLength = 2 * prEnd + 1
        let smooth = max(1, Int((0.020 * rate).rounded()) | 1)
        guard prLength >= 8 else { return nil }
        var pr = [[Double]](), prRaw = [[Double]](), qrs = [[Double]]()
        var previous = previousBeat
        for t in beats {
            defer { previous = t }
            guard let r = samples.index(atOrAfter: t) else { continue }
            if let q = samples.segment(from: r - prEnd, count: qrsLength) {
                qrs.append(Self.detrended(Self.smoothed(q, width: smooth)))
            }
            guard let p = previous, t - p >= 0.4, let s = samples.segment(from: r - prStart, count: prLength) else { continue }
            prRaw.append(s)
            pr.append(Self.detrended(Self.smoothed(s, width: smooth)))
        }
        guard pr.count >= 4, qrs.count >= 4 else { return nil }
        segments = pr.count
        let prTemplate = Self.mean(pr), qrsTemplate = Self.mean(qrs)
        pWaveCoherence = Self.coherence(pr, template: prTemplate)
        qrsCoherence = Self.coherence(qrs, template: qrsTemplate)
        let amplitude = (qrsTemplate.max() ?? 0) - (qrsTemplate.min() ?? 0)
        var residual = 0.0, noise = 0.0
        for (k, s) in pr.enumerated() {
            for i in s.indices {
                let d = s[i] - prTemplate[i]
                residual += d * d
            }
            let raw = Self.detrended(prRaw[k])
            for i in s.indices {
                let d = raw[i] - s[i]
                noise += d * d
            }
        }
        let n = Double(pr.count * prLength)
        atrialResidual = amplitude > 0 ? (residual / n).squareRoot() / amplitude : .nan
        highFrequencyNoise = amplitude > 0 ? (noise / n).squareRoot() / amplitude : .nan
    }

    static func coherence(_ segments: [[Double]], template: [Double]) -> Double {
        let n = Double(segments.count)
        var single = 0.0
        for s in segments { for x in s { single += x * x } }
        single /= n
        var averaged = 0.0
        for x in template { averaged += x * x }
        guard single > 0 else { return .nan }
        return (averaged / single - 1 / n) / (1 - 1 / n)
    }

    static func mean(_ segments: [[Double]]) -> [Double] {
        var out = [Double](repeating: 0, count: segments[0].count)
        for s in segments { for i in s.indices { out[i] += s[i] } }
        let n = Double(segments.count)
        return out.map { $0 / n }
    }

    /// Centred moving average of odd `width`, the ends averaged over the samples present.
    static func smoothed(_ x: [Double], width: Int) -> [Double] {
        guard width > 1 else { return x }
        let h = width / 2
        var prefix = [Double](repeating: 0, count: x.count + 1)
        for i in x.indices { prefix[i + 1] = prefix[i] + x[i] }
        return x.indices.map { i in
            let lo = max(0, i - h), hi = min(x.count, i + h + 1)
            return (prefix[hi] - prefix[lo]) / Double(hi - lo)
        }
    }

    /// `x` minus its least-squares line.
    static func detrended(_ x: [Double]) -> [Double] {
        let n = Double(x.count)
        let mt = (n - 1) / 2
        var mx = 0.0
        for v in x { mx += v }
        mx /= n
        var sxy = 0.0, sxx = 0.0
        for (i, v) in x.enumerated() {
            let d = Double(i) - mt
            sxy += d * (v - mx)
            sxx += d * d
        }
        let slope = sxx > 0 ? sxy / sxx : 0
        return x.enumerated().map { i, v in v - mx - slope * (Double(i) - mt) }
    }
}

/// The recent samples of one ECG stream, with their times, so a window's segments can be cut
/// once its beats are known; samples before a time no open window needs are dropped.
struct SampleRing: Sendable {
    /// Times (s) and values (NaN where masked) of the samples kept, in order.
    private(set) var times: [Double] = []
    private(set) var values: [Float] = []
    /// Rate in Hz (the stream's nominal rate, else the first block's median spacing).
    var sampleRate: Double = 0
    /// The time of the last sample received (−∞ before any).
    var lastTime: Double { times.last ?? -.infinity }

    /// Appends a block's first column.
    mutating func append(times t: [Double], values v: [Float]) {
        times += t
        values += v
    }

    /// Drops samples before `time`.
    mutating func drop(before time: Double) {
        var lo = 0, hi = times.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if times[mid] < time { lo = mid + 1 } else { hi = mid }
        }
        // Amortised: only compact when the dropped part is large.
        if lo > 0 && lo >= times.count / 2 {
            times.removeFirst(lo)
            values.removeFirst(lo)
        } else if lo > 65_536 {
            times.removeFirst(lo)
            values.removeFirst(lo)
        }
    }

    /// The index of the first sample at or after `t` (within half a sample), or `nil`.
    func index(atOrAfter t: Double) -> Int? {
        var lo = 0, hi = times.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if times[mid] < t { lo = mid + 1 } else { hi = mid }
        }
        if lo > 0 && t - times[lo - 1] < 0.5 / sampleRate { return lo - 1 }
        return lo < times.count ? lo : nil
    }

    /// `count` samples from index `start` as Double, or `nil` when they run outside the kept
    /// samples, hold a masked sample or a gap (spacing over 1.5 samples).
    func segment(from start: Int, count: Int) -> [Double]? {
        guard start >= 0, start + count <= times.count, count > 0 else { return nil }
        let maxGap = 1.5 / sampleRate
        var out = [Double]()
        out.reserveCapacity(count)
        for i in start..<(start + count) {
            let v = values[i]
            guard v.isFinite else { return nil }
            if i > start && times[i] - times[i - 1] > maxGap { return nil }
            out.append(Double(v))
        }
        return out
    }
}

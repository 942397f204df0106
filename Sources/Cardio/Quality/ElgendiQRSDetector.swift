import DSP

/// QRS detection with two moving averages of the squared band-passed ECG (Elgendi 2013): the
/// independent second detector behind bSQI, deliberately unlike the Pan–Tompkins family (no
/// derivative, no adaptive signal/noise peak levels, no search-back).
///
/// Steps, with the parameters Elgendi optimised on MIT-BIH and evaluated on 11 databases:
/// 1. third-order Butterworth band-pass 8–20 Hz, applied forward and backward (zero phase, so
///    beat positions are not delayed; ``ZeroPhaseSOSFilter`` with SciPy's odd padding);
/// 2. squaring, `z = y²`;
/// 3. centred moving averages of `z` over W1 = 97 ms (`MA_QRS`, the QRS) and W2 = 611 ms
///    (`MA_beat`, a beat); near the ends the average is over the samples present;
/// 4. blocks of interest where `MA_QRS > MA_beat + α` with offset `α = β·mean(z)`, β = 0.08;
/// 5. blocks shorter than W1 are rejected as noise; each remaining block holds one beat, at the
///    first maximum of `z` in the block (the largest |band-passed| sample).
///
/// **Whole-signal, not streaming.** The offset uses the mean of `z` over the signal given, as in
/// the paper; ``ECGQuality`` calls it on each quality window (10 s by default), which keeps every
/// window's result independent of the rest of the recording. No refractory period is applied
/// (the paper has none; W1 and the block rule keep one beat per QRS).
///
/// Source: M. Elgendi, "Fast QRS detection with an optimized knowledge-based method: evaluation
/// on 11 standard ECG databases", *PLoS ONE* 8(9):e73557, 2013, doi:10.1371/journal.pone.0073557.
public struct ElgendiQRSDetector: Sendable {
    /// Sample rate, Hz.
    public let sampleRate: Double
    /// W1, the QRS moving-average window, samples (97 ms rounded).
    public let qrsWindowSamples: Int
    /// W2, the beat moving-average window, samples (611 ms rounded).
    public let beatWindowSamples: Int
    /// β, the offset factor applied to the mean of the squared band-passed signal (0.08).
    public let offsetFactor: Double

    let filter: ZeroPhaseSOSFilter

    /// Creates a detector.
    /// - Parameters:
    ///   - sampleRate: Hz, at least 50 (the 20-Hz edge must lie below Nyquist).
    ///   - qrsWindowSeconds: W1, seconds (default 0.097, Elgendi 2013).
    ///   - beatWindowSeconds: W2, seconds (default 0.611, Elgendi 2013).
    ///   - offsetFactor: β (default 0.08, Elgendi 2013).
    /// - Complexity: O(1).
    public init(
        sampleRate: Double, qrsWindowSeconds: Double = 0.097, beatWindowSeconds: Double = 0.611,
        offsetFactor: Double = 0.08
    ) {
        precondition(sampleRate.isFinite && sampleRate >= 50, "ElgendiQRSDetector needs sampleRate ≥ 50 Hz")
        precondition(
            qrsWindowSeconds > 0 && beatWindowSeconds > qrsWindowSeconds,
            "need 0 < qrsWindowSeconds < beatWindowSeconds")
        self.sampleRate = sampleRate
        qrsWindowSamples = max(1, Int((qrsWindowSeconds * sampleRate).rounded(.toNearestOrEven)))
        beatWindowSamples = max(1, Int((beatWindowSeconds * sampleRate).rounded(.toNearestOrEven)))
        self.offsetFactor = offsetFactor
        // 8 and 20 Hz lie inside (0, fs/2) for fs ≥ 50 Hz, so the design cannot fail.
        let design = try! ButterworthDesign(order: 3, band: .bandPass(low: 8, high: 20), sampleRate: sampleRate)
        filter = ZeroPhaseSOSFilter(design.sos)
    }

    /// Detects the beats of a signal.
    /// - Parameter signal: ECG samples (any unit; polarity does not matter).
    /// - Returns: beat sample indices, ascending; empty when the signal is too short to filter
    ///   (no more than the filter's padding, about 0.1 s) or flat.
    /// - Complexity: O(n); allocates a few `Double` arrays of the signal's length.
    public func detect(_ signal: [Float]) -> [Int] {
        signal.withUnsafeBufferPointer { detect($0) }
    }

    /// Detects the beats of a signal.
    /// - Parameter signal: ECG samples (any unit).
    /// - Returns: beat sample indices, ascending (see ``detect(_:)-([Float])``).
    /// - Complexity: O(n).
    public func detect(_ signal: UnsafeBufferPointer<Float>) -> [Int] {
        let n = signal.count
        guard n > filter.padLength else { return [] }
        // A flat signal filters to rounding noise, which must not turn into beats.
        let first = signal[0]
        guard signal.contains(where: { $0 != first }) else { return [] }
        var z = [Double](repeating: 0, count: n)
        z.withUnsafeMutableBufferPointer { zb in
            for i in 0..<n { zb[i] = Double(signal[i]) }
        }
        do {
            try z.withUnsafeMutableBufferPointer { zb in
                try filter.apply(UnsafeBufferPointer(zb), into: zb)
            }
        } catch {
            return []
        }
        return detectSquared(&z)
    }

    /// Steps 2–5 on the band-passed signal `z` (squared in place).
    func detectSquared(_ z: inout [Double]) -> [Int] {
        let n = z.count
        var prefix = [Double](repeating: 0, count: n + 1)
        var total = 0.0
        z.withUnsafeMutableBufferPointer { zb in
            prefix.withUnsafeMutableBufferPointer { pb in
                for i in 0..<n {
                    let v = zb[i] * zb[i]
                    zb[i] = v
                    total += v
                    pb[i + 1] = total
                }
            }
        }
        let alpha = offsetFactor * total / Double(n)
        guard total > 0 else { return [] }
        let w1 = qrsWindowSamples, w2 = beatWindowSamples
        let h1 = (w1 - 1) / 2, h2 = (w2 - 1) / 2
        var beats: [Int] = []
        z.withUnsafeBufferPointer { zb in
            prefix.withUnsafeBufferPointer { pb in
                @inline(__always) func average(_ k: Int, _ w: Int, _ h: Int) -> Double {
                    let lo = max(0, k - h), hi = min(n, k - h + w)
                    return (pb[hi] - pb[lo]) / Double(hi - lo)
                }
                // Where both windows lie inside the signal the counts are W1 and W2 (same
                // division as at the edges, so results do not depend on this shortcut).
                let interior = h2..<max(h2, n - (w2 - h2) + 1)
                let dw1 = Double(w1), dw2 = Double(w2)
                var start = -1
                for k in 0...n {
                    let inside: Bool
                    if interior.contains(k) {
                        inside = (pb[k - h1 + w1] - pb[k - h1]) / dw1 > (pb[k - h2 + w2] - pb[k - h2]) / dw2 + alpha
                    } else {
                        inside = k < n && average(k, w1, h1) > average(k, w2, h2) + alpha
                    }
                    if inside {
                        if start < 0 { start = k }
                    } else if start >= 0 {
                        if k - start >= w1 {
                            var best = start
                            for j in (start + 1)..<k where zb[j] > zb[best] { best = j }
                            beats.append(best)
                        }
                        start = -1
                    }
                }
            }
        }
        return beats
    }
}

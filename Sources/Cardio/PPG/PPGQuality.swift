/// PPG signal quality of one window from indices of the literature, on the pulse channel's
/// 25-Hz grid (band-passed 0.4–4 Hz) and its pulses.
///
/// - Skewness SQI: M. Elgendi, "Optimal signal quality index for photoplethysmogram signals",
///   Bioengineering 3(4):21 (2016), doi:10.3390/bioengineering3040021 (skewness was the best of
///   eight indices); here of the window's unmasked band-passed samples.
/// - Template correlation and feasibility: C. Orphanidou et al., "Signal-quality indices for the
///   electrocardiogram and photoplethysmogram: derivation and applications to wireless
///   monitoring", IEEE JBHI 19(3):832–838 (2015), doi:10.1109/JBHI.2014.2338351: pulse rate
///   40–180 bpm, longest interval < 3 s, longest / shortest interval < 2.2; each pulse cut
///   ± half the median interval around its peak, averaged into a template; the mean Pearson
///   correlation with the template must reach 0.86 for PPG.
/// - Perfusion index: pulsatile amplitude (5th–95th percentile range of the band-passed window)
///   over the mean raw level, × 100 (defined only when the raw level is positive: reflectance
///   or light intensity, not ADC units with an arbitrary offset).
/// - Relative in-band power: power within ±0.2 Hz of the window's heart rate and of its second
///   harmonic over the power in 0.4–4 Hz (spectral purity as in the SQIs compared by Elgendi
///   2016).
/// - Accelerometer energy: RMS of the band-passed acceleration vector (g).
///
/// **Label** (documented rule): `unacceptable` when more than 20 % of the window is masked, or
/// Orphanidou's feasibility rules fail, or the template correlation is below 0.66; `good` when
/// the rules hold, the correlation is at least 0.86 (Orphanidou's PPG threshold) and the wrist
/// is still (acceleration RMS ≤ 0.1 g when an accelerometer is present: a periodic movement
/// can pass the template test while the pulses are motion); `acceptable` otherwise. An
/// `unacceptable` window is *unacceptable for its rhythm only* (``PPGQualityResult/rhythmOnly``)
/// when the one rule it fails is longest / shortest interval < 2.2 — a missed pulse, an ectopic
/// beat or atrial fibrillation, the pulse shapes intact (masked ≤ 20 %, correlation ≥ 0.66,
/// rate 40–180 bpm, longest interval < 3 s).
enum PPGQuality {
    /// Reusable buffers of ``assess(values:raw:masked:pulses:gridRate:inBandPower:accelerationRMS:startSeconds:endSeconds:workspace:)``
    /// (no allocation per window once they have grown).
    struct Workspace {
        var kept: [Double] = []
        var intervals: [Double] = []
        var segments: [Double] = []
        var template: [Double] = []
        var bottom: [Double] = []
        var top: [Double] = []
    }

    /// Assesses one window.
    /// - Parameters:
    ///   - values: band-passed grid values of the window (masked points as 0).
    ///   - raw: the held raw values on the grid, or empty.
    ///   - masked: whether each grid point is masked.
    ///   - pulses: pulse positions in grid points from the window start.
    ///   - gridRate: grid rate, Hz.
    ///   - workspace: reusable buffers.
    /// - Returns: the indices and label (the in-band power and acceleration are filled by the
    ///   caller).
    /// - Complexity: O(window length + pulses · pulse width) on average (the percentiles by
    ///   selection, not sorting).
    static func assess(
        values: [Float], raw: [Float], masked: [Bool], pulses: [Double], gridRate: Double,
        inBandPower: Double, accelerationRMS: Double?, startSeconds: Double, endSeconds: Double,
        workspace w: inout Workspace
    ) -> PPGQualityResult {
        let n = values.count
        var maskedCount = 0
        var sum = 0.0, rawSum = 0.0
        w.kept.removeAll(keepingCapacity: true)
        for i in 0..<n {
            if masked[i] {
                maskedCount += 1
            } else {
                w.kept.append(Double(values[i]))
                sum += Double(values[i])
                if !raw.isEmpty { rawSum += Double(raw[i]) }
            }
        }
        let maskedFraction = Double(maskedCount) / Double(max(1, n))
        var skewness = Double.nan, perfusion = Double.nan
        let count = w.kept.count
        if count >= 3 {
            let mean = sum / Double(count)
            var m2 = 0.0, m3 = 0.0
            for v in w.kept {
                let d = v - mean
                m2 += d * d
                m3 += d * d * d
            }
            m2 /= Double(count)
            m3 /= Double(count)
            if m2 > 0 { skewness = m3 / (m2 * m2.squareRoot()) }
            let high = Int(0.95 * Double(count - 1)), low = Int(0.05 * Double(count - 1))
            let ac: Double
            if low < extremeLimit && count - high <= extremeLimit {
                let (bottom, top) = extremes(w.kept, low: low, high: high, workspace: &w)
                ac = top - bottom
            } else {
                ac = w.kept.withUnsafeMutableBufferPointer { k in
                    let top = select(k, high)
                    // Everything below index `high` is now ≤ it: the low percentile lies there.
                    return top - select(UnsafeMutableBufferPointer(rebasing: k[0..<high]), low)
                }
            }
            let dc = raw.isEmpty ? 0 : rawSum / Double(count)
            if dc > 0 { perfusion = 100 * ac / dc }
        }
        let (correlation, feasible, ratioOnly) = templateCorrelation(
            values: values, masked: masked, pulses: pulses, gridRate: gridRate, workspace: &w)
        let label: PPGQualityLabel
        var rhythmOnly = false
        if maskedFraction > 0.2 || !feasible || !(correlation >= 0.66) {
            label = .unacceptable
            rhythmOnly = maskedFraction <= 0.2 && correlation >= 0.66 && ratioOnly
        } else if correlation >= 0.86 && !isMotion(accelerationRMS: accelerationRMS) {
            label = .good
        } else {
            label = .acceptable
        }
        return PPGQualityResult(
            startSeconds: startSeconds, endSeconds: endSeconds, label: label, skewness: skewness,
            perfusionIndex: perfusion, templateCorrelation: correlation, inBandPower: inBandPower,
            accelerationRMS: accelerationRMS ?? .nan, maskedFraction: maskedFraction, pulseCount: pulses.count,
            rhythmOnly: rhythmOnly)
    }

    /// Acceleration RMS above which a window has motion, g: the wrist is not still, so pulses
    /// may follow the movement (a periodic movement can pass the template test). A `good` label
    /// needs a still window, and the pulse-count heart rate and PRV leave windows with motion out.
    static let stillLimitG = 0.1

    /// Whether a window with this acceleration RMS (g; `nil` without accelerometer) has motion.
    static func isMotion(accelerationRMS: Double?) -> Bool { (accelerationRMS ?? 0) > stillLimitG }

    /// Largest number of values ``extremes(_:low:high:workspace:)`` keeps on either side (a
    /// window of up to about 1 280 kept points; longer ones use ``select(_:_:)``).
    static let extremeLimit = 64

    /// The `low`-th and the `high`-th smallest values of `a` (0-based, `low < high`), for order
    /// statistics near both ends: one pass keeps the `low + 1` smallest and the
    /// `count − high` largest values seen, each in a short sorted buffer (a value enters only
    /// when it beats the buffer's worst). The same values as ``select(_:_:)`` (an order
    /// statistic is a value, whatever the method), without reordering `a`.
    /// - Complexity: O(count) comparisons plus O(kept²) in the worst case (data sorted in
    ///   reverse), kept ≤ ``extremeLimit``.
    static func extremes(_ a: [Double], low: Int, high: Int, workspace w: inout Workspace) -> (low: Double, high: Double) {
        let n = a.count
        let nb = low + 1, nt = n - high
        precondition(low < high && high < n && nb <= extremeLimit && nt <= extremeLimit)
        w.bottom.removeAll(keepingCapacity: true)
        w.top.removeAll(keepingCapacity: true)
        w.bottom.append(contentsOf: repeatElement(0, count: nb))
        w.top.append(contentsOf: repeatElement(0, count: nt))
        a.withUnsafeBufferPointer { x in
            w.bottom.withUnsafeMutableBufferPointer { b in
                w.top.withUnsafeMutableBufferPointer { t in
                    // b: the nb smallest so far, ascending; t: the nt largest so far, descending.
                    var nbHeld = 0, ntHeld = 0
                    for i in 0..<n {
                        let v = x[i]
                        if nbHeld < nb || v < b[nb - 1] {
                            var j = nbHeld < nb ? nbHeld : nb - 1
                            while j > 0 && b[j - 1] > v {
                                b[j] = b[j - 1]
                                j -= 1
                            }
                            b[j] = v
                            if nbHeld < nb { nbHeld += 1 }
                        }
                        if ntHeld < nt || v > t[nt - 1] {
                            var j = ntHeld < nt ? ntHeld : nt - 1
                            while j > 0 && t[j - 1] < v {
                                t[j] = t[j - 1]
                                j -= 1
                            }
                            t[j] = v
                            if ntHeld < nt { ntHeld += 1 }
                        }
                    }
                }
            }
        }
        return (w.bottom[nb - 1], w.top[nt - 1])
    }

    /// The `k`-th smallest value of `a` (0-based), partially reordering `a` so that every value
    /// before index `k` is at most it (Hoare's selection, "FIND", CACM 4(7):321, 1961).
    /// - Complexity: O(count) on average.
    static func select(_ a: UnsafeMutableBufferPointer<Double>, _ k: Int) -> Double {
        var lo = 0, hi = a.count - 1
        // Indices stay within 0 ..< count (the pivot stops both scans), so the steps use wrapping
        // arithmetic: no overflow check per comparison.
        while lo < hi {
            let pivot = a[lo &+ (hi &- lo) / 2]
            var i = lo, j = hi
            while i <= j {
                while a[i] < pivot { i &+= 1 }
                while a[j] > pivot { j &-= 1 }
                if i <= j {
                    a.swapAt(i, j)
                    i &+= 1
                    j &-= 1
                }
            }
            if k <= j {
                hi = j
            } else if k >= i {
                lo = i
            } else {
                break
            }
        }
        return a[k]
    }

    /// Orphanidou et al. (2015): mean correlation of the pulses with their average template,
    /// whether the feasibility rules hold, and whether the interval ratio (longest / shortest <
    /// 2.2) is the only one of them that fails.
    static func templateCorrelation(
        values: [Float], masked: [Bool], pulses: [Double], gridRate: Double, workspace w: inout Workspace
    ) -> (Double, Bool, Bool) {
        guard pulses.count >= 3 else { return (.nan, false, false) }
        w.intervals.removeAll(keepingCapacity: true)
        for k in 1..<pulses.count { w.intervals.append((pulses[k] - pulses[k - 1]) / gridRate) }
        let meanInterval = w.intervals.reduce(0, +) / Double(w.intervals.count)
        let rate = 60 / meanInterval
        let longest = w.intervals.max()!, shortest = w.intervals.min()!
        let plausible = rate >= 40 && rate <= 180 && longest < 3 && shortest > 0
        let feasible = plausible && longest / shortest < 2.2
        let ratioOnly = plausible && !feasible
        w.intervals.sort()
        let median = w.intervals[w.intervals.count / 2] * gridRate
        let half = max(1, Int((median / 2).rounded()))
        let width = 2 * half + 1
        w.segments.removeAll(keepingCapacity: true)
        var count = 0
        for p in pulses {
            let c = Int(p.rounded())
            guard c - half >= 0 && c + half < values.count else { continue }
            var ok = true
            for i in (c - half)...(c + half) where masked[i] { ok = false }
            if ok {
                for i in (c - half)...(c + half) { w.segments.append(Double(values[i])) }
                count += 1
            }
        }
        guard count >= 2 else { return (.nan, false, false) }
        w.template.removeAll(keepingCapacity: true)
        w.template.append(contentsOf: repeatElement(0, count: width))
        for s in 0..<count { for i in 0..<width { w.template[i] += w.segments[s * width + i] / Double(count) } }
        var total = 0.0
        w.segments.withUnsafeBufferPointer { seg in
            w.template.withUnsafeBufferPointer { t in
                for s in 0..<count { total += pearson(UnsafeBufferPointer(rebasing: seg[s * width..<(s + 1) * width]), t) }
            }
        }
        return (total / Double(count), feasible, ratioOnly)
    }

    static func pearson(_ a: UnsafeBufferPointer<Double>, _ b: UnsafeBufferPointer<Double>) -> Double {
        let n = Double(a.count)
        let ma = a.reduce(0, +) / n, mb = b.reduce(0, +) / n
        var sab = 0.0, saa = 0.0, sbb = 0.0
        for i in a.indices {
            let x = a[i] - ma, y = b[i] - mb
            sab += x * y
            saa += x * x
            sbb += y * y
        }
        return saa > 0 && sbb > 0 ? sab / (saa * sbb).squareRoot() : 0
    }
}

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
/// can pass the template test while the pulses are motion); `acceptable` otherwise.
enum PPGQuality {
    /// Assesses one window.
    /// - Parameters:
    ///   - values: band-passed grid values of the window (masked points as 0).
    ///   - raw: the held raw values on the grid, or empty.
    ///   - masked: whether each grid point is masked.
    ///   - pulses: pulse positions in grid points from the window start.
    ///   - gridRate: grid rate, Hz.
    /// - Returns: the indices and label (the in-band power and acceleration are filled by the
    ///   caller).
    /// - Complexity: O(window length + pulses · pulse width).
    static func assess(
        values: [Float], raw: [Float], masked: [Bool], pulses: [Double], gridRate: Double,
        inBandPower: Double, accelerationRMS: Double?, startSeconds: Double, endSeconds: Double
    ) -> PPGQualityResult {
        let n = values.count
        var maskedCount = 0
        var sum = 0.0, rawSum = 0.0
        var kept = [Double]()
        kept.reserveCapacity(n)
        for i in 0..<n {
            if masked[i] {
                maskedCount += 1
            } else {
                kept.append(Double(values[i]))
                sum += Double(values[i])
                if !raw.isEmpty { rawSum += Double(raw[i]) }
            }
        }
        let maskedFraction = Double(maskedCount) / Double(max(1, n))
        var skewness = Double.nan, perfusion = Double.nan
        if kept.count >= 3 {
            let mean = sum / Double(kept.count)
            var m2 = 0.0, m3 = 0.0
            for v in kept {
                let d = v - mean
                m2 += d * d
                m3 += d * d * d
            }
            m2 /= Double(kept.count)
            m3 /= Double(kept.count)
            if m2 > 0 { skewness = m3 / (m2 * m2.squareRoot()) }
            kept.sort()
            let ac = kept[Int(0.95 * Double(kept.count - 1))] - kept[Int(0.05 * Double(kept.count - 1))]
            let dc = raw.isEmpty ? 0 : rawSum / Double(kept.count)
            if dc > 0 { perfusion = 100 * ac / dc }
        }
        let (correlation, feasible) = templateCorrelation(values: values, masked: masked, pulses: pulses, gridRate: gridRate)
        let label: PPGQualityLabel
        if maskedFraction > 0.2 || !feasible || !(correlation >= 0.66) {
            label = .unacceptable
        } else if correlation >= 0.86 && (accelerationRMS ?? 0) <= 0.1 {
            label = .good
        } else {
            label = .acceptable
        }
        return PPGQualityResult(
            startSeconds: startSeconds, endSeconds: endSeconds, label: label, skewness: skewness,
            perfusionIndex: perfusion, templateCorrelation: correlation, inBandPower: inBandPower,
            accelerationRMS: accelerationRMS ?? .nan, maskedFraction: maskedFraction, pulseCount: pulses.count)
    }

    /// Orphanidou et al. (2015): mean correlation of the pulses with their average template, and
    /// whether the feasibility rules hold.
    static func templateCorrelation(values: [Float], masked: [Bool], pulses: [Double], gridRate: Double) -> (Double, Bool) {
        guard pulses.count >= 3 else { return (.nan, false) }
        var intervals = [Double]()
        for k in 1..<pulses.count { intervals.append((pulses[k] - pulses[k - 1]) / gridRate) }
        let meanInterval = intervals.reduce(0, +) / Double(intervals.count)
        let rate = 60 / meanInterval
        let longest = intervals.max()!, shortest = intervals.min()!
        let feasible = rate >= 40 && rate <= 180 && longest < 3 && shortest > 0 && longest / shortest < 2.2
        let sorted = intervals.sorted()
        let median = sorted[sorted.count / 2] * gridRate
        let half = max(1, Int((median / 2).rounded()))
        let width = 2 * half + 1
        var segments = [[Double]]()
        for p in pulses {
            let c = Int(p.rounded())
            guard c - half >= 0 && c + half < values.count else { continue }
            var ok = true
            for i in (c - half)...(c + half) where masked[i] { ok = false }
            if ok { segments.append((c - half...c + half).map { Double(values[$0]) }) }
        }
        guard segments.count >= 2 else { return (.nan, false) }
        var template = [Double](repeating: 0, count: width)
        for s in segments { for i in 0..<width { template[i] += s[i] / Double(segments.count) } }
        var total = 0.0
        for s in segments { total += pearson(s, template) }
        return (total / Double(segments.count), feasible)
    }

    static func pearson(_ a: [Double], _ b: [Double]) -> Double {
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

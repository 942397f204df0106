import Foundation

// Constants of the decision (see the type's documentation for their meaning and sources). The
// model weights are printed by scripts/ecg/fit-beat-classifier.py (fitted on MIT-BIH DS1).
extension BeatClassifier {
    static let clusterMatchCorrelation: Float = 0.92
    static let clusterAmplitudeRange: ClosedRange<Float> = 0.6...1.6
    static let maximumClusters = 8
    static let clusterDecay = 1.0 / 256
    static let ventricularThreshold = 0.5
    static let unclassifiableCorrelation = 0.5
    static let supraventricularPrematurity = 0.82
    static let irregularRhythm = 0.10
    static let shortLongPrematurity = 0.85
    static let shortLongPause = 1.10
    static let supraventricularRunContinuation = 0.90
    static let tachycardiaRRSeconds = 0.60
    /// Weight of each new RR interval in the running RR average.
    static let normalRRWeight = 1.0 / 10
    static let normalShiftSeconds = 0.040
    /// Fiducial search reach when the normal QRS is at least ``wideQRSSeconds`` (item 4).
    static let wideShiftSeconds = 0.080
    /// Complete bundle branch block QRS duration (Surawicz et al. 2009), seconds.
    static let wideQRSSeconds = 0.120
    /// Fusion check (item 8): spreads of ln amplitude, exponential weight, normal beats to arm.
    static let fusionSpreads = 5.0
    static let fusionWeightBeats = 64
    /// ``BeatFeatures/pauseSlopeRatio`` below which no QRS lies between two beats.
    static let pauseSlopeRatio = 0.2
    /// Atrial window before the R apex (item 9), seconds: a P wave with a PR interval up to
    /// ~250 ms and its end before the QRS onset.
    static let pWindowStartSeconds = 0.300
    static let pWindowEndSeconds = 0.060
    /// Beats that build the sinus P template before its correlation is reported, and the weight
    /// limit of its running average.
    static let sinusPMinimumBeats = 8
    static let sinusPWeightBeats = 16
    /// Prematurity at or above which a normal-cluster beat is taken as sinus for the P template.
    static let sinusPPrematurity = 0.90
    /// A beat updates the template only when its P correlates at least this well with it (after
    /// the first ``sinusPMinimumBeats``); ``sinusPReseedBeats`` eligible beats in a row that do
    /// not re-seed it (the sinus P changed).
    static let sinusPMatch = 0.5
    static let sinusPReseedBeats = 32
    /// A P window correlating below this with the sinus P template is not the sinus P wave.
    static let ectopicPCorrelation = 0.2
    /// The sinus P template is trusted when its beats correlate with it at least this well on
    /// average (atrial fibrillation or noise: no consistent P).
    static let sinusPAgreementMinimum = 0.8
    /// The QRS must match the normal template at least this well for the atrial rule.
    static let atrialRuleQRSCorrelation = 0.9
    /// Atrial rule, prematurity against the RR average (with the median irregularity below
    /// ``irregularRhythm``) or against the RR of the sinus-P beats (with it below twice that).
    static let atrialPrematurity = 0.85
    static let sinusRRPrematurity = 0.60
    /// P correlation at which a beat counts as sinus for the sinus RR, and its running weight.
    static let sinusRRPCorrelation = 0.7
    static let sinusRRWeightBeats = 8
    /// The sinus RR is used only while one of the last this many beats had the sinus P wave (in
    /// atrial fibrillation or flutter none has; the sinus RR before the episode is stale).
    static let sinusRRRecentBeats = 16
    /// Successive RR differences whose median is the rhythm's irregularity for the atrial rule.
    static let irregularityBeats = 16
    static let stage1Weights: [Double] = [
        12.5559, -4.3109, 6.5409, 5.7741, 5.7861, 3.3634, -30.6577, 16.9217, -2.3594, -19.4208, -0.8163, -1.6063, -1.2941, 6.0150, -2.4575,
        -3.1717, 8.5198, -0.6904, -4.0798, 18.7560, -6.5995, -7.2435, -2.3445,
    ]
    static let stage2Weights: [Double] = [
        4.7966, -2.0554, 1.6536, 1.9925, 2.8392, 1.9704, -19.9533, 12.0606, -1.4960, 28.6244, 0.3228, -0.5299, 0.5105, 3.1430, -1.7468,
        -1.6214, 5.2787, -0.2928, -2.9324, -29.4711, -3.6792, -5.5821, -1.4958, 0.0778, 15.9806, -2.6078, -6.6584,
    ]
}

extension BeatClassifier {
    /// Dot product of `values[start ..< start + unit.count]` with `unit` (four partial sums: the
    /// single-accumulator loop was latency-bound).
    @inline(__always)
    static func dot(_ values: UnsafeBufferPointer<Float>, _ start: Int, _ unit: UnsafeBufferPointer<Float>) -> Float {
        let n = unit.count
        var s0: Float = 0, s1: Float = 0, s2: Float = 0, s3: Float = 0
        var j = 0
        while j + 4 <= n {
            s0 += unit[j] * values[start + j]
            s1 += unit[j + 1] * values[start + j + 1]
            s2 += unit[j + 2] * values[start + j + 2]
            s3 += unit[j + 3] * values[start + j + 3]
            j += 4
        }
        while j < n { s0 += unit[j] * values[start + j]; j += 1 }
        return (s0 + s1) + (s2 + s3)
    }

    /// Centred RMS norm of `values[start ..< start + count]` for every start in `starts`.
    static func centredNorms(_ values: UnsafeBufferPointer<Float>, _ starts: ClosedRange<Int>, count: Int) -> [Float] {
        starts.map { start in
            var sum: Float = 0, sq: Float = 0
            for j in 0..<count { let x = values[start + j]; sum += x; sq += x * x }
            return max(sq - sum * sum / Float(count), 0).squareRoot()
        }
    }

    /// QRS width (seconds) and polarity of a beat in `v` with its R apex at `c`.
    func widthAndPolarity(_ v: UnsafeBufferPointer<Float>, center c: Int) -> (width: Double, polarity: Bool) {
        let m = qrsMorphology(v, center: c)
        return (m.width, m.polarity)
    }

    /// QRS width (s), polarity and the QRS area above the PR-segment baseline (input unit × s) of
    /// the beat centred at `c` of the morphology signal `v`; the area of `low` instead when given
    /// (the beat's span of ``BeatClassifier/lowRing``, not high-passed: as for
    /// ``rAboveBaseline(_:center:)``, the high-pass's memory of the previous beats would tie the
    /// area to the preceding RR interval), between the same onset and offset.
    func qrsMorphology(
        _ v: UnsafeBufferPointer<Float>, center c: Int, low: UnsafeBufferPointer<Float>? = nil
    ) -> (width: Double, polarity: Bool, area: Double) {
        let lo = max(1, c - widthSearchPre), hi = min(v.count - 2, c + widthSearchPost)
        func slope(_ k: Int) -> Float { abs(v[k + 1] - v[k - 1]) }
        var m: Float = 0, km = c
        for k in max(lo, c - slopeSearch)...min(hi, c + slopeSearch) where slope(k) > m { m = slope(k); km = k }
        let threshold = 0.15 * m
        func envelope(_ k: Int) -> Float {
            var e: Float = 0
            for j in max(lo, k - envelopeHalf)...min(hi, k + envelopeHalf) { e = max(e, slope(j)) }
            return e
        }
        var on = km
        while on > lo && envelope(on) >= threshold { on -= 1 }
        var off = km
        while off < hi && envelope(off) >= threshold { off += 1 }
        var baseline: Float = 0
        for k in (c - baselinePre)...(c - baselinePost) { baseline += v[k] }
        baseline /= Float(baselinePre - baselinePost + 1)
        var top = -Float.infinity, bottom = Float.infinity
        for k in max(0, c - slopeSearch)...min(v.count - 1, c + slopeSearch) { top = max(top, v[k]); bottom = min(bottom, v[k]) }
        var area: Float = 0
        if let u = low {
            var b: Float = 0
            for k in (c - baselinePre)...(c - baselinePost) { b += u[k] }
            b /= Float(baselinePre - baselinePost + 1)
            for k in on...off { area += u[k] - b }
        } else {
            for k in on...off { area += v[k] - baseline }
        }
        return (Double(off - on) / workingRate, top - baseline >= baseline - bottom, Double(area) / workingRate)
    }

    /// The R apex above the PR-segment baseline (the mean over 110…70 ms before the detected
    /// peak `c`) of `u`, the beat's span of the low-passed signal without the high-pass
    /// (``BeatClassifier/lowRing``): the high-pass's memory of the previous beats shifts the
    /// baseline between the PR segment and the apex by an amount set by the preceding RR
    /// interval, which would tie the amplitude to the intervals (a synthetic ECG without
    /// breathing, its only variation the intervals' jitter: correlation −0.93 with the preceding
    /// interval on the high-passed signal). The apex: from `c`, the nearest local extreme on the
    /// side of `u[c]`'s deflection from the baseline (climbing at most ``slopeSearch`` samples:
    /// the 35-Hz low-pass delays it, and at the detected sample the value lies on the R wave's
    /// slope, where the samples' timing changes it far more than breathing does), refined by the
    /// parabola through it and its two neighbours (the sampled apex of a sharp R wave depends on
    /// where the samples fall; parabolic interpolation of the R wave at low sampling rates:
    /// M. Merri, D. C. Farden, J. G. Mottley, E. L. Titlebaum, "Sampling frequency of the
    /// electrocardiogram for spectral analysis of the heart rate variability", IEEE Trans Biomed
    /// Eng 37(1):99–106, 1990).
    func rAboveBaseline(_ u: UnsafeBufferPointer<Float>, center c: Int) -> Double {
        var baseline: Float = 0
        for k in (c - baselinePre)...(c - baselinePost) { baseline += u[k] }
        baseline /= Float(baselinePre - baselinePost + 1)
        let sign: Float = u[c] >= baseline ? 1 : -1
        let lo = max(1, c - slopeSearch), hi = min(u.count - 2, c + slopeSearch)
        var k = min(max(c, lo), hi)
        let step = k < hi && sign * u[k + 1] > sign * u[k] ? 1 : -1
        while k + step >= lo && k + step <= hi && sign * u[k + step] > sign * u[k] { k += step }
        let a = u[k - 1], b = u[k], d = u[k + 1]
        let curvature = a - 2 * b + d
        // Refined only at a true extreme (not where the climb stopped at its limit).
        guard sign * curvature < 0, sign * a <= sign * b, sign * d <= sign * b else { return Double(b - baseline) }
        return Double(b - 0.125 * (a - d) * (a - d) / curvature - baseline)
    }

    mutating func makeCluster(_ template: [Float]) -> Cluster {
        var c = Cluster(
            template: template, unit: [], norm: 0, weight: 1, count: 1, widthSeconds: 0, polarity: true,
            meanPrematurity: nil, serial: clusterSerial, ventricularScore: 0.5)
        clusterSerial += 1
        refresh(&c)
        return c
    }

    /// Recomputes a cluster's unit window, norm, width and polarity from its template.
    func refresh(_ c: inout Cluster) {
        let start = pre - corrPre, n = corrPre + corrPost + 1
        var mean: Float = 0
        for j in 0..<n { mean += c.template[start + j] }
        mean /= Float(n)
        var unit = [Float](repeating: 0, count: n)
        var sq: Float = 0
        for j in 0..<n { let x = c.template[start + j] - mean; unit[j] = x; sq += x * x }
        let norm = sq.squareRoot()
        if norm > 0 { for j in 0..<n { unit[j] /= norm } }
        c.unit = unit
        c.norm = norm
        let (w, p) = c.template.withUnsafeBufferPointer { widthAndPolarity($0, center: pre) }
        c.widthSeconds = w
        c.polarity = p
    }

    /// Classifies one extracted segment; `next` is the following peak (nil at the end).
    mutating func classify(_ s: Segment, next: Int?) -> ClassifiedBeat {
        var f = BeatFeatures()
        let fs = sampleRate
        if let p = previous, !s.gapBefore { f.rrPreviousSeconds = Double(s.sample - p.sample) / fs }
        if let n = next { f.rrNextSeconds = Double(n - s.sample) / fs }
        f.pauseSlopeRatio = s.pauseSlopeRatio
        f.rrNormalSeconds = normalRR
        if let r = f.rrPreviousSeconds, let n = normalRR { f.prematurity = r / n }
        // Masked samples in the classification part of the segment (the ±80 ms fiducial margin
        // only widens the wide-QRS fiducial search).
        let valid =
            s.valid && !s.values[(margin + pre - classPre - normalShift)..<(s.values.count - margin + normalShift)].contains { $0.isNaN }
        guard valid else {
            finishBeat(s, .unclassifiable, f)
            return ClassifiedBeat(sample: s.sample, beatClass: .unclassifiable, features: f)
        }
        let center = pre + margin
        let n = corrPre + corrPost + 1
        let beatClass: BeatClass = s.values.withUnsafeBufferPointer { v in
            // 1. Best-matching cluster. Window norms for every alignment are shared by all templates.
            let reach = max(clusterShift, normalShift)
            var norms = Self.centredNorms(v, (center - corrPre - reach)...(center - corrPre + reach), count: n)
            var best = -1, bestCorr: Float = -2, bestShift = 0, bestNorm: Float = 0
            for i in clusters.indices {
                clusters[i].unit.withUnsafeBufferPointer { u in
                    for sh in -clusterShift...clusterShift {
                        let nm = norms[sh + reach]
                        let r = nm > 0 ? Self.dot(v, center - corrPre + sh, u) / nm : 0
                        if r > bestCorr { bestCorr = r; best = i; bestShift = sh; bestNorm = nm }
                    }
                }
            }
            var matched = false
            if best >= 0 && bestCorr >= Self.clusterMatchCorrelation && clusters[best].norm > 0 {
                matched = Self.clusterAmplitudeRange.contains(bestNorm / clusters[best].norm)
            }
            for i in clusters.indices { clusters[i].weight *= 1 - Self.clusterDecay }
            var ci: Int
            let priorCount = matched ? clusters[best].count : 0
            let priorScore = matched ? clusters[best].ventricularScore : 0.5
            if matched {
                ci = best
                var c = clusters[ci]
                c.count += 1
                c.weight += 1
                let a = 1 / Float(min(c.count, 8))
                let o = margin + bestShift
                clusters[ci].template = [] // keep `c.template` uniquely referenced (no copy)
                c.template.withUnsafeMutableBufferPointer { t in
                    for j in 0..<t.count { t[j] += a * (v[o + j] - t[j]) }
                }
                refresh(&c)
                clusters[ci] = c
            } else {
                let fresh = makeCluster(Array(v[margin..<(margin + pre + post + 1)]))
                if clusters.count < Self.maximumClusters {
                    clusters.append(fresh); ci = clusters.count - 1
                } else {
                    var worst = -1
                    for i in clusters.indices where i != normalCluster && (worst < 0 || clusters[i].weight < clusters[worst].weight) {
                        worst = i
                    }
                    clusters[worst] = fresh; ci = worst
                }
            }
            if let p = f.prematurity {
                let m = clusters[ci].meanPrematurity
                clusters[ci].meanPrematurity = m.map { $0 + (p - $0) / 8 } ?? p
            }
            chooseNormalCluster()
            f.cluster = clusters[ci].serial
            let nc = normalCluster ?? ci
            f.inNormalCluster = nc == ci
            // 2. Features against the normal template.
            let normal = clusters[nc]
            var corrN: Float = -2, normN: Float = 0, shiftN = 0
            let shifts = normalShift
            // The fiducial search reaches ±80 ms when the normal QRS is wide (bundle branch block).
            let fiducialShifts = normal.widthSeconds >= Self.wideQRSSeconds ? margin : shifts
            let fiducialReach = max(reach, fiducialShifts)
            if fiducialReach > reach {
                norms = Self.centredNorms(v, (center - corrPre - fiducialReach)...(center - corrPre + fiducialReach), count: n)
            }
            normal.unit.withUnsafeBufferPointer { u in
                func r(_ sh: Int) -> Float {
                    let nm = norms[sh + fiducialReach]
                    return nm > 0 ? Self.dot(v, center - corrPre + sh, u) / nm : 0
                }
                var corrF: Float = -2, shiftF = 0
                for sh in -fiducialShifts...fiducialShifts {
                    let c = r(sh)
                    if c > corrF { corrF = c; shiftF = sh }
                    if abs(sh) <= shifts && c > corrN { corrN = c; normN = norms[sh + fiducialReach]; shiftN = sh }
                }
                // Template-matched fiducial: the best shift, refined by a parabola through the
                // correlations at its neighbours (sub-sample), in input samples from the peak.
                var delta = 0.0
                if shiftF > -fiducialShifts && shiftF < fiducialShifts {
                    let a = Double(r(shiftF - 1)), b = Double(corrF), c = Double(r(shiftF + 1))
                    let den = a - 2 * b + c
                    if den < 0 { delta = min(max(0.5 * (a - c) / den, -0.5), 0.5) }
                }
                let aligned = (Double(s.sample / decimation + shiftF) + delta) * Double(decimation)
                f.normalAlignmentSamples = aligned - Double(s.sample)
            }
            let morphology = s.low.withUnsafeBufferPointer { qrsMorphology(v, center: center, low: $0) }
            let (width, polarity) = (morphology.width, morphology.polarity)
            f.qrsWidthSeconds = width
            f.rAmplitude = Double(v[center])
            f.rAboveBaseline = s.low.withUnsafeBufferPointer { rAboveBaseline($0, center: center) }
            f.qrsArea = morphology.area
            f.normalQRSWidthSeconds = normal.widthSeconds
            f.normalCorrelation = Double(corrN)
            f.amplitudeRatio = normal.norm > 0 ? Double(normN / normal.norm) : nil
            f.polarityMatchesNormal = polarity == normal.polarity
            atrialFeatures(v, start: center + shiftN - pFrom, &f)
            // 3. Two-stage linear model (weights fitted on DS1, scripts/ecg/fit-beat-classifier.py).
            let x = Self.modelInputs(f)
            let p0 = Self.logistic(Self.stage1Weights, x)
            let x2 = x + [log1p(Double(priorCount)), priorScore, priorScore * (f.inNormalCluster ? 0 : 1), priorScore * priorScore]
            let p = Self.logistic(Self.stage2Weights, x2)
            clusters[ci].ventricularScore = priorScore + (p0 - priorScore) / Double(min(priorCount + 1, 8))
            f.ventricularProbability = p
            let c = decide(f)
            checkFusion(c, amplitude: normN, &f)
            updateSinusP(v, start: center + shiftN - pFrom, f)
            return c
        }
        finishBeat(s, beatClass, f)
        return ClassifiedBeat(sample: s.sample, beatClass: beatClass, features: f)
    }

    /// Step 9, atrial features: the Pearson correlation and RMS amplitude ratio of the beat's P
    /// window (``pWindowStartSeconds``…``pWindowEndSeconds`` before the R apex, at the normal
    /// template's alignment) against the running sinus P template, once it has
    /// ``sinusPMinimumBeats`` beats. `nil` when a sample is masked or the window is flat.
    mutating func atrialFeatures(_ v: UnsafeBufferPointer<Float>, start: Int, _ f: inout BeatFeatures) {
        f.sinusRRSeconds = beatsSinceSinusP <= Self.sinusRRRecentBeats ? sinusRR : nil
        f.rrIrregularity = medianIrregularity()
        guard sinusPCount >= Self.sinusPMinimumBeats, start >= 0, start + sinusP.count <= v.count else { return }
        let n = sinusP.count
        var sx: Float = 0, sy: Float = 0, sxx: Float = 0, syy: Float = 0, sxy: Float = 0
        sinusP.withUnsafeBufferPointer { t in
            for j in 0..<n {
                let x = v[start + j], y = t[j]
                sx += x; sy += y; sxx += x * x; syy += y * y; sxy += x * y
            }
        }
        let fn = Float(n)
        let vx = sxx - sx * sx / fn, vy = syy - sy * sy / fn, cxy = sxy - sx * sy / fn
        guard vx.isFinite, vx > 0, vy > 0 else { return }
        f.pCorrelation = Double(cxy / (vx * vy).squareRoot())
        f.pAmplitudeRatio = Double((vx / vy).squareRoot())
        f.pTemplateAgreement = sinusPAgreement
    }

    /// Updates the sinus P template with a beat of the normal morphology that is not premature
    /// (prematurity ≥ ``sinusPPrematurity``) and not ventricular, whatever its final class (so
    /// the atrial features do not depend on the supraventricular decisions).
    mutating func updateSinusP(_ v: UnsafeBufferPointer<Float>, start: Int, _ f: BeatFeatures) {
        noteRR(f)
        let notVentricular = (f.ventricularProbability ?? 1) <= Self.ventricularThreshold
        let normalQRS = (f.normalCorrelation ?? 0) >= Self.atrialRuleQRSCorrelation
        if notVentricular, normalQRS, let r = f.rrPreviousSeconds, let pc = f.pCorrelation, pc >= Self.sinusRRPCorrelation {
            sinusRRCount += 1
            sinusRR = sinusRR.map { $0 + (r - $0) / Double(min(sinusRRCount, Self.sinusRRWeightBeats)) } ?? r
            beatsSinceSinusP = 1
        } else {
            beatsSinceSinusP += 1
        }
        guard notVentricular, normalQRS, let p = f.prematurity, p >= Self.sinusPPrematurity, start >= 0,
            start + sinusP.count <= v.count
        else { return }
        let n = sinusP.count
        for j in 0..<n where !v[start + j].isFinite { return }
        if let r = f.pCorrelation {
            if r < Self.sinusPMatch {
                sinusPMisses += 1
                guard sinusPMisses >= Self.sinusPReseedBeats else { return }
                sinusPCount = 0
            } else {
                agreementCount += 1
                sinusPAgreement += (r - sinusPAgreement) / Double(min(agreementCount, Self.sinusPWeightBeats))
            }
        }
        sinusPMisses = 0
        let a = 1 / Float(min(sinusPCount + 1, Self.sinusPWeightBeats))
        sinusP.withUnsafeMutableBufferPointer { t in
            for j in 0..<n { t[j] += a * (v[start + j] - t[j]) }
        }
        sinusPCount += 1
    }

    /// Adds the beat's |RR − previous RR| / RR average to the irregularity ring.
    mutating func noteRR(_ f: BeatFeatures) {
        guard let r = f.rrPreviousSeconds else { lastRR = nil; return }
        if let last = lastRR, let n = f.rrNormalSeconds, n > 0 {
            rrDifferences[rrDifferenceCount % rrDifferences.count] = abs(r - last) / n
            rrDifferenceCount += 1
        }
        lastRR = r
    }

    /// Median of the last ``irregularityBeats`` successive RR differences (over the RR average),
    /// `nil` before half of them are known. Insertion sort on a scratch copy (no allocation).
    mutating func medianIrregularity() -> Double? {
        let k = min(rrDifferenceCount, rrDifferences.count)
        guard k >= rrDifferences.count / 2 else { return nil }
        for i in 0..<k {
            let x = rrDifferences[i]
            var j = i
            while j > 0 && rrDifferenceScratch[j - 1] > x { rrDifferenceScratch[j] = rrDifferenceScratch[j - 1]; j -= 1 }
            rrDifferenceScratch[j] = x
        }
        return k % 2 == 1 ? rrDifferenceScratch[k / 2] : 0.5 * (rrDifferenceScratch[k / 2 - 1] + rrDifferenceScratch[k / 2])
    }

    /// Inputs of the first-stage model (the order of `stage1Weights`).
    static func modelInputs(_ f: BeatFeatures) -> [Double] {
        let corr = f.normalCorrelation ?? 1
        let dw = (f.qrsWidthSeconds ?? 0) - (f.normalQRSWidthSeconds ?? f.qrsWidthSeconds ?? 0)
        let amp = log(min(max(f.amplitudeRatio ?? 1, 0.1), 10))
        let prem = min(max(f.prematurity ?? 1, 0.2), 3)
        let pause = min(max(f.rrNextSeconds.flatMap { n in f.rrNormalSeconds.map { n / $0 } } ?? 1, 0.2), 3)
        let pol: Double = f.polarityMatchesNormal == false ? 0 : 1
        let inn: Double = f.inNormalCluster ? 1 : 0
        let w = f.qrsWidthSeconds ?? 0.1
        let d = min(max(10 * dw, -1.5), 1.5)
        return [
            1, corr, 1 - corr * corr, d, abs(amp), amp, prem, pause, pol, inn, 10 * w,
            (1 - corr) * (1 - prem), (1 - corr) * d,
            corr * corr, d * d, amp * amp, prem * prem, pause * pause, prem * pause, inn * corr, inn * d,
            pause / prem, (1 - pol) * (1 - corr),
        ]
    }

    static func logistic(_ w: [Double], _ x: [Double]) -> Double {
        var z = 0.0
        for i in 0..<w.count { z += w[i] * x[i] }
        return 1 / (1 + exp(-z))
    }

    /// Step 6: the class from the model's probability, the morphology and the timing.
    mutating func decide(_ f: BeatFeatures) -> BeatClass {
        decidedByAtrialRule = false
        if (f.ventricularProbability ?? 0) > Self.ventricularThreshold { return .ventricular }
        if !f.inNormalCluster && (f.normalCorrelation ?? 1) < Self.unclassifiableCorrelation { return .unclassifiable }
        if let p = f.prematurity, (irregularity ?? 0) < Self.irregularRhythm {
            if p < Self.supraventricularPrematurity { return .supraventricular }
            // Short–long: early, then followed by a pause (the premature atrial beat's reset).
            if p < Self.shortLongPrematurity, let next = f.rrNextSeconds, let n = f.rrNormalSeconds,
                next > Self.shortLongPause * n
            {
                return .supraventricular
            }
        }
        // A supraventricular run (tachycardia) goes on while the rate stays above 100 bpm and
        // well above the sinus rate before its first beat.
        if let reference = runReferenceRR, previous?.beatClass == .supraventricular, let r = f.rrPreviousSeconds,
            r < Self.supraventricularRunContinuation * reference, r < Self.tachycardiaRRSeconds
        {
            return .supraventricular
        }
        // Atrial rule (step 9): a normal QRS after a P wave that is not the sinus one, early.
        if let pc = f.pCorrelation, pc < Self.ectopicPCorrelation, (f.pTemplateAgreement ?? 0) >= Self.sinusPAgreementMinimum,
            (f.normalCorrelation ?? 0) >= Self.atrialRuleQRSCorrelation, let irregular = f.rrIrregularity
        {
            if let p = f.prematurity, p < Self.atrialPrematurity, irregular < Self.irregularRhythm {
                decidedByAtrialRule = true
                return .supraventricular
            }
            if let r = f.rrPreviousSeconds, let s = f.sinusRRSeconds, r < Self.sinusRRPrematurity * s {
                decidedByAtrialRule = true
                return .supraventricular
            }
        }
        return .normal
    }

    /// Step 8, the fusion check: flags a normal beat whose RMS amplitude departs from the running
    /// normal amplitude by more than ``fusionSpreads`` running spreads (armed after a ventricular
    /// beat and ``fusionWeightBeats`` normal beats), then updates the running statistics.
    mutating func checkFusion(_ c: BeatClass, amplitude: Float, _ f: inout BeatFeatures) {
        if c == .ventricular { ventricularSeen = true }
        guard c == .normal, amplitude > 0 else { return }
        let x = log(Double(amplitude))
        let n = normalAmplitudeCount
        if n == 0 {
            normalLogAmplitude = x
        } else {
            let d = x - normalLogAmplitude
            if ventricularSeen && n >= Self.fusionWeightBeats {
                let spreads = normalLogSpread > 0 ? abs(d) / normalLogSpread : (d == 0 ? 0 : .infinity)
                f.amplitudeDeviationSpreads = spreads
                f.fusionSuspected = spreads > Self.fusionSpreads
            }
            // Plain means over the first beats, then exponential (no start-up bias).
            normalLogSpread += (abs(d) - normalLogSpread) / Double(min(n, Self.fusionWeightBeats))
            normalLogAmplitude += d / Double(min(n + 1, Self.fusionWeightBeats))
        }
        normalAmplitudeCount = n + 1
    }

    /// Normal cluster: among clusters with ≥ half the heaviest weight, the least premature.
    mutating func chooseNormalCluster() {
        let heaviest = clusters.map(\.weight).max() ?? 0
        var pick: Int?
        for (i, c) in clusters.enumerated() where c.weight >= 0.5 * heaviest {
            if let p = pick {
                if (c.meanPrematurity ?? 1) > (clusters[p].meanPrematurity ?? 1) { pick = i }
            } else {
                pick = i
            }
        }
        if let cur = normalCluster, cur < clusters.count, clusters[cur].weight >= 0.5 * heaviest, let p = pick,
            (clusters[p].meanPrematurity ?? 1) < (clusters[cur].meanPrematurity ?? 1) + 0.05
        {
            return
        }
        normalCluster = pick
    }

    /// Timing bookkeeping after a beat is classified.
    mutating func finishBeat(_ s: Segment, _ c: BeatClass, _ f: BeatFeatures) {
        if let r = f.rrPreviousSeconds {
            if let n = normalRR {
                let ratio = r / n
                if ratio > 0.4 && ratio < 2.5 {
                    normalRR = n + (r - n) * Self.normalRRWeight
                    outlierRun = 0
                } else {
                    outlierRun += 1
                    if outlierRun >= 8 { normalRR = r; outlierRun = 0 }
                }
            } else {
                normalRR = r
            }
        }
        if c == .normal, previous?.beatClass == .normal, let r = f.rrPreviousSeconds, let n = normalRR {
            if let last = lastNormalRR {
                let d = abs(r - last) / n
                irregularity = irregularity.map { $0 + (d - $0) / 8 } ?? d
            }
            lastNormalRR = r
        } else if c != .normal {
            lastNormalRR = nil
        }
        if c != .supraventricular {
            runReferenceRR = nil
        } else if previous?.beatClass != .supraventricular || runReferenceRR == nil {
            // A beat of the atrial rule starts no tachycardia run: the run rule needs the rate to
            // have jumped (the first beat premature by timing), and a P wave merging into the T
            // wave as sinus tachycardia speeds up must not start one.
            runReferenceRR = decidedByAtrialRule ? nil : f.rrNormalSeconds
        }
        previous = (s.sample, c)
    }
}

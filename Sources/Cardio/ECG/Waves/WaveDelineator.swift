/// Delineates one beat from the wavelet scales of a window of its lead on the 250 Hz grid
/// (−1.0…+1.2 s around it; the scales computed once per lead by ``WaveGrid``): QRS onset and offset, P
/// and T waves (peak, onset/offset, shape, absence), after the wavelet delineator of Martínez
/// et al. 2004 (quadratic-spline wavelet, algorithme à trous, ``QuadraticSplineWavelet``):
///
/// - **QRS** at scale 2^2: the largest modulus maximum within ±100 ms of the detection time, and
///   the R wave's pair (it and its larger opposite-sign neighbour within 80 ms), then at most one
///   Q maximum before (> γ_pre = 0.06 of the largest) and one S maximum after (> γ_post = 0.09),
///   each of alternating sign within 60 ms of the pair; then, for a wide QRS (bundle-branch
///   block, paced, ventricular), every further maximum above 0.25 of the largest and above 6 × the
///   lead's median |W| 60–250 ms before (clear of its noise), each within 80 ms of the last one
///   kept, and every maximum of the other sign at least 0.5 of the largest within 120 ms of it
///   (the other slope of one broad deflection), up to 180 ms after the largest; when the largest pair lies
///   within 12 ms (a pacing spike: pacemaker pulses last 0.1–2 ms, IEC 60601-2-27:2011
///   201.12.1.101.13) and the largest maximum in the 80 ms after it exceeds 6 × the lead's
///   median |W| 60–250 ms before (a QRS, not noise), "0.25 of the largest" is of that one
///   (the paced QRS's slopes are mostly 10–45 % of the spike's at 250 Hz on QTDB sel102/sel104). The onset is the
///   first sample before the first maximum where |W| drops below ξ_on (0.05 of that maximum
///   when it is a rising slope, 0.07 when falling) or has a local minimum; the offset likewise
///   after the last maximum (ξ_off 0.125 rising, 0.71 falling).
/// - **T** at scale 2^4 (2^5 when fewer than two maxima exceed ε at 2^4): maxima of |W| above
///   ε_T = 0.25 · RMS of W over the beat, in the rate-dependent window [R + 140 ms, R + 500 ms]
///   when the previous RR exceeds 720 ms, else [R + 100 ms, R + 0.7 RR]; never past the next
///   beat − 100 ms nor past R + 0.7 × the following RR (Martínez's bound applied to the interval
///   the T must end in: the next beat's P wave starts a PR interval before its QRS, PR ≥ 118 ms
///   in 98 % of healthy adults: Rautaharju 2013, below). The largest maximum and its larger
///   opposite-sign neighbour give the peak (their zero crossing) and the shape (upright, inverted; a third alternating maximum of at
///   least 25 % of the largest, the three spanning at most 200 ms, makes it biphasic; one
///   maximum alone: rising/falling only, no peak). A single maximum at 2^5 is paired with its
///   opposite-sign neighbour when that is at least 10 % as large and within 160 ms (an
///   asymmetric T whose slow return falls below ε_T).
///   Offset after the last maximum: |W| below ξ_Toff = 0.4 of it, or a local minimum.
///   The 200 ms span: a biphasic T's slopes lie between its onset and end, about twice its
///   peak-to-end interval (Tpeak–Tend 92–94 ms in healthy adults, independent of rate: Andersen
///   MP et al. 2010, J Electrocardiol 43(1):31–39; 98th percentile 112 ms: Rautaharju PM et al.
///   2013, J Electrocardiol 46(6):707–716); a later third maximum is a U wave or the next P.
/// - **P** at scale 2^4 likewise in [max(QRS onset − 280 ms, R − 0.4 RR), QRS onset − 30 ms],
///   ε_P = 0.02 · RMS, onset ξ_Pon = 0.5, offset ξ_Poff = 0.9; a biphasic P's three maxima span
///   at most 100 ms (a wider third maximum is a U or T wave's slope before the P).
/// - **P and T slopes**: consecutive significant maxima of one sign are one slope with a notch,
///   and only the largest of them is kept before the pairing above (the redundant modulus maxima
///   of Li C, Zheng C, Tai C 1995, IEEE Trans Biomed Eng 42(1):21–28); otherwise a notch on the
///   falling slope hides the rising slope before it and the wave is taken as one slope.
///
/// No parameter depends on the record; the thresholds are Martínez 2004's. The wide-QRS, pacing-spike, lone
/// T slope, T and P span, following-RR T window and same-sign slope rules are this
/// implementation's, chosen on
/// physiology after the QT Database errors were read per record
/// (`scripts/ecg/qtdb-waves-errors.py`; in-sample).
///
/// - Complexity: O(window length) per beat (550 positions at 250 Hz); the scales are computed
///   once per lead (``WaveGrid``), not per beat.
struct WaveDelineator {
    /// The delineator's sample rate, Hz.
    static let rate = 250.0
    /// The window around the beat, s: before and after the detection time.
    static let before = 1.0
    static let after = 1.2
    /// Window length, samples at 250 Hz, and the beat's index in it.
    static let length = Int((before + after) * rate)
    static let beatIndex = Int(before * rate)

    /// Boundaries found, in (fractional) window positions at 250 Hz.
    struct Marks {
        var pOnset: Double?, pPeak: Double?, pOffset: Double?
        var qrsOnset: Double?, qrsOffset: Double?
        var tPeak: Double?, tOffset: Double?
        var p = WaveStatus.notDeterminable, qrs = WaveStatus.notDeterminable, t = WaveStatus.notDeterminable
        var pShape: WaveShape?, tShape: WaveShape?
        /// The P onset lies on a steeper slope of the opposite sign (``onsetMasked(_:first:)``).
        var pOnsetMasked = false
    }

    /// Delineates the beat at ``beatIndex`` of a window `x` transformed on its own (its first
    /// and last values standing for the samples beyond it).
    /// - Parameters:
    ///   - x: ``length`` samples at 250 Hz (values outside `valid` are padding).
    ///   - valid: the positions that hold real, finite samples.
    ///   - rr: the RR interval before the beat, s (`nil`: unknown, 0.9 s assumed for the windows).
    ///   - next: the next beat's position in the window, if within it.
    /// - Returns: the boundaries and statuses.
    static func delineate(_ x: [Float], valid: Range<Int>, rr: Double?, next: Double?) -> Marks {
        delineate(QuadraticSplineWavelet.transform(x), valid: valid, rr: rr, next: next)
    }

    /// Delineates the beat at ``beatIndex`` of a window of ``length`` positions at 250 Hz, from
    /// its wavelet scales (``QuadraticSplineWavelet``: W at index `n` describes the lead at
    /// `n − delay(k)`).
    /// - Parameters:
    ///   - scales: W_{2^2}, W_{2^4}, W_{2^5} over the window.
    ///   - valid: the positions that hold real, finite samples.
    ///   - rr: the RR interval before the beat, s (`nil`: unknown, 0.9 s assumed for the windows).
    ///   - next: the next beat's position in the window, if within it.
    /// - Returns: the boundaries and statuses.
    static func delineate(_ scales: QuadraticSplineWavelet.Scales, valid: Range<Int>, rr: Double?, next: Double?) -> Marks {
        scales.w2.withUnsafeBufferPointer { w2 in
            scales.w4.withUnsafeBufferPointer { w4 in
                scales.w5.withUnsafeBufferPointer { w5 in
                    delineate(QuadraticSplineWavelet.ScaleView(w2: w2, w4: w4, w5: w5), valid: valid, rr: rr, next: next)
                }
            }
        }
    }

    /// ``delineate(_:valid:rr:next:)`` on a view of the scales (the window of a lead's shared
    /// scales, read in place).
    static func delineate(_ scales: QuadraticSplineWavelet.ScaleView, valid: Range<Int>, rr: Double?, next: Double?) -> Marks {
        var m = Marks()
        let r = beatIndex
        let fs = rate
        func samples(_ s: Double) -> Int { Int((s * fs).rounded()) }
        // The QRS needs ±300 ms of real samples; the waves their windows (checked below).
        guard valid.lowerBound <= r - samples(0.3), valid.upperBound >= r + samples(0.3) else { return m }

        // MARK: QRS (scale 2^2)
        let w2 = scales.w2
        let d2 = QuadraticSplineWavelet.delay(2)
        func widx(_ pos: Int, _ k: Int) -> Int { pos + Int(QuadraticSplineWavelet.delay(k).rounded(.down)) }
        let mainLo = widx(r - samples(0.1), 2), mainHi = widx(r + samples(0.1), 2)
        // The first index of the largest |W| (the running largest kept in a register, so the
        // compiler can select instead of branching).
        var im = mainLo, big = abs(w2[mainLo])
        for i in mainLo...mainHi {
            let v = abs(w2[i])
            im = v > big ? i : im
            big = v > big ? v : big
        }
        guard big > 0 else { return m }
        // The R wave: the largest maximum and its opposite-sign neighbour (the larger one) within
        // 80 ms; then at most one Q (before) and one S (after) maximum of alternating sign within
        // 60 ms of the pair, above γ_pre = 0.06 and γ_post = 0.09 of the largest.
        let maxima = moduloMaxima(w2, from: im - samples(0.16), to: im + samples(0.16))
        var first = im, last = im
        if let k = maxima.firstIndex(of: im) {
            var best: Int?
            for j in [k - 1, k + 1] where j >= 0 && j < maxima.count {
                let i = maxima[j]
                guard (w2[i] > 0) != (w2[im] > 0), abs(i - im) <= samples(0.08), abs(w2[i]) > 0.06 * big else { continue }
                if best == nil || abs(w2[i]) > abs(w2[best!]) { best = i }
            }
            if let b = best {
                first = min(im, b)
                last = max(im, b)
            }
            // A pacing spike: the largest pair within 12 ms (a pacemaker pulse lasts 0.1–2 ms,
            // IEC 60601-2-27; at 250 Hz its two slopes are 1–3 samples apart, an R wave's
            // further). The wide-QRS rule below then measures the paced QRS's slopes against
            // the largest of them within 80 ms after the spike instead of the spike, when that
            // stands clear of the lead's noise (above 6 × the median |W| 60–250 ms before).
            var wideReference = big
            let noiseFrom = max(im - samples(0.25), widx(valid.lowerBound, 2) + 1), noiseTo = im - samples(0.06)
            if let b = best, abs(b - im) <= 3, let l = maxima.firstIndex(of: last) {
                var after: Float = 0
                for nx in maxima[(l + 1)...] where nx - last <= samples(0.08) { after = max(after, abs(w2[nx])) }
                if exceedsMedianMagnitude(after, factor: 6, w2, from: noiseFrom, to: noiseTo) { wideReference = after }
            }
            if let f = maxima.firstIndex(of: first), f > 0 {
                let q = maxima[f - 1]
                if (w2[q] > 0) != (w2[first] > 0), first - q <= samples(0.06), abs(w2[q]) > 0.06 * big { first = q }
            }
            if let l = maxima.firstIndex(of: last), l + 1 < maxima.count {
                let sw = maxima[l + 1]
                if (w2[sw] > 0) != (w2[last] > 0), sw - last <= samples(0.06), abs(w2[sw]) > 0.09 * big { last = sw }
            }
            // A wide QRS (bundle-branch block, paced or ventricular beats): further maxima above
            // 0.25 of the largest, each within 80 ms of the last kept, up to 180 ms after the
            // largest, belong to it (its later slopes; a pacing spike is the largest maximum
            // then), when they stand clear of the lead's noise (above 6 × its median |W| 60–250
            // ms before, the gate of the pacing-spike rule): in a low, noisy lead (a 0.2-mV V1)
            // noise maxima pass 0.25 of the largest and carried the offset 40–120 ms late. A
            // maximum of the other sign at least half as steep as the largest, within 120 ms of
            // the last kept, is the other slope of one broad deflection (a paced or bundle-branch
            // QS or R wave lasts up to 120 ms; P and T slopes at 2^2 are far below the QRS's).
            if var l = maxima.firstIndex(of: last) {
                while l + 1 < maxima.count {
                    l += 1
                    let nx = maxima[l]
                    guard nx - im <= samples(0.18) else { break }
                    let v = abs(w2[nx])
                    if nx - last <= samples(0.12), (w2[nx] > 0) != (w2[last] > 0), v >= 0.5 * big {
                        last = nx
                        continue
                    }
                    guard nx - last <= samples(0.08) else { break }
                    if v > 0.25 * wideReference, exceedsMedianMagnitude(v, factor: 6, w2, from: noiseFrom, to: noiseTo) { last = nx }
                }
            }
        }
        let onThreshold = (w2[first] > 0 ? 0.05 : 0.07) * abs(w2[first])
        let offThreshold = (w2[last] > 0 ? 0.125 : 0.71) * abs(w2[last])
        let validW2 = widx(valid.lowerBound, 2) + 1..<widx(valid.upperBound, 2) - 1
        guard let on = walk(w2, from: first, step: -1, threshold: onThreshold, limit: max(first - samples(0.12), validW2.lowerBound)),
            let off = walk(w2, from: last, step: 1, threshold: offThreshold, limit: min(last + samples(0.16), validW2.upperBound - 1))
        else { return m }
        m.qrs = .present
        let qrsOn = Double(on) - d2, qrsOff = Double(off) - d2
        m.qrsOnset = qrsOn
        m.qrsOffset = qrsOff

        let w4 = scales.w4, w5 = scales.w5
        let beatLo = r - samples(0.35), beatHi = r + samples(0.65)
        let rms4 = rms(w4, widx(beatLo, 4), widx(beatHi, 4))
        // Scale 2^5's RMS only when the T search reaches that scale.
        func rms5() -> Float { rms(w5, widx(beatLo, 5), widx(beatHi, 5)) }
        let rrs = min(max(rr ?? 0.9, 0.25), 2.5)

        // MARK: T (scale 2^4, else 2^5)
        var tLo = r + samples(rrs > 0.72 ? 0.14 : 0.10)
        var tHi = r + samples(rrs > 0.72 ? 0.5 : 0.7 * rrs)
        tLo = max(tLo, Int(qrsOff.rounded(.up)) + 1)
        // The T ends before the next beat's atrial activity: Martínez's 0.7·RR bound applied to
        // the following interval too (after a pause the window of the long RR reached the next
        // beat's P wave, taken as the T's third phase).
        if let n = next { tHi = min(tHi, Int(n) - samples(0.1), r + Int(0.7 * (n - Double(r)))) }
        var tLimit = r + samples(0.8)
        if let n = next { tLimit = min(tLimit, Int(n) - samples(0.05)) }
        if tHi - tLo >= samples(0.06), tLimit <= valid.upperBound - 1 {
            var wave: Wave?
            for k in [4, 5] {
                let w = k == 4 ? w4 : w5
                let lo = widx(tLo, k), hi = widx(tHi, k)
                let found = significant(w, from: lo, to: hi, threshold: 0.25 * (k == 4 ? rms4 : rms5()))
                if found.count >= 2 || (k == 5 && !found.isEmpty) {
                    // One significant slope at 2^5: its opposite slope, when at least 10 % as
                    // steep and within 160 ms, completes the wave (an asymmetric T whose
                    // slow return falls below ε_T; without it the offset is taken on the
                    // rising slope, ~100 ms early).
                    var slopes = found
                    if found.count == 1, let f = found.first {
                        let all = moduloMaxima(w, from: lo, to: min(widx(tLimit, k), hi + samples(0.1)))
                        if let j = all.firstIndex(of: f) {
                            let near = [j - 1, j + 1].filter { $0 >= 0 && $0 < all.count }.map { all[$0] }
                                .filter { (w[$0] > 0) != (w[f] > 0) && abs(w[$0]) >= 0.1 * abs(w[f]) && abs($0 - f) <= samples(0.16) }
                            if let b = near.max(by: { abs(w[$0]) < abs(w[$1]) }) { slopes = [f, b].sorted() }
                        }
                    }
                    wave = shape(
                        w, slopes, delay: QuadraticSplineWavelet.delay(k), offsetLimit: widx(tLimit, k), onsetLimit: lo,
                        onRatio: 0.25, offRatio: 0.4, maxSpan: samples(0.2))
                    break
                }
            }
            if let t = wave {
                m.t = .present
                m.tPeak = t.peak
                m.tOffset = t.offset
                m.tShape = t.shape
            } else {
                m.t = .absent
            }
        }

        // MARK: P (scale 2^4)
        let pHi = Int(qrsOn.rounded(.down)) - samples(0.03)
        let pLo = max(Int(qrsOn.rounded(.down)) - samples(0.28), r - samples(0.4 * rrs))
        if pHi - pLo >= samples(0.06), pLo - samples(0.12) >= valid.lowerBound {
            let lo = widx(pLo, 4), hi = widx(pHi, 4)
            let found = significant(w4, from: lo, to: hi, threshold: 0.02 * rms4)
            if !found.isEmpty,
                let p = shape(
                    w4, found, delay: QuadraticSplineWavelet.delay(4), offsetLimit: widx(Int(qrsOn.rounded(.down)), 4),
                    onsetLimit: lo - samples(0.12), onRatio: 0.5, offRatio: 0.9, maxSpan: samples(0.1))
            {
                m.p = .present
                m.pOnset = p.onset
                m.pPeak = p.peak
                m.pOffset = p.offset
                m.pShape = p.shape
                m.pOnsetMasked = onsetMasked(w4, first: p.first)
            } else {
                m.p = .absent
            }
        }
        return m
    }

    /// A P or T wave: positions at 250 Hz.
    struct Wave {
        var onset: Double?, peak: Double?, offset: Double?
        var shape: WaveShape
        /// The index (of `w`) of the first maximum, the one the onset is walked back from.
        var first = 0
    }

    /// Whether a P wave's onset is masked by an overlapping wave in this lead: walking back from
    /// the wave's first maximum, |W| changes sign within 100 ms and the adjacent opposite-sign
    /// maximum (within 140 ms of the first) is at least as large as the first. The P's rising
    /// slope then starts on a steeper slope of the other sign — at high rates the previous
    /// beat's T wave (or a U wave) whose downslope the P rides on — so the onset found (ξ_Pon of
    /// the P's own maximum) is where the P emerges from that slope, not where it starts: on QTDB
    /// sel213 (RR 0.55 s) MLII's onsets lie +53 ± 28 ms after the marks, V1's −2 ± 26. Sörnmo L,
    /// Laguna P (2005) Bioelectrical Signal Processing in Cardiac and Neurological Applications,
    /// Elsevier, ch. 7 (P waves merging with the preceding T wave at high heart rates), and
    /// Martínez et al. 2004 (the P search window bounded by the previous T). The combined row
    /// prefers a lead whose P onset is not masked (``ECGWavesFamily/Combiner``); the lead's own
    /// onset is kept.
    /// - Parameters:
    ///   - w: the scale the P was delineated on (2^4).
    ///   - first: the index of the P's first maximum.
    static func onsetMasked(_ w: UnsafeBufferPointer<Float>, first: Int) -> Bool {
        let f = w[first]
        guard f != 0, first - 36 >= 1 else { return false }
        var i = first
        while i > first - 25 && w[i] * f > 0 { i -= 1 }
        guard w[i] * f <= 0 else { return false }
        var e = i
        while e > first - 35 && w[e - 1] * f <= 0 && abs(w[e - 1]) >= abs(w[e]) { e -= 1 }
        return abs(w[e]) >= abs(f)
    }

    /// The wave described by the significant maxima (indices of `w`, in order).
    /// - Parameters:
    ///   - delay: the scale's group delay (``QuadraticSplineWavelet/delay(_:)``).
    ///   - offsetLimit: last index the offset search may reach; `onsetLimit` first for the onset.
    ///   - onRatio: ξ_on as a share of the first maximum; `offRatio` ξ_off of the last.
    ///   - maxSpan: the most samples a biphasic wave's three maxima may span.
    static func shape(
        _ w: UnsafeBufferPointer<Float>, _ significant: [Int], delay: Double, offsetLimit: Int, onsetLimit: Int, onRatio: Float,
        offRatio: Float, maxSpan: Int = .max
    ) -> Wave? {
        // Consecutive maxima of one sign describe one slope (a notch on it): the largest stands
        // for it. Without this a notched falling slope hid the rising slope before it, and the
        // wave was taken as one slope with its onset on the notch.
        let found = oneSlopeEach(w, significant)
        guard var a = found.max(by: { abs(w[$0]) < abs(w[$1]) }) else { return nil }
        let ia = found.firstIndex(of: a)!
        // The larger opposite-sign neighbour among the significant maxima.
        var partner: Int?
        for j in [ia - 1, ia + 1] where j >= 0 && j < found.count && (w[found[j]] > 0) != (w[a] > 0) {
            if partner == nil || abs(w[found[j]]) > abs(w[found[partner!]]) { partner = j }
        }
        var firstI = ia, lastI = ia
        if let p = partner {
            firstI = min(ia, p)
            lastI = max(ia, p)
        }
        let top = abs(w[a])
        var biphasic = false
        if partner != nil {
            // A third alternating maximum of at least 25 % of the largest, the three spanning at
            // most `maxSpan` samples: biphasic.
            if lastI + 1 < found.count, (w[found[lastI + 1]] > 0) != (w[found[lastI]] > 0), abs(w[found[lastI + 1]]) >= 0.25 * top,
                found[lastI + 1] - found[firstI] <= maxSpan
            {
                lastI += 1
                biphasic = true
            } else if firstI > 0, (w[found[firstI - 1]] > 0) != (w[found[firstI]] > 0), abs(w[found[firstI - 1]]) >= 0.25 * top,
                found[lastI] - found[firstI - 1] <= maxSpan
            {
                firstI -= 1
                biphasic = true
            }
        }
        let first = found[firstI], last = found[lastI]
        var wave: Wave
        if firstI == lastI {
            wave = Wave(shape: w[a] > 0 ? .risingOnly : .fallingOnly)
        } else {
            // Peak: the zero crossing between the largest pair.
            if partner != nil {
                let i0 = found[min(ia, partner!)], i1 = found[max(ia, partner!)]
                a = i0
                var peak: Double?
                for i in i0..<i1 where (w[i] > 0) != (w[i + 1] > 0) || w[i + 1] == 0 {
                    let f = w[i] == w[i + 1] ? 0 : Double(w[i] / (w[i] - w[i + 1]))
                    peak = Double(i) + f - delay
                    break
                }
                let upright = w[i0] > 0
                let kind: WaveShape
                if biphasic {
                    // The first deflection's sign decides the biphasic kind.
                    kind = w[first] > 0 ? .biphasicPositiveFirst : .biphasicNegativeFirst
                } else {
                    kind = upright ? .upright : .inverted
                }
                wave = Wave(peak: peak, shape: kind)
            } else {
                wave = Wave(shape: w[a] > 0 ? .risingOnly : .fallingOnly)
            }
        }
        if let on = walk(w, from: first, step: -1, threshold: onRatio * abs(w[first]), limit: max(onsetLimit, 1)) {
            wave.onset = Double(on) - delay
        }
        if let off = walk(w, from: last, step: 1, threshold: offRatio * abs(w[last]), limit: min(offsetLimit, w.count - 2)) {
            wave.offset = Double(off) - delay
        }
        wave.first = first
        return wave
    }

    /// The maxima (indices of `w`, in order) with each run of consecutive maxima of one sign
    /// replaced by its largest: one slope with a notch gives two maxima of one sign, and the
    /// largest stands for the slope (the redundant modulus maxima of Li, Zheng & Tai 1995).
    static func oneSlopeEach(_ w: UnsafeBufferPointer<Float>, _ maxima: [Int]) -> [Int] {
        var out: [Int] = []
        out.reserveCapacity(maxima.count)
        for i in maxima {
            if let l = out.last, (w[l] > 0) == (w[i] > 0) {
                if abs(w[i]) > abs(w[l]) { out[out.count - 1] = i }
            } else {
                out.append(i)
            }
        }
        return out
    }

    /// From `start`, steps until |w| drops below `threshold` or has a local minimum; `nil` when
    /// `limit` is passed first.
    static func walk(_ w: UnsafeBufferPointer<Float>, from start: Int, step: Int, threshold: Float, limit: Int) -> Int? {
        var i = start + step
        while step < 0 ? i >= limit : i <= limit {
            guard i > 0 && i < w.count - 1 else { return nil }
            let v = abs(w[i])
            if v < threshold { return i }
            if v <= abs(w[i + step]) && v < abs(w[i - step]) { return i }
            i += step
        }
        return nil
    }

    /// Indices of local maxima of |w| in `from...to` (clamped).
    static func moduloMaxima(_ w: UnsafeBufferPointer<Float>, from: Int, to: Int) -> [Int] {
        let lo = max(from, 1), hi = min(to, w.count - 2)
        guard lo <= hi else { return [] }
        // Each |W| read once, through the pointer; every index written, the count advanced
        // when it is a maximum (no branch on the data).
        return [Int](unsafeUninitializedCapacity: hi - lo + 1) { out, made in
            let p = w.baseAddress!, o = out.baseAddress!
            var c = 0
            var previous = abs(p[lo - 1]), v = abs(p[lo])
            for i in lo...hi {
                let next = abs(p[i + 1])
                o[c] = i
                c += (v > 0 ? 1 : 0) & (v >= previous ? 1 : 0) & (v > next ? 1 : 0)
                previous = v
                v = next
            }
            made = c
        }
    }

    /// Modulus maxima in `from...to` above `threshold`.
    static func significant(_ w: UnsafeBufferPointer<Float>, from: Int, to: Int, threshold: Float) -> [Int] {
        moduloMaxima(w, from: from, to: to).filter { abs(w[$0]) > threshold }
    }

    /// Whether `v > factor ×` the median of |w| over `w[from..<to]` (clamped; the lower middle value
    /// of an even count), without sorting: the lower middle |w| times `factor` is below `v` exactly
    /// when more than half of the values are (at least `(n − 1) / 2 + 1` of them; `factor · x` is
    /// monotone in x). Empty range: `v > 0`. The noise gate of the pacing-spike and wide-QRS rules.
    /// - Complexity: O(to − from).
    static func exceedsMedianMagnitude(_ v: Float, factor: Float, _ w: UnsafeBufferPointer<Float>, from: Int, to: Int) -> Bool {
        let lo = max(from, 0), hi = min(to, w.count)
        guard hi > lo else { return v > 0 }
        var below = 0
        for i in lo..<hi { below += factor * abs(w[i]) < v ? 1 : 0 }
        return below >= (hi - lo - 1) / 2 + 1
    }

    /// Root mean square of `w[from..<to]` (clamped).
    static func rms(_ w: UnsafeBufferPointer<Float>, _ from: Int, _ to: Int) -> Float {
        let lo = max(from, 0), hi = min(to, w.count)
        guard hi > lo else { return 0 }
        var s: Double = 0
        for i in lo..<hi { s += Double(w[i]) * Double(w[i]) }
        return Float((s / Double(hi - lo)).squareRoot())
    }
}

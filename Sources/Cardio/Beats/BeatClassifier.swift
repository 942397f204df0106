import Foundation

/// Streaming heartbeat classifier: normal, supraventricular ectopic, ventricular ectopic or
/// unclassifiable, from the beat's morphology against a running normal template and its timing
/// against the running normal RR interval.
///
/// Input: the ECG samples of one lead (any unit, any polarity, 125–1000 Hz) and the R-peak
/// sample indices found on them (``RPeakDetector``). Output: one ``ClassifiedBeat`` per peak,
/// in order, with the ``BeatFeatures`` the decision used.
///
/// Algorithm (durations in seconds, so it works at any rate):
/// 1. **Morphology signal.** Blocks of `D = ⌊fs / 150⌋` samples are averaged to a working rate of
///    125–250 Hz, high-passed at 0.7 Hz and low-passed at 35 Hz (second-order Butterworth
///    sections). Each beat's segment (−300…+250 ms around the R apex, with ±80 ms of margin for
///    alignment; the QRS morphology uses −200…+250 ms, the P window of step 9 the rest) is
///    copied from a ring as soon as its samples are in.
/// 2. **Morphology clusters** (the template-matching scheme of Hamilton's open-source beat
///    classifier, EP Limited OSEA, Hamilton 2002): up to eight running-average templates. A beat
///    joins the template it correlates best with (Pearson, −100…+160 ms, ±12 ms alignment) when
///    the correlation is ≥ 0.92 and the RMS amplitude ratio within 0.6–1.6; otherwise it starts a
///    new cluster, replacing the least used one. Cluster weights decay by 1/256 per beat.
/// 3. **Normal cluster.** Among the clusters holding at least half the weight of the heaviest,
///    the one whose beats come least prematurely (mean RR-before / normal RR) — in bigeminy the
///    normal beats follow the compensatory pause, the ectopic ones the short coupling interval.
/// 4. **Features** (de Chazal et al. 2004: pre- and post-RR intervals, the local average RR,
///    QRS duration; Krasteva & Jekova 2007: correlation with the patient's own normal template,
///    amplitude and polarity): RR before and after, prematurity and pause against the running
///    RR average (exponential, weight 1/10, over all RR intervals within 0.4–2.5× of it: with
///    compensatory pauses the mean of all intervals stays at the sinus interval even in
///    bigeminy), QRS width from the 15 %-of-maximum slope envelope, correlation with the normal
///    template at the best alignment within ±40 ms, RMS amplitude ratio and the sign of the
///    dominant deflection. The template-matched fiducial point
///    (``BeatFeatures/normalAlignmentSamples``, for HRV) is searched within ±80 ms instead when
///    the normal QRS is 120 ms or wider — complete bundle branch block (Surawicz et al. 2009,
///    AHA/ACCF/HRS recommendations for the standardization and interpretation of the ECG,
///    part III, J Am Coll Cardiol 53(11):976–981, doi:10.1016/j.jacc.2008.12.013), whose
///    notched R apex can lie more than 40 ms from the template's; the correlation and the
///    amplitude the class uses stay at ±40 ms.
/// 5. **Ventricular probability:** a two-stage logistic model (de Chazal et al. 2004 use a linear
///    discriminant on similar features). Stage 1 takes the features, their squares and a few
///    products; stage 2 adds the cluster's history (how many beats it has, the running mean of
///    the stage-1 probability of its earlier beats), so a beat that joins an ectopic cluster
///    inherits its evidence (Hamilton's classifier labels templates, not single beats). The
///    weights were fitted on the DS1 half of MIT-BIH by `scripts/ecg/fit-beat-classifier.py`;
///    docs/VALIDATION.md reports the held-out DS2 half apart.
/// 6. **Class.** Ventricular when the probability exceeds 0.5; else unclassifiable when the beat is
///    outside the normal cluster with a correlation below 0.5 with the normal template (an
///    artefact or an unknown shape); else supraventricular when the rhythm is regular (mean
///    |ΔRR| of successive normal beats below 10 % of the RR average, so atrial fibrillation is
///    not read as ectopy) and the beat comes before 82 % of the RR average, or before 85 % of
///    it and is followed by an interval longer than 110 % of it (the short–long pattern of a
///    premature atrial beat that resets the sinus node; de Chazal et al. 2004 use the pre- and
///    post-RR intervals for the same reason); else supraventricular when the previous beat was
///    and this one still comes at over 100 bpm and before 90 % of the RR average that held
///    before the run's first beat (a supraventricular tachycardia keeps its rate until it
///    stops abruptly; sinus tachycardia speeds up gradually, so its first beat is not premature:
///    Page et al. 2016, "2015 ACC/AHA/HRS guideline for the management of adult patients with
///    supraventricular tachycardia", Circulation 133(14):e506–e574,
///    doi:10.1161/CIR.0000000000000311, define SVT by rates above 100 bpm); else
///    supraventricular by the atrial rule of step 9; else normal. A beat whose segment has masked
///    samples is unclassifiable.
/// 7. **Pause check** (``BeatFeatures/pauseSlopeRatio``, for HRV, not for the class): the
///    steepest slope of the morphology signal between 200 ms after the previous beat and 200 ms
///    before this one, over the smaller QRS slope of the two (intervals up to 2 s). A QRS the
///    R-peak detector missed is as steep as its neighbours; a pause without one (sinus pause,
///    blocked premature atrial beat, AV block, a long interval of atrial fibrillation) holds
///    only P and T waves. Below 0.2 — the fraction of the way from noise to QRS level at which
///    the detector searches back (Pan & Tompkins 1985, "A real-time QRS detection algorithm",
///    IEEE Trans. Biomed. Eng. 32(3):230–236, doi:10.1109/TBME.1985.325532, search back at half
///    their threshold) — ``NNSelection`` keeps the interval as NN even where the timing-only
///    artefact correction inserts a "missed" beat.
/// 8. **Fusion check** (``BeatFeatures/fusionSuspected``, for HRV, not for the class): a fusion
///    beat — a sinus and a ventricular activation meeting in the ventricles, AAMI class F, a
///    class of its own in the MIT-BIH annotations (Moody & Mark 2001; ANSI/AAMI EC57) — has a
///    contour intermediate between the two (Marriott, Schubart & Bradley 1962, "Ventricular
///    fusion beats", Circulation 26:880–884), often close enough to the normal one to be
///    classified normal, but its QRS amplitude departs from the normal beats'. A beat classified
///    normal is flagged when |ln(A / Ā)| exceeds 5 running spreads, where A is its RMS
///    amplitude over the correlation window, ln Ā the running mean of ln A over the normal
///    beats and the spread the running mean of |ln(A / Ā)| (both exponential with weight 1/64,
///    plain means over the first 64 beats; every normal beat updates them after its test). The
///    check is armed only once the stream has had a ventricular beat (fusion needs a ventricular
///    focus) and 64 normal beats, so recordings without ventricular ectopy are untouched.
///    Unrecognised ventricular or atrial beats taken for normal are caught the same way.
/// 9. **Atrial activity** (P-wave features as de Chazal et al. 2004 — P-wave presence and
///    duration — and Llamedo & Martínez 2011 and Mar et al. 2011 use them; here against the
///    patient's own sinus P, as the QRS against the own normal template): the segment reaches
///    300 ms before the R apex; the P window is 300…60 ms before it (a P wave with a PR interval
///    up to ~250 ms, ending before the QRS), taken at the normal template's alignment. A running
///    **sinus P template** (average over the last 16 contributing windows) is built from beats
///    with a QRS like the normal one (correlation ≥ 0.9), not ventricular and not premature
///    (prematurity ≥ 0.9); once it has 8 beats, a beat contributes only when its own P window
///    correlates ≥ 0.5 with it (ectopic atrial beats do not pull it), and 32 eligible beats in a
///    row that do not re-seed it (the sinus P changed). ``BeatFeatures/pCorrelation`` is the
///    Pearson correlation of the beat's P window with the template, taken as it is, slope
///    included: the window of an early atrial beat lies on the preceding T wave, and that ramp is
///    part of what sets it apart (with the least-squares line removed, EC57 SVEB Se fell from
///    76.8 % to 34.2 %, record 232; docs/RHYTHM.md), ``BeatFeatures/pAmplitudeRatio``
///    their RMS ratio, ``BeatFeatures/pTemplateAgreement`` the running mean correlation of the
///    contributing beats (how coherent the sinus P is; atrial fibrillation has none). The
///    **sinus RR** (``BeatFeatures/sinusRRSeconds``) is the running RR (weight 1/8) of the beats
///    whose P correlates ≥ 0.7 with the template, reported only while one of the last 16 beats
///    had such a P (in atrial fibrillation or flutter none has; the value before the episode
///    would be stale). ``BeatFeatures/rrIrregularity`` is the median of the last 16 successive
///    |ΔRR| over the RR average: low in a regular rhythm even with a few pauses, high in atrial
///    fibrillation (a mean is dominated by the pauses). **Atrial rule:** a beat with a normal
///    QRS (correlation ≥ 0.9) whose P window correlates below 0.2 with a coherent template
///    (agreement ≥ 0.8) — its P differs from the sinus P, is absent or hidden in the T wave — is
///    supraventricular when it comes before 85 % of the RR average in a regular rhythm (median
///    irregularity below 0.10), or before 60 % of the sinus RR: the beats of an ectopic atrial
///    rhythm can outnumber the sinus beats so that the RR average is their own, with the sinus
///    beats after the pauses (sinus bradycardia with ectopic atrial runs). A beat of this rule
///    starts no run for the run rule of step 6 (a P wave merging into the T wave as sinus
///    tachycardia speeds up must not start one). The thresholds are round values checked on
///    MIT-BIH DS1 (docs/VALIDATION.md reports DS2 apart). The template update does not depend on
///    the class, so the features are the same whatever the rule decides.
///
/// The fixed thresholds are physiological round numbers (a premature atrial beat comes before
/// ~80 % of the sinus interval; cluster match at a correlation of 0.92); no parameter depends on
/// the record.
///
/// **Streaming.** A beat is classified once its segment is in (250 + 80 ms after the R apex)
/// and the next R peak is known (for the RR after); ``finish(into:)`` classifies the last one.
/// Peaks may be given up to ``maximumPeakLatencySeconds`` after their samples (the R-peak
/// detector's latency is ≤ 4.2 s). Any chunking of samples and peaks gives the same output as
/// feeding everything at once.
///
/// References:
/// - G. B. Moody, R. G. Mark, "The impact of the MIT-BIH Arrhythmia Database", IEEE Eng. Med.
///   Biol. Mag. 20(3):45–50, 2001, doi:10.1109/51.932724; ANSI/AAMI EC57:2012, "Testing and
///   reporting performance results of cardiac rhythm and ST segment measurement algorithms"
///   (the fusion class F).
/// - P. Hamilton, "Open source ECG analysis", Computers in Cardiology 29:101–104, 2002,
///   doi:10.1109/CIC.2002.1166717 (EP Limited OSEA: beat templates, dominant beat, rhythm rules).
/// - P. de Chazal, M. O'Dwyer, R. B. Reilly, "Automatic classification of heartbeats using ECG
///   morphology and heartbeat interval features", IEEE Trans. Biomed. Eng. 51(7):1196–1206, 2004,
///   doi:10.1109/TBME.2004.827359 (RR features; the DS1/DS2 split of MIT-BIH).
/// - V. Krasteva, I. Jekova, "QRS template matching for recognition of ventricular ectopic beats",
///   Annals of Biomedical Engineering 35(12):2065–2076, 2007, doi:10.1007/s10439-007-9368-9.
/// - G. Llamedo, J. P. Martínez, "Heartbeat classification using feature selection driven by
///   database generalization criteria", IEEE Trans. Biomed. Eng. 58(3):616–625, 2011,
///   doi:10.1109/TBME.2010.2068048 (RR and wave features, inter-patient MIT-BIH evaluation).
/// - T. Mar, S. Zaunseder, J. P. Martínez, M. Llamedo, R. Poll, "Optimization of ECG
///   classification by means of feature selection", IEEE Trans. Biomed. Eng. 58(8):2168–2177,
///   2011, doi:10.1109/TBME.2011.2113395 (P-wave and interval features for the S class).
///
/// ```swift
/// var detector = RPeakDetector(sampleRate: 360)
/// var classifier = BeatClassifier(sampleRate: 360)
/// var peaks = [Int](), beats = [ClassifiedBeat]()
/// for block in blocks {
///     peaks.removeAll(keepingCapacity: true)
///     block.withUnsafeBufferPointer {
///         detector.process($0, flags: nil, into: &peaks)
///         classifier.process($0, flags: nil, peaks: peaks, into: &beats)
///     }
/// }
/// ```
public struct BeatClassifier: Sendable {
    /// Sample rate of the input, Hz.
    public let sampleRate: Double
    /// How long after its samples a peak may still be given, seconds.
    public let maximumPeakLatencySeconds: Double

    // MARK: Design

    let decimation: Int
    let workingRate: Double
    let highPass: Biquad
    let lowPass: Biquad
    /// Segment: `pre` before and `post` after the R apex, plus `margin` each side (working
    /// samples): the wide-QRS fiducial search (80 ms); classification uses `normalShift` (40 ms).
    let pre: Int, post: Int, margin: Int, normalShift: Int
    /// The part of `pre` the QRS morphology uses (200 ms); the rest reaches the P wave.
    let classPre: Int
    /// Atrial (P-wave) window before the R apex: from `pFrom` to `pTo` working samples before it.
    let pFrom: Int, pTo: Int
    /// Correlation window within the segment.
    let corrPre: Int, corrPost: Int
    /// Alignment search against a cluster and against the normal template.
    let clusterShift: Int
    let widthSearchPre: Int, widthSearchPost: Int, slopeSearch: Int, envelopeHalf: Int
    let baselinePre: Int, baselinePost: Int
    /// Pause check (``BeatFeatures/pauseSlopeRatio``): distance kept from both beats, and the
    /// half-width of the QRS slope search around the apex.
    let pauseMargin: Int, qrsSlopeHalf: Int, pauseLimit: Int
    let ringMask: Int

    // MARK: Signal state

    var ring: [Float]
    /// The block-averaged signal low-passed at 35 Hz only (no high-pass), in step with ``ring``:
    /// the R amplitude above the PR segment (``BeatFeatures/rAboveBaseline``) is read from it, so
    /// the high-pass's memory of the previous beats (a baseline that drifts between the PR segment
    /// and the apex by an amount set by the preceding RR interval) does not enter it.
    var lowRing: [Float]
    var workIndex = 0
    var rawIndex = 0
    var groupSum: Double = 0
    var groupCount = 0
    var groupMasked = false
    var inGap = true
    var hx1 = 0.0, hx2 = 0.0, hy1 = 0.0, hy2 = 0.0
    var lx1 = 0.0, lx2 = 0.0, ly1 = 0.0, ly2 = 0.0
    var ux1 = 0.0, ux2 = 0.0, uy1 = 0.0, uy2 = 0.0
    /// Peaks waiting for their segment (raw indices), from `queueHead`.
    var queue: [Int] = []
    var queueHead = 0
    var lastPeak = Int.min
    /// Segments waiting for the next peak.
    var extracted: [Segment] = []
    /// Masked working-sample runs (first, last) not older than the last extracted beat.
    var maskedRuns: [(first: Int, last: Int)] = []
    var lastExtractedCenter: Int?
    /// QRS slope of the last extracted beat (``BeatFeatures/pauseSlopeRatio``).
    var lastQRSSlope: Float?

    // MARK: Classification state

    var clusters: [Cluster] = []
    var clusterSerial = 0
    var normalCluster: Int?
    var normalRR: Double?
    var outlierRun = 0
    var irregularity: Double?
    var lastNormalRR: Double?
    /// The RR average before the first beat of the current supraventricular run, seconds.
    var runReferenceRR: Double?
    var previous: (sample: Int, beatClass: BeatClass)?
    /// Fusion check (item 8): a ventricular beat seen, the normal beats counted, the running
    /// mean of their ln RMS amplitude and the running mean absolute deviation from it.
    var ventricularSeen = false
    var normalAmplitudeCount = 0
    var normalLogAmplitude = 0.0
    var normalLogSpread = 0.0
    /// Atrial features (item 9): the running sinus P-window template, how many beats built it,
    /// and the running mean of those beats' P correlation with it (how consistent it is).
    var sinusP: [Float] = []
    var sinusPCount = 0
    var sinusPAgreement = 0.0
    /// Eligible beats in a row whose P did not match the template (it is re-seeded after
    /// ``sinusPReseedBeats``), the running RR of the beats with the sinus P, the last RR seen,
    /// and the ring of the last successive |ΔRR| / RR average with its sorting scratch.
    var sinusPMisses = 0
    var agreementCount = 0
    var sinusRRCount = 0
    var beatsSinceSinusP = Int.max / 2
    /// The last class came from the atrial rule (step 9).
    var decidedByAtrialRule = false
    var sinusRR: Double?
    var lastRR: Double?
    var rrDifferences: [Double] = []
    var rrDifferenceScratch: [Double] = []
    var rrDifferenceCount = 0

    /// Creates a classifier for a stream sampled at `sampleRate`.
    /// - Parameters:
    ///   - sampleRate: input sample rate, Hz, in 100...2000 (validated for 125–1000).
    ///   - maximumPeakLatencySeconds: how late a peak may be given after its samples, seconds
    ///     (default 6, above the R-peak detector's 4.2 s); older peaks are unclassifiable.
    /// - Complexity: O(sampleRate × maximumPeakLatencySeconds) for the ring.
    public init(sampleRate: Double, maximumPeakLatencySeconds: Double = 6) {
        precondition(sampleRate >= 100 && sampleRate <= 2000, "sample rate \(sampleRate) Hz outside 100...2000")
        precondition(maximumPeakLatencySeconds >= 0, "latency \(maximumPeakLatencySeconds) s")
        self.sampleRate = sampleRate
        self.maximumPeakLatencySeconds = maximumPeakLatencySeconds
        let d = max(1, Int((sampleRate / 150 + 1e-9).rounded(.down)))
        decimation = d
        let fw = sampleRate / Double(d)
        workingRate = fw
        highPass = Biquad(butterworthCutoff: 0.7, sampleRate: fw, highPass: true)
        lowPass = Biquad(butterworthCutoff: 35, sampleRate: fw, highPass: false)
        func work(_ s: Double) -> Int { max(1, Int((s * fw).rounded())) }
        pre = work(Self.pWindowStartSeconds); classPre = work(0.200); post = work(0.250)
        pFrom = work(Self.pWindowStartSeconds); pTo = work(Self.pWindowEndSeconds)
        margin = work(Self.wideShiftSeconds); normalShift = work(Self.normalShiftSeconds)
        corrPre = work(0.100); corrPost = work(0.160)
        clusterShift = work(0.012)
        widthSearchPre = work(0.150); widthSearchPost = work(0.200)
        slopeSearch = work(0.080); envelopeHalf = work(0.010)
        baselinePre = work(0.110); baselinePost = work(0.070)
        pauseMargin = work(0.200); qrsSlopeHalf = work(0.050); pauseLimit = work(2.0)
        var n = 1
        // The latency, the longest pause checked (2 s) and a second of slack.
        while n < work(maximumPeakLatencySeconds + 3.0) + pre + post + 2 * margin { n <<= 1 }
        ringMask = n - 1
        ring = [Float](repeating: .nan, count: n)
        lowRing = ring
        sinusP = [Float](repeating: 0, count: pFrom - pTo + 1)
        rrDifferences = [Double](repeating: 0, count: Self.irregularityBeats)
        rrDifferenceScratch = rrDifferences
    }

    /// Classifies the beats of a whole signal.
    /// - Parameters:
    ///   - samples: ECG samples of one lead, any unit and polarity.
    ///   - sampleRate: Hz.
    ///   - peaks: R-peak sample indices, increasing (e.g. from ``RPeakDetector/detect(_:sampleRate:flags:)``).
    ///   - flags: optional per-sample flags (bit 0 `signalInvalid`, bit 4 `missing` mask a sample).
    /// - Returns: one classified beat per peak, in order.
    /// - Complexity: O(n + b) for n samples and b beats.
    public static func classify(
        _ samples: [Float], sampleRate: Double, peaks: [Int],
        flags: [UInt8]? = nil
    ) -> [ClassifiedBeat] {
        var c = BeatClassifier(sampleRate: sampleRate)
        var out = [ClassifiedBeat]()
        out.reserveCapacity(peaks.count)
        samples.withUnsafeBufferPointer { x in
            if let flags {
                flags.withUnsafeBufferPointer { c.process(x, flags: $0, peaks: peaks, into: &out) }
            } else {
                c.process(x, flags: nil, peaks: peaks, into: &out)
            }
        }
        c.finish(into: &out)
        return out
    }

    /// Continues the stream with `samples` and the R peaks known now, appending every beat that
    /// can be classified to `beats`.
    /// - Parameters:
    ///   - samples: the next samples of the stream.
    ///   - flags: per-sample flags, same count, or `nil` (bit 0 `signalInvalid` or bit 4
    ///     `missing`, or a non-finite value, masks a sample).
    ///   - peaks: R-peak indices (from the start of the stream) not given before, increasing and
    ///     after every earlier peak; they may lie in this block, in earlier blocks (up to
    ///     ``maximumPeakLatencySeconds`` back) or ahead.
    ///   - beats: receives the classified beats, in peak order.
    /// - Complexity: O(samples.count + peaks.count).
    public mutating func process(
        _ samples: UnsafeBufferPointer<Float>, flags: UnsafeBufferPointer<UInt8>?,
        peaks: [Int], into beats: inout [ClassifiedBeat]
    ) {
        precondition(flags == nil || flags!.count == samples.count, "\(flags!.count) flags for \(samples.count) samples")
        for p in peaks {
            precondition(p > lastPeak, "peak \(p) not after the previous peak \(lastPeak)")
            lastPeak = p
            queue.append(p)
        }
        extractReady(&beats)
        var i = 0
        while i < samples.count {
            // Run the sample loop up to the point where the next queued segment is complete.
            let stop = queueHead < queue.count ? segmentEnd(queue[queueHead]) + 1 : Int.max
            i = ingest(samples, flags, from: i, untilWorkIndex: stop)
            if queueHead < queue.count && segmentEnd(queue[queueHead]) < workIndex { extractReady(&beats) }
        }
    }

    /// Ends the stream: classifies the remaining beats (segments cut by the end are padded with
    /// the last sample; the last beat has no RR after).
    /// - Parameter beats: receives the classified beats.
    /// - Complexity: O(pending beats).
    public mutating func finish(into beats: inout [ClassifiedBeat]) {
        while queueHead < queue.count {
            extracted.append(extract(queue[queueHead], final: true))
            queueHead += 1
        }
        queue.removeAll(); queueHead = 0
        drain(final: true, &beats)
    }

    // MARK: Ingestion

    /// Averages, filters and stores samples from `start` until the end of `samples` or until
    /// `workIndex` reaches `stop`; returns the index of the first sample not consumed. The state
    /// lives in locals for the loop (stored-property access in the loop was the cost).
    mutating func ingest(
        _ samples: UnsafeBufferPointer<Float>, _ flags: UnsafeBufferPointer<UInt8>?,
        from start: Int, untilWorkIndex stop: Int
    ) -> Int {
        let mask = RPeakDetector.maskingFlagBits
        let d = decimation, rm = ringMask
        let fp = flags?.baseAddress
        let hb0 = Double(highPass.b0), hb1 = Double(highPass.b1), hb2 = Double(highPass.b2)
        let ha1 = Double(highPass.a1), ha2 = Double(highPass.a2)
        let lb0 = Double(lowPass.b0), lb1 = Double(lowPass.b1), lb2 = Double(lowPass.b2)
        let la1 = Double(lowPass.a1), la2 = Double(lowPass.a2)
        var gs = groupSum, gc = groupCount, gm = groupMasked, wi = workIndex, gap = inGap
        var hx1 = self.hx1, hx2 = self.hx2, hy1 = self.hy1, hy2 = self.hy2
        var lx1 = self.lx1, lx2 = self.lx2, ly1 = self.ly1, ly2 = self.ly2
        var ux1 = self.ux1, ux2 = self.ux2, uy1 = self.uy1, uy2 = self.uy2
        var i = start
        var r = ring, u = lowRing
        ring = []
        lowRing = []
        r.withUnsafeMutableBufferPointer { rp in
            u.withUnsafeMutableBufferPointer { up in
                while i < samples.count && wi < stop {
                    if fp == nil && gc == 0 && i + d <= samples.count {
                        // Whole group without flags: a non-finite sample makes the sum non-finite.
                        var sum = 0.0
                        for j in i..<(i + d) { sum += Double(samples[j]) }
                        i += d
                        gc = d
                        if sum.isFinite { gs = sum } else { gm = true }
                    } else {
                        let v = samples[i]
                        if !v.isFinite || (fp.map { $0[i] & mask != 0 } ?? false) {
                            gm = true
                        } else {
                            gs += Double(v)
                        }
                        gc += 1
                        i += 1
                    }
                    guard gc == d else { continue }
                    let k = wi
                    wi += 1
                    if gm {
                        rp[k & rm] = .nan
                        up[k & rm] = .nan
                        noteMasked(k, continuing: gap)
                        gap = true
                    } else {
                        let x = gs / Double(d)
                        if gap {
                            // Restart the filters at rest on the first valid value (no step response).
                            gap = false
                            hx1 = x; hx2 = x; hy1 = 0; hy2 = 0
                            lx1 = 0; lx2 = 0; ly1 = 0; ly2 = 0
                            ux1 = x; ux2 = x; uy1 = x; uy2 = x
                        }
                        let hy = hb0 * x + hb1 * hx1 + hb2 * hx2 - ha1 * hy1 - ha2 * hy2
                        hx2 = hx1; hx1 = x; hy2 = hy1; hy1 = hy
                        let ly = lb0 * hy + lb1 * lx1 + lb2 * lx2 - la1 * ly1 - la2 * ly2
                        lx2 = lx1; lx1 = hy; ly2 = ly1; ly1 = ly
                        rp[k & rm] = Float(ly)
                        let uy = lb0 * x + lb1 * ux1 + lb2 * ux2 - la1 * uy1 - la2 * uy2
                        ux2 = ux1; ux1 = x; uy2 = uy1; uy1 = uy
                        up[k & rm] = Float(uy)
                    }
                    gs = 0; gc = 0; gm = false
                }
            }
        }
        ring = r
        lowRing = u
        rawIndex += i - start
        groupSum = gs; groupCount = gc; groupMasked = gm; workIndex = wi; inGap = gap
        self.hx1 = hx1; self.hx2 = hx2; self.hy1 = hy1; self.hy2 = hy2
        self.lx1 = lx1; self.lx2 = lx2; self.ly1 = ly1; self.ly2 = ly2
        self.ux1 = ux1; self.ux2 = ux2; self.uy1 = uy1; self.uy2 = uy2
        return i
    }

    /// Records masked working sample `k` (extending the last run when `continuing`).
    mutating func noteMasked(_ k: Int, continuing: Bool) {
        if continuing, let r = maskedRuns.last, r.last == k - 1 {
            maskedRuns[maskedRuns.count - 1].last = k
        } else {
            maskedRuns.append((k, k))
        }
    }

    /// Last working index a peak's segment needs.
    func segmentEnd(_ peak: Int) -> Int { peak / decimation + post + margin }

    mutating func extractReady(_ beats: inout [ClassifiedBeat]) {
        var any = false
        while queueHead < queue.count && segmentEnd(queue[queueHead]) < workIndex {
            extracted.append(extract(queue[queueHead], final: false))
            queueHead += 1
            any = true
        }
        if queueHead > 64 && queueHead * 2 > queue.count {
            queue.removeFirst(queueHead); queueHead = 0
        }
        if any || !extracted.isEmpty { drain(final: false, &beats) }
    }

    /// Copies a peak's segment from the ring (`final`: pad past the end with the last value).
    mutating func extract(_ peak: Int, final: Bool) -> Segment {
        let c = peak / decimation
        let first = c - pre - margin, last = c + post + margin
        let oldest = max(0, workIndex - ringMask - 1)
        var values = [Float](repeating: .nan, count: last - first + 1)
        var low = values
        // The segment must still be in the ring (before the stream start it is padded).
        let valid = workIndex > 0 && (first >= oldest || oldest == 0)
        if valid {
            for k in first...last {
                let j = min(max(k, oldest), workIndex - 1)
                values[k - first] = ring[j & ringMask]
                low[k - first] = lowRing[j & ringMask]
            }
        }
        // A masked run between the previous beat and this one makes the RR before a gap.
        var gapBefore = lastExtractedCenter == nil
        if let p = lastExtractedCenter {
            gapBefore = maskedRuns.contains { $0.last > p && $0.first < c }
        }
        maskedRuns.removeAll { $0.last < c }
        // Pause check: the steepest slope between the two beats against their QRS slopes.
        let center = pre + margin
        var qrs: Float = 0
        for k in (center - qrsSlopeHalf)..<(center + qrsSlopeHalf) {
            let d = abs(values[k + 1] - values[k])
            if d.isNaN { qrs = .nan; break }
            qrs = max(qrs, d)
        }
        var ratio: Double?
        if let p = lastExtractedCenter, let q = lastQRSSlope, valid, !gapBefore, !qrs.isNaN,
            let gap = maximumSlope(from: p + pauseMargin, to: c - pauseMargin, oldest: oldest)
        {
            let reference = min(q, qrs)
            if reference > 0 { ratio = Double(gap / reference) }
        }
        lastQRSSlope = valid && !qrs.isNaN ? qrs : nil
        lastExtractedCenter = c
        return Segment(sample: peak, values: values, low: low, valid: valid, gapBefore: gapBefore, pauseSlopeRatio: ratio)
    }

    /// Largest |x[k+1] − x[k]| of the ring for `first ≤ k < last`, or `nil` when the range is
    /// empty, no longer in the ring or holds masked samples.
    func maximumSlope(from first: Int, to last: Int, oldest: Int) -> Float? {
        guard first < last, last - first <= pauseLimit, first >= oldest, last < workIndex else { return nil }
        let rm = ringMask
        return ring.withUnsafeBufferPointer { r -> Float? in
            var m: Float = 0
            var previous = r[first & rm]
            for k in (first + 1)...last {
                let v = r[k & rm]
                let d = abs(v - previous)
                if d.isNaN { return nil }
                m = max(m, d)
                previous = v
            }
            return m
        }
    }

    /// Classifies extracted segments whose next peak is known.
    mutating func drain(final: Bool, _ beats: inout [ClassifiedBeat]) {
        var done = 0
        while done < extracted.count {
            let next: Int?
            if done + 1 < extracted.count {
                next = extracted[done + 1].sample
            } else if queueHead < queue.count {
                next = queue[queueHead]
            } else if final {
                next = nil
            } else {
                break
            }
            beats.append(classify(extracted[done], next: next))
            done += 1
        }
        if done > 0 { extracted.removeFirst(done) }
    }
}

/// One beat's morphology segment (working rate), R apex at index `pre + margin`.
struct Segment: Sendable {
    var sample: Int
    var values: [Float]
    /// The same span of ``BeatClassifier/lowRing`` (low-passed, not high-passed).
    var low: [Float]
    var valid: Bool
    var gapBefore: Bool
    /// ``BeatFeatures/pauseSlopeRatio``.
    var pauseSlopeRatio: Double?
}

/// A running-average morphology template.
struct Cluster: Sendable {
    var template: [Float]
    /// Zero-mean, unit-norm copy of the correlation window.
    var unit: [Float]
    var norm: Float
    var weight: Double
    var count: Int
    var widthSeconds: Double
    var polarity: Bool
    var meanPrematurity: Double?
    /// Unique number of the cluster within the stream.
    var serial: Int
    /// Running mean of the first-stage ventricular probability of the cluster's beats.
    var ventricularScore: Double
}

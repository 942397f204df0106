import DSP

/// The shared beat-series stage: beat times from any detector (ECG R-peaks, PPG systolic peaks)
/// → artefact correction → NN intervals → heart rate per window → HRV per window and for the
/// whole series.
///
/// Detected beats are appended as the detector finds them (``append(segment:sampleIndex:timeSeconds:)``);
/// ``finish(beat:heartRate:hrv:)`` corrects each segment with ``LipponenTarvainenCorrection``
/// (its iterative detection runs over a whole segment, so a segment's beats become final at
/// its end), and emits every beat, heart-rate window and HRV result in time order as it goes.
///
/// - Beat times: ``SeriesBeat/detectionTimeSeconds`` is where the detector put the beat and is
///   never moved; the corrected series is ``SeriesBeat/nnTimeSeconds`` / ``SeriesBeat/nnMilliseconds``.
///   Beats inserted by the correction have no detection time; detected beats removed as extra
///   have no corrected time. No interval spans two segments.
/// - Heart rate: windows of ``BeatSeriesOptions/heartRateWindowSeconds`` every
///   ``BeatSeriesOptions/heartRateStepSeconds``, aligned to the stream's first sample (``cover(from:to:)``)
///   and covering it to its last sample; 60000 / the mean NN interval ending in the window.
/// - HRV: ``HRVAnalysis`` over windows of ``BeatSeriesOptions/hrvWindowSeconds`` and over the whole series
///   (Task Force 1996; NeuroKit2 names).
///
/// Memory: until ``finish(beat:heartRate:hrv:)`` the detected beats sit in a ``BeatStore``: 4
/// bytes per beat for a uniformly sampled unclassified series (PPG: its sample index; the time is
/// the segment's time base, checked bit for bit), 21 for a classified one (ECG), against 29 in
/// per-beat arrays before; then per beat of the segment being corrected the correction's working
/// arrays (about 6 × 8 bytes while it detects, the corrected series and its flags), 17 bytes per
/// interval of the corrected series (33 for a classified series, whose HRV intervals lie between
/// fiducial points), and for the HRV 16 bytes per NN interval (interval and closing time, as
/// `Double`), which the whole-series row needs all at once (its spectrum, entropies and DFA span
/// the whole series); the per-interval store is released before the whole-series analysis, whose
/// entropy range counting takes about 80 bytes an interval. A week of three PPG streams
/// (`sensorpipe-bench --long-ppg 7`, ≈ 968 000 pulses a stream) peaks in the first stream's
/// whole-series entropies, with the other two streams' beats waiting (docs/VALIDATION.md).
public struct BeatSeries: Sendable {
    /// Options in use.
    public let options: BeatSeriesOptions
    /// The detected beats until ``finish(beat:heartRate:hrv:)`` (segment, sample, time, class with
    /// bit 7 set when uncertain or ``unlabelled``, HRV fiducial offset relative to the detection
    /// time, pause-slope ratio of the interval before the beat), stored compactly.
    var beats = BeatStore()
    /// Spans (seconds) whose intervals HRV leaves out (e.g. `unacceptable` quality windows).
    var unusable: [(start: Double, end: Double)] = []
    var firstTime: Double?
    var lastTime: Double?
    /// The spans (first and last sample time, s) the stream's samples cover, in order; spans
    /// closer than the shortest window are one. Windows that meet no span hold no data and are
    /// stepped over: a gap costs nothing, however long (docs/HARDENING.md, "Gaps").
    var covered: [(start: Double, end: Double)] = []
    static let unlabelled: UInt8 = 0xFF
    static let uncertainBit: UInt8 = 0x80

    /// Creates an empty series.
    /// - Parameter options: window lengths.
    public init(options: BeatSeriesOptions = BeatSeriesOptions()) {
        precondition(
            options.heartRateWindowSeconds > 0 && options.heartRateStepSeconds > 0
                && options.hrvWindowSeconds > 0, "window lengths must be positive")
        self.options = options
    }

    /// Detected beats so far.
    public var count: Int { beats.count }

    /// Times of the detected beats so far, seconds (tests and diagnostics).
    /// - Complexity: O(count).
    var times: [Double] { beats.times(0..<beats.count) }

    /// Sample indices of the detected beats so far (tests and diagnostics).
    /// - Complexity: O(count).
    var samples: [Int] { (0..<beats.count).map { beats.sample(at: $0) } }

    /// Segment numbers of the detected beats so far (tests and diagnostics).
    /// - Complexity: O(count · log runs).
    var segments: [Int32] { (0..<beats.count).map { beats.segment(at: $0) } }

    /// Extends the span the heart-rate windows cover (the stream's first and last sample times).
    /// - Complexity: O(1).
    public mutating func cover(from first: Double, to last: Double) {
        if firstTime == nil { firstTime = first }
        lastTime = last
        let join = min(options.heartRateWindowSeconds, options.hrvWindowSeconds)
        if let end = covered.last?.end, first - end <= join {
            covered[covered.count - 1].end = max(end, last)
        } else {
            covered.append((first, last))
        }
    }

    /// Appends a detected beat; beats come in time order, segment by segment.
    /// - Parameters:
    ///   - segment: the stream segment the beat lies in.
    ///   - sampleIndex: the beat's sample within its segment.
    ///   - timeSeconds: its time (Unix seconds, or seconds from the stream start).
    ///   - beatClass: the beat's class when the source classifies beats (ECG), else `nil`. With
    ///     classes, HRV uses only normal-to-normal intervals (see ``finish(beat:heartRate:hrv:)``).
    ///   - uncertain: the classification is uncertain (HRV leaves the beat's intervals out).
    ///   - fiducialOffsetSeconds: where the beat's HRV fiducial point lies relative to
    ///     `timeSeconds` (ECG: the normal-template match, ``BeatFeatures/normalAlignmentSamples``);
    ///     classified series measure NN intervals between fiducial points.
    ///   - pauseSlopeRatio: ``BeatFeatures/pauseSlopeRatio`` of the interval before the beat (ECG):
    ///     below 0.2, an interval the correction splits with a "missed" beat stays NN
    ///     (``NNSelection``).
    /// - Complexity: amortised O(1).
    public mutating func append(
        segment: Int, sampleIndex: Int, timeSeconds: Double, beatClass: BeatClass? = nil, uncertain: Bool = false,
        fiducialOffsetSeconds: Double = 0, pauseSlopeRatio: Double? = nil
    ) {
        append(
            segment: segment, sampleIndex: sampleIndex, timeSeconds: timeSeconds, timeBase: nil, beatClass: beatClass,
            uncertain: uncertain, fiducialOffsetSeconds: fiducialOffsetSeconds, pauseSlopeRatio: pauseSlopeRatio)
    }

    /// ``append(segment:sampleIndex:timeSeconds:beatClass:uncertain:fiducialOffsetSeconds:pauseSlopeRatio:)``
    /// with the segment's uniform time base (first sample time, s; sample rate, Hz): a beat whose
    /// time is `start + Double(sampleIndex) / rate` stores no time (``BeatStore``).
    /// - Complexity: amortised O(1).
    mutating func append(
        segment: Int, sampleIndex: Int, timeSeconds: Double, timeBase: (start: Double, rate: Double)?,
        beatClass: BeatClass? = nil, uncertain: Bool = false, fiducialOffsetSeconds: Double = 0, pauseSlopeRatio: Double? = nil
    ) {
        beats.append(
            segment: Int32(truncatingIfNeeded: segment), sampleIndex: sampleIndex, time: timeSeconds, timeBase: timeBase,
            label: beatClass.map { $0.rawValue | (uncertain ? Self.uncertainBit : 0) } ?? Self.unlabelled,
            fiducial: Float(fiducialOffsetSeconds), pauseRatio: pauseSlopeRatio.map { Float($0) } ?? .nan)
    }

    /// Leaves the intervals that end in `[start, end)` out of HRV (reason ``NNExclusion/quality``);
    /// spans come in time order.
    /// - Complexity: amortised O(1).
    public mutating func excludeFromHRV(from start: Double, to end: Double) {
        if let last = unusable.last, last.end >= start {
            unusable[unusable.count - 1].end = max(last.end, end)
        } else {
            unusable.append((start, end))
        }
    }

    /// Corrects the series and emits its results, each kind in time order: beats (detected,
    /// inserted and removed ones), then heart-rate windows, then HRV windows followed by the
    /// whole-series result (`scope` `.recording`, only with at least two NN intervals).
    ///
    /// Heart rate uses every interval of the corrected series (with
    /// ``BeatSeriesOptions/heartRateExcludesSpans``: every one outside excluded spans). When the beats carry classes,
    /// HRV uses only normal-to-normal intervals (``NNSelection``): both beats detected, normal
    /// and certain, not flagged ectopic by the correction, inside the physiological range and
    /// outside spans excluded with ``excludeFromHRV(from:to:)``, measured between the detected
    /// beats (an extra detection the correction removed does not split an interval). Without
    /// classes every corrected interval inside the physiological range (300–2000 ms) and outside
    /// excluded spans is used. Each HRV result carries its coverage
    /// (``HRVCoverage``) and leaves out metrics whose minimum data is not met
    /// (``HRVMinimumData``).
    /// - Parameters:
    ///   - beat: receives each beat.
    ///   - heartRate: receives each heart-rate window.
    ///   - hrv: receives each HRV result.
    /// - Complexity: O(beats · w) for the correction (w = 91-beat window), plus the HRV analyses.
    public mutating func finish(
        beat: (SeriesBeat) throws -> Void, heartRate: (HeartRateWindow) throws -> Void,
        hrv: (HRVResult) throws -> Void
    ) rethrows {
        let correction = LipponenTarvainenCorrection()
        var all = CorrectedIntervals()
        for (_, range) in beats.segmentRanges {
            try correctSegment(range, correction: correction, into: &all, beat: beat)
        }
        beats = BeatStore()
        if let first = firstTime, let last = lastTime {
            let w = options.heartRateWindowSeconds, step = options.heartRateStepSeconds
            var ws = first
            var lo = 0
            var span = 0
            while ws < last {
                // A window that meets no covered span holds no data: go to the first window
                // that reaches the next span (a gap costs O(1), not O(gap / step)).
                while span < covered.count && covered[span].end < ws { span += 1 }
                guard span < covered.count else { break }
                if covered[span].start >= ws + w {
                    let k = Int(((covered[span].start - w - first) / step).rounded(.down)) + 1
                    let next = first + Double(k) * step
                    ws = next > ws ? next : ws + step
                    continue
                }
                let we = ws + w
                while lo < all.times.count && all.times[lo] < ws { lo += 1 }
                var hi = lo, sum = 0.0, n = 0
                while hi < all.times.count && all.times[hi] < we {
                    if !options.heartRateExcludesSpans || all.exclusion[hi] != CorrectedIntervals.qualityCode {
                        sum += all.milliseconds[hi]
                        n += 1
                    }
                    hi += 1
                }
                try heartRate(
                    HeartRateWindow(
                        startSeconds: ws, endSeconds: we,
                        heartRateBPM: n >= 2 ? Self.finite(60000 / (sum / Double(n))) : nil,
                        intervalCount: n))
                ws += step
            }
        }
        try emitHRV(&all, hrv: hrv)
    }

    /// Corrects one segment's beats and emits them in time order (corrected beats and removed
    /// extra beats merged by their listed time).
    private func correctSegment(
        _ range: Range<Int>, correction: LipponenTarvainenCorrection, into all: inout CorrectedIntervals,
        beat: (SeriesBeat) throws -> Void
    ) rethrows {
        let detected = beats.times(range)
        let segment = Int(beats.segment(at: range.lowerBound))
        let base = range.lowerBound
        var artefactAt = [BeatArtifact?](repeating: nil, count: detected.count)
        let corrected: CorrectedBeats? = detected.count >= 3 ? correction.correct(beatTimesSeconds: detected) : nil
        for d in corrected?.detections.first ?? [] { artefactAt[d.beatIndex] = d.kind }
        let cTimes = corrected?.beatTimesSeconds ?? detected
        let cFlags = corrected?.corrections ?? Array(repeating: [], count: detected.count)
        // Match corrected beats to detected ones in order: each corrected beat that was not
        // inserted is the nearest of the next three detected beats (a removed extra beat or two
        // may lie between); detected beats left unmatched were removed as extra.
        var detectedIndexOf = [Int](repeating: -1, count: cTimes.count)
        var used = [Bool](repeating: false, count: detected.count)
        var j = 0
        for (i, t) in cTimes.enumerated() where !cFlags[i].contains(.inserted) && j < detected.count {
            var best = j
            for k in j..<min(detected.count, j + 3) where abs(detected[k] - t) < abs(detected[best] - t) { best = k }
            detectedIndexOf[i] = best
            used[best] = true
            j = best + 1
        }
        func rr(_ k: Int) -> Double? { k > 0 ? Self.finite(1000 * (detected[k] - detected[k - 1])) : nil }
        // Removed extra beats, in detection order (only when a correction ran).
        var removed = [Int]()
        if corrected != nil { for k in detected.indices where !used[k] { removed.append(k) } }
        var r = 0
        func emitRemoved(before t: Double?) throws {
            while r < removed.count, t.map({ detected[removed[r]] < $0 }) ?? true {
                let k = removed[r]
                try beat(
                    SeriesBeat(
                        detectionTimeSeconds: detected[k], nnTimeSeconds: nil, sampleIndex: beats.sample(at: base + k),
                        segment: segment, rrMilliseconds: rr(k), nnMilliseconds: nil, heartRateBPM: nil,
                        artefact: artefactAt[k], corrections: [], isRemovedExtra: true,
                        beatClass: BeatClass(rawValue: beats.label(at: base + k) & ~Self.uncertainBit)))
                r += 1
            }
        }
        // Class of each corrected beat (an inserted beat has none) and whether the correction
        // flagged it ectopic.
        let classified = beats.label(at: range.lowerBound) != Self.unlabelled
        func label(_ i: Int) -> UInt8 {
            guard let d = detectedIndexOf[i] >= 0 ? detectedIndexOf[i] : nil else { return BeatClass.normal.rawValue }
            return beats.label(at: base + d)
        }
        func flagged(_ i: Int) -> Bool {
            if cFlags[i].contains(.ectopic) { return true }
            let d = detectedIndexOf[i]
            return d >= 0 && artefactAt[d] == .ectopic
        }
        var previousLabel: UInt8 = 0
        var previousFlagged = false
        var previousDetected: Int?
        // The last detected beat of the corrected series (index in `detected` and in `cTimes`),
        // its label and flag: an interval split by inserted beats is measured from it.
        var lastDetected: (d: Int, i: Int, label: UInt8, flagged: Bool)?
        for (i, t) in cTimes.enumerated() {
            try emitRemoved(before: t)
            let d = detectedIndexOf[i] >= 0 ? detectedIndexOf[i] : nil
            let nnValue: Double? = i > 0 ? 1000 * (t - cTimes[i - 1]) : nil
            let own = label(i), isFlagged = flagged(i)
            var exclusion: NNExclusion?
            if let v = nnValue {
                let opening = cTimes[i - 1]
                // With classes, HRV takes the interval between the two detected beats (never
                // moved by the correction); an interval with an inserted beat is excluded.
                var hrvValue = v, hrvTime = t, hrvOpening = opening
                var labelPair = (previousLabel, own), flagPair = (previousFlagged, isFlagged)
                var inserted = previousDetected == nil || d == nil
                var previousDetectedForHRV = previousDetected
                // A "missed" beat the correction inserted where the signal shows no QRS: the
                // interval between the two detected beats is a real pause (NNSelection).
                if classified, previousDetected == nil, let b = d, let a = lastDetected, a.d == b - 1,
                    Double(beats.pauseRatio(at: base + b)) < BeatClassifier.pauseSlopeRatio
                {
                    labelPair = (a.label, own)
                    flagPair = (a.flagged, isFlagged)
                    inserted = false
                    previousDetectedForHRV = a.d
                    hrvOpening = cTimes[a.i]
                }
                if classified, let a = previousDetectedForHRV, let b = d {
                    let fa = detected[a] + Double(beats.fiducial(at: base + a)), fb = detected[b] + Double(beats.fiducial(at: base + b))
                    hrvValue = 1000 * (fb - fa)
                    hrvTime = fb
                }
                // Without classes (PPG) the physiological range still applies: a pulse interval
                // of 7.8 s (missed pulses the correction could not see as such) is not an NN
                // interval (Task Force 1996; the range of ``NNSelection``).
                exclusion =
                    classified
                    ? NNSelection.exclusion(
                        labels: labelPair, flagged: flagPair, inserted: inserted, milliseconds: hrvValue)
                    : NNSelection.rangeMilliseconds.contains(hrvValue) ? nil : .range
                if exclusion == nil && isUnusable(from: hrvOpening, to: t) { exclusion = .quality }
                all.append(milliseconds: v, hrvMilliseconds: hrvValue, closingTime: t, hrvClosingTime: hrvTime, exclusion: exclusion)
            }
            previousLabel = own
            previousFlagged = isFlagged
            previousDetected = d
            if let d { lastDetected = (d, i, own, isFlagged) }
            try beat(
                SeriesBeat(
                    detectionTimeSeconds: d.map { detected[$0] }, nnTimeSeconds: t,
                    sampleIndex: d.map { beats.sample(at: base + $0) }, segment: segment,
                    rrMilliseconds: d.flatMap(rr), nnMilliseconds: Self.finite(nnValue),
                    heartRateBPM: Self.finite(nnValue.map { 60000 / $0 }), artefact: d.flatMap { artefactAt[$0] },
                    corrections: cFlags[i], isRemovedExtra: false,
                    beatClass: classified ? d.flatMap { BeatClass(rawValue: beats.label(at: base + $0) & ~Self.uncertainBit) } : nil,
                    nnExclusion: exclusion))
        }
        try emitRemoved(before: nil)
    }

    /// `x` when finite, else `nil` (the tables write `null` for both).
    static func finite(_ x: Double?) -> Double? {
        guard let x, x.isFinite else { return nil }
        return x
    }
}

/// One beat of a beat series: a detected beat (possibly moved in the corrected series), a beat
/// inserted by artefact correction, or a detected beat the correction removed as extra (kept and
/// flagged, never silently dropped).
public struct SeriesBeat: Sendable, Hashable {
    /// Where the detector put the beat (ECG: the refined R apex), seconds; never moved by the
    /// correction; `nil` for a beat inserted by the correction.
    public var detectionTimeSeconds: Double?
    /// The beat's time in the corrected (NN) series, seconds; `nil` for a beat removed as extra.
    public var nnTimeSeconds: Double?
    /// Index of the detected beat's sample within its segment, or `nil` for an inserted beat.
    public var sampleIndex: Int?
    /// Segment number within the stream (no interval spans two segments).
    public var segment: Int
    /// Interval from the previous detected beat of the same segment, milliseconds; `nil` for the
    /// first detected beat of a segment and for inserted beats.
    public var rrMilliseconds: Double?
    /// Interval from the previous beat of the corrected series, milliseconds; `nil` for the
    /// first beat of a segment and for a beat removed as extra.
    public var nnMilliseconds: Double?
    /// Instantaneous heart rate 60000 / ``nnMilliseconds``, beats per minute.
    public var heartRateBPM: Double?
    /// The artefact Lipponen & Tarvainen (2019) found at this detected beat, or `nil`.
    public var artefact: BeatArtifact?
    /// What the correction did to this beat (empty for an untouched or removed beat).
    public var corrections: BeatCorrection
    /// Whether the correction removed this detected beat as extra.
    public var isRemovedExtra: Bool
    /// The detected beat's class when the source classifies beats (ECG), else `nil` (also for
    /// an inserted beat).
    public var beatClass: BeatClass? = nil
    /// Why the interval ending at this beat (``nnMilliseconds``) is left out of HRV, or `nil`
    /// when it is used (or there is no interval).
    public var nnExclusion: NNExclusion? = nil

    /// The time the beat is listed at: its corrected time, or for a removed beat its detection
    /// time.
    public var listedTimeSeconds: Double { nnTimeSeconds ?? detectionTimeSeconds ?? .nan }

    /// The correction as the tables write it: `ectopic`, `longShort`, `inserted`,
    /// `followsRemovedExtra` combined with `+`, `removedExtra`, or empty.
    public var correctionDescription: String {
        if isRemovedExtra { return "removedExtra" }
        var parts = [String]()
        if corrections.contains(.ectopic) { parts.append("ectopic") }
        if corrections.contains(.longShort) { parts.append("longShort") }
        if corrections.contains(.inserted) { parts.append("inserted") }
        if corrections.contains(.followsRemovedExtra) { parts.append("followsRemovedExtra") }
        return parts.joined(separator: "+")
    }
}

/// Mean heart rate in one window of a beat series (one row of the `heart_rate` table). Windows
/// are aligned to the stream's first sample and cover it up to its last sample.
public struct HeartRateWindow: Sendable, Hashable {
    /// Window start, seconds.
    public var startSeconds: Double
    /// Window end (exclusive), seconds.
    public var endSeconds: Double
    /// 60000 / the mean NN interval (ms) of the intervals ending in the window, beats per
    /// minute; `nil` with fewer than two intervals.
    public var heartRateBPM: Double?
    /// NN intervals ending in the window (beat-based rates only; ``method`` `.beats`).
    public var intervalCount: Int
    /// How the rate was measured: from beats (the default), or from the PPG spectrum.
    public var method: HeartRateMethod = .beats
    /// Confidence of a spectral estimate, 0…1 (share of the cleaned spectrum within ±6 bpm of
    /// the estimate); `nil` for beat-based rates.
    public var confidence: Double?
    /// Whether the row belongs to its source's one recommended series (the `recommended` column
    /// of `heart_rate`; docs/HRV.md): ECG `beats` of a single lead, the `fused` series when a
    /// device's leads are fused, PPG `spectral_offline`, the `device` beat list's `beats`. Set by the family; default `false`.
    public var isRecommended = false
}

/// How a heart-rate window was measured (the `method` column of `heart_rate`).
public enum HeartRateMethod: String, Sendable, Hashable, CaseIterable {
    /// 60000 / the mean NN interval of the beat series.
    case beats
    /// PPG spectral tracking with the accelerometer as motion reference, causal (no later data).
    case spectralOnline = "spectral_online"
    /// The same spectra, tracked by the Viterbi path over the recording (fixed lag).
    case spectralOffline = "spectral_offline"
}

/// HRV of one window of a beat series' NN intervals, or of the whole series (one row of the
/// `hrv` table). Computed by ``HRVAnalysis`` (Task Force 1996; NeuroKit2 names).
public struct HRVResult: Sendable, Equatable {
    /// What the result covers.
    public enum Scope: String, Sendable, Hashable {
        /// One window of ``BeatSeriesOptions/hrvWindowSeconds`` (default 5 minutes).
        case window
        /// The whole stream.
        case recording
    }

    /// Start, seconds: the window start, or for the whole stream the beat that opens its first
    /// NN interval.
    public var startSeconds: Double
    /// End, seconds: the window end, or for the whole stream its last beat.
    public var endSeconds: Double
    /// Window or whole stream.
    public var scope: Scope
    /// Every metric, in ``HRVAnalysis/metricNames`` order (`MeanNN`, `SDNN` and `RMSSD` in ms, …;
    /// units in `docs/RESULTS.md`); NaN where not computable.
    public var metrics: HRVMetrics
    /// NN intervals the result covers.
    public var intervalCount: Int
    /// The data the result rests on: NN count and duration, shares excluded, gaps.
    public var coverage = HRVCoverage()
    /// Why metrics are empty: each metric whose minimum data (``HRVMinimumData``) is not met,
    /// with the rule; empty when every metric has its minimum.
    public var nullReason = ""
}

extension BeatSeries {
    /// The beat-series options' former name.
    @available(*, deprecated, renamed: "BeatSeriesOptions")
    public typealias Options = BeatSeriesOptions
}

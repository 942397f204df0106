import DSP
import Signals

/// The ECG analysis of one stream: R-peaks, artefact correction, heart rate per window and HRV
/// (per 5-minute window and for the whole stream) and signal quality per window, as typed
/// results (``finishResults()``) or result-table rows (``finish()``).
///
/// Samples are consumed block by block (`consume(_:)`): the R-peak detector is streaming with
/// bounded look-ahead and restarts at every segment boundary, so memory is bounded by the block
/// size plus the beat list (8 bytes per beat). Beat-level analyses run in ``finishResults()``
/// over the whole beat series, segment by segment: no RR interval spans a gap.
///
/// ```swift
/// var analyzer = ECGAnalyzer(streamName: info.key.description)
/// for block in ecgBlocks { analyzer.consume(block) }
/// let results = analyzer.finishResults()   // beats, heartRate, hrv, quality, issues
/// ```
///
/// - Detection: ``RPeakDetector`` (Pan & Tompkins 1985; Hamilton & Tompkins 1986).
/// - Artefacts: ``LipponenTarvainenCorrection`` (Lipponen & Tarvainen 2019).
/// - HRV: ``HRVAnalysis`` (Task Force 1996; NeuroKit2 names).
/// - Quality: ``ECGQuality`` per 10-s window (Li et al. 2008; Orphanidou et al. 2015; Zhao &
///   Zhang 2018), with this detector's beats as the primary and Elgendi's as the second detector.
public struct ECGAnalyzer {
    /// The stream's key as written in the tables.
    public let streamName: String
    /// Options in use.
    public let options: ECGOptions

    var detector: RPeakDetector?
    /// Classifies the detector's beats (N, S, V, Q) for the beat series.
    var classifier: BeatClassifier?
    var classified: [ClassifiedBeat] = []
    var segment = -1
    var segmentStart = 0.0
    var rate = 0.0
    var peaks: [Int] = []
    // Quality: the window being filled and completed windows waiting for their beats to be final.
    var quality: ECGQuality?
    /// The quality windows' estimator, kept between windows, and the length it serves.
    var qualityWelch: (count: Int, welch: Welch)?
    /// Scratch of the quality windows' spectra.
    var qualityScratch: [Double] = []
    var windowLength = 0
    var windowSamples: [Float] = []
    var windowMasked: [Bool] = []
    /// The segment's quality windows (sample indices from its start, adjacent); ``WindowCutter/next``
    /// is the first window not yet assessed, held until every beat inside it is final.
    var qualityWindows = WindowCutter<Int>(length: 1, step: 1, origin: 0)
    var filledWindows = 0 // windows of the segment whose samples are complete
    var fed = 0 // samples fed to the detector in this segment
    var latencySamples = 0
    /// Windows `qualityWindows.next ..< filledWindows`: their samples and masks.
    var pendingWindows: [(samples: [Float], masked: [Bool])] = []
    /// Assessed quality windows, reduced to what beat labels and lead fusion need (21 bytes each).
    var qualityLabels: [LeadFusion.Window] = []
    /// Quality results not yet handed out (``takeQualityResults()``).
    var finishedQuality: [ECGQualityResult] = []
    /// Detected beats of the current segment, for the quality windows: (sample index).
    var segmentBeats: [Int] = []
    /// The beat series the detected beats go to.
    var series: BeatSeries
    /// Whether detected beats are kept for ``takeBeatEvents(microvoltsPerUnit:)`` (``ECGFamily``
    /// publishes them; a stand-alone analyzer keeps none).
    var collectsBeatEvents = false
    /// Beats waiting for their quality window's label before they are published (``ECGBeatEvents``).
    var pendingBeatEvents: [ECGBeatEvents.Pending] = []
    /// Problems that made parts of the stream unanalysable (reported, not hidden).
    public private(set) var issues: [String] = []
    /// The per-stream summary, set by ``finish(quality:beat:heartRate:hrv:)``.
    public private(set) var lastSummary: ECGSummary?

    /// Creates an analyzer for one ECG stream.
    public init(streamName: String, options: ECGOptions = ECGOptions()) {
        self.streamName = streamName
        self.options = options
        self.series = BeatSeries(options: options.series)
    }

    /// Feeds the next block of the stream.
    /// - Complexity: O(block length).
    public mutating func consume(_ block: SampleBlock) {
        if block.count > 0 { series.cover(from: block.time(at: 0), to: block.time(at: block.count - 1)) }
        guard case .uniform(let start, let sampleRate) = block.time else {
            if block.segment != segment {
                segment = block.segment
                issues.append("segment \(block.segment): irregular timestamps; regularise ECG before R-peak detection")
            }
            return
        }
        if block.segment != segment {
            closeSegment()
            segment = block.segment
            segmentStart = start
            rate = sampleRate
            if sampleRate >= 100 && sampleRate <= 2000 {
                detector = RPeakDetector(sampleRate: sampleRate)
                classifier = BeatClassifier(sampleRate: sampleRate)
                latencySamples = Int((detector!.maximumLatencySeconds * sampleRate).rounded(.up)) + 1
            } else {
                detector = nil
                classifier = nil
                issues.append("segment \(block.segment): sample rate \(sampleRate) Hz outside 100–2000 Hz; no R-peak detection")
            }
            fed = 0
            filledWindows = 0
            windowSamples.removeAll(keepingCapacity: true)
            windowMasked.removeAll(keepingCapacity: true)
            if sampleRate >= 125 && sampleRate <= 1000 {
                quality = ECGQuality(sampleRate: sampleRate, windowDurationSeconds: options.qualityWindowSeconds)
                windowLength = Int((options.qualityWindowSeconds * sampleRate).rounded())
                qualityWindows = WindowCutter(length: windowLength, step: windowLength, origin: 0)
            } else {
                quality = nil
                issues.append("segment \(block.segment): sample rate \(sampleRate) Hz outside 125–1000 Hz; no quality indices")
            }
        }
        guard detector != nil else { return }
        // Without a masking flag in the block the classifier takes its unflagged path (the same
        // result: a non-finite sample still masks its group).
        let mask = RPeakDetector.maskingFlagBits
        let masked = block.flags.contains { $0 & mask != 0 }
        block.columns[0].withUnsafeBufferPointer { v in
            block.flags.withUnsafeBufferPointer { f in
                detector!.process(v, flags: f, into: &peaks)
                classifier!.process(v, flags: masked ? f : nil, peaks: peaks, into: &classified)
            }
        }
        drainPeaks()
        fed += block.count
        if quality != nil { collectQuality(block) }
        if block.endsSegment { closeSegment() }
    }

    /// Cuts the block into quality windows; a window is assessed once every beat inside it is
    /// final (the detector's latency bound has passed its end), so at most two windows wait.
    mutating func collectQuality(_ block: SampleBlock) {
        let masking = SampleFlags.maskingFlags.rawValue
        var i = 0
        while i < block.count {
            let take = min(windowLength - windowSamples.count, block.count - i)
            windowSamples.append(contentsOf: block.columns[0][i..<i + take])
            for k in i..<i + take { windowMasked.append(block.flags[k] & masking != 0 || !block.columns[0][k].isFinite) }
            i += take
            if windowSamples.count == windowLength {
                pendingWindows.append((windowSamples, windowMasked))
                filledWindows += 1
                windowSamples.removeAll(keepingCapacity: true)
                windowMasked.removeAll(keepingCapacity: true)
            }
        }
        assessFinalWindows(upTo: fed - latencySamples)
    }

    /// Assesses pending windows that end at or before sample `limit` of the segment.
    mutating func assessFinalWindows(upTo limit: Int) {
        guard let q = quality else { pendingWindows.removeAll(); return }
        // Only filled windows, and those whose beats are final.
        let final = min(limit, qualityWindows.start(of: filledWindows))
        while let k = qualityWindows.nextFinal(through: final) {
            qualityWindows.releaseNext()
            let w = pendingWindows.removeFirst()
            let (start, end) = (qualityWindows.start(of: k), qualityWindows.end(of: k))
            // Beats of this segment inside the window (detected in order; older ones are dropped
            // once no pending window can hold them).
            var local = [Int]()
            var b = segmentBeats.count - 1
            while b >= 0 && segmentBeats[b] >= start { b -= 1 }
            b += 1
            while b < segmentBeats.count && segmentBeats[b] < end {
                local.append(segmentBeats[b] - start)
                b += 1
            }
            // The kept estimator and scratch, taken out (uniquely referenced) and put back.
            let n = w.samples.count
            var welch = qualityWelch?.count == n ? qualityWelch!.welch : QualitySpectrum.estimator(count: n, sampleRate: q.sampleRate)
            var scratch = qualityScratch.count == n ? qualityScratch : [Double](repeating: 0, count: n)
            (qualityWelch, qualityScratch) = (nil, [])
            let result = scratch.withUnsafeMutableBufferPointer { s in
                q.assessWindow(w.samples, masked: w.masked.contains(true) ? w.masked : nil, rPeaks: local, welch: &welch, scratch: s)
            }
            (qualityWelch, qualityScratch) = ((n, welch), scratch)
            let quality = ECGQualityResult(
                startSeconds: segmentStart + Double(start) / rate, endSeconds: segmentStart + Double(end) / rate,
                label: result.label, fuzzyLabel: result.fuzzyLabel, kurtosis: result.kurtosis,
                skewness: result.skewness, pSQI: result.pSQI, basSQI: result.basSQI, bSQI: result.bSQI,
                templateCorrelation: result.templateMatch.templateCorrelation,
                isTemplateAcceptable: result.templateMatch.isAcceptable, fuzzyScore: result.fuzzyEvaluation.score,
                maskedFraction: result.maskedFraction, beatCount: result.beatCount)
            qualityLabels.append(
                LeadFusion.Window(
                    start: quality.startSeconds, end: quality.endSeconds, label: quality.label,
                    templateCorrelation: Float(quality.templateCorrelation)))
            finishedQuality.append(quality)
        }
        // Beats before the earliest window still waiting can no longer be needed.
        let keepFrom = qualityWindows.start(of: qualityWindows.next)
        if let drop = segmentBeats.firstIndex(where: { $0 >= keepFrom }) {
            if drop > 4096 { segmentBeats.removeFirst(drop) }
        } else if segmentBeats.count > 4096 {
            segmentBeats.removeAll(keepingCapacity: true)
        }
    }

    mutating func drainPeaks() {
        segmentBeats.append(contentsOf: peaks)
        peaks.removeAll(keepingCapacity: true)
        for b in classified {
            if collectsBeatEvents {
                pendingBeatEvents.append(ECGBeatEvents.Pending(segment: segment, time: segmentStart + Double(b.sample) / rate, beat: b))
            }
            series.append(
                segment: segment, sampleIndex: b.sample, timeSeconds: segmentStart + Double(b.sample) / rate,
                beatClass: b.beatClass, uncertain: Self.isUncertain(b),
                fiducialOffsetSeconds: Self.fiducialOffsetSamples(b) / rate, pauseSlopeRatio: b.features.pauseSlopeRatio)
        }
        classified.removeAll(keepingCapacity: true)
    }

    mutating func closeSegment() {
        if detector != nil {
            detector!.finish(into: &peaks)
            classifier!.process(UnsafeBufferPointer(start: nil, count: 0), flags: nil, peaks: peaks, into: &classified)
            classifier!.finish(into: &classified)
            drainPeaks()
            detector = nil
            classifier = nil
        }
        // Every beat is final now; the trailing partial window (< one window) is not assessed.
        assessFinalWindows(upTo: Int.max)
        pendingWindows.removeAll()
        segmentBeats.removeAll(keepingCapacity: true)
        windowSamples.removeAll(keepingCapacity: true)
        windowMasked.removeAll(keepingCapacity: true)
    }

    /// Hands out the quality windows assessed since the last call (each is final: every beat
    /// inside it is known), in time order.
    /// - Complexity: O(windows handed out).
    public mutating func takeQualityResults() -> [ECGQualityResult] {
        defer { finishedQuality.removeAll(keepingCapacity: true) }
        return finishedQuality
    }

    /// Ends the stream and emits the beat-level results as they are computed (artefact
    /// correction segment by segment, beats with their intervals, heart rate per window, HRV per
    /// window and for the whole stream), after the last quality windows. Call once, after the
    /// last ``consume(_:)``; nothing of the beat series is held as rows.
    /// - Parameters:
    ///   - quality: receives the remaining quality windows.
    ///   - beat: receives each beat, in time order.
    ///   - heartRate: receives each heart-rate window.
    ///   - hrv: receives each HRV result (windows, then the whole stream).
    /// - Complexity: that of ``BeatSeries/finish(beat:heartRate:hrv:)``.
    public mutating func finish(
        quality: (ECGQualityResult) throws -> Void, beat: (ECGBeat) throws -> Void,
        heartRate: (HeartRateWindow) throws -> Void, hrv: (HRVResult) throws -> Void
    ) rethrows {
        closeSegment()
        for q in takeQualityResults() { try quality(q) }
        lastSummary = try Self.finish(
            &series, windows: qualityLabels, excludesUnacceptable: options.hrvExcludesUnacceptable, beat: beat,
            heartRate: heartRate, hrv: hrv)
    }

    /// Closes the stream's last segment and returns its beats and quality windows as one lead of
    /// a ``LeadFusion`` (``finish(quality:beat:heartRate:hrv:)`` may still be called after).
    mutating func fusionLead() -> LeadFusion.Lead {
        closeSegment()
        return LeadFusion.Lead(series: series, windows: qualityLabels)
    }

    /// Finishes a beat series (a lead's, or one fused across leads) with its quality windows:
    /// leaves `unacceptable` windows out of HRV when asked, labels each beat with its window and
    /// tallies the summary.
    /// - Returns: the series' summary.
    static func finish(
        _ series: inout BeatSeries, windows labels: [LeadFusion.Window], excludesUnacceptable: Bool,
        beat: (ECGBeat) throws -> Void, heartRate: (HeartRateWindow) throws -> Void, hrv: (HRVResult) throws -> Void
    ) rethrows -> ECGSummary {
        if excludesUnacceptable {
            for w in labels where w.label == .unacceptable { series.excludeFromHRV(from: w.start, to: w.end) }
        }
        var tally = ECGSummary.Tally()
        for w in labels { tally.addWindow(seconds: w.end - w.start, unacceptable: w.label == .unacceptable) }
        try series.finish(
            beat: { b in
                tally.add(b)
                try beat(ECGBeat(beat: b, qualityLabel: Self.label(at: b.listedTimeSeconds, in: labels)))
            },
            heartRate: heartRate,
            hrv: { h in
                if h.scope == .recording { tally.recordingHRV = h }
                try hrv(h)
            })
        return tally.summary
    }

    /// Ends the stream and returns every result: the quality windows not yet handed out by
    /// ``takeQualityResults()``, and the beat-level results of
    /// ``finish(quality:beat:heartRate:hrv:)``. Call once, after the last ``consume(_:)``.
    /// - Returns: the typed results, in the tables' row order.
    /// - Complexity: O(beats · log beats) plus the HRV analysis; memory O(beats) for the arrays.
    public mutating func finishResults() -> ECGResults {
        var results = ECGResults(streamName: streamName, beats: [], heartRate: [], hrv: [], quality: [], issues: [])
        finish(
            quality: { results.quality.append($0) }, beat: { results.beats.append($0) },
            heartRate: { results.heartRate.append($0) }, hrv: { results.hrv.append($0) })
        results.issues = issues
        results.summary = lastSummary
        return results
    }

    /// `x` when finite, else `nil` (the tables write `null` for both).
    static func finite(_ x: Double?) -> Double? {
        guard let x, x.isFinite else { return nil }
        return x
    }

    /// The label of the assessed window holding time `t`, or `nil` outside assessed windows.
    static func label(at t: Double, in windows: [LeadFusion.Window]) -> ECGQualityLabel? {
        var lo = 0, hi = windows.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if windows[mid].end <= t { lo = mid + 1 } else { hi = mid }
        }
        guard lo < windows.count, windows[lo].start <= t else { return nil }
        return windows[lo].label
    }
}

extension ECGAnalyzer {
    /// The ECG options' former name.
    @available(*, deprecated, renamed: "ECGOptions")
    public typealias Options = ECGOptions
}

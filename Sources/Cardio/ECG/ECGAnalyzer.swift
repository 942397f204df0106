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
    /// Options of the ECG analysis.
    public struct Options: Sendable {
        /// Heart-rate window length, seconds (default 10).
        public var heartRateWindowSeconds = 10.0
        /// Heart-rate window step, seconds (default 10).
        public var heartRateStepSeconds = 10.0
        /// HRV window length, seconds (default 300).
        public var hrvWindowSeconds = 300.0
        /// Signal-quality window length, seconds (default 10, as Zhao & Zhang 2018).
        public var qualityWindowSeconds = 10.0
        /// Creates default options.
        public init() {}
    }

    /// The stream's key as written in the tables.
    public let streamName: String
    /// Options in use.
    public let options: Options

    var detector: RPeakDetector?
    var segment = -1
    var segmentStart = 0.0
    var rate = 0.0
    var peaks: [Int] = []
    var streamStart: Double?
    var lastSampleTime: Double?
    // Quality: the window being filled and completed windows waiting for their beats to be final.
    var quality: ECGQuality?
    var windowLength = 0
    var windowSamples: [Float] = []
    var windowMasked: [Bool] = []
    var windowStart = 0                 // sample index (in segment) of the window being filled
    var fed = 0                         // samples fed to the detector in this segment
    var latencySamples = 0
    var pendingWindows: [(start: Int, samples: [Float], masked: [Bool])] = []
    /// Quality windows, reduced to the values reported (a full ``ECGQualityWindow`` keeps
    /// per-beat data that would make memory grow with the recording).
    var qualityWindows: [ECGQualityResult] = []
    /// Detected beats per segment: (segment, sample index, time).
    var beats: [(segment: Int, sample: Int, time: Double)] = []
    /// Problems that made parts of the stream unanalysable (reported, not hidden).
    public private(set) var issues: [String] = []

    /// Creates an analyzer for one ECG stream.
    public init(streamName: String, options: Options = Options()) {
        self.streamName = streamName
        self.options = options
    }

    /// Feeds the next block of the stream.
    /// - Complexity: O(block length).
    public mutating func consume(_ block: SampleBlock) {
        if block.count > 0 {
            if streamStart == nil { streamStart = block.time(at: 0) }
            lastSampleTime = block.time(at: block.count - 1)
        }
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
                latencySamples = Int((detector!.maximumLatencySeconds * sampleRate).rounded(.up)) + 1
            } else {
                detector = nil
                issues.append("segment \(block.segment): sample rate \(sampleRate) Hz outside 100–2000 Hz; no R-peak detection")
            }
            fed = 0
            windowStart = 0
            windowSamples.removeAll(keepingCapacity: true)
            windowMasked.removeAll(keepingCapacity: true)
            if sampleRate >= 125 && sampleRate <= 1000 {
                quality = ECGQuality(sampleRate: sampleRate, windowDurationSeconds: options.qualityWindowSeconds)
                windowLength = Int((options.qualityWindowSeconds * sampleRate).rounded())
            } else {
                quality = nil
                issues.append("segment \(block.segment): sample rate \(sampleRate) Hz outside 125–1000 Hz; no quality indices")
            }
        }
        guard detector != nil else { return }
        block.columns[0].withUnsafeBufferPointer { v in
            block.flags.withUnsafeBufferPointer { f in
                detector!.process(v, flags: f, into: &peaks)
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
                pendingWindows.append((windowStart, windowSamples, windowMasked))
                windowStart += windowLength
                windowSamples.removeAll(keepingCapacity: true)
                windowMasked.removeAll(keepingCapacity: true)
            }
        }
        assessFinalWindows(upTo: fed - latencySamples)
    }

    /// Assesses pending windows that end at or before sample `limit` of the segment.
    mutating func assessFinalWindows(upTo limit: Int) {
        guard let q = quality else { pendingWindows.removeAll(); return }
        while let w = pendingWindows.first, w.start + windowLength <= limit {
            pendingWindows.removeFirst()
            let end = w.start + windowLength
            // Beats of this segment inside the window (the beat list is in time order).
            var local = [Int]()
            var k = beats.count - 1
            while k >= 0 && beats[k].segment == segment && beats[k].sample >= w.start { k -= 1 }
            k += 1
            while k < beats.count && beats[k].sample < end {
                if beats[k].segment == segment { local.append(beats[k].sample - w.start) }
                k += 1
            }
            let result = q.assessWindow(w.samples, masked: w.masked.contains(true) ? w.masked : nil, rPeaks: local)
            qualityWindows.append(ECGQualityResult(
                startSeconds: segmentStart + Double(w.start) / rate, endSeconds: segmentStart + Double(end) / rate,
                label: result.label, fuzzyLabel: result.fuzzyLabel, kurtosis: result.kurtosis,
                skewness: result.skewness, pSQI: result.pSQI, basSQI: result.basSQI, bSQI: result.bSQI,
                templateCorrelation: result.templateMatch.templateCorrelation,
                isTemplateAcceptable: result.templateMatch.isAcceptable, fuzzyScore: result.fuzzyEvaluation.score,
                maskedFraction: result.maskedFraction, beatCount: result.beatCount))
        }
    }

    mutating func drainPeaks() {
        for p in peaks { beats.append((segment, p, segmentStart + Double(p) / rate)) }
        peaks.removeAll(keepingCapacity: true)
    }

    mutating func closeSegment() {
        if detector != nil {
            detector!.finish(into: &peaks)
            drainPeaks()
            detector = nil
        }
        // Every beat is final now; the trailing partial window (< one window) is not assessed.
        assessFinalWindows(upTo: Int.max)
        pendingWindows.removeAll()
        windowSamples.removeAll(keepingCapacity: true)
        windowMasked.removeAll(keepingCapacity: true)
    }

    /// Ends the stream and computes the beat-level results: artefact correction, beats with their
    /// intervals, heart rate per window, HRV per window and for the whole stream, and the quality
    /// windows. Call once, after the last ``consume(_:)``.
    /// - Returns: the typed results, in the tables' row order.
    /// - Complexity: O(beats · log beats) plus the HRV analysis.
    public mutating func finishResults() -> ECGResults {
        closeSegment()
        var results = ECGResults(streamName: streamName, beats: [], heartRate: [], hrv: [], quality: qualityWindows,
                                 issues: issues)
        let correction = LipponenTarvainenCorrection()
        // NN intervals across segments, with their closing beat times (no interval spans a gap).
        var nn: [Double] = []
        var nnTimes: [Double] = []
        var start = 0
        while start < beats.count {
            var end = start
            while end < beats.count && beats[end].segment == beats[start].segment { end += 1 }
            let seg = Array(beats[start..<end])
            let times = seg.map(\.time)
            var artefactAt = [Int: BeatArtifact]()
            let corrected: CorrectedBeats? = times.count >= 3 ? correction.correct(beatTimesSeconds: times) : nil
            for d in corrected?.detections.first ?? [] { artefactAt[d.beatIndex] = d.kind }
            let cTimes = corrected?.beatTimesSeconds ?? times
            let cFlags = corrected?.corrections ?? Array(repeating: [], count: times.count)
            // Match corrected beats to detected ones in order: each corrected beat that was not
            // inserted is the nearest of the next three detected beats (a removed extra beat or
            // two may lie between); detected beats left unmatched were removed as extra.
            var detectedIndexOf = [Int: Int]()   // corrected index -> detected index
            var used = Set<Int>()
            var j = 0
            for (i, t) in cTimes.enumerated() where !cFlags[i].contains(.inserted) && j < times.count {
                var best = j
                for k in j..<min(times.count, j + 3) where abs(times[k] - t) < abs(times[best] - t) { best = k }
                detectedIndexOf[i] = best
                used.insert(best)
                j = best + 1
            }
            for (i, t) in cTimes.enumerated() {
                let d = detectedIndexOf[i]
                let nnValue: Double? = i > 0 ? 1000 * (t - cTimes[i - 1]) : nil
                if let v = nnValue { nn.append(v); nnTimes.append(t) }
                results.beats.append(ECGBeat(
                    timeSeconds: t, sampleIndex: d.map { seg[$0].sample }, segment: seg[0].segment,
                    rrMilliseconds: d.flatMap { $0 > 0 ? Self.finite(1000 * (times[$0] - times[$0 - 1])) : nil },
                    nnMilliseconds: Self.finite(nnValue), heartRateBPM: Self.finite(nnValue.map { 60000 / $0 }),
                    artefact: d.flatMap { artefactAt[$0] }, corrections: cFlags[i], isRemovedExtra: false,
                    qualityLabel: qualityLabel(at: t)))
            }
            for k in times.indices where !used.contains(k) && corrected != nil {
                results.beats.append(ECGBeat(
                    timeSeconds: times[k], sampleIndex: seg[k].sample, segment: seg[0].segment,
                    rrMilliseconds: k > 0 ? Self.finite(1000 * (times[k] - times[k - 1])) : nil,
                    nnMilliseconds: nil, heartRateBPM: nil, artefact: artefactAt[k], corrections: [],
                    isRemovedExtra: true, qualityLabel: qualityLabel(at: times[k])))
            }
            start = end
        }
        results.beats.sort { $0.timeSeconds < $1.timeSeconds }
        // Heart rate per window, aligned to the stream's first sample, up to its last sample.
        if let first = streamStart, let last = lastSampleTime {
            let w = options.heartRateWindowSeconds, step = options.heartRateStepSeconds
            var ws = first
            var lo = 0
            while ws < last {
                let we = ws + w
                while lo < nnTimes.count && nnTimes[lo] < ws { lo += 1 }
                var hi = lo, sum = 0.0
                while hi < nnTimes.count && nnTimes[hi] < we { sum += nn[hi]; hi += 1 }
                let n = hi - lo
                results.heartRate.append(HeartRateWindow(
                    startSeconds: ws, endSeconds: we, heartRateBPM: n >= 2 ? Self.finite(60000 / (sum / Double(n))) : nil,
                    intervalCount: n))
                ws += step
            }
        }
        // HRV: 5-minute windows and the whole stream.
        if nn.count >= 2, let series = try? NNIntervalSeries(intervalsMilliseconds: nn, closingBeatTimesSeconds: nnTimes) {
            let analysis = HRVAnalysis(windowSeconds: options.hrvWindowSeconds)
            for w in analysis.windows(series) {
                results.hrv.append(HRVResult(startSeconds: w.startSeconds, endSeconds: w.endSeconds, scope: .window,
                                             metrics: w.metrics, intervalCount: w.intervals.count))
            }
            results.hrv.append(HRVResult(startSeconds: nnTimes[0] - nn[0] / 1000, endSeconds: nnTimes[nnTimes.count - 1],
                                         scope: .recording, metrics: analysis.metrics(series), intervalCount: nn.count))
        }
        return results
    }

    /// `x` when finite, else `nil` (the tables write `null` for both).
    static func finite(_ x: Double?) -> Double? {
        guard let x, x.isFinite else { return nil }
        return x
    }

    /// The quality label of the window holding time `t`, or `nil` outside assessed windows.
    func qualityLabel(at t: Double) -> ECGQualityLabel? {
        var lo = 0, hi = qualityWindows.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if qualityWindows[mid].endSeconds <= t { lo = mid + 1 } else { hi = mid }
        }
        guard lo < qualityWindows.count, qualityWindows[lo].startSeconds <= t else { return nil }
        return qualityWindows[lo].label
    }

    public static func describe(_ c: BeatCorrection) -> String {
        var parts = [String]()
        if c.contains(.ectopic) { parts.append("ectopic") }
        if c.contains(.longShort) { parts.append("longShort") }
        if c.contains(.inserted) { parts.append("inserted") }
        if c.contains(.followsRemovedExtra) { parts.append("followsRemovedExtra") }
        return parts.joined(separator: "+")
    }
}

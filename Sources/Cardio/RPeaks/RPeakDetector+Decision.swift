extension RPeakDetector {
    /// Hamilton & Tompkins (1986) threshold coefficient between noise and QRS levels.
    static let thresholdCoefficient = 0.5
    /// Length of the learning period at the start of a stream, seconds (Pan & Tompkins 1985).
    static let learningSeconds = 2.0

    /// Start-up check, seconds: the beats accepted in the first 4.5 s of a stream are emitted
    /// only then, and only those whose maximum slope is at least ``startupSlopeRatio`` of the
    /// steepest among them. A sinus pause or sinoatrial block can leave no QRS complex in the
    /// 2 s learning period of a short recording (an excerpt starting inside a pause); levels
    /// learned from P and T waves alone make the detector accept them until the first QRS
    /// complex arrives, and the check drops them once it has (pauses up to ~4 s; the QRS
    /// complex must be confirmed before the check). It sets the latency bound at the start.
    static let startupSeconds = 4.5

    /// P and T waves rise at well under a fifth of the QRS complex's slope; ectopic and
    /// bundle-branch-block complexes, though wide, keep more than that.
    static let startupSlopeRatio = 0.2

    /// Search-back after this many mean RR intervals without a QRS (Hamilton & Tompkins: 1.5).
    static let searchBackFactor = 1.5

    /// Coefficient of the search-back threshold `NPL + 0.2·(QPL − NPL)`. Pan & Tompkins (1985)
    /// search back at half the detection threshold, `0.5·NPL + 0.25·(QPL − NPL)` here; measuring
    /// from the noise level instead keeps search-back above the noise peaks when the noise level
    /// is high (electrode-motion noise), and is nearly the same when it is low.
    static let searchBackCoefficient = 0.2

    /// Detection threshold `NPL + 0.5·(QPL − NPL)` (Hamilton & Tompkins 1986).
    var threshold: Double { levelThreshold(Self.thresholdCoefficient) }

    /// Search-back threshold `NPL + 0.2·(QPL − NPL)`.
    var searchBackThreshold: Double { levelThreshold(Self.searchBackCoefficient) }

    func levelThreshold(_ coefficient: Double) -> Double {
        var q = 0.0, n = 0.0
        for v in decision.qrsLevels { q += v }
        for v in decision.noiseLevels { n += v }
        q /= 8; n /= 8
        return n + coefficient * (q - n)
    }

    /// Mean of the last (up to) eight RR intervals, working samples; 1 s before any.
    var meanRR: Int {
        let c = min(decision.intervalCount, 8)
        guard c > 0 else { return Int(workingRate.rounded()) }
        var s = 0
        for i in 0..<c { s += decision.intervals[i] }
        return min(max(s / c, minimumRR), maximumRR)
    }

    /// Search-back never reaches further back than 1.5 × the longest mean RR interval.
    var searchBackLimit: Int { Int((Self.searchBackFactor * Double(maximumRR)).rounded()) }

    func isTWave(_ c: Candidate) -> Bool {
        decision.haveQRS && c.work - decision.lastQRS < tWaveWindow && c.maxSlope < 0.5 * decision.lastSlope
    }

    /// Classifies a confirmed candidate as QRS or noise.
    mutating func classify(_ c: Candidate, _ peaks: inout [Int]) {
        if decision.haveQRS && c.work - decision.lastQRS < refractory { return }
        let th = threshold
        if c.height > th {
            if !isTWave(c) { accept(c, &peaks) }
            return
        }
        if decision.searchBackFailed && c.height > searchBackThreshold && !isTWave(c) {
            accept(c, &peaks)
            return
        }
        decision.noiseLevels[decision.noiseNext] = c.height
        decision.noiseNext = (decision.noiseNext + 1) & 7
        if decision.noiseCandidates.count >= 32 { decision.noiseCandidates.removeFirst() }
        decision.noiseCandidates.append(c)
    }

    var levels: Levels {
        get {
            Levels(
                qrsLevels: decision.qrsLevels, qrsNext: decision.qrsNext, intervals: decision.intervals,
                intervalCount: decision.intervalCount, intervalNext: decision.intervalNext,
                haveQRS: decision.haveQRS, lastQRS: decision.lastQRS, lastSlope: decision.lastSlope,
                intervalValid: decision.intervalValid)
        }
        set {
            decision.qrsLevels = newValue.qrsLevels; decision.qrsNext = newValue.qrsNext
            decision.intervals = newValue.intervals; decision.intervalCount = newValue.intervalCount
            decision.intervalNext = newValue.intervalNext; decision.haveQRS = newValue.haveQRS
            decision.lastQRS = newValue.lastQRS; decision.lastSlope = newValue.lastSlope
            decision.intervalValid = newValue.intervalValid
        }
    }

    /// Takes `c` as a QRS complex: updates levels and RR intervals and holds it for 360 ms.
    /// A held beat within 360 ms before `c` with less than half of `c`'s slope was a P wave or
    /// an artefact, not a QRS (the T-wave rule of Hamilton & Tompkins applied backwards): it is
    /// dropped and its level updates undone.
    mutating func accept(_ c: Candidate, _ peaks: inout [Int]) {
        if let h = decision.held {
            if c.work - h.work < tWaveWindow && h.maxSlope < 0.5 * c.maxSlope, let before = decision.beforeHeld {
                levels = before
            } else {
                emit(h, &peaks)
            }
            decision.held = nil
            decision.beforeHeld = nil
        }
        decision.beforeHeld = levels
        if decision.haveQRS && decision.intervalValid {
            decision.intervals[decision.intervalNext] = c.work - decision.lastQRS
            decision.intervalNext = (decision.intervalNext + 1) & 7
            decision.intervalCount += 1
        }
        decision.intervalValid = true
        decision.qrsLevels[decision.qrsNext] = c.height
        decision.qrsNext = (decision.qrsNext + 1) & 7
        decision.haveQRS = true
        decision.lastQRS = c.work
        decision.lastSlope = c.maxSlope
        decision.noiseCandidates.removeAll { $0.work <= c.work }
        decision.searchBackFailed = false
        decision.nextDecay = c.work + silenceLength
        decision.held = c
    }

    /// Emits the held beat if no later beat can replace it any more (or unconditionally).
    mutating func releaseHeld(at k: Int, force: Bool, _ peaks: inout [Int]) {
        guard let h = decision.held, force || k - h.work >= tWaveWindow else { return }
        emit(h, &peaks)
        decision.held = nil
        decision.beforeHeld = nil
    }

    mutating func emit(_ c: Candidate, _ peaks: inout [Int]) {
        if decision.deferring {
            decision.startup.append(c)
            return
        }
        if c.apex > decision.lastEmitted {
            peaks.append(c.apex)
            decision.lastEmitted = c.apex
        }
    }

    /// Search-back (Pan & Tompkins 1985): with no QRS for `searchBackFactor` mean RR intervals,
    /// the highest candidate since the last QRS above the search-back threshold is a QRS.
    mutating func searchBackIfDue(at k: Int, _ peaks: inout [Int]) {
        while decision.haveQRS && !decision.searchBackFailed
            && Double(k - decision.lastQRS) > Self.searchBackFactor * Double(meanRR)
        {
            let th = searchBackThreshold
            var best: Candidate?
            // Bounded look-back keeps the latency bound (after a long silence the list is old).
            let oldest = k - searchBackLimit
            for c in decision.noiseCandidates
            where c.work >= oldest && c.work - decision.lastQRS >= refractory
                && c.height > th && !isTWave(c)
            {
                if best == nil || c.height > best!.height { best = c }
            }
            if let best { accept(best, &peaks) } else { decision.searchBackFailed = true }
        }
    }

    /// Ends the start-up check (see ``startupSeconds``): emits the beats held back since the
    /// start whose maximum slope is at least ``startupSlopeRatio`` of the steepest among them,
    /// preceded by the beats a backward search-back finds before the first of them.
    ///
    /// Backward search-back: the levels of the learning period come from its highest candidate
    /// (a large ectopic complex or artefact can set them), and forward search-back never looks
    /// before the first QRS complex, so a first beat below that threshold was lost. With the
    /// levels and mean RR interval now learned, the highest learning-period candidate within
    /// 1.5 mean RR intervals before the first beat, at least 360 ms before it, above the
    /// search-back threshold and with at least half the median maximum slope of the kept beats
    /// (P and T waves are slower) is a QRS complex; repeated from that beat backwards.
    mutating func endStartup(_ peaks: inout [Int]) {
        guard decision.deferring else { return }
        decision.deferring = false
        var top = 0.0
        for c in decision.startup { top = max(top, c.maxSlope) }
        let kept = decision.startup.filter { $0.maxSlope >= Self.startupSlopeRatio * top }
        let early = decision.early
        decision.startup = []
        decision.early = []
        var found = [Candidate]()
        if var first = kept.first {
            let slopes = kept.map(\.maxSlope).sorted()
            let slope = 0.5 * slopes[slopes.count / 2]
            let th = searchBackThreshold
            let reach = Int((Self.searchBackFactor * Double(meanRR)).rounded())
            while true {
                var best: Candidate?
                for c in early
                where c.work <= first.work - tWaveWindow && c.work >= first.work - reach && c.height > th
                    && c.maxSlope >= slope
                {
                    if best == nil || c.height > best!.height { best = c }
                }
                guard let b = best else { break }
                found.append(b)
                first = b
            }
        }
        for c in found.reversed() { emit(c, &peaks) }
        for c in kept { emit(c, &peaks) }
    }

    /// End of the stream (`finish`): a QRS complex cut by the last sample (R apex within
    /// ~0.1 s of the end) never fills its integration window, so it stays below the detection
    /// threshold, and search-back never comes due. The highest candidate whose integration
    /// window reaches the end (`work ≥ endWork − integratorLength`), at least a refractory
    /// period after the last QRS, above the search-back threshold and with at least half the
    /// last QRS's maximum slope (the upstroke is complete even when the complex is cut, and
    /// P and T waves are slower) is taken as a QRS complex.
    mutating func searchBackAtEnd(endWork: Int, _ peaks: inout [Int]) {
        guard decision.learned, decision.haveQRS else { return }
        let th = searchBackThreshold
        let slope = 0.5 * decision.lastSlope
        var best: Candidate?
        for c in decision.noiseCandidates
        where c.work >= endWork - integratorLength && c.work - decision.lastQRS >= refractory
            && c.height > th && c.maxSlope >= slope
        {
            if best == nil || c.height > best!.height { best = c }
        }
        if let best { accept(best, &peaks) }
    }

    /// Long silence (flat line, lead change): halve both levels so the detector re-adapts.
    mutating func decay(at k: Int) {
        for i in 0..<8 { decision.qrsLevels[i] *= 0.5; decision.noiseLevels[i] *= 0.5 }
        decision.searchBackFailed = false
        decision.nextDecay = k + decayInterval
    }

    /// End of the learning period: initial levels from the learning candidates, which are then
    /// classified in order.
    mutating func endLearning(at k: Int, _ peaks: inout [Int]) {
        let candidates = decision.learningCandidates
        guard let top = candidates.map(\.height).max() else {
            decision.learningEnd = k + learningLength
            return
        }
        decision.learned = true
        decision.learningCandidates = []
        if decision.deferring { decision.early = candidates }
        for i in 0..<8 { decision.qrsLevels[i] = top; decision.noiseLevels[i] = 0 }
        for c in candidates { classify(c, &peaks) }
        decision.nextDecay = (decision.haveQRS ? decision.lastQRS : k) + silenceLength
    }

    /// Valid samples resume after a gap at working index `k`.
    mutating func resume(at k: Int) {
        if decision.haveQRS { decision.lastQRS = max(decision.lastQRS, k - tWaveWindow) }
        decision.intervalValid = false
        decision.searchBackFailed = false
        if decision.learned { decision.nextDecay = k + silenceLength }
        scheduleNextCheck()
    }

    mutating func scheduleNextCheck() {
        var next = decision.deferring ? decision.startupEnd : Int.max
        if let p = decision.pending { next = p.work + candidateSpacing }
        if let h = decision.held { next = min(next, h.work + tWaveWindow) }
        if !decision.learned {
            next = min(next, decision.learningEnd)
        } else {
            next = min(next, decision.nextDecay)
            if decision.haveQRS && !decision.searchBackFailed {
                let due = decision.lastQRS + Int((Self.searchBackFactor * Double(meanRR)).rounded(.down)) + 1
                next = min(next, due)
            }
        }
        decision.nextCheck = next
    }
}

/// Fuses the detected beats of several ECG leads recorded together into one beat series
/// (`source` = `fused` in the beat-series tables).
///
/// Method (multi-lead fusion driven by signal quality, after Li, Mark & Clifford 2008, "Robust
/// heart rate estimation from multiple asynchronous noisy sources using signal quality indices
/// and a Kalman filter", Physiol Meas 29(1):15–32, doi:10.1088/0967-3334/29/1/002, and Johnson
/// et al. 2015, "Multimodal heart beat detection using signal quality indices", Physiol Meas
/// 36(8):1665–1677, doi:10.1088/0967-3334/36/8/1665, who take each window's beats from the
/// channel of best quality):
/// 1. **Inter-lead delay.** The R apex of one beat falls at slightly different times in
///    different leads (tens of ms, more for wide or paced complexes). Each lead's delay to the
///    first lead is the median offset of its beats to the first lead's nearest beat, over pairs
///    closer than ``pairingSeconds``; the lead's times are shifted by it, so the fused series keeps
///    one fiducial point whichever lead gives the timing (no interval jumps when the timing lead
///    changes).
/// 2. **Clusters.** The shifted beats of all leads are merged in time order; a cluster starts at
///    the earliest beat not yet used and takes the next beat of every other lead within
///    ``toleranceSeconds`` (at most one per lead: the detector never puts two beats of one lead
///    that close).
/// 3. **Cleanest lead.** At the cluster's time the cleanest lead is the one whose quality window
///    (``ECGQuality``: Zhao & Zhang 2018 label, then Orphanidou et al. 2015 template correlation)
///    ranks highest; a lead without an assessed window there (a gap, or before its first window)
///    ranks lowest, ties go to the earlier lead.
/// 4. **Decision.** The cluster is a beat when the cleanest lead detected it (its timing, class
///    and HRV fiducial are used) or, with three or more leads, when more than half the leads did
///    (then the best-ranked of them gives the timing). Beats only other leads saw are dropped:
///    with two leads, a beat counts when the cleaner lead saw it. A beat closer than
///    ``refractorySeconds`` to the previous fused beat (a cluster split at a window edge) is
///    dropped too. A fused segment ends where the timing lead crossed one of its own gaps since
///    it last gave a beat, so no fused interval spans a gap of the lead that timed it.
///
/// The result depends only on the leads' beats and quality windows, which do not depend on
/// block sizes, so a fused series is the same however the recording was chunked.
///
/// - Complexity: O(total beats · leads + windows) time; the output series plus, per lead, one
///   offset array for the delay median (8 bytes per paired beat).
struct LeadFusion {
    /// One assessed quality window of a lead, reduced to what fusion ranks by.
    struct Window: Sendable, Hashable {
        var start: Double
        var end: Double
        var label: ECGQualityLabel
        /// Template correlation (NaN when not computable).
        var templateCorrelation: Float
    }

    /// One lead: its detected beats and its quality windows (both in time order).
    struct Lead {
        var series: BeatSeries
        var windows: [Window]
    }

    /// Pairing distance for the inter-lead delay, seconds (EC57's 150-ms match window).
    static let pairingSeconds = 0.150
    /// Cluster width, seconds.
    static let toleranceSeconds = 0.100
    /// Minimum spacing of fused beats, seconds (the R-peak detector's candidate spacing).
    static let refractorySeconds = 0.250

    /// Rank of a window: label (excellent 2, barely acceptable 1, unacceptable 0), then template
    /// correlation; `nil` for no window.
    static func rank(_ w: Window?) -> (Int, Float) {
        guard let w else { return (-1, -.infinity) }
        let label: Int
        switch w.label {
        case .excellent: label = 2
        case .barelyAcceptable: label = 1
        case .unacceptable: label = 0
        }
        return (label, w.templateCorrelation.isNaN ? -.infinity : w.templateCorrelation)
    }

    /// The delay of `lead`'s beats after `reference`'s, seconds (median offset of pairs closer
    /// than ``pairingSeconds``; 0 without pairs).
    static func delay(of lead: [Double], after reference: [Double]) -> Double {
        guard !reference.isEmpty else { return 0 }
        var offsets = [Double]()
        offsets.reserveCapacity(lead.count)
        var j = 0
        for t in lead {
            while j + 1 < reference.count && reference[j + 1] <= t { j += 1 }
            var d = t - reference[j]
            if j + 1 < reference.count, abs(reference[j + 1] - t) < abs(d) { d = t - reference[j + 1] }
            if abs(d) < pairingSeconds { offsets.append(d) }
        }
        guard !offsets.isEmpty else { return 0 }
        offsets.sort()
        let n = offsets.count
        return n % 2 == 1 ? offsets[n / 2] : 0.5 * (offsets[n / 2 - 1] + offsets[n / 2])
    }

    /// Fuses the leads (at least two) into one beat series and its quality windows (on the first
    /// lead's windows, each with the best label of any lead at its middle).
    /// - Parameters:
    ///   - leads: the leads, the first one the timing reference.
    ///   - options: the fused series' windows.
    /// - Returns: the fused series (beats not yet finished) and its windows.
    static func fuse(_ leads: [Lead], options: BeatSeriesOptions) -> (series: BeatSeries, windows: [Window]) {
        var fused = BeatSeries(options: options)
        let n = leads.count
        guard n > 0 else { return (fused, []) }
        let leadTimes = leads.map { $0.series.beats.times(0..<$0.series.count) }
        let delays = leadTimes.map { delay(of: $0, after: leadTimes[0]) }
        // The fused series covers the union of its leads' sample spans (windows step over gaps
        // only where every lead has one).
        for span in leads.flatMap(\.series.covered).sorted(by: { $0.start < $1.start }) {
            fused.cover(from: span.start, to: span.end)
        }
        fused.firstTime = nil
        fused.lastTime = nil
        for l in leads {
            if let f = l.series.firstTime { fused.firstTime = min(fused.firstTime ?? f, f) }
            if let t = l.series.lastTime { fused.lastTime = max(fused.lastTime ?? t, t) }
        }
        var head = [Int](repeating: 0, count: n)
        var windowAt = [Int](repeating: 0, count: n)
        var member = [Int](repeating: -1, count: n)
        var last = -Double.infinity
        var previousFused: (lead: Int, index: Int)?
        var leadSegment = [Int32?](repeating: nil, count: n)
        var segment: Int32 = 0

        /// The window of lead `k` holding `t` (or the one just before, for the trailing partial
        /// window), advancing monotonically.
        func window(_ k: Int, _ t: Double) -> Window? {
            let ws = leads[k].windows
            while windowAt[k] + 1 < ws.count && ws[windowAt[k] + 1].start <= t { windowAt[k] += 1 }
            guard windowAt[k] < ws.count else { return nil }
            let w = ws[windowAt[k]]
            return w.start <= t && t < w.end + (w.end - w.start) ? w : nil
        }

        while true {
            // The cluster starts at the earliest head.
            var first = -1
            var t0 = Double.infinity
            for k in 0..<n where head[k] < leadTimes[k].count {
                let t = leadTimes[k][head[k]] - delays[k]
                if t < t0 {
                    t0 = t
                    first = k
                }
            }
            guard first >= 0 else { break }
            var size = 0
            for k in 0..<n {
                member[k] = -1
                guard head[k] < leadTimes[k].count else { continue }
                if k == first || leadTimes[k][head[k]] - delays[k] <= t0 + toleranceSeconds {
                    member[k] = head[k]
                    head[k] += 1
                    size += 1
                }
            }
            var cleanest = 0
            var best = rank(window(0, t0))
            var bestMember = member[0] >= 0 ? 0 : -1
            var bestMemberRank = member[0] >= 0 ? best : (-2, -.infinity)
            for k in 1..<n {
                let r = rank(window(k, t0))
                if r > best {
                    best = r
                    cleanest = k
                }
                if member[k] >= 0 && (bestMember < 0 || r > bestMemberRank) {
                    bestMember = k
                    bestMemberRank = r
                }
            }
            let from: Int
            if member[cleanest] >= 0 {
                from = cleanest
            } else if n >= 3 && 2 * size > n && bestMember >= 0 {
                from = bestMember
            } else {
                continue
            }
            let s = leads[from].series
            let i = member[from]
            let t = leadTimes[from][i] - delays[from]
            guard t - last >= refractorySeconds else { continue }
            last = t
            // A new fused segment where the timing lead crossed one of its gaps since it last gave
            // a beat (leads number their segments on their own, so their numbers are not used).
            let leadSegmentOfBeat = s.beats.segment(at: i)
            if let previous = leadSegment[from], previous != leadSegmentOfBeat { segment += 1 }
            leadSegment[from] = leadSegmentOfBeat
            // The pause check looked back to the lead's previous beat: valid for the fused
            // series only when that beat is the fused previous one too.
            let sameLead = previousFused.map { $0.lead == from && $0.index == i - 1 } ?? false
            fused.beats.append(
                segment: segment, sampleIndex: s.beats.sample(at: i), time: t, timeBase: nil, label: s.beats.label(at: i),
                fiducial: s.beats.fiducial(at: i), pauseRatio: sameLead ? s.beats.pauseRatio(at: i) : .nan)
            previousFused = (from, i)
        }
        // Windows: the first lead's grid, each with the best window of any lead at its middle.
        windowAt = [Int](repeating: 0, count: n)
        var windows = [Window]()
        windows.reserveCapacity(leads[0].windows.count)
        for w in leads[0].windows {
            let mid = 0.5 * (w.start + w.end)
            var best = w
            for k in 1..<n {
                if let o = window(k, mid), rank(o) > rank(best) {
                    best = Window(start: w.start, end: w.end, label: o.label, templateCorrelation: o.templateCorrelation)
                }
            }
            windows.append(best)
        }
        return (fused, windows)
    }
}

import DSP

/// Detection and correction of ectopic beats and beat-detection errors in a beat series, after
/// Lipponen & Tarvainen (2019), as implemented in NeuroKit2's `signal_fixpeaks(method="Kubios")`.
///
/// Detection (one pass), with `RR` the intervals in seconds (`RR[i]` ends at beat `i`; `RR[0]`
/// is the mean of the others):
/// - `dRR[i] = RR[i] − RR[i−1]` (`dRR[0]` the mean of the others), divided by the time-varying
///   threshold `Th1 = α·QD(|dRR|)`, `QD = (Q3 − Q1)/2` the quartile deviation over the 91 beats
///   centred on `i` (fewer at the ends);
/// - `mRR = RR − median(RR over 11 beats)`, negative values doubled, divided by
///   `Th2 = α·QD(|mRR|)` over 91 beats;
/// - `S12[i]` = max(dRR[i−1], dRR[i+1]) when dRR[i] > 0, min(…) when < 0; `S22[i]` =
///   min(dRR[i+1], dRR[i+2]) when dRR[i] ≥ 0, max(…) otherwise (reflected at the ends);
/// - beat `i` with |dRR| > 1 is **ectopic** if `dRR > 1 ∧ S12 < −c1·dRR − c2` or
///   `dRR < −1 ∧ S12 > −c1·dRR + c2`; otherwise, it and (when |dRR[i+1]| < |dRR[i+2]|) beat
///   `i+1` are checked for a **long/short** interval (`dRR > 1 ∧ S22 < −1`, `|mRR| > 3`, or
///   `dRR < −1 ∧ S22 > 1`), which is an **extra** beat if also `dRR < −1 ∧ S22 > 1` and
///   `|RR[j] + RR[j+1] − medRR[j]| < Th2[j]`, a **missed** beat if `dRR > 1 ∧ S22 < −1` and
///   `|RR[j]/2 − medRR[j]| < Th2[j]`, and **long/short** otherwise.
///
/// Correction (in this order): extra beats are removed, missed beats get a beat inserted in the
/// middle of their interval, ectopic and then long/short beats are moved to the middle of their
/// neighbours. With ``iterative`` (default) detection is repeated on the corrected series while
/// it finds fewer artefacts than the previous pass. Parameters: `α = 5.2`, `c1 = 0.13`,
/// `c2 = 0.17`, 91-beat threshold windows, 11-beat median (the paper's values).
///
/// Nothing is removed silently: every detection of every pass is returned
/// (``CorrectedBeats/detections``), and each beat of the corrected series carries a
/// ``BeatCorrection`` flag set (moved, inserted, or next to a removed extra beat).
///
/// Differences from NeuroKit2 0.2.13: beat times are real numbers (NeuroKit2 rounds corrected
/// peaks down to whole samples); after removals and insertions, later artefacts are located by
/// beat identity (NeuroKit2 shifts indices one removal at a time, which misplaces a correction
/// that follows a second removed beat); as NeuroKit2, a missed beat is only filled at beat index
/// ≥ 2 and a moved beat must have index ≥ 2 and a beat after it.
///
/// Source: J. A. Lipponen and M. P. Tarvainen, "A robust algorithm for heart rate variability
/// time series artefact correction using novel beat classification", J. Med. Eng. Technol.
/// 43(3):173–181, 2019, doi:10.1080/03091902.2019.1640306.
public struct LipponenTarvainenCorrection: Sendable, Equatable {
    /// Threshold multiplier α of the quartile deviation; default 5.2.
    public var alpha: Double
    /// Slope c1 of the ectopic decision boundary; default 0.13.
    public var c1: Double
    /// Offset c2 of the ectopic decision boundary; default 0.17.
    public var c2: Double
    /// Beats in the centred window of the time-varying thresholds; default 91.
    public var thresholdWindowBeats: Int
    /// Beats in the centred median of RR; default 11.
    public var medianWindowBeats: Int
    /// Repeat detection and correction while the number of artefacts decreases; default `true`.
    public var iterative: Bool

    /// Creates a corrector with the paper's parameters by default.
    /// - Parameters:
    ///   - alpha: threshold multiplier (default 5.2), > 0.
    ///   - c1: ectopic boundary slope (default 0.13).
    ///   - c2: ectopic boundary offset (default 0.17).
    ///   - thresholdWindowBeats: threshold window in beats (default 91), odd, ≥ 3.
    ///   - medianWindowBeats: median window in beats (default 11), odd, ≥ 3.
    ///   - iterative: repeat while fewer artefacts are found (default `true`).
    /// - Complexity: O(1).
    public init(
        alpha: Double = 5.2, c1: Double = 0.13, c2: Double = 0.17,
        thresholdWindowBeats: Int = 91, medianWindowBeats: Int = 11, iterative: Bool = true
    ) {
        precondition(alpha > 0, "alpha must be positive")
        precondition(thresholdWindowBeats >= 3 && thresholdWindowBeats % 2 == 1, "threshold window must be odd and ≥ 3")
        precondition(medianWindowBeats >= 3 && medianWindowBeats % 2 == 1, "median window must be odd and ≥ 3")
        self.alpha = alpha
        self.c1 = c1
        self.c2 = c2
        self.thresholdWindowBeats = thresholdWindowBeats
        self.medianWindowBeats = medianWindowBeats
        self.iterative = iterative
    }

    /// One detection pass over beat times.
    /// - Parameter beatTimesSeconds: beat (R-peak) times in seconds, increasing.
    /// - Returns: the artefacts found, by beat index, in the order the paper's decision
    ///   flow visits them.
    /// - Complexity: O(n · w) for `n` beats and the threshold window `w` (sliding quantiles).
    public func detect(beatTimesSeconds: [Double]) -> [ArtifactDetection] {
        let n = beatTimesSeconds.count
        guard n >= 4 else { return [] }
        var rr = [Double](repeating: 0, count: n)
        for i in 1..<n { rr[i] = beatTimesSeconds[i] - beatTimesSeconds[i - 1] }
        rr[0] = mean(rr[1...])
        var drr = [Double](repeating: 0, count: n)
        for i in 1..<n { drr[i] = rr[i] - rr[i - 1] }
        drr[0] = mean(drr[1...])
        normalise(&drr)

        // Reflect padding by 2 (numpy 'reflect': the edge is not repeated).
        func padded(_ i: Int) -> Double {
            var j = i
            if j < 0 { j = -j }
            if j >= n { j = 2 * (n - 1) - j }
            return drr[j]
        }
        // S12 and S22 of beat i, computed where the decision reads them (no arrays).
        func s12(_ i: Int) -> Double {
            let d = drr[i]
            if d > 0 { return Swift.max(padded(i - 1), padded(i + 1)) }
            if d < 0 { return Swift.min(padded(i - 1), padded(i + 1)) }
            return 0
        }
        func s22(_ i: Int) -> Double {
            let d = drr[i]
            if d >= 0 { return Swift.min(padded(i + 1), padded(i + 2)) }
            if d < 0 { return Swift.max(padded(i + 1), padded(i + 2)) }
            return 0
        }
        let medrr = RollingWindow.median(rr, width: medianWindowBeats)
        var mrr = [Double](repeating: 0, count: n)
        for i in 0..<n {
            let v = rr[i] - medrr[i]
            mrr[i] = v < 0 ? 2 * v : v
        }
        let th2 = threshold(mrr)
        for i in 0..<n { mrr[i] = th2[i] != 0 ? mrr[i] / th2[i] : .nan }

        var found = [ArtifactDetection]()
        func record(_ j: Int, _ kind: BeatArtifact) {
            found.append(ArtifactDetection(beatIndex: j, kind: kind, timeSeconds: beatTimesSeconds[j]))
        }
        var i = 0
        while i < n - 2 {
            let d = drr[i]
            if abs(d) <= 1 { i += 1; continue }
            let eq1 = d > 1 && s12(i) < -c1 * d - c2
            let eq2 = d < -1 && s12(i) > -c1 * d + c2
            if eq1 || eq2 { record(i, .ectopic); i += 1; continue }
            if !(abs(d) > 1 || abs(mrr[i]) > 3) { i += 1; continue }
            var candidates = [i]
            if abs(drr[i + 1]) < abs(drr[i + 2]) { candidates.append(i + 1) }
            for j in candidates {
                let eq3 = drr[j] > 1 && s22(j) < -1
                let eq4 = abs(mrr[j]) > 3
                let eq5 = drr[j] < -1 && s22(j) > 1
                defer { i += 1 }
                if !(eq3 || eq4 || eq5) { continue }
                let eq6 = abs(rr[j] / 2 - medrr[j]) < th2[j]
                let eq7 = abs(rr[j] + rr[j + 1] - medrr[j]) < th2[j]
                if eq5 && eq7 { record(j, .extra); continue }
                if eq3 && eq6 { record(j, .missed); continue }
                record(j, .longShort)
            }
        }
        return found
    }

    /// Detects and corrects artefacts.
    /// - Parameter beatTimesSeconds: beat (R-peak) times in seconds, increasing.
    /// - Returns: the corrected beats with per-beat flags and every pass's detections.
    /// - Complexity: O(p · n · w) for `p` passes (usually 1–3).
    public func correct(beatTimesSeconds: [Double]) -> CorrectedBeats {
        var beats = beatTimesSeconds
        var flags = [BeatCorrection](repeating: [], count: beats.count)
        var passes = [[ArtifactDetection]]()
        var found = detect(beatTimesSeconds: beats)
        var previousCount = Int.max
        while !found.isEmpty && found.count < previousCount {
            passes.append(found)
            Self.apply(found, to: &beats, flags: &flags)
            guard iterative else { break }
            previousCount = found.count
            found = detect(beatTimesSeconds: beats)
        }
        return CorrectedBeats(beatTimesSeconds: beats, corrections: flags, detections: passes)
    }

    // MARK: - Internals

    func mean(_ values: ArraySlice<Double>) -> Double {
        var s = 0.0
        for v in values { s += v }
        return s / Double(values.count)
    }

    /// `α · (Q3 − Q1)/2` of |values| over the centred window (pandas `rolling(…, center=True,
    /// min_periods=1).quantile`, linear interpolation).
    func threshold(_ values: [Double]) -> [Double] {
        let magnitudes = values.map { abs($0) }
        var out = [Double](repeating: 0, count: values.count)
        let a = alpha
        RollingWindow.forEachWindow(magnitudes, width: thresholdWindowBeats) { i, w in
            out[i] = a * ((RollingWindow.quantile(w, 0.75) - RollingWindow.quantile(w, 0.25)) / 2)
        }
        return out
    }

    /// `values[i] / threshold[i]` in place (NaN where the threshold is 0), the threshold never
    /// held beside the values.
    func normalise(_ values: inout [Double]) {
        let magnitudes = values.map { abs($0) }
        let a = alpha
        RollingWindow.forEachWindow(magnitudes, width: thresholdWindowBeats) { k, w in
            let th = a * ((RollingWindow.quantile(w, 0.75) - RollingWindow.quantile(w, 0.25)) / 2)
            values[k] = th != 0 ? values[k] / th : .nan
        }
    }

    /// Applies one pass's corrections (extra, missed, ectopic, long/short), locating each by
    /// beat identity.
    static func apply(_ found: [ArtifactDetection], to beats: inout [Double], flags: inout [BeatCorrection]) {
        // Identity of each beat: its index in the pass's input; inserted beats get −1.
        let inputCount = beats.count
        var identity = Array(0..<inputCount)
        let extra = Set(found.filter { $0.kind == .extra }.map(\.beatIndex))
        let missed = found.filter { $0.kind == .missed }.map(\.beatIndex).sorted()
        if !extra.isEmpty {
            var keptBeats = [Double](), keptFlags = [BeatCorrection](), keptIdentity = [Int]()
            keptBeats.reserveCapacity(inputCount)
            keptFlags.reserveCapacity(inputCount)
            keptIdentity.reserveCapacity(inputCount)
            var afterRemoved = false
            for i in beats.indices {
                if extra.contains(i) { afterRemoved = true; continue }
                keptBeats.append(beats[i])
                keptFlags.append(afterRemoved ? flags[i].union(.followsRemovedExtra) : flags[i])
                keptIdentity.append(identity[i])
                afterRemoved = false
            }
            beats = keptBeats; flags = keptFlags; identity = keptIdentity
        }
        // Position of each identity in the current series (−1: removed), an array over the
        // pass's input instead of a dictionary (a week of beats: 8 instead of ≈ 40 bytes each).
        func positions() -> [Int] {
            var position = [Int](repeating: -1, count: inputCount)
            for (p, id) in identity.enumerated() where id >= 0 { position[id] = p }
            return position
        }
        if !missed.isEmpty {
            let position = positions()
            // Insert from the end so earlier positions stay valid.
            for j in missed.reversed() {
                let p = j >= 0 && j < inputCount ? position[j] : -1
                guard p > 1, p < beats.count else { continue }
                let value = beats[p - 1] + (beats[p] - beats[p - 1]) / 2
                beats.insert(value, at: p)
                flags.insert(.inserted, at: p)
                identity.insert(-1, at: p)
            }
        }
        for kind in [BeatArtifact.ectopic, .longShort] {
            let targets = found.filter { $0.kind == kind }.map(\.beatIndex)
            guard !targets.isEmpty else { continue }
            let position = positions()
            var moved = [(Int, Double)]()
            for j in targets {
                let p = j >= 0 && j < inputCount ? position[j] : -1
                guard p > 1, p < beats.count - 1 else { continue }
                moved.append((p, beats[p - 1] + (beats[p + 1] - beats[p - 1]) / 2))
            }
            for (p, value) in moved {
                beats[p] = value
                flags[p].insert(kind == .ectopic ? .ectopic : .longShort)
            }
            // NeuroKit2 re-sorts after moving; a moved beat stays between its neighbours.
        }
    }
}

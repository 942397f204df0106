extension RPeakDetector {
    /// Consumes a block of samples and appends the R peaks that are now final.
    ///
    /// - Parameters:
    ///   - samples: ECG samples (any unit, either polarity) following those already fed.
    ///   - flags: optional per-sample flags, same count as `samples`; a sample with bit 0
    ///     (`signalInvalid`) or bit 4 (`missing`) set is masked. Non-finite samples are masked too.
    ///   - peaks: receives absolute R-apex sample indices (from the start of the stream), increasing.
    /// - Complexity: O(n) for n samples; no allocation except when `peaks` grows.
    public mutating func process(
        _ samples: UnsafeBufferPointer<Float>, flags: UnsafeBufferPointer<UInt8>?,
        into peaks: inout [Int]
    ) {
        if let flags { precondition(flags.count == samples.count, "flags: \(flags.count) for \(samples.count) samples") }
        guard samples.count > 0 else { return }
        withRings { me, rp, bp, sp, qp in
            var start = 0
            while start < samples.count {
                let n = min(me.rawChunk, samples.count - start)
                me.run(samples, flags, start: start, count: n, raw: rp, band: bp, slope: sp, squared: qp, peaks: &peaks)
                start += n
            }
        }
    }

    /// Ends the stream: decides the pending candidates, appends the remaining peaks, and resets
    /// the detector for a new stream (indices start again at 0).
    ///
    /// A QRS complex that ends less than the band-pass and integrator delays (~0.15 s) before
    /// the last sample would never reach its full height, and the last beat of a short recording
    /// would be lost: once the levels are learned, the stream is first flushed with its last
    /// value held for 0.3 s (no new slope), and only peaks inside the real samples are kept.
    /// - Parameter peaks: receives the remaining R-apex indices.
    /// - Complexity: O(1) amortised (a few hundred samples of look-back).
    public mutating func finish(into peaks: inout [Int]) {
        let end = filter.inputIndex
        var tail = [Int]()
        if end > 0, decision.learned, !filter.inGap, case let last = raw[(end - 1) & rawMask], last.isFinite {
            let pad = [Float](repeating: last, count: max(1, Int((0.3 * sampleRate).rounded())))
            pad.withUnsafeBufferPointer { process($0, flags: nil, into: &tail) }
        }
        finishFlushed(endWork: end / decimation, into: &tail)
        for p in tail where p < end { peaks.append(p) }
    }

    mutating func finishFlushed(endWork: Int, into peaks: inout [Int]) {
        withRings { me, rp, bp, sp, qp in
            var st = me.filter
            if st.groupCount > 0 {
                let value = st.groupSum / Float(st.groupCount)
                let valid = !st.groupInvalid && value.isFinite
                me.step(value, valid: valid, newest: st.inputIndex - 1, &st, rp, bp, sp, qp, &peaks)
            }
            let k = st.workIndex - 1
            if let p = me.decision.pending {
                me.decision.pending = nil
                me.confirm(p.work, value: me.decision.pendingValue, at: k, newest: st.inputIndex - 1, rp, bp, sp, &peaks)
            }
            if !me.decision.learned && !me.decision.learningCandidates.isEmpty { me.endLearning(at: k, &peaks) }
            if me.decision.learned {
                me.searchBackIfDue(at: k, &peaks)
                me.searchBackAtEnd(endWork: endWork, &peaks)
            }
            me.releaseHeld(at: k, force: true, &peaks)
            me.endStartup(&peaks)
            me.filter = st
        }
        let fresh = RPeakDetector(sampleRate: sampleRate)
        filter = fresh.filter
        decision = fresh.decision
        for i in raw.indices { raw[i] = .nan }
        for i in band.indices { band[i] = 0; slope[i] = 0; slopeSquared[i] = 0 }
    }

    /// Moves the rings out of `self` for the duration of `body` (no exclusivity overlap, no
    /// copy-on-write checks in the hot loop).
    @inline(__always)
    mutating func withRings(
        _ body: (
            inout RPeakDetector, UnsafeMutablePointer<Float>, UnsafeMutablePointer<Float>,
            UnsafeMutablePointer<Float>, UnsafeMutablePointer<Float>
        ) -> Void
    ) {
        var r = raw, b = band, s = slope, q = slopeSquared
        raw = []; band = []; slope = []; slopeSquared = []
        Self.withPointers(&r, &b, &s, &q) { rp, bp, sp, qp in body(&self, rp, bp, sp, qp) }
        raw = r; band = b; slope = s; slopeSquared = q
    }

    @inline(__always)
    static func withPointers(
        _ r: inout [Float], _ b: inout [Float], _ s: inout [Float], _ q: inout [Float],
        _ body: (
            UnsafeMutablePointer<Float>, UnsafeMutablePointer<Float>,
            UnsafeMutablePointer<Float>, UnsafeMutablePointer<Float>
        ) -> Void
    ) {
        r.withUnsafeMutableBufferPointer { rp in
            b.withUnsafeMutableBufferPointer { bp in
                s.withUnsafeMutableBufferPointer { sp in
                    q.withUnsafeMutableBufferPointer { qp in
                        body(rp.baseAddress!, bp.baseAddress!, sp.baseAddress!, qp.baseAddress!)
                    }
                }
            }
        }
    }

    /// Processes `count` samples from `start` (at most a quarter of the raw ring).
    @inline(__always)
    mutating func run(
        _ x: UnsafeBufferPointer<Float>, _ flags: UnsafeBufferPointer<UInt8>?, start: Int, count: Int,
        raw rp: UnsafeMutablePointer<Float>, band bp: UnsafeMutablePointer<Float>,
        slope sp: UnsafeMutablePointer<Float>, squared qp: UnsafeMutablePointer<Float>,
        peaks: inout [Int]
    ) {
        var st = filter
        let mask = rawMask
        let base = st.inputIndex - start
        // Raw ring (NaN where masked) for the apex search.
        if let flags {
            for i in start..<start + count {
                rp[(base + i) & mask] = flags[i] & Self.maskingFlagBits != 0 ? .nan : x[i]
            }
        } else {
            for i in start..<start + count { rp[(base + i) & mask] = x[i] }
        }
        let d = decimation
        let scale = 1 / Float(d)
        var i = start
        let end = start + count
        if flags == nil && st.groupCount == 0 {
            // Whole groups without flags: the common case, kept tight.
            while i + d <= end {
                var sum: Float = 0
                for j in i..<i + d { sum += x[j] }
                i += d
                let value = sum * scale
                step(value, valid: value.isFinite, newest: base + i - 1, &st, rp, bp, sp, qp, &peaks)
            }
        }
        while i < end {
            let take = min(d - st.groupCount, end - i)
            var sum = st.groupSum
            for j in i..<i + take { sum += x[j] }
            if let flags {
                var any: UInt8 = 0
                for j in i..<i + take { any |= flags[j] }
                if any & Self.maskingFlagBits != 0 { st.groupInvalid = true }
            }
            st.groupSum = sum
            st.groupCount += take
            i += take
            if st.groupCount == d {
                let value = sum * scale
                let valid = !st.groupInvalid && value.isFinite
                step(value, valid: valid, newest: base + i - 1, &st, rp, bp, sp, qp, &peaks)
                st.groupSum = 0
                st.groupCount = 0
                st.groupInvalid = false
            }
        }
        st.inputIndex = base + end
        filter = st
    }

    /// One working-rate sample: filters, slope, integrator, candidate tracking, decisions.
    @inline(__always)
    mutating func step(
        _ value: Float, valid: Bool, newest: Int, _ st: inout FilterState,
        _ rp: UnsafeMutablePointer<Float>, _ bp: UnsafeMutablePointer<Float>,
        _ sp: UnsafeMutablePointer<Float>, _ qp: UnsafeMutablePointer<Float>,
        _ peaks: inout [Int]
    ) {
        let k = st.workIndex
        st.workIndex = k + 1
        let wm = workMask
        if !valid {
            if !st.inGap {
                st.inGap = true
                releaseHeld(at: k, force: true, &peaks)
                decision.pending = nil
                decision.noiseCandidates.removeAll(keepingCapacity: true)
            }
            bp[k & wm] = 0; sp[k & wm] = 0; qp[k & wm] = 0
            if k >= decision.nextCheck { slowPath(at: k, newest: newest, rp, bp, sp, &peaks) }
            return
        }
        if st.inGap {
            st.inGap = false
            st.offset = value
            st.hx1 = 0; st.hx2 = 0; st.hy1 = 0; st.hy2 = 0
            st.lx1 = 0; st.lx2 = 0; st.ly1 = 0; st.ly2 = 0
            st.b1 = 0; st.b2 = 0; st.integral = 0; st.y1 = 0; st.y2 = 0
            for j in 0...wm { bp[j] = 0; sp[j] = 0; qp[j] = 0 }
            resume(at: k)
        }
        let xin = value - st.offset
        let hp = highPass, lp = lowPass
        let h = hp.b0 * xin + hp.b1 * st.hx1 + hp.b2 * st.hx2 - hp.a1 * st.hy1 - hp.a2 * st.hy2
        st.hx2 = st.hx1; st.hx1 = xin; st.hy2 = st.hy1; st.hy1 = h
        let l = lp.b0 * h + lp.b1 * st.lx1 + lp.b2 * st.lx2 - lp.a1 * st.ly1 - lp.a2 * st.ly2
        st.lx2 = st.lx1; st.lx1 = h; st.ly2 = st.ly1; st.ly1 = l
        let dv = (l - st.b2) * derivativeScale
        st.b2 = st.b1; st.b1 = l
        let s = dv * dv
        let slot = k & wm
        let old = qp[(k - integratorLength) & wm]
        bp[slot] = l
        sp[slot] = abs(dv)
        qp[slot] = s
        st.integral += Double(s) - Double(old)
        let y = max(0, st.integral)
        if st.y1 > st.y2 && st.y1 >= y {
            if decision.pending == nil || st.y1 > decision.pendingValue {
                decision.pending = Candidate(work: k - 1, height: 0, maxSlope: 0, apex: 0)
                decision.pendingValue = st.y1
                decision.nextCheck = min(decision.nextCheck, k - 1 + candidateSpacing)
            }
        }
        st.y2 = st.y1
        st.y1 = y
        if k >= decision.nextCheck { slowPath(at: k, newest: newest, rp, bp, sp, &peaks) }
    }

    /// Confirms the pending candidate, runs search-back, learning and decay when due.
    @inline(never)
    mutating func slowPath(
        at k: Int, newest: Int, _ rp: UnsafeMutablePointer<Float>,
        _ bp: UnsafeMutablePointer<Float>, _ sp: UnsafeMutablePointer<Float>,
        _ peaks: inout [Int]
    ) {
        if let p = decision.pending, k >= p.work + candidateSpacing {
            decision.pending = nil
            confirm(p.work, value: decision.pendingValue, at: k, newest: newest, rp, bp, sp, &peaks)
        }
        if !decision.learned {
            if k >= decision.learningEnd { endLearning(at: k, &peaks) }
        } else {
            if k >= decision.nextDecay { decay(at: k) }
            searchBackIfDue(at: k, &peaks)
        }
        releaseHeld(at: k, force: false, &peaks)
        if decision.deferring && k >= decision.startupEnd { endStartup(&peaks) }
        scheduleNextCheck()
    }

    /// Builds the candidate at working index `t` (integrator value `value`) and classifies it.
    mutating func confirm(
        _ t: Int, value: Double, at k: Int, newest: Int, _ rp: UnsafeMutablePointer<Float>,
        _ bp: UnsafeMutablePointer<Float>, _ sp: UnsafeMutablePointer<Float>,
        _ peaks: inout [Int]
    ) {
        let wm = workMask
        let n = integratorLength
        var maxSlope: Float = -1
        var loc = t
        for j in max(0, t - n - 1)...t {
            let s = sp[j & wm]
            if s > maxSlope { maxSlope = s; loc = j }
        }
        // The central difference at k is centred on k − 1.
        let centre = (loc - 1) * decimation - locateShift
        let apex = refineApex(around: centre, newest: newest, rp)
        let c = Candidate(work: t, height: (value / Double(n)).squareRoot(), maxSlope: Double(maxSlope), apex: apex)
        if decision.learned {
            classify(c, &peaks)
        } else {
            decision.learningCandidates.append(c)
        }
    }

    /// The raw sample within ±`apexRadius` of `centre` deviating most from the window's mean.
    func refineApex(around centre: Int, newest: Int, _ rp: UnsafeMutablePointer<Float>) -> Int {
        let lo = max(0, newest - rawMask, centre - apexRadius)
        let hi = min(newest, centre + apexRadius)
        guard lo <= hi else { return min(max(centre, 0), max(newest, 0)) }
        var sum: Float = 0
        var count = 0
        for j in lo...hi {
            let v = rp[j & rawMask]
            if v.isFinite { sum += v; count += 1 }
        }
        guard count > 0 else { return min(max(centre, lo), hi) }
        let mean = sum / Float(count)
        var best = lo
        var bestDev: Float = -1
        for j in lo...hi {
            let v = rp[j & rawMask]
            if v.isFinite {
                let dev = abs(v - mean)
                if dev > bestDev { bestDev = dev; best = j }
            }
        }
        return best
    }
}

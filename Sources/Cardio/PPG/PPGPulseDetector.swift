import DSP
import Signals

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Systolic-peak detection in PPG, streaming with bounded look-ahead (Elgendi et al. 2013):
/// band-pass 0.5–8 Hz (second-order Butterworth), clip below zero and square, two moving averages
/// (W1 = 111 ms over the peak, W2 = 667 ms over the beat), blocks of interest where the first
/// exceeds the second plus the offset α = β·mean(y²) (β = 0.02), blocks at least W1 wide; the
/// pulse is the maximum of the filtered signal in each block.
///
/// Streaming adaptation: the filter is causal (started in steady state), so each block's
/// maximum is moved back by the filter's group delay at 1.5 Hz and refined to the maximum of the
/// unfiltered signal within ±150 ms (the paper filters forward and backward); the
/// moving averages are centred as in the paper, so a decision waits W2/2 after the sample; the
/// mean of y² is taken over the trailing 10 s instead of the whole record; blocks longer than
/// 1.5 s are rejected (no pulse is that wide). Every step is per sample: a stream fed in blocks
/// of any size gives the same pulses as fed whole. Masked samples hold the last valid value and a
/// pulse on a masked sample is dropped. The systolic peak is taken as a maximum of the signal as
/// the source presents it (SPC 2015, BUT PPG: pulses point up).
///
/// Refractory period: a pulse less than 300 ms after the previous one is dropped (the first
/// stands; 300 ms is a heart rate of 200 bpm), as in NeuroKit2's implementation of this method
/// (`mindelay = 0.3` s; D. Makowski et al., "NeuroKit2: A Python toolbox for neurophysiological
/// signal processing", Behavior Research Methods 53:1689–1696 (2021),
/// doi:10.3758/s13428-020-01516-y). Without it, sharp noise on a 30-Hz camera PPG splits one
/// pulse into two blocks of interest.
///
/// Source: M. Elgendi, I. Norton, M. Brearley, D. Abbott, D. Schuurmans, "Systolic peak
/// detection in acceleration photoplethysmograms measured from emergency responders in tropical
/// conditions", PLoS ONE 8(10):e76585 (2013), doi:10.1371/journal.pone.0076585.
///
/// - Complexity: O(1) per sample; memory O(sample rate) (a 10-s ring and the look-ahead).
struct PPGPulseDetector {
    let sampleRate: Double
    let halfPeak: Int
    let halfBeat: Int
    let beatLength: Int
    let meanLength: Int
    let maxBlock: Int
    let minBlock: Int
    let delay: Int
    let ringSize: Int
    let ringMask: Int
    /// Refractory period, samples: a pulse within 300 ms of the previous one is dropped.
    let refractory: Int
    var bandPass: PPGHeldBandPass
    // Rings indexed by sample number modulo ringSize.
    var squared: [Double]
    var filteredRing: [Double]
    var maskedRing: [Bool]
    var rawRing: [Double]
    let refine: Int
    var meanRing: [Double]
    /// The running sums and counters of the detector.
    var state = State()
    /// What the detector measured of each pulse it reported, in the order of the reported
    /// indices (the caller takes them with the indices: ``PPGPulseChannel``).
    var shapes: [PPGPulseShape] = []
    static let maskingFlags = PPGGridChannel.masking

    struct State {
        var sumBeat = 0.0, sumPeak = 0.0, sumMean = 0.0
        var n = 0 // samples pushed (including the flush zeros)
        var real = 0 // real samples of the segment
        var inBlock = false
        var blockStart = 0
        /// The last pulse reported (sample index), for the refractory period.
        var lastPulse = Int.min / 2
    }

    /// Look-ahead: a pulse is reported at most this many samples after its sample.
    var latencySamples: Int { halfBeat + maxBlock + delay + refine + 1 }

    init(sampleRate: Double) {
        self.sampleRate = sampleRate
        halfPeak = max(1, Int((0.111 * sampleRate / 2).rounded()))
        halfBeat = max(halfPeak + 1, Int((0.667 * sampleRate / 2).rounded()))
        beatLength = 2 * halfBeat + 1
        meanLength = max(beatLength, Int((10 * sampleRate).rounded()))
        maxBlock = Int((1.5 * sampleRate).rounded())
        minBlock = max(1, Int((0.111 * sampleRate).rounded()))
        // A power of two, so that a ring slot is a mask, not a division.
        let needed = max(meanLength, beatLength + maxBlock + Int((0.5 * sampleRate).rounded()) + 2)
        ringSize = 1 << (Int.bitWidth - (needed - 1).leadingZeroBitCount)
        ringMask = ringSize - 1
        refractory = Int((0.3 * sampleRate).rounded())
        let sos = try! ButterworthDesign(order: 2, band: .bandPass(low: 0.5, high: min(8, 0.45 * sampleRate)), sampleRate: sampleRate).sos
        bandPass = PPGHeldBandPass(sos)
        delay = Int(Self.groupDelay(sos, frequency: 1.5, sampleRate: sampleRate).rounded())
        squared = [Double](repeating: 0, count: ringSize)
        filteredRing = [Double](repeating: 0, count: ringSize)
        maskedRing = [Bool](repeating: true, count: ringSize)
        rawRing = [Double](repeating: 0, count: ringSize)
        refine = max(1, Int((0.15 * sampleRate).rounded()))
        meanRing = [Double](repeating: 0, count: ringSize)
    }

    /// Feeds samples; appends detected pulses (sample index within the segment) to `pulses`.
    mutating func process(_ values: UnsafeBufferPointer<Float>, flags: UnsafeBufferPointer<UInt8>, into pulses: inout [Int]) {
        // Hold masked samples at the last valid value and filter the block in one call (samples
        // before the segment's first valid one are not filtered).
        let first = bandPass.process(values, flags: flags, masking: PPGPulseDetector.maskingFlags)
        let heldValues = bandPass.held, filteredValues = bandPass.filtered
        withCore { core in
            heldValues.withUnsafeBufferPointer { h in
                filteredValues.withUnsafeBufferPointer { f in
                    for i in 0..<values.count {
                        let isMasked = flags[i] & PPGPulseDetector.maskingFlags != 0 || !values[i].isFinite
                        if first >= 0 && i >= first {
                            core.push(f[i - first], masked: isMasked, raw: h[i - first], into: &pulses)
                        } else {
                            core.push(0, masked: true, raw: 0, into: &pulses)
                        }
                        core.state.real += 1
                    }
                }
            }
        }
    }

    /// Ends the segment: decides the last samples (the look-ahead is filled with zeros) and
    /// resets for the next segment.
    mutating func finish(into pulses: inout [Int]) {
        withCore { core in
            for _ in 0..<core.halfBeat { core.push(0, masked: true, raw: 0, into: &pulses) }
            if core.state.inBlock { core.closeBlock(at: core.state.n - core.halfBeat, into: &pulses) }
        }
        let measured = shapes
        self = PPGPulseDetector(sampleRate: sampleRate)
        shapes = measured
    }

    /// Runs `body` on the detector's per-sample core: its constants, its state and the rings as
    /// raw pointers (no copy-on-write check or bounds check per sample).
    private mutating func withCore(_ body: (inout Core) -> Void) {
        let constants = (halfPeak, halfBeat, beatLength, meanLength, maxBlock, minBlock, delay, ringSize, ringMask, refine, refractory)
        var s = state
        var measured: [PPGPulseShape] = []
        squared.withUnsafeMutableBufferPointer { sq in
            filteredRing.withUnsafeMutableBufferPointer { fr in
                maskedRing.withUnsafeMutableBufferPointer { mr in
                    rawRing.withUnsafeMutableBufferPointer { rr in
                        meanRing.withUnsafeMutableBufferPointer { me in
                            var core = Core(
                                halfPeak: constants.0, halfBeat: constants.1, beatLength: constants.2, meanLength: constants.3,
                                maxBlock: constants.4, minBlock: constants.5, delay: constants.6, ringSize: constants.7,
                                ringMask: constants.8, refine: constants.9, refractory: constants.10, squared: sq.baseAddress!,
                                filtered: fr.baseAddress!,
                                masked: mr.baseAddress!, raw: rr.baseAddress!, mean: me.baseAddress!, state: s)
                            body(&core)
                            s = core.state
                            measured = core.shapes
                        }
                    }
                }
            }
        }
        state = s
        if !measured.isEmpty { shapes.append(contentsOf: measured) }
    }

    /// The per-sample detector over raw ring pointers (valid only inside ``withCore(_:)``).
    struct Core {
        let halfPeak: Int, halfBeat: Int, beatLength: Int, meanLength: Int, maxBlock: Int, minBlock: Int
        let delay: Int, ringSize: Int, ringMask: Int, refine: Int, refractory: Int
        let squared: UnsafeMutablePointer<Double>
        let filtered: UnsafeMutablePointer<Double>
        let masked: UnsafeMutablePointer<Bool>
        let raw: UnsafeMutablePointer<Double>
        let mean: UnsafeMutablePointer<Double>
        var state: State
        /// The reported pulses' measurements (``PPGPulseShape``).
        var shapes: [PPGPulseShape] = []

        mutating func push(_ y: Double, masked isMasked: Bool, raw rawValue: Double, into pulses: inout [Int]) {
            let n = state.n
            let slot = n & ringMask
            // Leaving the trailing mean window.
            if n >= meanLength {
                let leaving = mean[(n - meanLength) & ringMask]
                state.sumMean -= leaving
                if Self.cancelled(state.sumMean, leaving) { state.sumMean = sum(mean, n - meanLength + 1, n) }
            }
            let z = y > 0 ? y * y : 0
            squared[slot] = z
            filtered[slot] = y
            masked[slot] = isMasked
            raw[slot] = isMasked ? -Double.infinity : rawValue
            mean[slot] = y * y
            state.sumMean += y * y
            // Centre m = n - halfBeat: beat window [m - halfBeat, m + halfBeat] = [n - 2 halfBeat, n].
            state.sumBeat += z
            if n - beatLength >= 0 {
                let leaving = squared[(n - beatLength) & ringMask]
                state.sumBeat -= leaving
                if Self.cancelled(state.sumBeat, leaving) { state.sumBeat = sum(squared, n - beatLength + 1, n + 1) }
            }
            let enterPeak = n - halfBeat + halfPeak
            if enterPeak >= 0 { state.sumPeak += squared[enterPeak & ringMask] }
            let leavePeak = n - halfBeat - halfPeak - 1
            if leavePeak >= 0 {
                let leaving = squared[leavePeak & ringMask]
                state.sumPeak -= leaving
                if Self.cancelled(state.sumPeak, leaving) { state.sumPeak = sum(squared, leavePeak + 1, enterPeak + 1) }
            }
            let m = n - halfBeat
            state.n = n + 1
            guard m >= 0 else { return }
            let maPeak = state.sumPeak / Double(2 * halfPeak + 1)
            let maBeat = state.sumBeat / Double(beatLength)
            let alpha = 0.02 * state.sumMean / Double(min(n + 1, meanLength))
            let on = maPeak > maBeat + alpha
            if on && !state.inBlock {
                state.inBlock = true
                state.blockStart = m
            } else if !on && state.inBlock {
                closeBlock(at: m, into: &pulses)
            } else if state.inBlock && m - state.blockStart > maxBlock {
                state.inBlock = false // too wide for a pulse: rejected; wait for the next rise
                state.blockStart = Int.max
            }
        }

        /// Whether removing `leaving` (≥ 0) from a running sum of non-negative terms left a
        /// `sum` that rounding no longer holds: negative, or under 2^-24 of the term removed (an
        /// outlier such as a 10^6 sample among values of 10^-3 leaves the sum as rounding
        /// residue, which would mute detection for the rest of the recording). The sum is then
        /// recomputed from the ring, so an outlier's effect ends when it leaves the window. A
        /// recording without such a jump never recomputes (results as before).
        @inline(__always)
        static func cancelled(_ sum: Double, _ leaving: Double) -> Bool { leaving > 16_777_216 * sum }

        /// The sum of ring values `[from, to)` (sample indices).
        /// - Complexity: O(to − from).
        func sum(_ ring: UnsafeMutablePointer<Double>, _ from: Int, _ to: Int) -> Double {
            var s = 0.0
            var k = max(0, from)
            while k < to {
                s += ring[k & ringMask]
                k += 1
            }
            return s
        }

        mutating func closeBlock(at end: Int, into pulses: inout [Int]) {
            state.inBlock = false
            let blockStart = state.blockStart, n = state.n, real = state.real
            let width = end - blockStart
            guard width >= minBlock && width <= maxBlock else { return }
            var best = blockStart
            var k = blockStart
            while k < end {
                if filtered[k & ringMask] > filtered[best & ringMask] { best = k }
                k += 1
            }
            guard !masked[best & ringMask] else { return }
            // The filtered maximum moved back by the filter's delay, refined to the maximum of the
            // unfiltered signal within ±150 ms (the systolic peak itself).
            let centre = best - delay
            var p = -1
            var top = -Double.infinity
            var k2 = max(0, centre - refine, n - ringSize + 1)
            while k2 <= min(centre + refine, real - 1, n - 1) {
                if raw[k2 & ringMask] > top {
                    top = raw[k2 & ringMask]
                    p = k2
                }
                k2 += 1
            }
            // Refractory period: the first of two pulses closer than 300 ms stands.
            if p >= 0 && p < real && top > -Double.infinity && p - state.lastPulse >= refractory {
                pulses.append(p)
                var shape = PPGPulseShape(peakValue: top, bandPassPeak: filtered[best & ringMask], blockWidthSamples: width)
                measureFoot(peak: p, top: top, into: &shape)
                shapes.append(shape)
                state.lastPulse = p
            }
        }

        /// The pulse's foot and shape from the unfiltered signal: the foot is the minimum between
        /// the previous reported pulse (at most 1.5 s back) and the peak; the width is taken at
        /// half the peak-to-foot amplitude, each crossing linearly interpolated, on the samples
        /// the detector still holds after the peak (its look-ahead); the interval is from the
        /// previous reported pulse of the segment. Values stay NaN (interval: `nil`) where a
        /// masked sample lies in the span or a crossing is not in reach.
        func measureFoot(peak p: Int, top: Double, into shape: inout PPGPulseShape) {
            let n = state.n
            let oldest = max(0, n - ringSize + 1)
            if state.lastPulse >= 0 { shape.intervalSamples = p - state.lastPulse }
            let from = max(oldest, p - maxBlock, state.lastPulse >= 0 ? state.lastPulse + 1 : 0)
            guard from < p else { return }
            var foot = Double.infinity, footAt = p
            var k = p - 1
            while k >= from {
                let x = raw[k & ringMask]
                guard x.isFinite else { return }
                if x < foot {
                    foot = x
                    footAt = k
                }
                k -= 1
            }
            guard foot.isFinite && top > foot else { return }
            shape.footValue = foot
            shape.footToPeakSamples = p - footAt
            let level = foot + (top - foot) / 2
            // Rising crossing: last sample below the level before the peak.
            var up = p - 1
            while up > footAt && raw[up & ringMask] >= level { up -= 1 }
            let a0 = raw[up & ringMask], a1 = raw[(up + 1) & ringMask]
            let rise = Double(up) + (a1 > a0 ? (level - a0) / (a1 - a0) : 0)
            // Falling crossing: first sample below the level after the peak, within reach.
            let last = min(n - 1, state.real - 1)
            var down = p + 1
            while down <= last && raw[down & ringMask] >= level { down += 1 }
            guard down <= last && raw[down & ringMask].isFinite else { return }
            let b0 = raw[(down - 1) & ringMask], b1 = raw[down & ringMask]
            let fall = Double(down - 1) + (b0 > b1 ? (b0 - level) / (b0 - b1) : 0)
            shape.halfWidthSamples = fall - rise
        }
    }

    /// Group delay −dφ/dω of the cascade at `frequency`, samples (the delay of a pulse's
    /// envelope through the filter).
    static func groupDelay(_ sos: SOS, frequency: Double, sampleRate: Double) -> Double {
        func phase(_ w: Double) -> Double {
            var p = 0.0
            for s in sos.sections {
                let nr = s.b0 + s.b1 * cos(w) + s.b2 * cos(2 * w), ni = -(s.b1 * sin(w) + s.b2 * sin(2 * w))
                let dr = 1 + s.a1 * cos(w) + s.a2 * cos(2 * w), di = -(s.a1 * sin(w) + s.a2 * sin(2 * w))
                p += atan2(ni, nr) - atan2(di, dr)
            }
            return p
        }
        let w = 2 * Double.pi * frequency / sampleRate, dw = 1e-4 * w
        var d = phase(w + dw) - phase(w - dw)
        while d > Double.pi { d -= 2 * Double.pi }
        while d < -Double.pi { d += 2 * Double.pi }
        return -d / (2 * dw)
    }
}

/// What ``PPGPulseDetector`` measured of one pulse (Elgendi et al. 2013), published with the
/// pulse (``PPGPulseEvents``).
struct PPGPulseShape: Sendable, Hashable {
    /// The unfiltered signal at the systolic peak (the stream's unit).
    var peakValue: Double
    /// The maximum of the 0.5–8 Hz band-passed signal over the pulse's block of interest (the
    /// stream's unit): the systolic peak above the signal's local mean.
    var bandPassPeak: Double
    /// Length of the block of interest, samples.
    var blockWidthSamples: Int
    /// The unfiltered signal at the pulse's foot (its minimum between the previous pulse and the
    /// peak), the stream's unit; NaN when not measured.
    var footValue = Double.nan
    /// Samples from the foot to the peak, or `nil`.
    var footToPeakSamples: Int?
    /// Width at half the peak-to-foot amplitude, samples (fractional); NaN when not measured.
    var halfWidthSamples = Double.nan
    /// Samples since the previous reported pulse of the segment, or `nil` for the first.
    var intervalSamples: Int?
}

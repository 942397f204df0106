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
    var filter: SOSFilter<Double>
    // Rings indexed by sample number modulo ringSize.
    var squared: [Double]
    var filteredRing: [Double]
    var maskedRing: [Bool]
    var rawRing: [Double]
    let refine: Int
    var meanRing: [Double]
    var sumBeat = 0.0, sumPeak = 0.0, sumMean = 0.0
    var n = 0 // samples pushed (including the flush zeros)
    var real = 0 // real samples of the segment
    var hold: Double?
    var inBlock = false
    var blockStart = 0
    var held: [Double] = []
    var filtered: [Double] = []
    static let maskingFlags = PPGGridChannel.masking
    var rawNext = 0.0

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
        ringSize = max(meanLength, beatLength + maxBlock + Int((0.5 * sampleRate).rounded()) + 2)
        let sos = try! ButterworthDesign(order: 2, band: .bandPass(low: 0.5, high: min(8, 0.45 * sampleRate)), sampleRate: sampleRate).sos
        filter = SOSFilter<Double>(sos, initialization: .steadyState)
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
        held.removeAll(keepingCapacity: true)
        var first = -1
        for i in 0..<values.count {
            let v = values[i]
            if flags[i] & PPGPulseDetector.maskingFlags == 0 && v.isFinite { hold = Double(v) }
            if let h = hold {
                if first < 0 { first = i }
                held.append(h)
            }
        }
        filtered.removeAll(keepingCapacity: true)
        if first >= 0 { held.withUnsafeBufferPointer { filter.process($0, into: &filtered) } }
        for i in 0..<values.count {
            let isMasked = flags[i] & PPGPulseDetector.maskingFlags != 0 || !values[i].isFinite
            if first >= 0 && i >= first {
                rawNext = held[i - first]
                push(filtered[i - first], masked: isMasked, into: &pulses)
            } else {
                rawNext = 0
                push(0, masked: true, into: &pulses)
            }
            real += 1
        }
    }

    /// Ends the segment: decides the last samples (the look-ahead is filled with zeros) and
    /// resets for the next segment.
    mutating func finish(into pulses: inout [Int]) {
        for _ in 0..<halfBeat {
            rawNext = 0
            push(0, masked: true, into: &pulses)
        }
        if inBlock { closeBlock(at: n - halfBeat, into: &pulses) }
        self = PPGPulseDetector(sampleRate: sampleRate)
    }

    private mutating func push(_ y: Double, masked: Bool, into pulses: inout [Int]) {
        let slot = n % ringSize
        // Leaving the trailing mean window.
        if n >= meanLength { sumMean -= meanRing[(n - meanLength) % ringSize] }
        let z = y > 0 ? y * y : 0
        squared[slot] = z
        filteredRing[slot] = y
        maskedRing[slot] = masked
        rawRing[slot] = masked ? -Double.infinity : rawNext
        meanRing[slot] = y * y
        sumMean += y * y
        // Centre m = n - halfBeat: beat window [m - halfBeat, m + halfBeat] = [n - 2 halfBeat, n].
        sumBeat += z
        if n - beatLength >= 0 { sumBeat -= squared[(n - beatLength) % ringSize] }
        let enterPeak = n - halfBeat + halfPeak
        if enterPeak >= 0 { sumPeak += squared[enterPeak % ringSize] }
        let leavePeak = n - halfBeat - halfPeak - 1
        if leavePeak >= 0 { sumPeak -= squared[leavePeak % ringSize] }
        let m = n - halfBeat
        n += 1
        guard m >= 0 else { return }
        let maPeak = sumPeak / Double(2 * halfPeak + 1)
        let maBeat = sumBeat / Double(beatLength)
        let alpha = 0.02 * sumMean / Double(min(n, meanLength))
        let on = maPeak > maBeat + alpha
        if on && !inBlock {
            inBlock = true
            blockStart = m
        } else if !on && inBlock {
            closeBlock(at: m, into: &pulses)
        } else if inBlock && m - blockStart > maxBlock {
            inBlock = false // too wide for a pulse: rejected; wait for the next rise
            blockStart = Int.max
        }
    }

    private mutating func closeBlock(at end: Int, into pulses: inout [Int]) {
        inBlock = false
        let width = end - blockStart
        guard width >= minBlock && width <= maxBlock else { return }
        var best = blockStart
        var k = blockStart
        while k < end {
            if filteredRing[k % ringSize] > filteredRing[best % ringSize] { best = k }
            k += 1
        }
        guard !maskedRing[best % ringSize] else { return }
        // The filtered maximum moved back by the filter's delay, refined to the maximum of the
        // unfiltered signal within ±150 ms (the systolic peak itself).
        let centre = best - delay
        var p = -1
        var top = -Double.infinity
        var k2 = max(0, centre - refine, n - ringSize + 1)
        while k2 <= min(centre + refine, real - 1, n - 1) {
            if rawRing[k2 % ringSize] > top {
                top = rawRing[k2 % ringSize]
                p = k2
            }
            k2 += 1
        }
        if p >= 0 && p < real && top > -Double.infinity { pulses.append(p) }
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

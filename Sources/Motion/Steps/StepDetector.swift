import DSP

/// Steps from the acceleration magnitude, sample by sample: the vector magnitude is band-passed
/// around the step frequency, every positive lobe of the filtered signal whose peak-to-trough
/// swing reaches a threshold is a candidate step (at its peak), and candidates count only inside
/// a walking bout — at least ``minimumBoutSteps`` candidates in a row, each following the previous
/// by 0.25–2 s (30–240 steps/min) with consecutive intervals within a factor of two of each other.
///
/// The method is the windowed peak detection with a periodicity (bout) check evaluated by Brajdic
/// & Harle 2013, "Walk detection and step counting on unconstrained smartphones", Proc. ACM
/// UbiComp 2013, 225–234, doi:10.1145/2493432.2493449, with a magnitude band-pass as in Salvi et
/// al. 2018, "An optimised algorithm for accurate steps counting from smart-phone accelerometry",
/// Proc. IEEE EMBC 2018, 4423–4427, doi:10.1109/EMBC.2018.8513279. The bout rule keeps single
/// jolts, gestures, tremor (above 4 Hz: outside the band and faster than 240 steps/min) and
/// vehicle vibration from counting.
///
/// Streaming: any split of the input gives the same steps; a candidate is decided at most
/// ``minimumBoutSteps`` × 2 s after its peak.
///
/// - Complexity: O(1) per sample, no allocation after the first bout.
struct StepDetector {
    /// Candidates needed in a row before a bout counts.
    static let minimumBoutSteps = 4
    /// Band-pass edges in Hz.
    static let band = (low: 0.5, high: 2.5)
    /// Peak-to-trough swing of the band-passed magnitude that makes a candidate, in g.
    static let swingThreshold: Float = 0.15
    /// Shortest and longest interval between steps of a bout, in s.
    static let intervalRange = (low: 0.25, high: 2.0)

    let sampleRate: Double
    private var filter: SOSFilter<Float>
    private var buffer: [Float] = []
    private let minInterval: Int
    private let maxInterval: Int
    private let maxLobe: Int

    // Lobe tracking.
    private var positive = false
    private var lobeStart = 0
    private var lobePeak: Float = 0
    private var lobePeakIndex = 0
    private var troughMin: Float = 0
    private var lastIndex = 0
    // Bout tracking.
    private var pending: [Int] = [] // candidates of a bout not yet confirmed
    private var confirmed = false
    private var lastCandidate: Int? = nil
    private var lastInterval: Int? = nil

    /// Confirmed steps (grid indices), drained by the caller.
    var steps: [Int] = []

    init(sampleRate: Double) {
        self.sampleRate = sampleRate
        let high = min(Self.band.high, 0.45 * sampleRate)
        let sos =
            (try? ButterworthDesign(order: 2, band: .bandPass(low: Self.band.low, high: high), sampleRate: sampleRate).sos)
            ?? SOS(sections: [])
        filter = SOSFilter(sos, initialization: .steadyState)
        minInterval = Int((Self.intervalRange.low * sampleRate).rounded())
        maxInterval = Int((Self.intervalRange.high * sampleRate).rounded())
        maxLobe = maxInterval
    }

    /// The earliest grid index whose step count may still change.
    var earliestUndecided: Int {
        var e = positive ? lobeStart : lastIndex + 1
        if !confirmed, let first = pending.first { e = min(e, first) }
        return e
    }

    /// Feeds the vector magnitudes (g) of grid points `firstIndex …` (a continuing run).
    mutating func process(firstIndex: Int, magnitude: UnsafeBufferPointer<Float>) {
        let n = magnitude.count
        guard n > 0 else { return }
        if buffer.count < n { buffer = [Float](repeating: 0, count: n) }
        buffer.withUnsafeMutableBufferPointer { out in
            filter.process(magnitude.baseAddress!, into: out.baseAddress!, count: n)
        }
        for i in 0..<n {
            let s = buffer[i]
            let k = firstIndex + i
            if s > 0 {
                if !positive {
                    positive = true
                    lobeStart = k
                    lobePeak = s
                    lobePeakIndex = k
                } else {
                    // Selects rather than a branch: noise makes new highs unpredictable.
                    let higher = s > lobePeak
                    lobePeak = higher ? s : lobePeak
                    lobePeakIndex = higher ? k : lobePeakIndex
                }
                if k - lobeStart > maxLobe {
                    // Too slow for a step: restart the lobe here.
                    lobeStart = k
                    lobePeak = s
                    lobePeakIndex = k
                    troughMin = 0
                }
            } else {
                if positive {
                    positive = false
                    if lobePeak - troughMin >= Self.swingThreshold { candidate(lobePeakIndex) }
                    troughMin = s
                } else {
                    troughMin = s < troughMin ? s : troughMin
                }
            }
            lastIndex = k
            expire(now: k)
        }
    }

    private mutating func candidate(_ k: Int) {
        if let last = lastCandidate {
            let d = k - last
            var continues = d >= minInterval && d <= maxInterval
            if continues, let previous = lastInterval {
                continues = d * 2 >= previous && d <= previous * 2
            }
            if !continues {
                if d < minInterval { return } // a second peak within one step: ignore it
                endBout()
            } else {
                lastInterval = d
            }
        }
        lastCandidate = k
        if confirmed {
            steps.append(k)
        } else {
            pending.append(k)
            if pending.count >= Self.minimumBoutSteps {
                confirmed = true
                steps.append(contentsOf: pending)
                pending.removeAll(keepingCapacity: true)
            }
        }
    }

    private mutating func endBout() {
        pending.removeAll(keepingCapacity: true)
        confirmed = false
        lastCandidate = nil
        lastInterval = nil
    }

    private mutating func expire(now k: Int) {
        if let last = lastCandidate, k - last > maxInterval { endBout() }
    }

    /// Ends a run of grid points (a gap): undecided candidates are dropped, the filter restarts.
    mutating func endRun() {
        endBout()
        positive = false
        troughMin = 0
        filter.reset()
    }
}

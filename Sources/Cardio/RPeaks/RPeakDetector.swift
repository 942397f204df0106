/// Streaming ECG R-peak detector: Pan–Tompkins / Hamilton–Tompkins adaptive thresholds on a
/// band-passed, differentiated, squared and integrated signal, with search-back, T-wave
/// discrimination and a refractory period, and each beat refined to the R apex of the raw signal.
///
/// Algorithm (all durations in seconds, so it works at any rate from 125 to 1000 Hz):
/// 1. **Working rate.** Input blocks of `D = ⌊fs / 125⌋` samples are averaged (box-car
///    anti-aliasing) into a working signal at `fs / D` Hz (125–250 Hz): QRS energy lies below
///    ~30 Hz, and the raw signal is kept for the apex refinement.
/// 2. **Pre-processing** (Pan & Tompkins 1985): 2nd-order Butterworth high-pass at 7 Hz and
///    low-pass at 15 Hz (bilinear transform), a two-sample central difference, squaring and a
///    150 ms moving-window integrator. The squared slope makes detection polarity-independent.
/// 3. **Candidates:** local maxima of the integrator output not exceeded within the next
///    250 ms. A candidate's height is the RMS slope `√(integrator)`, so levels are linear in
///    the signal (µV/s for a µV input).
/// 4. **Decision** (Hamilton & Tompkins 1986): a candidate is a QRS complex when its height
///    exceeds `NPL + 0.5·(QPL − NPL)`, where QPL and NPL are the means of the last eight QRS
///    and noise heights (0.5 on this linear scale matches Pan & Tompkins' 0.25 on the squared
///    integrator). Refractory period 200 ms. A candidate within 360 ms of the previous QRS whose
///    maximum slope is below half of that QRS's is a T wave; applied backwards, a QRS within
///    360 ms *after* a beat with less than half of the beat's slope shows that beat to be a P
///    wave or an artefact, and replaces it. With no QRS for 1.5 mean RR intervals, the highest
///    candidate since the last QRS above `NPL + 0.2·(QPL − NPL)` is taken (search-back, Pan &
///    Tompkins 1985, who search back at half the threshold; measured from the noise level, the
///    search-back threshold stays above the noise peaks in electrode-motion noise). Levels
///    are learned from the first 2 s; after 3 s without any beat (flat line, lead change) both
///    levels halve every second so the detector re-adapts.
/// 5. **Start and end of a stream** (short recordings, issue 10): the beats accepted in the
///    first 4.5 s are held back and then only those with at least 0.2 of the steepest one's
///    maximum slope are kept (a recording starting inside a sinus pause would otherwise learn
///    its levels from P and T waves and accept them), and a backward search-back before the
///    first of them finds first beats below the learned threshold; at the end, a QRS complex cut by the last
///    sample is found by a search-back over the candidates that reach the end.
/// 6. **Apex refinement:** the candidate is located at the steepest slope in its integration
///    window, shifted by the band-pass phase delay at 12 Hz, then moved to the raw sample with
///    the largest absolute deviation from the raw mean within ±50 ms of that point.
///
/// The constants are the published ones except the threshold coefficient (0.5), the search-back
/// threshold (0.2 from the noise level instead of half the threshold), the candidate
/// spacing (250 ms), the pass band (7–15 Hz) and the 3 s silence limit, which were chosen once
/// for the whole of MIT-BIH (no per-record parameters), and the start-up check's 4.5 s and
/// slope ratio 0.2, chosen on MIT-BIH excerpts; see docs/VALIDATION.md.
///
/// Masked samples (flag bit 0 `signalInvalid` or bit 4 `missing`, or a non-finite value) are
/// a gap: the filters restart after it (from the first valid value, so the jump is not seen as
/// a slope), pending candidates are dropped, the learned levels are kept, no RR interval or
/// search-back spans the gap, and the apex search never picks a masked sample.
///
/// Output indices are absolute sample indices from the start of the stream, in increasing
/// order. A beat is final at most ``maximumLatencySeconds`` after its R apex (search-back
/// decisions), so memory is bounded (a 2 s raw ring plus a few hundred working samples) and
/// chunked feeding with any block sizes gives exactly the same peaks as feeding the whole signal.
///
/// References:
/// - J. Pan, W. J. Tompkins, "A real-time QRS detection algorithm", IEEE Trans. Biomed. Eng.
///   32(3):230–236, 1985, doi:10.1109/TBME.1985.325532.
/// - P. S. Hamilton, W. J. Tompkins, "Quantitative investigation of QRS detection rules using
///   the MIT/BIH arrhythmia database", IEEE Trans. Biomed. Eng. 33(12):1157–1165, 1986,
///   doi:10.1109/TBME.1986.325695.
///
/// ```swift
/// var detector = RPeakDetector(sampleRate: 512)
/// var peaks = [Int]()
/// for block in blocks { block.withUnsafeBufferPointer { detector.process($0, flags: nil, into: &peaks) } }
/// detector.finish(into: &peaks)
/// ```
public struct RPeakDetector: Sendable {
    /// Sample rate of the input, Hz.
    public let sampleRate: Double

    /// Upper bound on the time between an R apex and the call that emits it, seconds.
    public var maximumLatencySeconds: Double { Double(maximumLatencyWorking) * Double(decimation) / sampleRate }

    /// Flag bits that mask a sample: bit 0 (`signalInvalid`) and bit 4 (`missing`).
    public static let maskingFlagBits: UInt8 = 0b0001_0001

    // MARK: Design (fixed per sample rate)

    @usableFromInline let decimation: Int
    @usableFromInline let workingRate: Double
    @usableFromInline let highPass: Biquad
    @usableFromInline let lowPass: Biquad
    @usableFromInline let derivativeScale: Float
    @usableFromInline let integratorLength: Int
    @usableFromInline let candidateSpacing: Int
    @usableFromInline let refractory: Int
    @usableFromInline let tWaveWindow: Int
    @usableFromInline let learningLength: Int
    @usableFromInline let startupLength: Int
    @usableFromInline let silenceLength: Int
    @usableFromInline let decayInterval: Int
    @usableFromInline let maximumRR: Int
    @usableFromInline let minimumRR: Int
    @usableFromInline let locateShift: Int
    @usableFromInline let apexRadius: Int
    @usableFromInline let rawMask: Int
    @usableFromInline let workMask: Int
    @usableFromInline let rawChunk: Int
    @usableFromInline let maximumLatencyWorking: Int

    // MARK: Signal state

    /// Raw input ring (NaN where masked), `rawMask + 1` samples.
    @usableFromInline var raw: [Float]
    /// Working-rate rings, `workMask + 1` each: band-passed, |slope|, slope².
    @usableFromInline var band: [Float]
    @usableFromInline var slope: [Float]
    @usableFromInline var slopeSquared: [Float]
    @usableFromInline var filter = FilterState()

    // MARK: Decision state

    @usableFromInline var decision: DecisionState

    /// Creates a detector for a stream sampled at `sampleRate`.
    /// - Parameter sampleRate: input sample rate, Hz, in 100...2000 (validated for 125–1000).
    /// - Complexity: O(sampleRate) for the ring buffers.
    public init(sampleRate: Double) {
        precondition(sampleRate >= 100 && sampleRate <= 2000, "sample rate \(sampleRate) Hz outside 100...2000")
        self.sampleRate = sampleRate
        let d = max(1, Int((sampleRate / 125 + 1e-9).rounded(.down)))
        decimation = d
        let fw = sampleRate / Double(d)
        workingRate = fw
        highPass = Biquad(butterworthCutoff: 7, sampleRate: fw, highPass: true)
        lowPass = Biquad(butterworthCutoff: 15, sampleRate: fw, highPass: false)
        derivativeScale = Float(fw / 2)
        func work(_ seconds: Double) -> Int { max(1, Int((seconds * fw).rounded())) }
        integratorLength = work(0.150)
        candidateSpacing = work(0.250)
        refractory = work(0.200)
        tWaveWindow = work(0.360)
        learningLength = work(Self.learningSeconds)
        silenceLength = work(3.0)
        decayInterval = work(1.0)
        maximumRR = work(2.0)
        minimumRR = work(0.2)
        let delay = highPass.phaseDelay(frequency: 12, sampleRate: fw) + lowPass.phaseDelay(frequency: 12, sampleRate: fw)
        // Working sample k averages inputs kD ..< (k+1)D: its centre is kD + (D−1)/2.
        locateShift = Int((delay * Double(d) - Double(d - 1) / 2).rounded())
        apexRadius = max(1, Int((0.050 * sampleRate).rounded()))
        var rawCount = 1
        while rawCount < Int(2.0 * sampleRate) { rawCount <<= 1 }
        rawMask = rawCount - 1
        rawChunk = rawCount / 4
        var workCount = 1
        while workCount < Int(1.0 * fw) { workCount <<= 1 }
        workMask = workCount - 1
        startupLength = work(Self.startupSeconds)
        // Search-back look-back, the candidate spacing, the integrator and the 360 ms hold; at
        // the start of a stream, the start-up check holds beats back for `startupLength`.
        maximumLatencyWorking = max(
            Int((1.5 * Double(work(2.0))).rounded()) + candidateSpacing + integratorLength + tWaveWindow,
            startupLength + candidateSpacing)
        raw = [Float](repeating: .nan, count: rawCount)
        band = [Float](repeating: 0, count: workCount)
        slope = [Float](repeating: 0, count: workCount)
        slopeSquared = [Float](repeating: 0, count: workCount)
        decision = DecisionState(learningEnd: learningLength, startupEnd: startupLength)
    }

    /// Detects the R peaks of a whole signal.
    /// - Parameters:
    ///   - samples: ECG samples, any unit and polarity.
    ///   - sampleRate: Hz.
    ///   - flags: optional per-sample flags (bit 0 `signalInvalid`, bit 4 `missing` mask a sample).
    /// - Returns: R-apex sample indices, increasing.
    /// - Complexity: O(n).
    public static func detect(_ samples: [Float], sampleRate: Double, flags: [UInt8]? = nil) -> [Int] {
        var detector = RPeakDetector(sampleRate: sampleRate)
        var peaks = [Int]()
        samples.withUnsafeBufferPointer { x in
            if let flags {
                flags.withUnsafeBufferPointer { detector.process(x, flags: $0, into: &peaks) }
            } else {
                detector.process(x, flags: nil, into: &peaks)
            }
        }
        detector.finish(into: &peaks)
        return peaks
    }
}

/// Filter and integrator state carried across blocks.
@usableFromInline
struct FilterState: Sendable {
    @usableFromInline var inputIndex = 0
    @usableFromInline var groupSum: Float = 0
    @usableFromInline var groupCount = 0
    @usableFromInline var groupInvalid = false
    @usableFromInline var workIndex = 0
    @usableFromInline var inGap = true
    @usableFromInline var offset: Float = 0
    @usableFromInline var hx1: Float = 0, hx2: Float = 0, hy1: Float = 0, hy2: Float = 0
    @usableFromInline var lx1: Float = 0, lx2: Float = 0, ly1: Float = 0, ly2: Float = 0
    @usableFromInline var b1: Float = 0, b2: Float = 0
    @usableFromInline var integral: Double = 0
    @usableFromInline var y1: Double = 0, y2: Double = 0
    @usableFromInline init() {}
}

/// One candidate peak of the integrator output.
@usableFromInline
struct Candidate: Sendable {
    /// Working-rate index of the integrator maximum.
    @usableFromInline var work: Int
    /// RMS slope over the integration window (signal units per second).
    @usableFromInline var height: Double
    /// Largest |slope| in the integration window.
    @usableFromInline var maxSlope: Double
    /// Refined R-apex input index.
    @usableFromInline var apex: Int
}

/// The part of the decision state that accepting a beat changes.
@usableFromInline
struct Levels: Sendable {
    @usableFromInline var qrsLevels: [Double]
    @usableFromInline var qrsNext: Int
    @usableFromInline var intervals: [Int]
    @usableFromInline var intervalCount: Int
    @usableFromInline var intervalNext: Int
    @usableFromInline var haveQRS: Bool
    @usableFromInline var lastQRS: Int
    @usableFromInline var lastSlope: Double
    @usableFromInline var intervalValid: Bool
}

/// Adaptive-threshold state (Hamilton & Tompkins 1986).
@usableFromInline
struct DecisionState: Sendable {
    @usableFromInline var learned = false
    @usableFromInline var learningEnd: Int
    @usableFromInline var learningCandidates: [Candidate] = []
    @usableFromInline var pending: Candidate?
    @usableFromInline var pendingValue: Double = 0
    @usableFromInline var qrsLevels = [Double](repeating: 0, count: 8)
    @usableFromInline var noiseLevels = [Double](repeating: 0, count: 8)
    @usableFromInline var qrsNext = 0
    @usableFromInline var noiseNext = 0
    @usableFromInline var intervals = [Int](repeating: 0, count: 8)
    @usableFromInline var intervalCount = 0
    @usableFromInline var intervalNext = 0
    @usableFromInline var haveQRS = false
    @usableFromInline var lastQRS = 0
    @usableFromInline var lastSlope: Double = 0
    @usableFromInline var intervalValid = false
    @usableFromInline var noiseCandidates: [Candidate] = []
    @usableFromInline var searchBackFailed = false
    @usableFromInline var nextDecay = Int.max
    /// Earliest working index at which the slow path has something to do.
    @usableFromInline var nextCheck = 0
    @usableFromInline var lastEmitted = -1
    /// The last accepted beat, held until no later beat can show it to be a P wave or an
    /// artefact (a QRS within 360 ms with more than twice its slope replaces it).
    @usableFromInline var held: Candidate?
    /// Levels and intervals as they were before `held` was accepted.
    @usableFromInline var beforeHeld: Levels?
    /// Beats accepted before `startupEnd` are held back (`startup`) and checked together then.
    @usableFromInline var deferring = true
    @usableFromInline var startupEnd: Int
    @usableFromInline var startup: [Candidate] = []
    /// The learning period's candidates, for the backward search-back at the end of start-up.
    @usableFromInline var early: [Candidate] = []
    @usableFromInline init(learningEnd: Int, startupEnd: Int) {
        self.learningEnd = learningEnd
        self.startupEnd = startupEnd
    }
}

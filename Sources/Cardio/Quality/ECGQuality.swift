import DSP

/// ECG signal quality per window (10 s by default): kSQI, sSQI, pSQI, basSQI, bSQI, the
/// Orphanidou et al. (2015) template match, and a three-level label by the simple heuristic
/// fusion of Zhao & Zhang (2018), with their fuzzy comprehensive evaluation beside it.
///
/// ```swift
/// let quality = ECGQuality(sampleRate: 360)
/// let windows = quality.assess(ecg, masked: flags.map { $0 & masks != 0 }, rPeaks: beats)
/// for w in windows { print(w.startSample, w.label, w.kurtosis, w.bSQI) }
/// ```
///
/// The signal is cut into consecutive, non-overlapping windows of ``windowLength`` samples from
/// its first sample; a final partial window is left out. Each window is assessed on its own (its
/// result does not depend on the rest of the signal):
/// - the moments (kSQI, sSQI) and the spectral indices (pSQI, basSQI) of the raw window, as
///   defined in ``ECGSignalQualityIndex``;
/// - bSQI between the caller's R-peaks (the primary detector, e.g. Pan–Tompkins, or reference
///   annotations) and ``ElgendiQRSDetector`` run on the window, with a 150-ms tolerance (Li et
///   al. 2008) and beats closer than that to the window's ends left out;
/// - ``OrphanidouTemplateMatch`` on the caller's R-peaks;
/// - ``ZhaoZhangHeuristicFusion`` with qSQI = bSQI: the window's ``ECGQualityWindow/label``;
/// - ``ZhaoZhangFuzzyEvaluation`` with the same indices: ``ECGQualityWindow/fuzzyLabel``.
///
/// **Why the heuristic fusion is the label.** On the MIT-BIH Noise Stress Test Database the
/// fuzzy evaluation, with its memberships as published, never reaches `unacceptable` (not one of
/// 156 windows at −6 dB SNR): electrode-motion noise raises pSQI (0.82 → 0.91) and pSQI's
/// "excellent" membership is 1 from 0.35 up, so the pSQI factor (weight 0.4) always votes
/// excellent and the score stays below 2.4. The heuristic fusion labels 0.6 % of the clean
/// windows and 100 % of the 0-dB windows unacceptable, rising with every SNR step (see
/// `ECGQualityValidationTests`).
///
/// **Masked samples** (gaps, saturation, lead-off) are left out of the moments, replaced by the
/// mean of the window's other samples for the spectra and the second detector, and R-peaks on
/// them are dropped. A window with more than ``maximumMaskedFraction`` masked is labelled
/// unacceptable whatever its indices (a SensorPipe rule, not from the papers).
///
/// Sample rates from 125 to 1000 Hz are supported (the papers used 125–500 Hz).
///
/// Sources: Q. Li, R. G. Mark, G. D. Clifford, *Physiol. Meas.* 29:15–32, 2008,
/// doi:10.1088/0967-3334/29/1/002; C. Orphanidou et al., *IEEE JBHI* 19(3):832–838, 2015,
/// doi:10.1109/JBHI.2014.2338351; Z. Zhao, Y. Zhang, *Front. Physiol.* 9:727, 2018,
/// doi:10.3389/fphys.2018.00727; M. Elgendi, *PLoS ONE* 8(9):e73557, 2013,
/// doi:10.1371/journal.pone.0073557.
public struct ECGQuality: Sendable {
    /// Sample rate, Hz.
    public let sampleRate: Double
    /// Window length, samples.
    public let windowLength: Int
    /// Largest distance between two detectors' beats that counts as agreement, samples.
    public let matchToleranceSamples: Int
    /// Largest share of masked samples a window may have and still be labelled by its indices.
    public let maximumMaskedFraction: Double

    let detector: ElgendiQRSDetector

    /// Creates an assessor.
    /// - Parameters:
    ///   - sampleRate: Hz, 125…1000.
    ///   - windowDurationSeconds: window length, seconds, at least 2 (default 10, as Li et al.
    ///     2008, Orphanidou et al. 2015 and Zhao & Zhang 2018).
    ///   - matchToleranceSeconds: bSQI matching tolerance, seconds (default 0.15, Li et al. 2008).
    ///   - maximumMaskedFraction: share of masked samples above which a window is unacceptable,
    ///     0…1 (default 0.1).
    /// - Complexity: O(1).
    public init(
        sampleRate: Double, windowDurationSeconds: Double = 10, matchToleranceSeconds: Double = 0.15,
        maximumMaskedFraction: Double = 0.1
    ) {
        precondition(sampleRate >= 125 && sampleRate <= 1000, "ECGQuality supports 125…1000 Hz, got \(sampleRate)")
        precondition(windowDurationSeconds >= 2, "ECGQuality windows must be at least 2 s")
        precondition(matchToleranceSeconds >= 0, "matchToleranceSeconds must be ≥ 0")
        precondition((0...1).contains(maximumMaskedFraction), "maximumMaskedFraction must be in 0…1")
        self.sampleRate = sampleRate
        windowLength = Int((windowDurationSeconds * sampleRate).rounded())
        matchToleranceSamples = Int((matchToleranceSeconds * sampleRate).rounded())
        self.maximumMaskedFraction = maximumMaskedFraction
        detector = ElgendiQRSDetector(sampleRate: sampleRate)
    }

    /// Assesses every complete window of a signal.
    /// - Parameters:
    ///   - signal: ECG samples of one segment (uniformly sampled, no gaps; any unit).
    ///   - masked: `true` for unusable samples; `nil` (default) when all are usable.
    ///   - rPeaks: R-peak sample indices in `signal` from the primary detector (or annotations),
    ///     any order; values outside the signal are ignored.
    /// - Returns: one result per complete window, in order.
    /// - Complexity: O(n log n + m log m) for n samples and m R-peaks.
    public func assess(_ signal: [Float], masked: [Bool]? = nil, rPeaks: [Int]) -> [ECGQualityWindow] {
        precondition(masked == nil || masked!.count == signal.count, "masked must have one flag per sample")
        let count = signal.count / windowLength
        guard count > 0 else { return [] }
        let peaks = rPeaks.sorted()
        var welch = QualitySpectrum.estimator(count: windowLength, sampleRate: sampleRate)
        let scratch = UnsafeMutableBufferPointer<Double>.allocate(capacity: windowLength)
        defer { scratch.deallocate() }
        var results: [ECGQualityWindow] = []
        results.reserveCapacity(count)
        signal.withUnsafeBufferPointer { s in
            withOptionalBuffer(masked) { m in
                var first = 0
                for w in 0..<count {
                    let start = w * windowLength, end = start + windowLength
                    while first < peaks.count && peaks[first] < start { first += 1 }
                    var local: [Int] = []
                    var k = first
                    while k < peaks.count && peaks[k] < end { local.append(peaks[k] - start); k += 1 }
                    let window = UnsafeBufferPointer(rebasing: s[start..<end])
                    let windowMask = m.map { UnsafeBufferPointer(rebasing: $0[start..<end]) }
                    var r = evaluate(window, masked: windowMask, rPeaks: local, welch: &welch, scratch: scratch)
                    r.startSample = start
                    results.append(r)
                }
            }
        }
        return results
    }

    /// ``assessWindow(_:masked:rPeaks:)`` with an estimator and scratch kept by a streaming
    /// caller between windows (setting up a Welch estimator, its Hann window, for every window
    /// cost more than the window's spectrum): the same result.
    /// - Parameters:
    ///   - welch: an estimator from ``QualitySpectrum/estimator(count:sampleRate:)`` for
    ///     `window.count` samples at this sample rate; reset here.
    ///   - scratch: at least `window.count` values, overwritten.
    /// - Complexity: O(n log n + m log m).
    func assessWindow(
        _ window: [Float], masked: [Bool]?, rPeaks: [Int], welch: inout Welch, scratch: UnsafeMutableBufferPointer<Double>
    ) -> ECGQualityWindow {
        precondition(masked == nil || masked!.count == window.count, "masked must have one flag per sample")
        precondition(Double(window.count) >= 2 * sampleRate, "a quality window must be at least 2 s")
        let peaks = rPeaks.filter { $0 >= 0 && $0 < window.count }.sorted()
        return window.withUnsafeBufferPointer { s in
            withOptionalBuffer(masked) { m in evaluate(s, masked: m, rPeaks: peaks, welch: &welch, scratch: scratch) }
        }
    }

    /// Assesses one window of any length (at least 2 s), e.g. a single 30-s ECG strip.
    /// - Parameters:
    ///   - window: the window's samples.
    ///   - masked: `true` for unusable samples; `nil` (default) when all are usable.
    ///   - rPeaks: R-peak sample indices relative to the window's start.
    /// - Returns: the window's quality (``ECGQualityWindow/startSample`` = 0).
    /// - Complexity: O(n log n + m log m).
    public func assessWindow(_ window: [Float], masked: [Bool]? = nil, rPeaks: [Int]) -> ECGQualityWindow {
        precondition(masked == nil || masked!.count == window.count, "masked must have one flag per sample")
        precondition(Double(window.count) >= 2 * sampleRate, "a quality window must be at least 2 s")
        var welch = QualitySpectrum.estimator(count: window.count, sampleRate: sampleRate)
        let scratch = UnsafeMutableBufferPointer<Double>.allocate(capacity: window.count)
        defer { scratch.deallocate() }
        return window.withUnsafeBufferPointer { s in
            withOptionalBuffer(masked) { m in
                evaluate(
                    s, masked: m, rPeaks: rPeaks.filter { $0 >= 0 && $0 < window.count }.sorted(),
                    welch: &welch, scratch: scratch)
            }
        }
    }

    /// The indices and labels of one window; `rPeaks` sorted, relative to the window.
    func evaluate(
        _ x: UnsafeBufferPointer<Float>, masked: UnsafeBufferPointer<Bool>?, rPeaks: [Int],
        welch: inout Welch, scratch: UnsafeMutableBufferPointer<Double>
    ) -> ECGQualityWindow {
        let n = x.count
        let moments = SampleMoments(x, masked: masked)
        let maskedCount = n - moments.count
        let spectrum = QualitySpectrum(x, masked: masked, mean: moments.mean, welch: &welch, scratch: scratch)
        let pSQI = spectrum.bandPower(5..<15) / spectrum.bandPower(5..<40)
        let basSQI = 1 - spectrum.bandPower(0..<1) / spectrum.bandPower(0..<40)

        var primary = rPeaks
        var secondary: [Int]
        if let m = masked, maskedCount > 0 {
            primary = primary.filter { !m[$0] }
            // The detector sees masked samples as the window's mean (flat, no beats).
            let mu = moments.mean.isFinite ? Float(moments.mean) : 0
            var filled = [Float](repeating: 0, count: n)
            for i in 0..<n { filled[i] = m[i] ? mu : x[i] }
            secondary = detector.detect(filled).filter { !m[$0] }
        } else {
            secondary = detector.detect(x)
        }
        let bSQI = ECGSignalQualityIndex.bSQI(
            primary, secondary, toleranceSamples: matchToleranceSamples,
            sampleCount: n)
        let template = OrphanidouTemplateMatch(samples: x, rPeaks: primary, sampleRate: sampleRate)
        var shortestRR = Int.max
        if primary.count >= 2 {
            for i in 1..<primary.count { shortestRR = min(shortestRR, primary[i] - primary[i - 1]) }
        }
        let maxHR = shortestRR == Int.max || shortestRR == 0 ? 0 : 60 * sampleRate / Double(shortestRR)
        let fuzzy = ZhaoZhangFuzzyEvaluation(qSQI: bSQI, pSQI: pSQI, kSQI: moments.kurtosis, basSQI: basSQI)
        // Both labels are defined on the indices alone; too many masked samples overrides them.
        let heuristic = ZhaoZhangHeuristicFusion(
            qSQI: bSQI, pSQI: pSQI, kSQI: moments.kurtosis, basSQI: basSQI,
            maximumHeartRateBeatsPerMinute: maxHR)
        let maskedFraction = Double(maskedCount) / Double(n)
        let tooMasked = maskedFraction > maximumMaskedFraction
        return ECGQualityWindow(
            startSample: 0, sampleCount: n, maskedFraction: maskedFraction,
            kurtosis: moments.kurtosis, skewness: moments.skewness, pSQI: pSQI, basSQI: basSQI, bSQI: bSQI,
            beatCount: primary.count, secondaryBeatCount: secondary.count, templateMatch: template,
            heuristicFusion: heuristic, fuzzyEvaluation: fuzzy,
            label: tooMasked ? .unacceptable : heuristic.label,
            fuzzyLabel: tooMasked ? .unacceptable : fuzzy.label)
    }
}

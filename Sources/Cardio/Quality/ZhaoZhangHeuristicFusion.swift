/// The simple heuristic fusion of Zhao & Zhang (2018): each of four SQIs is rated optimal,
/// suspicious or unqualified, and the counts give a three-level ``ECGQualityLabel``.
///
/// Ratings:
/// - qSQI (bSQI): optimal > 0.90, unqualified < 0.60, suspicious otherwise;
/// - pSQI: with the highest heart rate of the window (from its shortest RR) below 130 bpm,
///   optimal in (0.5, 0.8), suspicious in (0.4, 0.5), unqualified otherwise; at 130 bpm and above
///   the bounds drop by 0.1: (0.4, 0.7) and (0.3, 0.4);
/// - kSQI (Pearson kurtosis): optimal > 5, unqualified otherwise;
/// - basSQI: optimal ≥ 0.95, unqualified < 0.90, suspicious otherwise.
///
/// Fusion: **unacceptable** with 3 or more unqualified, or 2 unqualified and at least 1
/// suspicious, or 1 unqualified and 3 suspicious; **excellent** with at least 3 optimal and none
/// unqualified; **barely acceptable** otherwise. The rules are as transcribed by BioSPPy
/// (`ZZ2018`, PIA-Group/BioSPPy, 2021) from the paper; interval ends are strict where the
/// transcription is. NaN indices rate unqualified.
///
/// Note that the pSQI rating calls a window with pSQI ≥ 0.8 unqualified: ECG with narrow, steep
/// QRS complexes (and NeuroKit2's synthetic ECG) often reaches 0.85–0.95 and is then at best
/// "barely acceptable" here, while the fuzzy evaluation (``ZhaoZhangFuzzyEvaluation``), whose
/// pSQI memberships saturate at 0.35, rates it excellent. This fusion gives SensorPipe's label
/// (``ECGQuality`` says why); the fuzzy evaluation is reported beside it.
///
/// Source: Z. Zhao and Y. Zhang, *Front. Physiol.* 9:727, 2018, doi:10.3389/fphys.2018.00727,
/// section "Simple heuristic fusion".
public struct ZhaoZhangHeuristicFusion: Sendable, Equatable {
    /// Rating of one index.
    public enum Rating: Int, Sendable, Hashable, CaseIterable {
        /// Unqualified.
        case unqualified = 0
        /// Suspicious.
        case suspicious = 1
        /// Optimal.
        case optimal = 2
    }

    /// Ratings of qSQI, pSQI, kSQI and basSQI, in that order.
    public var ratings: [Rating]
    /// The fused class.
    public var label: ECGQualityLabel

    /// Rates and fuses four indices.
    /// - Parameters:
    ///   - qSQI: beat agreement of two detectors, 0…1 (bSQI).
    ///   - pSQI: QRS-band power share, 0…1.
    ///   - kSQI: Pearson kurtosis.
    ///   - basSQI: 1 − baseline power share, 0…1.
    ///   - maximumHeartRateBeatsPerMinute: 60 s over the window's shortest RR interval, bpm (any
    ///     value below 130, e.g. 0, when the window has fewer than 2 beats).
    /// - Complexity: O(1).
    public init(
        qSQI: Double, pSQI: Double, kSQI: Double, basSQI: Double,
        maximumHeartRateBeatsPerMinute: Double
    ) {
        let q: Rating = qSQI > 0.90 ? .optimal : (qSQI >= 0.60 ? .suspicious : .unqualified)
        let (l1, l2, l3) = maximumHeartRateBeatsPerMinute < 130 ? (0.5, 0.8, 0.4) : (0.4, 0.7, 0.3)
        let p: Rating = (pSQI > l1 && pSQI < l2) ? .optimal : ((pSQI > l3 && pSQI < l1) ? .suspicious : .unqualified)
        let k: Rating = kSQI > 5 ? .optimal : .unqualified
        let b: Rating = basSQI >= 0.95 ? .optimal : (basSQI >= 0.9 ? .suspicious : .unqualified)
        ratings = [q, p, k, b]
        let optimal = ratings.filter { $0 == .optimal }.count
        let suspicious = ratings.filter { $0 == .suspicious }.count
        let unqualified = ratings.filter { $0 == .unqualified }.count
        if unqualified >= 3 || (unqualified == 2 && suspicious >= 1) || (unqualified == 1 && suspicious == 3) {
            label = .unacceptable
        } else if optimal >= 3 && unqualified == 0 {
            label = .excellent
        } else {
            label = .barelyAcceptable
        }
    }
}

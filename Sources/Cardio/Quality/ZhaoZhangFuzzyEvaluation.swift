/// The fuzzy comprehensive evaluation of Zhao & Zhang (2018): four SQIs → a three-level
/// ``ECGQualityLabel``.
///
/// * Factor set `U = {qSQI, pSQI, kSQI, basSQI}`; evaluation set `V = {excellent (H), barely
///   acceptable (I), unacceptable (J)}`.
/// * Membership of each factor in H, I and J (qSQI and basSQI in percent, `x = 100·index`):
///   - qSQI (Cauchy): `H = 0` for x ≤ 80, `1 / (1 + (0.3(x − 80))⁻²)` for 80 < x < 90, `x/100`
///     for x ≥ 90; `I = 1 / (1 + ((x − 75)/7.5)²)`; `J = 1` for x ≤ 55, `1 / (1 + ((x − 55)/5)²)`
///     above.
///   - pSQI (trapezoidal): `H = 0` for p ≤ 0.25, `(p − 0.25)/0.1` for 0.25 < p < 0.35, `1` for
///     p ≥ 0.35; `I` rises linearly from 0 at 0.18 to 1 at 0.22, is 1 up to 0.28 and falls to 0
///     at 0.32 (slopes ±25); `J = 1` for p < 0.15, `(0.25 − p)/0.1` for 0.15 ≤ p ≤ 0.25, 0 above.
///   - kSQI (rectangular): `(H, I, J) = (1, 0, 0)` if kSQI > 5 (Pearson), else `(0, 0, 1)`.
///   - basSQI (Cauchy): `H = 0` for x ≤ 90, `1 / (1 + (0.8718(x − 90))⁻²)` for 90 < x < 95,
///     `x/100` for x ≥ 95; `I = 1 / (1 + ((x − 92)/2.5)²)`; `J = 1` for x ≤ 85,
///     `1 / (1 + ((x − 85)/5)²)` above.
/// * Weights `W = (0.4, 0.4, 0.1, 0.1)`; fuzzy synthesis with the bounded operator
///   `M(·, ⊕)`: `b_j = min(1, Σᵢ wᵢ·r_ij)`.
/// * Weighted-average principle with exponent 2: `V = Σ_j b_j²·j / Σ_j b_j²` (j = 1, 2, 3);
///   `V < 1.5` → excellent, `1.5 ≤ V < 2.4` → barely acceptable, `V ≥ 2.4` → unacceptable.
///
/// **Reading of the paper (choices).** The full text was not at hand while this was written;
/// the functions above were checked against two independent transcriptions (NeuroKit2's and
/// BioSPPy's `zhao2018`/`ZZ2018`, PIA-Group/BioSPPy `signalqualityindex.py`) and a reader's report
/// of the printed equations (NeuroKit issue #1023). Where those disagree, the continuous reading
/// was taken: (a) the pSQI ramps are `(p − 0.25)/0.1` and `(0.25 − p)/0.1` (both transcriptions
/// have `0.1·(p − 0.25)`, which jumps from 0.01 to 1 at p = 0.35 and contradicts the
/// "trapezoidal distribution" of the abstract); (b) basSQI's I is centred at 92 (the printed
/// value per issue #1023; NeuroKit2 uses 95); (c) the basSQI function equal to 1 below 85 is J
/// (unacceptable), as NeuroKit2 has it (BioSPPy labels it I). The H branches `x/100` continue the
/// Cauchy branches exactly (0.9 at x = 90 for qSQI, 0.95 at x = 95 for basSQI), which supports
/// them. qSQI is the bSQI of Li et al. (2008), see ``ECGSignalQualityIndex/bSQI(_:_:toleranceSamples:sampleCount:)``.
/// NaN indices take membership J = 1 (an index that cannot be computed is no evidence of quality).
///
/// **Behaviour on noise.** With these memberships pSQI ≥ 0.35 is fully "excellent", and noise
/// that raises pSQI (electrode motion does) cannot make the pSQI factor vote otherwise; on the
/// MIT-BIH Noise Stress Test Database no window reaches `unacceptable`, even at −6 dB. That is
/// why ``ECGQuality`` labels windows by ``ZhaoZhangHeuristicFusion`` and reports this evaluation
/// beside it.
///
/// Source: Z. Zhao and Y. Zhang, "SQI quality evaluation mechanism of single-lead ECG signal
/// based on simple heuristic fusion and fuzzy comprehensive evaluation", *Front. Physiol.* 9:727,
/// 2018, doi:10.3389/fphys.2018.00727, section "Fuzzy comprehensive evaluation".
public struct ZhaoZhangFuzzyEvaluation: Sendable, Equatable {
    /// Factor weights (qSQI, pSQI, kSQI, basSQI).
    public static let weights: [Double] = [0.4, 0.4, 0.1, 0.1]

    /// Membership matrix `R`: rows qSQI, pSQI, kSQI, basSQI; columns H (excellent), I (barely
    /// acceptable), J (unacceptable); each 0…1.
    public var memberships: [[Double]]
    /// The synthesised evaluation vector `B = (b_H, b_I, b_J)`, each 0…1.
    public var evaluation: [Double]
    /// The weighted-average score `V`, 1 (excellent) … 3 (unacceptable).
    public var score: Double
    /// The class of ``score``.
    public var label: ECGQualityLabel

    /// Evaluates four indices.
    /// - Parameters:
    ///   - qSQI: beat agreement of two detectors, 0…1 (bSQI).
    ///   - pSQI: QRS-band power share, 0…1.
    ///   - kSQI: Pearson kurtosis.
    ///   - basSQI: 1 − baseline power share, 0…1.
    /// - Complexity: O(1).
    public init(qSQI: Double, pSQI: Double, kSQI: Double, basSQI: Double) {
        let r = [
            Self.qMembership(100 * qSQI), Self.pMembership(pSQI), Self.kMembership(kSQI),
            Self.basMembership(100 * basSQI),
        ]
        memberships = r
        var b = [0.0, 0.0, 0.0]
        for j in 0..<3 {
            var s = 0.0
            for i in 0..<4 { s += Self.weights[i] * r[i][j] }
            b[j] = min(1, s)
        }
        evaluation = b
        let den = b[0] * b[0] + b[1] * b[1] + b[2] * b[2]
        score = (b[0] * b[0] + 2 * b[1] * b[1] + 3 * b[2] * b[2]) / den
        label = score < 1.5 ? .excellent : (score >= 2.4 ? .unacceptable : .barelyAcceptable)
    }

    static let worst: [Double] = [0, 0, 1]

    /// qSQI memberships, x in percent.
    static func qMembership(_ x: Double) -> [Double] {
        guard x.isFinite else { return worst }
        let h: Double
        if x <= 80 {
            h = 0
        } else if x >= 90 {
            h = x / 100
        } else {
            let a = 0.3 * (x - 80)
            h = 1 / (1 + 1 / (a * a))
        }
        let u = (x - 75) / 7.5
        let j: Double
        if x <= 55 { j = 1 } else { let v = (x - 55) / 5; j = 1 / (1 + v * v) }
        return [h, 1 / (1 + u * u), j]
    }

    /// pSQI memberships.
    static func pMembership(_ p: Double) -> [Double] {
        guard p.isFinite else { return worst }
        let h: Double = p <= 0.25 ? 0 : (p >= 0.35 ? 1 : (p - 0.25) / 0.1)
        let i: Double
        if p < 0.18 || p >= 0.32 {
            i = 0
        } else if p < 0.22 {
            i = 25 * (p - 0.18)
        } else if p < 0.28 {
            i = 1
        } else {
            i = 25 * (0.32 - p)
        }
        let j: Double = p < 0.15 ? 1 : (p > 0.25 ? 0 : (0.25 - p) / 0.1)
        return [h, i, j]
    }

    /// kSQI memberships (rectangular).
    static func kMembership(_ k: Double) -> [Double] {
        k > 5 ? [1, 0, 0] : worst
    }

    /// basSQI memberships, x in percent.
    static func basMembership(_ x: Double) -> [Double] {
        guard x.isFinite else { return worst }
        let h: Double
        if x <= 90 {
            h = 0
        } else if x >= 95 {
            h = x / 100
        } else {
            let a = 0.8718 * (x - 90)
            h = 1 / (1 + 1 / (a * a))
        }
        let u = (x - 92) / 2.5
        let j: Double
        if x <= 85 { j = 1 } else { let v = (x - 85) / 5; j = 1 / (1 + v * v) }
        return [h, 1 / (1 + u * u), j]
    }
}

/// The three quality classes of Zhao & Zhang (2018) for a window of single-lead ECG.
///
/// Raw values are the stable names written to results (`excellent`, `barely_acceptable`,
/// `unacceptable`). Cases are ordered from best to worst (`excellent < unacceptable`).
///
/// Source: Z. Zhao and Y. Zhang, "SQI quality evaluation mechanism of single-lead ECG signal
/// based on simple heuristic fusion and fuzzy comprehensive evaluation", *Front. Physiol.* 9:727,
/// 2018, doi:10.3389/fphys.2018.00727.
public enum ECGQualityLabel: String, Sendable, Hashable, CaseIterable, Comparable, CustomStringConvertible {
    /// Good enough for beat-to-beat analysis (HRV).
    case excellent
    /// Usable for heart rate, with care.
    case barelyAcceptable = "barely_acceptable"
    /// Not usable: noise, artefact, no ECG, or too many masked samples.
    case unacceptable

    /// Rank from best (0) to worst (2).
    var rank: Int {
        switch self {
        case .excellent: 0
        case .barelyAcceptable: 1
        case .unacceptable: 2
        }
    }

    /// Orders from best to worst.
    /// - Parameters:
    ///   - lhs: a label.
    ///   - rhs: another label.
    /// - Returns: `true` when `lhs` is better than `rhs`.
    /// - Complexity: O(1).
    public static func < (lhs: ECGQualityLabel, rhs: ECGQualityLabel) -> Bool { lhs.rank < rhs.rank }

    /// The raw value (`excellent`, `barely_acceptable`, `unacceptable`).
    public var description: String { rawValue }
}

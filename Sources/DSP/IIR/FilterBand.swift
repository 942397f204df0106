/// The pass or stop band of a frequency-selective filter, with edges in hertz.
public enum FilterBand: Sendable, Equatable {
    /// Passes frequencies below `cutoff` Hz.
    case lowPass(cutoff: Double)
    /// Passes frequencies above `cutoff` Hz.
    case highPass(cutoff: Double)
    /// Passes frequencies between `low` and `high` Hz.
    case bandPass(low: Double, high: Double)
    /// Rejects frequencies between `low` and `high` Hz.
    case bandStop(low: Double, high: Double)

    /// The critical frequencies in Hz, in the order given (`low`, `high` for bands).
    /// - Complexity: O(1).
    public var edges: [Double] {
        switch self {
        case .lowPass(let f), .highPass(let f): return [f]
        case .bandPass(let lo, let hi), .bandStop(let lo, let hi): return [lo, hi]
        }
    }
}

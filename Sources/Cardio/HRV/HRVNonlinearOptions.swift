/// Parameters of ``HRVNonlinear``: entropy tolerance and DFA scales.
public struct HRVNonlinearOptions: Sendable, Equatable {
    /// Tolerance `r` of SampEn and ApEn as a multiple of SDNN; default 0.2 (NeuroKit2, and
    /// Richman & Moorman 2000).
    public var toleranceFactor: Double
    /// Window lengths (beats) for DFA α1; default 4…11 (NeuroKit2; Peng et al. 1995 used 4…16).
    public var dfaShortScales: ClosedRange<Int>
    /// Window lengths (beats) for DFA α2; `nil` (default) for NeuroKit2's 12 … ⌊(n+1)/10⌋
    /// (Peng et al. 1995 used 16…64).
    public var dfaLongScales: ClosedRange<Int>?

    /// Creates options; the defaults are NeuroKit2's `hrv_nonlinear` defaults.
    /// - Parameters:
    ///   - toleranceFactor: `r / SDNN` for the entropies (default 0.2), > 0.
    ///   - dfaShortScales: α1 window lengths in beats (default 4…11), lower bound ≥ 3.
    ///   - dfaLongScales: α2 window lengths in beats, or `nil` (default) for 12 … ⌊(n+1)/10⌋.
    /// - Complexity: O(1).
    public init(
        toleranceFactor: Double = 0.2, dfaShortScales: ClosedRange<Int> = 4...11,
        dfaLongScales: ClosedRange<Int>? = nil
    ) {
        precondition(toleranceFactor > 0, "HRV entropy tolerance factor must be positive")
        precondition(dfaShortScales.lowerBound >= 3, "DFA scales must be at least 3 beats")
        precondition((dfaLongScales?.lowerBound ?? 3) >= 3, "DFA scales must be at least 3 beats")
        self.toleranceFactor = toleranceFactor
        self.dfaShortScales = dfaShortScales
        self.dfaLongScales = dfaLongScales
    }

    /// Peng et al. (1995)'s scales: α1 over 4…16 beats, α2 over 16…64 beats.
    public static let peng1995 = HRVNonlinearOptions(dfaShortScales: 4...16, dfaLongScales: 16...64)
}

/// How a beat of a corrected series came to be (a set: a beat may be corrected more than once).
public struct BeatCorrection: OptionSet, Sendable, Hashable {
    /// Bit mask.
    public let rawValue: UInt8

    /// Creates a set from its bit mask.
    /// - Parameter rawValue: bit mask.
    /// - Complexity: O(1).
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// Moved to the middle of its neighbours as an ectopic beat.
    public static let ectopic = BeatCorrection(rawValue: 1 << 0)
    /// Moved to the middle of its neighbours as a long/short interval.
    public static let longShort = BeatCorrection(rawValue: 1 << 1)
    /// Inserted for a missed beat (not a detected beat).
    public static let inserted = BeatCorrection(rawValue: 1 << 2)
    /// The beat right after an extra beat that was removed (its interval spans the removed beat).
    public static let followsRemovedExtra = BeatCorrection(rawValue: 1 << 3)
}

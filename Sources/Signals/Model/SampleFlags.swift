/// Per-sample validity bits carried beside every block (one byte per sample).
///
/// A sample with any of ``maskingFlags`` set is **masked**: it keeps its place in time (so the
/// time base stays intact) but analyses must not use its value.
public struct SampleFlags: OptionSet, Sendable, Hashable, Codable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// ECG `flags` bit 0: the Watch marked the sample invalid.
    public static let signalInvalid = SampleFlags(rawValue: 1 << 0)
    /// ECG `flags` bit 1: the crown was touched (kept, not masked).
    public static let crownTouched = SampleFlags(rawValue: 1 << 1)
    /// PPG `conditions` contains `signalSaturation`.
    public static let saturated = SampleFlags(rawValue: 1 << 2)
    /// PPG `conditions` contains `unreliableNoise` (kept, not masked).
    public static let unreliableNoise = SampleFlags(rawValue: 1 << 3)
    /// The value is missing (`null` in the source, or a WFDB invalid-sample code); stored as NaN.
    public static let missing = SampleFlags(rawValue: 1 << 4)

    /// The flags that make a sample unusable for analysis.
    public static let maskingFlags: SampleFlags = [.signalInvalid, .saturated, .missing]

    /// Whether the sample must be excluded from analysis.
    @inlinable public var isMasked: Bool { !intersection(.maskingFlags).isEmpty }
}

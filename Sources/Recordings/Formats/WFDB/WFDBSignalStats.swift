/// What ``WFDBDecoder`` measured for one signal of a record, to check it against the header:
/// header(5) gives each signal's first sample value and a 16-bit checksum of all its samples.
public struct WFDBSignalStats: Sendable, Hashable {
    /// Index of the signal in the header.
    public var signal: Int
    /// Raw samples of this signal decoded from its file (skewed samples included).
    public var samplesDecoded: Int
    /// Samples holding the format's invalid-sample code (delivered as NaN, flagged missing).
    public var invalidSamples: Int
    /// Value (adu) of the first sample in the file, once decoded.
    public var firstValue: Int?
    /// Computed checksum: the sum of the raw samples over the header's samples per signal, as a
    /// signed 16-bit value.
    public var checksum: Int
    /// Whether ``checksum`` equals the header's checksum; `nil` when it cannot be checked (the
    /// header gives no checksum or no sample count, or the file ended early).
    public var checksumMatches: Bool?
    /// Whether ``firstValue`` equals the header's initial value; `nil` when the header gives
    /// none or the format stores differences (format 8).
    public var firstValueMatches: Bool?

    /// Creates an empty account for signal `signal`.
    /// - Complexity: O(1).
    public init(signal: Int) {
        self.signal = signal
        samplesDecoded = 0
        invalidSamples = 0
        firstValue = nil
        checksum = 0
        checksumMatches = nil
        firstValueMatches = nil
    }
}

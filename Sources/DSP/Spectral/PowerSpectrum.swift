/// A one-sided power spectrum: frequencies and the power at each.
public struct PowerSpectrum: Sendable, Equatable {
    /// Bin frequencies in Hz, `k · sampleRate / fftLength` for `k = 0 … fftLength / 2`.
    public var frequencies: [Double]
    /// Power per bin: signal units²/Hz for ``SpectralScaling/density``, signal units² for
    /// ``SpectralScaling/spectrum``.
    public var power: [Double]
    /// Number of segments averaged (1 for a periodogram).
    public var segmentCount: Int

    /// Creates a spectrum from its parts.
    /// - Parameters:
    ///   - frequencies: bin frequencies in Hz.
    ///   - power: power per bin (same count as `frequencies`).
    ///   - segmentCount: number of averaged segments.
    /// - Complexity: O(1).
    public init(frequencies: [Double], power: [Double], segmentCount: Int) {
        precondition(frequencies.count == power.count, "frequencies and power differ in count")
        self.frequencies = frequencies
        self.power = power
        self.segmentCount = segmentCount
    }
}

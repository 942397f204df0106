#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A digital Butterworth filter (Butterworth 1930), designed as second-order sections.
///
/// The design follows `scipy.signal.butter(order, Wn, btype, fs=sampleRate, output='sos')` step
/// by step, and its coefficients agree with SciPy's to rounding (tested to 1e-9 relative):
/// 1. analog low-pass prototype with poles `−exp(iπm/(2N))`, `m = −N+1, −N+3, …, N−1`
///    (S. Butterworth, "On the theory of filter amplifiers", *Experimental Wireless and the
///    Wireless Engineer* 7, 536–541, 1930);
/// 2. edges pre-warped, `ω = 4·tan(π·f/f_s)` (bilinear transform at 2 samples/unit, as SciPy);
/// 3. low-pass → low-/high-/band-pass/band-stop frequency transformation of the zeros and poles;
/// 4. bilinear transform `s = 4·(z − 1)/(z + 1)` (Oppenheim & Schafer, *Discrete-Time Signal
///    Processing*, 3rd ed., §7.2), zeros at infinity → z = −1;
/// 5. `zpk2sos` with `pairing='nearest'`: poles nearest the unit circle go to the last section,
///    each pole pair takes its nearest zeros, and the overall gain sits in the first section.
///
/// A band-pass or band-stop design of order `N` has `2N` poles (`N` sections); a low- or
/// high-pass design has `⌈N/2⌉` sections.
///
/// ```swift
/// let design = try ButterworthDesign(order: 4, band: .bandPass(low: 0.5, high: 40),
///                                    sampleRate: 512)
/// var filter = SOSFilter<Float>(design.sos)
/// ```
public struct ButterworthDesign: Sendable, Equatable {
    /// Filter order `N` (band-pass and band-stop designs have order `2N`).
    public let order: Int
    /// The band, edges in Hz.
    public let band: FilterBand
    /// Sample rate in Hz.
    public let sampleRate: Double
    /// The designed filter as second-order sections, in SciPy's order and gain placement.
    public let sos: SOS

    /// Largest supported `order`.
    public static let maximumOrder = 50

    /// Designs the filter.
    /// - Parameters:
    ///   - order: filter order `N`, 1…``maximumOrder``.
    ///   - band: the band; every edge must lie strictly between 0 and `sampleRate / 2` Hz, and a
    ///     band's `low` must be below its `high`.
    ///   - sampleRate: sample rate in Hz, positive and finite.
    /// - Throws: ``IIRError`` with code `invalidOrder`, `invalidSampleRate` or
    ///   `invalidFrequency`.
    /// - Complexity: O(N²) (pole/zero pairing), negligible next to filtering.
    public init(order: Int, band: FilterBand, sampleRate: Double) throws(IIRError) {
        guard (1...Self.maximumOrder).contains(order) else {
            throw IIRError(
                .invalidOrder,
                "Butterworth order must be in 1...\(Self.maximumOrder), got \(order)")
        }
        guard sampleRate.isFinite && sampleRate > 0 else {
            throw IIRError(.invalidSampleRate, "sampleRate must be positive and finite, got \(sampleRate) Hz")
        }
        let nyquist = sampleRate / 2
        let edges = band.edges
        for f in edges where !(f > 0 && f < nyquist) {
            throw IIRError(
                .invalidFrequency,
                "critical frequency \(f) Hz must lie in (0, \(nyquist)) Hz for sampleRate \(sampleRate) Hz")
        }
        if edges.count == 2 && !(edges[0] < edges[1]) {
            throw IIRError(
                .invalidFrequency,
                "band edges must satisfy low < high, got \(edges[0]) Hz and \(edges[1]) Hz")
        }
        self.order = order
        self.band = band
        self.sampleRate = sampleRate
        self.sos = SOS(
            rows: Self.digitalZeroPoleGain(
                order: order, band: band,
                sampleRate: sampleRate
            ).secondOrderSections())
    }

    /// Zeros, poles and gain of the digital filter (`butter(..., output='zpk')`).
    static func digitalZeroPoleGain(order: Int, band: FilterBand, sampleRate: Double) -> IIRZeroPoleGain {
        let fs = 2.0 // SciPy designs on normalised frequencies with fs = 2
        let warped = band.edges.map { f -> Double in
            let wn = f / (sampleRate / 2)
            return 2 * fs * tan(Double.pi * wn / fs)
        }
        let prototype = IIRZeroPoleGain.butterworthPrototype(order: order)
        let analog: IIRZeroPoleGain
        switch band {
        case .lowPass:
            analog = prototype.lowPassToLowPass(warped[0])
        case .highPass:
            analog = prototype.lowPassToHighPass(warped[0])
        case .bandPass:
            analog = prototype.lowPassToBandPass(
                (warped[0] * warped[1]).squareRoot(),
                bandwidth: warped[1] - warped[0])
        case .bandStop:
            analog = prototype.lowPassToBandStop(
                (warped[0] * warped[1]).squareRoot(),
                bandwidth: warped[1] - warped[0])
        }
        return analog.bilinear(sampleRate: fs)
    }
}

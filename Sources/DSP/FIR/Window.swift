#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A tapering window for FIR design and spectral analysis, computed exactly as
/// `scipy.signal.windows` does (agreement to ~1e-16 in `Double`).
///
/// Definitions for a window of length `M` with `n = 0 … M−1` (symmetric form):
/// - ``rectangular``: `w[n] = 1` (SciPy's `boxcar`).
/// - ``hann``: `w[n] = 0.5 − 0.5·cos(2πn/(M−1))`.
/// - ``hamming``: `w[n] = 0.54 − 0.46·cos(2πn/(M−1))`.
/// - ``blackman``: `w[n] = 0.42 − 0.5·cos(2πn/(M−1)) + 0.08·cos(4πn/(M−1))`.
/// - ``kaiser(beta:)``: `w[n] = I₀(β·√(1 − ((n − α)/α)²)) / I₀(β)` with `α = (M−1)/2` and `I₀`
///   the modified Bessel function of order zero.
///
/// The **periodic** form (SciPy's `sym=False`, `get_window(..., fftbins=True)`) is the symmetric
/// window of length `M + 1` with its last sample dropped; use it for spectral analysis (Welch,
/// STFT). The symmetric form is the one FIR design uses.
///
/// Sources: F. J. Harris, "On the use of windows for harmonic analysis with the discrete Fourier
/// transform", Proc. IEEE 66(1), 1978, doi:10.1109/PROC.1978.10837 (rectangular, Hann, Hamming,
/// Blackman); J. F. Kaiser, "Nonrecursive digital filter design using the I₀-sinh window
/// function", Proc. IEEE Int. Symp. Circuits and Systems, 1974, pp. 20–23 (Kaiser).
public enum Window: Sendable, Hashable {
    /// All ones (no tapering).
    case rectangular
    /// Hann (raised cosine): first side lobe −31 dB, zero at both ends of the symmetric form.
    case hann
    /// Hamming: first side lobe −43 dB; the default window of `scipy.signal.firwin`.
    case hamming
    /// Blackman (coefficients 0.42, 0.5, 0.08): first side lobe −58 dB.
    case blackman
    /// Kaiser with shape parameter `beta` (dimensionless, ≥ 0; 0 is rectangular, larger values
    /// trade main-lobe width for side-lobe attenuation; see ``FIRDesign/kaiserBeta(attenuationDecibels:)``).
    case kaiser(beta: Double)

    /// The window's samples.
    /// - Parameters:
    ///   - count: window length `M` in samples, ≥ 0 (0 gives `[]`, 1 gives `[1]`).
    ///   - periodic: `false` (default) for the symmetric window (`sym=True` in SciPy), `true` for
    ///     the periodic window used with DFTs (`sym=False`, `fftbins=True`).
    /// - Returns: `count` values, peak 1 (exactly 1 only where a sample falls on the centre).
    /// - Complexity: O(count); O(count·β) for Kaiser (the Bessel series).
    public func coefficients(count: Int, periodic: Bool = false) -> [Double] {
        precondition(count >= 0, "Window length must be ≥ 0")
        if count <= 1 { return [Double](repeating: 1, count: count) }
        let m = periodic ? count + 1 : count
        var w = [Double](repeating: 0, count: m)
        switch self {
        case .rectangular:
            for i in 0..<m { w[i] = 1 }
        case .hann:
            Self.generalCosine([0.5, 1 - 0.5], into: &w)
        case .hamming:
            Self.generalCosine([0.54, 1 - 0.54], into: &w)
        case .blackman:
            Self.generalCosine([0.42, 0.50, 0.08], into: &w)
        case .kaiser(let beta):
            precondition(beta.isFinite, "Kaiser beta must be finite")
            let alpha = Double(m - 1) / 2.0
            let denominator = besselI0(beta)
            for i in 0..<m {
                let r = (Double(i) - alpha) / alpha
                w[i] = besselI0(beta * (1 - r * r).squareRoot()) / denominator
            }
        }
        if periodic { w.removeLast() }
        return w
    }

    /// Σₖ aₖ·cos(k·φₙ) on φ = linspace(−π, π, M), evaluated in the same order as SciPy's
    /// `general_cosine` so that results agree to the last bit or two.
    private static func generalCosine(_ a: [Double], into w: inout [Double]) {
        let m = w.count
        let step = (Double.pi - -Double.pi) / Double(m - 1)
        for i in 0..<m {
            let phi = i == m - 1 ? Double.pi : Double(i) * step + -Double.pi
            var sum = 0.0
            for k in a.indices { sum += a[k] * cos(Double(k) * phi) }
            w[i] = sum
        }
    }
}

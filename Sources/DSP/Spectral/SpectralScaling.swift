/// Units of a power spectrum, as SciPy's `scaling` argument.
///
/// With window `w` and sample rate `fs`: `density` multiplies `|X[k]|²` by `1 / (fs·Σw²)`
/// (power spectral density, V²/Hz for a signal in V), `spectrum` by `1 / (Σw)²` (power spectrum,
/// V²; a sinusoid of RMS amplitude `a` on a bin centre reads `a²`). One-sided spectra double
/// every bin except 0 and, for even FFT lengths, the Nyquist bin.
public enum SpectralScaling: Sendable, Equatable {
    /// Power spectral density, signal units² per Hz (SciPy `'density'`, the default).
    case density
    /// Power spectrum, signal units² (SciPy `'spectrum'`).
    case spectrum
}

#if canImport(Glibc)
    import Glibc
#endif

/// The taper applied to each segment before its Fourier transform in ``periodogram(_:sampleRate:window:fftLength:detrend:scaling:)``
/// and ``Welch``.
///
/// Windows are DFT-even ("periodic"), as `scipy.signal.get_window(name, n)` returns them by
/// default (`fftbins=True`): the length-`n` window is the first `n` points of the symmetric
/// window of length `n + 1`.
///
/// Source: F. J. Harris, "On the use of windows for harmonic analysis with the discrete Fourier
/// transform", Proc. IEEE 66(1), 1978, doi:10.1109/PROC.1978.10837.
public enum SpectralWindow: Sendable, Equatable {
    /// No taper (all ones), SciPy's `'boxcar'`; the default of ``periodogram(_:sampleRate:window:fftLength:detrend:scaling:)``.
    case boxcar
    /// Periodic Hann window `w[k] = 0.5 − 0.5·cos(2πk/n)`, SciPy's `'hann'` / `'hann_periodic'`;
    /// the default of ``Welch``.
    case hann
    /// Caller-supplied window values; the count must equal the segment length.
    case custom([Double])

    /// The window values for a segment of `count` samples.
    ///
    /// Hann comes from the shared window catalogue (``Window/hann``, periodic), which follows
    /// SciPy's `general_cosine` evaluation order so the values agree with SciPy to the last bit.
    func values(count: Int) -> [Double] {
        precondition(count >= 1, "window length must be ≥ 1")
        switch self {
        case .boxcar:
            return [Double](repeating: 1, count: count)
        case .hann:
            return Window.hann.coefficients(count: count, periodic: true)
        case .custom(let w):
            precondition(
                w.count == count,
                "custom window has \(w.count) values; the segment length is \(count)")
            return w
        }
    }
}

/// Trend removed from each segment before windowing, as SciPy's `detrend` argument.
///
/// Source: `scipy.signal.detrend`; the linear fit is the ordinary least-squares line over the
/// segment's sample indices.
public enum SpectralDetrend: Sendable, Equatable {
    /// No detrending (SciPy `detrend=False`).
    case none
    /// Subtract the segment mean (SciPy `'constant'`, the default).
    case constant
    /// Subtract the least-squares straight line (SciPy `'linear'`).
    case linear
}

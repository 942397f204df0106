/// The (modified) periodogram of a signal, matching `scipy.signal.periodogram`.
///
/// One segment of the whole signal: detrended, windowed, zero-padded to `fftLength` (or
/// truncated to it when `fftLength` is smaller than the signal, as SciPy does), transformed, and
/// scaled as a one-sided spectrum (see ``SpectralScaling``). Computation is in `Double`.
///
/// Source: A. Schuster, "On the investigation of hidden periodicities with application to a
/// supposed 26 day period of meteorological phenomena", Terr. Magn. 3(1), 13–41, 1898,
/// doi:10.1029/TM003i001p00013; scaling conventions as in `scipy.signal.periodogram`.
///
/// - Parameters:
///   - signal: the samples (n ≥ 1).
///   - sampleRate: sample rate in Hz (default 1, as SciPy's `fs`).
///   - window: taper; default ``SpectralWindow/boxcar`` (SciPy's default).
///   - fftLength: FFT length (default n); longer zero-pads, shorter truncates the signal.
///   - detrend: trend removed first; default ``SpectralDetrend/constant``.
///   - scaling: ``SpectralScaling/density`` (units²/Hz, default) or ``SpectralScaling/spectrum``.
/// - Returns: `fftLength / 2 + 1` frequencies (Hz) and powers.
/// - Throws: ``SpectralError`` if `signal` is empty.
/// - Complexity: O(N log N) with N = `fftLength`.
public func periodogram(
    _ signal: [Double], sampleRate: Double = 1,
    window: SpectralWindow = .boxcar, fftLength: Int? = nil,
    detrend: SpectralDetrend = .constant,
    scaling: SpectralScaling = .density
) throws(SpectralError) -> PowerSpectrum {
    try signal.withUnsafeBufferPointer { (p) throws(SpectralError) -> PowerSpectrum in
        try periodogramImpl(
            p, sampleRate: sampleRate, window: window, fftLength: fftLength,
            detrend: detrend, scaling: scaling)
    }
}

/// The (modified) periodogram of a `Float` signal (computed in `Double`), matching
/// `scipy.signal.periodogram`.
///
/// See ``periodogram(_:sampleRate:window:fftLength:detrend:scaling:)-(Double…)`` for the method.
/// - Parameters:
///   - signal: the samples (n ≥ 1).
///   - sampleRate: sample rate in Hz (default 1).
///   - window: taper; default ``SpectralWindow/boxcar``.
///   - fftLength: FFT length (default n); longer zero-pads, shorter truncates the signal.
///   - detrend: trend removed first; default ``SpectralDetrend/constant``.
///   - scaling: ``SpectralScaling/density`` (default) or ``SpectralScaling/spectrum``.
/// - Returns: `fftLength / 2 + 1` frequencies (Hz) and powers.
/// - Throws: ``SpectralError`` if `signal` is empty.
/// - Complexity: O(N log N) with N = `fftLength`.
public func periodogram(
    _ signal: [Float], sampleRate: Double = 1,
    window: SpectralWindow = .boxcar, fftLength: Int? = nil,
    detrend: SpectralDetrend = .constant,
    scaling: SpectralScaling = .density
) throws(SpectralError) -> PowerSpectrum {
    try signal.withUnsafeBufferPointer { (p) throws(SpectralError) -> PowerSpectrum in
        try periodogramImpl(
            p, sampleRate: sampleRate, window: window, fftLength: fftLength,
            detrend: detrend, scaling: scaling)
    }
}

func periodogramImpl<S: SpectralSample>(
    _ signal: UnsafeBufferPointer<S>, sampleRate: Double,
    window: SpectralWindow, fftLength: Int?,
    detrend: SpectralDetrend,
    scaling: SpectralScaling
) throws(SpectralError) -> PowerSpectrum {
    let n = signal.count
    guard n > 0 else { throw SpectralError(.tooFewSamples, "periodogram: the signal is empty") }
    if let f = fftLength { precondition(f >= 1, "periodogram fftLength must be ≥ 1") }
    let nfft = fftLength ?? n
    let used = min(n, nfft)
    var welch = Welch(
        segmentLength: used, overlap: 0, window: window, detrend: detrend,
        scaling: scaling, average: .mean, fftLength: nfft, sampleRate: sampleRate)
    welch.consume(UnsafeBufferPointer(rebasing: signal[..<used]))
    return try welch.estimate()
}

/// The mutable, FFTW-aligned buffers of one ``OverlapSaveFilter`` stream.
///
/// A class so that the filter (a value type) can own `fftw_malloc` memory; the filter copies it
/// on write (``copy()``), so copies of a filter never share state.
@usableFromInline
final class OverlapSaveStorage<Scalar: FFTScalar> {
    /// The FFT input frame: `M − 1` samples of history, then up to `N − M + 1` new samples.
    @usableFromInline let frame: UnsafeMutablePointer<Scalar>
    /// Spectrum scratch, `N + 2` values (interleaved `N/2 + 1` bins).
    @usableFromInline let spectrum: UnsafeMutablePointer<Scalar>
    /// Inverse-FFT output, `N` samples.
    @usableFromInline let result: UnsafeMutablePointer<Scalar>
    /// FFT size `N`.
    @usableFromInline let fftSize: Int
    /// Samples currently in ``frame`` (history included); ranges over `M − 1 … N`.
    @usableFromInline var fill: Int
    /// Inputs consumed in the current segment.
    @usableFromInline var samplesIn = 0
    /// Samples of the full (undelayed) convolution computed so far in this segment.
    @usableFromInline var produced = 0

    @usableFromInline
    init(fftSize: Int, history: Int) {
        self.fftSize = fftSize
        frame = Scalar._allocate(fftSize)
        spectrum = Scalar._allocate(fftSize + 2)
        result = Scalar._allocate(fftSize)
        frame.initialize(repeating: 0, count: fftSize)
        spectrum.initialize(repeating: 0, count: fftSize + 2)
        result.initialize(repeating: 0, count: fftSize)
        fill = history
    }

    /// A deep copy (same stream state, separate memory).
    @usableFromInline
    func copy() -> OverlapSaveStorage {
        let c = OverlapSaveStorage(fftSize: fftSize, history: fill)
        c.frame.update(from: frame, count: fftSize)
        c.fill = fill
        c.samplesIn = samplesIn
        c.produced = produced
        return c
    }

    deinit {
        Scalar._free(frame)
        Scalar._free(spectrum)
        Scalar._free(result)
    }
}

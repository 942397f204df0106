/// Welch's averaged, modified periodogram: a streaming power-spectral-density estimator that
/// matches `scipy.signal.welch`.
///
/// The signal is cut into segments of ``segmentLength`` samples that start every
/// `segmentLength − overlap` samples (the last partial segment is dropped, as in SciPy); each
/// segment is detrended, windowed, zero-padded to ``fftLength`` and transformed, and the
/// one-sided `|X[k]|²` are averaged (mean or bias-corrected median) and scaled
/// (see ``SpectralScaling``).
///
/// `Welch` is an accumulator: feed the signal in blocks of any sizes with ``process(_:)-(UnsafeBufferPointer<Float>)``
/// and call ``estimate()``; the result is bit-identical to feeding the whole signal at once.
/// Only the samples from the next segment's start on (fewer than ``segmentLength``) are kept
/// between blocks; with ``Average/median`` every segment's spectrum is also kept (the median
/// needs them all), so memory then grows with `segmentCount · (fftLength/2 + 1)`.
///
/// ```swift
/// var welch = Welch(segmentLength: 4096, sampleRate: 512)   // Hann, 50 %, constant, density
/// for block in blocks { welch.process(block) }
/// let psd = try welch.estimate()                            // psd.frequencies (Hz), psd.power (V²/Hz)
/// ```
///
/// Computation is in `Double` whatever the input type. SciPy defaults reproduced: periodic Hann
/// window, `noverlap = nperseg / 2`, `detrend='constant'`, `scaling='density'`, one-sided,
/// `average='mean'`. If fewer than ``segmentLength`` samples arrive, SciPy's rule applies: one
/// segment of all the samples with the window recomputed for that length.
///
/// Sources: P. D. Welch, "The use of fast Fourier transform for the estimation of power
/// spectra: a method based on time averaging over short, modified periodograms", IEEE Trans.
/// Audio Electroacoust. 15(2), 70–73, 1967, doi:10.1109/TAU.1967.1161901. Median average and its
/// bias: B. Allen et al., "FINDCHIRP: an algorithm for detection of gravitational waves from
/// inspiraling compact binaries", Phys. Rev. D 85, 122006, 2012, appendix B,
/// doi:10.1103/PhysRevD.85.122006 (as in `scipy.signal.csd`).
public struct Welch: Sendable {
    /// How the per-segment periodograms are combined.
    public enum Average: Sendable, Equatable {
        /// Arithmetic mean (SciPy's default).
        case mean
        /// Per-bin median divided by the median's bias relative to the mean for χ²₂ data
        /// (Allen et al. 2012, appendix B); robust to transient artefacts.
        case median
    }

    /// Samples per segment (SciPy `nperseg`).
    public let segmentLength: Int
    /// Samples shared by consecutive segments (SciPy `noverlap`).
    public let overlap: Int
    /// FFT length, ≥ ``segmentLength`` (SciPy `nfft`); segments are zero-padded to it.
    public let fftLength: Int
    /// Taper applied to each segment.
    public let window: SpectralWindow
    /// Trend removed from each segment before windowing.
    public let detrend: SpectralDetrend
    /// Units of the result.
    public let scaling: SpectralScaling
    /// How segments are averaged.
    public let average: Average
    /// Sample rate of the input in Hz.
    public let sampleRate: Double

    var workspace: WelchWorkspace
    /// The `fftLength` argument as given (`nil`: follow the segment length, also when a short
    /// signal shrinks the segment, as SciPy's `nfft=None`).
    let requestedFFTLength: Int?

    /// Creates an estimator.
    /// - Parameters:
    ///   - segmentLength: samples per segment (SciPy `nperseg`), ≥ 1.
    ///   - overlap: samples shared by consecutive segments, `0 ..< segmentLength`; default
    ///     `segmentLength / 2` (SciPy's default).
    ///   - window: taper; default periodic Hann (SciPy's `'hann'`).
    ///   - detrend: per-segment trend removal; default ``SpectralDetrend/constant``.
    ///   - scaling: ``SpectralScaling/density`` (units²/Hz, default) or
    ///     ``SpectralScaling/spectrum`` (units²).
    ///   - average: ``Average/mean`` (default) or ``Average/median``.
    ///   - fftLength: FFT length ≥ `segmentLength`; default `segmentLength` (SciPy `nfft`).
    ///   - sampleRate: sample rate in Hz (default 1, as SciPy's `fs`).
    /// - Complexity: O(fftLength) to allocate scratch and plan (plans are cached).
    public init(
        segmentLength: Int, overlap: Int? = nil, window: SpectralWindow = .hann,
        detrend: SpectralDetrend = .constant, scaling: SpectralScaling = .density,
        average: Average = .mean, fftLength: Int? = nil, sampleRate: Double = 1
    ) {
        precondition(segmentLength >= 1, "Welch segmentLength must be ≥ 1")
        let overlap = overlap ?? segmentLength / 2
        precondition(
            overlap >= 0 && overlap < segmentLength,
            "Welch overlap must be in 0..<segmentLength (\(segmentLength)), got \(overlap)")
        let resolvedFFTLength = fftLength ?? segmentLength
        precondition(resolvedFFTLength >= segmentLength, "Welch fftLength must be ≥ segmentLength")
        precondition(sampleRate > 0 && sampleRate.isFinite, "Welch sampleRate must be positive")
        self.segmentLength = segmentLength
        self.overlap = overlap
        self.fftLength = resolvedFFTLength
        self.window = window
        self.detrend = detrend
        self.scaling = scaling
        self.average = average
        self.sampleRate = sampleRate
        requestedFFTLength = fftLength
        workspace = WelchWorkspace(
            segmentLength: segmentLength, hop: segmentLength - overlap,
            fftLength: resolvedFFTLength,
            window: window.values(count: segmentLength),
            detrend: detrend, keepSegments: average == .median)
    }

    /// Number of complete segments analysed so far.
    /// - Complexity: O(1).
    public var segmentCount: Int { workspace.segmentCount }

    /// Number of samples fed so far.
    /// - Complexity: O(1).
    public var sampleCount: Int { workspace.sampleCount }

    /// Feeds the next block of the signal.
    /// - Parameter block: consecutive samples (any count, including 0).
    /// - Complexity: O(m + s · fftLength · log fftLength) for `m` samples completing `s`
    ///   segments; no allocation (except the kept spectra for ``Average/median``).
    public mutating func process(_ block: UnsafeBufferPointer<Float>) {
        makeUnique()
        workspace.consume(block)
    }

    /// Feeds the next block of the signal.
    /// - Parameter block: consecutive samples (any count, including 0).
    /// - Complexity: O(m + s · fftLength · log fftLength) for `m` samples completing `s`
    ///   segments; no allocation (except the kept spectra for ``Average/median``).
    public mutating func process(_ block: UnsafeBufferPointer<Double>) {
        makeUnique()
        workspace.consume(block)
    }

    /// Feeds the next block of the signal.
    /// - Parameter block: consecutive samples.
    /// - Complexity: as ``process(_:)-(UnsafeBufferPointer<Float>)``.
    public mutating func process(_ block: [Float]) {
        block.withUnsafeBufferPointer { process($0) }
    }

    /// Feeds the next block of the signal.
    /// - Parameter block: consecutive samples.
    /// - Complexity: as ``process(_:)-(UnsafeBufferPointer<Double>)``.
    public mutating func process(_ block: [Double]) {
        block.withUnsafeBufferPointer { process($0) }
    }

    /// Forgets all samples fed so far (start of a new segment of recording).
    /// - Complexity: O(fftLength).
    public mutating func reset() {
        makeUnique()
        workspace.reset()
    }

    /// The power spectrum of everything fed since creation or the last ``reset()``.
    ///
    /// Does not change the state: more blocks may be fed afterwards.
    /// - Returns: `fftLength / 2 + 1` frequencies (Hz) and powers (units²/Hz or units²).
    /// - Throws: ``SpectralError`` if no sample was fed, or if fewer than ``segmentLength``
    ///   samples were fed with a ``SpectralWindow/custom(_:)`` window (it cannot be shortened).
    /// - Complexity: O(fftLength) for the mean; O(fftLength · segments · log segments) for the
    ///   median; O(n log n) when fewer than ``segmentLength`` samples were fed.
    public func estimate() throws(SpectralError) -> PowerSpectrum {
        let ws = workspace
        if ws.segmentCount == 0 {
            return try shortSignalEstimate()
        }
        let bins = ws.binCount
        let nseg = ws.segmentCount
        var power = [Double](repeating: 0, count: bins)
        switch average {
        case .mean:
            for k in 0..<bins { power[k] = ws.powerSum[k] / Double(nseg) }
        case .median:
            var column = [Double](repeating: 0, count: nseg)
            ws.segmentPowers.withUnsafeBufferPointer { p in
                for k in 0..<bins {
                    for s in 0..<nseg { column[s] = p[s * bins + k] }
                    column.sort()
                    power[k] =
                        nseg % 2 == 1
                        ? column[nseg / 2]
                        : 0.5 * (column[nseg / 2 - 1] + column[nseg / 2])
                }
            }
            let bias = nseg > 1 ? Welch.medianBias(nseg) : 1
            for k in 0..<bins { power[k] /= bias }
        }
        // The window the segments were tapered with (computed once, at init).
        let w = Array(UnsafeBufferPointer(start: ws.window, count: segmentLength))
        Welch.scaleOneSided(
            &power, window: w, fftLength: fftLength, sampleRate: sampleRate,
            scaling: scaling)
        return PowerSpectrum(
            frequencies: Welch.frequencies(
                fftLength: fftLength,
                sampleRate: sampleRate),
            power: power, segmentCount: nseg)
    }

    /// Estimates the spectrum of a whole signal with this configuration (state is not used or
    /// changed).
    /// - Parameter signal: the samples.
    /// - Returns: as ``estimate()``.
    /// - Throws: as ``estimate()``.
    /// - Complexity: O(n + segments · fftLength · log fftLength).
    public func estimate(_ signal: [Float]) throws(SpectralError) -> PowerSpectrum {
        var fresh = freshCopy()
        fresh.process(signal)
        return try fresh.estimate()
    }

    /// Estimates the spectrum of a whole signal with this configuration (state is not used or
    /// changed).
    /// - Parameter signal: the samples.
    /// - Returns: as ``estimate()``.
    /// - Throws: as ``estimate()``.
    /// - Complexity: O(n + segments · fftLength · log fftLength).
    public func estimate(_ signal: [Double]) throws(SpectralError) -> PowerSpectrum {
        var fresh = freshCopy()
        fresh.process(signal)
        return try fresh.estimate()
    }

    // MARK: - Internals

    mutating func consume<S: SpectralSample>(_ block: UnsafeBufferPointer<S>) {
        makeUnique()
        workspace.consume(block)
    }

    mutating func makeUnique() {
        if !isKnownUniquelyReferenced(&workspace) { workspace = workspace.copy() }
    }

    func freshCopy() -> Welch {
        Welch(
            segmentLength: segmentLength, overlap: overlap, window: window, detrend: detrend,
            scaling: scaling, average: average, fftLength: requestedFFTLength,
            sampleRate: sampleRate)
    }

    /// SciPy: when the signal is shorter than `nperseg`, `nperseg` becomes the signal length
    /// (window recomputed), giving one segment.
    func shortSignalEstimate() throws(SpectralError) -> PowerSpectrum {
        let ws = workspace
        let n = ws.carryCount
        guard n > 0 else { throw SpectralError(.tooFewSamples, "Welch: no samples were fed") }
        if case .custom(let w) = window {
            throw SpectralError(.tooFewSamples, "Welch: \(n) samples fed, fewer than the custom window's \(w.count)")
        }
        let fft = requestedFFTLength ?? n
        var single = Welch(
            segmentLength: n, overlap: 0, window: window, detrend: detrend,
            scaling: scaling, average: .mean, fftLength: fft, sampleRate: sampleRate)
        single.process(UnsafeBufferPointer(start: ws.carry, count: n))
        return try single.estimate()
    }

    /// Applies the density/spectrum scale and the one-sided doubling (all bins but 0 and, for
    /// even FFT lengths, the Nyquist bin), as SciPy.
    static func scaleOneSided(
        _ power: inout [Double], window: [Double], fftLength: Int,
        sampleRate: Double, scaling: SpectralScaling
    ) {
        var sumW = 0.0, sumW2 = 0.0
        for v in window { sumW += v; sumW2 += v * v }
        let scale: Double
        switch scaling {
        case .density: scale = 1.0 / (sampleRate * sumW2)
        case .spectrum: scale = 1.0 / (sumW * sumW)
        }
        let last = fftLength % 2 == 0 ? power.count - 1 : power.count
        for k in power.indices {
            let doubled = k > 0 && k < last
            power[k] *= doubled ? 2 * scale : scale
        }
    }

    /// `numpy.fft.rfftfreq(fftLength, 1/sampleRate)`, evaluated as NumPy does.
    static func frequencies(fftLength: Int, sampleRate: Double) -> [Double] {
        let val = 1.0 / (Double(fftLength) * (1.0 / sampleRate))
        return (0...(fftLength / 2)).map { Double($0) * val }
    }

    /// Bias of the median of `n` χ²₂ periodograms relative to their mean (Allen et al. 2012,
    /// eq. B12): `1 + Σ_{i=1}^{(n−1)/2} (1/(2i+1) − 1/(2i))`.
    static func medianBias(_ n: Int) -> Double {
        var sum = 0.0
        let top = (n - 1) / 2
        if top >= 1 {
            for i in 1...top {
                let ii = 2 * Double(i)
                sum += 1 / (ii + 1) - 1 / ii
            }
        }
        return 1 + sum
    }
}

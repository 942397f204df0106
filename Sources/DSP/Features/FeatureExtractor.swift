/// Computes the feature catalog over one window of contiguous, uniformly spaced samples, without
/// allocating once its scratch has grown to the longest window seen.
///
/// Any analysis family can use it on raw streams or on derived series (NN intervals resampled to
/// a uniform rate, heart rate, ENMO epochs): pass the window's samples and their rate, get the
/// values of ``features`` in order. ``FeatureWindower`` cuts windows from a stream of timed
/// samples and marks how much of each window is valid.
///
/// ```swift
/// var extractor = FeatureExtractor()                           // default catalog
/// var values = [Double](repeating: .nan, count: extractor.features.count)
/// window.withUnsafeBufferPointer { x in
///     values.withUnsafeMutableBufferPointer { extractor.extract(x, sampleRate: 50, into: $0) }
/// }
/// ```
///
/// Definitions, units and sources of every feature are in ``FeatureCatalog/definitions(_:)`` and
/// `docs/FEATURES.md`; a value that is undefined for the window (e.g. skewness of a constant
/// window) is NaN, written as NULL. Spectral features use the Welch estimate (Welch 1967,
/// doi:10.1109/TAU.1967.1161901) on the DSP module's ``RealFFT`` (FFTW plans made once per
/// segment length and reused); the autocorrelation is computed through one zero-padded FFT
/// (Wiener–Khinchin).
///
/// A value is not safe to use from several threads at once (it owns scratch memory); copies are
/// independent.
public struct FeatureExtractor {
    /// What to compute.
    public struct Configuration: Sendable, Hashable {
        /// The groups computed (output order is always statistical, temporal, spectral, catch22).
        public var groups: Set<FeatureGroup>
        /// Welch segment length in seconds (the segment is `min(n, round(s · fs))` samples).
        public var welchSegmentSeconds: Double
        /// Lag of the `acf_<ms>ms` feature in seconds.
        public var autocorrelationLagSeconds: Double
        /// Bands of the band-power features.
        public var bands: [FrequencyBand]

        /// Bands for human movement: posture and sway (0.1–0.5 Hz), locomotion (0.5–3 Hz),
        /// running harmonics and tremor (3–8 Hz), and above (8–20 Hz).
        public static let movementBands: [FrequencyBand] = [
            .init(lowHz: 0.1, highHz: 0.5), .init(lowHz: 0.5, highHz: 3), .init(lowHz: 3, highHz: 8),
            .init(lowHz: 8, highHz: 20),
        ]

        /// Creates a configuration.
        /// - Parameters:
        ///   - groups: groups to compute; default ``FeatureGroup/defaultGroups`` (catch22 is opt-in).
        ///   - welchSegmentSeconds: Welch segment in s, > 0; default 10 (a 10-s window is then
        ///     one Hann-windowed periodogram).
        ///   - autocorrelationLagSeconds: lag of `acf_<ms>ms` in s, > 0; default 1.
        ///   - bands: band-power bands in Hz; default ``movementBands``.
        public init(
            groups: Set<FeatureGroup> = FeatureGroup.defaultGroups, welchSegmentSeconds: Double = 10,
            autocorrelationLagSeconds: Double = 1, bands: [FrequencyBand] = movementBands
        ) {
            precondition(welchSegmentSeconds > 0 && autocorrelationLagSeconds > 0, "lengths must be positive")
            self.groups = groups
            self.welchSegmentSeconds = welchSegmentSeconds
            self.autocorrelationLagSeconds = autocorrelationLagSeconds
            self.bands = bands
        }
    }

    /// What it computes.
    public let configuration: Configuration
    /// The features, in the order ``extract(_:sampleRate:into:)`` writes them.
    public let features: [FeatureDefinition]

    let statistical: Bool
    let temporal: Bool
    let spectral: Bool
    let computesCatch22: Bool
    var catch22 = Catch22()
    var scratch: FeatureScratch
    var plans: [Int: SpectralPlan] = [:]

    /// Creates an extractor.
    /// - Parameter configuration: what to compute (default catalog by default).
    /// - Complexity: O(features).
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
        features = FeatureCatalog.definitions(configuration)
        statistical = configuration.groups.contains(.statistical)
        temporal = configuration.groups.contains(.temporal)
        spectral = configuration.groups.contains(.spectral)
        computesCatch22 = configuration.groups.contains(.catch22)
        scratch = FeatureScratch()
    }

    /// Computes every feature of one window.
    /// - Parameters:
    ///   - samples: the window's values, uniformly spaced (n ≥ 1; finite).
    ///   - sampleRate: their rate in Hz (> 0).
    ///   - values: receives ``features``.count values in order (NaN where undefined).
    /// - Complexity: O(n log n); no allocation once the scratch fits the longest window and
    ///   the Welch segment length has been seen.
    public mutating func extract(
        _ samples: UnsafeBufferPointer<Double>, sampleRate: Double, into values: UnsafeMutableBufferPointer<Double>
    ) {
        precondition(values.count >= features.count, "values needs room for \(features.count) features")
        precondition(sampleRate > 0 && sampleRate.isFinite, "sampleRate must be positive")
        let n = samples.count
        guard n > 0 else {
            for i in 0..<features.count { values[i] = .nan }
            return
        }
        if !isKnownUniquelyReferenced(&scratch) { scratch = FeatureScratch() }
        let x = samples.baseAddress!
        let out = values.baseAddress!
        var o = 0
        let mean = FeatureMath.mean(x, n)
        // As scipy.stats.skew: a window whose variance is within rounding of 0 is flat.
        let flat = FeatureMath.centralSecondMoment(x, n, mean: mean) <= (1e-15 * mean) * (1e-15 * mean)
        if statistical {
            let sorted = scratch.buffer(.sorted, n)
            FeatureMath.statistical(x, n, mean: mean, flat: flat, sorted: sorted, into: out)
            o += 14 + FeatureCatalog.percentiles.count
        }
        if temporal {
            let lag = Int((configuration.autocorrelationLagSeconds * sampleRate).rounded())
            let length = ChirpZWelch.smoothLength(atLeast: 2 * n - 1)
            let acf = scratch.buffer(.autocorrelation, length + 2)
            let spectrum = scratch.buffer(.autocorrelationSpectrum, length + 2)
            let fft = plan(acfLength: length)
            FeatureMath.temporal(
                x, n, mean: mean, flat: flat, sampleRate: sampleRate, lag: lag, fft: fft, padded: acf, spectrum: spectrum,
                into: out + o)
            o += 8
        }
        if spectral {
            let segment = min(n, max(1, Int((configuration.welchSegmentSeconds * sampleRate).rounded())))
            let p = plan(segment: segment)
            let bins = segment / 2 + 1
            let work = scratch.buffer(.segment, segment + 2)
            let spectrum = scratch.buffer(.segmentSpectrum, segment + 2)
            let psd = scratch.buffer(.psd, bins)
            FeatureMath.welch(x, n, plan: p, sampleRate: sampleRate, work: work, spectrum: spectrum, psd: psd)
            if flat { for k in 0..<bins { psd[k] = 0 } }
            FeatureMath.spectral(
                psd: psd, bins: bins, segment: segment, sampleRate: sampleRate, bands: configuration.bands,
                into: out + o)
            o += 8 + configuration.bands.count
        }
        if computesCatch22 {
            catch22.extract(samples, into: out + o)
            o += Catch22.names.count
        }
        assert(o == features.count)
    }

    /// Computes every feature of one window.
    /// - Parameters:
    ///   - samples: the window's values, uniformly spaced.
    ///   - sampleRate: their rate in Hz.
    /// - Returns: ``features``.count values in order (NaN where undefined).
    /// - Complexity: O(n log n); allocates the result.
    public mutating func extract(_ samples: [Double], sampleRate: Double) -> [Double] {
        var values = [Double](repeating: .nan, count: features.count)
        samples.withUnsafeBufferPointer { x in
            values.withUnsafeMutableBufferPointer { extract(x, sampleRate: sampleRate, into: $0) }
        }
        return values
    }

    /// Signal magnitude area of a tri-axial window, (1/n)Σ(|xᵢ| + |yᵢ| + |zᵢ|) (Mathie et al.
    /// 2004, doi:10.1007/BF02347551); NaN for an empty window.
    /// - Parameters:
    ///   - x: first axis.
    ///   - y: second axis (same count).
    ///   - z: third axis (same count).
    /// - Returns: the mean of the summed absolute values, in the axes' unit.
    /// - Complexity: O(n).
    public static func signalMagnitudeArea(
        x: UnsafeBufferPointer<Double>, y: UnsafeBufferPointer<Double>, z: UnsafeBufferPointer<Double>
    ) -> Double {
        precondition(x.count == y.count && y.count == z.count, "axes differ in length")
        guard !x.isEmpty else { return .nan }
        var s = 0.0
        for i in 0..<x.count { s += abs(x[i]) + abs(y[i]) + abs(z[i]) }
        return s / Double(x.count)
    }

    mutating func plan(segment: Int) -> SpectralPlan {
        if let p = plans[segment] { return p }
        let p = SpectralPlan(count: segment)
        plans[segment] = p
        return p
    }

    mutating func plan(acfLength: Int) -> RealFFT<Double> {
        if let p = plans[-acfLength] { return p.fft }
        let p = SpectralPlan(count: acfLength, window: false)
        plans[-acfLength] = p
        return p.fft
    }
}

/// One Welch segment length's FFT plan and periodic Hann window.
struct SpectralPlan {
    let fft: RealFFT<Double>
    let window: [Double]
    let sumOfSquares: Double

    init(count: Int, window: Bool = true) {
        fft = RealFFT<Double>(count: count)
        self.window = window ? Window.hann.coefficients(count: count, periodic: true) : []
        var s = 0.0
        for w in self.window { s += w * w }
        sumOfSquares = s
    }
}

/// Scratch memory of a ``FeatureExtractor``, grown on demand and never shrunk.
final class FeatureScratch {
    enum Slot: Int, CaseIterable { case sorted, autocorrelation, autocorrelationSpectrum, segment, segmentSpectrum, psd }
    var pointers: [UnsafeMutablePointer<Double>?] = Array(repeating: nil, count: Slot.allCases.count)
    var capacities: [Int] = Array(repeating: 0, count: Slot.allCases.count)

    func buffer(_ slot: Slot, _ count: Int) -> UnsafeMutablePointer<Double> {
        let i = slot.rawValue
        if capacities[i] < count, let old = pointers[i] {
            old.deallocate()
            pointers[i] = nil
        }
        if let p = pointers[i] { return p }
        let capacity = max(count, 64)
        let p = UnsafeMutablePointer<Double>.allocate(capacity: capacity)
        pointers[i] = p
        capacities[i] = capacity
        return p
    }

    deinit { for p in pointers { p?.deallocate() } }
}

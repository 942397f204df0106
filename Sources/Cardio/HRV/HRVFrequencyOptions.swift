/// How ``HRVFrequencyDomain`` estimates the spectrum of the NN series, and its frequency bands.
public struct HRVFrequencyOptions: Sendable, Equatable {
    /// Spectral estimator.
    public enum Method: Sendable, Equatable {
        /// Welch's method on the NN series resampled evenly at ``HRVFrequencyOptions/interpolationRate``
        /// by quadratic-spline interpolation (NeuroKit2's default `psd_method="welch"`).
        case welch
        /// The Lomb–Scargle periodogram of the NN intervals at their beat times, no resampling
        /// (NeuroKit2's `psd_method="lomb", interpolation_rate=None`), scaled as a one-sided PSD
        /// in ms²/Hz.
        case lombScargle
    }

    /// A frequency band `[lower, upper)` in Hz.
    public struct Band: Sendable, Equatable {
        /// Lower edge in Hz (included).
        public var lowerHz: Double
        /// Upper edge in Hz (excluded).
        public var upperHz: Double

        /// Creates a band.
        /// - Parameters:
        ///   - lowerHz: lower edge in Hz, ≥ 0.
        ///   - upperHz: upper edge in Hz, > `lowerHz`.
        /// - Complexity: O(1).
        public init(_ lowerHz: Double, _ upperHz: Double) {
            precondition(lowerHz >= 0 && upperHz > lowerHz, "HRV band: need 0 ≤ lower < upper")
            self.lowerHz = lowerHz
            self.upperHz = upperHz
        }
    }

    /// Estimator; default ``Method/welch``.
    public var method: Method
    /// Resampling rate for ``Method/welch`` in Hz; default 100 Hz (NeuroKit2's
    /// `interpolation_rate`).
    public var interpolationRate: Double
    /// Ultra-low-frequency band; default [0, 0.0033) Hz.
    public var ulf: Band
    /// Very-low-frequency band; default [0.0033, 0.04) Hz.
    public var vlf: Band
    /// Low-frequency band; default [0.04, 0.15) Hz.
    public var lf: Band
    /// High-frequency band; default [0.15, 0.4) Hz.
    public var hf: Band
    /// Very-high-frequency band; default [0.4, 0.5) Hz. The spectrum is evaluated up to its
    /// upper edge.
    public var vhf: Band

    /// Creates options; the defaults are NeuroKit2's `hrv_frequency` defaults, with the ULF, VLF,
    /// LF and HF bands of the Task Force (1996).
    /// - Parameters:
    ///   - method: estimator (default ``Method/welch``).
    ///   - interpolationRate: resampling rate in Hz for Welch (default 100).
    ///   - ulf: ULF band (default 0–0.0033 Hz).
    ///   - vlf: VLF band (default 0.0033–0.04 Hz).
    ///   - lf: LF band (default 0.04–0.15 Hz).
    ///   - hf: HF band (default 0.15–0.4 Hz).
    ///   - vhf: VHF band (default 0.4–0.5 Hz).
    /// - Complexity: O(1).
    public init(
        method: Method = .welch, interpolationRate: Double = 100,
        ulf: Band = Band(0, 0.0033), vlf: Band = Band(0.0033, 0.04),
        lf: Band = Band(0.04, 0.15), hf: Band = Band(0.15, 0.4),
        vhf: Band = Band(0.4, 0.5)
    ) {
        precondition(
            interpolationRate > 0 && interpolationRate.isFinite,
            "HRV interpolation rate must be positive")
        self.method = method
        self.interpolationRate = interpolationRate
        self.ulf = ulf
        self.vlf = vlf
        self.lf = lf
        self.hf = hf
        self.vhf = vhf
    }

    var bands: [Band] { [ulf, vlf, lf, hf, vhf] }
}

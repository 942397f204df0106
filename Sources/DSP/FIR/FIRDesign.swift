#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A linear-phase FIR filter designed by the windowed-sinc method, identical to
/// `scipy.signal.firwin` (agreement to ~1e-16 relative in `Double`).
///
/// The ideal response (a sum of ideal low-pass sinc kernels, one pair per pass band, centred at
/// `α = (M−1)/2`) is multiplied by a symmetric ``Window``; with `scale` (the default) the taps
/// are then divided so that the gain is exactly 1 at the centre of the first pass band (at 0 Hz
/// if it starts there, at Nyquist if it ends there). The result is symmetric, `h[k] = h[M−1−k]`,
/// so the filter has linear phase with a group delay of `(M−1)/2` samples; ``FIRFilter`` and
/// ``OverlapSaveFilter`` remove that delay.
///
/// ```swift
/// let design = try FIRDesign(tapCount: 1025, response: .bandPass(low: 0.5, high: 40),
///                            sampleRate: 512)
/// var filter = OverlapSaveFilter<Float>(taps: design.taps)
/// ```
///
/// For a specification in decibels, pick the length and window with Kaiser's formulas:
/// ```swift
/// let (n, beta) = try FIRDesign.kaiserOrder(rippleDecibels: 60, transitionWidth: 4,
///                                           sampleRate: 512)
/// let lp = try FIRDesign(tapCount: n | 1, response: .lowPass(cutoff: 40), sampleRate: 512,
///                        window: .kaiser(beta: beta))
/// ```
///
/// Sources: A. V. Oppenheim and R. W. Schafer, *Discrete-Time Signal Processing*, 3rd ed.,
/// Pearson 2010, §7.5 (design of FIR filters by windowing, §7.5.3 the Kaiser window method);
/// J. F. Kaiser, "Nonrecursive digital filter design using the I₀-sinh window function",
/// Proc. IEEE ISCAS 1974, pp. 20–23; SciPy 1.17 `scipy.signal.firwin`, `kaiserord`,
/// `kaiser_beta`, `kaiser_atten` (same formulas and evaluation order).
public struct FIRDesign: Sendable, Hashable {
    /// The frequency response to approximate. Frequencies are in Hz, strictly between 0 and
    /// half the sample rate.
    public enum Response: Sendable, Hashable {
        /// Passes 0 … `cutoff` Hz (SciPy `pass_zero='lowpass'`).
        case lowPass(cutoff: Double)
        /// Passes `cutoff` Hz … Nyquist (`pass_zero='highpass'`); needs an odd tap count.
        case highPass(cutoff: Double)
        /// Passes `low` … `high` Hz (`pass_zero='bandpass'`).
        case bandPass(low: Double, high: Double)
        /// Stops `low` … `high` Hz (`pass_zero='bandstop'`); needs an odd tap count.
        case bandStop(low: Double, high: Double)
        /// Alternating bands at strictly increasing `cutoffs` (Hz); `passZero` says whether the
        /// first band (from 0 Hz) is a pass band (SciPy's `pass_zero=True/False`).
        case multiBand(cutoffs: [Double], passZero: Bool)
    }

    /// The filter coefficients `h[0] … h[M−1]` (dimensionless; unit gain at the scaling
    /// frequency when designed with `scale: true`).
    public let taps: [Double]

    /// The coefficients rounded to `Float`.
    /// - Complexity: O(M), allocates.
    public var floatTaps: [Float] { taps.map(Float.init) }

    /// Designs a windowed-sinc FIR filter (`scipy.signal.firwin(tapCount, cutoffs, window=…,
    /// pass_zero=…, scale=…, fs=sampleRate)`).
    /// - Parameters:
    ///   - tapCount: number of coefficients `M` ≥ 1 (filter order `M − 1`). Must be odd for
    ///     ``Response/highPass(cutoff:)``, ``Response/bandStop(low:high:)`` and any multi-band
    ///     response that passes the Nyquist frequency.
    ///   - response: the bands, in Hz.
    ///   - sampleRate: sampling rate in Hz (> 0).
    ///   - window: taper applied to the ideal response; default ``Window/hamming`` (as SciPy).
    ///   - scale: `true` (default, as SciPy) to normalise to unit gain at the centre of the
    ///     first pass band; `false` to keep the windowed ideal response.
    /// - Throws: ``FIRDesignError`` with code `invalidTapCount`, `invalidSampleRate`,
    ///   `invalidCutoff`, `evenTapCountPassesNyquist` or `invalidWindow`.
    /// - Complexity: O(M·B) for B bands (plus O(M·β) for a Kaiser window).
    public init(
        tapCount: Int, response: Response, sampleRate: Double, window: Window = .hamming,
        scale: Bool = true
    ) throws(FIRDesignError) {
        guard tapCount >= 1 else {
            throw FIRDesignError(.invalidTapCount, "tapCount is \(tapCount); it must be ≥ 1")
        }
        guard sampleRate.isFinite && sampleRate > 0 else {
            throw FIRDesignError(.invalidSampleRate, "sampleRate is \(sampleRate) Hz; it must be finite and > 0")
        }
        if case .kaiser(let beta) = window, !beta.isFinite {
            throw FIRDesignError(.invalidWindow, "Kaiser beta is \(beta); it must be finite")
        }
        let hz: [Double]
        var passZero: Bool
        switch response {
        case .lowPass(let c): hz = [c]; passZero = true
        case .highPass(let c): hz = [c]; passZero = false
        case .bandPass(let lo, let hi): hz = [lo, hi]; passZero = false
        case .bandStop(let lo, let hi): hz = [lo, hi]; passZero = true
        case .multiBand(let cs, let pz): hz = cs; passZero = pz
        }
        let nyquist = 0.5 * sampleRate
        guard !hz.isEmpty else {
            throw FIRDesignError(.invalidCutoff, "no cutoff frequency given")
        }
        for (i, f) in hz.enumerated() {
            guard f > 0 && f < nyquist else {
                throw FIRDesignError(
                    .invalidCutoff,
                    "cutoff \(i) is \(f) Hz; it must be in (0, \(nyquist)) Hz (half the sample rate \(sampleRate) Hz)")
            }
            if i > 0 && !(f > hz[i - 1]) {
                throw FIRDesignError(
                    .invalidCutoff,
                    "cutoffs must be strictly increasing; cutoff \(i) (\(f) Hz) follows \(hz[i - 1]) Hz")
            }
        }
        let passNyquist = (hz.count % 2 == 0) == passZero
        if passNyquist && tapCount % 2 == 0 {
            throw FIRDesignError(
                .evenTapCountPassesNyquist,
                "tapCount is \(tapCount) but the response passes the Nyquist frequency, where a symmetric even-length filter is zero; use an odd tap count"
            )
        }
        // Band edges as fractions of Nyquist, padded with 0 and/or 1 so that each pair
        // (edges[2j], edges[2j+1]) is one pass band.
        var edges = [Double]()
        if passZero { edges.append(0) }
        for f in hz { edges.append(f / nyquist) }
        if passNyquist { edges.append(1) }

        let m = tapCount
        let alpha = 0.5 * Double(m - 1)
        var h = [Double](repeating: 0, count: m)
        for j in stride(from: 0, to: edges.count, by: 2) {
            let left = edges[j], right = edges[j + 1]
            for i in 0..<m {
                let t = Double(i) - alpha
                h[i] += right * Self.sinc(right * t)
                h[i] -= left * Self.sinc(left * t)
            }
        }
        let w = window.coefficients(count: m)
        for i in 0..<m { h[i] *= w[i] }

        if scale {
            let left = edges[0], right = edges[1]
            let f = left == 0 ? 0.0 : (right == 1 ? 1.0 : 0.5 * (left + right))
            var products = [Double](repeating: 0, count: m)
            for i in 0..<m { products[i] = h[i] * cos(Double.pi * (Double(i) - alpha) * f) }
            let gain = products.withUnsafeBufferPointer { Self.pairwiseSum($0) }
            for i in 0..<m { h[i] /= gain }
        }
        taps = h
    }

    /// Kaiser's estimate of the tap count and window shape for a given stop-band attenuation and
    /// transition width (`scipy.signal.kaiserord`).
    ///
    /// β is ``kaiserBeta(attenuationDecibels:)`` at `A`, and
    /// `M = ⌈(A − 7.95) / (2.285 · π · Δf / f_N) + 1⌉`, with `A = |rippleDecibels|` and
    /// `f_N = sampleRate / 2` (Kaiser 1974; Oppenheim & Schafer 2010, §7.5.3).
    /// The formula ignores the response type: round up to an odd count (`n | 1`) for high-pass
    /// and band-stop designs.
    /// - Parameters:
    ///   - rippleDecibels: the largest allowed deviation of the response from the ideal in both
    ///     pass and stop bands, in dB (as a positive attenuation, e.g. 60), ≥ 8.
    ///   - transitionWidth: width of the transition bands in Hz, in (0, sampleRate/2].
    ///   - sampleRate: sampling rate in Hz (> 0).
    /// - Returns: the tap count and Kaiser β for ``Window/kaiser(beta:)``.
    /// - Throws: ``FIRDesignError`` with code `invalidSpecification` or `invalidSampleRate`.
    /// - Complexity: O(1).
    public static func kaiserOrder(
        rippleDecibels: Double, transitionWidth: Double,
        sampleRate: Double
    ) throws(FIRDesignError) -> (tapCount: Int, beta: Double) {
        guard sampleRate.isFinite && sampleRate > 0 else {
            throw FIRDesignError(.invalidSampleRate, "sampleRate is \(sampleRate) Hz; it must be finite and > 0")
        }
        let a = abs(rippleDecibels)
        guard a >= 8 && a.isFinite else {
            throw FIRDesignError(
                .invalidSpecification,
                "rippleDecibels is \(rippleDecibels) dB; Kaiser's formula needs an attenuation ≥ 8 dB")
        }
        let width = transitionWidth / (0.5 * sampleRate)
        guard width > 0 && width <= 1 else {
            throw FIRDesignError(
                .invalidSpecification,
                "transitionWidth is \(transitionWidth) Hz; it must be in (0, \(0.5 * sampleRate)] Hz")
        }
        let n = (a - 7.95) / 2.285 / (Double.pi * width) + 1
        return (Int(n.rounded(.up)), kaiserBeta(attenuationDecibels: a))
    }

    /// Kaiser's empirical window shape β for a stop-band attenuation (`scipy.signal.kaiser_beta`):
    /// `0.1102·(A − 8.7)` for A > 50 dB, `0.5842·(A − 21)^0.4 + 0.07886·(A − 21)` for
    /// 21 < A ≤ 50 dB, 0 otherwise (Kaiser 1974; Oppenheim & Schafer 2010, §7.5.3).
    /// - Parameter attenuationDecibels: stop-band attenuation A in dB (positive).
    /// - Returns: β (dimensionless, ≥ 0).
    /// - Complexity: O(1).
    public static func kaiserBeta(attenuationDecibels a: Double) -> Double {
        if a > 50 { return 0.1102 * (a - 8.7) }
        if a > 21 { return 0.5842 * pow(a - 21, 0.4) + 0.07886 * (a - 21) }
        return 0
    }

    /// The stop-band attenuation Kaiser's formula predicts for a tap count and transition width
    /// (`scipy.signal.kaiser_atten`): `A = 2.285·(M − 1)·π·Δf/f_N + 7.95` dB.
    /// - Parameters:
    ///   - tapCount: number of taps M.
    ///   - transitionWidth: transition width in Hz.
    ///   - sampleRate: sampling rate in Hz (> 0).
    /// - Returns: attenuation in dB.
    /// - Complexity: O(1).
    public static func kaiserAttenuation(
        tapCount: Int, transitionWidth: Double,
        sampleRate: Double
    ) -> Double {
        let width = transitionWidth / (0.5 * sampleRate)
        return 2.285 * Double(tapCount - 1) * Double.pi * width + 7.95
    }

    /// sin(πx)/(πx), evaluated as NumPy does (x = 0 replaced by machine ε).
    private static func sinc(_ x: Double) -> Double {
        let y = Double.pi * (x == 0 ? Double.ulpOfOne : x)
        return sin(y) / y
    }

    /// NumPy's pairwise summation (`np.sum` on a contiguous float64 array), reproduced so that
    /// the gain normalisation rounds exactly as SciPy's does.
    private static func pairwiseSum(_ a: UnsafeBufferPointer<Double>) -> Double {
        let n = a.count
        if n < 8 {
            var s = -0.0
            for v in a { s += v }
            return s
        }
        if n <= 128 {
            var r = (a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7])
            var i = 8
            while i < n - n % 8 {
                r.0 += a[i]; r.1 += a[i + 1]; r.2 += a[i + 2]; r.3 += a[i + 3]
                r.4 += a[i + 4]; r.5 += a[i + 5]; r.6 += a[i + 6]; r.7 += a[i + 7]
                i += 8
            }
            var s = ((r.0 + r.1) + (r.2 + r.3)) + ((r.4 + r.5) + (r.6 + r.7))
            while i < n { s += a[i]; i += 1 }
            return s
        }
        var half = n / 2
        half -= half % 8
        return pairwiseSum(UnsafeBufferPointer(rebasing: a[..<half]))
            + pairwiseSum(UnsafeBufferPointer(rebasing: a[half...]))
    }
}

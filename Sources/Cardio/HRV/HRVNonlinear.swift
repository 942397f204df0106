#if canImport(Glibc)
    import Glibc
#endif

/// Non-linear HRV: Poincaré-plot descriptors, sample and approximate entropy, and detrended
/// fluctuation analysis, named and defined as NeuroKit2's `hrv_nonlinear` (0.2.13).
///
/// - **Poincaré** (Brennan et al. 2001): over successive pairs `(NN_i, NN_{i+1})`,
///   `SD1 = SD((NN_i − NN_{i+1})/√2)`, `SD2 = SD((NN_i + NN_{i+1})/√2)` (n − 1), `SD1SD2`,
///   `S = π·SD1·SD2`; Toichi et al. (1997): `CSI = SD2/SD1`, `CVI = log₁₀(16·SD1·SD2)`;
///   Jeppesen et al. (2014): `CSI_Modified = (4·SD2)²/(4·SD1)`. Units: ms, ms², ms.
/// - **SampEn** (Richman & Moorman 2000) with `m = 2`, `r = 0.2·SDNN` (Chebyshev distance,
///   `≤ r`): `−ln(A/B)`, `B` the number of matching pairs of the first `n − m` templates of length
///   `m`, `A` of the `n − m` templates of length `m + 1`, self-matches excluded. As NeuroKit2,
///   `−∞` when `B` is (numerically) zero and `+∞` when `A` is.
/// - **ApEn** (Pincus 1991) with the same `m` and `r`: `|Φᵐ − Φᵐ⁺¹|`,
///   `Φᵐ = mean ln(Cᵢᵐ)`, `Cᵢᵐ` the fraction of the `n − m + 1` templates (self included) that
///   match template `i`.
/// - **DFA** (Peng et al. 1995): `α1` over scales 4–11 beats and `α2` over 12 … ⌊(n+1)/10⌋
///   beats, NeuroKit2's defaults (Peng et al. used 4–16 and 16–64; set them in
///   ``HRVNonlinearOptions``). NaN when the series is too short (n < 12, or fewer than two long
///   scales).
///
/// Template counts use ``TemplateMatchCounter`` (exact: a pair loop over templates sorted by their
/// first value while the pairs within `r` there are few, else O(n log² n) range counting); DFA uses
/// ``DetrendedFluctuation`` (O(n) per scale). The whole series is used as one sequence for the
/// entropies and DFA, as NeuroKit2 (gaps are not skipped there).
///
/// Sources: M. Brennan, M. Palaniswami and P. Kamen, "Do existing measures of Poincaré plot
/// geometry reflect nonlinear features of heart rate variability?", IEEE Trans. Biomed. Eng.
/// 48(11):1342–1347, 2001, doi:10.1109/10.959330. M. Toichi et al., "A new method of assessing
/// cardiac autonomic function and its comparison with spectral analysis and coefficient of
/// variation of R–R interval", J. Auton. Nerv. Syst. 62(1–2):79–84, 1997,
/// doi:10.1016/S0165-1838(96)00112-9. J. Jeppesen et al., "Using Lorenz plot and cardiac
/// sympathetic index of heart rate variability for detecting seizures for patients with
/// epilepsy", EMBC 2014, doi:10.1109/EMBC.2014.6943976. J. S. Richman and J. R. Moorman (2000),
/// doi:10.1152/ajpheart.2000.278.6.H2039. S. M. Pincus, "Approximate entropy as a measure of
/// system complexity", PNAS 88(6):2297–2301, 1991, doi:10.1073/pnas.88.6.2297. C.-K. Peng et al.
/// (1995), doi:10.1063/1.166141. D. Makowski et al., NeuroKit2 (2021),
/// doi:10.3758/s13428-020-01516-y.
public struct HRVNonlinear: Sendable, Equatable {
    /// Poincaré SD1 (short-term variability), ms.
    public var sd1: Double
    /// Poincaré SD2 (long-term variability), ms.
    public var sd2: Double
    /// SD1 / SD2.
    public var sd1sd2: Double
    /// Area of the Poincaré ellipse π·SD1·SD2, ms².
    public var s: Double
    /// Cardiac sympathetic index SD2/SD1.
    public var csi: Double
    /// Cardiac vagal index log₁₀(16·SD1·SD2).
    public var cvi: Double
    /// Modified CSI (4·SD2)²/(4·SD1), ms.
    public var csiModified: Double
    /// Approximate entropy.
    public var apEn: Double
    /// Sample entropy.
    public var sampEn: Double
    /// Short-term DFA exponent.
    public var dfaAlpha1: Double
    /// Long-term DFA exponent.
    public var dfaAlpha2: Double

    /// NeuroKit2's column names, in its order (the subset computed here).
    public static let metricNames = [
        "SD1", "SD2", "SD1SD2", "S", "CSI", "CVI", "CSI_Modified",
        "DFA_alpha1", "DFA_alpha2", "ApEn", "SampEn",
    ]

    /// Computes the non-linear measures of a series.
    /// - Parameters:
    ///   - series: NN intervals (ms); at least 3.
    ///   - options: entropy and DFA parameters (default: NeuroKit2's).
    /// - Throws: ``HRVError`` if the series has fewer than 3 intervals.
    /// - Complexity: O(n log² n) for the entropies and O(n · S) for DFA over `S` scales per
    ///   exponent, each scale `w` costing O(n/w) windows (O(n log n) overall for NeuroKit2's
    ///   long scales).
    public init(_ series: NNIntervalSeries, options: HRVNonlinearOptions = HRVNonlinearOptions()) throws(HRVError) {
        let nn = series.intervalsMilliseconds
        let n = nn.count
        guard n >= 3 else { throw HRVError(.tooFewIntervals, "HRV non-linear: need at least 3 intervals, got \(n)") }

        // Poincaré over successive pairs.
        var d = [Double](), p = [Double]()
        for i in 0..<(n - 1) where series.isSuccessive[i] {
            d.append((nn[i] - nn[i + 1]) / 2.0.squareRoot())
            p.append((nn[i] + nn[i + 1]) / 2.0.squareRoot())
        }
        sd1 = Self.standardDeviation(d)
        sd2 = Self.standardDeviation(p)
        sd1sd2 = sd1 / sd2
        s = Double.pi * sd1 * sd2
        let t = 4 * sd1, l = 4 * sd2
        csi = l / t
        cvi = log10(l * t)
        csiModified = l * l / t

        let tolerance = options.toleranceFactor * Self.standardDeviation(nn)
        (apEn, sampEn) = Self.entropies(nn, tolerance: tolerance)

        (dfaAlpha1, dfaAlpha2) = Self.dfa(nn, options: options)
    }

    /// The measures as a table with NeuroKit2's names, in ``metricNames`` order.
    /// - Complexity: O(1).
    public var metrics: HRVMetrics {
        HRVMetrics([
            ("SD1", sd1), ("SD2", sd2), ("SD1SD2", sd1sd2), ("S", s), ("CSI", csi),
            ("CVI", cvi), ("CSI_Modified", csiModified), ("DFA_alpha1", dfaAlpha1),
            ("DFA_alpha2", dfaAlpha2), ("ApEn", apEn), ("SampEn", sampEn),
        ])
    }

    // MARK: - Internals

    static func standardDeviation(_ v: [Double]) -> Double {
        guard v.count >= 2 else { return .nan }
        var sum = 0.0
        for x in v { sum += x }
        let mean = sum / Double(v.count)
        var squares = 0.0
        for x in v { squares += (x - mean) * (x - mean) }
        return (squares / Double(v.count - 1)).squareRoot()
    }

    /// ApEn and SampEn with m = 2 (NeuroKit2's `entropy_approximate`, `entropy_sample`).
    static func entropies(_ x: [Double], tolerance r: Double) -> (apEn: Double, sampEn: Double) {
        let n = x.count
        guard n >= 4, r.isFinite else { return (.nan, .nan) }
        // Counts of all length-2 (n − 1) and length-3 (n − 2) templates, self included.
        let (c2, c3) = TemplateMatchCounter.counts(x, tolerance: r)
        // ApEn: Φ² over n − 1 templates, Φ³ over n − 2.
        var phi2 = 0.0, phi3 = 0.0
        for c in c2 { phi2 += log(Double(c) / Double(n - 1)) }
        for c in c3 { phi3 += log(Double(c) / Double(n - 2)) }
        let apEn = abs(phi2 / Double(n - 1) - phi3 / Double(n - 2))
        // SampEn: the first n − 2 length-2 templates (the last one dropped) and the n − 2
        // length-3 templates.
        var total2 = 0, total3 = 0
        for c in c2 { total2 += Int(c) }
        for c in c3 { total3 += Int(c) }
        let last = Int(c2[n - 2])
        let restricted2 = total2 - 2 * last + 1
        let m = Double(n - 2)
        let b = Double(restricted2 - (n - 2)) / (m * (m - 1))
        let a = Double(total3 - (n - 2)) / (m * (m - 1))
        // NeuroKit2's _phi_divide (np.isclose(·, 0) with atol 1e-8).
        let sampEn: Double
        if abs(b) <= 1e-8 { sampEn = -.infinity } else if abs(a / b) <= 1e-8 { sampEn = .infinity } else { sampEn = -log(a / b) }
        return (apEn, sampEn)
    }

    static func dfa(_ x: [Double], options: HRVNonlinearOptions) -> (Double, Double) {
        let n = x.count
        guard n >= 12 else { return (.nan, .nan) }
        let analysis = DetrendedFluctuation(x)
        let short = Array(options.dfaShortScales).filter { $0 < n }
        let alpha1 = short.count >= 2 ? analysis.alpha(scales: short) : .nan
        let long: [Int]
        if let given = options.dfaLongScales {
            long = Array(given).filter { $0 < n }
        } else {
            // NeuroKit2: 12 … int((n + 1)/10), skipped when (n + 1)/10 < 13.
            let maxBeats = Double(n + 1) / 10
            long = maxBeats < 13 ? [] : Array(12...Int(maxBeats))
        }
        let alpha2 = long.count >= 2 ? analysis.alpha(scales: long) : .nan
        return (alpha1, alpha2)
    }
}

/// A cascade of second-order sections (biquads): the numerically robust representation of an
/// IIR filter (Oppenheim & Schafer, *Discrete-Time Signal Processing*, 3rd ed. 2010, §6.3.2).
///
/// Section `k` has transfer function
/// `H_k(z) = (b0 + b1·z⁻¹ + b2·z⁻²) / (1 + a1·z⁻¹ + a2·z⁻²)`, and the filter is their product in
/// order. The layout and conventions are SciPy's `sos` arrays (`[b0, b1, b2, a0, a1, a2]` rows,
/// stored here with `a0 = 1`), so designs and initial conditions can be exchanged with
/// `scipy.signal` directly.
///
/// ```swift
/// let sos = try ButterworthDesign(order: 4, band: .bandPass(low: 0.5, high: 40),
///                                 sampleRate: 512).sos
/// let y = try ZeroPhaseSOSFilter(sos).apply(ecg)   // like scipy.signal.sosfiltfilt
/// ```
public struct SOS: Sendable, Equatable {
    /// One biquad with its denominator normalised so that `a0 = 1`.
    public struct Section: Sendable, Equatable {
        /// Numerator coefficients (z⁰, z⁻¹, z⁻²).
        public var b0, b1, b2: Double
        /// Denominator coefficients of z⁻¹ and z⁻² (`a0 = 1`).
        public var a1, a2: Double

        /// Creates a section from coefficients already normalised to `a0 = 1`.
        /// - Parameters:
        ///   - b0: numerator coefficient of z⁰.
        ///   - b1: numerator coefficient of z⁻¹.
        ///   - b2: numerator coefficient of z⁻².
        ///   - a1: denominator coefficient of z⁻¹.
        ///   - a2: denominator coefficient of z⁻².
        /// - Complexity: O(1).
        public init(b0: Double, b1: Double, b2: Double, a1: Double, a2: Double) {
            self.b0 = b0
            self.b1 = b1
            self.b2 = b2
            self.a1 = a1
            self.a2 = a2
        }

        /// Gain at zero frequency, `H(1) = Σb / Σa` (`Σa` includes `a0 = 1`); infinite for a pole
        /// at z = 1.
        /// - Complexity: O(1).
        public var dcGain: Double { (b0 + b1 + b2) / (1 + a1 + a2) }
    }

    /// The sections, applied first to last.
    public var sections: [Section]

    /// Creates a cascade from its sections.
    /// - Parameter sections: at least one section, applied in order.
    /// - Complexity: O(1).
    public init(sections: [Section]) {
        precondition(!sections.isEmpty, "SOS needs at least one section")
        self.sections = sections
    }

    /// Creates a cascade from SciPy-layout rows `[b0, b1, b2, a0, a1, a2]`, dividing each row by
    /// its `a0`.
    /// - Parameter rows: one row of six coefficients per section; every `a0` must be non-zero.
    /// - Complexity: O(sections).
    public init(rows: [[Double]]) {
        precondition(!rows.isEmpty, "SOS needs at least one section")
        self.sections = rows.map { r in
            precondition(r.count == 6, "each SOS row must have 6 coefficients, got \(r.count)")
            precondition(r[3] != 0, "SOS row has a0 = 0")
            let a0 = r[3]
            return Section(b0: r[0] / a0, b1: r[1] / a0, b2: r[2] / a0, a1: r[4] / a0, a2: r[5] / a0)
        }
    }

    /// Number of sections.
    /// - Complexity: O(1).
    public var count: Int { sections.count }

    /// The SciPy-layout rows `[b0, b1, b2, 1, a1, a2]`.
    /// - Complexity: O(sections).
    public var rows: [[Double]] { sections.map { [$0.b0, $0.b1, $0.b2, 1, $0.a1, $0.a2] } }

    /// Steady-state initial conditions for a unit step, equivalent to `scipy.signal.sosfilt_zi`.
    ///
    /// Row `k` is the transposed-direct-form-II state `(z0, z1)` of section `k` after a constant
    /// input of 1 has been applied forever; multiply by the first sample to start a filter
    /// without a transient (that is what ``SOSFilter`` does with `.steadyState`). Each section's
    /// state is `lfilter_zi(b, a)` scaled by the DC gain of the sections before it, as in SciPy
    /// (solved in closed form for the 2×2 system; agrees with SciPy's LU solve to ~1e-9 relative
    /// for the worst-conditioned designs tested, where `1 + a1 + a2 ≈ 1e-7`).
    /// - Precondition: no section has a pole at z = 1 (`1 + a1 + a2 ≠ 0`).
    /// - Returns: `count` rows of two values `[z0, z1]`.
    /// - Complexity: O(sections).
    public func steadyStateInitialConditions() -> [[Double]] {
        var scale = 1.0
        var zi = [[Double]]()
        zi.reserveCapacity(sections.count)
        for s in sections {
            precondition(1 + s.a1 + s.a2 != 0, "a section has a pole at z = 1: no steady state")
            // Solve (I − companion(a)ᵀ)·z = b[1:] − a[1:]·b0 for the 2×2 case.
            let r0 = s.b1 - s.a1 * s.b0, r1 = s.b2 - s.a2 * s.b0
            let z0 = (r0 + r1) / (1 + s.a1 + s.a2)
            let z1 = r1 - s.a2 * z0
            zi.append([scale * z0, scale * z1])
            scale *= s.dcGain
        }
        return zi
    }

    /// The default edge-padding length of `scipy.signal.sosfiltfilt`:
    /// `3 · (2·count + 1 − min(#{b2 = 0}, #{a2 = 0}))` samples.
    /// - Complexity: O(sections).
    public var defaultPadLength: Int {
        let zeroB2 = sections.filter { $0.b2 == 0 }.count
        let zeroA2 = sections.filter { $0.a2 == 0 }.count
        return 3 * (2 * sections.count + 1 - min(zeroB2, zeroA2))
    }
}

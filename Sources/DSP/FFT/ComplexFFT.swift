/// A complex discrete Fourier transform of a fixed size, backed by cached FFTW plans.
///
/// Data are interleaved complex numbers (`re0, im0, re1, im1, …`), `2 * count` scalars.
/// Forward: `X[k] = Σₙ x[n]·e^(−2πi·k·n/count)`; inverse uses `e^(+2πi…)` and is unnormalised.
///
/// Source: FFTW 3 (Frigo & Johnson 2005), `fftw_plan_dft_1d`.
public struct ComplexFFT<Scalar: FFTScalar>: @unchecked Sendable {
    /// Number of complex points transformed.
    public let count: Int
    @usableFromInline let plans:
        (
            forward: OpaquePointer, inverse: OpaquePointer,
            forwardUnaligned: OpaquePointer, inverseUnaligned: OpaquePointer
        )

    /// Creates (or fetches from the cache) the plans for `count`-point complex transforms.
    /// - Complexity: O(1) when cached; planning cost otherwise.
    public init(count: Int) {
        precondition(count >= 1, "ComplexFFT count must be ≥ 1")
        self.count = count
        plans = (
            FFTPlanner.plan(Scalar.self, count: count, kind: .c2cForward, aligned: true),
            FFTPlanner.plan(Scalar.self, count: count, kind: .c2cBackward, aligned: true),
            FFTPlanner.plan(Scalar.self, count: count, kind: .c2cForward, aligned: false),
            FFTPlanner.plan(Scalar.self, count: count, kind: .c2cBackward, aligned: false)
        )
    }

    /// Plans for one use, not cached: for very large sizes (a week-long HRV spectrum), whose
    /// FFTW twiddle tables would otherwise stay in the cache for the life of the process. The
    /// plans are the ones ``init(count:)`` would make (same rigor, same results); release them
    /// with ``destroyPlans()`` once no thread uses this value any more.
    package init(uncachedCount count: Int) {
        precondition(count >= 1, "ComplexFFT count must be ≥ 1")
        self.count = count
        plans = (
            FFTPlanner.uncachedPlan(Scalar.self, count: count, kind: .c2cForward, aligned: true),
            FFTPlanner.uncachedPlan(Scalar.self, count: count, kind: .c2cBackward, aligned: true),
            FFTPlanner.uncachedPlan(Scalar.self, count: count, kind: .c2cForward, aligned: false),
            FFTPlanner.uncachedPlan(Scalar.self, count: count, kind: .c2cBackward, aligned: false)
        )
    }

    /// Destroys the plans of a value made with ``init(uncachedCount:)``.
    package func destroyPlans() {
        FFTPlanner.destroy([plans.forward, plans.inverse, plans.forwardUnaligned, plans.inverseUnaligned], as: Scalar.self)
    }

    /// Transforms `2 * count` interleaved values from `input` into `output` (may be equal only
    /// if both are the same pointer, FFTW's in-place rule; here out-of-place is expected).
    /// - Parameter inverse: `true` for the unnormalised inverse transform.
    /// - Complexity: O(n log n).
    @inlinable
    public func transform(
        _ input: UnsafeMutablePointer<Scalar>,
        into output: UnsafeMutablePointer<Scalar>, inverse: Bool = false
    ) {
        precondition(input != output, "ComplexFFT runs out of place")
        let aligned = Scalar._alignmentOf(input) == 0 && Scalar._alignmentOf(output) == 0
        let plan =
            inverse
            ? (aligned ? plans.inverse : plans.inverseUnaligned)
            : (aligned ? plans.forward : plans.forwardUnaligned)
        Scalar._executeC2C(plan, input, output)
    }

    /// Forward (or unnormalised inverse) transform of `2 * count` interleaved values.
    /// - Complexity: O(n log n).
    @inlinable
    public func transform(_ input: [Scalar], inverse: Bool = false) -> [Scalar] {
        precondition(input.count == 2 * count, "ComplexFFT: input must have \(2 * count) values")
        var src = input
        var out = [Scalar](repeating: 0, count: 2 * count)
        src.withUnsafeMutableBufferPointer { s in
            out.withUnsafeMutableBufferPointer { o in
                transform(s.baseAddress!, into: o.baseAddress!, inverse: inverse)
            }
        }
        return out
    }
}

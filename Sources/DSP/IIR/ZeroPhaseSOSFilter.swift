/// Zero-phase (forward–backward) filtering with a cascade of second-order sections, matching
/// `scipy.signal.sosfiltfilt(sos, x)` with its defaults.
///
/// The signal is extended at both ends by `padLength` samples of odd reflection
/// (`2·x[0] − x[padLength…1]` before, `2·x[n−1] − x[n−2…n−1−padLength]` after), filtered forward
/// starting from the steady state for its first extended sample (`sosfilt_zi · ext[0]`), then
/// backward starting from the steady state for the last forward output, and the padding is
/// dropped. The result has zero phase and the squared magnitude response of the filter.
///
/// Start-up transients at the edges are suppressed the way SciPy's default (`method='pad'`) does
/// it: odd padding plus steady-state initial conditions scaled by the edge value. F. Gustafsson,
/// "Determining the initial states in forward-backward filtering", *IEEE Trans. Signal
/// Processing* 44(4), 988–992, 1996 derives the initial states that make
/// forward–backward and backward–forward filtering agree exactly (`filtfilt(method='gust')`);
/// `sosfiltfilt` does not offer that method and neither does this type.
///
/// Arithmetic is `Double` throughout; the pads and their filtered values are `Double`. For
/// `Float` signals the forward result is stored in the output buffer as `Float` before the
/// backward pass (no signal-sized `Double` buffer), which adds about 1e-7 of the peak.
/// Nothing the size of the signal is allocated besides the returned array; the pointer form
/// allocates only the pads and may run in place. The padding is never copied with the signal:
/// the pads are filtered separately and carry the state across.
///
/// ```swift
/// let sos = try ButterworthDesign(order: 4, band: .bandPass(low: 0.5, high: 40),
///                                 sampleRate: 512).sos
/// let clean = try ZeroPhaseSOSFilter(sos).apply(ecg)
/// ```
public struct ZeroPhaseSOSFilter: Sendable {
    /// The filter applied forward and backward.
    public let sos: SOS
    /// Samples of odd extension at each end.
    public let padLength: Int

    private let prototype: SOSCascade

    /// Creates the zero-phase filter.
    /// - Parameters:
    ///   - sos: the sections.
    ///   - padLength: samples of odd extension at each end, ≥ 0; default (`nil`) is SciPy's
    ///     `3·(2·sections + 1 − min(#{b2 = 0}, #{a2 = 0}))` (``SOS/defaultPadLength``).
    /// - Complexity: O(sections).
    public init(_ sos: SOS, padLength: Int? = nil) {
        let p = padLength ?? sos.defaultPadLength
        precondition(p >= 0, "padLength must be ≥ 0, got \(p)")
        self.sos = sos
        self.padLength = p
        self.prototype = SOSCascade(sos)
    }

    /// Filters `x` forward and backward.
    /// - Precondition: no section of ``sos`` has a pole at z = 1 (steady states must exist).
    /// - Parameter x: the signal; must be longer than ``padLength``.
    /// - Returns: the zero-phase filtered signal, same length.
    /// - Throws: ``IIRError`` `.signalTooShort` when `x.count ≤ padLength` (SciPy raises too).
    /// - Complexity: O(n · sections).
    public func apply(_ x: [Float]) throws(IIRError) -> [Float] {
        var y = [Float](repeating: 0, count: x.count)
        try x.withUnsafeBufferPointer { (xb) throws(IIRError) in
            try y.withUnsafeMutableBufferPointer { (yb) throws(IIRError) in try apply(xb, into: yb) }
        }
        return y
    }

    /// `Double` variant of ``apply(_:)-([Float])``.
    /// - Parameter x: the signal; must be longer than ``padLength``.
    /// - Returns: the zero-phase filtered signal, same length.
    /// - Throws: ``IIRError`` `.signalTooShort` when `x.count ≤ padLength`.
    /// - Complexity: O(n · sections).
    public func apply(_ x: [Double]) throws(IIRError) -> [Double] {
        var y = [Double](repeating: 0, count: x.count)
        try x.withUnsafeBufferPointer { (xb) throws(IIRError) in
            try y.withUnsafeMutableBufferPointer { (yb) throws(IIRError) in try apply(xb, into: yb) }
        }
        return y
    }

    /// Filters `input` forward and backward into `output`.
    /// - Parameters:
    ///   - input: the signal; must be longer than ``padLength``.
    ///   - output: same count as `input`; may be the same memory (in place).
    /// - Throws: ``IIRError`` `.signalTooShort` when `input.count ≤ padLength`.
    /// - Complexity: O(n · sections); allocates only `2 · padLength` doubles.
    public func apply(
        _ input: UnsafeBufferPointer<Float>,
        into output: UnsafeMutableBufferPointer<Float>
    ) throws(IIRError) {
        try run(input, output)
    }

    /// `Double` variant of ``apply(_:into:)-(UnsafeBufferPointer<Float>,_)``.
    /// - Parameters:
    ///   - input: the signal; must be longer than ``padLength``.
    ///   - output: same count as `input`; may be the same memory (in place).
    /// - Throws: ``IIRError`` `.signalTooShort` when `input.count ≤ padLength`.
    /// - Complexity: O(n · sections); allocates only `2 · padLength` doubles.
    public func apply(
        _ input: UnsafeBufferPointer<Double>,
        into output: UnsafeMutableBufferPointer<Double>
    ) throws(IIRError) {
        try run(input, output)
    }

    private func run<T: IIRSample>(
        _ input: UnsafeBufferPointer<T>,
        _ output: UnsafeMutableBufferPointer<T>
    ) throws(IIRError) {
        precondition(output.count == input.count, "output must have the input's count")
        let n = input.count, p = padLength
        guard n > p else {
            throw IIRError(
                .signalTooShort,
                "zero-phase filtering needs more than padLength = \(p) samples, got \(n)")
        }
        let x = input.baseAddress!, y = output.baseAddress!
        var cascade = prototype
        // Odd extensions, computed before the signal may be overwritten (in-place use).
        let first = x[0].iirDouble, last = x[n - 1].iirDouble
        var left = [Double](repeating: 0, count: p), right = [Double](repeating: 0, count: p)
        for i in 0..<p {
            left[i] = 2 * first - x[p - i].iirDouble
            right[i] = 2 * last - x[n - 2 - i].iirDouble
        }
        left.withUnsafeMutableBufferPointer { lb in
            right.withUnsafeMutableBufferPointer { rb in
                // Forward over [left | x | right]; the left pad's outputs are never needed.
                cascade.setSteadyState(inputLevel: p > 0 ? lb[0] : first)
                if p > 0 { cascade.filter(UnsafePointer(lb.baseAddress!), lb.baseAddress!, count: p) }
                Self.filter(&cascade, UnsafePointer(x), y, n, reversed: false)
                if p > 0 { cascade.filter(UnsafePointer(rb.baseAddress!), rb.baseAddress!, count: p) }
                // Backward from the end of the right pad; the pads' outputs are dropped.
                cascade.setSteadyState(inputLevel: p > 0 ? rb[p - 1] : y[n - 1].iirDouble)
                if p > 0 {
                    cascade.filter(
                        UnsafePointer(rb.baseAddress! + (p - 1)), rb.baseAddress! + (p - 1),
                        count: p, reversed: true)
                }
                Self.filter(&cascade, UnsafePointer(y + (n - 1)), y + (n - 1), n, reversed: true)
            }
        }
    }

    private static func filter<T: IIRSample>(
        _ cascade: inout SOSCascade, _ input: UnsafePointer<T>,
        _ output: UnsafeMutablePointer<T>, _ count: Int, reversed: Bool
    ) {
        if T.self == Float.self {
            cascade.filter(
                UnsafeRawPointer(input).assumingMemoryBound(to: Float.self),
                UnsafeMutableRawPointer(output).assumingMemoryBound(to: Float.self),
                count: count, reversed: reversed)
        } else {
            cascade.filter(
                UnsafeRawPointer(input).assumingMemoryBound(to: Double.self),
                UnsafeMutableRawPointer(output).assumingMemoryBound(to: Double.self),
                count: count, reversed: reversed)
        }
    }
}

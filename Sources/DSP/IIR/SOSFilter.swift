/// A causal IIR filter running a cascade of second-order sections over a stream, like
/// `scipy.signal.sosfilt` (Oppenheim & Schafer, *Discrete-Time Signal Processing*, 3rd ed. 2010,
/// §6.3 — cascade form; each section in direct form I).
///
/// Samples are stored as `Scalar` (`Float` or `Double`, the module's ``FFTScalar`` types); all
/// arithmetic and the filter state are `Double`, which keeps a `Float` stream within ~1e-7 (of
/// the peak) of SciPy's float64 result even for sub-hertz corner frequencies — float32
/// arithmetic loses about 3e-4 on the order-4 0.5–40 Hz band-pass at 512 Hz, whose low poles lie
/// within 0.003 of z = 1.
///
/// Feeding a signal in blocks of any sizes gives bitwise the same output as feeding it whole
/// (``StreamingProcessor`` contract); there is no look-ahead, so every input sample yields one
/// output sample at once. Every 8192 samples of a segment, state values below 1e-290 are set to
/// zero, so that silence or flat lines never drive the state into subnormal numbers (80× slower
/// on x86); this is the only deliberate difference from SciPy, far below any tolerance.
///
/// ```swift
/// let sos = try ButterworthDesign(order: 4, band: .bandPass(low: 0.5, high: 40),
///                                 sampleRate: 512).sos
/// var filter = SOSFilter<Float>(sos, initialization: .steadyState)
/// var out = [Float]()
/// for block in blocks { filter.process(block, into: &out) }
/// filter.finish(into: &out)   // nothing held back; resets for the next segment
/// ```
///
/// - Complexity: O(sections) per sample, no allocation after the first block of a size.
public struct SOSFilter<Scalar: FFTScalar>: StreamingProcessor, Sendable {
    /// How the filter state is set at the start of each segment.
    public enum Initialization: Sendable, Equatable {
        /// Zero state, like `sosfilt(sos, x)`.
        case zero
        /// The steady state for a constant input equal to the segment's first sample, like
        /// `sosfilt(sos, x, zi=sosfilt_zi(sos) * x[0])`: no start-up transient. Requires that no
        /// section has a pole at z = 1 (no steady state exists then; checked by `precondition`).
        case steadyState
        /// Explicit initial conditions in SciPy's layout (one `[z0, z1]` row per section,
        /// transposed-direct-form-II state as `sosfilt`'s `zi`). A first-order section
        /// (`b2 = a2 = 0`) must have `z1 = 0`, the only reachable value.
        case conditions([[Double]])
    }

    /// The filter.
    public let sos: SOS
    /// How each segment starts.
    public let initialization: Initialization

    @usableFromInline var cascade: SOSCascade
    @usableFromInline var started: Bool

    /// Creates a filter at the start of a segment.
    /// - Parameters:
    ///   - sos: the sections to run.
    ///   - initialization: state at the start of each segment; default `.zero`.
    /// - Complexity: O(sections).
    public init(_ sos: SOS, initialization: Initialization = .zero) {
        self.sos = sos
        self.initialization = initialization
        self.cascade = SOSCascade(sos)
        self.started = false
        if case .conditions(let zi) = initialization { cascade.setConditions(zi) }
    }

    /// The current state as SciPy's final conditions `zf` (one `[z0, z1]` row per section);
    /// pass it as `.conditions` to continue elsewhere.
    /// - Complexity: O(sections).
    public var finalConditions: [[Double]] { cascade.conditions() }

    /// Filters `count` samples from `input` into `output`, continuing the stream.
    /// - Parameters:
    ///   - input: `count` samples.
    ///   - output: room for `count` samples; may be the same memory as `input` (in place).
    ///   - count: number of samples, ≥ 0.
    /// - Complexity: O(count · sections).
    @inlinable
    public mutating func process(
        _ input: UnsafePointer<Scalar>, into output: UnsafeMutablePointer<Scalar>,
        count: Int
    ) {
        precondition(count >= 0, "count must be ≥ 0")
        guard count > 0 else { return }
        if !started {
            startSegment(firstSample: Double(input[0]))
        }
        if Scalar.self == Float.self {
            cascade.filter(
                UnsafeRawPointer(input).assumingMemoryBound(to: Float.self),
                UnsafeMutableRawPointer(output).assumingMemoryBound(to: Float.self), count: count)
        } else {
            precondition(Scalar.self == Double.self, "SOSFilter supports Float and Double")
            cascade.filter(
                UnsafeRawPointer(input).assumingMemoryBound(to: Double.self),
                UnsafeMutableRawPointer(output).assumingMemoryBound(to: Double.self), count: count)
        }
    }

    /// Filters `input`, continuing the stream, and returns the filtered samples.
    /// - Parameter input: the next samples of the stream.
    /// - Returns: `input.count` filtered samples.
    /// - Complexity: O(count · sections).
    @inlinable
    public mutating func process(_ input: [Scalar]) -> [Scalar] {
        var out = [Scalar]()
        process(input, into: &out)
        return out
    }

    /// Consumes `input` and appends one filtered sample per input sample to `output`.
    /// - Parameters:
    ///   - input: the next samples of the stream.
    ///   - output: receives `input.count` samples.
    /// - Complexity: O(count · sections); amortised no allocation when `output` has capacity.
    @inlinable
    public mutating func process(_ input: UnsafeBufferPointer<Scalar>, into output: inout [Scalar]) {
        let n = input.count
        guard n > 0 else { return }
        let start = output.count
        output.append(contentsOf: repeatElement(0, count: n))
        output.withUnsafeMutableBufferPointer { o in
            process(input.baseAddress!, into: o.baseAddress! + start, count: n)
        }
    }

    /// Ends the segment: appends nothing (the filter holds nothing back) and resets the state
    /// according to ``initialization`` for the next segment.
    /// - Parameter output: unchanged.
    /// - Complexity: O(sections).
    @inlinable
    public mutating func finish(into output: inout [Scalar]) {
        reset()
    }

    /// Resets the filter to the start of a new segment.
    /// - Complexity: O(sections).
    public mutating func reset() {
        started = false
        switch initialization {
        case .zero, .steadyState: cascade.resetToZero()
        case .conditions(let zi): cascade.setConditions(zi)
        }
    }

    @usableFromInline
    mutating func startSegment(firstSample: Double) {
        started = true
        if initialization == .steadyState { cascade.setSteadyState(inputLevel: firstSample) }
    }
}

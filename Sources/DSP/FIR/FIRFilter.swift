/// A linear-phase FIR filter by direct-form convolution, with its group delay removed: the
/// simple reference implementation, and the faster choice for short filters (measured faster
/// than ``OverlapSaveFilter`` below about 32 taps for `Float` on x86-64).
///
/// Output sample `n` is `y[n] = Σₖ h[k]·x[n + D − k]` with `D = (M − 1)/2` rounded down, `x`
/// zero outside the signal, and as many outputs as inputs. For odd `M` and a symmetric `h` the
/// result is zero-phase; in every case it equals `numpy.convolve(x, h, mode="same")` when the
/// signal has at least `M` samples. Each output holds back `D` samples of look-ahead until
/// more input (or ``finish(into:)``) arrives.
///
/// Streaming: feeding the signal in blocks of any sizes gives **bit-identical** output to
/// feeding it whole (every output is the same sum in the same order). For long filters use
/// ``OverlapSaveFilter``, which gives the same result up to rounding at a cost per sample of
/// O(log M) instead of O(M). Each output is summed in tap order with one accumulator (eight
/// outputs are computed side by side for speed).
///
/// Source: A. V. Oppenheim and R. W. Schafer, *Discrete-Time Signal Processing*, 3rd ed.,
/// Pearson 2010, §6.5 (direct-form FIR structures), §5.7 (linear phase and group delay).
public struct FIRFilter<Scalar: FFTScalar>: StreamingProcessor, Sendable {
    /// Number of taps `M`.
    public let tapCount: Int
    /// Delay removed from the output, in samples: `(tapCount − 1) / 2` rounded down.
    public var delay: Int { (tapCount - 1) / 2 }

    /// Taps in reverse order, so that each output is a forward dot product.
    @usableFromInline let reversedTaps: [Scalar]
    /// `M − 1` samples of history followed by room for ``chunk`` new samples.
    @usableFromInline var line: [Scalar]
    /// Inputs consumed in the current segment.
    @usableFromInline var samplesIn = 0
    /// Samples of the full (undelayed) convolution computed so far in this segment.
    @usableFromInline var produced = 0

    @usableFromInline static var chunk: Int { 4096 }

    /// Creates a filter with the given coefficients (e.g. ``FIRDesign/taps``).
    /// - Parameter taps: `h[0] … h[M−1]`, at least one; converted to `Scalar`.
    /// - Complexity: O(M).
    public init<T: BinaryFloatingPoint>(taps: [T]) {
        precondition(!taps.isEmpty, "FIRFilter needs at least one tap")
        tapCount = taps.count
        reversedTaps = taps.reversed().map { Scalar($0) }
        line = [Scalar](repeating: 0, count: taps.count - 1 + Self.chunk)
    }

    /// Filters `input` and appends every output that is now final to `output`.
    /// - Parameters:
    ///   - input: the next samples of the signal (any count, including 0).
    ///   - output: receives the filtered samples; at the end of the stream (after
    ///     ``finish(into:)``) exactly as many as were input.
    /// - Complexity: O(input.count · M).
    @inlinable
    public mutating func process(_ input: UnsafeBufferPointer<Scalar>, into output: inout [Scalar]) {
        guard let base = input.baseAddress, input.count > 0 else { return }
        samplesIn += input.count
        run(base, count: input.count, limit: Int.max, into: &output)
    }

    /// Appends the last ``delay`` outputs (computed with zeros after the signal) and resets the
    /// filter for a new segment.
    /// - Parameter output: receives the held-back samples.
    /// - Complexity: O(M²) at most.
    @inlinable
    public mutating func finish(into output: inout [Scalar]) {
        if samplesIn > 0 { run(nil, count: delay, limit: samplesIn + delay, into: &output) }
        for i in 0..<(tapCount - 1) { line[i] = 0 }
        samplesIn = 0
        produced = 0
    }

    /// Filters a whole signal from a fresh state (this filter's own state is not used).
    /// - Parameter input: the signal.
    /// - Returns: `input.count` filtered samples.
    /// - Complexity: O(input.count · M).
    @inlinable
    public func apply(_ input: [Scalar]) -> [Scalar] {
        var f = FIRFilter(copying: self)
        var out = [Scalar]()
        out.reserveCapacity(input.count)
        f.process(input, into: &out)
        f.finish(into: &out)
        return out
    }

    @inlinable
    init(copying other: FIRFilter) {
        tapCount = other.tapCount
        reversedTaps = other.reversedTaps
        line = [Scalar](repeating: 0, count: other.line.count)
    }

    /// Pushes `count` samples (zeros when `source` is nil) through the line and appends the
    /// full-convolution outputs with index in `[delay, limit)`.
    @inlinable
    mutating func run(
        _ source: UnsafePointer<Scalar>?, count: Int, limit: Int,
        into output: inout [Scalar]
    ) {
        let m = tapCount, history = m - 1, d = delay
        var done = 0
        var produced = self.produced
        while done < count {
            let k = min(count - done, Self.chunk)
            // Outputs of this chunk that are kept: full-convolution indices [first, last).
            let first = max(produced, d), last = min(produced + k, limit)
            let keep = max(0, last - first)
            let start = output.count
            if keep > 0 { output.append(contentsOf: repeatElement(0, count: keep)) }
            line.withUnsafeMutableBufferPointer { lb in
                let w = lb.baseAddress!
                if let source {
                    (w + history).update(from: source + done, count: k)
                } else {
                    (w + history).update(repeating: 0, count: k)
                }
                if keep > 0 {
                    reversedTaps.withUnsafeBufferPointer { tb in
                        output.withUnsafeMutableBufferPointer { ob in
                            // Full-convolution index first + j uses line[p ..< p + m] with
                            // p = first + j − produced.
                            Self.convolve(
                                tb.baseAddress!, m, w + (first - produced),
                                into: ob.baseAddress! + start, count: keep)
                        }
                    }
                }
                // Keep the last M − 1 samples as history (regions may overlap).
                for i in 0..<history { w[i] = w[k + i] }
            }
            produced += k
            done += k
        }
        self.produced = produced
    }

    /// `y[i] = Σⱼ t[j]·x[i + j]` for `i < count`, `j < m`. Eight outputs at a time, each with
    /// its own accumulator summed in tap order, so every output is rounded identically whether
    /// it falls in a group of eight or in the tail (chunking cannot change a bit).
    @inlinable
    static func convolve(
        _ t: UnsafePointer<Scalar>, _ m: Int, _ x: UnsafePointer<Scalar>,
        into y: UnsafeMutablePointer<Scalar>, count: Int
    ) {
        var i = 0
        while i + 8 <= count {
            var a0: Scalar = 0, a1: Scalar = 0, a2: Scalar = 0, a3: Scalar = 0
            var a4: Scalar = 0, a5: Scalar = 0, a6: Scalar = 0, a7: Scalar = 0
            let p = x + i
            for j in 0..<m {
                let c = t[j]
                a0 += c * p[j]; a1 += c * p[j + 1]; a2 += c * p[j + 2]; a3 += c * p[j + 3]
                a4 += c * p[j + 4]; a5 += c * p[j + 5]; a6 += c * p[j + 6]; a7 += c * p[j + 7]
            }
            y[i] = a0; y[i + 1] = a1; y[i + 2] = a2; y[i + 3] = a3
            y[i + 4] = a4; y[i + 5] = a5; y[i + 6] = a6; y[i + 7] = a7
            i += 8
        }
        while i < count {
            var a: Scalar = 0
            let p = x + i
            for j in 0..<m { a += t[j] * p[j] }
            y[i] = a
            i += 1
        }
    }
}

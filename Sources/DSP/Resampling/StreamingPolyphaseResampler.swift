/// Block-wise rational resampling by `up / down`: the streaming form of ``PolyphaseResampler``.
///
/// Feeding a segment in blocks of any sizes and then calling ``finish(into:)`` appends exactly
/// the samples that ``PolyphaseResampler/apply(_:)-(Array<Scalar>)`` returns for the whole
/// segment (bit-identical: the same dot products in the same order), which in turn match
/// `scipy.signal.resample_poly(x, up, down)`. The segment is zero-padded at its start (the first
/// outputs see zeros before `x[0]`) and at its end (``finish(into:)`` computes the last outputs
/// as if zeros followed the last sample), as SciPy's `padtype='constant'` does.
///
/// An output is emitted as soon as the last input it depends on has arrived: output `j` waits
/// for input `⌊(j·down + 10·max(up, down)) / up⌋`, i.e. the look-ahead is the filter's half
/// length, `10·max(up, down)/up` input samples. State is the last `L ≈ 20·max(up, down)/up`
/// input samples, so memory is bounded by the block size plus the filter length.
///
/// Algorithm: polyphase decomposition of the anti-aliasing filter (Crochiere & Rabiner 1983,
/// *Multirate Digital Signal Processing*, Prentice-Hall, ch. 3); filter design as in
/// ``PolyphaseResampler``.
///
/// ```swift
/// var stream = StreamingPolyphaseResampler<Float>(up: 128, down: 512)
/// var out = [Float]()
/// for block in blocks { stream.process(block, into: &out) }
/// stream.finish(into: &out)     // out == PolyphaseResampler<Float>(up: 128, down: 512).apply(all)
/// ```
public struct StreamingPolyphaseResampler<Scalar: FFTScalar & SIMDScalar>: StreamingProcessor, Sendable {
    /// The whole-signal resampler this stream reproduces.
    public let resampler: PolyphaseResampler<Scalar>

    /// Input samples from `bufferStart` on (indices before 0 are the zero padding).
    @usableFromInline var buffer: [Scalar] = []
    /// Input index of `buffer[0]`.
    @usableFromInline var bufferStart = 0
    /// Input samples consumed in this segment.
    @usableFromInline var consumed = 0
    /// Index of the next output sample to emit.
    @usableFromInline var nextOutput = 0

    /// Creates a stream for a rate change by `up / down`.
    /// - Parameters:
    ///   - up: up-sampling factor, ≥ 1.
    ///   - down: down-sampling factor, ≥ 1.
    ///   - kaiserBeta: Kaiser window β of the anti-aliasing filter; default 5.0 (SciPy's).
    /// - Complexity: that of ``PolyphaseResampler/init(up:down:kaiserBeta:)``.
    public init(up: Int, down: Int, kaiserBeta: Double = 5.0) {
        self.init(PolyphaseResampler(up: up, down: down, kaiserBeta: kaiserBeta))
    }

    /// Creates a stream that reproduces `resampler` (sharing its filter).
    /// - Parameter resampler: the whole-signal resampler.
    /// - Complexity: O(L).
    public init(_ resampler: PolyphaseResampler<Scalar>) {
        self.resampler = resampler
        reset()
    }

    @usableFromInline
    mutating func reset() {
        let first = resampler.kernel.firstInput(ofOutput: 0)
        bufferStart = min(first, 0)
        buffer = [Scalar](repeating: 0, count: -bufferStart)
        consumed = 0
        nextOutput = 0
    }

    /// Consumes `input` and appends every output sample whose inputs have all arrived.
    /// - Parameters:
    ///   - input: the next input samples of the segment (any count, including 0).
    ///   - output: receives the new output samples (appended).
    /// - Complexity: O(b + m·L) for b input and m output samples; no allocation once `output`
    ///   and the internal history have grown to their working sizes.
    @inlinable
    public mutating func process(_ input: UnsafeBufferPointer<Scalar>, into output: inout [Scalar]) {
        if resampler.isIdentity {
            output.append(contentsOf: input)
            consumed += input.count
            return
        }
        let k = resampler.kernel
        buffer.append(contentsOf: input)
        consumed += input.count
        // Outputs whose last input index is < consumed are final.
        let end = k.firstOutput(needingInputAtOrAfter: consumed)
        emit(upTo: end, into: &output)
    }

    /// Ends the segment: appends the remaining outputs (computed with zeros after the last
    /// input, up to ``PolyphaseResampler/outputCount(forInputCount:)`` in total) and resets.
    /// - Parameter output: receives the last output samples (appended).
    /// - Complexity: O(L·H/down): the held-back outputs (about `10·max(up, down)/down` of them)
    ///   of `L` terms each.
    @inlinable
    public mutating func finish(into output: inout [Scalar]) {
        if !resampler.isIdentity {
            let k = resampler.kernel
            let total = k.outputCount(forInputCount: consumed)
            if total > nextOutput {
                let needed = k.lastInput(ofOutput: total - 1) + 1 - bufferStart
                if needed > buffer.count {
                    buffer.append(contentsOf: repeatElement(0, count: needed - buffer.count))
                }
                emit(upTo: total, into: &output)
            }
        }
        reset()
    }

    /// Computes outputs `nextOutput ..< end` from the history and drops samples no longer needed.
    @inlinable
    mutating func emit(upTo end: Int, into output: inout [Scalar]) {
        guard end > nextOutput else { return }
        let k = resampler.kernel
        let start = nextOutput, count = end - start
        let base = output.count
        output.append(contentsOf: repeatElement(0, count: count))
        let bufferStart = self.bufferStart
        buffer.withUnsafeBufferPointer { b in
            output.withUnsafeMutableBufferPointer { o in
                k.compute(
                    b.baseAddress!, sourceStart: bufferStart, outputs: start..<end,
                    into: o.baseAddress! + base)
            }
        }
        nextOutput = end
        let drop = min(max(k.firstInput(ofOutput: end) - bufferStart, 0), buffer.count)
        if drop > 0 {
            buffer.removeFirst(drop)
            self.bufferStart += drop
        }
    }
}

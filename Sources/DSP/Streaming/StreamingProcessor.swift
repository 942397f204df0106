/// A stateful sample processor that can be fed a signal in blocks of any size.
///
/// Every streaming operation in `DSP` (FIR overlap-save, SOS filtering, resampling, …) conforms.
/// The contract, tested for each conformer: feeding a signal in blocks of any sizes and then
/// calling ``finish(into:)`` appends exactly the same samples to `output` as feeding it whole.
/// Outputs may lag inputs (look-ahead such as a linear-phase filter's group delay); `finish`
/// flushes what is held back. Memory is bounded by the block size and the look-ahead, never by
/// the length of the signal.
public protocol StreamingProcessor {
    /// Sample type consumed and produced.
    associatedtype Scalar

    /// Consumes `input` and appends every output sample that is now final to `output`.
    mutating func process(_ input: UnsafeBufferPointer<Scalar>, into output: inout [Scalar])

    /// Ends the stream (end of a segment): appends the held-back outputs and resets the state so
    /// the processor can start a new segment.
    mutating func finish(into output: inout [Scalar])
}

extension StreamingProcessor {
    /// Convenience for arrays: consumes `input` and appends the now-final outputs to `output`.
    /// - Complexity: that of the conformer's `process`.
    @inlinable
    public mutating func process(_ input: [Scalar], into output: inout [Scalar]) {
        input.withUnsafeBufferPointer { process($0, into: &output) }
    }
}

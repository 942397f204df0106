import DSP
import Signals

extension FeatureWindower {
    /// Appends the samples of a block (the given columns, in order, as the channels).
    /// - Parameters:
    ///   - block: the next block of the stream.
    ///   - columns: the block's column indices to use (count = ``channelCount``).
    ///   - emit: receives every window completed by these samples.
    /// - Complexity: O(block) plus the callbacks.
    public mutating func append(
        _ block: SampleBlock, columns: [Int], emit: (FeatureWindowSpan) throws -> Void
    ) rethrows {
        precondition(columns.count == channelCount, "columns must match channelCount")
        let mask = SampleFlags.maskingFlags.rawValue
        var sample = [Double](repeating: 0, count: channelCount)
        for i in 0..<block.count {
            var ok = block.flags[i] & mask == 0
            for (c, column) in columns.enumerated() {
                let v = Double(block.columns[column][i])
                sample[c] = v
                if !v.isFinite { ok = false }
            }
            try sample.withUnsafeBufferPointer { try append(time: block.time(at: i), values: $0, valid: ok, emit: emit) }
        }
    }

}

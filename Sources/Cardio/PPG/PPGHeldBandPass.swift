import DSP

/// The first stage shared by the PPG grid (``PPGGridChannel``) and the pulse detector
/// (``PPGPulseDetector``): masked samples hold the last valid value, samples before the
/// segment's first valid one are dropped, and the held values go through a causal band-pass
/// (second-order sections, started in steady state so a DC offset gives no transient).
///
/// Block by block it gives the same numbers as sample by sample: the hold and the filter state
/// carry over between calls. Both buffers are reused, so a block costs no allocation once they
/// have grown.
///
/// Filter: Butterworth (1930), "On the theory of filter amplifiers", Wireless Engineer 7:536–541,
/// as designed by ``ButterworthDesign``; run by ``SOSFilter``.
struct PPGHeldBandPass {
    private var filter: SOSFilter<Double>
    private var hold: Double?
    /// The held values of the last block, from its first held sample on.
    private(set) var held: [Double] = []
    /// ``held`` band-passed.
    private(set) var filtered: [Double] = []

    /// Creates the stage for the sections `sos` at the start of a segment.
    init(_ sos: SOS) { filter = SOSFilter<Double>(sos, initialization: .steadyState) }

    /// Starts a new segment: no value held, the filter restarted.
    /// - Complexity: O(sections).
    mutating func reset() {
        filter.reset()
        hold = nil
    }

    /// Holds and filters one block into ``held`` and ``filtered``.
    /// - Parameters:
    ///   - values: the block's samples.
    ///   - flags: one flag byte per sample; a sample is masked when `flags & masking != 0` or it
    ///     is not finite.
    ///   - masking: the masking flag bits.
    /// - Returns: the index in the block of the first held sample (``held`` holds the samples
    ///   from there to the block's end), or −1 when no valid sample has been seen in the segment
    ///   yet (both buffers are then empty).
    /// - Complexity: O(block length · sections).
    mutating func process(_ values: UnsafeBufferPointer<Float>, flags: UnsafeBufferPointer<UInt8>, masking: UInt8) -> Int {
        precondition(flags.count == values.count, "PPG band-pass: one flag per sample")
        let n = values.count
        var first = 0
        if hold == nil {
            first = -1
            for i in 0..<n where flags[i] & masking == 0 && values[i].isFinite {
                first = i
                break
            }
        }
        let m = first < 0 ? 0 : n - first
        Self.resize(&held, to: m)
        Self.resize(&filtered, to: m)
        guard m > 0 else { return first }
        var h = hold ?? 0
        held.withUnsafeMutableBufferPointer { out in
            for i in first..<n {
                let v = values[i]
                if flags[i] & masking == 0 && v.isFinite { h = Double(v) }
                out[i - first] = h
            }
        }
        hold = h
        held.withUnsafeBufferPointer { input in
            filtered.withUnsafeMutableBufferPointer { output in
                filter.process(input.baseAddress!, into: output.baseAddress!, count: m)
            }
        }
        return first
    }

    private static func resize(_ a: inout [Double], to count: Int) {
        if a.count > count {
            a.removeLast(a.count - count)
        } else if a.count < count {
            a.append(contentsOf: repeatElement(0, count: count - a.count))
        }
    }
}

import DSP
import Foundation
import Testing
import _TestSupport

@testable import Cardio

@Suite("PPG held band-pass")
struct PPGHeldBandPassTests {
    /// The stage fed in blocks of odd sizes against the rule applied to the whole signal sample
    /// by sample: masked or non-finite samples hold the last valid value, samples before the
    /// first valid one are dropped, and the held series goes through the same sections in one
    /// call. The signal starts masked and has masked runs, NaN and infinity in it.
    @Test("blockwise equals the whole-signal rule bit for bit", arguments: [1, 7, 250, 4_096])
    func blockwise(_ block: Int) throws {
        var rng = SeededGenerator(seed: UInt64(block) + 17)
        let n = 20_000
        var values = [Float](repeating: 0, count: n)
        var flags = [UInt8](repeating: 0, count: n)
        let masking = PPGGridChannel.masking
        for i in 0..<n {
            values[i] = Float(100 + sin(Double(i) / 20) + Double.random(in: -0.1...0.1, using: &rng))
            if i < 333 || (i / 500) % 7 == 3 { flags[i] = masking }
            if i % 977 == 5 { values[i] = .nan }
            if i % 1_531 == 9 { values[i] = .infinity }
        }
        let sos = try ButterworthDesign(order: 2, band: .bandPass(low: 0.5, high: 8), sampleRate: 125).sos
        // Reference: the rule on the whole signal.
        var held = [Double](), hold: Double?
        for i in 0..<n {
            if flags[i] & masking == 0 && values[i].isFinite { hold = Double(values[i]) }
            if let hold { held.append(hold) }
        }
        var filter = SOSFilter<Double>(sos, initialization: .steadyState)
        let filtered = filter.process(held)
        // The stage, block by block.
        var stage = PPGHeldBandPass(sos)
        var gotHeld = [Double](), gotFiltered = [Double]()
        var firstHeld = -1
        var start = 0
        while start < n {
            let end = min(n, start + block)
            let first = values[start..<end].withUnsafeBufferPointer { v in
                flags[start..<end].withUnsafeBufferPointer { f in stage.process(v, flags: f, masking: masking) }
            }
            if first >= 0 {
                if firstHeld < 0 { firstHeld = start + first }
                #expect(stage.held.count == end - start - first)
                gotHeld += stage.held
                gotFiltered += stage.filtered
            } else {
                #expect(stage.held.isEmpty && stage.filtered.isEmpty)
            }
            start = end
        }
        #expect(firstHeld == 333)
        #expect(gotHeld.map(\.bitPattern) == held.map(\.bitPattern))
        #expect(gotFiltered.map(\.bitPattern) == filtered.map(\.bitPattern))
    }

    /// `reset()` starts a new segment: nothing held until the next valid sample.
    @Test("reset drops the held value")
    func reset() throws {
        let sos = try ButterworthDesign(order: 2, band: .bandPass(low: 0.4, high: 4), sampleRate: 25).sos
        var stage = PPGHeldBandPass(sos)
        let values: [Float] = [1, 2, 3], masked = [UInt8](repeating: PPGGridChannel.masking, count: 3)
        let clear = [UInt8](repeating: 0, count: 3)
        #expect(
            values.withUnsafeBufferPointer { v in
                clear.withUnsafeBufferPointer { stage.process(v, flags: $0, masking: PPGGridChannel.masking) }
            } == 0)
        // Still held across a masked block...
        #expect(
            values.withUnsafeBufferPointer { v in
                masked.withUnsafeBufferPointer { stage.process(v, flags: $0, masking: PPGGridChannel.masking) }
            } == 0)
        #expect(stage.held == [3, 3, 3])
        // ...but not after a reset.
        stage.reset()
        #expect(
            values.withUnsafeBufferPointer { v in
                masked.withUnsafeBufferPointer { stage.process(v, flags: $0, masking: PPGGridChannel.masking) }
            } == -1)
        #expect(stage.held.isEmpty)
    }
}

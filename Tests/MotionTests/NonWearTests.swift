import Foundation
import Motion
import Signals
import Testing
import _TestSupport

/// Non-wear (van Hees et al. 2013) on a simulated day part whose worn and unworn hours are known.
@Suite("Motion: non-wear")
struct NonWearTests {
    /// 4 h 30 min at 25 Hz from midnight: worn (wrist movement, 60 mg noise) for 1 h, on a table
    /// (3 mg noise) for 2 h 30 min, worn again for 1 h. A 15-min block is non-wear when the 60-min
    /// window centred on it (±22.5 min) lies on the table: the blocks starting 1:30 … 2:45, 90 min.
    @Test("a watch on a table for 2 h 30 min: the 90 min whose windows lie on the table are non-wear")
    func table() {
        let rate = 25.0
        let n = Int(4.5 * 3600 * rate)
        var rng = SeededGenerator(seed: 17)
        func noise(_ sd: Double) -> Float {
            let u = Double.random(in: 1e-12..<1, using: &rng), v = Double.random(in: 0..<1, using: &rng)
            return Float(sd * (-2 * log(u)).squareRoot() * cos(2 * .pi * v))
        }
        var t = [Double](), x = [Float](), y = [Float](), z = [Float]()
        for i in 0..<n {
            let s = Double(i) / rate
            t.append(1_700_006_400 + s) // 2023-11-15T00:00:00Z: a block boundary
            let worn = s < 3600 || s >= 12_600
            let sd = worn ? 0.06 : 0.003
            x.append(Float(worn ? 0.3 * sin(2 * .pi * s / 7) : 0) + noise(sd))
            y.append(noise(sd))
            z.append(1 + noise(sd))
        }
        let r = MotionTestSupport.analyze(times: t, x: x, y: y, z: z, info: MotionTestSupport.info(rate: rate))
        #expect(r.days.count == 1)
        let d = r.days[0]
        #expect(abs(d.wearSeconds + d.nonWearSeconds - 4.5 * 3600) < 1)
        #expect(abs(d.nonWearSeconds - 5400) < 1, "non-wear \(d.nonWearSeconds) s")
        let chunked = MotionTestSupport.analyze(
            times: t, x: x, y: y, z: z, info: MotionTestSupport.info(rate: rate), blockSizes: [4097, 13])
        #expect(chunked.days == r.days)
    }
}

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
        func noise(_ sd: Double) -> Float { Float(sd * rng.gaussian()) }
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

    /// 8 h at 25 Hz from midnight: worn for 2 h (a wrist walking in bursts and resting), flat and
    /// still on a table for 3 h (3 mg noise), worn again for 3 h. The blocks whose 60-min window
    /// lies on the table (2:30 … 4:15, 2 h) are non-wear: their epochs say so and count in no
    /// intensity class, so the day's class times add up to the worn time, and the daily ENMO mean
    /// is that of the worn epochs.
    @Test("epochs inside non-wear are flagged and left out of the daily intensity sums")
    func blankedEpochs() {
        let rate = 25.0
        let n = Int(8 * 3600 * rate)
        var rng = SeededGenerator(seed: 23)
        func noise(_ sd: Double) -> Float { Float(sd * rng.gaussian()) }
        let origin = 1_700_006_400.0 // 2023-11-15T00:00:00Z: a block boundary
        var t = [Double](), x = [Float](), y = [Float](), z = [Float]()
        t.reserveCapacity(n)
        for i in 0..<n {
            let s = Double(i) / rate
            t.append(origin + s)
            let worn = s < 7200 || s >= 18_000
            let walking = worn && Int(s / 600) % 2 == 0
            let sd = worn ? 0.04 : 0.003
            let step = walking ? 0.35 * sin(2 * .pi * 1.8 * s) : 0
            x.append(Float(worn ? 0.3 * sin(2 * .pi * s / 7) : 0) + noise(sd))
            y.append(noise(sd))
            z.append(Float(1 + step) + noise(sd))
        }
        let info = MotionTestSupport.info(rate: rate)
        let r = MotionTestSupport.analyze(times: t, x: x, y: y, z: z, info: info)
        #expect(r.days.count == 1)
        let d = r.days[0]
        #expect(abs(d.nonWearSeconds - 7200) < 1, "non-wear \(d.nonWearSeconds) s")
        #expect(abs(d.wearSeconds - 21_600) < 1, "wear \(d.wearSeconds) s")
        let classed = d.sedentarySeconds + d.lightSeconds + d.moderateSeconds + d.vigorousSeconds
        #expect(abs(classed - d.wearSeconds) < 1, "class times \(classed) s, worn \(d.wearSeconds) s")
        #expect(r.epochs.count == 8 * 720)
        var flagged = 0, misflagged = 0, classedInNonWear = 0
        var enmo = 0.0, weight = 0.0
        for e in r.epochs {
            let s = e.startSeconds - origin
            let expected = s >= 9000 && s < 16_200
            if e.nonWear == true { flagged += 1 }
            if e.nonWear != expected { misflagged += 1 }
            if e.nonWear == true && e.intensity != nil { classedInNonWear += 1 }
            if e.nonWear == false, let m = e.enmoMilliG {
                enmo += m * Double(e.samples)
                weight += Double(e.samples)
            }
        }
        #expect(flagged == 1440)
        #expect(misflagged == 0)
        #expect(classedInNonWear == 0)
        #expect(abs((d.enmoMeanMilliG ?? .nan) - enmo / weight) < 1e-9)
        // The table lies still: without the flag its 2 h would have counted as sedentary.
        #expect(d.sedentarySeconds < 21_600 - 3600)
        let chunked = MotionTestSupport.analyze(times: t, x: x, y: y, z: z, info: info, blockSizes: [4097, 13])
        #expect(chunked.days == r.days)
        #expect(chunked.epochs == r.epochs)
    }
}

import Foundation
import Motion
import Signals
import Testing
import _TestSupport

/// Epoch metrics and regularisation on synthetic signals whose values are known by construction.
@Suite("Motion epochs: grid, ENMO, MAD, HFEN, angles, intensity, days")
struct EpochMetricsTests {
    /// z = 1 + A·sin(2π·2t) (|a| never below 1 − A): ENMO = A/π, MAD = 2A/π, HFEN → 2A/π, and the
    /// mean vector is (0, 0, 1): angle_z = 90°, angle_x = angle_y = 0°. x and y never move, so by
    /// van Hees et al. 2013 (2 of 3 axes still) the device is not worn: no intensity class.
    @Test("ENMO, MAD, HFEN and angles of a vertical oscillation")
    func oscillation() {
        let rate = 100.0, amplitude = 0.2
        let n = Int(60 * rate)
        let t = (0..<n).map { 1_700_000_000 + Double($0) / rate }
        let z = (0..<n).map { Float(1 + amplitude * sin(2 * .pi * 2 * Double($0) / rate)) }
        let zeros = [Float](repeating: 0, count: n)
        let r = MotionTestSupport.analyze(times: t, x: zeros, y: zeros, z: z, info: MotionTestSupport.info(rate: rate))
        #expect(r.epochs.count == 12)
        for e in r.epochs.dropFirst() {
            #expect(abs(e.enmoMilliG! - 1000 * amplitude / .pi) < 0.5)
            #expect(abs(e.madMilliG! - 2000 * amplitude / .pi) < 0.5)
            #expect(abs(e.hfenMilliG! - 2000 * amplitude / .pi) < 2)
            #expect(abs(e.angleZDegrees! - 90) < 1e-6)
            #expect(abs(e.angleXDegrees!) < 1e-6)
            #expect(MotionOptions().intensity(enmoMilliG: e.enmoMilliG!) == .light) // 63.7 mg: 44.8 ≤ ENMO < 100.6
            #expect(e.nonWear == true)
            #expect(e.intensity == nil)
        }
    }

    /// A device this still is not worn (van Hees et al. 2013): its epochs have metrics, the
    /// non-wear flag and no intensity class, and its day has no sedentary time.
    @Test("a still device: ENMO 0, not worn, angles from gravity; m/s² converted to g")
    func still() {
        let rate = 50.0
        let n = Int(30 * rate)
        let t = (0..<n).map { 1_700_000_000 + Double($0) / rate }
        // Gravity at 30° from z towards x, given in m/s².
        let gx = Float(sin(Double.pi / 6) * 9.80665), gz = Float(cos(Double.pi / 6) * 9.80665)
        let r = MotionTestSupport.analyze(
            times: t, x: [Float](repeating: gx, count: n), y: [Float](repeating: 0, count: n),
            z: [Float](repeating: gz, count: n), info: MotionTestSupport.info(rate: rate, unit: .metresPerSecondSquared))
        #expect(r.epochs.count == 6)
        for e in r.epochs {
            #expect(e.enmoMilliG! < 1e-3)
            #expect(MotionOptions().intensity(enmoMilliG: e.enmoMilliG!) == .sedentary)
            #expect(e.nonWear == true)
            #expect(e.intensity == nil)
            #expect(abs(e.angleXDegrees! - 30) < 1e-3)
            #expect(abs(e.angleZDegrees! - 60) < 1e-3)
            #expect(e.steps == 0)
            #expect(e.countsX == 0 && e.countsY == 0 && e.countsZ == 0)
        }
        #expect(r.days.count == 1)
        #expect(r.days[0].day == "2023-11-14") // 1_700_000_000 s = 2023-11-14T22:13:20Z
        #expect(r.days[0].sedentarySeconds == 0)
        #expect(abs(r.days[0].nonWearSeconds - 30) < 1e-9)
    }

    /// Samples at irregular times of a linear ramp: every grid value is the ramp at the grid time;
    /// epochs start at multiples of 5 s whatever the first timestamp; a 3-s hole is not filled.
    @Test("the grid is clock-aligned, linear, and never crosses a gap")
    func grid() {
        var t = [Double]()
        var time = 1_700_000_000.0137
        var rng = SeededGenerator(seed: 5)
        while time < 1_700_000_040 {
            if !(time > 1_700_000_012 && time < 1_700_000_015) { t.append(time) }
            time += Double.random(in: 0.015...0.025, using: &rng)
        }
        let x = t.map { Float(0.01 * ($0 - 1_700_000_000)) }
        let ones = [Float](repeating: 1, count: t.count)
        let zeros = [Float](repeating: 0, count: t.count)
        let r = MotionTestSupport.analyze(times: t, x: x, y: zeros, z: ones, info: MotionTestSupport.info())
        #expect(r.summary.gridRateHz == 50)
        #expect(r.summary.gaps == 1)
        #expect(r.epochs.map(\.startSeconds) == (0..<8).map { 1_700_000_000 + 5 * Double($0) })
        // Epoch [10, 15) lost about 3 s of 5 to the hole: coverage about 0.4, metrics empty.
        let hole = r.epochs[2]
        #expect(hole.coverage > 0.35 && hole.coverage < 0.45)
        #expect(hole.enmoMilliG == nil && hole.note != nil)
        // Mean x of a full epoch [20, 25) is the ramp at its centre minus half a grid step.
        let e = r.epochs[4]
        #expect(e.samples == 250)
        let expectedAngle = atan2(0.01 * (22.5 - 0.01), 1.0) * 180 / .pi
        #expect(abs(e.angleXDegrees! - expectedAngle) < 1e-3)
        #expect(r.summary.interpolatedFraction! > 0.9)
    }
}

import Foundation
import Motion
import Testing
import _TestSupport

/// Gravity direction with the gyroscope (`GravityComplementaryFilter`, Mahony et al. 2008) on
/// synthetic motions whose true orientation is the integral of a known rotation rate.
@Suite("Motion: orientation")
struct OrientationTests {
    /// Rotates `v` about the unit axis `k` by `angle` radians.
    static func rotate(_ v: SIMD3<Double>, about k: SIMD3<Double>, by angle: Double) -> SIMD3<Double> {
        let c = cos(angle), s = sin(angle)
        let cross = SIMD3(k.y * v.z - k.z * v.y, k.z * v.x - k.x * v.z, k.x * v.y - k.y * v.x)
        return v * c + cross * s + k * ((k * v).sum() * (1 - c))
    }

    @Test("still, tilted 35°, gyroscope biased 0.5°/s with 0.3°/s noise: within 1° of the accelerometer after 10 s")
    func still() {
        let rate = 50.0
        var f = GravityComplementaryFilter(sampleRate: rate)
        let truth = SIMD3(sin(35 * Double.pi / 180), 0, cos(35 * Double.pi / 180))
        var rng = SeededGenerator(seed: 21)
        let bias = SIMD3(0.5, -0.5, 0.5) * .pi / 180
        var worst = 0.0
        for i in 0..<Int(60 * rate) {
            let noise = SimulatedWear.random(&rng)
            let a = truth + 0.003 * noise
            let w = bias + noise * 0.3 * .pi / 180
            let g = f.update(acceleration: a, rotationRate: w)!
            if i >= Int(10 * rate) { worst = max(worst, GravityComplementaryFilter.angleDegrees(g, truth)) }
        }
        #expect(worst < 1, "largest error \(worst)°")
    }

    /// 4 s turning at 90°/s about the device's x axis (a full turn) while shaken at 3 Hz with
    /// 0.5 g along y: the true gravity direction is the start direction turned by the integrated
    /// rotation. The accelerometer alone (normalised, or averaged over 0.5 s) is far off; the
    /// filter follows the integrated rotation.
    @Test("a full turn at 90°/s while shaken with 0.5 g: within 2° of the integrated rotation; accelerometer alone > 10° off")
    func turning() {
        let rate = 100.0
        var f = GravityComplementaryFilter(sampleRate: rate)
        let g0 = SIMD3(0.0, 0.0, 1.0)
        let axis = SIMD3(1.0, 0.0, 0.0)
        let omega = 90 * Double.pi / 180
        var worstFilter = 0.0, worstAccel = 0.0
        var window = [SIMD3<Double>]()
        for i in 0..<Int(6 * rate) {
            let t = Double(i) / rate
            let turning = t >= 1 && t < 5
            let angle = omega * min(max(t - 1, 0), 4)
            // Device-frame gravity: the world vector turned by −angle about the device axis.
            let truth = Self.rotate(g0, about: axis, by: -angle)
            let shake = turning ? SIMD3(0, 0.5 * sin(2 * .pi * 3 * t), 0) : .zero
            let a = truth + shake
            let w = turning ? axis * omega : .zero
            let g = f.update(acceleration: a, rotationRate: w)!
            window.append(a)
            if window.count > Int(rate / 2) { window.removeFirst() }
            if turning {
                worstFilter = max(worstFilter, GravityComplementaryFilter.angleDegrees(g, truth))
                let mean = window.reduce(SIMD3<Double>.zero, +) / Double(window.count)
                worstAccel = max(worstAccel, GravityComplementaryFilter.angleDegrees(mean, truth))
            }
        }
        #expect(worstFilter < 2, "filter: largest error \(worstFilter)°")
        #expect(worstAccel > 10, "accelerometer averaged over 0.5 s: largest error \(worstAccel)°")
    }
}

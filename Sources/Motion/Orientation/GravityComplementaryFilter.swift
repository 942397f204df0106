import Foundation

/// The direction of gravity in the device's frame from an accelerometer and a gyroscope sampled
/// together: a complementary filter on the unit sphere (the gravity-vector form of the explicit
/// complementary filter of Mahony, Hamel & Pflimlin 2008, "Nonlinear complementary filters on
/// the special orthogonal group", IEEE Trans Automat Contr 53(5):1203–1218,
/// doi:10.1109/TAC.2008.923738).
///
/// Each sample, the previous estimate is rotated by the gyroscope's rotation over one sample
/// (exactly, by Rodrigues' formula: a world-fixed vector turns by −ω·Δt in the device frame),
/// then pulled towards the accelerometer's direction with weight `Δt / (τ + Δt)`: the gyroscope
/// carries fast turns, the accelerometer removes the gyroscope's drift over about τ seconds. The
/// accelerometer's pull is skipped while its magnitude is more than 0.1 g from 1 g (the device
/// accelerates, so the accelerometer does not point along gravity).
///
/// Without a gyroscope, gravity is the accelerometer low-passed: the epochs' angles use the mean
/// acceleration of each epoch (a boxcar over the epoch).
///
/// - Complexity: O(1) per sample, no allocation.
public struct GravityComplementaryFilter: Sendable, Hashable {
    /// Sample rate of both sensors, in Hz.
    public let sampleRate: Double
    /// Time constant of the accelerometer correction, in s (default 1 s).
    public let timeConstantSeconds: Double
    /// Largest departure of |a| from 1 g at which the accelerometer still corrects, in g.
    public static let accelerationGateG = 0.1
    /// The current estimate: unit vector along gravity in the device frame (`nil` before the
    /// first usable accelerometer sample).
    public private(set) var gravity: SIMD3<Double>?

    /// Creates the filter.
    /// - Parameters:
    ///   - sampleRate: rate of the paired samples, in Hz (> 0).
    ///   - timeConstantSeconds: τ of the accelerometer correction, in s (> 0; default 1).
    public init(sampleRate: Double, timeConstantSeconds: Double = 1) {
        precondition(sampleRate > 0 && timeConstantSeconds > 0)
        self.sampleRate = sampleRate
        self.timeConstantSeconds = timeConstantSeconds
    }

    /// Advances by one sample.
    /// - Parameters:
    ///   - acceleration: accelerometer reading in g (gravity included).
    ///   - rotationRate: gyroscope reading in rad/s, device frame, right-handed.
    /// - Returns: the unit gravity direction in the device frame, or `nil` before the first
    ///   accelerometer sample near 1 g.
    /// - Complexity: O(1).
    public mutating func update(acceleration a: SIMD3<Double>, rotationRate w: SIMD3<Double>) -> SIMD3<Double>? {
        let dt = 1 / sampleRate
        let magnitude = (a * a).sum().squareRoot()
        let usable = magnitude.isFinite && abs(magnitude - 1) <= Self.accelerationGateG
        guard var g = gravity else {
            if usable { gravity = a / magnitude }
            return gravity
        }
        // Rotate g by −ω·dt (Rodrigues).
        let speed = (w * w).sum().squareRoot()
        if speed > 0 && speed.isFinite {
            let k = w / speed
            let angle = -speed * dt
            let c = cos(angle), s = sin(angle)
            let cross = SIMD3(k.y * g.z - k.z * g.y, k.z * g.x - k.x * g.z, k.x * g.y - k.y * g.x)
            g = g * c + cross * s + k * ((k * g).sum() * (1 - c))
        }
        if usable {
            let alpha = dt / (timeConstantSeconds + dt)
            g = g * (1 - alpha) + (a / magnitude) * alpha
        }
        g /= (g * g).sum().squareRoot()
        gravity = g
        return g
    }

    /// Angle between two directions, in degrees.
    /// - Complexity: O(1).
    public static func angleDegrees(_ u: SIMD3<Double>, _ v: SIMD3<Double>) -> Double {
        let nu = (u * u).sum().squareRoot(), nv = (v * v).sum().squareRoot()
        let c = max(-1, min(1, (u * v).sum() / (nu * nv)))
        return acos(c) * 180 / .pi
    }
}

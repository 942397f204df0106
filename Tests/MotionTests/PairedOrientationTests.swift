import Foundation
import Motion
import Signals
import Testing
import _TestSupport

/// Collects the motion family's rows, typed.
final class MotionRowCollector: ResultOutput {
    var rotation: [String: [RotationEpoch]] = [:]
    var epochs: [String: [MotionEpoch]] = [:]
    var streams: [String: MotionStreamSummary] = [:]
    var rows: [String: [[String: ResultValue]]] = [:]
    func emit<Row>(_ schema: TableSchema<Row>, _ row: Row) throws {
        let names = schema.table.columns.map(\.name)
        rows[schema.table.name, default: []].append(Dictionary(uniqueKeysWithValues: zip(names, schema.values(of: row))))
        if let r = row as? Streamed<RotationEpoch> { rotation[r.stream, default: []].append(r.value) }
        if let r = row as? Streamed<MotionEpoch> { epochs[r.stream, default: []].append(r.value) }
        if let r = row as? Streamed<MotionStreamSummary> { streams[r.stream] = r.value }
    }
}

/// A device held in the hand, on irregular ~50 Hz accelerometer and gyroscope clocks (each with
/// its own jitter), whose orientation is known by construction: R(t) = Rz(ψ(t)) · Rx(θ(t))
/// (heading ψ about the vertical, tilt θ about the device's x axis). The gyroscope reads
/// ω = (θ', ψ' sin θ, ψ' cos θ) in the device frame, the accelerometer R(t)ᵀ (ẑ + linear
/// acceleration) in g; true gravity (up) in the device frame is (0, sin θ, cos θ).
struct HandheldMotion: Sendable {
    var seconds: Double
    /// Heading ψ(t) and its rate, radians and rad/s.
    var heading: @Sendable (Double) -> (Double, Double)
    /// Tilt θ(t) and its rate, radians and rad/s.
    var tilt: @Sendable (Double) -> (Double, Double)
    /// Linear acceleration in the world frame, g.
    var linear: @Sendable (Double) -> SIMD3<Double>
    /// Gyroscope bias, rad/s.
    var bias = SIMD3(0.3, -0.2, 0.25) * Double.pi / 180
    var seed: UInt64 = 5

    static let start = 1_750_000_000.0

    func gravity(_ t: Double) -> SIMD3<Double> {
        let th = tilt(t).0
        return SIMD3(0, sin(th), cos(th))
    }

    /// Accelerometer samples: times, x, y, z (g).
    func accelerometer() -> (t: [Double], x: [Float], y: [Float], z: [Float]) {
        var rng = SeededGenerator(seed: seed)
        var out: (t: [Double], x: [Float], y: [Float], z: [Float]) = ([], [], [], [])
        var t = 0.0
        while t < seconds {
            let (psi, _) = heading(t)
            let (th, _) = tilt(t)
            let w = SIMD3(0, 0, 1) + linear(t)
            // Rᵀ w = Rx(θ)ᵀ Rz(ψ)ᵀ w.
            let u = SIMD3(cos(psi) * w.x + sin(psi) * w.y, -sin(psi) * w.x + cos(psi) * w.y, w.z)
            let d = SIMD3(u.x, cos(th) * u.y + sin(th) * u.z, -sin(th) * u.y + cos(th) * u.z)
            let noise = SimulatedWear.random(&rng) * 0.004
            out.t.append(Self.start + t)
            out.x.append(Float(d.x + noise.x))
            out.y.append(Float(d.y + noise.y))
            out.z.append(Float(d.z + noise.z))
            t += 0.02 + Double.random(in: -0.003...0.003, using: &rng)
        }
        return out
    }

    /// Gyroscope samples: times, x, y, z (rad/s).
    func gyroscope() -> (t: [Double], x: [Float], y: [Float], z: [Float]) {
        var rng = SeededGenerator(seed: seed &+ 1)
        var out: (t: [Double], x: [Float], y: [Float], z: [Float]) = ([], [], [], [])
        var t = 0.004
        while t < seconds {
            let (_, dpsi) = heading(t)
            let (th, dth) = tilt(t)
            let noise = SimulatedWear.random(&rng) * (0.2 * Double.pi / 180)
            let w = SIMD3(dth, dpsi * sin(th), dpsi * cos(th)) + bias + noise
            out.t.append(Self.start + t)
            out.x.append(Float(w.x))
            out.y.append(Float(w.y))
            out.z.append(Float(w.z))
            t += 0.02 + Double.random(in: -0.003...0.003, using: &rng)
        }
        return out
    }

    enum Interleaving { case byTime, accelerometerFirst, gyroscopeFirst }

    /// Runs both streams (device "phone") and a lone gyroscope of another device ("watch")
    /// through the motion family.
    func run(
        blockSizes: [Int] = [250], interleaving: Interleaving = .byTime, options: MotionOptions = MotionOptions(),
        withAccelerometer: Bool = true
    ) throws -> MotionRowCollector {
        let accelInfo = StreamInfo(
            key: StreamKey(deviceID: "phone", sensor: .accelerometer, channel: "acceleration"),
            columns: ["x", "y", "z"].map { ColumnInfo(name: $0, unit: .standardGravity) })
        let gyroInfo = StreamInfo(
            key: StreamKey(deviceID: "phone", sensor: .rotationRate, channel: "rotationRate"),
            columns: ["x", "y", "z"].map { ColumnInfo(name: $0, unit: .radiansPerSecond) })
        var family = MotionFamily.makeAnalyzer(options: options)
        let out = MotionRowCollector()
        // The gyroscope is announced first: pairing must work in either order.
        let claimedGyroscope = family.claim(AnnouncedStream(index: 0, info: gyroInfo, file: "g"))
        #expect(claimedGyroscope)
        if withAccelerometer {
            let claimedAccelerometer = family.claim(AnnouncedStream(index: 1, info: accelInfo, file: "a"))
            #expect(claimedAccelerometer)
        }
        func blocks(_ s: (t: [Double], x: [Float], y: [Float], z: [Float]), stream: Int) -> [SampleBlock] {
            var result = [SampleBlock]()
            var start = 0, b = 0
            while start < s.t.count {
                let m = min(blockSizes[b % blockSizes.count], s.t.count - start)
                b += 1
                let r = start..<(start + m)
                result.append(
                    SampleBlock(
                        stream: stream, segment: 0, firstSample: start, time: .explicit(Array(s.t[r])),
                        columns: [Array(s.x[r]), Array(s.y[r]), Array(s.z[r])], flags: [UInt8](repeating: 0, count: m),
                        endsSegment: start + m == s.t.count))
                start += m
            }
            return result
        }
        let g = blocks(gyroscope(), stream: 0)
        let a = withAccelerometer ? blocks(accelerometer(), stream: 1) : []
        var all: [SampleBlock]
        switch interleaving {
        case .byTime: all = (g + a).sorted { ($0.time(at: 0), $0.stream) < ($1.time(at: 0), $1.stream) }
        case .accelerometerFirst: all = a + g
        case .gyroscopeFirst: all = g + a
        }
        for block in all { try family.consume(block, output: out) }
        try family.finish(output: out)
        return out
    }
}

/// The motion family pairs a device's rotation rate with its accelerometer: gyroscope-aided
/// gravity angles and turns in `motion_rotation_epochs`, checked against the orientation and
/// the turns put into synthetic recordings.
@Suite("Motion: paired orientation and turns")
struct PairedOrientationTests {
    static let gyro = "phone/rotationRate/rotationRate"
    static let accel = "phone/accelerometer/acceleration"

    static func angles(_ g: SIMD3<Double>) -> SIMD3<Double> {
        let d = 180 / Double.pi
        return SIMD3(
            atan(g.x / (g.y * g.y + g.z * g.z).squareRoot()) * d, atan(g.y / (g.x * g.x + g.z * g.z).squareRoot()) * d,
            atan(g.z / (g.x * g.x + g.y * g.y).squareRoot()) * d)
    }

    /// Four 180° turns (2.5 s each, raised-cosine rate profile, peak 144°/s) while walking
    /// (0.25 g vertical bounce at 2 Hz, 0.15 g sway at 1 Hz), the hand wobbling ±8° in heading at
    /// 0.8 Hz and the tilt swinging 25° ± 15° with a 7-s period.
    static let walkWithTurns = HandheldMotion(
        seconds: 150,
        heading: { t in
            var psi = 8 * Double.pi / 180 * sin(2 * Double.pi * 0.8 * t)
            var rate = 8 * Double.pi / 180 * 2 * Double.pi * 0.8 * cos(2 * Double.pi * 0.8 * t)
            for t0 in [30.0, 60, 90, 120] {
                let T = 2.5
                let u = min(max(t - t0, 0), T)
                psi += Double.pi * (u / T - sin(2 * Double.pi * u / T) / (2 * Double.pi))
                if t > t0 && t < t0 + T { rate += Double.pi / T * (1 - cos(2 * Double.pi * (t - t0) / T)) }
            }
            return (psi, rate)
        },
        tilt: { t in
            let w = 2 * Double.pi / 7
            return ((25 + 15 * sin(w * t)) * Double.pi / 180, 15 * Double.pi / 180 * w * cos(w * t))
        },
        linear: { t in SIMD3(0.15 * sin(2 * Double.pi * t), 0, 0.25 * sin(2 * Double.pi * 2 * t)) })

    @Test(
        "four 180° turns while walking: 4 turns of 180° ± the wobble (16° peak to peak), in the epochs holding their ends; gravity within 2° of the truth"
    )
    func turnsWhileWalking() throws {
        let m = Self.walkWithTurns
        let out = try m.run()
        let epochs = try #require(out.rotation[Self.gyro])
        #expect(epochs.count == 30)
        let turning = epochs.filter { ($0.turns ?? 0) > 0 }
        #expect(turning.reduce(0) { $0 + $1.turns! } == 4)
        // Each turn ends 2.5 s after it starts (30, 60, 90, 120 s): in the epoch from 30 s on.
        #expect(turning.map { $0.startSeconds - HandheldMotion.start } == [30, 60, 90, 120])
        // The hand's heading wobble (±8°, up to 40°/s) is part of the rotation the detector
        // integrates while the rate stays above 5°/s: a turn measures 180° plus up to 16°.
        for e in turning { #expect(abs(e.turnDegrees! - 180) <= 18, "\(e.turnDegrees!)°") }
        // Gravity: the epoch mean of the estimate against the epoch mean of the true direction
        // (epochs after the first: the filter starts from the first accelerometer sample).
        var worst = 0.0
        for e in epochs.dropFirst() {
            let t0 = e.startSeconds - HandheldMotion.start
            var sum = SIMD3<Double>(repeating: 0)
            for i in 0..<250 { sum += m.gravity(t0 + Double(i) / 50) }
            let truth = Self.angles(sum)
            let est = SIMD3(e.gravityAngleXDegrees!, e.gravityAngleYDegrees!, e.gravityAngleZDegrees!)
            let d = est - truth
            worst = max(worst, abs(d.x), abs(d.y), abs(d.z))
        }
        #expect(worst < 2, "largest epoch angle error \(worst)°")
        let summary = try #require(out.streams[Self.gyro])
        #expect(summary.pairedStream == Self.accel)
        #expect(summary.pairedFraction! > 0.99)
        #expect(summary.note == nil)
        #expect(out.rows["motion_rotation_epochs"]!.allSatisfy { $0["gravity_source"] == .text("accelerometer+gyroscope") })
    }

    @Test("clean 90° and 135° turns (1.5 s, no wobble) while tilting: measured within 3°")
    func cleanTurns() throws {
        let m = HandheldMotion(
            seconds: 60,
            heading: { t in
                var psi = 0.0, rate = 0.0
                for (t0, angle) in [(20.0, Double.pi / 2), (40.0, -3 * Double.pi / 4)] {
                    let T = 1.5
                    let u = min(max(t - t0, 0), T)
                    psi += angle * (u / T - sin(2 * Double.pi * u / T) / (2 * Double.pi))
                    if t > t0 && t < t0 + T { rate += angle / T * (1 - cos(2 * Double.pi * (t - t0) / T)) }
                }
                return (psi, rate)
            },
            tilt: Self.walkWithTurns.tilt, linear: Self.walkWithTurns.linear)
        let rotation = try #require(try m.run().rotation[Self.gyro])
        let turning = rotation.filter { ($0.turns ?? 0) > 0 }
        #expect(turning.map { $0.startSeconds - HandheldMotion.start } == [20, 40])
        #expect(turning.map { $0.turns! } == [1, 1])
        if turning.count == 2 {
            #expect(abs(turning[0].turnDegrees! - 90) < 3, "\(turning[0].turnDegrees!)°")
            #expect(abs(turning[1].turnDegrees! - 135) < 3, "\(turning[1].turnDegrees!)°")
        }
    }

    @Test("in motion: the gyroscope-aided epoch angles agree with the accelerometer-only ones (motion_epochs) within 2.5°")
    func epochAnglesAgainstAccelerometerOnly() throws {
        // The accelerometer-only epoch angles (motion_epochs: the epoch's mean acceleration)
        // and the gyroscope-aided ones agree with the truth here, since the linear
        // acceleration averages out over 5 s; both are reported for the same clock epochs.
        let out = try Self.walkWithTurns.run()
        let rotation = try #require(out.rotation[Self.gyro])
        let accel = try #require(out.epochs[Self.accel])
        #expect(rotation.map(\.startSeconds) == accel.map(\.startSeconds))
        var worst = 0.0
        for (r, a) in zip(rotation, accel).dropFirst() {
            worst = max(worst, abs(r.gravityAngleZDegrees! - a.angleZDegrees!), abs(r.gravityAngleYDegrees! - a.angleYDegrees!))
        }
        #expect(worst < 2.5, "\(worst)°")
    }

    @Test("still, tilted 35° with a biased gyroscope: gravity angles within 1° of the accelerometer-only angles; no turns")
    func still() throws {
        let m = HandheldMotion(
            seconds: 600, heading: { _ in (0.4, 0) }, tilt: { _ in (35 * Double.pi / 180, 0) }, linear: { _ in .zero },
            bias: SIMD3(0.5, -0.5, 0.5) * Double.pi / 180)
        let out = try m.run(blockSizes: [1000])
        let rotation = try #require(out.rotation[Self.gyro])
        let accel = try #require(out.epochs[Self.accel])
        var worst = 0.0
        for (r, a) in zip(rotation, accel).dropFirst(2) {
            worst = max(worst, abs(r.gravityAngleYDegrees! - a.angleYDegrees!), abs(r.gravityAngleZDegrees! - a.angleZDegrees!))
        }
        #expect(worst < 1, "\(worst)°")
        #expect(rotation.reduce(0) { $0 + ($1.turns ?? 0) } == 0)
    }

    @Test(
        "no turns in 10 minutes of arm gestures (tilt ±40° at 1 Hz, heading ±15° at 0.7 Hz) or hand tremor (±3° at 5 Hz on every axis)"
    )
    func controls() throws {
        let gestures = HandheldMotion(
            seconds: 600,
            heading: { t in
                let w = 2 * Double.pi * 0.7
                return (15 * Double.pi / 180 * sin(w * t), 15 * Double.pi / 180 * w * cos(w * t))
            },
            tilt: { t in
                let w = 2 * Double.pi
                return ((30 + 40 * sin(w * t)) * Double.pi / 180, 40 * Double.pi / 180 * w * cos(w * t))
            },
            linear: { t in SIMD3(0.3 * sin(2 * Double.pi * t), 0.2 * cos(2 * Double.pi * t), 0) })
        let tremor = HandheldMotion(
            seconds: 600,
            heading: { t in
                let w = 2 * Double.pi * 5
                return (3 * Double.pi / 180 * sin(w * t), 3 * Double.pi / 180 * w * cos(w * t))
            },
            tilt: { t in
                let w = 2 * Double.pi * 5
                return ((20 + 3 * sin(w * t + 1)) * Double.pi / 180, 3 * Double.pi / 180 * w * cos(w * t + 1))
            },
            linear: { _ in .zero })
        for (name, m) in [("gestures", gestures), ("tremor", tremor)] {
            let rotation = try #require(try m.run(blockSizes: [1000]).rotation[Self.gyro])
            #expect(rotation.count == 120)
            #expect(rotation.allSatisfy { $0.turns != nil }, "\(name)")
            #expect(rotation.reduce(0) { $0 + ($1.turns ?? 0) } == 0, "\(name)")
        }
    }

    @Test("chunked = whole: any block sizes and any interleaving of the two streams give the same rotation epochs")
    func chunking() throws {
        let m = HandheldMotion(
            seconds: 70, heading: Self.walkWithTurns.heading, tilt: Self.walkWithTurns.tilt, linear: Self.walkWithTurns.linear)
        let whole = try #require(try m.run(blockSizes: [100_000]).rotation[Self.gyro])
        #expect(whole.reduce(0) { $0 + ($1.turns ?? 0) } == 2)
        for (sizes, order) in [
            ([1], HandheldMotion.Interleaving.byTime), ([7, 333], .byTime), ([64], .accelerometerFirst), ([999], .gyroscopeFirst),
        ] {
            let part = try #require(try m.run(blockSizes: sizes, interleaving: order).rotation[Self.gyro])
            #expect(part == whole, "\(sizes) \(order)")
        }
    }

    @Test("a gyroscope without an accelerometer: speeds, but no gravity angles and no turns; not paired")
    func alone() throws {
        let out = try Self.walkWithTurns.run(withAccelerometer: false)
        let rotation = try #require(out.rotation[Self.gyro])
        #expect(rotation.count == 30)
        #expect(rotation.allSatisfy { $0.meanSpeedDegreesPerSecond != nil && $0.gravityAngleZDegrees == nil && $0.turns == nil })
        #expect(out.streams[Self.gyro]?.pairedStream == nil)
        #expect(out.rows["motion_rotation_epochs"]!.allSatisfy { $0["gravity_source"] == .null })
    }
}

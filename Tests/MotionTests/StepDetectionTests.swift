import Foundation
import Motion
import Testing
import _TestSupport

/// Steps on simulated signals whose truth is known by construction: walking has a known number of
/// steps; the negative controls (documented simulations below) have none and may count at most 5
/// in 10 minutes (issue 12).
@Suite("Steps: simulated walking and negative controls")
struct StepDetectionTests {
    static let rate = 50.0

    /// 10 minutes at ~50 Hz with jittered timestamps (SensorKit-like), from a function of time
    /// returning the acceleration in g.
    static func steps(seconds: Double = 600, seed: UInt64, _ signal: (Double, inout SeededGenerator) -> (Float, Float, Float)) -> Int {
        var rng = SeededGenerator(seed: seed)
        var jitter = SeededGenerator(seed: seed &+ 1)
        let n = Int(seconds * rate)
        var t = [Double](), x = [Float](), y = [Float](), z = [Float]()
        for i in 0..<n {
            let ti = 1_700_000_000 + Double(i) / rate + Double.random(in: -0.002...0.002, using: &jitter)
            let (a, b, c) = signal(ti - 1_700_000_000, &rng)
            t.append(ti)
            x.append(a)
            y.append(b)
            z.append(c)
        }
        let r = MotionTestSupport.analyze(times: t, x: x, y: y, z: z, info: MotionTestSupport.info())
        return r.epochs.reduce(0) { $0 + $1.steps }
    }

    @Test("walking at 1.8 steps/s for 60 s gives 108 steps (±2)")
    func walking() {
        // A phone in a pocket: vertical impact at the step frequency with a harmonic, lateral sway
        // at half of it, 10 mg noise; walking from 20 s to 80 s.
        let count = Self.steps(seconds: 100, seed: 3) { t, rng in
            let walking = t >= 20 && t < 80
            let f = 1.8
            let v = walking ? 0.35 * sin(2 * .pi * f * (t - 20)) + 0.1 * sin(4 * .pi * f * (t - 20)) : 0
            let s = walking ? 0.1 * sin(.pi * f * (t - 20)) : 0
            return (
                Float(s + 0.01 * rng.gaussian()), Float(0.01 * rng.gaussian()), Float(1 + v + 0.01 * rng.gaussian())
            )
        }
        #expect(abs(count - 108) <= 2, "\(count) steps")
    }

    @Test("a still phone: at most 5 steps in 10 min")
    func still() {
        // Lying on a table: gravity on z, 3 mg sensor noise (iPhone accelerometer noise density).
        let count = Self.steps(seed: 11) { _, rng in
            (Float(0.003 * rng.gaussian()), Float(0.003 * rng.gaussian()), Float(1 + 0.003 * rng.gaussian()))
        }
        print("negative control \(#function): \(count) steps")
        #expect(count <= 5, "\(count) steps")
    }

    @Test("a phone on a desk while typing: at most 5 steps in 10 min")
    func typing() {
        // Key strokes at ~6/s (random times) ring the desk: a 15 Hz damped oscillation (30 ms decay)
        // of up to 0.15 g on z for each stroke, plus 3 mg noise.
        var strokes = [(Double, Double)]()
        var r = SeededGenerator(seed: 21)
        var t = 0.0
        while t < 600 {
            t += -log(Double.random(in: 1e-9..<1, using: &r)) / 6
            strokes.append((t, Double.random(in: 0.02...0.15, using: &r)))
        }
        var next = 0
        let count = Self.steps(seed: 22) { t, rng in
            while next < strokes.count && strokes[next].0 < t - 0.3 { next += 1 }
            var v = 0.0
            var i = next
            while i < strokes.count && strokes[i].0 <= t {
                let d = t - strokes[i].0
                v += strokes[i].1 * exp(-d / 0.03) * sin(2 * .pi * 15 * d)
                i += 1
            }
            return (Float(0.003 * rng.gaussian()), Float(0.003 * rng.gaussian()), Float(1 + v + 0.003 * rng.gaussian()))
        }
        print("negative control \(#function): \(count) steps")
        #expect(count <= 5, "\(count) steps")
    }

    @Test("a wrist with a 5 Hz hand tremor: at most 5 steps in 10 min")
    func tremor() {
        // Parkinsonian rest tremor (4–6 Hz): 0.3 g at 5 Hz with slowly varying amplitude.
        let count = Self.steps(seed: 31) { t, rng in
            let a = 0.3 * (0.7 + 0.3 * sin(2 * .pi * t / 17))
            return (
                Float(0.6 + a * sin(2 * .pi * 5 * t) + 0.005 * rng.gaussian()),
                Float(a * 0.5 * sin(2 * .pi * 5 * t + 1) + 0.005 * rng.gaussian()), Float(0.8 + 0.005 * rng.gaussian())
            )
        }
        print("negative control \(#function): \(count) steps")
        #expect(count <= 5, "\(count) steps")
    }

    @Test("a wrist making arm gestures while seated: at most 5 steps in 10 min")
    func gestures() {
        // Gestures (talking with the hands, reaching): each a smooth raise-and-lower of the forearm
        // lasting 0.6–3 s, turning gravity by up to 70° and adding up to 0.4 g of movement,
        // separated by pauses of 0.5–6 s.
        var gestures = [(start: Double, length: Double, angle: Double, push: Double)]()
        var r = SeededGenerator(seed: 41)
        var t = 1.0
        while t < 600 {
            let length = Double.random(in: 0.6...3, using: &r)
            gestures.append((t, length, Double.random(in: 0.2...1.2, using: &r), Double.random(in: 0.05...0.4, using: &r)))
            t += length + Double.random(in: 0.5...6, using: &r)
        }
        var next = 0
        let count = Self.steps(seed: 42) { t, rng in
            while next < gestures.count && gestures[next].start + gestures[next].length < t { next += 1 }
            var angle = 0.0, push = 0.0
            if next < gestures.count, t >= gestures[next].start {
                let g = gestures[next]
                let p = (t - g.start) / g.length
                angle = g.angle * sin(.pi * p)
                push = g.push * sin(2 * .pi * p)
            }
            return (
                Float(sin(angle) + push + 0.005 * rng.gaussian()), Float(0.005 * rng.gaussian()),
                Float(cos(angle) + 0.005 * rng.gaussian())
            )
        }
        print("negative control \(#function): \(count) steps")
        #expect(count <= 5, "\(count) steps")
    }

    @Test("a phone in a driving car: at most 5 steps in 10 min")
    func car() {
        // Phone in a holder: road vibration (white noise, 40 mg), engine at 30 Hz (20 mg), lateral
        // sway from steering (0.1 g at 0.15 Hz), and road bumps every 3–20 s exciting the
        // suspension (1.3 Hz, damping ratio 0.3, up to 0.3 g vertical).
        var bumps = [(Double, Double)]()
        var r = SeededGenerator(seed: 51)
        var t = 2.0
        while t < 600 {
            bumps.append((t, Double.random(in: 0.05...0.3, using: &r)))
            t += Double.random(in: 3...20, using: &r)
        }
        var next = 0
        let wn = 2 * Double.pi * 1.3, zeta = 0.3
        let wd = wn * (1 - zeta * zeta).squareRoot()
        let count = Self.steps(seed: 52) { t, rng in
            while next < bumps.count && bumps[next].0 < t - 5 { next += 1 }
            var v = 0.0
            var i = next
            while i < bumps.count && bumps[i].0 <= t {
                let d = t - bumps[i].0
                v += bumps[i].1 * exp(-zeta * wn * d) * sin(wd * d)
                i += 1
            }
            let road = 0.04 * rng.gaussian()
            return (
                Float(0.1 * sin(2 * .pi * 0.15 * t) + 0.02 * rng.gaussian()), Float(0.02 * rng.gaussian()),
                Float(1 + v + road + 0.02 * sin(2 * .pi * 30 * t))
            )
        }
        print("negative control \(#function): \(count) steps")
        #expect(count <= 5, "\(count) steps")
    }
}

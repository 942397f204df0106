import Foundation
import Motion
import Signals
import Testing
import _TestSupport

/// Streams a generated recording through a ``MotionStreamAnalyzer`` without holding it.
enum GeneratedStream {
    /// Runs `count` samples at `rate` Hz from `start` (s), each from `sample(i)` (x, y, z in g),
    /// in blocks of the given sizes (cycled).
    static func analyze(
        count: Int, rate: Double, start: Double, options: MotionOptions = MotionOptions(), blockSizes: [Int] = [60_000],
        sample: (Int) -> SIMD3<Float>
    ) -> (epochs: [MotionEpoch], days: [MotionDay], nights: [MotionNight], summary: MotionStreamSummary, rhythm: [MotionRhythm]) {
        var a = MotionStreamAnalyzer(streamName: "s", info: MotionTestSupport.info(rate: rate), options: options)
        var epochs = [MotionEpoch](), nights = [MotionNight]()
        var first = 0, b = 0
        while first < count {
            let n = min(blockSizes[b % blockSizes.count], count - first)
            b += 1
            var t = [Double](), x = [Float](), y = [Float](), z = [Float]()
            t.reserveCapacity(n)
            for i in first..<(first + n) {
                let v = sample(i)
                t.append(start + Double(i) / rate)
                x.append(v.x)
                y.append(v.y)
                z.append(v.z)
            }
            a.consume(
                SampleBlock(
                    stream: 0, segment: 0, firstSample: first, time: .explicit(t), columns: [x, y, z],
                    flags: [UInt8](repeating: 0, count: n), endsSegment: first + n == count))
            epochs += a.takeEpochs()
            nights += a.takeNights()
            first += n
        }
        let (days, summary) = a.finish()
        epochs += a.takeEpochs()
        nights += a.takeNights()
        return (epochs, days, nights, summary, a.takeRhythm())
    }
}

/// A simulated free-living recording: 10-min segments, each with its own orientation of gravity
/// (uniform on the sphere, or drawn from `orientations`); half still (3 mg noise), half moving
/// (a 2 Hz arm swing of 300 mg plus 30 mg noise). Raw output = truth / scale − offset, so the
/// calibration (raw + offset) · scale recovers the truth.
struct SimulatedWear {
    let rate: Double
    let offset: SIMD3<Double>
    let scale: SIMD3<Double>
    private var gravity: [SIMD3<Double>] = []
    private var swing: [SIMD3<Double>] = []
    private var noise: [Float] = []

    init(rate: Double, days: Double, offset: SIMD3<Double>, scale: SIMD3<Double>, seed: UInt64, orientations: [SIMD3<Double>]? = nil) {
        self.rate = rate
        self.offset = offset
        self.scale = scale
        var rng = SeededGenerator(seed: seed)
        let segments = Int(days * 144) + 1
        for _ in 0..<segments {
            var g: SIMD3<Double>
            if let o = orientations {
                g = o[Int.random(in: 0..<o.count, using: &rng)]
            } else {
                repeat {
                    g = SimulatedWear.random(&rng)
                } while (g * g).sum() > 1 || (g * g).sum() < 0.01
            }
            gravity.append(g / (g * g).sum().squareRoot())
            var s = SimulatedWear.random(&rng)
            s /= max((s * s).sum().squareRoot(), 1e-6)
            swing.append(s)
        }
        // A table of standard normal deviates, read at a stride, keeps generation fast.
        for _ in 0..<65_537 {
            noise.append(Float(rng.gaussian()))
        }
    }

    /// A point drawn uniformly from the cube [−1, 1]³.
    static func random(_ rng: inout SeededGenerator) -> SIMD3<Double> {
        let x = Double.random(in: -1...1, using: &rng)
        let y = Double.random(in: -1...1, using: &rng)
        let z = Double.random(in: -1...1, using: &rng)
        return SIMD3(x, y, z)
    }

    /// Whether sample `i` lies in a still segment.
    func isStill(_ i: Int) -> Bool { (Int(Double(i) / rate) / 600) % 2 == 0 }

    /// The true acceleration of sample `i`, in g.
    func truth(_ i: Int) -> SIMD3<Double> {
        let t = Double(i) / rate
        let segment = Int(t / 600)
        let g = gravity[segment]
        let k = (i &* 7919) % (noise.count - 3)
        let e = SIMD3<Double>(Double(noise[k]), Double(noise[k + 1]), Double(noise[k + 2]))
        if isStill(i) { return g + 0.003 * e }
        let arm: Double = 0.3 * sin(2 * Double.pi * 2 * t)
        let moving: SIMD3<Double> = arm * swing[segment]
        return g + moving + 0.03 * e
    }

    /// The raw device output of sample `i`, in g.
    func raw(_ i: Int) -> SIMD3<Float> {
        let r = truth(i) / scale - offset
        return SIMD3(Float(r.x), Float(r.y), Float(r.z))
    }
}

/// Auto-calibration after van Hees et al. 2014 on simulated recordings whose true offsets and
/// scales are known.
@Suite("Motion: auto-calibration")
struct CalibrationTests {
    /// GGIR's stopping rule (the weighted residual, divided by the sum of weights, changes by
    /// less than 1e-10) ends the iterations before machine precision: within 0.3 mg and 0.0003
    /// here, far inside the 10-mg acceptance error.
    @Test("the sphere fit recovers offsets within 0.5 mg and scales within 0.0005 from noiseless points")
    func exactFit() {
        let offset = SIMD3(0.04, -0.025, 0.06), scale = SIMD3(1.03, 0.97, 1.01)
        var rng = SeededGenerator(seed: 3)
        var points = [SIMD3<Double>]()
        for _ in 0..<400 {
            var g = SimulatedWear.random(&rng)
            g /= (g * g).sum().squareRoot()
            points.append(g / scale - offset)
        }
        let fit = AutoCalibration.fit(points)
        #expect(fit.accepted, "\(fit.reason ?? "")")
        for a in 0..<3 {
            #expect(abs(fit.offsetG[a] - offset[a]) < 5e-4, "offset \(a): \(fit.offsetG[a]) vs \(offset[a])")
            #expect(abs(fit.scale[a] - scale[a]) < 5e-4, "scale \(a): \(fit.scale[a]) vs \(scale[a])")
        }
        #expect(fit.errorBeforeG! > 0.02)
        #expect(fit.errorAfterG! < 5e-4)
    }

    /// A week at 10 Hz (6 048 000 samples per axis): offsets (+50, −30, +20) mg, scales (1.02,
    /// 0.98, 1.01). Tolerance: 2 mg per offset, 0.002 per scale (the still windows' 3-mg noise
    /// averages out; moving windows never pass the 13-mg SD criterion).
    @Test("a miscalibrated week: offsets within 2 mg, scales within 0.002, still ENMO near zero after")
    func miscalibratedWeek() {
        let rate = 10.0
        let days = 7.0
        let sim = SimulatedWear(rate: rate, days: days, offset: SIMD3(0.05, -0.03, 0.02), scale: SIMD3(1.02, 0.98, 1.01), seed: 11)
        let count = Int(days * 86_400 * rate)
        let r = GeneratedStream.analyze(count: count, rate: rate, start: 1_700_006_400) { sim.raw($0) }
        let cal = try! #require(r.summary.calibration)
        #expect(cal.accepted, "\(cal.reason ?? "")")
        for a in 0..<3 {
            #expect(abs(cal.offsetG[a] - sim.offset[a]) < 0.002, "offset \(a): \(cal.offsetG[a]) vs \(sim.offset[a])")
            #expect(abs(cal.scale[a] - sim.scale[a]) < 0.002, "scale \(a): \(cal.scale[a]) vs \(sim.scale[a])")
        }
        print(
            "calibration week: windows \(cal.stillWindows), error \(cal.errorBeforeG! * 1000) → \(cal.errorAfterG! * 1000) mg, "
                + "offset \(cal.offsetG * 1000) mg, scale \(cal.scale), iterations \(cal.iterations)")
        #expect(cal.stillWindows > 20_000)
        #expect(cal.errorAfterG! < 0.002 && cal.errorBeforeG! > 0.015, "\(cal.errorBeforeG!) → \(cal.errorAfterG!)")
        // Still epochs: ENMO of the truth is ~0; uncalibrated it is tens of mg on some orientations.
        let still = r.epochs.filter { e in
            let i = Int((e.startSeconds - 1_700_006_400) * rate)
            return e.samples == 50 && sim.isStill(i) && sim.isStill(i + 49)
        }
        let enmo = still.compactMap(\.enmoMilliG).reduce(0, +) / Double(still.count)
        #expect(enmo < 2, "mean still ENMO after calibration \(enmo) mg")
        var off = MotionOptions()
        off.autoCalibrate = false
        let raw = GeneratedStream.analyze(count: 86_400 * 10, rate: rate, start: 1_700_006_400, options: off) { sim.raw($0) }
        let rawStill = raw.epochs.filter { e in
            let i = Int((e.startSeconds - 1_700_006_400) * rate)
            return e.samples == 50 && sim.isStill(i) && sim.isStill(i + 49)
        }
        let rawEnmo = rawStill.compactMap(\.enmoMilliG).reduce(0, +) / Double(rawStill.count)
        print("calibration week: still ENMO \(rawEnmo) mg uncalibrated → \(enmo) mg calibrated")
        #expect(rawEnmo > 5, "mean still ENMO without calibration \(rawEnmo) mg")
        #expect(raw.summary.calibration == nil)
    }

    @Test("a calibrated recording stays as it is: offsets within 2 mg of 0, scales within 0.002 of 1")
    func alreadyCalibrated() {
        let rate = 10.0
        let sim = SimulatedWear(rate: rate, days: 3, offset: .zero, scale: .one, seed: 5)
        let count = 3 * 86_400 * 10
        let r = GeneratedStream.analyze(count: count, rate: rate, start: 1_700_006_400) { sim.raw($0) }
        let cal = try! #require(r.summary.calibration)
        for a in 0..<3 {
            #expect(abs(cal.offsetG[a]) < 0.002, "offset \(a): \(cal.offsetG[a])")
            #expect(abs(cal.scale[a] - 1) < 0.002, "scale \(a): \(cal.scale[a])")
        }
        print(
            "calibration calibrated: accepted \(cal.accepted) \(cal.reason ?? ""), error \(cal.errorBeforeG! * 1000) → "
                + "\((cal.errorAfterG ?? .nan) * 1000) mg, offset \(cal.offsetG * 1000) mg, scale \(cal.scale)")
        #expect(cal.errorBeforeG! < 0.003)
        // Applied or not, the epochs barely move: ENMO within 1 mg of the uncalibrated run.
        var off = MotionOptions()
        off.autoCalibrate = false
        let raw = GeneratedStream.analyze(count: count, rate: rate, start: 1_700_006_400, options: off) { sim.raw($0) }
        #expect(raw.epochs.count == r.epochs.count)
        var largest = 0.0
        for (a, b) in zip(raw.epochs, r.epochs) {
            if let x = a.enmoMilliG, let y = b.enmoMilliG { largest = max(largest, abs(x - y)) }
        }
        print("calibration calibrated: largest ENMO change \(largest) mg")
        #expect(largest < 1, "largest ENMO change \(largest) mg")
    }

    @Test("a phone that only lay flat or on one edge: rejected, saying which axes lack orientations")
    func tooFewOrientations() {
        let rate = 10.0
        let sim = SimulatedWear(
            rate: rate, days: 2, offset: SIMD3(0.03, 0.03, 0.03), scale: .one, seed: 7,
            orientations: [SIMD3(0, 0, 1), SIMD3(0, 0, -1), SIMD3(0, 1, 0)])
        let r = GeneratedStream.analyze(count: 2 * 86_400 * 10, rate: rate, start: 1_700_006_400) { sim.raw($0) }
        let cal = try! #require(r.summary.calibration)
        print("calibration orientations: \(cal.reason ?? "")")
        #expect(!cal.accepted)
        #expect(cal.reason?.contains("do not reach ±300 mg") == true, "\(cal.reason ?? "")")
        #expect(cal.reason?.contains("x ") == true && cal.reason?.contains("z ") == false, "\(cal.reason ?? "")")
        #expect(cal.offsetG == .zero && cal.scale == .one)
    }

    @Test("a recording shorter than 100 s: rejected for too few still windows")
    func tooShort() {
        let r = GeneratedStream.analyze(count: 1000, rate: 10, start: 0) { _ in SIMD3(0, 0, 1) }
        #expect(r.summary.calibration?.accepted == false)
        #expect(r.summary.calibration?.reason?.contains("still 10-s windows") == true)
    }

    @Test("calibrated epochs do not depend on block sizes (spool spilled to its temporary file)")
    func chunked() {
        let rate = 10.0
        let sim = SimulatedWear(rate: rate, days: 2, offset: SIMD3(0.02, 0.01, -0.04), scale: SIMD3(1.01, 1, 0.99), seed: 9)
        let count = 2 * 86_400 * 10
        let whole = GeneratedStream.analyze(count: count, rate: rate, start: 1_700_006_400, blockSizes: [count]) { sim.raw($0) }
        let parts = GeneratedStream.analyze(count: count, rate: rate, start: 1_700_006_400, blockSizes: [4097, 13, 50_000]) {
            sim.raw($0)
        }
        #expect(whole.summary.calibration?.accepted == true)
        #expect(whole.summary == parts.summary)
        #expect(whole.epochs == parts.epochs)
        #expect(whole.days == parts.days)
    }
}

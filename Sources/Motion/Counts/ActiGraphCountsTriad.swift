/// ActiGraph activity counts of three axes at once, block by block: the same algorithm and the
/// same arithmetic as ``ActiGraphCountsAxis`` (Neishabouri et al. 2022, "Quantification of
/// acceleration as activity counts in ActiGraph wearable", Scientific Reports 12:11958,
/// doi:10.1038/s41598-022-16003-x) for the rates 30, 40, …, 100 Hz, with the x, y and z axes in
/// the lanes of one `SIMD4<Double>` (the fourth lane idle) and the whole state held in registers
/// over a block.
///
/// Every lane performs exactly the scalar stage's IEEE operations in the same order (no fused
/// multiply-add, no reassociation), so each axis's 10 Hz values are identical to
/// ``ActiGraphCountsAxis``'s (tested). Two exact rewrites: rounding to 0.001 g half to even uses
/// `(v + 1.5·2⁵²) − 1.5·2⁵²` while every |v| < 2⁵¹ (the result of `rint` for such `v`; larger
/// values take `rounded(.toNearestOrEven)`), and the dead-banded value, an integer in 0…128 after
/// the truncation, is accumulated as an integer (the scalar stage sums the same integers in
/// `Double`, exactly).
///
/// - Complexity: O(L) per input sample (L the upsampling factor, 1 or 3), no allocation once the
///   output buffer has grown to the largest block.
struct ActiGraphCountsTriad: Sendable {
    let up: Int
    let down: Int
    let lowPass: Bool
    private let aUp: Double
    private let b: Double

    private var phase = 0
    private var previousUp = SIMD4<Double>.zero
    private var previousLow = SIMD4<Double>.zero
    private var bandPass = ActiGraphBandPass<SIMD4<Double>>()
    private var triad = SIMD4<Int32>.zero
    private var triadCount = 0

    /// The 10 Hz values of the last ``process(x:y:z:)`` call: x, y, z (fourth lane unused).
    private(set) var output: [SIMD4<Int32>] = []
    /// How many of ``output`` the last call produced.
    private(set) var outputCount = 0

    /// Creates the stage for input at `sampleRate` Hz, one of 30, 40, …, 100 (else `nil`).
    init?(sampleRate: Int) {
        guard let f = ActiGraphCountsAxis.factors(sampleRate: sampleRate) else { return nil }
        up = f.up
        down = f.down
        lowPass = !(sampleRate == 30 || sampleRate == 60 || sampleRate == 90)
        let a = Double.pi / (Double.pi + 2 * Double(f.up))
        b = (Double.pi - 2 * Double(f.up)) / (Double.pi + 2 * Double(f.up))
        aUp = a * Double(f.up)
    }

    /// Starts a new segment (a gap: nothing is carried across).
    mutating func reset() {
        phase = 0
        previousUp = .zero
        previousLow = .zero
        bandPass = ActiGraphBandPass()
        triad = .zero
        triadCount = 0
    }

    /// Feeds the next samples of the three axes (g, equal counts); the 10 Hz values they complete
    /// are in ``output``'s first ``outputCount`` elements, in order.
    /// - Complexity: O(count · L).
    mutating func process(x: UnsafeBufferPointer<Float>, y: UnsafeBufferPointer<Float>, z: UnsafeBufferPointer<Float>) {
        let n = x.count
        outputCount = 0
        guard n > 0 else { return }
        let capacity = n * up / down / 3 + 3
        if output.count < capacity { output = [SIMD4<Int32>](repeating: .zero, count: capacity) }
        var s = State(self)
        let produced = output.withUnsafeMutableBufferPointer { out in
            s.run(x: x, y: y, z: z, count: n, into: out.baseAddress!)
        }
        s.store(into: &self)
        outputCount = produced
    }

    /// The state as locals, so that the loop keeps it in registers.
    private struct State {
        let up: Int, down: Int, lowPass: Bool, aUp: SIMD4<Double>, b: SIMD4<Double>
        var phase: Int
        var previousUp: SIMD4<Double>, previousLow: SIMD4<Double>
        var bandPass: ActiGraphBandPass<SIMD4<Double>>
        var triad: SIMD4<Int32>
        var triadCount: Int

        init(_ t: ActiGraphCountsTriad) {
            up = t.up
            down = t.down
            lowPass = t.lowPass
            aUp = SIMD4(repeating: t.aUp)
            b = SIMD4(repeating: t.b)
            phase = t.phase
            previousUp = t.previousUp
            previousLow = t.previousLow
            bandPass = t.bandPass
            triad = t.triad
            triadCount = t.triadCount
        }

        func store(into t: inout ActiGraphCountsTriad) {
            t.phase = phase
            t.previousUp = previousUp
            t.previousLow = previousLow
            t.bandPass = bandPass
            t.triad = triad
            t.triadCount = triadCount
        }

        mutating func run(
            x: UnsafeBufferPointer<Float>, y: UnsafeBufferPointer<Float>, z: UnsafeBufferPointer<Float>, count n: Int,
            into out: UnsafeMutablePointer<SIMD4<Int32>>
        ) -> Int {
            var produced = 0
            let zero = SIMD4<Double>.zero
            for i in 0..<n {
                let input = SIMD4<Double>(Double(x[i]), Double(y[i]), Double(z[i]), 0)
                for p in 0..<up {
                    let u = p == 0 ? input : zero
                    let v: SIMD4<Double>
                    if lowPass {
                        v = aUp * (u + previousUp) - b * previousLow
                        previousUp = u
                        previousLow = v
                    } else {
                        v = u
                    }
                    if phase == 0, push30(Self.roundMilli(v), into: out + produced) { produced += 1 }
                    phase += 1
                    if phase == down { phase = 0 }
                }
            }
            return produced
        }

        /// `(v · 1000).rounded(.toNearestOrEven) / 1000` per lane.
        @inline(__always)
        static func roundMilli(_ v: SIMD4<Double>) -> SIMD4<Double> {
            let w = v * 1000
            let limit = 0x1p51
            let r: SIMD4<Double>
            if abs(w.x) < limit && abs(w.y) < limit && abs(w.z) < limit && abs(w.w) < limit {
                let magic = SIMD4<Double>(repeating: 0x1.8p52)
                r = (w + magic) - magic
            } else {
                r = SIMD4(
                    w.x.rounded(.toNearestOrEven), w.y.rounded(.toNearestOrEven), w.z.rounded(.toNearestOrEven),
                    w.w.rounded(.toNearestOrEven))
            }
            return r / 1000
        }

        /// The dead-band and saturation of one value: |v| < 4 → 0, |v| > 128 → 128, integer part.
        @inline(__always)
        static func deadBand(_ g: Double) -> Int32 {
            var v = abs(g)
            if v < 4 { v = 0 } else if v > 128 { v = 128 }
            return Int32(v)
        }

        /// One 30 Hz value of each axis through the band-pass, dead-band and 10 Hz
        /// accumulation; writes the 10 Hz value to `slot` and returns `true` when one completes.
        @inline(__always)
        mutating func push30(_ x: SIMD4<Double>, into slot: UnsafeMutablePointer<SIMD4<Int32>>) -> Bool {
            let y = bandPass.step(x)
            let g = y * ActiGraphCountsAxis.gain
            triad &+= SIMD4<Int32>(Self.deadBand(g.x), Self.deadBand(g.y), Self.deadBand(g.z), 0)
            triadCount += 1
            guard triadCount == 3 else { return false }
            slot.pointee = triad / 3
            triad = .zero
            triadCount = 0
            return true
        }
    }
}

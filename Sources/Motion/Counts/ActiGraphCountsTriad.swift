/// ActiGraph activity counts of three axes at once, block by block: the same algorithm and the
/// same arithmetic as ``ActiGraphCountsAxis`` (Neishabouri et al. 2022, "Quantification of
/// acceleration as activity counts in ActiGraph wearable", Scientific Reports 12:11958,
/// doi:10.1038/s41598-022-16003-x) for the rates 30, 40, …, 100 Hz, with the x, y and z axes in
/// the lanes of one `SIMD4<Double>` (the fourth lane idle). Each chunk of 256 input samples goes
/// through two loops, the resampler (upsampling and low-pass) and then the band-pass with the
/// 10 Hz accumulation, each with its state in registers.
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
///   output buffer has grown to the largest block (plus one chunk's 30 Hz values, 24 kB).
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
        if thirty.count < Self.chunk * up { thirty = [SIMD4<Double>](repeating: .zero, count: Self.chunk * up) }
        var s = State(self)
        var produced = 0
        output.withUnsafeMutableBufferPointer { out in
            thirty.withUnsafeMutableBufferPointer { buffer in
                var start = 0
                while start < n {
                    let end = min(n, start + Self.chunk)
                    let m = s.resample(x: x, y: y, z: z, start..<end, into: buffer.baseAddress!)
                    produced += s.bandPass(buffer.baseAddress!, count: m, into: out.baseAddress! + produced)
                    start = end
                }
            }
        }
        s.store(into: &self)
        outputCount = produced
    }

    /// Input samples per chunk: the chunk's 30 Hz values (at most `chunk · up`, 24 kB) stay in
    /// the L1 cache between the two stages.
    static let chunk = 256
    /// The 30 Hz values of one chunk, between the resampler and the band-pass.
    private var thirty: [SIMD4<Double>] = []

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

        /// The resampler: the chunk `range` of the input upsampled by `up` (zeros inserted),
        /// low-passed (`lowPass`), every `down`-th value rounded to 0.001 g into `thirty`.
        /// Returns how many 30 Hz values it wrote.
        ///
        /// The state is copied into locals for the loop and stored back after it (so that the
        /// low-pass recursion stays in registers instead of a store and reload per step), and the
        /// band-pass runs as a second loop over the chunk's 30 Hz values, so that the two
        /// recursions do not compete for the sixteen vector registers. Same operations in the same
        /// order as one loop over both stages; `up == 3` (40, 50, 70, 80, 100 Hz) is unrolled.
        mutating func resample(
            x: UnsafeBufferPointer<Float>, y: UnsafeBufferPointer<Float>, z: UnsafeBufferPointer<Float>,
            _ range: Range<Int>, into thirty: UnsafeMutablePointer<SIMD4<Double>>
        ) -> Int {
            let zero = SIMD4<Double>.zero
            let down = self.down, aUp = self.aUp, b = self.b
            var phase = self.phase, m = 0
            var previousUp = self.previousUp, previousLow = self.previousLow
            @inline(__always) func emit(_ v: SIMD4<Double>) {
                if phase == 0 {
                    thirty[m] = Self.roundMilli(v)
                    m += 1
                }
                phase += 1
                if phase == down { phase = 0 }
            }
            if lowPass && up == 3 {
                for i in range {
                    let input = SIMD4<Double>(Double(x[i]), Double(y[i]), Double(z[i]), 0)
                    var v = aUp * (input + previousUp) - b * previousLow
                    previousUp = input
                    previousLow = v
                    emit(v)
                    v = aUp * (zero + previousUp) - b * previousLow
                    previousUp = zero
                    previousLow = v
                    emit(v)
                    v = aUp * (zero + previousUp) - b * previousLow
                    previousLow = v
                    emit(v)
                }
            } else {
                for i in range {
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
                        emit(v)
                    }
                }
            }
            self.phase = phase
            self.previousUp = previousUp
            self.previousLow = previousLow
            return m
        }

        /// The band-pass, dead-band and 10 Hz accumulation of `count` 30 Hz values; writes the
        /// completed 10 Hz values to `out` and returns how many.
        mutating func bandPass(
            _ thirty: UnsafePointer<SIMD4<Double>>, count: Int, into out: UnsafeMutablePointer<SIMD4<Int32>>
        ) -> Int {
            var filter = bandPass, triad = self.triad, triadCount = self.triadCount
            var produced = 0
            for j in 0..<count {
                let g = filter.step(thirty[j]) * ActiGraphCountsAxis.gain
                triad &+= SIMD4<Int32>(Self.deadBand(g.x), Self.deadBand(g.y), Self.deadBand(g.z), 0)
                triadCount += 1
                if triadCount == 3 {
                    out[produced] = triad / 3
                    produced += 1
                    triad = .zero
                    triadCount = 0
                }
            }
            bandPass = filter
            self.triad = triad
            self.triadCount = triadCount
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
    }
}

import Foundation
import Testing

@testable import Cardio

/// The streaming 250 Hz grid and wavelet transform the delineator shares across beats
/// (``WaveGrid``, ``QuadraticSplineWavelet``): the same values whatever the block sizes, the
/// transform against a direct à-trous implementation written here (Martínez et al. 2004, eq. of
/// the filter bank with `h = [1, 3, 3, 1]/8`, `g = [2, −2]`), and the window-edge rule.
@Suite("WaveGrid: one streaming resampler and wavelet transform per lead")
struct WaveGridTests {
    /// A direct, whole-array à-trous transform in Double with the first sample repeated before
    /// the start: W_{2^k}[n] = 2·(s_{k−1}[n] − s_{k−1}[n − 2^(k−1)]),
    /// s_k[n] = (s_{k−1}[n] + 3 s_{k−1}[n − d] + 3 s_{k−1}[n − 2d] + s_{k−1}[n − 3d]) / 8.
    static func reference(_ x: [Float]) -> [[Double]] {
        var s = x.map(Double.init)
        var out = [[Double]]()
        for k in 1...5 {
            let d = 1 << (k - 1)
            func at(_ i: Int) -> Double { s[max(i, 0)] }
            out.append(s.indices.map { 2 * (at($0) - at($0 - d)) })
            s = s.indices.map { (at($0) + 3 * at($0 - d) + 3 * at($0 - 2 * d) + at($0 - 3 * d)) / 8 }
        }
        return out
    }

    /// An ECG-like test signal: a 1.1 Hz train of narrow peaks on a slow wave and a little noise.
    static func signal(count: Int, rate: Double) -> [Float] {
        var state: UInt64 = 12345
        return (0..<count).map { i in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let t = Double(i) / rate
            let phase = (t * 1.1).truncatingRemainder(dividingBy: 1)
            let peak = exp(-0.5 * pow((phase - 0.5) / 0.012, 2))
            return Float(peak + 0.2 * sin(2 * .pi * 0.3 * t) + 0.01 * Double(Int64(bitPattern: state) >> 40) / Double(1 << 23))
        }
    }

    @Test("the streaming transform equals a direct à-trous transform and does not depend on the block sizes")
    func transformChunked() throws {
        let x = Self.signal(count: 3001, rate: 250)
        let ref = Self.reference(x)
        var blocks: [[Int]] = [[x.count], Array(repeating: 1, count: x.count)]
        for size in [3, 7, 97, 1000] { blocks.append(Array(repeating: size, count: x.count / size) + [x.count % size]) }
        blocks.append([5, 1, 250, 13, 2000, 732])
        var first: QuadraticSplineWavelet.Scales?
        for sizes in blocks {
            var t = QuadraticSplineWavelet()
            t.restart(at: x[0])
            var out = QuadraticSplineWavelet.Scales()
            var at = 0
            x.withUnsafeBufferPointer { xp in
                for n in sizes where n > 0 {
                    t.append(UnsafeBufferPointer(rebasing: xp[at..<at + n]), to: &out)
                    at += n
                }
            }
            #expect(at == x.count)
            #expect(out.w2.count == x.count && out.w4.count == x.count && out.w5.count == x.count)
            if let f = first {
                #expect(out.w2 == f.w2 && out.w4 == f.w4 && out.w5 == f.w5, "blocks \(sizes.prefix(3))…")
            } else {
                first = out
            }
            for (k, w) in [(2, out.w2), (4, out.w4), (5, out.w5)] {
                let worst = zip(w, ref[k - 1]).map { abs(Double($0) - $1) }.max() ?? 0
                #expect(worst < 1e-5, "scale 2^\(k): largest difference \(worst)")
            }
        }
    }

    /// The grid and scales of `x` fed in blocks of `size` (the last block shorter).
    static func grid(_ x: [Float], rate: Double, size: Int) -> WaveGrid {
        var g = WaveGrid(sampleRate: rate)
        var at = 0
        x.withUnsafeBufferPointer { xp in
            while at < x.count {
                let n = min(size, x.count - at)
                g.append(UnsafeBufferPointer(rebasing: xp[at..<at + n]))
                at += n
            }
        }
        g.extend(to: Int(Double(x.count) / rate * 250) + 10)
        return g
    }

    @Test("the grid and its scales do not depend on the block sizes (512 and 250 Hz, masked stretches)", arguments: [512.0, 250.0, 130.0])
    func gridChunked(rate: Double) {
        var x = Self.signal(count: Int(20 * rate), rate: rate)
        for i in Int(5 * rate)..<Int(5.3 * rate) { x[i] = .nan }
        x[Int(12 * rate)] = .nan
        let whole = Self.grid(x, rate: rate, size: x.count)
        #expect(whole.produced >= Int(20 * 250) - 2)
        for size in [1, 7, 97, 1000] {
            let g = Self.grid(x, rate: rate, size: size)
            #expect(g.produced == whole.produced, "\(size)")
            #expect(g.x.elementsEqual(whole.x) { $0 == $1 || ($0.isNaN && $1.isNaN) }, "grid, blocks of \(size)")
            #expect(
                g.scales.w2 == whole.scales.w2 && g.scales.w4 == whole.scales.w4 && g.scales.w5 == whole.scales.w5,
                "scales, blocks of \(size)")
        }
    }

    @Test("a 512 Hz lead on the grid: grid sample j is the lead at j/250 s")
    func resampledTimes() {
        let rate = 512.0
        let x = (0..<Int(10 * rate)).map { Float(sin(2 * .pi * 3 * Double($0) / rate)) }
        let g = Self.grid(x, rate: rate, size: 4096)
        var worst: Float = 0
        for j in 10..<2400 {
            worst = max(worst, abs(g.x[j] - Float(sin(2 * .pi * 3 * Double(j) / 250))))
        }
        // Linear interpolation between samples 2 ms apart and a 3-sample average: well under 1 %.
        #expect(worst < 0.005, "largest difference \(worst)")
    }

    @Test(
        "window edges: a window read from the shared grid has the scales of that window transformed alone past its first 61 positions, and everywhere after a masked stretch"
    )
    func windowEdges() {
        let x = Self.signal(count: 4000, rate: 250)
        let g = Self.grid(x, rate: 250, size: 333)
        var window = [Float](repeating: 0, count: WaveDelineator.length)
        var scales = QuadraticSplineWavelet.Scales(count: WaveDelineator.length)
        let valid = g.window(from: 1500, centre: WaveDelineator.beatIndex, into: &window, scales: &scales)
        #expect(valid == 0..<WaveDelineator.length)
        let alone = QuadraticSplineWavelet.transform(Array(x[1500..<1500 + WaveDelineator.length]))
        // Scale 2^5's filters reach back 3·(1 + 2 + 4 + 8) + 16 = 61 samples.
        #expect(Array(scales.w2[61...]) == Array(alone.w2[61...]))
        #expect(Array(scales.w4[61...]) == Array(alone.w4[61...]))
        #expect(Array(scales.w5[61...]) == Array(alone.w5[61...]))

        // Masked samples before the beat: the stretch restarts at its first value, as the
        // window cut there (its first valid value repeated before it) does.
        var y = x
        for i in 1600..<1650 { y[i] = .nan }
        let h = Self.grid(y, rate: 250, size: 61)
        let v = h.window(from: 1500, centre: WaveDelineator.beatIndex, into: &window, scales: &scales)
        #expect(v == 150..<WaveDelineator.length)
        var padded = Array(y[1500..<1500 + WaveDelineator.length])
        for i in 0..<150 { padded[i] = padded[150] }
        let cut = QuadraticSplineWavelet.transform(padded)
        #expect(scales.w2 == cut.w2 && scales.w4 == cut.w4 && scales.w5 == cut.w5)
    }
}

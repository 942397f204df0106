import Signals
import Testing

@testable import Motion

/// The clock-grid regulariser's fast paths (grid times from a table, the usual interval without
/// a loop) against the plain formula: same grid values, bit for bit.
@Suite struct RegularizerTests {
    /// Collects the grid values by grid index.
    struct Collector: GridConsumer {
        var values: [Int: (Float, Float, Float)] = [:]
        var repeated = 0
        var runs = 0

        mutating func consume(
            firstIndex: Int, x: UnsafeBufferPointer<Float>, y: UnsafeBufferPointer<Float>, z: UnsafeBufferPointer<Float>
        ) {
            for i in 0..<x.count where values.updateValue((x[i], y[i], z[i]), forKey: firstIndex + i) != nil {
                repeated += 1
            }
        }

        mutating func endRun() { runs += 1 }
    }

    /// A small deterministic generator (64-bit LCG, top 53 bits).
    struct Uniform {
        var state: UInt64
        mutating func next() -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(state >> 11) / Double(1 << 53)
        }
    }

    @Test func gridTimesTableIsTheCorrectlyRoundedQuotient() {
        var u = Uniform(state: 7)
        for rate in 2...1024 {
            let g = GridTimes(sampleRate: Double(rate))!
            #expect(g.fractions.count == rate + 1 && g.fractions[rate] == 1)
            for _ in 0..<200 {
                let lower = Double(GridTimes.exact.lowerBound), upper = Double(GridTimes.exact.upperBound)
                let k = Int(lower * Double(rate) + u.next() * (upper - lower) * Double(rate))
                let (q, r) = g.divide(k)
                #expect(q * rate + r == k && r >= 0 && r < rate)
                guard GridTimes.exact.contains(q) else { continue }
                let fromTable = Double(q) + g.fractions[r]
                #expect(fromTable == Double(k) / Double(rate), "rate \(rate), k \(k)")
                let nextFromTable = Double(q) + g.fractions[r + 1]
                #expect(nextFromTable == Double(k + 1) / Double(rate), "rate \(rate), k + 1 = \(k + 1)")
            }
        }
        #expect(GridTimes(sampleRate: 50.5) == nil && GridTimes(sampleRate: 2048) == nil)
    }

    /// Jittered 50 Hz unix times (0, 1 or 2 grid points per interval), missing samples, a few
    /// samples on grid points, one gap: every grid value equals the plain interpolation.
    @Test(arguments: [1_700_000_000.0, 1_000.0])
    func gridValuesMatchThePlainInterpolation(start: Double) {
        let rate = 50.0
        var u = Uniform(state: 11)
        var times: [Double] = [], x: [Float] = [], y: [Float] = [], z: [Float] = []
        for i in 0..<40_000 {
            if u.next() < 0.01 { continue }
            let jitter = u.next() < 0.02 ? 0 : (u.next() - 0.5) * 0.012
            let gap = i >= 20_000 ? 3.0 : 0
            times.append(start + Double(i) / rate + jitter + gap)
            x.append(Float(u.next() - 0.5))
            y.append(Float(u.next() * 2))
            z.append(Float(-u.next()))
        }
        var regularizer = ClockGridRegularizer(sampleRate: rate)
        var collector = Collector()
        var begin = 0
        while begin < times.count {
            let end = min(times.count, begin + 4_099)
            let block = SampleBlock(
                stream: 0, segment: 0, firstSample: begin, time: .explicit(Array(times[begin..<end])),
                columns: [Array(x[begin..<end]), Array(y[begin..<end]), Array(z[begin..<end])],
                flags: [UInt8](repeating: 0, count: end - begin), endsSegment: false)
            regularizer.process(block, scale: 1, into: &collector)
            begin = end
        }
        regularizer.finish(into: &collector)

        // The plain formula: every grid point up to each sample (within 0.001 of a grid
        // interval), the sample itself on a grid point, else the linear interpolation.
        var expected: [Int: (Float, Float, Float)] = [:]
        var interpolated = 0
        var next = Int((times[0] * rate - 1e-3).rounded(.up))
        if abs(Double(next) - times[0] * rate) <= 1e-3 {
            expected[next] = (x[0], y[0], z[0])
            next += 1
        }
        for i in 1..<times.count {
            let (t, p) = (times[i], times[i - 1])
            if t - p > ClockGridRegularizer.maximumInterpolationGapSeconds {
                next = Int((t * rate - 1e-3).rounded(.up))
                if abs(Double(next) - t * rate) <= 1e-3 {
                    expected[next] = (x[i], y[i], z[i])
                    next += 1
                }
                continue
            }
            while t * rate - Double(next) >= -1e-3 {
                if t * rate - Double(next) <= 1e-3 {
                    expected[next] = (x[i], y[i], z[i])
                } else {
                    let w = Float((Double(next) / rate - p) / (t - p))
                    expected[next] = (
                        x[i - 1] + (x[i] - x[i - 1]) * w, y[i - 1] + (y[i] - y[i - 1]) * w, z[i - 1] + (z[i] - z[i - 1]) * w
                    )
                    interpolated += 1
                }
                next += 1
            }
        }
        let got = collector.values
        #expect(collector.repeated == 0)
        #expect(got.count == expected.count)
        #expect(regularizer.interpolatedSamples == interpolated)
        var differences = 0
        for (index, e) in expected {
            guard let g = got[index] else {
                differences += 1
                continue
            }
            if g.0.bitPattern != e.0.bitPattern || g.1.bitPattern != e.1.bitPattern || g.2.bitPattern != e.2.bitPattern {
                differences += 1
            }
        }
        #expect(differences == 0)
        #expect(collector.runs >= 1)
    }
}

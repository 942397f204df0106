import DSP
import Foundation
import Testing
import _TestSupport

@testable import Cardio

/// The streaming Welch path (spline evaluated chunk by chunk, chirp z-transform per chunk) against
/// the whole-series path it replaced (`LegacyChirpZWelch` on the materialised resampled series).
@Suite("HRV Welch, streaming")
struct HRVWelchStreamingTests {
    /// Deterministic NN intervals (ms) over `hours`: slow drift, LF/HF modulation, AR(1), noise.
    static func nn(hours: Double, seed: UInt64) -> [Double] {
        var rng = SeededGenerator(seed: seed)
        var out = [Double]()
        var t = 0.0, walk = 0.0
        while t < hours * 3600 {
            walk = 0.995 * walk + Double.random(in: -5...5, using: &rng)
            let v =
                850 + 120 * cos(2 * Double.pi * t / 20_000) + 30 * sin(2 * Double.pi * 0.1 * t)
                + 20 * sin(2 * Double.pi * 0.27 * t) + walk + Double.random(in: -10...10, using: &rng)
            out.append(v)
            t += v / 1000
        }
        return out
    }

    /// The pre-streaming pipeline: whole resampled series, mean removed, whole-block chirp-z.
    static func legacySpectrum(_ series: NNIntervalSeries, rate: Double)
        -> (frequencies: [Double], power: [Double], minimum: Double)
    {
        let r = HRVFrequencyDomain.Resampled(series, rate: rate)
        var x = [Double](repeating: 0, count: r.count)
        x.withUnsafeMutableBufferPointer { r.spline.evaluate(start: r.start, step: r.delta, count: r.count, into: $0.baseAddress!) }
        var sum = 0.0
        for v in x { sum += v }
        let mean = sum / Double(x.count)
        for i in x.indices { x[i] -= mean }
        let half = Double(x.count) / 2
        let minimum = (2 * rate) / half
        var segment = Int((2 / minimum) * rate)
        if Double(segment) > half { segment = Int(half) }
        let psd = LegacyChirpZWelch.psd(
            x, segmentLength: segment, fftLength: 2 * segment, sampleRate: rate,
            maximumFrequency: 0.5)
        var f = [Double](), p = [Double]()
        for k in psd.frequencies.indices where psd.frequencies[k] >= minimum {
            f.append(psd.frequencies[k]); p.append(psd.power[k])
        }
        return (f, p, minimum)
    }

    /// Largest relative difference over the ten metrics (NaN must match NaN).
    static func worstMetric(_ a: HRVFrequencyDomain, _ b: HRVFrequencyDomain) -> Double {
        var worst = 0.0
        for name in HRVFrequencyDomain.metricNames {
            let x = a.metrics[HRVMetric(rawValue: name)!]!, y = b.metrics[HRVMetric(rawValue: name)!]!
            if x.isNaN || y.isNaN { if x.isNaN != y.isNaN { worst = .infinity }; continue }
            worst = max(worst, abs(x - y) / max(abs(y), .leastNormalMagnitude))
        }
        return worst
    }

    /// Two hours of beats (720 k resampled points, 3 600 bins): the default chunking (several
    /// chunks per block) and two odd chunk lengths, against the whole-series path, every metric
    /// to 1e-12 relative and the PSD to 1e-12 of its peak; the frequency grid identical.
    @Test("streaming Welch equals the whole-series path", arguments: [(2.0, UInt64(7)), (1.3, UInt64(8))])
    func equalsWholeSeries(_ hours: Double, _ seed: UInt64) throws {
        let series = try NNIntervalSeries(intervalsMilliseconds: Self.nn(hours: hours, seed: seed))
        let bands = HRVFrequencyOptions().bands
        let legacy = Self.legacySpectrum(series, rate: 100)
        let reference = HRVFrequencyDomain(spectrum: legacy, bands: bands)
        let viaPublic = try HRVFrequencyDomain(series)
        #expect(Self.worstMetric(viaPublic, reference) <= 1e-12)
        for chunk in [nil, 9_999, 40_001] as [Int?] {
            let s = try HRVFrequencyDomain.welchSpectrum(series, rate: 100, maximumFrequency: 0.5, chunkLength: chunk)
            #expect(s.frequencies.count == legacy.frequencies.count)
            #expect(Compare.maxRelativeError(s.frequencies, legacy.frequencies) == 0)
            #expect(Compare.maxErrorRelativeToPeak(s.power, legacy.power) <= 1e-12)
            #expect(Self.worstMetric(HRVFrequencyDomain(spectrum: s, bands: bands), reference) <= 1e-12)
        }
    }

    /// The kept resampled series (up to 2^20 points) and the spline evaluated chunk by chunk
    /// (`cacheLimit: 0`, the path of longer series) give the same bits, with and without odd
    /// chunk lengths.
    @Test("kept resampled series equals the chunk-by-chunk spline bit for bit")
    func keptSeries() throws {
        let series = try NNIntervalSeries(intervalsMilliseconds: Self.nn(hours: 1.1, seed: 5))
        for chunk in [nil, 9_999] as [Int?] {
            let kept = try HRVFrequencyDomain.welchSpectrum(series, rate: 100, maximumFrequency: 0.5, chunkLength: chunk)
            let streamed = try HRVFrequencyDomain.welchSpectrum(
                series, rate: 100, maximumFrequency: 0.5, chunkLength: chunk, cacheLimit: 0)
            #expect(kept.frequencies.map(\.bitPattern) == streamed.frequencies.map(\.bitPattern))
            #expect(kept.power.map(\.bitPattern) == streamed.power.map(\.bitPattern))
            #expect(kept.minimum.bitPattern == streamed.minimum.bitPattern)
        }
    }

    /// The array entry point with chunks of every kind (one sample, odd, a whole block) against
    /// the whole-block legacy transform, odd and even segment lengths.
    @Test("chunked chirp-z equals whole-block chirp-z", arguments: [2_001, 2_000, 777])
    func chunked(_ segment: Int) {
        var rng = SeededGenerator(seed: UInt64(segment) + 99)
        let count = 2 * segment + 37
        var x = [Double](repeating: 0, count: count)
        for i in 0..<count {
            let t = Double(i) / 100
            x[i] =
                40 * sin(2 * Double.pi * 0.1 * t) + 20 * sin(2 * Double.pi * 0.27 * t)
                + Double.random(in: -5...5, using: &rng)
        }
        let whole = LegacyChirpZWelch.psd(
            x, segmentLength: segment, fftLength: 2 * segment, sampleRate: 100,
            maximumFrequency: 0.5)
        for chunk in [nil, 1, 37, 250, 1_000, 100_000] as [Int?] {
            let fast = ChirpZWelch.psd(
                x, segmentLength: segment, fftLength: 2 * segment, sampleRate: 100,
                maximumFrequency: 0.5, chunkLength: chunk)
            #expect(fast.power.count == whole.power.count)
            #expect(Compare.maxErrorRelativeToPeak(fast.power, whole.power) <= 1e-12)
        }
    }

    /// Evaluating the spline on windows of the grid gives the same bits as one pass.
    @Test("windowed spline evaluation is bit-identical")
    func windowedSpline() throws {
        let series = try NNIntervalSeries(intervalsMilliseconds: Self.nn(hours: 0.2, seed: 3))
        let r = HRVFrequencyDomain.Resampled(series, rate: 100)
        // Extend the grid a little on both sides of the sites to cover the end values.
        let start = r.start - 0.5, extra = 150
        let total = r.count + extra
        var whole = [Double](repeating: 0, count: total)
        whole.withUnsafeMutableBufferPointer { r.spline.evaluate(start: start, step: r.delta, count: total, into: $0.baseAddress!) }
        var rng = SeededGenerator(seed: 11)
        var pieces = [Double](repeating: 0, count: total)
        var first = 0
        pieces.withUnsafeMutableBufferPointer { out in
            for n in rng.blockSizes(total: total, maxBlock: 3_000) {
                r.spline.evaluate(start: start, step: r.delta, firstIndex: first, count: n, into: out.baseAddress! + first)
                first += n
            }
        }
        var mismatches = 0
        for i in 0..<total where whole[i].bitPattern != pieces[i].bitPattern { mismatches += 1 }
        #expect(first == total)
        #expect(mismatches == 0)
    }
}

import Foundation
import Pipeline
import Signals
import Testing

@testable import Rhythm

/// PPG pulse timing at the upstroke's middle (``RhythmStream/upstrokeMiddle(samples:peak:previous:)``).
@Suite("Rhythm: PPG pulses timed at the upstroke's middle, chunked = whole")
struct PPGPulseTimingTests {
    static let rate = 100.0

    /// A synthetic pulse wave at ``rate``: per pulse onset `o` (s), flat at 0 until `o`, a linear
    /// rise to 1 over `rise` s, a blunt top (1 for 0.1 s), then a linear fall to 0 over 0.3 s.
    static func wave(onsets: [Double], rise: Double, seconds: Double) -> [Float] {
        (0..<Int(seconds * rate)).map { i in
            let t = Double(i) / rate
            var v = 0.0
            for o in onsets where t >= o && t < o + rise + 0.4 {
                v = t < o + rise ? (t - o) / rise : t < o + rise + 0.1 ? 1 : 1 - (t - o - rise - 0.1) / 0.3
            }
            return Float(v)
        }
    }

    static func ring(_ x: [Float], firstSample: Int = 0) -> SampleRing {
        var ring = SampleRing()
        ring.sampleRate = rate
        ring.append(
            SampleBlock(
                stream: 0, segment: 0, firstSample: firstSample, time: .uniform(segmentStart: 0, sampleRate: rate), columns: [x],
                flags: [UInt8](repeating: 0, count: x.count), endsSegment: true))
        return ring
    }

    @Test("the half-amplitude crossing of a linear upstroke, between samples")
    func halfCrossing() throws {
        // Onset 0.5 s, rise 0.23 s: the peak sample is at 0.73 s and the crossing of 0.5 lies at
        // 0.5 + 0.115 = 0.615 s (the line's own half point), between samples 61 and 62.
        let x = Self.wave(onsets: [0.5], rise: 0.23, seconds: 2)
        let t = try #require(RhythmStream.upstrokeMiddle(samples: Self.ring(x), peak: 0.73, previous: nil))
        #expect(abs(t - 0.615) < 1e-6, "\(t)")
        // The foot search starts at the previous pulse: a previous pulse after the onset moves
        // the foot up the rise, and with it the crossing (half-way from there to the peak).
        let late = try #require(RhythmStream.upstrokeMiddle(samples: Self.ring(x), peak: 0.73, previous: 0.6))
        #expect(late > 0.615 && late < 0.73, "\(late)")
        // No rise: no time (the peak time is kept).
        let flat = [Float](repeating: 0, count: 200)
        #expect(RhythmStream.upstrokeMiddle(samples: Self.ring(flat), peak: 0.73, previous: nil) == nil)
        // A masked sample in the span: no time.
        var ring = SampleRing()
        ring.sampleRate = Self.rate
        var flags = [UInt8](repeating: 0, count: x.count)
        flags[60] = SampleFlags.maskingFlags.rawValue
        ring.append(
            SampleBlock(
                stream: 0, segment: 0, firstSample: 0, time: .uniform(segmentStart: 0, sampleRate: Self.rate), columns: [x],
                flags: flags, endsSegment: true))
        #expect(RhythmStream.upstrokeMiddle(samples: ring, peak: 0.73, previous: nil) == nil)
    }

    /// The family on a 200-s PPG stream whose pulses start every 0.8 s (regular upstrokes) but are
    /// published anywhere on their 0.1-s blunt top (a blunt peak's detection jitter, up to 80 ms).
    func run(blockSeconds: Double) throws -> RhythmRows {
        let onsets = (0..<250).map { 0.5 + 0.8 * Double($0) }
        let x = Self.wave(onsets: onsets, rise: 0.15, seconds: 200)
        var seed: UInt64 = 7
        let peaks = onsets.map { o -> Double in
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let jitter = Double(seed >> 11) / Double(1 << 53) * 0.08
            return ((o + 0.15 + jitter) * Self.rate).rounded() / Self.rate
        }
        var analyzer = RhythmFamily.makeAnalyzer(options: RhythmOptions())
        let info = StreamInfo(
            key: StreamKey(deviceID: "finger", sensor: .photoplethysmogram, channel: "pleth"),
            columns: [ColumnInfo(name: "pleth", unit: .dimensionless)], nominalSampleRate: Self.rate, role: .optical)
        let claimed = analyzer.claim(AnnouncedStream(index: 0, info: info, file: "x"))
        #expect(claimed)
        let series = DerivedSeries(
            source: "ppg", name: "pulses", summary: "", isEventSeries: true,
            attributes: [.label("quality", values: ["good", "acceptable", "unacceptable"], "")])
        let out = RhythmRows()
        let perBlock = max(1, Int(blockSeconds * Self.rate))
        var first = 0, next = 0
        while first < x.count {
            let n = min(perBlock, x.count - first)
            try analyzer.consume(
                SampleBlock(
                    stream: 0, segment: 0, firstSample: first, time: .uniform(segmentStart: 0, sampleRate: Self.rate),
                    columns: [Array(x[first..<(first + n)])], flags: [UInt8](repeating: 0, count: n), endsSegment: first + n == x.count),
                output: out)
            // Pulses are published a few seconds after their samples.
            while next < peaks.count && peaks[next] < Double(first + n) / Self.rate - 3 {
                let e = DerivedEvent(series: "ppg_pulses", stream: info.key.description, time: peaks[next], values: [.label("good")])
                try analyzer.consume(derived: e, series: series, output: out)
                next += 1
            }
            first += n
        }
        for t in peaks[next...] {
            let e = DerivedEvent(series: "ppg_pulses", stream: info.key.description, time: t, values: [.label("good")])
            try analyzer.consume(derived: e, series: series, output: out)
        }
        try analyzer.finish(output: out)
        return out
    }

    @Test("jittered peaks over regular upstrokes: the intervals are the upstrokes' (nRMSSD ≈ 0); chunked = whole")
    func jitteredPeaks() throws {
        let whole = try run(blockSeconds: 1000)
        #expect(whole.windows.count == 7)
        // The peaks alone: successive differences of up to 80 ms on 0.8 s (nRMSSD about 0.04).
        // The upstrokes' middles lie 75 ms after each onset, at the same sub-sample phase every
        // 0.8 s (80 samples): every interval is 0.8 s to rounding.
        for w in whole.windows.dropLast() {
            let r = try #require(w.irregularity)
            #expect(r.normalizedRMSSD < 1e-6, "\(w.startSeconds): \(r.normalizedRMSSD)")
        }
        for seconds in [0.07, 1.3, 7.0] {
            #expect(try run(blockSeconds: seconds).windows == whole.windows, "blocks of \(seconds) s")
        }
    }
}

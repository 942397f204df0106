import Foundation
import Signals
import Testing

@testable import Cardio

/// The median beat of ``WaveLead`` (``MedianBeatAccumulator``) on a crafted lead: identical beats
/// whose waves are placed by construction (P peak at R − 160 ms, T peak at R + 280 ms) on a slow
/// baseline wander. Expected values are the construction's, or medians computed here from the
/// per-beat boundaries, never the accumulator's own.
@Suite("Median beat per window: crafted ECG")
struct MedianBeatTests {
    static let rr = 0.8
    static let firstBeat = 1.0

    /// The construction, mV: one beat's waves at time `t` from its R peak.
    static func shape(_ t: Double) -> Double {
        func g(_ c: Double, _ s: Double) -> Double { exp(-0.5 * pow((t - c) / s, 2)) }
        return 0.15 * g(-0.16, 0.02) - 0.15 * g(-0.025, 0.008) + 1.2 * g(0, 0.01) - 0.3 * g(0.025, 0.008) + 0.3 * g(0.28, 0.04)
    }

    /// The periodic lead (every beat and its neighbours), mV, at `t` from an R peak.
    static func periodic(_ t: Double) -> Double { (-2...2).reduce(0) { $0 + shape(t + Double($1) * rr) } }

    /// `beats` beats at 250 Hz (one second of signal after the last), with a 0.05 mV wander at 0.1 Hz.
    static func signal(beats: Int) -> [Float] {
        let n = Int((firstBeat + Double(beats - 1) * rr + 1.0) * 250)
        return (0..<n).map { i in
            let t = Double(i) / 250
            let k = ((t - firstBeat) / rr).rounded()
            let local = t - firstBeat - k * rr
            return Float(periodic(local) + 0.05 * sin(2 * Double.pi * 0.1 * t))
        }
    }

    static func beatTimes(_ beats: Int) -> [Double] { (0..<beats).map { firstBeat + Double($0) * rr } }

    /// Runs a lead in blocks of `size` samples, each beat handed over once the signal is 0.5 s past it.
    static func run(beats: Int, window: Double, size: Int) -> (waves: [BeatWaves], rows: [MedianBeatPoint]) {
        let x = signal(beats: beats)
        var lead = WaveLead(streamName: "ecg", microvoltsPerUnit: 1000, medianWindowSeconds: window)
        var waves = [BeatWaves](), rows = [MedianBeatPoint]()
        var times = beatTimes(beats)[...]
        var start = 0
        while start < x.count {
            let n = min(size, x.count - start)
            lead.consume(
                SampleBlock(
                    stream: 0, segment: 0, firstSample: start, time: .uniform(segmentStart: 0, sampleRate: 250),
                    columns: [Array(x[start..<start + n])], flags: [UInt8](repeating: 0, count: n), endsSegment: start + n == x.count))
            start += n
            while let t = times.first, t + 0.5 <= Double(start) / 250 {
                lead.add(WaveLead.Beat(time: t, beatClass: "N", quality: "excellent"))
                times.removeFirst()
            }
            let (w, r) = lead.take()
            waves += w
            rows += r
        }
        for t in times { lead.add(WaveLead.Beat(time: t, beatClass: "N", quality: "excellent")) }
        lead.flushAll()
        let (w, r) = lead.take()
        return (waves + w, rows + r)
    }

    static func median(_ v: [Double]) -> Double {
        let s = v.sorted()
        return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
    }

    @Test("the median beat is the construction, its boundaries the medians of the beats' boundaries")
    func medianBeatIsTheConstruction() throws {
        let (waves, rows) = Self.run(beats: 60, window: 3600, size: 4096)
        let samples = rows.filter { $0.point == "sample" }
        #expect(samples.count == 226)
        #expect(Set(rows.map(\.windowStart)) == [0] && rows.allSatisfy { $0.windowEnd == 3600 })
        // Every beat but the first (no normal beat before it) qualifies and is kept.
        #expect(rows.allSatisfy { $0.beats == 59 && $0.qualifyingBeats == 59 })
        for s in samples {
            let expected = Self.periodic(s.offset) * 1000
            let a = try #require(s.amplitude)
            #expect(abs(a - expected) < 20, "offset \(s.offset): \(a) µV, constructed \(expected) µV")
        }
        #expect(abs(samples[0].offset + 0.3) < 1e-9 && abs(samples[225].offset - 0.6) < 1e-9)
        let qualifying = waves.dropFirst()
        let boundaries: [(String, KeyPath<BeatWaves, Double?>)] = [
            ("p_onset", \.pOnset), ("p_peak", \.pPeak), ("p_offset", \.pOffset), ("qrs_onset", \.qrsOnset), ("qrs_offset", \.qrsOffset),
            ("t_peak", \.tPeak), ("t_offset", \.tOffset),
        ]
        for (name, path) in boundaries {
            let found = qualifying.compactMap { w in w[keyPath: path].map { $0 - w.beatTime } }
            let row = try #require(rows.first { $0.point == name }, "no \(name) row (\(found.count) beats have it)")
            #expect(abs(row.offset - Self.median(found)) < 1e-6, "\(name): \(row.offset) vs \(Self.median(found))")
            // Its amplitude is the median beat's at that offset (linear interpolation of the samples).
            let p = (row.offset + 0.3) * 250
            let i = Int(p.rounded(.down)), f = p - Double(i)
            let a = samples[i].amplitude! + (samples[i + 1].amplitude! - samples[i].amplitude!) * f
            #expect(abs((row.amplitude ?? .nan) - a) < 1e-6, "\(name) amplitude")
        }
        let pPeak = try #require(rows.first { $0.point == "p_peak" }), tPeak = try #require(rows.first { $0.point == "t_peak" })
        #expect(abs(pPeak.offset + 0.16) < 0.008 && abs(tPeak.offset - 0.28) < 0.008, "P \(pPeak.offset), T \(tPeak.offset)")
    }

    @Test("windows: at most 256 beats taken evenly, one median per window, rows independent of the block size")
    func boundedAndChunked() {
        // 900 beats over 720 s: windows [0, 600) and [600, 1200).
        let whole = Self.run(beats: 900, window: 600, size: 1 << 20).rows
        let starts = Set(whole.map(\.windowStart))
        #expect(starts == [0, 600])
        // Window 0: beats at 1.0 … 599.8 s (749), the first not after a normal beat: 748 qualify;
        // the stride doubles to 4 (748 / 2 > 256): beats 0, 4, 8, … of them, 187.
        let first = whole.filter { $0.windowStart == 0 }
        #expect(first.allSatisfy { $0.qualifyingBeats == 748 && $0.beats == 187 }, "\(first.first.map { ($0.beats, $0.qualifyingBeats) }!)")
        let second = whole.filter { $0.windowStart == 600 }
        // 151 beats, all qualifying (the one before the first was normal), under the capacity.
        #expect(second.allSatisfy { $0.qualifyingBeats == 151 && $0.beats == 151 })
        for size in [1, 97, 5000] {
            #expect(Self.run(beats: 900, window: 600, size: size).rows == whole, "block size \(size)")
        }
    }
}

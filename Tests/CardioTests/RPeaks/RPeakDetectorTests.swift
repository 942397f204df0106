import Cardio
import Foundation
import Testing
import _TestSupport

@Suite("RPeakDetector")
struct RPeakDetectorTests {
    /// MIT-BIH 119, 0:00–0:30, channel 0 in mV, at `rate` Hz (resampled by SciPy), and its beats.
    static func excerpt(_ rate: Int) throws -> (x: [Float], beats: [Int]) {
        let x = try NPY.read(Fixtures.url("CardioTests", "rpeaks/mitdb119_\(rate).npy")).floats
        let b = try Fixtures.ints("CardioTests", "rpeaks/mitdb119_\(rate)_beats.npy")
        return (x, b)
    }

    static func stream(_ x: [Float], rate: Double, flags: [UInt8]? = nil, blocks: [Int]) -> [Int] {
        var d = RPeakDetector(sampleRate: rate)
        var peaks = [Int]()
        x.withUnsafeBufferPointer { xp in
            var start = 0
            for n in blocks {
                let xs = UnsafeBufferPointer(rebasing: xp[start..<start + n])
                if let flags {
                    flags.withUnsafeBufferPointer {
                        d.process(xs, flags: UnsafeBufferPointer(rebasing: $0[start..<start + n]), into: &peaks)
                    }
                } else {
                    d.process(xs, flags: nil, into: &peaks)
                }
                start += n
            }
        }
        d.finish(into: &peaks)
        return peaks
    }

    @Test("every beat of the excerpt is found at every rate from 125 to 1000 Hz", arguments: [125, 250, 360, 500, 1000])
    func rates(_ rate: Int) throws {
        let (x, beats) = try Self.excerpt(rate)
        let peaks = RPeakDetector.detect(x, sampleRate: Double(rate))
        let s = BeatMatching.match(reference: beats, detections: peaks, sampleRate: Double(rate))
        #expect(s.falseNegatives == 0 && s.falsePositives == 0, "rate \(rate): FN \(s.falseNegatives) FP \(s.falsePositives)")
        // R apex within a few ms of the cardiologists' fiducial points.
        #expect(abs(s.medianOffsetMilliseconds) <= 12, "median offset \(s.medianOffsetMilliseconds) ms")
    }

    @Test("chunked feeding with random block sizes (with and without flags) equals whole-signal detection")
    func chunked() throws {
        let (x, _) = try Self.excerpt(360)
        var rng = SeededGenerator(seed: 7)
        var flags = [UInt8](repeating: 0, count: x.count)
        for i in 4000..<4500 { flags[i] = 1 } // a masked stretch
        for i in stride(from: 7000, to: 7100, by: 3) { flags[i] = 0x10 } // scattered missing samples
        for f in [nil, flags] {
            let whole = RPeakDetector.detect(x, sampleRate: 360, flags: f)
            #expect(whole.count > 20)
            for maxBlock in [1, 7, 64, 1000, 20_000] {
                let blocks = rng.blockSizes(total: x.count, maxBlock: maxBlock)
                let peaks = Self.stream(x, rate: 360, flags: f, blocks: blocks)
                let differing =
                    peaks.count != whole.count
                    ? max(1, abs(peaks.count - whole.count))
                    : zip(peaks, whole).filter { $0 != $1 }.count
                #expect(differing == 0, "max block \(maxBlock): \(differing) peaks differ")
            }
        }
    }

    @Test("every peak is emitted within maximumLatencySeconds of its apex (also across a flat stretch)")
    func latency() throws {
        let (x, _) = try Self.excerpt(250)
        var y = x
        for i in 2600..<3750 { y[i] = 0 }
        for i in 3750..<y.count { y[i] *= 0.2 }
        var d = RPeakDetector(sampleRate: 250)
        let bound = Int((d.maximumLatencySeconds * 250).rounded(.up))
        var peaks = [Int]()
        var worst = 0
        y.withUnsafeBufferPointer { p in
            for start in stride(from: 0, to: y.count, by: 8) {
                let before = peaks.count
                let end = min(start + 8, y.count)
                d.process(UnsafeBufferPointer(rebasing: p[start..<end]), flags: nil, into: &peaks)
                for q in peaks[before...] { worst = max(worst, end - 1 - q) }
            }
        }
        #expect(peaks.count > 20)
        #expect(worst <= bound, "a peak was emitted \(worst) samples after its apex (bound \(bound))")
    }

    @Test("polarity: the inverted signal gives the same peaks")
    func polarity() throws {
        let (x, _) = try Self.excerpt(250)
        let a = RPeakDetector.detect(x, sampleRate: 250)
        let b = RPeakDetector.detect(x.map { -$0 }, sampleRate: 250)
        #expect(a.count == b.count && zip(a, b).allSatisfy { $0 == $1 })
    }

    @Test("baseline wander (0.3 Hz, 2 mV), offset and scale do not change the beats found")
    func wander() throws {
        let (x, beats) = try Self.excerpt(500)
        let y = x.indices.map { i in 40 * (x[i] + 2 * Float(sin(2 * Double.pi * 0.3 * Double(i) / 500))) + 1000 }
        let s = BeatMatching.match(reference: beats, detections: RPeakDetector.detect(y, sampleRate: 500), sampleRate: 500)
        #expect(s.falseNegatives == 0 && s.falsePositives == 0)
    }

    @Test("masked samples are a gap: no beat from garbage inside it, beats on both sides found")
    func masked() throws {
        let (x, beats) = try Self.excerpt(360)
        var y = x
        var flags = [UInt8](repeating: 0, count: x.count)
        let gap = 3600..<5400 // 10 s to 15 s
        var rng = SeededGenerator(seed: 3)
        for i in gap {
            flags[i] = i % 2 == 0 ? 0x01 : 0x10
            y[i] = i % 2 == 0 ? Float.random(in: -50...50, using: &rng) : .nan
        }
        let peaks = RPeakDetector.detect(y, sampleRate: 360, flags: flags)
        #expect(!peaks.contains { gap.contains($0) }, "a beat was reported inside the masked stretch")
        let outside = beats.filter { $0 < gap.lowerBound - 54 || $0 >= gap.upperBound + 54 }
        let s = BeatMatching.match(reference: outside, detections: peaks.filter { !gap.contains($0) }, sampleRate: 360)
        // At most the first beat after the gap may be lost while the filters settle.
        #expect(s.falsePositives == 0 && s.falseNegatives <= 1, "FN \(s.falseNegatives) FP \(s.falsePositives)")
        // NaN without flags is masked too.
        let unflagged = RPeakDetector.detect(y.enumerated().map { gap.contains($0.offset) ? .nan : $0.element }, sampleRate: 360)
        #expect(!unflagged.contains { gap.contains($0) })
    }

    @Test("a flat stretch and a 5× amplitude drop: no beats in the flat part, detection resumes")
    func flatAndDrop() throws {
        let (x, beats) = try Self.excerpt(250)
        let base = x.sorted()[x.count / 2] // isoelectric level, so neither edge is a step
        var y = x
        let flat = 2600..<3750 // 10.4 s to 15 s, between beats
        for i in flat { y[i] = base }
        for i in flat.upperBound..<y.count { y[i] = base + 0.2 * (x[i] - base) }
        let peaks = RPeakDetector.detect(y, sampleRate: 250)
        #expect(!peaks.contains { flat.contains($0) }, "peaks \(peaks.filter { flat.contains($0) })")
        // Before the flat stretch: everything; after it the detector must re-adapt within 5 s.
        let before = BeatMatching.match(
            reference: beats.filter { $0 < flat.lowerBound },
            detections: peaks.filter { $0 < flat.lowerBound }, sampleRate: 250)
        #expect(before.falseNegatives == 0 && before.falsePositives == 0)
        let late = BeatMatching.match(
            reference: beats.filter { $0 >= flat.upperBound + 1250 },
            detections: peaks.filter { $0 >= flat.upperBound + 1250 }, sampleRate: 250)
        #expect(
            late.truePositives > 0 && late.falseNegatives == 0 && late.falsePositives == 0,
            "after the drop: TP \(late.truePositives) FN \(late.falseNegatives) FP \(late.falsePositives)")
    }

    @Test("empty, tiny and all-masked input produce no peaks and do not trap")
    func degenerate() {
        #expect(RPeakDetector.detect([], sampleRate: 500).isEmpty)
        #expect(RPeakDetector.detect([1, 2, 3], sampleRate: 125).isEmpty)
        #expect(RPeakDetector.detect([Float](repeating: 0, count: 10_000), sampleRate: 1000).isEmpty)
        let masked = RPeakDetector.detect(
            [Float](repeating: 5, count: 5000), sampleRate: 250,
            flags: [UInt8](repeating: 1, count: 5000))
        #expect(masked.isEmpty)
        // finish() resets: the detector can be reused for a new stream and gives the same result.
        var d = RPeakDetector(sampleRate: 360)
        #expect(d.maximumLatencySeconds > 1 && d.maximumLatencySeconds < 5)
        var a = [Int](), b = [Int]()
        let x = (0..<3600).map { i in Float(i % 300 < 10 ? 1 : 0) }
        x.withUnsafeBufferPointer { d.process($0, flags: nil, into: &a) }
        d.finish(into: &a)
        x.withUnsafeBufferPointer { d.process($0, flags: nil, into: &b) }
        d.finish(into: &b)
        #expect(a == b && a.count >= 10)
    }
}

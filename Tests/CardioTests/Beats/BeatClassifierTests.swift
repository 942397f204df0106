import Cardio
import Foundation
import Testing
import _TestSupport

@Suite("BeatClassifier")
struct BeatClassifierTests {
    /// Deterministic generator (SplitMix64) for chunk sizes and noise.
    struct SplitMix: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    /// Detector and classifier fed in random chunks (peaks as the detector emits them, so up to
    /// its latency late) against both run on the whole signal.
    @Test("Random chunk sizes give the same classes and features as the whole signal", arguments: [125, 360, 1000])
    func chunkIndependence(rate: Int) throws {
        let x = try NPY.read(Fixtures.url("CardioTests", "rpeaks/mitdb119_\(rate).npy")).floats
        let fs = Double(rate)
        let wholePeaks = RPeakDetector.detect(x, sampleRate: fs)
        let whole = BeatClassifier.classify(x, sampleRate: fs, peaks: wholePeaks)
        #expect(whole.count == wholePeaks.count)
        #expect(whole.contains { $0.beatClass == .ventricular }, "record 119 excerpt has ventricular bigeminy")
        for seed in [1, 2, 3] as [UInt64] {
            var rng = SplitMix(state: seed)
            var detector = RPeakDetector(sampleRate: fs)
            var classifier = BeatClassifier(sampleRate: fs)
            var peaks = [Int](), beats = [ClassifiedBeat]()
            var start = 0
            x.withUnsafeBufferPointer { p in
                while start < x.count {
                    let n = min(x.count - start, Int.random(in: 1...(rate * 3), using: &rng))
                    let block = UnsafeBufferPointer(rebasing: p[start..<start + n])
                    peaks.removeAll(keepingCapacity: true)
                    detector.process(block, flags: nil, into: &peaks)
                    classifier.process(block, flags: nil, peaks: peaks, into: &beats)
                    start += n
                }
            }
            peaks.removeAll()
            detector.finish(into: &peaks)
            classifier.process(UnsafeBufferPointer(start: nil, count: 0), flags: nil, peaks: peaks, into: &beats)
            classifier.finish(into: &beats)
            #expect(beats == whole, "seed \(seed): \(beats.count) beats chunked, \(whole.count) whole")
        }
    }

    /// Synthetic ECG at `fs`: narrow upright beats (QRS ~80 ms) every 0.8 s, and every fifth beat
    /// a wide inverted one (~160 ms) 0.5 s after the previous beat with a compensatory pause.
    static func synthetic(fs: Double, beats: Int) -> (signal: [Float], peaks: [Int], ventricular: Set<Int>) {
        var peaks = [Int](), ventricular = Set<Int>()
        var t = 0.6
        for i in 0..<beats {
            let isV = i % 5 == 4
            if isV { t -= 0.3 }
            peaks.append(Int((t * fs).rounded()))
            if isV { ventricular.insert(peaks.count - 1); t += 0.3 }
            t += 0.8
        }
        var x = [Float](repeating: 0, count: Int((t + 1) * fs))
        var rng = SplitMix(state: 7)
        for (k, p) in peaks.enumerated() {
            let isV = ventricular.contains(k)
            let sd = (isV ? 0.040 : 0.012) * fs, a: Float = isV ? -1.5 : 1.0
            for j in max(0, p - Int(5 * sd))..<min(x.count, p + Int(5 * sd)) {
                let u = Double(j - p) / sd
                x[j] += a * Float(exp(-0.5 * u * u))
            }
            // T wave.
            let tc = p + Int(0.25 * fs), tsd = 0.05 * fs
            for j in max(0, tc - Int(4 * tsd))..<min(x.count, tc + Int(4 * tsd)) {
                let u = Double(j - tc) / tsd
                x[j] += (isV ? 0.4 : 0.25) * Float(exp(-0.5 * u * u))
            }
        }
        for i in x.indices { x[i] += 0.01 * Float(Int64(bitPattern: rng.next()) >> 40) / Float(1 << 23) }
        return (x, peaks, ventricular)
    }

    @Test(
        "Wide inverted premature beats with compensatory pauses are ventricular, the others normal",
        arguments: [125.0, 250.0, 500.0, 1000.0])
    func syntheticEctopy(fs: Double) {
        let (x, peaks, v) = Self.synthetic(fs: fs, beats: 60)
        let beats = BeatClassifier.classify(x, sampleRate: fs, peaks: peaks)
        #expect(beats.map(\.sample) == peaks)
        for (k, b) in beats.enumerated() where k >= 1 && k < beats.count - 1 {
            #expect(b.beatClass == (v.contains(k) ? .ventricular : .normal), "beat \(k) at \(fs) Hz: \(b.beatClass) \(b.features)")
        }
        let narrow = beats.filter { !v.contains(beats.firstIndex(of: $0)!) }.compactMap(\.features.qrsWidthSeconds)
        let wide = beats.enumerated().filter { v.contains($0.offset) }.compactMap(\.element.features.qrsWidthSeconds)
        #expect(narrow.max()! < wide.min()!, "QRS widths: normal up to \(narrow.max()!), ectopic from \(wide.min()!)")
    }

    @Test("A beat on masked samples is unclassifiable and the next RR interval is dropped")
    func maskedSegment() {
        let fs = 250.0
        let (x, peaks, _) = Self.synthetic(fs: fs, beats: 20)
        var flags = [UInt8](repeating: 0, count: x.count)
        let target = 10
        for j in (peaks[target] - 10)...(peaks[target] + 10) { flags[j] = 0b1_0000 }
        let beats = BeatClassifier.classify(x, sampleRate: fs, peaks: peaks, flags: flags)
        #expect(beats[target].beatClass == .unclassifiable)
        #expect(beats[target].features.rrPreviousSeconds == nil)
        #expect(beats[target + 1].features.rrPreviousSeconds == nil)
        #expect(beats[target + 2].features.rrPreviousSeconds != nil)
    }
}

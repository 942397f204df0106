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

    /// Adds one synthetic beat to `x`: a Gaussian QRS of `amplitude` and standard deviation `qrsSD`
    /// seconds centred on sample `apex`, and a T wave of `tAmplitude` (SD 50 ms) 250 ms later.
    static func addBeat(_ x: inout [Float], apex p: Int, fs: Double, amplitude a: Float, qrsSD: Double, tAmplitude: Float) {
        let sd = qrsSD * fs
        for j in max(0, p - Int(5 * sd))..<min(x.count, p + Int(5 * sd)) {
            let u = Double(j - p) / sd
            x[j] += a * Float(exp(-0.5 * u * u))
        }
        let tc = p + Int(0.25 * fs), tsd = 0.05 * fs
        for j in max(0, tc - Int(4 * tsd))..<min(x.count, tc + Int(4 * tsd)) {
            let u = Double(j - tc) / tsd
            x[j] += tAmplitude * Float(exp(-0.5 * u * u))
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
            Self.addBeat(&x, apex: p, fs: fs, amplitude: isV ? -1.5 : 1.0, qrsSD: isV ? 0.040 : 0.012, tAmplitude: isV ? 0.4 : 0.25)
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

    /// Synthetic ECG at `fs` of identical narrow upright beats (QRS ~80 ms, T wave) at the given
    /// R-peak times, seconds.
    static func beatsAt(_ times: [Double], fs: Double) -> (signal: [Float], peaks: [Int]) {
        let peaks = times.map { Int(($0 * fs).rounded()) }
        var x = [Float](repeating: 0, count: Int(((times.last ?? 0) + 1.5) * fs))
        var rng = SplitMix(state: 11)
        for p in peaks {
            let sd = 0.012 * fs
            for j in max(0, p - Int(5 * sd))..<min(x.count, p + Int(5 * sd)) {
                let u = Double(j - p) / sd
                x[j] += Float(exp(-0.5 * u * u))
            }
            let tc = p + Int(0.22 * fs), tsd = 0.04 * fs
            for j in max(0, tc - Int(4 * tsd))..<min(x.count, tc + Int(4 * tsd)) {
                let u = Double(j - tc) / tsd
                x[j] += 0.25 * Float(exp(-0.5 * u * u))
            }
        }
        for i in x.indices { x[i] += 0.01 * Float(Int64(bitPattern: rng.next()) >> 40) / Float(1 << 23) }
        return (x, peaks)
    }

    /// Beat times from a start time and the RR intervals, seconds.
    static func times(_ intervals: [Double]) -> [Double] {
        var t = 0.6, out = [t]
        for rr in intervals { t += rr; out.append(t) }
        return out
    }

    @Test("The pause check: low slope ratio in a pause without a QRS, high where a QRS was not given as a peak")
    func pauseSlopeRatio() {
        for fs in [250.0, 360.0] {
            // Regular 0.8 s; a 1.6 s pause after beat 20 (no beat in the signal).
            var rr = [Double](repeating: 0.8, count: 40)
            rr[20] = 1.6
            let (x, peaks) = Self.beatsAt(Self.times(rr), fs: fs)
            let beats = BeatClassifier.classify(x, sampleRate: fs, peaks: peaks)
            let pause = beats[21].features.pauseSlopeRatio ?? .nan
            #expect(pause < 0.2, "fs \(fs): pause ratio \(pause)")
            #expect(beats[0].features.pauseSlopeRatio == nil)
            // The same regular rhythm with beat 21's peak withheld (a QRS the detector missed).
            let (y, all) = Self.beatsAt(Self.times([Double](repeating: 0.8, count: 40)), fs: fs)
            var given = all
            given.remove(at: 21)
            let missed = BeatClassifier.classify(y, sampleRate: fs, peaks: given)
            let ratio = missed[21].features.pauseSlopeRatio ?? .nan
            #expect(ratio > 0.5, "fs \(fs): missed-QRS ratio \(ratio)")
            // Ordinary 0.8 s intervals leave 400 ms between the margins: the ratio is defined and low.
            #expect((beats[10].features.pauseSlopeRatio ?? .nan) < 0.2)
        }
    }

    @Test("An abrupt run at over 100 bpm is supraventricular to its end; the same rate reached gradually is sinus")
    func supraventricularRun() {
        let fs = 360.0
        // 20 beats at 0.9 s, an abrupt run of 30 beats at 0.45 s (133 bpm), back to 0.9 s. Past its
        // 15th beat the running RR average has come down so far that only the run rule keeps it S.
        let abrupt = Self.times(
            [Double](repeating: 0.9, count: 20) + [Double](repeating: 0.45, count: 30) + [Double](repeating: 0.9, count: 10))
        let (x, peaks) = Self.beatsAt(abrupt, fs: fs)
        let beats = BeatClassifier.classify(x, sampleRate: fs, peaks: peaks)
        #expect(beats.count == peaks.count)
        for (k, b) in beats.enumerated() where k >= 2 && k < beats.count - 1 {
            let expected: BeatClass = (21...50).contains(k) ? .supraventricular : .normal
            #expect(b.beatClass == expected, "abrupt run, beat \(k): \(b.beatClass) \(b.features)")
        }
        // The same rates reached by 1 % per beat (sinus tachycardia speeds up gradually).
        var rr = [Double](repeating: 0.9, count: 20)
        while rr.last! > 0.45 { rr.append(rr.last! * 0.99) }
        rr += [Double](repeating: rr.last!, count: 10)
        let (y, gradualPeaks) = Self.beatsAt(Self.times(rr), fs: fs)
        let gradual = BeatClassifier.classify(y, sampleRate: fs, peaks: gradualPeaks)
        for (k, b) in gradual.enumerated() where k >= 2 && k < gradual.count - 1 {
            #expect(b.beatClass == .normal, "gradual, beat \(k): \(b.beatClass) \(b.features)")
        }
    }

    @Test("A beat before 85 % of the RR average followed by a pause is supraventricular; one at 87 % is not")
    func shortLong() {
        let fs = 250.0
        // Regular 0.9 s; beat 20 at 0.83 × 0.9 s then 1.05 s; beat 40 at 0.87 × 0.9 s then 1.05 s.
        var rr = [Double](repeating: 0.9, count: 60)
        rr[19] = 0.83 * 0.9; rr[20] = 1.05
        rr[39] = 0.87 * 0.9; rr[40] = 1.05
        let (x, peaks) = Self.beatsAt(Self.times(rr), fs: fs)
        let beats = BeatClassifier.classify(x, sampleRate: fs, peaks: peaks)
        #expect(beats.count == peaks.count)
        for (k, b) in beats.enumerated() where k >= 2 && k < beats.count - 1 {
            #expect(b.beatClass == (k == 20 ? .supraventricular : .normal), "beat \(k): \(b.beatClass) \(b.features)")
        }
    }

    /// Identical narrow beats at `times` with a P wave (Gaussian, SD 20 ms) `pr` seconds before
    /// each R apex, of amplitude `p[k]` (negative: inverted, an ectopic atrial focus).
    static func beatsWithP(_ times: [Double], p: [Float], pr: [Double], fs: Double) -> (signal: [Float], peaks: [Int]) {
        var (x, peaks) = Self.beatsAt(times, fs: fs)
        for (k, r) in peaks.enumerated() {
            let c = r - Int((pr[k] * fs).rounded()), sd = 0.020 * fs
            for j in max(0, c - Int(4 * sd))..<min(x.count, c + Int(4 * sd)) {
                let u = Double(j - c) / sd
                x[j] += p[k] * Float(exp(-0.5 * u * u))
            }
        }
        return (x, peaks)
    }

    @Test(
        "A beat at 84 % of the RR with an inverted P wave is supraventricular; at 84 % with the sinus P it is normal",
        arguments: [250.0, 360.0])
    func atrialRule(fs: Double) {
        // Regular 1.0 s with upright P waves 160 ms before the R; beats 30, 50 and 70 come at
        // 0.84 × 1.0 s (not early enough for the 82 % timing rule without a pause after them: the
        // next interval is 1.0 s); 30 and 70 have an inverted P 120 ms before the R, 50 the sinus P.
        var rr = [Double](repeating: 1.0, count: 90)
        for k in [30, 50, 70] { rr[k - 1] = 0.84; rr[k] = 1.0 }
        let times = Self.times(rr)
        var p = [Float](repeating: 0.15, count: times.count), pr = [Double](repeating: 0.16, count: times.count)
        for k in [30, 70] { p[k] = -0.15; pr[k] = 0.12 }
        let (x, peaks) = Self.beatsWithP(times, p: p, pr: pr, fs: fs)
        let beats = BeatClassifier.classify(x, sampleRate: fs, peaks: peaks)
        #expect(beats.count == peaks.count)
        for (k, b) in beats.enumerated() where k >= 2 && k < beats.count - 1 {
            #expect(
                b.beatClass == ([30, 70].contains(k) ? .supraventricular : .normal), "fs \(fs), beat \(k): \(b.beatClass) \(b.features)")
        }
        #expect((beats[60].features.pCorrelation ?? 0) > 0.9, "sinus beat P correlation \(beats[60].features.pCorrelation ?? .nan)")
        #expect((beats[30].features.pCorrelation ?? 1) < 0.2, "ectopic P correlation \(beats[30].features.pCorrelation ?? .nan)")
    }
}

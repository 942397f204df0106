import Cardio
import Foundation
import Testing

/// The fusion check (``BeatFeatures/fusionSuspected``) and the wide-QRS fiducial search
/// (``BeatFeatures/normalAlignmentSamples``) on synthetic beats.
@Suite("BeatClassifier fusion check and wide-QRS fiducial")
struct BeatClassifierFusionTests {
    /// Synthetic ECG at `fs`: upright beats every 0.8 s whose amplitude varies by up to ±5 %
    /// (deterministic), a QRS of standard deviation `qrsSD` seconds and a T wave; the beats in
    /// `ventricular` are wide inverted premature beats (0.5 s after the previous one, with a
    /// compensatory pause); beat `outlier.index` is scaled by `outlier.factor`; the peak given for
    /// beat `peakShift.index` is moved by `peakShift.seconds` from its apex.
    static func series(
        fs: Double, count: Int, qrsSD: Double = 0.012, ventricular: Set<Int> = [], outlier: (index: Int, factor: Float)? = nil,
        peakShift: (index: Int, seconds: Double)? = nil
    ) -> (signal: [Float], peaks: [Int]) {
        var rng = BeatClassifierTests.SplitMix(state: 5)
        func uniform() -> Float { Float(Int64(bitPattern: rng.next()) >> 40) / Float(1 << 23) } // −1…1
        var apices = [Int](), t = 0.6
        for i in 0..<count {
            let isV = ventricular.contains(i)
            if isV { t -= 0.3 }
            apices.append(Int((t * fs).rounded()))
            if isV { t += 0.3 }
            t += 0.8
        }
        var x = [Float](repeating: 0, count: Int((t + 1) * fs))
        for (k, p) in apices.enumerated() {
            let isV = ventricular.contains(k)
            var a: Float = isV ? -1.5 : 1 + 0.05 * uniform()
            if let o = outlier, o.index == k { a *= o.factor }
            BeatClassifierTests.addBeat(
                &x, apex: p, fs: fs, amplitude: a, qrsSD: isV ? 0.040 : qrsSD, tAmplitude: isV ? 0.4 : 0.25 * abs(a))
        }
        for i in x.indices { x[i] += 0.01 * uniform() }
        var peaks = apices
        if let s = peakShift { peaks[s.index] += Int((s.seconds * fs).rounded()) }
        return (x, peaks)
    }

    static let ventricular: Set<Int> = [10, 20]

    @Test("A normal beat of 0.7× amplitude after a ventricular beat and 64 normal beats is flagged and stays normal")
    func flagsAmplitudeOutlier() throws {
        for fs in [250.0, 360.0] {
            let (x, peaks) = Self.series(fs: fs, count: 120, ventricular: Self.ventricular, outlier: (90, 0.7))
            let beats = BeatClassifier.classify(x, sampleRate: fs, peaks: peaks)
            try #require(beats.count == peaks.count)
            #expect(Self.ventricular.allSatisfy { beats[$0].beatClass == .ventricular }, "fs \(fs)")
            #expect(beats[90].beatClass == .normal, "fs \(fs): \(beats[90].features)")
            #expect(beats[90].features.fusionSuspected, "fs \(fs): outlier not flagged")
            #expect((beats[90].features.amplitudeDeviationSpreads ?? 0) > 5, "fs \(fs): \(beats[90].features)")
            let others = beats.indices.filter { $0 != 90 && beats[$0].features.fusionSuspected }
            #expect(others.isEmpty, "fs \(fs): flagged \(others)")
        }
    }

    @Test("Not armed before 64 normal beats, nor without a ventricular beat; a clean series is never flagged")
    func notArmed() throws {
        let fs = 360.0
        // The same outlier before 64 normal beats have been seen.
        let (x, peaks) = Self.series(fs: fs, count: 120, ventricular: Self.ventricular, outlier: (40, 0.7))
        let early = BeatClassifier.classify(x, sampleRate: fs, peaks: peaks)
        #expect(early[40].beatClass == .normal)
        #expect(!early[40].features.fusionSuspected, "flagged before 64 normal beats")
        #expect(early[40].features.amplitudeDeviationSpreads == nil)
        // Past 64 normal beats but in a recording without a ventricular beat.
        let (y, yPeaks) = Self.series(fs: fs, count: 120, outlier: (90, 0.7))
        let noV = BeatClassifier.classify(y, sampleRate: fs, peaks: yPeaks)
        #expect(noV[90].beatClass == .normal)
        #expect(!noV.contains { $0.features.fusionSuspected }, "flagged without a ventricular beat")
        // Armed, no outlier: the ±5 % amplitude variation is never flagged.
        let (z, zPeaks) = Self.series(fs: fs, count: 200, ventricular: Self.ventricular)
        let clean = BeatClassifier.classify(z, sampleRate: fs, peaks: zPeaks)
        let flagged = clean.indices.filter { clean[$0].features.fusionSuspected }
        #expect(flagged.isEmpty, "clean series flagged at \(flagged)")
    }

    @Test("The fiducial search reaches ±80 ms when the normal QRS is ≥ 120 ms and ±40 ms otherwise")
    func wideQRSFiducial() throws {
        for fs in [250.0, 360.0] {
            // The peak given for beat 50 lies 60 ms after its apex: the template match is 60 ms before.
            let (x, peaks) = Self.series(fs: fs, count: 80, qrsSD: 0.025, peakShift: (50, 0.060))
            let wide = BeatClassifier.classify(x, sampleRate: fs, peaks: peaks)
            let width = try #require(wide[50].features.normalQRSWidthSeconds)
            try #require(width >= 0.120, "fs \(fs): synthetic normal QRS \(width) s")
            let shift = try #require(wide[50].features.normalAlignmentSamples) / fs
            #expect(abs(shift + 0.060) <= 0.008, "fs \(fs): wide QRS fiducial at \(shift) s")
            let steady = try #require(wide[49].features.normalAlignmentSamples) / fs
            #expect(abs(steady) <= 0.008, "fs \(fs): unshifted beat at \(steady) s")
            // Narrow QRS: the search stops at 40 ms.
            let (y, yPeaks) = Self.series(fs: fs, count: 80, peakShift: (50, 0.060))
            let narrow = BeatClassifier.classify(y, sampleRate: fs, peaks: yPeaks)
            let narrowWidth = try #require(narrow[50].features.normalQRSWidthSeconds)
            try #require(narrowWidth < 0.120, "fs \(fs): synthetic narrow QRS \(narrowWidth) s")
            let limited = try #require(narrow[50].features.normalAlignmentSamples) / fs
            #expect(abs(limited) <= 0.041, "fs \(fs): narrow QRS fiducial at \(limited) s")
        }
    }
}

import Foundation
import Testing

@testable import Motion

/// The day and rhythm formulas on hand-checked inputs (expected values worked out by hand from
/// the definitions, not by the code).
@Suite("Motion: day and rhythm formulas on hand-checked inputs")
struct ActivityMeasureTests {
    static func pattern(_ parts: [(Bool, Int)]) -> [Bool] { parts.flatMap { [Bool](repeating: $0.0, count: $0.1) } }

    @Test("bouts: the 80 % criterion, start and end on a flagged epoch, breaks of at most 1 min (5-s epochs)")
    func bouts() {
        // 1-min bouts (12 epochs).
        let full = DailyActivityMeasures.boutCoverage(
            Self.pattern([(false, 3), (true, 12), (false, 3)]), length: 12, criterion: 0.8, maximumBreak: 12)
        #expect(full.filter { $0 }.count == 12 && full[3] && full[14] && !full[2] && !full[15])
        // 10 of 12 flagged (83 %): the whole window counts, its 2 unflagged epochs too.
        let gap = DailyActivityMeasures.boutCoverage(
            Self.pattern([(true, 5), (false, 2), (true, 5)]), length: 12, criterion: 0.8, maximumBreak: 12)
        #expect(gap.allSatisfy { $0 })
        // 9 of 12 (75 %): no bout.
        let short = DailyActivityMeasures.boutCoverage(
            Self.pattern([(true, 4), (false, 3), (true, 5)]), length: 12, criterion: 0.8, maximumBreak: 12)
        #expect(!short.contains(true))
        // 10-min bouts (120 epochs): 107 of 120 flagged but a 13-epoch (65-s) break: no bout;
        // with a 12-epoch (60-s) break: a bout of all 120 epochs (108/120 = 90 %).
        let long = DailyActivityMeasures.boutCoverage(
            Self.pattern([(true, 50), (false, 13), (true, 57)]), length: 120, criterion: 0.8, maximumBreak: 12)
        #expect(!long.contains(true))
        let ok = DailyActivityMeasures.boutCoverage(
            Self.pattern([(true, 50), (false, 12), (true, 58)]), length: 120, criterion: 0.8, maximumBreak: 12)
        #expect(ok.filter { $0 }.count == 120)
        // A window must start and end flagged: 11 flagged then 1 unflagged at the end of the data.
        let edge = DailyActivityMeasures.boutCoverage(Self.pattern([(true, 11), (false, 1)]), length: 12, criterion: 0.8, maximumBreak: 12)
        #expect(!edge.contains(true))
    }

    @Test("acceleration above the most active X min: the ⌈X·60/epoch⌉-th highest epoch")
    func topMinutes() {
        let values = (1...20).map(Double.init).reversed().map { $0 } // 20, 19, …, 1
        // 1 min of 5-s epochs = 12 epochs: the 12th highest is 9.
        #expect(DailyActivityMeasures.accelerationAboveTop(values, minutes: 1, epochSeconds: 5) == 9)
        // 1 min of 60-s epochs: the highest.
        #expect(DailyActivityMeasures.accelerationAboveTop(values, minutes: 1, epochSeconds: 60) == 20)
        // 2 min of 5-s epochs needs 24 epochs: none.
        #expect(DailyActivityMeasures.accelerationAboveTop(values, minutes: 2, epochSeconds: 5) == nil)
    }

    @Test("intensity gradient: two bins, a line through two points (R² = 1)")
    func gradient() throws {
        // 12 epochs of 5 s (1 min) at 10 mg (bin 0–25, midpoint 12.5), 24 (2 min) at 30 mg (25–50, 37.5).
        let v = [Double](repeating: 10, count: 12) + [Double](repeating: 30, count: 24)
        let g = try #require(DailyActivityMeasures.intensityGradient(v, epochSeconds: 5))
        let slope = (log(2.0) - log(1.0)) / (log(37.5) - log(12.5))
        #expect(abs(g.gradient - slope) < 1e-12 && abs(g.r2 - 1) < 1e-12)
        #expect(abs(g.intercept - (0 - slope * log(12.5))) < 1e-12)
        // One bin only: no line.
        #expect(DailyActivityMeasures.intensityGradient([1, 2, 3], epochSeconds: 5) == nil)
    }

    @Test("IS = 1 for identical days; IV of an alternating series = N·(N−1)·1 / ((N−1)·N·¼) = 4; L5/M10 windows wrap midnight")
    func rhythmFormulas() throws {
        let day: [Double] = [1, 5, 2, 8]
        #expect(abs(try #require(RestActivityRhythm.interdailyStability(day + day + day, binsPerDay: 4)) - 1) < 1e-12)
        #expect(abs(try #require(RestActivityRhythm.intradailyVariability([0, 1, 0, 1])) - 4) < 1e-12)
        let low = try #require(RestActivityRhythm.extremeWindow([0, 5, 5, 5, 5, 0], bins: 2, lowest: true))
        #expect(low.start == 5 && low.mean == 0)
        let high = try #require(RestActivityRhythm.extremeWindow([0, 5, 5, 5, 5, 0], bins: 2, lowest: false))
        #expect(high.start == 1 && high.mean == 5)
        #expect(RestActivityRhythm.extremeWindow([0, .nan, .nan], bins: 2, lowest: true) == nil)
    }

    @Test("cosinor on an exact 24-h cosine: mesor 10, amplitude 3, peak at 15:00")
    func cosinor() throws {
        let x = (0..<2880).map { i -> Double in
            let t = (Double(i) + 0.5) * 60
            return 10 + 3 * cos(2 * .pi * (t - 15 * 3600) / 86_400)
        }
        let c = try #require(RestActivityRhythm.cosinor(x, binSeconds: 60))
        #expect(abs(c.mesor - 10) < 1e-9 && abs(c.amplitude - 3) < 1e-9 && abs(c.acrophaseHours - 15) < 1e-9)
    }

    @Test("SRI: +100 for the same schedule every day, −100 for the opposite, missing pairs left out")
    func sleepRegularity() throws {
        let a: [UInt8] = [1, 1, 0, 0]
        #expect(try #require(RestActivityRhythm.sleepRegularity(a + a, binsPerDay: 4)).index == 100)
        #expect(try #require(RestActivityRhythm.sleepRegularity(a + [0, 0, 1, 1], binsPerDay: 4)).index == -100)
        let partial = try #require(RestActivityRhythm.sleepRegularity(a + [1, 255, 1, 0], binsPerDay: 4))
        #expect(partial.pairs == 3 && abs(partial.index - (200 * 2 / 3 - 100)) < 1e-12)
    }

    @Test("one valid day: IS empty with its reason; a day worn 15 h: no outcomes, and says why")
    func nullReasons() throws {
        var acc = ActivityAccumulator(epochSeconds: 60)
        for i in 0..<(2 * 1440) {
            let v = 20 + 10 * sin(Double(i) / 1440 * 2 * .pi) + Double(i % 7)
            acc.add(
                MotionEpoch(
                    startSeconds: Double(i) * 60, lengthSeconds: 60, samples: 600, coverage: 1, enmoMilliG: v,
                    intensity: MotionOptions().intensity(enmoMilliG: v), nonWear: false, steps: 0))
        }
        let rows = acc.rhythm(validDays: [0], options: MotionOptions(), label: { "\($0)" }, timeBasis: "utc")
        #expect(rows.count == 2)
        for row in rows {
            #expect(row.interdailyStability == nil && row.nullReason?.contains("interdaily_stability: 1 valid day (2 needed)") == true)
            #expect(row.intradailyVariability != nil && row.l5MilliG != nil && row.validDays == 1)
        }
        let (o, note) = acc.outcomes(day: 1, wearSeconds: 15 * 3600, options: MotionOptions())
        #expect(o == nil && note == "15.0 h worn (16.0 h needed for a valid day)")
        let none = acc.rhythm(validDays: [], options: MotionOptions(), label: { "\($0)" }, timeBasis: "utc")
        #expect(none.allSatisfy { $0.interdailyStability == nil && $0.l5MilliG == nil && $0.nullReason?.hasPrefix("no valid day") == true })
    }
}

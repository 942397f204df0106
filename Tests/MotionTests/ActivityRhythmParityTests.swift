import Foundation
import Signals
import Testing
import _TestSupport

@testable import Motion

/// The same epochs, the same numbers: SensorPipe's rhythm and day outcomes on the epochs of the
/// synthetic week (``SimulatedWeek``, days 0–3, exported by ``ActivityOutcomeTests``), against
/// `scripts/motion/compare-rhythm.py`'s references (pyActigraphy 1.2.2 for IS, IV, L5, M10, RA;
/// NumPy from the papers' formulas for the rest) in `Tests/MotionTests/Fixtures/rhythm/`.
/// Writes the `motion-rhythm-parity` block of docs/VALIDATION.md.
@Suite("Motion: rhythm and day outcomes against pyActigraphy and NumPy")
struct ActivityRhythmParityTests {
    static let tolerance = 1e-9

    static func number(_ any: Any?) -> Double? { (any as? NSNumber)?.doubleValue }

    @Test(
        "IS, IV, RA, L5, M10 (pyActigraphy), cosinor, SRI, MX, intensity gradient, bouts, sedentary, cadence (NumPy) within 1e-9 relative")
    func parity() throws {
        let reference = try Fixtures.json("MotionTests", "rhythm/reference.json")
        let enmo = try Fixtures.doubles("MotionTests", "rhythm/enmo.npy")
        let steps = try Fixtures.ints("MotionTests", "rhythm/steps.npy")
        let start = try #require(Self.number(reference["start"])), epoch = try #require(Self.number(reference["epoch_s"]))
        let days = Int(try #require(Self.number(reference["days"])))
        let options = MotionOptions()
        var acc = ActivityAccumulator(epochSeconds: epoch)
        for (i, v) in enmo.enumerated() {
            let worn = v.isFinite
            acc.add(
                MotionEpoch(
                    startSeconds: start + Double(i) * epoch, lengthSeconds: epoch, samples: 50, coverage: 1,
                    enmoMilliG: worn ? v : nil, intensity: worn ? options.intensity(enmoMilliG: v) : nil, nonWear: !worn,
                    steps: steps[i]))
        }
        for n in try #require(reference["nights"] as? [[String: Any]]) {
            let w = start + (Self.number(n["window_start"]) ?? .nan)
            let spans = (n["spans"] as? [[Any]] ?? []).map {
                MotionNight.Span(startSeconds: start + (Self.number($0[0]) ?? .nan), endSeconds: start + (Self.number($0[1]) ?? .nan))
            }
            acc.add(
                night: MotionNight(
                    night: n["night"] as? String ?? "", timeBasis: "utc", windowStartSeconds: w, validSeconds: 86_400,
                    nonWearSeconds: 0, onsetSeconds: w, boutSpans: spans))
        }
        let firstDay = Int((start / 86_400).rounded(.down))
        var lines = [String]()
        var worst = 0.0
        func compare(_ what: String, _ scope: String, _ mine: Double?, _ ref: Any?, _ source: String) {
            guard let r = Self.number(ref) else {
                Issue.record("\(scope) \(what): no reference")
                return
            }
            guard let m = mine else {
                Issue.record("\(scope) \(what): SensorPipe empty, reference \(r)")
                return
            }
            let rel = abs(m - r) / max(abs(r), 1e-300)
            worst = max(worst, rel)
            #expect(rel <= Self.tolerance || m == r, "\(scope) \(what): SensorPipe \(m), reference \(r), relative \(rel)")
            lines.append(
                "| \(scope) | `\(what)` | \(Self.format(m)) | \(Self.format(r)) | \(rel == 0 ? "0" : String(format: "%.1e", rel)) | \(source) |"
            )
        }
        let rows = acc.rhythm(
            validDays: Array(firstDay..<(firstDay + days)), options: options, label: { "\($0)" }, timeBasis: "utc")
        let rhythmReference = try #require(reference["rhythm"] as? [String: [String: Any]])
        for row in rows {
            let ref = try #require(rhythmReference[row.resolution])
            let pyA = "pyActigraphy 1.2.2"
            compare("interdaily_stability", row.resolution, row.interdailyStability, ref["interdaily_stability"], pyA + " (ddof 1 → 0)")
            compare(
                "intradaily_variability", row.resolution, row.intradailyVariability, ref["intradaily_variability"], pyA + " (ddof 1 → 0)")
            compare("relative_amplitude", row.resolution, row.relativeAmplitude, ref["relative_amplitude"], pyA)
            compare("l5_mg", row.resolution, row.l5MilliG, ref["l5_mg"], pyA + " `_lmx`")
            compare("l5_onset_h", row.resolution, row.l5OnsetHours, ref["l5_onset_h"], pyA + " `_lmx`")
            compare("m10_mg", row.resolution, row.m10MilliG, ref["m10_mg"], pyA + " `_lmx`")
            compare("m10_onset_h", row.resolution, row.m10OnsetHours, ref["m10_onset_h"], pyA + " `_lmx`")
            compare("cosinor_mesor_mg", row.resolution, row.cosinorMesorMilliG, ref["cosinor_mesor_mg"], "NumPy lstsq")
            compare("cosinor_amplitude_mg", row.resolution, row.cosinorAmplitudeMilliG, ref["cosinor_amplitude_mg"], "NumPy lstsq")
            compare("cosinor_acrophase_h", row.resolution, row.cosinorAcrophaseHours, ref["cosinor_acrophase_h"], "NumPy lstsq")
            if row.resolution == "1min" {
                compare("sri", row.resolution, row.sleepRegularityIndex, ref["sri"], "NumPy")
                compare("sri_pairs", row.resolution, row.sleepRegularityPairs.map(Double.init), ref["sri_pairs"], "NumPy")
            }
        }
        let dailyReference = try #require(reference["daily"] as? [[String: Any]])
        for d in 0..<days {
            let (o, note) = acc.outcomes(day: firstDay + d, wearSeconds: 86_400, options: options)
            let out = try #require(o, "day \(d): \(note ?? "")")
            let ref = dailyReference[d]
            let scope = "day \(d)"
            let np = "NumPy"
            compare("accel_top60min_mg", scope, out.accelTop60MilliG, ref["accel_top60min_mg"], np)
            compare("accel_top30min_mg", scope, out.accelTop30MilliG, ref["accel_top30min_mg"], np)
            compare("accel_top15min_mg", scope, out.accelTop15MilliG, ref["accel_top15min_mg"], np)
            compare("accel_top5min_mg", scope, out.accelTop5MilliG, ref["accel_top5min_mg"], np)
            compare("ig_gradient", scope, out.intensityGradient, ref["ig_gradient"], np + " polyfit")
            compare("ig_intercept", scope, out.intensityIntercept, ref["ig_intercept"], np + " polyfit")
            compare("ig_r2", scope, out.intensityR2, ref["ig_r2"], np + " corrcoef²")
            compare("mvpa_bout1_min", scope, out.mvpaBout1Minutes, ref["mvpa_bout1_min"], np + " brute force")
            compare("mvpa_bout5_min", scope, out.mvpaBout5Minutes, ref["mvpa_bout5_min"], np + " brute force")
            compare("mvpa_bout10_min", scope, out.mvpaBout10Minutes, ref["mvpa_bout10_min"], np + " brute force")
            compare("sed_bouts", scope, Double(out.sedentaryBouts), ref["sed_bouts"], np)
            compare("sed_bout_mean_min", scope, out.sedentaryBoutMeanMinutes, ref["sed_bout_mean_min"], np)
            compare("sed_in_bouts30_min", scope, out.sedentaryInBouts30Minutes, ref["sed_in_bouts30_min"], np)
            compare("sed_to_active_tp", scope, out.sedentaryToActiveProbability, ref["sed_to_active_tp"], np)
            compare("cadence_peak1_spm", scope, out.cadencePeak1, ref["cadence_peak1_spm"], np)
            compare("cadence_peak30_spm", scope, out.cadencePeak30, ref["cadence_peak30_spm"], np)
            compare("cadence_ge100_min", scope, out.cadenceMinutesAtLeast100.map(Double.init), ref["cadence_ge100_min"], np)
            compare("cadence_p95_spm", scope, out.cadenceP95, ref["cadence_p95_spm"], np + " percentile")
        }
        let header = """
            Same epochs, same numbers: the 4 valid days (69 120 epochs of 5 s) SensorPipe computed on the synthetic week of
            `ActivityOutcomeTests` (`SimulatedWeek`: simulated, not recorded), exported and handed to
            `scripts/motion/compare-rhythm.py` (pyActigraphy 1.2.2 on pandas 1.5.3 for IS, IV, L5, M10, RA; NumPy from the
            papers' formulas where no peer package computes the measure on ENMO epochs). SensorPipe's numbers come from the
            same epochs (`Tests/MotionTests/Fixtures/rhythm/`). Tolerance 1e-9 relative; worst \(String(format: "%.1e", worst)).
            pyActigraphy's IS and IV use sample variances (ddof 1), the papers and SensorPipe population variances: the
            script converts with the exact factors for a complete series (IS × (p − 1)·N / (p·(N − 1)), IV × N / (N − 1)).
            pyActigraphy's L5/M10 run at the data's own resolution, so it is given the hourly and 1-min bin means.
            Regenerate: `SENSORPIPE_RHYTHM_EXPORT=/tmp/rhythm swift test -c release --filter ActivityOutcomeTests`,
            `scripts/motion/compare-rhythm.py /tmp/rhythm`, `swift test -c release --filter ActivityRhythmParityTests`.

            | scope | measure | SensorPipe | reference | relative difference | reference |
            |---|---|---:|---:|---:|---|

            """
        ValidationDocument.replaceBlock(
            "motion-rhythm-parity", writtenBy: "ActivityRhythmParityTests", with: header + lines.joined(separator: "\n") + "\n")
    }

    static func format(_ v: Double) -> String {
        if v == v.rounded() && abs(v) < 1e9 { return String(Int(v)) }
        return String(format: "%.10g", v)
    }
}

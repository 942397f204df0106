import Cardio
import Foundation
import Pipeline
import Recordings
import Testing
import _TestSupport

/// The converted variants of the sample-rate check, when present.
enum SPC2015RateVariants {
    /// Variant folders and their (PPG, accelerometer) rates in Hz; the first is the reference.
    static let variants: [(folder: String, ppg: Int, acc: Int)] = [
        ("complete", 125, 125), ("rate-64-32", 64, 32), ("rate-25-25", 25, 25), ("rate-256-100", 256, 100), ("rate-30-100", 30, 100),
    ]
    /// Largest change of a set's mean MAE (bpm) from the 125/125 variant's.
    static let bound = 0.25
    /// Largest change (percentage points) of the training share of ECG beats matched by one pulse.
    static let pulseBound = 3.0

    static var filesPresent: Bool {
        guard let derived = SPC2015SensorKitFiles.folder else { return false }
        let names = PPGSPC2015ValidationTests.recordings.map(\.name)
        return !names.isEmpty
            && names.allSatisfy { name in
                variants.allSatisfy { v in
                    FileManager.default.fileExists(
                        atPath: derived.appendingPathComponent("\(name)/\(v.folder)/accelerometer.ndjson.gz").path)
                }
            }
    }
}

/// The PPG heart rate does not depend on the source sample rates (issue 11, item 2: pulses "on
/// any rate from 25 Hz to 256 Hz"; devices whose PPG and accelerometer run at different rates):
/// every SPC 2015 recording as SensorKit exports at 125/125 Hz (`complete`) and resampled by
/// `scripts/ppg/spc2015-to-sensorkit.py --rates 64:32 25:25 256:100 30:100` (`scipy.signal.resample_poly`)
/// to PPG 64 Hz + accelerometer 32 Hz, 25 + 25 Hz, 256 + 100 Hz and 30 + 100 Hz (a phone camera's
/// rate, the accelerometer faster than the PPG, times not on whole nanoseconds), each through the PPG family
/// end to end (decode → filter at the source rate → 25-Hz grid → heart rate), scored against
/// `BPM0` as in ``PPGSPC2015ValidationTests``.
///
/// Bound, fixed before the Swift figures were seen, from the claim (the lead's Python simulation
/// of the method moved the training MAE by at most 0.01 bpm between such rates): for every resampled
/// variant, set (training 12; test 10 + S04_T01) and mode (online, offline), the mean MAE is
/// within 0.25 bpm of the 125/125 variant's; and every recording gives the same windows (count
/// equal to `BPM0`'s and to the 125/125 variant's, same start times).
///
/// Pulses (issue 11, item 2), bound fixed likewise before the figures were seen: in the 12
/// training recordings, the share of chest-ECG beats (ECG family on the MATLAB file) with exactly
/// one pulse of the heart-rate stream 100–500 ms later (``PPGSPC2015ValidationTests``' measure) is
/// within 3 percentage points of the 125/125 variant's at every rate (the detector's windows are
/// set in seconds; a 25-Hz sample, 40 ms, is a tenth of the 400-ms acceptance window); and the
/// 125/125 variant matches exactly as many beats as the MATLAB file's own pulses.
@Suite(
    "SPC 2015 resampled: the PPG heart rate does not depend on the PPG and accelerometer sample rates",
    .enabled(
        if: Fixtures.sharedDatasets != nil && SPC2015RateVariants.filesPresent,
        "../shared/datasets or the rate-P-A conversions in .build/derived/spc2015-sensorkit are absent (python3 scripts/ppg/spc2015-to-sensorkit.py, then with --rates 64:32 25:25 256:100 30:100, writes them): skipped"
    )
)
struct PPGSampleRateTests {
    @Test("every set's MAE, online and offline, within 0.25 bpm of the 125/125 Hz figure; same windows; pulses against the ECG")
    func sampleRateIndependence() throws {
        let derived = try #require(SPC2015SensorKitFiles.folder)
        let configuration = try PPGSPC2015ValidationTests.configuration()
        let ppg = try #require(AnalysisRegistry.family(named: "ppg"))
        let methods = ["spectral_online", "spectral_offline"]
        // errors[variant]["set method"] = per-recording MAE.
        var errors = [[String: [Double]]](repeating: [:], count: SPC2015RateVariants.variants.count)
        var worst = [Double](repeating: 0, count: SPC2015RateVariants.variants.count)
        var worstName = [String](repeating: "", count: SPC2015RateVariants.variants.count)
        print(
            "| set | recording | windows | "
                + SPC2015RateVariants.variants.map { "\($0.ppg)/\($0.acc) Hz online / offline" }.joined(separator: " | ")
                + " |")
        print("|---|---|---:|" + String(repeating: "---:|", count: SPC2015RateVariants.variants.count))
        let ecgFamily = try #require(AnalysisRegistry.family(named: "ecg"))
        // pulses[variant] = (ECG beats, matched; in good windows, matched); index variants.count: the MATLAB file.
        var pulses = [(all: Int, allMatched: Int, good: Int, matched: Int)](
            repeating: (0, 0, 0, 0), count: SPC2015RateVariants.variants.count + 1)
        func addPulses(_ v: Int, _ p: (good: Int, matched: Int, all: Int, allMatched: Int)) {
            pulses[v].all += p.all
            pulses[v].allMatched += p.allMatched
            pulses[v].good += p.good
            pulses[v].matched += p.matched
        }
        for r in PPGSPC2015ValidationTests.recordings {
            let truth = try PPGSPC2015ValidationTests.truth(r.truth)
            // The chest ECG's beats (training recordings), on the MATLAB file's clock (0 = first sample).
            var ecgBeats: [Double] = []
            if r.set == "training" {
                let sink = MemorySink()
                _ = try RecordingAnalysis.run(
                    recording: RecordingInput(path: r.data), analysis: configuration, families: [ecgFamily, ppg], sink: sink)
                ecgBeats = PPGSPC2015ValidationTests.beatTimes(sink, source: "ecg")
                addPulses(SPC2015RateVariants.variants.count, PPGSPC2015ValidationTests.pulsesAgainstECG(sink))
            }
            var line = "| \(r.set) | \(r.name) | \(truth.count) |"
            var reference: [String: [(start: Double, bpm: Double?)]] = [:]
            var referenceMAE: [Double] = []
            for (v, variant) in SPC2015RateVariants.variants.enumerated() {
                let folder = derived.appendingPathComponent("\(r.name)/\(variant.folder)")
                let files = ["photoplethysmogram", "accelerometer"].map { folder.appendingPathComponent("\($0).ndjson.gz").path }
                let sink = MemorySink()
                _ = try RecordingAnalysis.run(
                    recording: RecordingInput(path: folder.path, files: files), analysis: configuration, families: [ppg], sink: sink)
                if r.set == "training" {
                    // Pulses of the heart-rate stream, on the same clock as the ECG (window 0 starts at the first sample).
                    let heartRate = sink.named("heart_rate").first { $0["source"] == .text("ppg") }
                    let origin = PPGSPC2015ValidationTests.windows(sink, method: methods[0]).first?.start ?? 0
                    guard case .text(let stream)? = heartRate?["stream"] else {
                        Issue.record("\(r.name) \(variant.folder): no PPG heart-rate stream")
                        continue
                    }
                    addPulses(
                        v,
                        PPGSPC2015ValidationTests.pulsesAgainstECG(
                            ecg: ecgBeats,
                            ppg: PPGSPC2015ValidationTests.beatTimes(sink, source: "ppg", stream: stream, offset: origin),
                            goodWindows: PPGSPC2015ValidationTests.goodWindows(sink, stream: stream, offset: origin)))
                }
                var cells = [String]()
                for (m, method) in methods.enumerated() {
                    let windows = PPGSPC2015ValidationTests.windows(sink, method: method)
                    #expect(
                        windows.count == truth.count,
                        "\(r.name) \(variant.folder) \(method): \(windows.count) windows, BPM0 \(truth.count)")
                    if v == 0 {
                        reference[method] = windows
                    } else if let ref = reference[method] {
                        let sameStarts =
                            windows.count == ref.count && zip(windows, ref).allSatisfy { abs($0.start - $1.start) < 1e-6 }
                        #expect(sameStarts, "\(r.name) \(variant.folder) \(method): window starts differ from the 125/125 variant's")
                    }
                    let mae = PPGSPC2015ValidationTests.meanAbsoluteError(windows.map(\.bpm), truth: truth)
                    errors[v]["\(r.set) \(method)", default: []].append(mae)
                    if v == 0 {
                        referenceMAE.append(mae)
                    } else if abs(mae - referenceMAE[m]) > worst[v] {
                        worst[v] = abs(mae - referenceMAE[m])
                        worstName[v] = "\(r.name) \(method)"
                    }
                    cells.append(String(format: "%.2f", mae))
                }
                line += " " + cells.joined(separator: " / ") + " |"
            }
            print(line)
        }
        func mean(_ v: Int, _ key: String) -> Double {
            let e = errors[v][key] ?? []
            return e.reduce(0, +) / Double(max(1, e.count))
        }
        print("| variant (PPG / accelerometer Hz) | training online | training offline | test online | test offline |")
        print("|---|---:|---:|---:|---:|")
        for (v, variant) in SPC2015RateVariants.variants.enumerated() {
            let keys = ["training spectral_online", "training spectral_offline", "test spectral_online", "test spectral_offline"]
            print("| \(variant.ppg) / \(variant.acc) |" + keys.map { String(format: " %.3f |", mean(v, $0)) }.joined())
            if v > 0 {
                print(String(format: "%@: largest per-recording MAE change %.2f bpm (%@)", variant.folder, worst[v], worstName[v]))
                for key in keys {
                    let change = mean(v, key) - mean(0, key)
                    #expect(
                        abs(change) <= SPC2015RateVariants.bound,
                        "\(variant.folder) \(key): mean MAE \(mean(v, key)) vs \(mean(0, key)) bpm at 125/125 Hz (bound \(SPC2015RateVariants.bound))"
                    )
                }
            }
        }
        #expect(errors[0]["training spectral_online"]?.count == 12 && errors[0]["test spectral_online"]?.count == 11)
        func percent(_ a: Int, _ b: Int) -> Double { 100 * Double(a) / Double(max(1, b)) }
        print(
            "| pulses, training 12 (PPG / accelerometer Hz) | ECG beats | with one pulse 100–500 ms later | in good PPG windows | with one pulse |"
        )
        print("|---|---:|---:|---:|---:|")
        for v in pulses.indices {
            let p = pulses[v]
            let label =
                v < SPC2015RateVariants.variants.count
                ? "\(SPC2015RateVariants.variants[v].ppg) / \(SPC2015RateVariants.variants[v].acc)" : "MATLAB file (125 / 125)"
            print(
                String(
                    format: "| %@ | %d | %d (%.1f %%) | %d | %d (%.1f %%) |", label, p.all, p.allMatched, percent(p.allMatched, p.all),
                    p.good,
                    p.matched, percent(p.matched, p.good)))
            let reference = percent(pulses[0].allMatched, pulses[0].all)
            #expect(
                abs(percent(p.allMatched, p.all) - reference) <= SPC2015RateVariants.pulseBound,
                "\(label): \(percent(p.allMatched, p.all)) % of ECG beats matched vs \(reference) % at 125/125 Hz")
        }
        let matlab = pulses[SPC2015RateVariants.variants.count]
        #expect(
            pulses[0].all == matlab.all && pulses[0].allMatched == matlab.allMatched && pulses[0].all > 8000,
            "125/125 SensorKit: \(pulses[0].allMatched) of \(pulses[0].all); MATLAB file: \(matlab.allMatched) of \(matlab.all)")
    }
}

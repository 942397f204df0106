import Cardio
import Foundation
import Pipeline
import Recordings
import Testing
import _TestSupport

/// Container independence of the PPG heart rate (issue 11, item 5): every SPC 2015 recording as
/// its MATLAB file and as SensorKit exports written by `scripts/ppg/spc2015-to-sensorkit.py`
/// (PPG and accelerometer files of one device, decoded side by side). The converted files derive
/// from data that may not be redistributed, so they live in `.build/derived/spc2015-sensorkit`
/// and the suite skips when they (or ../shared/datasets) are absent.
///
/// - `complete` (every sample; every 37th accelerometer line duplicated, which the reader drops):
///   the heart rate of every window, online and offline, equals the MATLAB file's.
/// - `defects` (masked samples, a 3-s gap, a 10-s deletion record): windows that overlap the
///   gap or the deletion are empty (NULL); the others are compared with the MATLAB file's and
///   the differences counted by where they lie.
/// Where `scripts/ppg/spc2015-to-sensorkit.py` writes the converted recordings, when present.
enum SPC2015SensorKitFiles {
    static var folder: URL? {
        let u = Fixtures.repositoryRoot.appendingPathComponent(".build/derived/spc2015-sensorkit")
        return FileManager.default.fileExists(atPath: u.appendingPathComponent("defects.json").path) ? u : nil
    }
}

@Suite(
    "SPC 2015 as SensorKit exports: the PPG heart rate does not depend on the container",
    .enabled(
        if: Fixtures.sharedDatasets != nil && SPC2015SensorKitFiles.folder != nil,
        "../shared/datasets or .build/derived/spc2015-sensorkit is absent (python3 scripts/ppg/spc2015-to-sensorkit.py writes it): skipped")
)
struct PPGSensorKitContainerTests {
    /// Heart rate per window (window index from the first window's start) of both methods.
    static func windows(_ sink: MemorySink) -> [String: [Int: Double?]] {
        var first = Double.infinity
        let rows = sink.named("heart_rate").filter { row in
            guard row["source"] == .text("ppg"), case .text(let m)? = row["method"], m.hasPrefix("spectral") else { return false }
            return true
        }
        for row in rows { if case .real(let s)? = row["window_start"] { first = min(first, s) } }
        var out: [String: [Int: Double?]] = [:]
        for row in rows {
            guard case .text(let m)? = row["method"], case .real(let s)? = row["window_start"] else { continue }
            let k = Int(((s - first) / 2).rounded())
            if case .real(let v)? = row["bpm"] { out[m, default: [:]][k] = v } else { out[m, default: [:]][k] = .some(nil) }
        }
        return out
    }

    static func run(_ input: RecordingInput, _ configuration: AnalysisConfiguration) throws -> [String: [Int: Double?]] {
        let ppg = try #require(AnalysisRegistry.family(named: "ppg"))
        let sink = MemorySink()
        _ = try RecordingAnalysis.run(recording: input, analysis: configuration, families: [ppg], sink: sink)
        return windows(sink)
    }

    @Test("complete conversions give the MATLAB file's heart rate; defects change only the windows they touch")
    func containerIndependence() throws {
        let derived = try #require(SPC2015SensorKitFiles.folder)
        let configuration = try PPGSPC2015ValidationTests.configuration()
        let recordings = PPGSPC2015ValidationTests.recordings
        // Defect spans in seconds from the start (scripts/ppg/spc2015-to-sensorkit.py).
        let masked: [(Double, Double)] = [(60, 61.5), (100, 101)]
        let removed: [(Double, Double)] = [(140, 143), (200, 210)]
        print(
            "| recording | windows | complete: equal online / offline | defects: windows over gap/deletion (NULL) | elsewhere equal online / offline | offline MAE elsewhere, MATLAB / defects (bpm) |"
        )
        print("|---|---:|---:|---:|---:|---:|")
        var totals = [Int](repeating: 0, count: 8)
        var maeTotals = (0.0, 0.0)
        for recording in recordings {
            let name = recording.name
            let reference = try Self.run(RecordingInput(path: recording.data), configuration)
            let truth = try PPGSPC2015ValidationTests.truth(recording.truth)
            func converted(_ variant: String) throws -> [String: [Int: Double?]] {
                let folder = derived.appendingPathComponent("\(name)/\(variant)")
                let files = ["photoplethysmogram", "accelerometer"].map { folder.appendingPathComponent("\($0).ndjson.gz").path }
                return try Self.run(RecordingInput(path: folder.path, files: files), configuration)
            }
            let complete = try converted("complete")
            let defects = try converted("defects")
            var line = "| \(name) |"
            var equalComplete = [0, 0], equalElsewhere = [0, 0], elsewhere = 0, overRemoved = 0, nullOverRemoved = 0
            // Offline error against BPM0 outside the removed spans: MATLAB file, defects variant.
            var errorReference = 0.0, errorDefects = 0.0, errorCount = 0
            for (m, method) in ["spectral_online", "spectral_offline"].enumerated() {
                let r = reference[method] ?? [:], c = complete[method] ?? [:], d = defects[method] ?? [:]
                // A recording that ends inside the deleted span (S04_T02, S08_T01 end near 206 s)
                // has no samples after 200 s: its last windows are not written (the deletion
                // record says the span is gone, not that the recording continued).
                #expect(
                    r.count > 90 && c.count == r.count && d.count <= r.count,
                    "\(name) \(method): \(r.count) / \(c.count) / \(d.count) windows")
                if m == 0 { line += " \(r.count) |" }
                for (k, v) in r {
                    if let cv = c[k], cv == v { equalComplete[m] += 1 }
                    let start = 2 * Double(k), end = start + 8
                    if removed.contains(where: { $0.0 < end && $0.1 > start }) {
                        if m == 0 { overRemoved += 1 }
                        // Over 20 % of a window missing: no estimate.
                        let missing = removed.reduce(0.0) { $0 + max(0, min(end, $1.1) - max(start, $1.0)) }
                        if missing > 1.6 {
                            // NULL, or not written when the recording ends inside the span.
                            #expect(
                                d[k] == .some(nil) || (d[k] == nil && end > 200),
                                "\(name) \(method) window \(k): \(String(describing: d[k])) over a removed span")
                            if m == 0 { nullOverRemoved += 1 }
                        }
                    } else {
                        if m == 0 { elsewhere += 1 }
                        if let dv = d[k], dv == v { equalElsewhere[m] += 1 }
                        if m == 1, k < truth.count, let rv = v, let dv = d[k] ?? nil {
                            errorReference += abs(rv - truth[k])
                            errorDefects += abs(dv - truth[k])
                            errorCount += 1
                        }
                    }
                }
                #expect(equalComplete[m] == r.count, "\(name) \(method): \(equalComplete[m]) of \(r.count) windows equal")
            }
            _ = masked
            let maeReference = errorReference / Double(max(1, errorCount)), maeDefects = errorDefects / Double(max(1, errorCount))
            // Masking and the filter restarts move single windows; the recording's error stays.
            #expect(abs(maeDefects - maeReference) < 1, "\(name): offline MAE \(maeReference) → \(maeDefects) bpm")
            maeTotals.0 += maeReference
            maeTotals.1 += maeDefects
            line +=
                " \(equalComplete[0]) / \(equalComplete[1]) | \(overRemoved) (\(nullOverRemoved)) | \(equalElsewhere[0]) / \(equalElsewhere[1]) of \(elsewhere) |"
                + String(format: " %.2f / %.2f |", maeReference, maeDefects)
            print(line)
            for (i, v) in [
                reference["spectral_online"]?.count ?? 0, equalComplete[0], equalComplete[1], overRemoved, nullOverRemoved,
                equalElsewhere[0], equalElsewhere[1], elsewhere,
            ].enumerated() { totals[i] += v }
        }
        print(
            "| all \(recordings.count) | \(totals[0]) | \(totals[1]) / \(totals[2]) | \(totals[3]) (\(totals[4])) | \(totals[5]) / \(totals[6]) of \(totals[7]) |"
                + String(format: " %.2f / %.2f (mean) |", maeTotals.0 / Double(recordings.count), maeTotals.1 / Double(recordings.count)))
    }
}

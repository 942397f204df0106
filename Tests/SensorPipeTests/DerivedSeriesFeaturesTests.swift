import Foundation
import SensorPipe
import Testing
import _TestSupport

/// The features family over the derived series the ECG, PPG and motion families publish
/// (``DerivedSeries``), end to end through ``RecordingAnalysis``: every stream kind gives raw
/// feature rows, and the derived series give `ecg_nn_…`, `ecg_hr_…`, `ppg_…` and `acc_enmo_…`
/// rows whose values agree with the publishing family's own rows (the mean of the NN intervals
/// in `beats`, of ENMO in `motion_epochs`), independent of the block size.
@Suite struct DerivedSeriesFeaturesTests {
    static func path(_ relative: String) -> String { Fixtures.repositoryRoot.appendingPathComponent(relative).path }

    static func results(_ relative: String, window: Double, blockCapacity: Int? = nil) throws -> RecordingResults {
        var analysis = AnalysisConfiguration()
        if let blockCapacity { analysis.decode.blockCapacity = blockCapacity }
        var o = FeaturesOptions()
        o.rawStreams = true // the raw ECG stream's features too (opt-in since issue 35)
        o.derivedWindowSeconds = window
        o.derivedStepSeconds = window
        analysis.setOptions(o, of: FeaturesFamily.self)
        return try RecordingAnalysis.results(of: RecordingInput(path: path(relative)), analysis: analysis)
    }

    static func values(_ r: RecordingResults, _ feature: String) -> [(start: Double, end: Double, value: Double)] {
        r.rows(FeatureTables.features).filter { $0.feature == feature }.map { ($0.windowStart, $0.windowEnd, $0.value) }
    }

    /// ECG (60 s of MIT-BIH 100 at 512 Hz): raw rows, NN and heart-rate rows; `ecg_nn_mean` is the
    /// mean of the window's NN intervals that `beats` keeps for HRV; the same rows with 7-sample blocks.
    @Test func ecgNNAndHeartRate() throws {
        let r = try Self.results("Datasets/ecg/watch-1_mitdb100_1716282000.ndjson.gz", window: 30)
        #expect(!Self.values(r, "ecg_value_mean").isEmpty)
        let nn = Self.values(r, "ecg_nn_mean")
        #expect(nn.count >= 1 && nn.allSatisfy { $0.value.isFinite }, "\(nn)")
        #expect(!Self.values(r, "ecg_hr_mean").isEmpty)
        #expect(Self.values(r, "ecg_nn_spectral_entropy").isEmpty, "NN intervals are an event series")
        let beats = r.rows(BeatSeriesTables.beats).map(\.value.beat)
        for w in nn {
            let inside = beats.compactMap { b -> Double? in
                guard let t = b.nnTimeSeconds, let v = b.nnMilliseconds, b.nnExclusion == nil, t >= w.start, t < w.end else {
                    return nil
                }
                return v
            }
            let mean = inside.reduce(0, +) / Double(inside.count)
            #expect(abs(w.value - mean) <= 1e-9 * mean, "window \(w.start): \(w.value) vs beats \(mean)")
        }
        let windows = r.rows(FeatureTables.windows)
        #expect(Set(windows.map(\.series)).isSuperset(of: ["samples", "nn", "hr"]))
        let chunked = try Self.results("Datasets/ecg/watch-1_mitdb100_1716282000.ndjson.gz", window: 30, blockCapacity: 7)
        let a = r.rows(FeatureTables.features).map { "\($0.stream) \($0.windowStart) \($0.feature) \($0.value)" }
        let b = chunked.rows(FeatureTables.features).map { "\($0.stream) \($0.windowStart) \($0.feature) \($0.value)" }
        #expect(a == b, "block size changed the feature rows")
    }

    /// Accelerometer: raw per-axis and magnitude rows, and `acc_enmo_mean` equal to the mean ENMO
    /// of the window's epochs with metrics.
    @Test func accelerometerENMO() throws {
        let r = try Self.results("Datasets/accelerometer/oxford_user1_hand_1506421989895.ndjson.gz", window: 60)
        #expect(!Self.values(r, "acc_x_mean").isEmpty && !Self.values(r, "acc_mag_spectral_entropy").isEmpty)
        let enmo = Self.values(r, "acc_enmo_mean")
        #expect(!enmo.isEmpty)
        let epochs = r.rows(MotionTables.epochs).map(\.value)
        for w in enmo {
            let inside = epochs.compactMap { e in e.startSeconds >= w.start && e.startSeconds < w.end ? e.enmoMilliG : nil }
            let mean = inside.reduce(0, +) / Double(inside.count)
            #expect(abs(w.value - mean) <= 1e-9 * max(mean, 1e-3), "window \(w.start): \(w.value) vs epochs \(mean)")
        }
        #expect(!Self.values(r, "acc_enmo_spectral_entropy").isEmpty, "ENMO epochs are evenly spaced")
    }

    /// Rotation rate (a SensorKit gyroscope fixture): per-axis, magnitude and SMA rows.
    @Test func rotationRate() throws {
        let r = try Self.results("Tests/RecordingsTests/Fixtures/sensorkit/rotation.ndjson", window: 300)
        for name in ["gyro_x_mean", "gyro_z_spectral_entropy", "gyro_mag_p95", "gyro_xyz_sma"] {
            #expect(!Self.values(r, name).isEmpty, "\(name)")
        }
    }

    /// PPG: raw optical rows, and the PPG beat series and spectral heart rate as derived series.
    @Test func ppgDerivedSeries() throws {
        let r = try Self.results("Datasets/ppg/phone-1_butppg_1716296400.ndjson.gz", window: 10)
        #expect(!Self.values(r, "ppg_normalizedReflectance_mean").isEmpty)
        let series = Set(r.rows(FeatureTables.windows).map(\.series))
        #expect(series.contains("nn") && series.contains("hrSpectralOffline"), "\(series)")
    }

    /// `analyze --out DIR` (the CSV sink): `features_ecg.csv` and `features_ecg_nn.csv` hold, per
    /// window, exactly the values of the long `features.csv`.
    @Test func wideCSVMatchesTheLongTable() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("wide-e2e-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        var analysis = AnalysisConfiguration()
        var o = FeaturesOptions()
        o.rawStreams = true // the raw ECG stream's features too (opt-in since issue 35)
        o.derivedWindowSeconds = 30
        o.derivedStepSeconds = 30
        analysis.setOptions(o, of: FeaturesFamily.self)
        _ = try RecordingAnalysis.run(
            path: Self.path("Datasets/ecg/watch-1_mitdb100_1716282000.ndjson.gz"), analysis: analysis,
            sink: try CSVResultSink(directory: dir))
        func lines(_ name: String) throws -> [[Substring]] {
            try String(contentsOf: dir.appendingPathComponent(name), encoding: .utf8).split(separator: "\n")
                .map { $0.split(separator: ",", omittingEmptySubsequences: false) }
        }
        var long = [String: Substring]() // "start|feature" → value
        for f in try lines("features.csv").dropFirst() { long["\(f[1])|\(f[3])"] = f[4] }
        var cells = 0
        for file in ["features_ecg.csv", "features_ecg_nn.csv", "features_ecg_hr.csv"] {
            let rows = try lines(file)
            let header = try #require(rows.first)
            #expect(Array(header.prefix(3)) == ["stream", "window_start", "window_end"])
            #expect(rows.count > 1, "\(file) has no window")
            for r in rows.dropFirst() {
                #expect(r.count == header.count)
                for c in 3..<header.count {
                    #expect(long["\(r[1])|\(header[c])"] == r[c], "\(file) \(r[1]) \(header[c])")
                    cells += 1
                }
            }
        }
        #expect(cells == long.count, "every long row is one wide cell")
    }

    @Test("the registry's series are declared once; the features family subscribes to declared attributes with their units")
    func declarations() {
        var seen = [String: DerivedSeries]()
        for f in AnalysisRegistry.families {
            for s in f.publishes {
                #expect(seen[s.id] == nil, "\(s.id) declared twice")
                seen[s.id] = s
            }
        }
        for d in FeatureColumns.derivedSeries {
            let s = seen["\(d.family)_\(d.channel)"]
            #expect(s != nil, "\(d.family)_\(d.channel) is not published")
            let i = s?.index(of: d.attribute)
            #expect(i != nil, "\(d.family)_\(d.channel) declares no \(d.attribute)")
            guard let s, let i else { continue }
            #expect(s.attributes[i].unit == d.unit && s.isEventSeries == d.isEventSeries, "\(s.id).\(d.attribute)")
        }
    }
}

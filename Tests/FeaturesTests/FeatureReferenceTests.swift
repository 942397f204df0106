import DSP
import Features
import Foundation
import Recordings
import Testing
import _TestSupport

/// The catalog against NumPy/SciPy (scripts/make-feature-fixtures.py): every feature of every
/// fixture case within 1e-6 relative (or 1e-12 of the signal's scale for values near zero); null
/// references must be NaN here, and defined references finite.
@Suite struct FeatureReferenceTests {
    static var cases: [String: Any] { (try? Fixtures.json("FeaturesTests", "reference/cases.json")) ?? [:] }

    static func signal(_ name: String, columns: Int) throws -> [[Double]] {
        let flat = try Fixtures.doubles("FeaturesTests", "reference/\(name).npy")
        let n = flat.count / columns
        return (0..<columns).map { c in (0..<n).map { flat[$0 * columns + c] } }
    }

    /// Compares a channel's values with its reference; returns the worst relative error.
    static func check(
        _ values: [String: Double], reference: [String: Any], scale: Double, label: String
    ) -> Double {
        var worst = 0.0
        #expect(Set(values.keys) == Set(reference.keys), "\(label): feature names differ from the reference")
        for (name, ref) in reference {
            guard let v = values[name] else { continue }
            guard let r = (ref as? NSNumber)?.doubleValue else {
                #expect(v.isNaN, "\(label) \(name): reference is null, got \(v)")
                continue
            }
            #expect(v.isFinite, "\(label) \(name): got \(v), reference \(r)")
            // Relative to the reference; near zero, 1e-12 of the signal's scale (SciPy's least
            // squares gives 4e-17 for the slope of a constant, which is 0).
            let floor = 1e-12 * max(scale, 1)
            let e = abs(r) > 0 ? abs(v - r) / abs(r) : abs(v - r)
            if abs(v - r) > floor { worst = max(worst, e) }
            #expect(abs(v - r) <= max(1e-6 * abs(r), floor), "\(label) \(name): \(v) vs SciPy \(r)")
        }
        return worst
    }

    @Test(arguments: ["sine_noise", "random_walk", "short_odd", "ties", "constant"])
    func singleChannelAgreesWithSciPy(_ name: String) throws {
        let c = try #require(Self.cases[name] as? [String: Any], "fixture case \(name) missing")
        let fs = try #require((c["sample_rate"] as? NSNumber)?.doubleValue)
        let x = try Self.signal(name, columns: 1)[0]
        var extractor = FeatureExtractor()
        let values = extractor.extract(x, sampleRate: fs)
        let named = Dictionary(uniqueKeysWithValues: zip(extractor.features.map(\.name), values))
        let channels = try #require(c["channels"] as? [String: Any])
        let ref = try #require(channels["value"] as? [String: Any])
        let scale = x.map(abs).max() ?? 1
        let worst = Self.check(named, reference: ref, scale: scale * scale, label: name)
        print("features \(name): worst relative error against SciPy \(worst)")
    }

    /// The family path: 10-s aligned windows, masked samples left out (gappy), per-axis plus
    /// magnitude and SMA (triaxial).
    @Test(arguments: ["triaxial", "gappy"])
    func familyAgreesWithSciPy(_ name: String) throws {
        let c = try #require(Self.cases[name] as? [String: Any], "fixture case \(name) missing")
        let fs = try #require((c["sample_rate"] as? NSNumber)?.doubleValue)
        let columnNames = try #require(c["columns"] as? [String])
        let x = try Self.signal(name, columns: columnNames.count)
        let n = x[0].count
        let start = 1_700_000_000.0
        let flags: [UInt8] = (0..<n).map { i in x.allSatisfy { $0[i].isFinite } ? 0 : SampleFlags.missing.rawValue }
        let triaxial = columnNames == ["x", "y", "z"]
        let info = StreamInfo(
            key: StreamKey(deviceID: "d", sensor: triaxial ? .accelerometer : .photoplethysmogram, channel: "c"),
            columns: columnNames.map { ColumnInfo(name: $0, unit: triaxial ? .standardGravity : .dimensionless) },
            nominalSampleRate: fs)
        let stream = SyntheticStream(
            info: info, times: (0..<n).map { start + Double($0) / fs }, columns: x.map { $0.map(Float.init) },
            flags: flags, uniformRate: fs)
        let out = try stream.run(capacity: 128)
        let windows = out.table("feature_windows")
        try #require(windows.count == 1, "one 10-s window expected, got \(windows.count)")
        let family = triaxial ? "acc" : "ppg"
        var byChannel = [String: [String: Double]]()
        for row in out.table("features") {
            let feature = try #require(row[3].string)
            let parts = feature.split(separator: "_", maxSplits: 2).map(String.init)
            #expect(parts[0] == family)
            byChannel[parts[1], default: [:]][parts[2]] = row[4].double ?? .nan
        }
        let channels = try #require(c["channels"] as? [String: Any])
        #expect(Set(byChannel.keys) == Set(channels.keys))
        for (channel, ref) in channels {
            let worst = Self.check(
                byChannel[channel] ?? [:], reference: try #require(ref as? [String: Any]), scale: 4, label: "\(name) \(channel)")
            print("features \(name) \(channel): worst relative error against SciPy \(worst)")
        }
        if name == "gappy" {
            #expect(windows[0][4].double == 450)
            #expect(abs((windows[0][5].double ?? 0) - 0.9) < 1e-12)
        }
    }
}

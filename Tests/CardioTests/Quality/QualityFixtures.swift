import Foundation
import _TestSupport

/// One case of `Fixtures/quality/` (written by `scripts/make-sqi-fixtures.py`).
struct QualityCase {
    var name: String
    var sampleRate: Double
    var samples: [Float]
    var rPeaks: [Int]
    var elgendi: [Int]
    var values: [String: Any]

    func double(_ key: String) -> Double? { (values[key] as? NSNumber)?.doubleValue }
    func string(_ key: String) -> String? { values[key] as? String }
    func bool(_ key: String) -> Bool? { (values[key] as? NSNumber)?.boolValue }

    static let names = [
        "clean_360", "noise010_250", "noise030_500", "clean_125", "wander_1000",
        "noise100_360", "tachy_360", "muscle_360", "gaussian_360",
    ]

    static func load(_ name: String) throws -> QualityCase {
        let all = try Fixtures.json("CardioTests", "quality/cases.json")
        guard let cases = all["cases"] as? [String: Any], let v = cases[name] as? [String: Any],
            let fs = (v["sample_rate"] as? NSNumber)?.doubleValue
        else {
            throw CocoaError(.fileReadCorruptFile, userInfo: [NSLocalizedDescriptionKey: "no case \(name)"])
        }
        return QualityCase(
            name: name, sampleRate: fs,
            samples: try Fixtures.doubles("CardioTests", "quality/\(name).npy").map(Float.init),
            rPeaks: try Fixtures.ints("CardioTests", "quality/\(name)_rpeaks.npy"),
            elgendi: try Fixtures.ints("CardioTests", "quality/\(name)_elgendi.npy"),
            values: v)
    }

    /// NeuroKit2's label text → SensorPipe's raw value.
    static func normalisedLabel(_ nk: String) -> String {
        switch nk.lowercased() {
        case "excellent": "excellent"
        case "barely acceptable": "barely_acceptable"
        default: "unacceptable" // NeuroKit2 spells it "Unacceptable" (or "Unnacceptable")
        }
    }
}

/// |a − b| / |b| (with |b| floored at `floor`).
func relativeError(_ a: Double, _ b: Double, floor: Double = 1e-300) -> Double {
    if a == b { return 0 }
    return abs(a - b) / max(abs(b), floor)
}

import Cardio
import Foundation
import _TestSupport

/// The NeuroKit2 reference fixtures written by `scripts/make-hrv-fixtures.py`.
enum HRVFixtures {
    static let seriesNames = ["syn300", "syn1200q", "syn5000", "mitdb100"]

    struct Case {
        var name: String
        var series: NNIntervalSeries
        var json: [String: Any]

        /// A group of reference values (`time`, `frequency_welch`, …); NaN for JSON null.
        func reference(_ group: String) -> [String: Double] {
            let g = json[group] as? [String: Any] ?? [:]
            var out = [String: Double]()
            for (k, v) in g { out[k] = (v as? Double) ?? (v as? Int).map(Double.init) ?? .nan }
            return out
        }
    }

    static func load(_ name: String) throws -> Case {
        let nn = try Fixtures.doubles("CardioTests", "hrv/\(name)_nn.npy")
        let json = try Fixtures.json("CardioTests", "hrv/\(name).json")
        var times: [Double]?
        if json["has_times"] as? Bool == true {
            times = try Fixtures.doubles("CardioTests", "hrv/\(name)_times.npy")
        }
        let series = try NNIntervalSeries(intervalsMilliseconds: nn, closingBeatTimesSeconds: times)
        return Case(name: name, series: series, json: json)
    }

    /// |a − b| / |b|, 0 when both are NaN (NeuroKit2's NaN for an undefined value), ∞ when only one is.
    static func relativeError(_ a: Double, _ b: Double) -> Double {
        if a.isNaN && b.isNaN { return 0 }
        if a.isNaN || b.isNaN { return .infinity }
        if a == b { return 0 }
        return abs(a - b) / abs(b)
    }

    /// Largest relative error over the named metrics, with the worst name.
    static func worst(
        _ metrics: HRVMetrics, _ reference: [String: Double], names: [String],
        scale: [String: Double] = [:]
    ) -> (error: Double, name: String) {
        var worst = (0.0, "")
        for name in names {
            let ours = metrics[HRVMetric(rawValue: name)!]! * (scale[name] ?? 1)
            let e = relativeError(ours, reference[name] ?? .nan)
            if e > worst.0 || e.isNaN { worst = (e.isNaN ? .infinity : e, name) }
        }
        return worst
    }
}

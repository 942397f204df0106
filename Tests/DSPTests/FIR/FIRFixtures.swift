import Foundation
import _TestSupport

/// Reads the FIR fixtures written by `scripts/refvec/fir.py`: concatenated arrays
/// (`<stem>.npy`) indexed by `<stem>.json` (one entry per case with `offset`, `count` and the
/// case's parameters).
struct FIRFixtureCase {
    var params: [String: Any]
    var values: [Double]

    func string(_ key: String) -> String { params[key] as? String ?? "" }
    func int(_ key: String) -> Int { (params[key] as? NSNumber)?.intValue ?? -1 }
    func double(_ key: String) -> Double { (params[key] as? NSNumber)?.doubleValue ?? .nan }
    func bool(_ key: String) -> Bool { (params[key] as? NSNumber)?.boolValue ?? false }
    func doubles(_ key: String) -> [Double] {
        (params[key] as? [Any] ?? []).compactMap { ($0 as? NSNumber)?.doubleValue }
    }
}

enum FIRFixtures {
    static func cases(_ stem: String) throws -> [FIRFixtureCase] {
        let data = try Data(contentsOf: Fixtures.url("DSPTests", "fir/\(stem).json"))
        let index = try JSONSerialization.jsonObject(with: data) as? [[String: Any]] ?? []
        let all = try Fixtures.doubles("DSPTests", "fir/\(stem).npy")
        return index.map { entry in
            let offset = (entry["offset"] as? NSNumber)?.intValue ?? 0
            let count = (entry["count"] as? NSNumber)?.intValue ?? 0
            return FIRFixtureCase(params: entry, values: Array(all[offset..<offset + count]))
        }
    }

    static func json(_ name: String) throws -> [String: Any] {
        try Fixtures.json("DSPTests", "fir/\(name)")
    }

    /// max |a − b| over all elements (absolute error).
    static func maxAbsoluteError(_ a: [Double], _ b: [Double]) -> Double {
        precondition(a.count == b.count, "length mismatch \(a.count) vs \(b.count)")
        var worst = 0.0
        for i in a.indices {
            let e = abs(a[i] - b[i])
            if e > worst || e.isNaN { worst = e.isNaN ? .infinity : e }
        }
        return worst
    }
}

import DSP
import Foundation
import Testing
import _TestSupport

/// One (signal, parameter set) run of `scipy.signal.find_peaks` from scripts/refvec/peaks.py.
struct PeakRun: CustomTestStringConvertible, Sendable {
    var caseName: String
    var setName: String
    var columns: [String]
    var testDescription: String { "\(caseName)/\(setName)" }

    static func all() -> [PeakRun] {
        guard let json = try? Fixtures.json("DSPTests", "peaks/params.json"),
            let runs = json["runs"] as? [[String: Any]]
        else { return [] }
        return runs.map {
            PeakRun(
                caseName: $0["case"] as! String, setName: $0["set"] as! String,
                columns: $0["columns"] as! [String])
        }
    }

    /// The PeakFinder equivalent of the run's SciPy keyword arguments.
    func finder() throws -> PeakFinder {
        let json = try Fixtures.json("DSPTests", "peaks/params.json")
        let sets = try #require(json["sets"] as? [String: [String: Any]])
        let p = try #require(sets[setName])
        func limits(_ key: String) -> PeakFinder.Limits? {
            guard let pair = p[key] as? [Any] else { return nil }
            return PeakFinder.Limits(
                minimum: (pair[0] as? NSNumber)?.doubleValue,
                maximum: (pair[1] as? NSNumber)?.doubleValue)
        }
        return PeakFinder(
            height: limits("height"), threshold: limits("threshold"),
            distance: (p["distance"] as? NSNumber)?.doubleValue,
            prominence: limits("prominence"), width: limits("width"),
            plateauSize: limits("plateau_size"),
            windowLength: (p["wlen"] as? NSNumber)?.intValue,
            relativeHeight: (p["rel_height"] as? NSNumber)?.doubleValue ?? 0.5)
    }
}

@Suite("PeakFinder against scipy.signal.find_peaks")
struct PeakFinderTests {
    @Test("Identical indices and properties", arguments: PeakRun.all())
    func matchesSciPy(run: PeakRun) throws {
        let x = try Fixtures.doubles("DSPTests", "peaks/\(run.caseName).npy")
        let table = try NPY.read(Fixtures.url("DSPTests", "peaks/\(run.caseName)__\(run.setName).npy"))
        let width = run.columns.count
        let rows = table.doubles.count / width
        func column(_ name: String) -> [Double]? {
            guard let c = run.columns.firstIndex(of: name) else { return nil }
            return (0..<rows).map { table.doubles[$0 * width + c] }
        }
        let result = try run.finder().find(in: x)

        let expectedPeaks = column("peak")!.map { Int($0) }
        try #require(result.count == expectedPeaks.count, "peak count \(result.count) vs \(expectedPeaks.count)")
        #expect(zip(result.indices, expectedPeaks).filter { $0 != $1 }.count == 0)

        // Every property SciPy returned must be reported and equal; the others must be absent.
        let reported: [String: [Double]?] = [
            "peak_heights": result.heights,
            "left_thresholds": result.leftThresholds, "right_thresholds": result.rightThresholds,
            "prominences": result.prominences,
            "left_bases": result.leftBases?.map(Double.init),
            "right_bases": result.rightBases?.map(Double.init),
            "widths": result.widths, "width_heights": result.widthHeights,
            "left_ips": result.leftIntersections, "right_ips": result.rightIntersections,
            "plateau_sizes": result.plateauSizes.map(Double.init),
            "left_edges": result.leftEdges.map(Double.init),
            "right_edges": result.rightEdges.map(Double.init),
        ]
        let alwaysReported: Set = ["peak_heights", "plateau_sizes", "left_edges", "right_edges"]
        for (name, value) in reported {
            if let expected = column(name) {
                let got = try #require(value, "\(name) missing")
                let worst = zip(got, expected).map { abs($0 - $1) }.max() ?? 0
                #expect(worst == 0, "\(name): max |Δ| = \(worst)")
            } else if !alwaysReported.contains(name) {
                #expect(value == nil, "\(name) reported but SciPy did not compute it")
            }
        }
    }

    @Test("Float input gives the same peaks as its Double conversion")
    func floatInput() throws {
        let x = try Fixtures.doubles("DSPTests", "peaks/ecg.npy").map(Float.init)
        let finder = PeakFinder(height: 0.5, distance: 72, prominence: .atLeast(0.6))
        #expect(finder.find(in: x) == finder.find(in: x.map(Double.init)))
        #expect(finder.find(in: x).count > 5)
    }

    @Test("Hand-checked plateaus, edges and ties")
    func handChecked() {
        // Plateau of even length → left middle; plateau at the end is not a peak.
        let a: [Double] = [0, 2, 2, 2, 2, 0, 1, 3, 3]
        #expect(PeakFinder().find(in: a).indices == [2])
        // Equal heights closer than the distance: the later one is kept.
        let b: [Double] = [0, 5, 0, 5, 0]
        #expect(PeakFinder(distance: 3).find(in: b).indices == [3])
        // Distance 2.1 is rounded up to 3.
        let c: [Double] = [0, 4, 0, 5, 0, 0, 6, 0]
        #expect(PeakFinder(distance: 2.1).find(in: c).indices == [3, 6])
        // Prominence of a peak on a slope, with bases.
        let d: [Double] = [0, 3, 1, 2, 0.5, 4, 0]
        let r = PeakFinder(prominence: .unbounded).find(in: d)
        #expect(r.indices == [1, 3, 5])
        #expect(r.prominences == [2.5, 1, 4])
        #expect(r.leftBases == [0, 2, 0] && r.rightBases == [4, 4, 6])
        #expect(PeakFinder().find(in: [Double]()).count == 0)
    }
}

import CSQLite
import Foundation
import Pipeline
import Recordings
import _TestSupport

/// A results database made by a real batch run over copies of the demo recordings (copies, so a
/// test can move or change a file after the run), and helpers to read reports back.
final class ReportFixture {
    let dir = TemporaryDirectory()
    let database: String
    let recordings: [String]

    static let demoECG = ["watch-1_mitdb100_1716282000.ndjson.gz", "watch-1_mitdb105_1716285600.ndjson.gz"]

    /// Every demo recording of `Datasets/` (folder, file).
    static var demoAll: [(folder: String, name: String)] {
        ["accelerometer", "ecg", "ppg"].flatMap { folder in
            let url = Fixtures.repositoryRoot.appendingPathComponent("Datasets/\(folder)")
            let names = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
            return names.filter { $0.hasSuffix(".ndjson.gz") }.sorted().map { (folder, $0) }
        }
    }

    /// Runs a batch over copies of `Datasets/<folder>/<name>` files (or of any file, by a path
    /// from the repository root as `folder`), with `analysis` (decoding and analysis options).
    init(
        _ files: [(folder: String, name: String)] = demoECG.map { ("ecg", $0) }, analysis: AnalysisConfiguration = AnalysisConfiguration()
    ) throws {
        var paths = [String]()
        for f in files {
            let source =
                f.folder.hasPrefix("Tests/")
                ? Fixtures.repositoryRoot.appendingPathComponent("\(f.folder)/\(f.name)")
                : Fixtures.repositoryRoot.appendingPathComponent("Datasets/\(f.folder)/\(f.name)")
            let copy = dir.url.appendingPathComponent(f.name)
            try FileManager.default.copyItem(at: source, to: copy)
            if !f.name.hasSuffix(".dat") { paths.append(copy.path) }
        }
        recordings = paths
        database = dir.url.appendingPathComponent("results.sqlite").path
        let store = try BatchDatabase(path: database)
        // The raw-stream features (opt-in since issue 35), so that the pages show a features section.
        var analysis = analysis
        try analysis.set(family: "features", key: "raw", value: .flag(true), origin: "test")
        _ = try BatchRunner.run(
            recordings: paths, store: store, options: BatchOptions(jobs: 1, softwareVersion: "test", analysis: analysis))
    }

    /// Runs SQL statements on the database (to make a database as another version wrote it).
    func execute(_ sql: String) {
        var db: OpaquePointer?
        guard sqlite3_open(database, &db) == SQLITE_OK else { return }
        defer { sqlite3_close_v2(db) }
        sqlite3_exec(db, sql, nil, nil, nil)
    }

    /// Rows of an SQL query as dictionaries of text/number values (read with SQLite directly, not
    /// through the report's reader).
    func query(_ sql: String) -> [[String: Double?]] {
        var db: OpaquePointer?
        guard sqlite3_open_v2(database, &db, SQLITE_OPEN_READONLY, nil) == SQLITE_OK else { return [] }
        defer { sqlite3_close_v2(db) }
        var stmt: OpaquePointer?
        guard sqlite3_prepare_v2(db, sql, -1, &stmt, nil) == SQLITE_OK else { return [] }
        defer { sqlite3_finalize(stmt) }
        var out = [[String: Double?]]()
        while sqlite3_step(stmt) == SQLITE_ROW {
            var row = [String: Double?]()
            for c in 0..<sqlite3_column_count(stmt) {
                let name = String(cString: sqlite3_column_name(stmt, c))
                row[name] = sqlite3_column_type(stmt, c) == SQLITE_NULL ? nil : sqlite3_column_double(stmt, c)
            }
            out.append(row)
        }
        return out
    }
}

/// One plot of a report page, read from its SVG: the mapping it declares and its series paths.
struct DrawnPlot {
    var t0 = 0.0, t1 = 0.0, v0 = 0.0, v1 = 0.0
    var left = 0.0, right = 0.0, top = 0.0, bottom = 0.0
    /// Series name → points (pixel coordinates), in drawing order.
    var series: [String: [(x: Double, y: Double)]] = [:]
    var reduced: [String: Bool] = [:]

    /// The time and value of a drawn point.
    func data(_ p: (x: Double, y: Double)) -> (t: Double, v: Double) {
        (t0 + (p.x - left) / (right - left) * (t1 - t0), v0 + (bottom - p.y) / (bottom - top) * (v1 - v0))
    }

    /// Reads the plot `id` (a `<figure id=…>`) from page HTML; `nil` when absent.
    static func read(_ html: String, id: String) -> DrawnPlot? {
        guard let start = html.range(of: "<figure id=\"\(id)\"") else { return nil }
        guard let end = html.range(of: "</figure>", range: start.upperBound..<html.endIndex) else { return nil }
        let figure = String(html[start.lowerBound..<end.upperBound])
        var plot = DrawnPlot()
        func attribute(_ name: String, in text: String) -> String? {
            guard let a = text.range(of: " \(name)=\"") else { return nil }
            guard let b = text.range(of: "\"", range: a.upperBound..<text.endIndex) else { return nil }
            return String(text[a.upperBound..<b.lowerBound])
        }
        guard let svgEnd = figure.range(of: ">", range: figure.range(of: "<svg")!.upperBound..<figure.endIndex) else { return nil }
        let svg = String(figure[..<svgEnd.upperBound])
        for (name, keyPath) in [
            ("data-t0", \DrawnPlot.t0), ("data-t1", \.t1), ("data-v0", \.v0), ("data-v1", \.v1), ("data-left", \.left),
            ("data-right", \.right), ("data-top", \.top), ("data-bottom", \.bottom),
        ] as [(String, WritableKeyPath<DrawnPlot, Double>)] {
            guard let v = attribute(name, in: svg).flatMap(Double.init) else { return nil }
            plot[keyPath: keyPath] = v
        }
        var rest = figure[...]
        while let p = rest.range(of: "<path ") {
            let close = rest.range(of: "/>", range: p.upperBound..<rest.endIndex) ?? (rest.endIndex..<rest.endIndex)
            let element = String(rest[p.lowerBound..<close.lowerBound])
            rest = rest[close.upperBound...]
            guard element.contains(" series\""), let name = attribute("data-series", in: element),
                let d = attribute("d", in: element)
            else { continue }
            plot.reduced[name] = attribute("data-reduced", in: element) == "1"
            plot.series[name, default: []] += parsePath(d)
        }
        return plot
    }

    /// The points of an `M x y L x y …` path.
    static func parsePath(_ d: String) -> [(x: Double, y: Double)] {
        var out = [(x: Double, y: Double)]()
        for part in d.split(whereSeparator: { $0 == "M" || $0 == "L" }) {
            let xy = part.split(separator: " ").compactMap { Double($0) }
            if xy.count == 2 { out.append((xy[0], xy[1])) }
        }
        return out
    }
}

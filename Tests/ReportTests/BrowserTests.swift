import Foundation
import Pipeline
import Testing
import _TestSupport

@testable import Report

/// Headless Chromium, when installed (Debian: `apt-get install -y chromium`; `CHROMIUM` names
/// another binary).
enum Chromium {
    static let path: String? = {
        if let p = ProcessInfo.processInfo.environment["CHROMIUM"], FileManager.default.isExecutableFile(atPath: p) { return p }
        return ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/local/bin/chromium", "/snap/bin/chromium"]
            .first { FileManager.default.isExecutableFile(atPath: $0) }
    }()

    static let skipMessage = "chromium is not installed (apt-get install -y chromium): the report pages are not rendered in a browser"

    /// Runs Chromium headless with `arguments` on `url`; returns stdout and stderr.
    static func run(_ arguments: [String], url: URL, profile: URL) throws -> (out: String, err: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path!)
        process.arguments =
            [
                "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--no-first-run",
                "--user-data-dir=\(profile.path)", "--enable-logging=stderr", "--v=0",
            ] + arguments + [url.absoluteString]
        // Output goes to files (no pipe can fill up while the browser runs).
        let outURL = profile.deletingLastPathComponent().appendingPathComponent("chromium-\(UUID().uuidString).out")
        let errURL = outURL.appendingPathExtension("err")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let out = try FileHandle(forWritingTo: outURL), err = try FileHandle(forWritingTo: errURL)
        defer {
            try? out.close()
            try? err.close()
        }
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let deadline = Date().addingTimeInterval(90)
        while process.isRunning && Date() < deadline { usleep(50_000) }
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        let outData = (try? Data(contentsOf: outURL)) ?? Data(), errData = (try? Data(contentsOf: errURL)) ?? Data()
        return (String(decoding: outData, as: UTF8.self), String(decoding: errData, as: UTF8.self))
    }
}

/// The reports rendered by a real browser: no console error, every expected plot present and
/// drawn with a non-empty extent (measured by the browser's layout), screenshots saved as test
/// artefacts, and the heart-rate plot's points in the rendered DOM equal to the database rows.
@Suite("Report in headless Chromium", .enabled(if: Chromium.path != nil, Comment(rawValue: Chromium.skipMessage)))
struct BrowserTests {
    /// Where screenshots go: `SENSORPIPE_TEST_ARTIFACTS/report`, else `.build/test-artifacts/report`.
    static let artefacts: URL = {
        let base =
            ProcessInfo.processInfo.environment["SENSORPIPE_TEST_ARTIFACTS"].map { URL(fileURLWithPath: $0) }
            ?? Fixtures.repositoryRoot.appendingPathComponent(".build/test-artifacts")
        return base.appendingPathComponent("report")
    }()

    /// Measures every plot in the browser: the probe (added to a copy of the page; the report
    /// itself has no script) writes, per figure, the SVG's laid-out size and its drawn elements'
    /// bounding boxes into the DOM, which `--dump-dom` returns.
    static let probe = """
        <script>
        (function () {
          var out = [];
          document.querySelectorAll("figure.plot-figure").forEach(function (f) {
            var svg = f.querySelector("svg"); var r = svg.getBoundingClientRect();
            var drawn = 0, length = 0;
            svg.querySelectorAll("path.series, rect[class^='lane-'], rect[class^='q-'], circle.beat, circle.pt, rect.bar, rect.act, rect.spt").forEach(function (e) {
              var b = e.getBBox(); if (b.width > 0 || b.height > 0) drawn++;
              if (e.getTotalLength) length += e.getTotalLength();
            });
            // Legend items that overlap the title, or reach outside the drawing.
            var overlaps = 0, t = svg.querySelector("text.ptitle").getBBox(), vb = svg.viewBox.baseVal;
            svg.querySelectorAll("g.legend").forEach(function (g) {
              var b = g.getBBox();
              if (b.x < t.x + t.width && t.x < b.x + b.width && b.y < t.y + t.height && t.y < b.y + b.height) overlaps++;
              if (b.x < 0 || b.y < 0 || b.x + b.width > vb.width + 1 || b.y + b.height > vb.height + 1) overlaps++;
            });
            out.push(f.id + " " + Math.round(r.width) + " " + Math.round(r.height) + " " + drawn + " " + Math.round(length) + " " + overlaps);
          });
          var pre = document.createElement("pre"); pre.id = "probe"; pre.textContent = out.join(";");
          document.body.appendChild(pre);
        })();
        </script>
        """

    /// Renders `path` with the probe in Chromium: the DOM it dumps and, per figure, its laid-out
    /// width and height, drawn elements, path length and legend items over the title or outside.
    static func measure(_ path: String, name: String, in dir: URL, profile: URL) throws -> (dom: String, plots: [String: [Int]]) {
        let html = try String(contentsOfFile: path, encoding: .utf8)
        let probed = dir.appendingPathComponent("probe-\(name).html")
        try html.replacingOccurrences(of: "</body>", with: Self.probe + "</body>").write(to: probed, atomically: true, encoding: .utf8)
        let dump = try Chromium.run(["--dump-dom"], url: probed, profile: profile)
        let console = dump.err.split(separator: "\n").filter { $0.contains(":CONSOLE") }
        #expect(console.isEmpty, "\(name): console messages \(console)")
        let probe = try #require(
            dump.out.range(of: "<pre id=\"probe\">").flatMap { a in
                dump.out.range(of: "</pre>", range: a.upperBound..<dump.out.endIndex).map {
                    String(dump.out[a.upperBound..<$0.lowerBound])
                }
            }, "\(name): the browser did not run the probe")
        var plots = [String: [Int]]()
        for item in probe.split(separator: ";") {
            let parts = item.split(separator: " ")
            plots[String(parts[0])] = parts.dropFirst().compactMap { Int($0) }
        }
        return (dump.out, plots)
    }

    @Test func rendersWithoutErrorsAndDrawsEveryPlot() throws {
        let f = try ReportFixture([("ecg", "watch-1_mitdb100_1716282000.ndjson.gz"), ("ppg", "phone-1_butppg_1716296400.ndjson.gz")])
        let written = try Report.write(database: f.database, to: f.dir.url.appendingPathComponent("report").path)
        try FileManager.default.createDirectory(at: Self.artefacts, withIntermediateDirectories: true)
        let profile = f.dir.url.appendingPathComponent("chromium-profile")
        let expected: [Int: [String]] = [1: ["qc-timeline", "heart-rate", "strip-0", "strip-1"], 2: ["qc-timeline"]]
        var pages = written.pages.sorted { $0.key < $1.key }.map { (name: "recording-\($0.key)", path: $0.value, id: $0.key) }
        pages.append((name: "index", path: written.index, id: 0))
        for page in pages {
            let (dump, plots) = try Self.measure(page.path, name: page.name, in: f.dir.url, profile: profile)
            for id in expected[page.id] ?? [] {
                let m = try #require(plots[id], "\(page.name): plot \(id) is not in the rendered page")
                #expect(m[0] > 300 && m[1] > 50, "\(page.name): plot \(id) laid out at \(m[0])×\(m[1]) px")
                #expect(m[2] > 0, "\(page.name): plot \(id) has nothing drawn")
                if id == "heart-rate" || id.hasPrefix("strip") { #expect(m[3] > 100, "\(page.name): \(id) path length \(m[3])") }
            }
            let shot = Self.artefacts.appendingPathComponent("\(page.name).png")
            try? FileManager.default.removeItem(at: shot)
            _ = try Chromium.run(
                ["--window-size=1100,2400", "--screenshot=\(shot.path)"], url: URL(fileURLWithPath: page.path), profile: profile)
            let size = (try? FileManager.default.attributesOfItem(atPath: shot.path)[.size] as? Int) ?? 0
            #expect(size > 20_000, "\(page.name): screenshot \(shot.path) is \(size) bytes")
            // The heart-rate plot as the browser parsed it: its points are the heart_rate rows.
            if page.id == 1 {
                let plot = try #require(DrawnPlot.read(dump, id: "heart-rate"))
                let rows = f.query(
                    "SELECT window_start, window_end, bpm FROM heart_rate WHERE recording_id = 1 AND bpm IS NOT NULL ORDER BY window_start")
                let points = try #require(plot.series.values.first)
                try #require(points.count == rows.count && rows.count == 6)
                let tPerPixel = (plot.t1 - plot.t0) / (plot.right - plot.left), vPerPixel = (plot.v1 - plot.v0) / (plot.bottom - plot.top)
                for (p, r) in zip(points, rows) {
                    let (t, v) = plot.data(p)
                    #expect(abs(t - (r["window_start"]!! + r["window_end"]!!) / 2) <= 0.051 * tPerPixel)
                    #expect(abs(v - r["bpm"]!!) <= 0.051 * vPerPixel)
                }
            }
        }
    }

    /// Every family's section on the run over `Datasets/` (accelerometer, ECG and PPG demo
    /// recordings), as the browser laid it out: each section with results has plots, each plot
    /// is laid out with its legend clear of its title, has something drawn, and what is drawn
    /// is the database's rows (read here with SQLite directly): series points are the rows'
    /// (window middle, value), bars are the per-day columns, actogram bars the epochs' largest
    /// value per pixel column, strip markers the detected beats and pulses.
    @Test func everyFamilySectionDrawsItsRows() throws {
        let f = try ReportFixture(ReportFixture.demoAll)
        let written = try Report.write(database: f.database, to: f.dir.url.appendingPathComponent("report").path)
        try FileManager.default.createDirectory(at: Self.artefacts, withIntermediateDirectories: true)
        let profile = f.dir.url.appendingPathComponent("chromium-profile")
        var checked = [String: Int]() // family → plots checked against rows
        for (id, path) in written.pages.sorted(by: { $0.key < $1.key }) {
            let (dom, plots) = try Self.measure(path, name: "demo-\(id)", in: f.dir.url, profile: profile)
            for (family, figures) in Self.sections(dom) {
                #expect(!figures.isEmpty, "recording \(id): the \(family) section has results but no plot")
                for figure in figures {
                    let m = try #require(plots[figure], "recording \(id): \(figure) not measured")
                    #expect(m[0] > 300 && m[1] > 50, "recording \(id): \(figure) laid out at \(m[0])×\(m[1]) px")
                    #expect(m[2] > 0, "recording \(id): \(figure) has nothing drawn")
                    #expect(m[4] == 0, "recording \(id): \(figure): \(m[4]) legend items over the title or outside the plot")
                    if try checkRows(figure, dom: dom, recording: id, f) { checked[family, default: 0] += 1 }
                }
            }
        }
        for family in ["ecg", "ppg", "motion", "features", "waves"] {
            #expect((checked[family] ?? 0) > 0, "no \(family) plot was checked against its rows")
        }
    }

    /// Family → the figure ids of its section, for the sections with results.
    static func sections(_ dom: String) -> [(String, [String])] {
        var out = [(String, [String])]()
        for part in dom.components(separatedBy: "<section class=\"family\" data-family=\"").dropFirst() {
            let family = String(part.prefix { $0 != "\"" })
            let body = part.components(separatedBy: "</section>")[0]
            if body.contains("data-placeholder=") { continue }
            out.append((family, body.components(separatedBy: "<figure id=\"").dropFirst().map { String($0.prefix { $0 != "\"" }) }))
        }
        return out
    }

    /// The text of a figure's `<title>`.
    static func title(_ dom: String, _ id: String) -> String {
        guard let a = dom.range(of: "<title id=\"\(id)-title\">"), let b = dom.range(of: "</title>", range: a.upperBound..<dom.endIndex)
        else {
            return ""
        }
        return String(dom[a.upperBound..<b.lowerBound]).replacingOccurrences(of: "&#39;", with: "'").replacingOccurrences(
            of: "&amp;", with: "&")
    }

    /// SQL text literal.
    static func q(_ s: String) -> String { "'" + s.replacingOccurrences(of: "'", with: "''") + "'" }

    /// Attributes of every `<tag class="cls" …>` element of a figure.
    static func elements(_ dom: String, figure: String, tag: String, cls: String) -> [[String: String]] {
        guard let a = dom.range(of: "<figure id=\"\(figure)\""), let b = dom.range(of: "</figure>", range: a.upperBound..<dom.endIndex)
        else {
            return []
        }
        let text = String(dom[a.lowerBound..<b.lowerBound])
        var out = [[String: String]]()
        for part in text.components(separatedBy: "<\(tag) class=\"\(cls)").dropFirst() {
            let element = part.prefix { $0 != ">" }
            var attributes = [String: String]()
            for m in element.matches(of: /([a-z-]+)="([^"]*)"/) { attributes[String(m.1)] = String(m.2) }
            out.append(attributes)
        }
        return out
    }

    /// Checks a plot's drawn values against the database; `false` for plots with no such check.
    func checkRows(_ figure: String, dom: String, recording id: Int, _ f: ReportFixture) throws -> Bool {
        let plot = try #require(DrawnPlot.read(dom, id: figure))
        let tPerPixel = (plot.t1 - plot.t0) / (plot.right - plot.left), vPerPixel = (plot.v1 - plot.v0) / (plot.bottom - plot.top)
        let title = Self.title(dom, figure)
        let key = title.split(separator: ": ", maxSplits: 1).last.map(String.init) ?? ""
        func compare(_ name: String, _ sql: String, value: String) throws {
            let points = try #require(plot.series[name], "\(figure): no series \(name)")
            let rows = f.query(sql)
            #expect(plot.reduced[name] == false)
            try #require(points.count == rows.count && !rows.isEmpty, "\(figure) \(name): \(points.count) points, \(rows.count) rows")
            for (p, r) in zip(points, rows) {
                let (t, v) = plot.data(p)
                let mid = r["window_end"].map { (r["start"]!! + $0!) / 2 } ?? r["start"]!!
                #expect(abs(t - mid) <= 0.051 * tPerPixel, "\(figure) \(name): t \(t) vs \(mid)")
                #expect(abs(v - r[value]!!) <= 0.051 * vPerPixel, "\(figure) \(name): \(v) vs \(r[value]!!)")
            }
        }
        if figure == "ppg-heart-rate" || figure == "ppg-heart-rate-confidence" {
            let column = figure == "ppg-heart-rate" ? "bpm" : "confidence"
            for name in plot.series.keys {
                let parts = name.components(separatedBy: ": ")
                try compare(
                    name,
                    "SELECT window_start AS start, window_end, \(column) FROM heart_rate WHERE recording_id = \(id) AND source = 'ppg' AND method = \(Self.q(parts[0])) AND stream = \(Self.q(parts[1])) AND \(column) IS NOT NULL ORDER BY window_start",
                    value: column)
            }
            return true
        }
        if figure.hasPrefix("enmo-") {
            try compare(
                "enmo_mg",
                "SELECT epoch_start AS start, epoch_end AS window_end, enmo_mg FROM motion_epochs WHERE recording_id = \(id) AND stream = \(Self.q(key)) AND enmo_mg IS NOT NULL ORDER BY epoch_start",
                value: "enmo_mg")
            return true
        }
        if figure.hasPrefix("feature-") {
            let feature = String(key.components(separatedBy: " of ")[0])
            for name in plot.series.keys {
                try compare(
                    name,
                    "SELECT window_start AS start, window_end, value FROM features WHERE recording_id = \(id) AND stream = \(Self.q(name)) AND feature = \(Self.q(feature)) AND value IS NOT NULL ORDER BY window_start",
                    value: "value")
            }
            return true
        }
        for (prefix, scale) in [("intensity-", 1.0 / 60), ("steps-", 1.0), ("wear-", 1.0 / 3600)] where figure.hasPrefix(prefix) {
            let bars = Self.elements(dom, figure: figure, tag: "rect", cls: "b").filter { $0["data-day"] != nil } // not the legend's
            try #require(!bars.isEmpty)
            for bar in bars {
                let day = try #require(bar["data-day"]), column = try #require(bar["data-column"])
                let row = try #require(
                    f.query(
                        "SELECT \(column) AS v FROM motion_daily WHERE recording_id = \(id) AND stream = \(Self.q(key)) AND day = \(Self.q(day))"
                    ).first)
                let drawn = try #require(Double(bar["height"] ?? "")) * vPerPixel
                #expect(
                    abs(drawn - row["v"]!! * scale) <= 0.051 * vPerPixel + 1e-9,
                    "\(figure) \(day) \(column): \(drawn) vs \(row["v"]!! * scale)")
            }
            return true
        }
        if figure.hasPrefix("actogram-") {
            let stream = String(key.components(separatedBy: " (")[0])
            let group = try #require(Self.elements(dom, figure: figure, tag: "g", cls: "actogram").first)
            let vmax = try #require(Double(group["data-vmax"] ?? "")), lane = try #require(Double(group["data-lane-height"] ?? ""))
            let rows = f.query(
                "SELECT epoch_start, enmo_mg FROM motion_epochs WHERE recording_id = \(id) AND stream = \(Self.q(stream)) AND enmo_mg IS NOT NULL"
            )
            #expect(abs(vmax - rows.compactMap { $0["enmo_mg"]! }.max()!) < 1e-9)
            // Expected: per pixel column of the day (UTC here: the demo has no UTC offset), the largest value.
            var expected = [Int: Double]()
            for r in rows {
                let t = r["epoch_start"]!!
                let column = Int(t.truncatingRemainder(dividingBy: 86_400) / 86_400 * (plot.right - plot.left))
                expected[column] = max(expected[column] ?? 0, r["enmo_mg"]!!)
            }
            let bars = Self.elements(dom, figure: figure, tag: "rect", cls: "act").filter { $0["data-col"] != nil } // not the legend's
            #expect(bars.count == expected.values.filter { $0 > 0 }.count)
            for bar in bars {
                let column = try #require(Int(bar["data-col"] ?? "")), h = try #require(Double(bar["height"] ?? ""))
                #expect(abs(h / lane * vmax - (expected[column] ?? -1)) < 1e-6 * vmax, "\(figure) column \(column)")
            }
            return true
        }
        if figure.hasPrefix("strip-") {
            let stream = String(key)
            let source = title.hasPrefix("PPG") ? "ppg" : "ecg"
            let drawn = Self.elements(dom, figure: figure, tag: "circle", cls: "beat").compactMap { $0["data-t"].flatMap(Double.init) }
                .sorted()
            let rows = f.query(
                "SELECT time FROM beats WHERE recording_id = \(id) AND source = '\(source)' AND stream = \(Self.q(stream)) AND time BETWEEN \(plot.t0) AND \(plot.t1) AND correction != 'removedExtra' ORDER BY time"
            ).compactMap { $0["time"] ?? nil }
            #expect(drawn == rows && !rows.isEmpty, "\(figure): \(drawn.count) markers, \(rows.count) beats")
            return true
        }
        if figure.hasPrefix("ecg-median-beat-") {
            // The median beat: its points are the sample rows of its stream and window; each
            // boundary marker is at a boundary row's offset, with its name.
            let stream = String(key.components(separatedBy: ", ")[0])
            let markers = Self.elements(dom, figure: figure, tag: "circle", cls: "beat")
            let window = try #require(markers.first?["data-window"].flatMap(Double.init), "\(figure): no boundary marker")
            let rows = f.query(
                "SELECT offset, amplitude FROM ecg_median_beats WHERE recording_id = \(id) AND stream = \(Self.q(stream)) AND window_start = \(window) AND point = 'sample' ORDER BY offset"
            )
            let points = try #require(plot.series["amplitude"], "\(figure): no amplitude line")
            try #require(points.count == rows.count && rows.count == 226, "\(figure): \(points.count) points, \(rows.count) rows")
            for (p, r) in zip(points, rows) {
                let (t, v) = plot.data(p)
                #expect(abs(t - r["offset"]!!) <= 0.051 * tPerPixel && abs(v - r["amplitude"]!!) <= 0.051 * vPerPixel, "\(figure) at \(t)")
            }
            let boundaries = f.query(
                "SELECT point, offset FROM ecg_median_beats WHERE recording_id = \(id) AND stream = \(Self.q(stream)) AND window_start = \(window) AND point != 'sample' AND amplitude IS NOT NULL ORDER BY offset"
            )
            #expect(
                boundaries.count == markers.count && boundaries.count >= 3, "\(figure): \(markers.count) markers, \(boundaries.count) rows")
            for m in markers {
                let t = try #require(m["data-t"].flatMap(Double.init)), label = try #require(m["data-label"])
                #expect(m["data-window"].flatMap(Double.init) == window)
                let row = f.query(
                    "SELECT offset FROM ecg_median_beats WHERE recording_id = \(id) AND stream = \(Self.q(stream)) AND window_start = \(window) AND point = \(Self.q(label))"
                )
                #expect(row.count == 1 && row.first?["offset"]! == t, "\(figure) \(label): drawn at \(t), row \(row)")
            }
            return true
        }
        if figure == "heart-rate" {
            for name in plot.series.keys {
                let parts = name.components(separatedBy: ": ")
                try compare(
                    name,
                    "SELECT window_start AS start, window_end, bpm FROM heart_rate WHERE recording_id = \(id) AND source = \(Self.q(parts[0])) AND stream = \(Self.q(parts[1])) AND bpm IS NOT NULL ORDER BY window_start",
                    value: "bpm")
            }
            return true
        }
        return false
    }
}

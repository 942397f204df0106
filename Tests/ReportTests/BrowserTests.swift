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
            svg.querySelectorAll("path.series, rect[class^='lane-'], rect[class^='q-'], circle.beat").forEach(function (e) {
              var b = e.getBBox(); if (b.width > 0 || b.height > 0) drawn++;
              if (e.getTotalLength) length += e.getTotalLength();
            });
            out.push(f.id + " " + Math.round(r.width) + " " + Math.round(r.height) + " " + drawn + " " + Math.round(length));
          });
          var pre = document.createElement("pre"); pre.id = "probe"; pre.textContent = out.join(";");
          document.body.appendChild(pre);
        })();
        </script>
        """

    @Test func rendersWithoutErrorsAndDrawsEveryPlot() throws {
        let f = try ReportFixture([("ecg", "watch-1_mitdb100_1716282000.ndjson.gz"), ("ppg", "phone-1_butppg_1716296400.ndjson.gz")])
        let written = try Report.write(database: f.database, to: f.dir.url.appendingPathComponent("report").path)
        try FileManager.default.createDirectory(at: Self.artefacts, withIntermediateDirectories: true)
        let profile = f.dir.url.appendingPathComponent("chromium-profile")
        let expected: [Int: [String]] = [1: ["qc-timeline", "heart-rate", "strip-0", "strip-1"], 2: ["qc-timeline"]]
        var pages = written.pages.sorted { $0.key < $1.key }.map { (name: "recording-\($0.key)", path: $0.value, id: $0.key) }
        pages.append((name: "index", path: written.index, id: 0))
        for page in pages {
            let html = try String(contentsOfFile: page.path, encoding: .utf8)
            let probed = f.dir.url.appendingPathComponent("probe-\(page.name).html")
            try html.replacingOccurrences(of: "</body>", with: Self.probe + "</body>").write(to: probed, atomically: true, encoding: .utf8)
            let dump = try Chromium.run(["--dump-dom"], url: probed, profile: profile)
            let console = dump.err.split(separator: "\n").filter { $0.contains(":CONSOLE") }
            #expect(console.isEmpty, "\(page.name): console messages \(console)")
            let probe = try #require(
                dump.out.range(of: "<pre id=\"probe\">").flatMap { a in
                    dump.out.range(of: "</pre>", range: a.upperBound..<dump.out.endIndex).map {
                        String(dump.out[a.upperBound..<$0.lowerBound])
                    }
                }, "\(page.name): the browser did not run the probe")
            var plots = [String: [Int]]()
            for item in probe.split(separator: ";") {
                let parts = item.split(separator: " ")
                plots[String(parts[0])] = parts.dropFirst().compactMap { Int($0) }
            }
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
                let plot = try #require(DrawnPlot.read(dump.out, id: "heart-rate"))
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
}

import Foundation
import Pipeline
import Testing
import _TestSupport

@testable import Report

/// The report pages: self-contained, each expected plot present and drawn from the database's
/// rows, honest when the recording file moved or changed, and small for long series.
@Suite("Report: HTML pages of a results database")
struct ReportTests {
    /// Index and one page per recording; no script, no external resource; the plots and the
    /// family placeholders are there.
    @Test func pagesAreSelfContainedAndComplete() throws {
        let f = try ReportFixture()
        let out = f.dir.url.appendingPathComponent("report").path
        let written = try Report.write(database: f.database, to: out)
        #expect(written.pages.count == 2)
        let index = try String(contentsOfFile: written.index, encoding: .utf8)
        for (id, page) in written.pages {
            #expect(index.contains("href=\"recording-\(id).html\""))
            let html = try String(contentsOfFile: page, encoding: .utf8)
            #expect(!html.contains("<script"))
            #expect(!html.contains("src="))
            #expect(!html.contains("<link"))
            // The only URL is the SVG namespace.
            #expect(
                html.replacingOccurrences(of: "http://www.w3.org/2000/svg", with: "").range(of: "https?://", options: .regularExpression)
                    == nil)
            for plot in ["qc-timeline", "heart-rate", "strip-0", "strip-1"] {
                #expect(html.contains("<figure id=\"\(plot)\""), "recording \(id): plot \(plot) missing")
            }
            // Every family has its section; these ECG recordings have no PPG or motion results
            // (placeholders), while the features family analyses their ECG stream (no placeholder).
            for family in ["ppg", "motion", "features"] {
                #expect(html.contains("data-family=\"\(family)\""), "recording \(id): \(family) section missing")
            }
            for family in ["ppg", "motion"] {
                #expect(html.contains("data-placeholder=\"\(family)\""), "recording \(id): \(family) placeholder missing")
            }
            #expect(!html.contains("data-placeholder=\"features\""), "recording \(id): features rows not shown")
            #expect(html.contains("No results from this family in this recording"))
            // Every plot has a text alternative.
            #expect(html.components(separatedBy: "<figure").count - 1 == html.components(separatedBy: "<desc id=").count - 1)
        }
        #expect(index.contains("73.9")) // recording_summary hr_mean_bpm of MIT-BIH 100 (docs/RESULTS.md: 73.9 bpm)
    }

    /// The heart-rate plot's points, turned back into times and values with the mapping the SVG
    /// declares, are the `heart_rate` rows (window middle, bpm) read from the database directly.
    @Test func heartRatePointsAreTheRows() throws {
        let f = try ReportFixture()
        let written = try Report.write(database: f.database, to: f.dir.url.appendingPathComponent("r").path)
        for (id, page) in written.pages {
            let html = try String(contentsOfFile: page, encoding: .utf8)
            let plot = try #require(DrawnPlot.read(html, id: "heart-rate"))
            let rows = f.query(
                "SELECT window_start, window_end, bpm FROM heart_rate WHERE recording_id = \(id) AND bpm IS NOT NULL ORDER BY window_start")
            let points = try #require(plot.series.values.first)
            #expect(plot.series.count == 1 && plot.reduced.values.first == false)
            try #require(points.count == rows.count && !rows.isEmpty)
            let tPerPixel = (plot.t1 - plot.t0) / (plot.right - plot.left), vPerPixel = (plot.v1 - plot.v0) / (plot.bottom - plot.top)
            for (p, r) in zip(points, rows) {
                let (t, v) = plot.data(p)
                let mid = (r["window_start"]!! + r["window_end"]!!) / 2
                #expect(abs(t - mid) <= 0.051 * tPerPixel)
                #expect(abs(v - r["bpm"]!!) <= 0.051 * vPerPixel)
            }
        }
    }

    /// When the file moved, or its content changed, the page says so and draws no strip (nothing
    /// from another file is shown as the analysed signal).
    @Test func movedOrChangedFileIsSaid() throws {
        let f = try ReportFixture()
        try FileManager.default.removeItem(atPath: f.recordings[0])
        try FileManager.default.removeItem(atPath: f.recordings[1])
        try FileManager.default.copyItem(
            at: Fixtures.repositoryRoot.appendingPathComponent("Datasets/ecg/watch-1_mitdb119_1716289200.ndjson.gz"),
            to: URL(fileURLWithPath: f.recordings[1]))
        let written = try Report.write(database: f.database, to: f.dir.url.appendingPathComponent("r").path)
        let moved = try String(contentsOfFile: written.pages[1]!, encoding: .utf8)
        let changed = try String(contentsOfFile: written.pages[2]!, encoding: .utf8)
        #expect(moved.contains("has moved or been deleted"))
        #expect(changed.contains("has changed since it was analysed"))
        for html in [moved, changed] {
            #expect(!html.contains("<figure id=\"strip-"))
            #expect(!html.contains("<figure id=\"qc-timeline\""))
            #expect(html.contains("<figure id=\"heart-rate\"")) // drawn from the database
        }
    }

    /// `--recording` by id and by path; an unknown one is a typed error.
    @Test func oneRecording() throws {
        let f = try ReportFixture()
        let byID = try Report.write(database: f.database, to: f.dir.url.appendingPathComponent("a").path, recording: "2")
        #expect(Array(byID.pages.keys) == [2])
        let byPath = try Report.write(database: f.database, to: f.dir.url.appendingPathComponent("b").path, recording: f.recordings[0])
        #expect(Array(byPath.pages.keys) == [1])
        #expect(throws: ReportError.self) { try Report.write(database: f.database, to: f.dir.url.path, recording: "/nowhere") }
    }

    /// A long series is reduced to a min/max envelope: at most two points per pixel column, and in
    /// every column the drawn extremes are the data's extremes there (computed here from the data).
    @Test func envelopeKeepsEachColumnsExtremes() {
        var generator = SystemRandomNumberGenerator()
        let n = 604_800 / 10 // a week of 10-s windows
        let t0 = 1_700_000_000.0
        var points = [(t: Double, v: Double?)]()
        points.reserveCapacity(n)
        for k in 0..<n { points.append((t0 + Double(k) * 10, 60 + Double.random(in: -20...40, using: &generator))) }
        var plot = Plot(
            id: "p", title: "t", t0: t0, t1: t0 + Double(n) * 10, v0: 0, v1: 120, time: TimeScale(origin: "unix"), yLabel: "bpm")
        plot.addSeries(points, gapSeconds: 15, cssClass: "s0", name: "hr")
        let html = plot.render(description: "d")
        let drawn = DrawnPlot.read(html, id: "p")!
        let path = drawn.series["hr"]!
        #expect(drawn.reduced["hr"] == true)
        #expect(path.count <= 2 * Int(plot.plotWidth) + 2)
        var extremes = [Int: (lo: Double, hi: Double)]()
        for p in points {
            let c = Int(plot.x(p.t) - plot.left)
            let e = extremes[c] ?? (p.v!, p.v!)
            extremes[c] = (min(e.lo, p.v!), max(e.hi, p.v!))
        }
        var drawnExtremes = [Int: (lo: Double, hi: Double)]()
        for p in path {
            let c = Int(p.x - plot.left) // columns are drawn at their middle
            let v = drawn.data(p).v
            let e = drawnExtremes[c] ?? (v, v)
            drawnExtremes[c] = (min(e.lo, v), max(e.hi, v))
        }
        #expect(drawnExtremes.count == extremes.count)
        let tolerance = 0.051 * 120 / plot.plotHeight
        var worst = 0.0
        for (c, e) in extremes {
            guard let d = drawnExtremes[c] else { continue }
            worst = max(worst, abs(d.lo - e.lo), abs(d.hi - e.hi))
        }
        #expect(worst <= tolerance)
        #expect(html.utf8.count < 60_000)
    }

    /// Time axes say which clock they show.
    @Test func timeAxisTitles() {
        #expect(
            TimeScale(origin: "unix", utcOffsetSeconds: 28_800).axisTitle(from: 1_716_282_000) == "local time (UTC+08:00), from 2024-05-21")
        #expect(TimeScale(origin: "unix", utcOffsetSeconds: -27_000).title == "local time (UTC−07:30)")
        #expect(TimeScale(origin: "unix").title.contains("UTC; the recording's UTC offset is unknown"))
        #expect(TimeScale(origin: "stream_start").title == "time from the stream's start")
        #expect(TimeScale(origin: "unix").label(1_716_285_600, span: 86_400, first: false) == "10:00")
    }

    /// Every family's declared section names only tables of the registry and columns those
    /// tables declare (columns marked optional may be missing from older databases; they are
    /// the only exception), and every family has its own section (none falls back to row counts).
    @Test func sectionDeclarationsNameDeclaredColumns() {
        let tables = Dictionary(uniqueKeysWithValues: AnalysisRegistry.resultTables.map { ($0.name, $0) })
        for family in AnalysisRegistry.families {
            let section = family.reportSection
            #expect(!section.items.contains { if case .rowCounts = $0 { true } else { false } }, "\(family.name) declares no section")
            #expect(!section.methods.isEmpty && !section.citations.isEmpty, "\(family.name): no methods paragraph")
            for ref in section.columnReferences {
                let table = tables[ref.table.name]
                #expect(table == ref.table, "\(family.name): table \(ref.table.name) is not the registered declaration")
                #expect(
                    ref.optional || (table?.columns.contains { $0.name == ref.column } ?? false),
                    "\(family.name): \(ref.table.name).\(ref.column) is not a declared column")
            }
        }
    }

    /// A run made with non-default decode options (here `--no-verify-integrity` over a WFDB
    /// record whose header checksum does not match its data) is read back with those options:
    /// the timeline is drawn. With the default options the read-back fails on the checksum.
    @Test func readBackUsesTheRunsDecodeOptions() throws {
        var analysis = AnalysisConfiguration()
        analysis.decode.verifiesIntegrity = false
        let f = try ReportFixture(
            [
                ("Tests/RecordingsTests/Fixtures/bad/wfdb", "bad-checksum.dat"),
                ("Tests/RecordingsTests/Fixtures/bad/wfdb", "bad-checksum.hea"),
            ],
            analysis: analysis)
        #expect(f.query("SELECT id FROM recordings WHERE status = 'ok'").count == 1)
        let written = try Report.write(database: f.database, to: f.dir.url.appendingPathComponent("r").path)
        let html = try String(contentsOfFile: try #require(written.pages[1]), encoding: .utf8)
        #expect(!html.contains("could not be read back"))
        #expect(html.contains("<figure id=\"qc-timeline\""))
    }

    /// The summary table is the `recording_summary` declaration: a line per declared column the
    /// database has, its meaning as the tooltip.
    @Test func summaryTableFollowsTheDeclaration() throws {
        let f = try ReportFixture([("ecg", ReportFixture.demoECG[0])])
        let written = try Report.write(database: f.database, to: f.dir.url.appendingPathComponent("r").path)
        let html = try String(contentsOfFile: try #require(written.pages[1]), encoding: .utf8)
        let declared = try #require(AnalysisRegistry.resultTables.first { $0.name == "recording_summary" })
        for column in declared.columns where !["family", "device"].contains(column.name) {
            let tooltip = column.summary.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "'", with: "&#39;")
                .replacingOccurrences(of: "\"", with: "&quot;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(
                    of: ">", with: "&gt;")
            #expect(html.contains("<tr data-column=\"\(column.name)\"><th class=\"l\" title=\"\(tooltip)"), "\(column.name)")
        }
    }

    /// The index page is a study page: failures first, the compliance heatmap per recording
    /// and day from daily_summary, and the distribution of the summary figures.
    @Test func indexIsAStudyPage() throws {
        let bad = "Tests/RecordingsTests/Fixtures/bad/wfdb"
        let f = try ReportFixture([
            ("ecg", ReportFixture.demoECG[0]), ("accelerometer", "oxford_user1_hand_1506421989895.ndjson.gz"), (bad, "bad-checksum.dat"),
            (bad, "bad-checksum.hea"),
        ])
        let written = try Report.write(database: f.database, to: f.dir.url.appendingPathComponent("r").path)
        let index = try String(contentsOfFile: written.index, encoding: .utf8)
        // The failed recording (checksum mismatch) comes first, with its error.
        let failures = try #require(index.range(of: "<table id=\"failures\""))
        let compliance = try #require(index.range(of: "<table id=\"compliance\""))
        #expect(failures.lowerBound < compliance.lowerBound)
        #expect(index[failures.lowerBound...].contains("bad-checksum.hea"))
        #expect(index.contains("<table id=\"distributions\""))
        // Each heatmap cell holds the recording's largest analysed hours of that day.
        for row in f.query("SELECT recording_id, MAX(analysed_hours) AS h FROM daily_summary GROUP BY recording_id, date") {
            let h = try #require(row["h"] ?? nil)
            #expect(index.contains("data-analysed=\"\(h)\""), "recording \(row["recording_id"]!!): \(h) h")
        }
    }

    /// The device's own ECG classification (`ecg_summary.device_classification`, Apple Health
    /// exports) is shown in the ECG section, labelled as the device's, beside SensorPipe's
    /// figures; a database without the column (an older run) shows nothing of it.
    @Test func deviceClassificationWhenStored() throws {
        let f = try ReportFixture([("ecg", ReportFixture.demoECG[0])])
        let label = "the device&#39;s own classification"
        let before = try Report.write(database: f.database, to: f.dir.url.appendingPathComponent("a").path)
        let old = try String(contentsOfFile: try #require(before.pages[1]), encoding: .utf8)
        #expect(!old.localizedCaseInsensitiveContains(label))
        #expect(old.contains("Per ECG stream: SensorPipe"))
        let columns = f.query("SELECT name = 'device_classification' AS has FROM pragma_table_info('ecg_summary')")
        if !columns.contains(where: { $0["has"] == 1 }) {
            f.execute("ALTER TABLE ecg_summary ADD COLUMN device_classification TEXT")
        }
        f.execute("UPDATE ecg_summary SET device_classification = 'Sinus Rhythm'")
        let after = try Report.write(database: f.database, to: f.dir.url.appendingPathComponent("b").path)
        let html = try String(contentsOfFile: try #require(after.pages[1]), encoding: .utf8)
        #expect(html.localizedCaseInsensitiveContains(label))
        #expect(html.contains("<td class=\"l\" data-column=\"device_classification\">Sinus Rhythm</td>"))
    }
}

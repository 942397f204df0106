import Foundation
import Pipeline

/// Builds one recording's HTML page from the database (and the file, read back).
enum RecordingReport {
    static func html(db: ReportDatabase, recording: ReportDatabase.Row, tables: Set<String>, generated: String) throws(ReportError)
        -> String
    {
        let id = recording.int("id") ?? 0
        db.resetSkipped()
        let streams = try db.query("SELECT * FROM streams WHERE recording_id = ? ORDER BY stream_index", [.integer(id)])
        let attributes = try db.query("SELECT * FROM stream_attributes WHERE recording_id = ?", [.integer(id)])
        let offset = db.utcOffset(attributes.first { $0.text("key") == "utc_offset_s" }?.text("value"))
        let timed = streams.filter { $0.double("first_time") != nil }
        let origin = timed.first?.text("time_origin") ?? "unix"
        let t0 = timed.compactMap { $0.double("first_time") }.min() ?? 0
        var t1 = timed.compactMap { $0.double("last_time") }.max() ?? 1
        if t1 <= t0 { t1 = t0 + 1 }
        var c = ReportContext(
            db: db, recordingID: id, recording: recording, streams: streams, t0: t0, t1: t1,
            time: TimeScale(origin: origin, utcOffsetSeconds: offset), tables: tables)
        let files = try db.query("SELECT path FROM recording_files WHERE recording_id = ? ORDER BY file_index", [.integer(id)])
            .compactMap { $0.text("path") }
        var strips = [SignalReadback.Strip]()
        for family in AnalysisRegistry.families where try FamilySection.hasResults(family.reportSection, c) {
            c.familiesWithResults.insert(family.name)
            for case .strips(let d) in family.reportSection.items { strips += try StripsItem.requests(d, family: family.name, c) }
        }
        if recording.text("status") == "ok" {
            // Read back with the decode options of the run that analysed the recording.
            let config = try recording.int("run_id").flatMap { run throws(ReportError) in
                try db.query("SELECT config_json FROM runs WHERE id = ?", [.integer(run)]).first?.text("config_json")
            }
            c.readback = SignalReadback.read(
                files: files.isEmpty ? [recording.text("path") ?? ""] : files, contentHash: recording.text("content_hash"),
                size: recording.int("size"), t0: t0, t1: t1, columns: Plot.defaultPlotColumns, strips: strips,
                options: SignalReadback.decodeOptions(configJSON: config))
        }

        let path = recording.text("path") ?? "?"
        var s = "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\">"
        s += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
        s += "<title>\(HTML.escape((path as NSString).lastPathComponent)) — SensorPipe report</title>"
        s += "<style>\(HTML.style)</style></head><body>"
        s += "<svg width=\"0\" height=\"0\" style=\"position:absolute\" aria-hidden=\"true\">\(HTML.patterns)</svg>"
        s += "<p><a href=\"index.html\">← all recordings</a></p>"
        s += "<h1>\(HTML.escape((path as NSString).lastPathComponent))</h1>"
        s += header(recording, files: files, c: c, generated: generated)
        var sections = try summary(c)
        sections += try qcAccount(c)
        for family in AnalysisRegistry.families { sections += try FamilySection.html(family: family.name, family.reportSection, c) }
        if let skipped = db.skippedText {
            // The database holds numbers no analysis writes (non-finite, beyond 2^53, times outside
            // beyond ±(2^32 + 1 day) s, UTC offsets beyond ±18 h): read as missing and named here.
            s += "<p class=\"warn\">Values skipped as implausible (read as missing): \(HTML.escape(skipped))</p>"
        }
        s += sections
        s += "<p style=\"font-size:.8em;color:#444\">\(HTML.escape(generated))</p></body></html>\n"
        return s
    }

    static func header(_ r: ReportDatabase.Row, files: [String], c: ReportContext, generated: String) -> String {
        var s = "<table>"
        func row(_ k: String, _ v: String) { s += "<tr><th class=\"l\">\(k)</th><td class=\"l\">\(v)</td></tr>" }
        row("recording", "\(r.int("id") ?? 0): <code>\(HTML.escape(r.text("path") ?? ""))</code>")
        if files.count > 1 { row("files", files.map { "<code>\(HTML.escape($0))</code>" }.joined(separator: "<br>")) }
        row("status", HTML.escape(r.text("status") ?? "?") + (r.text("error").map { ": " + HTML.escape($0) } ?? ""))
        row("content hash", "<code>\(HTML.escape(r.text("content_hash") ?? "–"))</code> (FNV-1a 64), \(r.int("size") ?? 0) bytes")
        row(
            "hours",
            "\(HTML.number(r.double("signal_hours"), 3)) h of signal decoded, \(HTML.number(r.double("analysed_hours"), 3)) h analysed")
        row("span", "\(HTML.escape(c.time.describe(c.t0))) to \(HTML.escape(c.time.describe(c.t1)))")
        row("clock", HTML.escape(c.time.title))
        if let issues = r.text("issues"), !issues.isEmpty {
            row("issues", issues.split(separator: "\n").prefix(20).map { HTML.escape(String($0)) }.joined(separator: "<br>"))
        }
        s += "</table>"
        switch c.readback.status {
        case .read, .unknown: break
        default:
            s += "<p class=\"warn\" data-readback=\"failed\">\(HTML.escape(SignalReadback.message(c.readback.status))). "
            s += "Plots drawn from the database are shown; the signal timeline and the strips are not.</p>"
        }
        return s
    }

    /// The summary tables, drawn from their declarations (``AnalysisRegistry/resultTables``):
    /// every declared column the database has, with its unit, and its meaning as the heading's
    /// tooltip; `recording_summary` transposed (a line per figure, a column per family and
    /// device), `daily_summary` a line per day with the figures that have a value.
    static func summary(_ c: ReportContext) throws(ReportError) -> String {
        var s = "<h2>Summary</h2>"
        guard let declared = AnalysisRegistry.resultTables.first(where: { $0.name == "recording_summary" }) else { return s }
        let rows = try c.select(ReportRows(declared), orderBy: [ReportOrder("family"), ReportOrder("device")])
        guard !rows.isEmpty else {
            if c.recording.text("status") != "ok" { return s + "<p class=\"note\">No summary: the recording failed.</p>" }
            if !c.tables.contains("recording_summary") {
                return s + "<p class=\"note\">No summary: the database was written before the summary tables existed.</p>"
            }
            return s
                + "<p class=\"note\">No analysis family analysed a stream of this recording (streams.analysis says why), so there is no summary row; the hours decoded are in the header.</p>"
        }
        let have = try c.columns(declared.name)
        let heads = ["family", "device"]
        let figures = declared.columns.filter { have.contains($0.name) && !heads.contains($0.name) }
        s += "<table id=\"summary\" data-table=\"recording_summary\"><tr><th class=\"l\">figure</th>"
        s += rows.map { "<th>\(HTML.escape($0.text("family") ?? "")) <small>\(HTML.escape($0.text("device") ?? ""))</small></th>" }.joined()
        s += "</tr>"
        for column in figures {
            s +=
                "<tr data-column=\"\(HTML.escape(column.name))\"><th class=\"l\" title=\"\(HTML.escape(column.summary))\">\(HTML.escape(column.name))"
            if let unit = column.unit { s += " (\(HTML.escape(unit)))" }
            s += "</th>"
            for r in rows {
                let text =
                    column.name == "time_basis"
                    ? Self.basisText(r.text("time_basis"), r.int("utc_offset_s"))
                    : FamilySection.format(r[column.name], column: column.name)
                s += "<td>\(HTML.escape(text))</td>"
            }
            s += "</tr>"
        }
        s +=
            "</table><p style=\"font-size:.8em;color:#444\">Each figure's meaning is its heading's tooltip (docs/RESULTS.md lists them); – is an empty value.</p>"
        guard let dailyTable = AnalysisRegistry.resultTables.first(where: { $0.name == "daily_summary" }) else { return s }
        let daily = try c.select(
            ReportRows(dailyTable), orderBy: [ReportOrder("family"), ReportOrder("device"), ReportOrder("day_number")])
        if daily.count > 1 || (daily.first?.text("date") != nil && rows.count > 0) {
            let dailyHave = try c.columns(dailyTable.name)
            let skip: Set<String> = ["time_basis", "utc_offset_s", "day_start"]
            let columns = dailyTable.columns.filter { col in
                dailyHave.contains(col.name) && !skip.contains(col.name) && daily.contains { $0[col.name] != .null }
            }
            s +=
                "<div class=\"scroll\"><table id=\"daily-summary\" data-table=\"daily_summary\"><caption>Per day (\(HTML.escape(Self.basisText(daily.first?.text("time_basis"), daily.first?.int("utc_offset_s"))))); figures empty on every day are left out</caption><tr>"
            s +=
                columns.map { col in
                    "<th title=\"\(HTML.escape(col.summary))\">\(HTML.escape(col.name))\(col.unit.map { " (\(HTML.escape($0)))" } ?? "")</th>"
                }.joined() + "</tr>"
            for r in daily {
                s +=
                    "<tr>" + columns.map { "<td>\(HTML.escape(FamilySection.format(r[$0.name], column: $0.name)))</td>" }.joined() + "</tr>"
            }
            s += "</table></div>"
        }
        return s
    }

    static func basisText(_ basis: String?, _ offset: Int?) -> String {
        switch basis {
        case "local": return "local days (\(TimeScale.offsetText(offset ?? 0)))"
        case "utc": return "UTC days (offset unknown)"
        case "device_local": return "device-clock days"
        case "stream_start": return "days from the stream's start"
        default: return basis ?? "–"
        }
    }

    static func qcAccount(_ c: ReportContext) throws(ReportError) -> String {
        var s = "<h2>QC account</h2>"
        let head = [
            "stream", "read", "used", "masked", "duplicates", "rejected", "gaps", "segments", "deleted spans", "deleted s", "rate Hz",
            "analysis",
        ]
        s +=
            "<table class=\"qc\"><tr>"
            + head.enumerated().map { "<th\($0.offset == 0 || $0.offset == 11 ? " class=\"l\"" : "")>\($0.element)</th>" }.joined()
            + "</tr>"
        for r in c.streams {
            let cells: [String] = [
                r.text("stream") ?? "", String(r.int("samples_read") ?? 0), String(r.int("samples_used") ?? 0),
                String(r.int("masked") ?? 0),
                String(r.int("duplicates_dropped") ?? 0), String(r.int("rejected") ?? 0), String(r.int("gaps") ?? 0),
                String(r.int("segments") ?? 0), String(r.int("deleted_spans") ?? 0), HTML.number(r.double("deleted_seconds"), 1),
                HTML.number(r.double("measured_rate_hz"), 2), r.text("analysis") ?? "",
            ]
            s +=
                "<tr>"
                + cells.enumerated().map { "<td\($0.offset == 0 || $0.offset == 11 ? " class=\"l\"" : "")>\(HTML.escape($0.element))</td>" }
                .joined() + "</tr>"
        }
        s += "</table>"
        guard case .read = c.readback.status, !c.streams.isEmpty else {
            if c.recording.text("status") == "ok" {
                s +=
                    "<p class=\"note\">The signal timeline needs the recording file: \(HTML.escape(SignalReadback.message(c.readback.status))).</p>"
            }
            return s
        }
        // Timeline: one lane per stream.
        let laneHeight = 16.0, gap = 13.0
        let lanes = c.streams.compactMap { $0.text("stream") }
        var p = c.plot(
            id: "qc-timeline", title: "Signal timeline: samples, masked samples, gaps and deletions", yLabel: "", v0: 0, v1: 1,
            height: 26 + 44 + Double(lanes.count) * (laneHeight + gap) + gap)
        p.left = 12
        var described = [String]()
        for (k, stream) in lanes.enumerated() {
            let y0 = p.top + gap + Double(k) * (laneHeight + gap)
            var spans = [(start: Double, end: Double, cssClass: String)]()
            let pxSeconds = (c.t1 - c.t0) / Double(Plot.defaultPlotColumns)
            var usedColumns = 0, maskedColumns = 0
            if let lane = c.readback.lanes[stream] {
                for i in 0..<lane.used.count where lane.used[i] > 0 || lane.masked[i] > 0 {
                    let masked = lane.masked[i] > lane.used[i]
                    if masked { maskedColumns += 1 } else { usedColumns += 1 }
                    let a = c.t0 + Double(i) * pxSeconds
                    spans.append((a, a + pxSeconds, masked ? "lane-masked" : "lane-data"))
                }
            }
            let device = stream.split(separator: "/").first.map(String.init) ?? ""
            let sensor = stream.split(separator: "/").dropFirst().first.map(String.init) ?? ""
            for d in c.readback.deletions where d.deviceID == device && d.sensor.rawValue == sensor {
                spans.append((d.startUnix, d.endUnix, "lane-deleted"))
            }
            p.addBands(spans, rank: ["lane-data": 1, "lane-masked": 2, "lane-deleted": 3], y0: y0, y1: y0 + laneHeight)
            p.add("<text x=\"\(HTML.n(p.left + 4))\" y=\"\(HTML.n(y0 - 1))\" style=\"font-size:9px\">\(HTML.escape(stream))</text>")
            let share = Double(usedColumns) / Double(Plot.defaultPlotColumns)
            described.append(
                "\(stream): samples in \(HTML.percent(share)) of the timeline"
                    + (maskedColumns > 0 ? ", mostly masked in \(maskedColumns) pixel columns" : ""))
        }
        p.legend = [("lane-data", "samples", "rect"), ("lane-masked", "masked", "rect"), ("lane-deleted", "deleted", "rect")]
        s += p.render(
            description:
                "Timeline of \(lanes.count) streams from \(c.time.describe(c.t0)) to \(c.time.describe(c.t1)); dark: samples, dotted: masked samples, hatched: deletion records, white: no samples (gap). "
                + described.joined(separator: "; ") + ".", valueTicks: [])
        return s
    }
}

import Foundation

/// Builds one recording's HTML page from the database (and the file, read back).
enum RecordingReport {
    static func html(db: ReportDatabase, recording: ReportDatabase.Row, tables: Set<String>, generated: String) throws(ReportError)
        -> String
    {
        let id = recording.int("id") ?? 0
        let streams = try db.query("SELECT * FROM streams WHERE recording_id = ? ORDER BY stream_index", [.integer(id)])
        let attributes = try db.query("SELECT * FROM stream_attributes WHERE recording_id = ?", [.integer(id)])
        let offset = attributes.first { $0.text("key") == "utc_offset_s" }.flatMap { $0.text("value") }.flatMap { Int($0) }
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
        for section in ReportSections.all where try section.hasResults(c) { strips += try section.strips(c) }
        if recording.text("status") == "ok" {
            c.readback = SignalReadback.read(
                files: files.isEmpty ? [recording.text("path") ?? ""] : files, contentHash: recording.text("content_hash"),
                t0: t0, t1: t1, columns: Plot.defaultPlotColumns, strips: strips)
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
        s += try summary(c)
        s += try qcAccount(c)
        s += try heartRate(c)
        for section in ReportSections.all {
            s += "<section class=\"family\" data-family=\"\(section.family)\"><h2>\(HTML.escape(section.title))</h2>"
            if try section.hasResults(c) {
                s += try section.render(c)
            } else {
                s += "<p class=\"placeholder\" data-placeholder=\"\(section.family)\">No results from this family in this recording. "
                s += "When there are, this section shows \(HTML.escape(section.shows)).</p>"
            }
            s += "</section>"
        }
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
            s += "<p class=\"warn\" data-readback=\"failed\">\(HTML.escape(ECGSection.readbackMessage(c.readback.status))). "
            s += "Plots drawn from the database are shown; the signal timeline and the strips are not.</p>"
        }
        return s
    }

    static func summary(_ c: ReportContext) throws(ReportError) -> String {
        let rows = try c.rows("recording_summary")
        var s = "<h2>Summary</h2>"
        guard !rows.isEmpty else {
            if c.recording.text("status") != "ok" { return s + "<p class=\"note\">No summary: the recording failed.</p>" }
            if !c.tables.contains("recording_summary") {
                return s + "<p class=\"note\">No summary: the database was written before the summary tables existed.</p>"
            }
            return s
                + "<p class=\"note\">No analysis family analysed a stream of this recording (streams.analysis says why), so there is no summary row; the hours decoded are in the header.</p>"
        }
        let head = [
            "family", "device", "streams", "span h", "decoded h", "analysed h", "assessed h", "usable", "HR mean", "HR min", "HR max",
            "beats", "corrected", "steps", "wear h", "days in",
        ]
        s += "<table><tr>" + head.map { "<th>\($0)</th>" }.joined() + "</tr>"
        for r in rows {
            let cells = [
                r.text("family") ?? "", r.text("device") ?? "", String(r.int("streams") ?? 0), HTML.number(r.double("span_hours"), 2),
                HTML.number(r.double("decoded_hours"), 2), HTML.number(r.double("analysed_hours"), 2),
                HTML.number(r.double("assessed_hours"), 2), HTML.percent(r.double("usable_share")),
                HTML.number(r.double("hr_mean_bpm")), HTML.number(r.double("hr_min_bpm")), HTML.number(r.double("hr_max_bpm")),
                String(r.int("beats") ?? 0), HTML.percent(r.double("corrected_share")), r.int("steps").map(String.init) ?? "–",
                HTML.number(r.double("wear_hours"), 2), Self.basisText(r.text("time_basis"), r.int("utc_offset_s")),
            ]
            s +=
                "<tr>"
                + cells.enumerated().map { "<td\($0.offset < 2 || $0.offset == 15 ? " class=\"l\"" : "")>\(HTML.escape($0.element))</td>" }
                .joined() + "</tr>"
        }
        s += "</table>"
        let daily = try c.rows("daily_summary", orderBy: "family, device, day_number")
        if daily.count > 1 || (daily.first?.text("date") != nil && rows.count > 0) {
            s +=
                "<table><caption>Per day (\(HTML.escape(Self.basisText(daily.first?.text("time_basis"), daily.first?.int("utc_offset_s")))))</caption><tr>"
            s +=
                ["family", "day", "date", "decoded h", "analysed h", "usable", "HR mean", "HR min", "HR max", "beats", "corrected"].map {
                    "<th>\($0)</th>"
                }.joined() + "</tr>"
            for r in daily {
                let cells = [
                    r.text("family") ?? "", String(r.int("day_number") ?? 0), r.text("date") ?? "–",
                    HTML.number(r.double("decoded_hours"), 2),
                    HTML.number(r.double("analysed_hours"), 2), HTML.percent(r.double("usable_share")),
                    HTML.number(r.double("hr_mean_bpm")),
                    HTML.number(r.double("hr_min_bpm")), HTML.number(r.double("hr_max_bpm")), String(r.int("beats") ?? 0),
                    HTML.percent(r.double("corrected_share")),
                ]
                s += "<tr>" + cells.map { "<td>\(HTML.escape($0))</td>" }.joined() + "</tr>"
            }
            s += "</table>"
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
                    "<p class=\"note\">The signal timeline needs the recording file: \(HTML.escape(ECGSection.readbackMessage(c.readback.status))).</p>"
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

    static func heartRate(_ c: ReportContext) throws(ReportError) -> String {
        var s = "<h2>Heart rate</h2>"
        let series = try c.db.query(
            "SELECT DISTINCT stream, source FROM heart_rate WHERE recording_id = ? ORDER BY source, stream", [.integer(c.recordingID)]
        )
        guard c.tables.contains("heart_rate"), !series.isEmpty else {
            return s + "<p class=\"placeholder\" data-placeholder=\"heart_rate\">No heart-rate windows in this recording.</p>"
        }
        var bands = [QualityBand]()
        for section in ReportSections.all where try section.hasResults(c) { bands += try section.qualityBands(c) }
        var all = [(name: String, source: String, points: [(t: Double, v: Double?)])]()
        var values = [Double]()
        var step = 10.0
        for row in series {
            guard let stream = row.text("stream"), let source = row.text("source") else { continue }
            let rows = try c.rows(
                "heart_rate", where: "stream = ? AND source = ?", [.text(stream), .text(source)], orderBy: "window_start")
            if rows.count > 1, let a = rows[0].double("window_start"), let b = rows[1].double("window_start") { step = b - a }
            let points = rows.map {
                (
                    t: ($0.double("window_start") ?? 0) + (($0.double("window_end") ?? 0) - ($0.double("window_start") ?? 0)) / 2,
                    v: $0.double("bpm")
                )
            }
            values += points.compactMap(\.v)
            all.append(("\(source): \(stream)", source, points))
        }
        let lo = max(0, ((values.min() ?? 40) - 10) / 10).rounded(.down) * 10
        let hi = (((values.max() ?? 120) + 10) / 10).rounded(.up) * 10
        var p = c.plot(id: "heart-rate", title: "Heart rate per window", yLabel: "heart rate (bpm)", v0: lo, v1: max(hi, lo + 20))
        let classes = ["q-excellent", "q-barely_acceptable", "q-unacceptable"]
        p.addBands(
            bands.map { ($0.start, $0.end, classes[$0.rank]) }, rank: ["q-excellent": 0, "q-barely_acceptable": 1, "q-unacceptable": 2])
        // Up to four series get a style each; more (a SensorKit export holds one ECG stream per
        // session) share their source's style and one legend entry.
        let sources = Array(Set(all.map(\.source))).sorted()
        for (k, ser) in all.enumerated() {
            if all.count <= 4 {
                p.addSeries(ser.points, gapSeconds: step * 1.5, cssClass: "s\(k)", name: ser.name)
            } else {
                let i = sources.firstIndex(of: ser.source) ?? 0
                p.addSeries(ser.points, gapSeconds: step * 1.5, cssClass: "s\(i % 4)", name: ser.name)
                p.legend.removeLast()
            }
        }
        if all.count > 4 {
            for (i, source) in sources.enumerated() {
                p.legend.append(("s\(i % 4)", "\(source) (\(all.filter { $0.source == source }.count) streams)", nil))
            }
        }
        if !bands.isEmpty {
            p.legend += [("q-barely_acceptable", "barely acceptable", "rect"), ("q-unacceptable", "unacceptable", "rect")]
        }
        let usable =
            bands.isEmpty
            ? ""
            : " Background: grey where a quality window is barely acceptable, hatched where it is unacceptable (the worst of the streams at that time)."
        let stats = all.map { ser -> String in
            let v = ser.points.compactMap(\.v)
            guard !v.isEmpty else { return "\(ser.name): no window with a rate" }
            return
                "\(ser.name): \(v.count) windows, mean \(HTML.number(v.reduce(0, +) / Double(v.count))) bpm, range \(HTML.number(v.min())) to \(HTML.number(v.max())) bpm"
        }
        s += p.render(
            description: "Mean heart rate per window (bpm) over time, one line per source and stream, broken where windows have no rate."
                + usable + " "
                + stats.joined(separator: "; ") + ".")
        return s
    }
}

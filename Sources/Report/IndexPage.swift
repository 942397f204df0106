import Foundation
import Pipeline

/// The batch's `index.html`, the study page a PI opens first: failed recordings first, the
/// wear/coverage per recording and local day (a compliance heatmap from `daily_summary`), the
/// distribution of the summary figures across recordings, then every recording with its status,
/// hours, figures and a link to its page.
enum IndexPage {
    static func html(
        db: ReportDatabase, recordings: [ReportDatabase.Row], pages: [Int: String], tables: Set<String>, database: String
    ) throws(ReportError) -> String {
        var s = "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\">"
        s += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
        s += "<title>SensorPipe results — \(HTML.escape((database as NSString).lastPathComponent))</title>"
        s += "<style>\(HTML.style)</style></head><body>"
        s += "<h1>SensorPipe results</h1><p><code>\(HTML.escape(database))</code>: \(recordings.count) recordings"
        let failed = recordings.filter { $0.text("status") == "failed" }.count
        s += failed > 0 ? ", \(failed) failed.</p>" : ".</p>"
        s += failures(recordings)
        s += try compliance(db: db, recordings: recordings, tables: tables)
        s += try distributions(db: db, recordings: recordings, tables: tables)
        s += "<h2>Recordings</h2>"
        let head = [
            "id", "recording", "status", "decoded h", "analysed h", "families", "HR mean (bpm)", "usable", "corrected beats", "report",
        ]
        s +=
            "<table id=\"recordings\"><tr>"
            + head.enumerated().map { "<th\([1, 2, 5, 9].contains($0.offset) ? " class=\"l\"" : "")>\($0.element)</th>" }.joined() + "</tr>"
        // Failed recordings first.
        for r in recordings.filter({ $0.text("status") == "failed" }) + recordings.filter({ $0.text("status") != "failed" }) {
            let id = r.int("id") ?? 0
            let summary =
                tables.contains("recording_summary")
                ? try db.query("SELECT * FROM recording_summary WHERE recording_id = ? ORDER BY family, device", [.integer(id)]) : []
            let path = r.text("path") ?? ""
            let status = r.text("status") ?? "?"
            var cells =
                "<td>\(id)</td><td class=\"l\" title=\"\(HTML.escape(path))\">\(HTML.escape((path as NSString).lastPathComponent))</td>"
            cells +=
                "<td class=\"l\">\(HTML.escape(status))" + (r.text("error").map { "<br><small>\(HTML.escape($0))</small>" } ?? "") + "</td>"
            cells += "<td>\(HTML.number(r.double("signal_hours"), 2))</td><td>\(HTML.number(r.double("analysed_hours"), 2))</td>"
            let fams = summary.compactMap { $0.text("family") }
            cells += "<td class=\"l\">\(HTML.escape(fams.isEmpty ? "–" : fams.joined(separator: ", ")))</td>"
            cells += perFamilyCell(summary, "hr_mean_bpm") { HTML.number($0) }
            cells += perFamilyCell(summary, "usable_share") { HTML.percent($0) }
            cells += perFamilyCell(summary, "corrected_share") { HTML.percent($0) }
            if let page = pages[id] {
                cells += "<td class=\"l\"><a href=\"\(HTML.escape((page as NSString).lastPathComponent))\">report</a></td>"
            } else {
                cells += "<td>–</td>"
            }
            s += "<tr data-recording=\"\(id)\"\(status == "failed" ? " class=\"failed\"" : "")>\(cells)</tr>"
        }
        s += "</table><p style=\"font-size:.8em;color:#444\">Hours: signal decoded and analysed (recordings.signal_hours, analysed_hours). "
        s +=
            "HR mean: mean of the heart_rate windows; usable: share of quality-assessed time usable; corrected beats: share of beat rows the artefact correction touched (recording_summary).</p>"
        s += "</body></html>\n"
        return s
    }

    /// The failed recordings with their errors, or nothing.
    static func failures(_ recordings: [ReportDatabase.Row]) -> String {
        let failed = recordings.filter { $0.text("status") == "failed" }
        guard !failed.isEmpty else { return "" }
        var s =
            "<h2>Failed recordings</h2><table id=\"failures\"><tr><th>id</th><th class=\"l\">recording</th><th class=\"l\">error</th></tr>"
        for r in failed {
            s += "<tr class=\"failed\"><td>\(r.int("id") ?? 0)</td><td class=\"l\"><code>\(HTML.escape(r.text("path") ?? ""))</code></td>"
            s += "<td class=\"l\">\(HTML.escape(r.text("error") ?? "–"))</td></tr>"
        }
        return s + "</table>"
    }

    /// The compliance heatmap: a line per recording, a column per calendar day of
    /// `daily_summary` (local dates, or day numbers where times are not dates); each cell the
    /// largest analysed hours of the recording's families that day (shade: 0, under 6, 12, 18,
    /// from 18 h), with the decoded hours and, where a family judges wear, the worn hours.
    static func compliance(db: ReportDatabase, recordings: [ReportDatabase.Row], tables: Set<String>) throws(ReportError) -> String {
        guard tables.contains("daily_summary") else { return "" }
        let have = try db.columns(of: "daily_summary")
        var s = "<h2>Wear and coverage per day</h2>"
        var cells = [Int: [String: (analysed: Double, decoded: Double, wear: Double?, families: [String])]]()
        var days = Set<String>()
        for r in recordings {
            guard let id = r.int("id") else { continue }
            for d in try db.query("SELECT * FROM daily_summary WHERE recording_id = ? ORDER BY day_number", [.integer(id)]) {
                let day = d.text("date") ?? "day \(d.int("day_number") ?? 0)"
                days.insert(day)
                var cell = cells[id, default: [:]][day] ?? (0, 0, nil, [])
                cell.analysed = max(cell.analysed, d.double("analysed_hours") ?? 0)
                cell.decoded = max(cell.decoded, d.double("decoded_hours") ?? 0)
                if have.contains("wear_hours"), let w = d.double("wear_hours") { cell.wear = max(cell.wear ?? 0, w) }
                cell.families.append(d.text("family") ?? "")
                cells[id, default: [:]][day] = cell
            }
        }
        guard !days.isEmpty else { return s + "<p class=\"note\">No daily summary rows.</p>" }
        let columns = days.sorted()
        s += "<table id=\"compliance\" class=\"heat\"><tr><th class=\"l\">recording</th>"
        s += columns.map { "<th>\(HTML.escape($0))</th>" }.joined() + "</tr>"
        for r in recordings {
            guard let id = r.int("id") else { continue }
            let name = ((r.text("path") ?? "") as NSString).lastPathComponent
            s += "<tr data-recording=\"\(id)\"><td class=\"l\">\(id): \(HTML.escape(name))</td>"
            for day in columns {
                guard let c = cells[id]?[day] else {
                    s += "<td class=\"heat0\" data-day=\"\(HTML.escape(day))\"></td>"
                    continue
                }
                let shade = c.analysed <= 0 ? 0 : (c.analysed < 6 ? 1 : (c.analysed < 12 ? 2 : (c.analysed < 18 ? 3 : 4)))
                var tip =
                    "\(c.families.joined(separator: ", ")): \(HTML.number(c.analysed, 2)) h analysed, \(HTML.number(c.decoded, 2)) h decoded"
                var text = HTML.number(c.analysed, c.analysed < 1 ? 2 : 1)
                if let w = c.wear {
                    tip += ", \(HTML.number(w, 2)) h worn"
                    text += " / " + HTML.number(w, w < 1 ? 2 : 1)
                }
                s +=
                    "<td class=\"heat\(shade)\" data-day=\"\(HTML.escape(day))\" data-analysed=\"\(c.analysed)\" title=\"\(HTML.escape(tip))\">\(text)</td>"
            }
            s += "</tr>"
        }
        s +=
            "</table><p style=\"font-size:.8em;color:#444\">Cell: hours analysed that day (daily_summary.analysed_hours, the largest of the recording's families) "
        s +=
            "and, after the slash, hours judged worn (wear_hours) where a family judges wear; shade: white none, then under 6, 12, 18 and from 18 h. "
        s += "Days are local calendar days where the UTC offset is known (daily_summary.time_basis).</p>"
        return s
    }

    /// The distribution of each summary figure across recordings: per declared numeric
    /// `recording_summary` column with a value, the count, median, range and a strip of one dot
    /// per recording and family.
    static func distributions(db: ReportDatabase, recordings: [ReportDatabase.Row], tables: Set<String>) throws(ReportError) -> String {
        guard tables.contains("recording_summary"),
            let declared = AnalysisRegistry.resultTables.first(where: { $0.name == "recording_summary" })
        else { return "" }
        let have = try db.columns(of: "recording_summary")
        let ids = Set(recordings.compactMap { $0.int("id") })
        let rows = try db.query("SELECT * FROM recording_summary ORDER BY recording_id, family").filter {
            ids.contains($0.int("recording_id") ?? -1)
        }
        let skip: Set<String> = ["streams", "first_time", "last_time", "utc_offset_s", "day_number", "day_start"]
        var s = "<h2>Figures across recordings</h2><table id=\"distributions\"><tr><th class=\"l\">figure</th><th>recordings</th>"
        s += "<th>median</th><th>min</th><th>max</th><th class=\"l\">one dot per recording and family</th></tr>"
        var any = false
        for column in declared.columns where column.type != .text && have.contains(column.name) && !skip.contains(column.name) {
            let values = rows.compactMap { r in
                r.double(column.name).map { (v: $0, id: r.int("recording_id") ?? 0, family: r.text("family") ?? "") }
            }
            guard !values.isEmpty else { continue }
            any = true
            let sorted = values.map(\.v).sorted()
            let median = sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
            let lo = sorted.first!, hi = sorted.last!
            let share = column.name.hasSuffix("_share")
            func f(_ x: Double) -> String { share ? HTML.percent(x) : FamilySection.format(.real(x), column: column.name) }
            s +=
                "<tr data-figure=\"\(HTML.escape(column.name))\"><th class=\"l\" title=\"\(HTML.escape(column.summary))\">\(HTML.escape(column.name))"
            s += (column.unit.map { " (\(HTML.escape($0)))" } ?? "") + "</th>"
            s += "<td>\(Set(values.map(\.id)).count)</td><td>\(f(median))</td><td>\(f(lo))</td><td>\(f(hi))</td><td class=\"l\">"
            s +=
                "<svg width=\"260\" height=\"18\" viewBox=\"0 0 260 18\" role=\"img\" aria-label=\"\(HTML.escape(column.name)): \(values.count) values from \(f(lo)) to \(f(hi)), median \(f(median))\">"
            s += "<line x1=\"5\" x2=\"255\" y1=\"9\" y2=\"9\" stroke=\"#bbb\"/>"
            let x = { (v: Double) -> Double in hi > lo ? 5 + (v - lo) / (hi - lo) * 250 : 130 }
            s += "<line x1=\"\(HTML.n(x(median)))\" x2=\"\(HTML.n(x(median)))\" y1=\"2\" y2=\"16\" stroke=\"#b3261e\" stroke-width=\"2\"/>"
            for v in values {
                s +=
                    "<circle cx=\"\(HTML.n(x(v.v)))\" cy=\"9\" r=\"3.5\" fill=\"none\" stroke=\"#1f4e99\" stroke-width=\"1.4\"><title>recording \(v.id) \(HTML.escape(v.family)): \(f(v.v))</title></circle>"
            }
            s += "</svg></td></tr>"
        }
        s +=
            "</table><p style=\"font-size:.8em;color:#444\">recording_summary columns (meaning in each heading's tooltip); red: the median.</p>"
        return any ? s : ""
    }

    /// One table cell listing `column` of every summary row that has it, one family per line, or "–".
    private static func perFamilyCell(_ summary: [ReportDatabase.Row], _ column: String, _ format: (Double?) -> String) -> String {
        let rows = summary.filter { $0.double(column) != nil }
        let lines = rows.map { "\(HTML.escape($0.text("family") ?? "")) \(format($0.double(column)))" }
        return "<td>" + (lines.isEmpty ? "–" : lines.joined(separator: "<br>")) + "</td>"
    }
}

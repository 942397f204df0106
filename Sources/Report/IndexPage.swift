import Foundation

/// The batch's `index.html`: every recording, its status and error, hours, summary figures and
/// a link to its page.
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
        let head = [
            "id", "recording", "status", "decoded h", "analysed h", "families", "HR mean (bpm)", "usable", "corrected beats", "report",
        ]
        s +=
            "<table id=\"recordings\"><tr>"
            + head.enumerated().map { "<th\([1, 2, 5, 9].contains($0.offset) ? " class=\"l\"" : "")>\($0.element)</th>" }.joined() + "</tr>"
        for r in recordings {
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
            s += "<tr data-recording=\"\(id)\">\(cells)</tr>"
        }
        s += "</table><p style=\"font-size:.8em;color:#444\">Hours: signal decoded and analysed (recordings.signal_hours, analysed_hours). "
        s +=
            "HR mean: mean of the heart_rate windows; usable: share of quality-assessed time usable; corrected beats: share of beat rows the artefact correction touched (recording_summary).</p>"
        s += "</body></html>\n"
        return s
    }

    /// One table cell listing `column` of every summary row that has it, one family per line, or "–".
    private static func perFamilyCell(_ summary: [ReportDatabase.Row], _ column: String, _ format: (Double?) -> String) -> String {
        let rows = summary.filter { $0.double(column) != nil }
        let lines = rows.map { "\(HTML.escape($0.text("family") ?? "")) \(format($0.double(column)))" }
        return "<td>" + (lines.isEmpty ? "–" : lines.joined(separator: "<br>")) + "</td>"
    }
}

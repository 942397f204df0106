import Foundation
import Pipeline

/// Draws a family's declared section (``ReportSection``, from ``AnalysisFamilyEntry/reportSection``):
/// the report's core loops over ``AnalysisRegistry/families`` and asks this for each. How an item
/// is drawn is decided here; what it shows is the family's declaration.
enum FamilySection {
    /// Whether the recording has results of the family.
    static func hasResults(_ section: ReportSection, _ c: ReportContext) throws(ReportError) -> Bool {
        for r in section.results where try c.exists(r) { return true }
        return false
    }

    /// The section's HTML: heading, items, methods paragraph (or the note that there are no
    /// results of this family).
    /// - Parameters:
    ///   - family: the family's name (`data-family`).
    ///   - section: its declaration.
    ///   - c: the recording (with the strips already read back and its families with results).
    static func html(family: String, _ section: ReportSection, _ c: ReportContext) throws(ReportError) -> String {
        var s = "<section class=\"family\" data-family=\"\(HTML.escape(family))\"><h2>\(HTML.escape(section.title))</h2>"
        guard c.familiesWithResults.contains(family) else {
            s += "<p class=\"placeholder\" data-placeholder=\"\(HTML.escape(family))\">No results from this family in this recording. "
            return s + "When there are, this section shows \(HTML.escape(section.shows)).</p></section>"
        }
        var items = ""
        for item in section.items {
            switch item {
            case .timeSeries(let d): items += try TimeSeriesItem.html(d, c)
            case .strips(let d): items += try StripsItem.html(d, family: family, c)
            case .dailyBars(let d): items += try DailyBarsItem.html(d, c)
            case .actogram(let d): items += try ActogramItem.html(d, c)
            case .intervals(let d): items += try IntervalsItem.html(d, c)
            case .featureSeries(let d): items += try FeatureSeriesItem.html(d, c)
            case .values(let d): items += try valueTable(d, c)
            case .rowCounts(let tables):
                items += "<ul>"
                for t in tables { items += "<li><code>\(HTML.escape(t.name))</code>: \(try c.count(ReportRows(t))) rows</li>" }
                items += "</ul>"
            }
        }
        if !items.contains("<figure") && !items.contains("<table") && !items.contains("<ul>") {
            // Rows exist but none holds a value to draw: the section says so instead of plots.
            s +=
                "<p class=\"placeholder\" data-placeholder=\"\(HTML.escape(family))\">This family's rows in this recording hold no value to draw (each is empty with its null_reason). "
            s += "When they do, this section shows \(HTML.escape(section.shows)).</p>"
        }
        s += items
        if !section.methods.isEmpty {
            s += "<details class=\"methods\"><summary>Methods</summary><p>\(HTML.escape(section.methods))</p>"
            if !section.citations.isEmpty {
                s += "<ol>" + section.citations.map { "<li>\(HTML.escape($0))</li>" }.joined() + "</ol>"
            }
            s += "</details>"
        }
        return s + "</section>"
    }

    /// Most lines a value table lists (the first ones; the caption says how many there are).
    static let maximumLines = 1_000

    /// A table of declared columns, one line per row (at most ``maximumLines``, streamed from
    /// SQLite); columns the database lacks are left out (an optional table with none of its
    /// columns, or no value in them, is not shown).
    static func valueTable(_ d: ReportValueTable, _ c: ReportContext) throws(ReportError) -> String {
        let have = try c.columns(d.rows.table.name)
        let columns = d.columns.filter { have.contains($0) }
        guard !columns.isEmpty else { return "" }
        var anyValue = false
        let kept = try firstRows(d.rows, by: nil, order: [ReportOrder(d.rowLabel)], limit: Self.maximumLines, c) { r in
            if !anyValue && columns.contains(where: { r[$0] != .null }) { anyValue = true }
        }
        guard let lines = kept[""], !lines.rows.isEmpty else { return "" }
        let rows = lines.rows
        if d.optional && !anyValue { return "" }
        let declared = d.rows.table.columns
        var s =
            "<div class=\"scroll\"><table class=\"values\" data-values=\"\(HTML.escape(d.rows.table.name))\"><caption>\(HTML.escape(d.title + clipped(lines, "rows")))</caption><tr>"
        s += "<th class=\"l\">\(HTML.escape(d.rowLabel))</th>"
        for name in columns {
            let column = declared.first { $0.name == name }
            s += "<th title=\"\(HTML.escape(column?.summary ?? ""))\">\(HTML.escape(d.headings[name] ?? name))"
            if let unit = column?.unit { s += " (\(HTML.escape(unit)))" }
            s += "</th>"
        }
        s += "</tr>"
        for r in rows {
            s += "<tr><td class=\"l\">\(HTML.escape(r.text(d.rowLabel) ?? ""))</td>"
            for name in columns {
                let v = format(r[name], column: name)
                s += "<td\(r[name].double == nil ? " class=\"l\"" : "") data-column=\"\(HTML.escape(name))\">\(HTML.escape(v))</td>"
            }
            s += "</tr>"
        }
        return s + "</table></div>"
    }

    /// A stored value for people: shares as percentages, reals with a precision fitting their
    /// size, an en dash when empty.
    static func format(_ v: ReportDatabase.Value, column: String) -> String {
        switch v {
        case .null: return "–"
        case .text(let t): return t.isEmpty ? "–" : t
        case .integer(let n): return String(n)
        case .real(let x):
            if column.hasSuffix("_share") { return HTML.percent(x) }
            return HTML.number(x, abs(x) >= 100 ? 1 : (abs(x) >= 1 ? 2 : 3))
        }
    }

    /// The first rows of one group of ``firstRows(_:by:order:limit:_:each:)``, and how many it has.
    struct FirstRows {
        var rows = [ReportDatabase.Row]()
        var count = 0
    }

    /// The first `limit` rows in `order` per value of `column` (`nil`: one group, `""`; a row
    /// without a value is in group `""`), streamed from SQLite: memory follows `limit` × groups,
    /// never the rows (issue 33, class 8). `each` sees every row.
    static func firstRows(
        _ r: ReportRows, by column: String?, order: [ReportOrder], limit: Int, _ c: ReportContext,
        each: (ReportDatabase.Row) -> Void = { _ in }
    ) throws(ReportError) -> [String: FirstRows] {
        var groups = [String: FirstRows]()
        try c.each(r, orderBy: order) { row in
            each(row)
            let key = column.map { row.text($0) ?? "" } ?? ""
            groups[key, default: FirstRows()].count += 1
            if groups[key]!.rows.count < limit { groups[key]!.rows.append(row) }
        }
        return groups
    }

    /// `" (first N of M <what>)"` when a group of ``firstRows(_:by:order:limit:_:each:)`` was cut, else "".
    static func clipped(_ g: FirstRows, _ what: String) -> String {
        g.count > g.rows.count ? " (first \(g.rows.count) of \(g.count) \(what))" : ""
    }

    /// The distinct values of `column` in a row set, in first-seen order (`""` for none), streamed
    /// from SQLite: memory follows the distinct values, never the rows.
    static func distinct(_ r: ReportRows, _ column: String, orderBy: [ReportOrder] = [], _ c: ReportContext) throws(ReportError)
        -> [String]
    {
        var seen = Set<String>(), out = [String]()
        try c.each(r, orderBy: orderBy) { row in
            let v = row.text(column) ?? ""
            if seen.insert(v).inserted { out.append(v) }
        }
        return out
    }

    /// A value axis over `values`: from zero, or fitted with a round margin.
    static func axis(_ values: [Double], zeroBased: Bool) -> (Double, Double) {
        let lo = values.min() ?? 0, hi = values.max() ?? 1
        if zeroBased {
            let top = hi > 0 ? hi * 1.1 : 1
            return (min(0, lo * 1.1), top)
        }
        let raw = max((hi - lo) / 5, 1e-9)
        let step = [1.0, 2, 2.5, 5, 10].map { $0 * Plot.pow10(raw) }.first { $0 >= raw } ?? 10 * Plot.pow10(raw)
        var a = ((lo - step) / step).rounded(.down) * step
        if lo >= 0 { a = max(0, a) }
        let b = ((hi + step) / step).rounded(.up) * step
        return (a, max(b, a + step))
    }

    /// `mean`, range and count of a series for the text alternative, from its running figures
    /// (count, sum in order, range).
    static func stats(_ name: String, _ v: TimeSeriesItem.Running, unit: String) -> String {
        guard v.n > 0 else { return "\(name): no value" }
        let mean = v.sum / Double(v.n)
        let u = unit.isEmpty || unit == "1" ? "" : " " + unit
        return
            "\(name): \(v.n) values, mean \(HTML.number(mean, 2))\(u), range \(HTML.number(v.lo, 2)) to \(HTML.number(v.hi, 2))\(u)"
    }

    /// The unit of a declared column, or "".
    static func unit(_ table: ResultTable, _ column: String) -> String {
        table.columns.first { $0.name == column }?.unit ?? ""
    }
}

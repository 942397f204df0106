import Foundation
import Pipeline

/// Draws a declared time series (``ReportTimeSeries``): one plot per value of `plotBy`, a
/// series per value column and combination of the `seriesBy` values (each its own dash pattern),
/// the quality windows shaded behind, the overlay drawn last (over the series), and the
/// confidence in a panel under the plot.
enum TimeSeriesItem {
    typealias Points = [(t: Double, v: Double?)]

    static func html(_ d: ReportTimeSeries, _ c: ReportContext) throws(ReportError) -> String {
        let rows = try c.select(d.rows, orderBy: [ReportOrder(d.start)])
        guard !rows.isEmpty else {
            return "<p class=\"note\" data-empty=\"\(HTML.escape(d.id))\">\(HTML.escape(d.title)): \(HTML.escape(d.whenEmpty)).</p>"
        }
        let overlay = try d.overlay.map { r throws(ReportError) in try c.select(r, orderBy: [ReportOrder(d.start)]) } ?? []
        let keys = FamilySection.distinct(rows, d.plotBy).sorted()
        var s = ""
        for (k, key) in keys.enumerated() {
            let id = d.plotBy == nil ? d.id : "\(d.id)-\(k)"
            let mine = d.plotBy.map { p in rows.filter { ($0.text(p) ?? "") == key } } ?? rows
            // Rows without any value (every one empty, with its null_reason) draw nothing: say so.
            guard mine.contains(where: { r in d.values.contains { r.double($0) != nil } }) else {
                let what = d.plotBy == nil ? d.title : "\(d.title) (\(key))"
                s +=
                    "<p class=\"note\" data-empty=\"\(HTML.escape(id))\">\(HTML.escape(what)): no value in these rows (see their null_reason).</p>"
                continue
            }
            s += try plot(d, id: id, key: d.plotBy == nil ? nil : key, rows: mine, overlay: overlay, c)
        }
        return s
    }

    /// The point of a row: the middle of its window (or its time) and the value.
    static func point(_ r: ReportDatabase.Row, _ d: ReportTimeSeries, _ column: String) -> (t: Double, v: Double?) {
        let a = r.double(d.start) ?? 0
        let t = d.end.flatMap { r.double($0) }.map { a + ($0 - a) / 2 } ?? a
        return (t, r.double(column))
    }

    /// Series of `rows`: per value column and combination of `by` values, in first-seen order.
    static func series(
        _ rows: [ReportDatabase.Row], by: [String], values: [String], _ d: ReportTimeSeries, column: ((String) -> String)? = nil
    )
        -> [(name: String, group: String, points: Points)]
    {
        var order = [String](), points = [String: Points](), groups = [String: String]()
        for value in values {
            for r in rows {
                let combo = by.map { r.text($0) ?? "" }.joined(separator: ": ")
                let name = values.count > 1 ? (combo.isEmpty ? value : "\(value) · \(combo)") : (combo.isEmpty ? value : combo)
                if points[name] == nil {
                    order.append(name)
                    groups[name] = by.first.flatMap { r.text($0) } ?? value
                }
                points[name, default: []].append(point(r, d, column?(value) ?? value))
            }
        }
        return order.map { ($0, groups[$0] ?? "", points[$0] ?? []) }
    }

    static func plot(
        _ d: ReportTimeSeries, id: String, key: String?, rows: [ReportDatabase.Row], overlay: [ReportDatabase.Row], _ c: ReportContext
    ) throws(ReportError) -> String {
        let all = series(rows, by: d.seriesBy, values: d.values, d)
        let over = series(overlay, by: d.overlayBy, values: d.values, d)
        let unit = FamilySection.unit(d.rows.table, d.values[0])
        let values = (all + over).flatMap { $0.points.compactMap(\.v) }.filter(\.isFinite)
        let (v0, v1) = FamilySection.axis(values.isEmpty ? [0, 1] : values, zeroBased: d.zeroBased)
        let label = (d.values.count == 1 ? d.values[0] : d.values.joined(separator: ", ")) + (unit.isEmpty ? "" : " (\(unit))")
        var p = c.plot(id: id, title: d.title + (key.map { ": \($0)" } ?? ""), yLabel: label, v0: v0, v1: v1)
        // Quality shading: the windows of this plot's stream when the quality table has any,
        // else every window (the worst label of the streams at each time).
        var shaded = false
        var present = Set<String>()
        if let q = d.quality {
            var windows = try c.select(q.rows)
            if let plotBy = d.plotBy, let key, windows.contains(where: { $0.text(plotBy) == key }) {
                windows = windows.filter { $0.text(plotBy) == key }
            }
            let bands = windows.compactMap { r -> (start: Double, end: Double, cssClass: String)? in
                guard let a = r.double(q.start), let b = r.double(q.end) else { return nil }
                return (a, b, "q-\(rank(r.text(q.label), q.labels))")
            }
            p.addBands(bands, rank: ["q-0": 0, "q-1": 1, "q-2": 2])
            shaded = !bands.isEmpty
            present = Set(bands.map(\.cssClass))
        }
        let times = rows.compactMap { $0.double(d.start) }
        let gap = FamilySection.step(times, fallback: 10) * 1.5
        // Up to four series get a style each; more (a SensorKit export holds one ECG stream per
        // session) share their group's style and one legend entry.
        let groups = Array(Set(all.map(\.group))).sorted()
        for (k, ser) in all.enumerated() {
            if all.count <= 4 {
                p.addSeries(ser.points, gapSeconds: gap, cssClass: "s\(k)", name: ser.name)
            } else {
                // One legend entry per group (below), none per series: addSeries adds one only
                // when the series draws something.
                let entries = p.legend.count
                p.addSeries(ser.points, gapSeconds: gap, cssClass: "s\((groups.firstIndex(of: ser.group) ?? 0) % 4)", name: ser.name)
                p.legend.removeSubrange(entries...)
            }
        }
        if all.count > 4 {
            for (i, g) in groups.enumerated() {
                p.legend.append(("s\(i % 4)", "\(g) (\(all.filter { $0.group == g }.count) series)", nil))
            }
        }
        // The overlay last: over the series, never hidden under them.
        let overGap = FamilySection.step(overlay.compactMap { $0.double(d.start) }, fallback: 10) * 1.5
        for (k, ser) in over.enumerated() {
            p.addSeries(ser.points, gapSeconds: overGap, cssClass: "ov", name: ser.name)
            if k > 0 { p.legend.removeLast() }
        }
        if over.count > 1 { p.legend[p.legend.count - 1].label = "\(over[0].name) and \(over.count - 1) more" }
        if shaded, let q = d.quality {
            let middle = q.labels.dropFirst().dropLast()
            // Legend entries for the shades drawn.
            if !middle.isEmpty && present.contains("q-1") {
                p.legend.append(("q-1", middle.map(Self.words).joined(separator: ", "), "rect"))
            }
            if let worst = q.labels.last, q.labels.count > 1, present.contains("q-2") {
                p.legend.append(("q-2", Self.words(worst), "rect"))
            }
        }
        var text = (all + over).map { FamilySection.stats($0.name, $0.points.compactMap(\.v), unit: unit) }
        if !over.isEmpty { text.append("the solid dark line over the others is \(over.map(\.name).joined(separator: ", "))") }
        if shaded, let q = d.quality {
            text.append(
                "background: grey where a \(q.rows.table.name) window is \(q.labels.dropFirst().dropLast().map(Self.words).joined(separator: " or ")), hatched where it is \(Self.words(q.labels.last ?? ""))"
            )
        }
        var s = p.render(
            description: "\(d.title) over time, one line per series, broken where rows have no value or are apart. "
                + text.joined(separator: "; ")
                + ".")
        if let conf = d.confidence {
            let confidence = series(rows, by: d.seriesBy, values: d.values, d, column: { _ in conf })
                .filter { $0.points.contains { $0.v != nil } }
            if !confidence.isEmpty {
                var q = c.plot(id: "\(id)-confidence", title: "Confidence (\(conf))", yLabel: conf, v0: 0, v1: 1, height: 150)
                for ser in confidence {
                    let k = all.firstIndex { $0.name == ser.name } ?? 0
                    let style = all.count <= 4 ? k : (groups.firstIndex(of: ser.group) ?? 0) % 4
                    q.addSeries(ser.points, gapSeconds: gap, cssClass: "s\(style)", name: ser.name)
                }
                s += q.render(
                    description: "\(conf) of each series over time (0–1; declared meaning: "
                        + (d.rows.table.columns.first { $0.name == conf }?.summary ?? "") + "). "
                        + confidence.map { FamilySection.stats($0.name, $0.points.compactMap(\.v), unit: "") }.joined(separator: "; ")
                        + ".",
                    valueTicks: [0, 0.25, 0.5, 0.75, 1])
            }
        }
        return s
    }

    /// 0 for the best label, 2 for the worst (and unlisted), 1 between.
    static func rank(_ label: String?, _ labels: [String]) -> Int {
        guard let label, let i = labels.firstIndex(of: label) else { return 2 }
        if i == 0 { return 0 }
        return i == labels.count - 1 ? 2 : 1
    }

    static func words(_ label: String) -> String { label.replacingOccurrences(of: "_", with: " ") }
}

import Foundation
import Pipeline

/// Draws a declared time series (``ReportTimeSeries``): one plot per value of `plotBy`, a
/// series per value column and combination of the `seriesBy` values (each its own dash pattern),
/// the quality windows shaded behind, the overlay drawn last (over the series), and the
/// confidence in a panel under the plot.
///
/// **Memory follows the plot width, not the rows** (issue 33, class 8). The rows stream from
/// SQLite twice, none kept: the first pass counts each series' points and gathers its figures
/// (count, sum, range: the value axis, the line-break step and the text alternative); the second
/// draws each series as its points arrive (``SeriesPath``: a min/max envelope per pixel column
/// beyond twice the plot's width), and quality windows are merged per pixel column as they
/// arrive (``BandColumns``). The pages are the ones drawing from every row held gave.
enum TimeSeriesItem {
    typealias Points = [(t: Double, v: Double?)]

    /// Figures of one series gathered in the first pass.
    struct SeriesFigures {
        var name: String, group: String
        var points = 0
        var values = Running(), confidence = Running()
    }

    /// Count, sum and range of the values seen (summed in order, as the text alternative did).
    struct Running {
        var n = 0, sum = 0.0, lo = Double.infinity, hi = -Double.infinity
        mutating func add(_ v: Double?) {
            guard let v else { return }
            n += 1
            sum += v
            lo = Swift.min(lo, v)
            hi = Swift.max(hi, v)
        }
    }

    /// The series of a row set, in first-seen order per value column (``series(_:by:values:_:column:)``'s order).
    struct SeriesScan {
        let by: [String], values: [String]
        var order: [[String]]
        var figures = [String: SeriesFigures]()
        /// Smallest positive step between consecutive row times.
        var step = Double.infinity
        var lastTime: Double?
        /// Whether a row holds a value in a value column.
        var hasValue = false

        init(by: [String], values: [String]) {
            self.by = by
            self.values = values
            order = values.map { _ in [] }
        }

        func name(_ r: ReportDatabase.Row, value: String) -> String {
            let combo = by.map { r.text($0) ?? "" }.joined(separator: ": ")
            return values.count > 1 ? (combo.isEmpty ? value : "\(value) · \(combo)") : (combo.isEmpty ? value : combo)
        }

        mutating func add(_ r: ReportDatabase.Row, _ d: ReportTimeSeries) {
            if let t = r.double(d.start) {
                if let last = lastTime, t - last > 0 { step = Swift.min(step, t - last) }
                lastTime = t
            }
            for (k, value) in values.enumerated() {
                let n = name(r, value: value)
                if figures[n] == nil {
                    order[k].append(n)
                    figures[n] = SeriesFigures(name: n, group: by.first.flatMap { r.text($0) } ?? value)
                }
                let v = r.double(value)
                if v != nil { hasValue = true }
                figures[n]!.points += 1
                figures[n]!.values.add(v)
                if let conf = d.confidence { figures[n]!.confidence.add(r.double(conf)) }
            }
        }

        /// The series in drawing order.
        var all: [SeriesFigures] { order.flatMap { $0 }.map { figures[$0]! } }
        func gap() -> Double { (step.isFinite ? step : 10) * 1.5 }
    }

    /// One plot being drawn in the second pass.
    struct PlotDraw {
        var plot: Plot
        var main: [String: SeriesPath]
        var confidence: [String: SeriesPath]
        var over: [String: SeriesPath]
    }

    static func html(_ d: ReportTimeSeries, _ c: ReportContext) throws(ReportError) -> String {
        // First pass: the plots (by `plotBy`), their series and figures; the overlay's.
        var scans = [String: SeriesScan]()
        var any = false
        try c.each(d.rows, orderBy: [ReportOrder(d.start)]) { r in
            any = true
            let key = d.plotBy.map { r.text($0) ?? "" } ?? ""
            scans[key, default: SeriesScan(by: d.seriesBy, values: d.values)].add(r, d)
        }
        guard any else {
            return "<p class=\"note\" data-empty=\"\(HTML.escape(d.id))\">\(HTML.escape(d.title)): \(HTML.escape(d.whenEmpty)).</p>"
        }
        var overScan = SeriesScan(by: d.overlayBy, values: d.values)
        if let o = d.overlay {
            var plain = d
            plain.confidence = nil
            try c.each(o, orderBy: [ReportOrder(d.start)]) { overScan.add($0, plain) }
        }
        let keys = scans.keys.sorted()
        // Second pass: every plot's series drawn as the rows arrive.
        var draws = [String: PlotDraw]()
        for (k, key) in keys.enumerated() where scans[key]!.hasValue {
            let scan = scans[key]!
            let over = overScan.all
            var lo = Double.infinity, hi = -Double.infinity
            for f in scan.all + over where f.values.n > 0 {
                lo = min(lo, f.values.lo)
                hi = max(hi, f.values.hi)
            }
            let (v0, v1) = FamilySection.axis(lo.isFinite ? [lo, hi] : [0, 1], zeroBased: d.zeroBased)
            let unit = FamilySection.unit(d.rows.table, d.values[0])
            let label = (d.values.count == 1 ? d.values[0] : d.values.joined(separator: ", ")) + (unit.isEmpty ? "" : " (\(unit))")
            let id = d.plotBy == nil ? d.id : "\(d.id)-\(k)"
            let p = c.plot(id: id, title: d.title + (d.plotBy == nil ? "" : ": \(key)"), yLabel: label, v0: v0, v1: v1)
            var draw = PlotDraw(plot: p, main: [:], confidence: [:], over: [:])
            for f in scan.all {
                draw.main[f.name] = SeriesPath(p, count: f.points, gapSeconds: scan.gap())
                if f.confidence.n > 0, let conf = d.confidence {
                    let q = c.plot(id: "\(id)-confidence", title: "Confidence (\(conf))", yLabel: conf, v0: 0, v1: 1, height: 150)
                    draw.confidence[f.name] = SeriesPath(q, count: f.points, gapSeconds: scan.gap())
                }
            }
            for f in over { draw.over[f.name] = SeriesPath(p, count: f.points, gapSeconds: overScan.gap()) }
            draws[key] = draw
        }
        try c.each(d.rows, orderBy: [ReportOrder(d.start)]) { r in
            let key = d.plotBy.map { r.text($0) ?? "" } ?? ""
            guard draws[key] != nil, let scan = scans[key] else { return }
            for value in d.values {
                let name = scan.name(r, value: value)
                let p = point(r, d, value)
                draws[key]!.main[name]?.add(t: p.t, v: p.v)
                if let conf = d.confidence, draws[key]!.confidence[name] != nil {
                    draws[key]!.confidence[name]!.add(t: p.t, v: r.double(conf))
                }
            }
        }
        if let o = d.overlay, !draws.isEmpty {
            try c.each(o, orderBy: [ReportOrder(d.start)]) { r in
                for value in d.values {
                    let name = overScan.name(r, value: value)
                    let p = point(r, d, value)
                    for key in draws.keys { draws[key]!.over[name]?.add(t: p.t, v: p.v) }
                }
            }
        }
        var s = ""
        for (k, key) in keys.enumerated() {
            guard let draw = draws[key] else {
                let id = d.plotBy == nil ? d.id : "\(d.id)-\(k)"
                let what = d.plotBy == nil ? d.title : "\(d.title) (\(key))"
                s +=
                    "<p class=\"note\" data-empty=\"\(HTML.escape(id))\">\(HTML.escape(what)): no value in these rows (see their null_reason).</p>"
                continue
            }
            s += try plot(d, key: d.plotBy == nil ? nil : key, draw: draw, all: scans[key]!.all, over: overScan.all, c)
        }
        return s
    }

    /// The point of a row: the middle of its window (or its time) and the value.
    static func point(_ r: ReportDatabase.Row, _ d: ReportTimeSeries, _ column: String) -> (t: Double, v: Double?) {
        let a = r.double(d.start) ?? 0
        let t = d.end.flatMap { r.double($0) }.map { a + ($0 - a) / 2 } ?? a
        return (t, r.double(column))
    }

    static func plot(
        _ d: ReportTimeSeries, key: String?, draw: PlotDraw, all: [SeriesFigures], over: [SeriesFigures], _ c: ReportContext
    ) throws(ReportError) -> String {
        var p = draw.plot
        let id = p.id
        let unit = FamilySection.unit(d.rows.table, d.values[0])
        // Quality shading: the windows of this plot's stream when the quality table has any,
        // else every window (the worst label of the streams at each time).
        var shaded = false
        var present = Set<String>()
        if let q = d.quality {
            var mine: [ReportFilter] = []
            if let plotBy = d.plotBy, let key, try !c.select(q.rows, [ReportFilter(plotBy, key)], limit: 1).isEmpty {
                mine = [ReportFilter(plotBy, key)]
            }
            var bands = BandColumns(p, rank: ["q-0": 0, "q-1": 1, "q-2": 2])
            try c.each(q.rows, mine) { r in
                guard let a = r.double(q.start), let b = r.double(q.end) else { return }
                bands.add(start: a, end: b, cssClass: "q-\(rank(r.text(q.label), q.labels))")
            }
            p.add(bands)
            shaded = !bands.given.isEmpty
            present = bands.given
        }
        // Up to four series get a style each; more (a SensorKit export holds one ECG stream per
        // session) share their group's style and one legend entry.
        let groups = Array(Set(all.map(\.group))).sorted()
        for (k, ser) in all.enumerated() {
            let path = draw.main[ser.name]!
            if all.count <= 4 {
                p.add(path, cssClass: "s\(k)", name: ser.name)
            } else {
                // One legend entry per group (below), none per series: add(_:cssClass:name:) adds
                // one only when the series draws something.
                let entries = p.legend.count
                p.add(path, cssClass: "s\((groups.firstIndex(of: ser.group) ?? 0) % 4)", name: ser.name)
                p.legend.removeSubrange(entries...)
            }
        }
        if all.count > 4 {
            for (i, g) in groups.enumerated() {
                p.legend.append(("s\(i % 4)", "\(g) (\(all.filter { $0.group == g }.count) series)", nil))
            }
        }
        // The overlay last: over the series, never hidden under them.
        for (k, ser) in over.enumerated() {
            p.add(draw.over[ser.name]!, cssClass: "ov", name: ser.name)
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
        var text = (all + over).map { FamilySection.stats($0.name, $0.values, unit: unit) }
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
            let confidence = all.filter { draw.confidence[$0.name] != nil }
            if !confidence.isEmpty {
                var q = c.plot(id: "\(id)-confidence", title: "Confidence (\(conf))", yLabel: conf, v0: 0, v1: 1, height: 150)
                for ser in confidence {
                    let k = all.firstIndex { $0.name == ser.name } ?? 0
                    let style = all.count <= 4 ? k : (groups.firstIndex(of: ser.group) ?? 0) % 4
                    q.add(draw.confidence[ser.name]!, cssClass: "s\(style)", name: ser.name)
                }
                s += q.render(
                    description: "\(conf) of each series over time (0–1; declared meaning: "
                        + (d.rows.table.columns.first { $0.name == conf }?.summary ?? "") + "). "
                        + confidence.map { FamilySection.stats($0.name, $0.confidence, unit: "") }.joined(separator: "; ")
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

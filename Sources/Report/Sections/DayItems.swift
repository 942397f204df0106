import Foundation
import Pipeline

/// Draws declared per-day bars (``ReportDailyBars``): one chart per stream, a stacked bar per day,
/// at most ``ActogramItem/maximumDays`` bars per chart (the first days; the title says how many
/// there are): the rows stream from SQLite and only the days drawn are kept.
enum DailyBarsItem {
    static func html(_ d: ReportDailyBars, _ c: ReportContext) throws(ReportError) -> String {
        let charts = try FamilySection.firstRows(d.rows, by: d.plotBy, order: [ReportOrder(d.day)], limit: ActogramItem.maximumDays, c)
        guard !charts.isEmpty else { return "" }
        var s = ""
        for (k, key) in charts.keys.sorted().enumerated() {
            let mine = charts[key]!.rows
            let clipped = FamilySection.clipped(charts[key]!, "days")
            let days = mine.map { $0.text(d.day) ?? "?" }
            let totals = mine.map { r in d.bars.compactMap { r.double($0.column) }.reduce(0, +) * d.scale }
            let top = max(totals.max() ?? 0, 1e-9) * 1.12
            var p = c.plot(
                id: "\(d.id)-\(k)", title: d.title + (d.plotBy == nil ? "" : ": \(key)") + clipped, yLabel: d.unit, v0: 0,
                v1: totals.allSatisfy { $0 == 0 } ? 1 : top, height: 200)
            p.t0 = -0.5
            p.t1 = Double(mine.count) - 0.5
            p.xTicks = days.enumerated().map { (Double($0.offset), $0.element) }
            p.xTitle = "day (\(d.rows.table.columns.first { $0.name == d.day }?.summary ?? d.day))"
            let width = min(48, p.plotWidth / Double(max(mine.count, 1)) * 0.6)
            var described = [String]()
            for (i, r) in mine.enumerated() {
                var base = 0.0
                var parts = [String]()
                for (j, bar) in d.bars.enumerated() {
                    guard let raw = r.double(bar.column) else {
                        parts.append("\(bar.label) –")
                        continue
                    }
                    let v = raw * d.scale
                    let y0 = p.y(base), y1 = p.y(base + v)
                    p.add(
                        "<rect class=\"b\(j) bar\" data-day=\"\(HTML.escape(days[i]))\" data-column=\"\(HTML.escape(bar.column))\" x=\"\(HTML.n(p.x(Double(i)) - width / 2))\" y=\"\(HTML.n(y1))\" width=\"\(HTML.n(width))\" height=\"\(HTML.n(y0 - y1))\"><title>\(HTML.escape(bar.label)): \(HTML.number(v, v == v.rounded() ? 0 : (abs(v) < 1 ? 2 : 1))) \(HTML.escape(d.unit))</title></rect>"
                    )
                    base += v
                    parts.append("\(bar.label) \(HTML.number(v, v == v.rounded() ? 0 : (abs(v) < 1 ? 2 : 1)))")
                }
                described.append("\(days[i]): " + parts.joined(separator: ", ") + " \(d.unit)")
            }
            if d.bars.count > 1 { p.legend = d.bars.enumerated().map { ("b\($0.offset)", $0.element.label, "rect") } }
            s += p.render(
                description: "\(d.title), \(d.unit)" + (d.bars.count > 1 ? ", parts stacked in legend order" : "") + ": "
                    + described.joined(separator: "; ") + ".")
        }
        return s
    }
}

/// Draws a declared actogram (``ReportActogram``): per stream, one lane per local calendar day,
/// 24 h across; per pixel column a bar of the largest value of the epochs there (scaled to the
/// stream's largest value) and the column hatched where an epoch is marked non-wear.
///
/// Memory follows the lanes' pixel columns, never the epochs (issue 33, class 8): the epochs stream
/// from SQLite twice, none kept; the first pass gathers each actogram's span, epoch count and the
/// largest value per value column, the second keeps per pixel column (of the days drawn) the
/// largest value and whether an epoch there is marked non-wear.
enum ActogramItem {
    static let laneHeight = 30.0, laneGap = 6.0
    /// Most lanes (days) an actogram draws: two years.
    static let maximumDays = 731

    /// One actogram's figures from the first pass.
    struct Figures {
        var epochs = 0
        /// Earliest and latest epoch start read (s).
        var first = Double.infinity, last = -Double.infinity
        /// The largest value per value column, `nil` where the column holds none.
        var largest: [Double?]
    }

    /// One actogram's pixel columns reached by an epoch (day × columns + column), from the second pass.
    struct Cells {
        var peak = [Int: Double]()
        var nonWear = Set<Int>()
        var nonWearEpochs = 0
    }

    static func html(_ d: ReportActogram, _ c: ReportContext) throws(ReportError) -> String {
        let shift = c.time.origin == "unix" ? Double(c.time.utcOffsetSeconds ?? 0) : 0
        var figures = [String: Figures]()
        try c.each(d.rows) { r in
            let key = d.plotBy.map { r.text($0) ?? "" } ?? ""
            var f = figures[key] ?? Figures(largest: d.values.map { _ in nil })
            f.epochs += 1
            if let a = r.double(d.start) {
                f.first = min(f.first, a)
                f.last = max(f.last, a)
            }
            for (k, v) in d.values.enumerated() {
                if let x = r.double(v) { f.largest[k] = max(f.largest[k] ?? x, x) }
            }
            figures[key] = f
        }
        guard !figures.isEmpty else { return "" }
        let columns = Int(c.plot(id: "", title: "", yLabel: "", v0: 0, v1: 1).plotWidth)
        // Per actogram: the value column drawn, the first day and the number of days drawn.
        var drawn = [String: (column: Int, day0: Int, spanDays: Int, days: Int)]()
        for (key, f) in figures {
            guard let column = f.largest.firstIndex(where: { $0 != nil }) else { continue }
            let first = ((f.first.isFinite ? f.first : 0) + shift) / 86_400
            let last = ((f.last.isFinite ? f.last : 0) + shift) / 86_400
            let day0 = Int(first.rounded(.down))
            // One lane per day, at most maximumDays of them (the page stays bounded whatever the span).
            let spanDays = Int(last.rounded(.down)) - day0 + 1
            drawn[key] = (column, day0, spanDays, min(spanDays, Self.maximumDays))
        }
        var cells = [String: Cells]()
        if !drawn.isEmpty {
            try c.each(d.rows) { r in
                let key = d.plotBy.map { r.text($0) ?? "" } ?? ""
                guard let g = drawn[key], let a = r.double(d.start) else { return }
                let local = a + shift
                let day = Int((local / 86_400).rounded(.down)) - g.day0
                let col = min(columns - 1, Int((local - Double(day + g.day0) * 86_400) / 86_400 * Double(columns)))
                guard day >= 0, day < g.days, col >= 0 else { return }
                let cell = day * columns + col
                if let f = d.nonWear, let v = r.text(f.column), f.values.contains(v) {
                    cells[key, default: Cells()].nonWear.insert(cell)
                    cells[key, default: Cells()].nonWearEpochs += 1
                }
                if let v = r.double(d.values[g.column]) { cells[key, default: Cells()].peak[cell] = max(cells[key]?.peak[cell] ?? -1, v) }
            }
        }
        var bandRows: [[ReportDatabase.Row]]?
        var s = ""
        for (k, key) in figures.keys.sorted().enumerated() {
            guard let g = drawn[key] else { continue }
            let column = d.values[g.column]
            let day0 = g.day0, days = g.days
            let clipped = g.spanDays > days ? " (first \(days) of \(g.spanDays) days)" : ""
            let vmax = figures[key]!.largest[g.column] ?? 0
            var p = c.plot(
                id: "\(d.id)-\(k)", title: "\(d.title): \(key.isEmpty ? column : key) (\(column))\(clipped)", yLabel: "day",
                v0: 0, v1: 1,
                height: 26 + 44 + Double(days) * (laneHeight + laneGap) + laneGap)
            p.t0 = 0
            p.t1 = 86_400
            p.xTicks = stride(from: 0, through: 24, by: 3).map { (Double($0) * 3600, String(format: "%02d:00", $0)) }
            p.xTitle = "time of day (" + c.time.title + ")"
            var peak = [[Double]](repeating: [Double](repeating: -1, count: columns), count: max(days, 0))
            var nonWear = [[Bool]](repeating: [Bool](repeating: false, count: columns), count: max(days, 0))
            let mine = cells[key] ?? Cells()
            for (cell, v) in mine.peak { peak[cell / columns][cell % columns] = v }
            for cell in mine.nonWear { nonWear[cell / columns][cell % columns] = true }
            let nonWearEpochs = mine.nonWearEpochs
            if bandRows == nil {
                bandRows = try d.bands.map { band throws(ReportError) in try c.select(band.rows, notNull: [band.onset]) }
            }
            p.add("<g class=\"actogram\" data-vmax=\"\(vmax)\" data-lane-height=\"\(laneHeight)\" data-day0=\"\(day0)\">")
            var marked = [String]()
            for (b, band) in d.bands.enumerated() {
                let candidates = bandRows?[b] ?? []
                guard
                    let onset = candidates.first(where: { r in d.plotBy.map { (r.text($0) ?? "") == key } ?? true })?.double(band.onset),
                    onset.isFinite, band.hours > 0
                else { continue }
                // Hours after midnight on the stream's clock, drawn on the lanes' clock (shifted), wrapping midnight.
                let from = ((onset * 3600 + shift).truncatingRemainder(dividingBy: 86_400) + 86_400).truncatingRemainder(dividingBy: 86_400)
                let to = from + band.hours * 3600
                let pieces: [(Double, Double)] = to <= 86_400 ? [(from, to)] : [(from, 86_400), (0, to - 86_400)]
                let top = p.top + laneGap, height = Double(days) * (laneHeight + laneGap) - laneGap
                for (a, z) in pieces {
                    let x0 = p.left + a / 86_400 * p.plotWidth, x1 = p.left + z / 86_400 * p.plotWidth
                    p.add(
                        "<rect class=\"band\(b % 2)\" data-band=\"\(HTML.escape(band.label))\" x=\"\(HTML.n(x0))\" y=\"\(HTML.n(top))\" width=\"\(HTML.n(x1 - x0))\" height=\"\(HTML.n(height))\"/>"
                    )
                }
                p.legend.append(("band\(b % 2)", "\(band.label) from \(HTML.number(onset, 2)) h", "rect"))
                marked.append("\(band.label) from \(HTML.number(onset, 2)) h for \(HTML.number(band.hours, 0)) h")
            }
            for day in 0..<max(days, 0) {
                let y1 = p.top + laneGap + Double(day) * (laneHeight + laneGap) + laneHeight
                let date = TimeScale.calendar(Double(day + day0) * 86_400, seconds: false).0
                p.add(
                    "<text x=\"\(HTML.n(p.left - 5))\" y=\"\(HTML.n(y1 - laneHeight / 2))\" text-anchor=\"end\" dominant-baseline=\"middle\">\(date.dropFirst(5))</text>"
                )
                p.add(
                    "<line class=\"grid\" x1=\"\(HTML.n(p.left))\" x2=\"\(HTML.n(p.left + p.plotWidth))\" y1=\"\(HTML.n(y1))\" y2=\"\(HTML.n(y1))\"/>"
                )
                var col = 0
                while col < columns {
                    guard nonWear[day][col] else {
                        col += 1
                        continue
                    }
                    var end = col + 1
                    while end < columns && nonWear[day][end] { end += 1 }
                    p.add(
                        "<rect class=\"nw\" x=\"\(HTML.n(p.left + Double(col)))\" y=\"\(HTML.n(y1 - laneHeight))\" width=\"\(end - col)\" height=\"\(HTML.n(laneHeight))\"/>"
                    )
                    col = end
                }
                for col in 0..<columns where peak[day][col] > 0 && vmax > 0 {
                    let h = peak[day][col] / vmax * laneHeight
                    p.add(
                        "<rect class=\"act\" data-day=\"\(day)\" data-col=\"\(col)\" x=\"\(HTML.n(p.left + Double(col)))\" y=\"\(y1 - h)\" width=\"1\" height=\"\(h)\"/>"
                    )
                }
            }
            p.add("</g>")
            p.legend.insert(("act", "\(column) (bar height, largest \(HTML.number(vmax, 1)))", "rect"), at: 0)
            if nonWearEpochs > 0 { p.legend.append(("nw", "not worn", "rect")) }
            let unit = FamilySection.unit(d.rows.table, column)
            s += p.render(
                description:
                    "Actogram of \(key): \(days) day(s) from \(TimeScale.calendar(Double(day0) * 86_400, seconds: false).0), one lane per day from midnight to midnight (\(c.time.title)); "
                    + "bar height: the largest \(column) of the epochs in each pixel column (about \(Int(86_400 / Double(columns))) s), full height = \(HTML.number(vmax, 1)) \(unit); "
                    + "\(figures[key]!.epochs) epochs, \(nonWearEpochs) marked not worn (hatched)"
                    + (marked.isEmpty
                        ? "." : "; shaded on every lane: " + marked.joined(separator: ", ") + " (clock hours of the stream)."),
                valueTicks: [])
        }
        return s
    }
}

/// Draws declared intervals (``ReportIntervals``): per stream, one lane per period (night), the
/// main interval (sleep period) as a bar, inner intervals inside it, and the period's figures in
/// a table. At most ``ActogramItem/maximumDays`` periods per stream (the first; the title says how
/// many there are) and ``maximumInner`` inner intervals per period are drawn: the rows stream from
/// SQLite and only those drawn are kept (issue 33, class 8).
enum IntervalsItem {
    /// Most inner intervals drawn in one period (a night holds at most 288 sleep bouts of 5 min).
    static let maximumInner = 1_000

    static func html(_ d: ReportIntervals, _ c: ReportContext) throws(ReportError) -> String {
        let periods = try FamilySection.firstRows(
            d.rows, by: d.plotBy, order: [ReportOrder(d.periodStart)], limit: ActogramItem.maximumDays, c)
        guard !periods.isEmpty else { return "" }
        var s = "<h3>\(HTML.escape(d.title))</h3>"
        let have = try c.columns(d.rows.table.name)
        let figures = d.figures.filter { have.contains($0) }
        // The inner intervals of each period drawn, read once (in start order): lanes whose period
        // holds an interval's start are found by bisection over the periods' starts.
        var inner = [String: [[(Double, Double)]]]()
        var innerCount = [String: Int]()
        if let r = d.inner {
            var lanes = [String: (order: [Int], bases: [Double])]()
            for (key, g) in periods {
                let bases = g.rows.map { $0.double(d.periodStart) ?? 0 }
                let order = bases.indices.sorted { (bases[$0], $0) < (bases[$1], $1) }
                lanes[key] = (order, order.map { bases[$0] })
                inner[key] = g.rows.map { _ in [] }
            }
            try c.each(r, orderBy: [ReportOrder(d.innerStart)]) { e in
                let key = d.plotBy.map { e.text($0) } ?? ""
                guard let key, let l = lanes[key], let a = e.double(d.innerStart), let b = e.double(d.innerEnd) else { return }
                // Periods with base ≤ a < base + period.
                var lo = 0, hi = l.bases.count
                while lo < hi {
                    let mid = (lo + hi) / 2
                    if l.bases[mid] + d.periodSeconds > a { hi = mid } else { lo = mid + 1 }
                }
                var i = lo
                while i < l.bases.count && !(l.bases[i] > a) {
                    let lane = l.order[i]
                    innerCount[key, default: 0] += 1
                    if inner[key]![lane].count < Self.maximumInner { inner[key]![lane].append((a, b)) }
                    i += 1
                }
            }
        }
        for (k, key) in periods.keys.sorted().enumerated() {
            let mine = periods[key]!.rows
            let clipped = FamilySection.clipped(periods[key]!, d.label + "s")
            let bouts = inner[key] ?? []
            if mine.contains(where: { $0.double(d.start) != nil && $0.double(d.end) != nil }) {
                let lane = 22.0, gap = 8.0
                var p = c.plot(
                    id: "\(d.id)-\(k)", title: "\(d.title): \(key)\(clipped)", yLabel: d.label, v0: 0, v1: 1,
                    height: 26 + 44 + Double(mine.count) * (lane + gap) + gap)
                p.t0 = 0
                p.t1 = d.periodSeconds
                let origin = mine.first?.double(d.periodStart) ?? 0
                p.xTicks = stride(from: 0.0, through: d.periodSeconds, by: d.periodSeconds / 4).map { t in
                    (
                        t,
                        c.time.isCalendar
                            ? String(c.time.describe(origin + t).split(separator: " ")[1].prefix(5)) : TimeScale.trim(t / 3600) + " h"
                    )
                }
                p.xTitle = "time from the period's start (\(c.time.title))"
                for (i, r) in mine.enumerated() {
                    let y = p.top + gap + Double(i) * (lane + gap)
                    let base = r.double(d.periodStart) ?? 0
                    p.add(
                        "<text x=\"\(HTML.n(p.left - 5))\" y=\"\(HTML.n(y + lane / 2))\" text-anchor=\"end\" dominant-baseline=\"middle\">\(HTML.escape(String((r.text(d.label) ?? "").suffix(5))))</text>"
                    )
                    if let a = r.double(d.start), let b = r.double(d.end) {
                        p.add(
                            "<rect class=\"spt\" data-interval=\"\(HTML.escape(r.text(d.label) ?? ""))\" data-start=\"\(a)\" data-end=\"\(b)\" x=\"\(HTML.n(p.x(a - base)))\" y=\"\(HTML.n(y))\" width=\"\(HTML.n(max(1, p.x(b - base) - p.x(a - base))))\" height=\"\(HTML.n(lane))\"/>"
                        )
                    }
                    for (a, b) in bouts.isEmpty ? [] : bouts[i] {
                        p.add(
                            "<rect class=\"bout\" x=\"\(HTML.n(p.x(a - base)))\" y=\"\(HTML.n(y + lane * 0.3))\" width=\"\(HTML.n(max(1, p.x(b - base) - p.x(a - base))))\" height=\"\(HTML.n(lane * 0.4))\"/>"
                        )
                    }
                }
                p.legend = [("spt", "sleep period (\(d.start) to \(d.end))", "rect")]
                if d.inner != nil { p.legend.append(("bout", "bouts", "rect")) }
                s += p.render(
                    description:
                        "\(d.title) of \(key): one lane per \(d.label), \(periods[key]!.count) in all\(clipped); bars from \(d.start) to \(d.end)"
                        + (bouts.contains { $0.count >= Self.maximumInner }
                            ? "; at most \(Self.maximumInner) inner intervals drawn per \(d.label) (\(innerCount[key] ?? 0) in all)."
                            : "."),
                    valueTicks: [])
            }
            s +=
                "<table class=\"values\" data-values=\"\(HTML.escape(d.rows.table.name))\"><caption>\(HTML.escape(key + clipped))</caption><tr><th class=\"l\">\(HTML.escape(d.label))</th>"
            for f in figures {
                let col = d.rows.table.columns.first { $0.name == f }
                s +=
                    "<th title=\"\(HTML.escape(col?.summary ?? ""))\">\(HTML.escape(f))\(col?.unit.map { " (\(HTML.escape($0)))" } ?? "")</th>"
            }
            s += "</tr>"
            for r in mine {
                s += "<tr><td class=\"l\">\(HTML.escape(r.text(d.label) ?? ""))</td>"
                s += figures.map {
                    "<td\(r[$0].double == nil ? " class=\"l\"" : "")>\(HTML.escape(FamilySection.format(r[$0], column: $0)))</td>"
                }.joined()
                s += "</tr>"
            }
            s += "</table>"
        }
        return s
    }
}

/// Draws a declared feature series (``ReportFeatureSeries``): per stream the chosen feature's
/// value per window over time; streams whose chosen feature is the same share one plot (a line
/// each), over the span of their windows.
///
/// Memory follows the plot width and the number of (stream, feature) pairs, never the rows (issue
/// 33, class 8): the rows stream from SQLite twice, none kept, as for ``TimeSeriesItem``. The first
/// pass gathers each stream's feature names and, per name, its figures (points, values' count, sum
/// and range, span, smallest step, unit); the second draws each stream's chosen feature as its rows
/// arrive (``SeriesPath``).
enum FeatureSeriesItem {
    /// One stream's feature, from the first pass.
    struct Figures {
        var points = 0
        var values = TimeSeriesItem.Running()
        /// Earliest window start and latest window end read (s).
        var start = Double.infinity, end = -Double.infinity
        /// Smallest positive step between consecutive points, and the last point's time.
        var step = Double.infinity, lastT: Double?
        /// The unit of the first row.
        var unit: String?

        mutating func add(_ r: ReportDatabase.Row, _ d: ReportFeatureSeries) {
            if points == 0 { unit = r.text(d.unit) }
            points += 1
            let p = FeatureSeriesItem.point(r, d)
            values.add(p.v)
            if let a = r.double(d.start) { start = min(start, a) }
            if let b = r.double(d.end) { end = max(end, b) }
            if let last = lastT, p.t - last > 0 { step = min(step, p.t - last) }
            lastT = p.t
        }
    }

    /// The point of a row: the middle of its window and the value.
    static func point(_ r: ReportDatabase.Row, _ d: ReportFeatureSeries) -> (t: Double, v: Double?) {
        let a = r.double(d.start) ?? 0
        return (a + ((r.double(d.end) ?? a) - a) / 2, r.double(d.value))
    }

    static func html(_ d: ReportFeatureSeries, _ c: ReportContext) throws(ReportError) -> String {
        let order = [ReportOrder(d.stream), ReportOrder(d.start)]
        // First pass: every stream's features and their figures.
        var streams = [String: [String: Figures]]()
        try c.each(d.rows, notNull: [d.value], orderBy: order) { r in
            guard let stream = r.text(d.stream), let name = r.text(d.name) else { return }
            streams[stream, default: [:]][name, default: Figures()].add(r, d)
        }
        var chosen = [(stream: String, feature: String, count: Int, figures: Figures)]()
        for stream in streams.keys.sorted() {
            let names = streams[stream]!.keys.sorted()
            guard let feature = d.preferred.lazy.compactMap({ suffix in names.first { $0.hasSuffix(suffix) } }).first ?? names.first else {
                continue
            }
            chosen.append((stream, feature, names.count, streams[stream]![feature]!))
        }
        streams = [:]
        var features = [String]()
        for f in chosen.map(\.feature) where !features.contains(f) { features.append(f) }
        // Second pass: every stream's chosen feature drawn as its rows arrive.
        var plots = [Plot]()
        var paths = [String: SeriesPath]()
        for (k, feature) in features.enumerated() {
            let group = chosen.filter { $0.feature == feature }
            let unit = group.first?.figures.unit ?? ""
            var lo = Double.infinity, hi = -Double.infinity, a = Double.infinity, b = -Double.infinity
            for g in group {
                if g.figures.values.n > 0 {
                    lo = min(lo, g.figures.values.lo)
                    hi = max(hi, g.figures.values.hi)
                }
                a = min(a, g.figures.start)
                b = max(b, g.figures.end)
            }
            let (v0, v1) = FamilySection.axis(lo.isFinite ? [lo, hi] : [], zeroBased: false)
            var p = c.plot(
                id: "\(d.id)-\(k)",
                title: "\(d.title): \(feature)" + (group.count == 1 ? " of \(group[0].stream)" : " of \(group.count) streams"),
                yLabel: feature + (unit == "1" || unit.isEmpty ? "" : " (\(unit))"), v0: v0, v1: v1, height: 200)
            if a.isFinite, b.isFinite, b > a {
                p.t0 = a
                p.t1 = b
            }
            for g in group {
                let gap = (g.figures.step.isFinite ? g.figures.step : 10) * 1.5
                paths[g.stream] = SeriesPath(p, count: g.figures.points, gapSeconds: gap)
            }
            plots.append(p)
        }
        guard !paths.isEmpty else { return "" }
        let drawn = Dictionary(uniqueKeysWithValues: chosen.map { ($0.stream, $0.feature) })
        try c.each(d.rows, notNull: [d.value], orderBy: order) { r in
            guard let stream = r.text(d.stream), let feature = drawn[stream], r.text(d.name) == feature else { return }
            let p = point(r, d)
            paths[stream]?.add(t: p.t, v: p.v)
        }
        var s = ""
        for (k, feature) in features.enumerated() {
            let group = chosen.filter { $0.feature == feature }
            let unit = group.first?.figures.unit ?? ""
            var p = plots[k]
            for (j, g) in group.enumerated() {
                let entries = p.legend.count
                p.add(paths[g.stream]!, cssClass: group.count <= 4 ? "s\(j)" : "s0", name: g.stream)
                if group.count > 4 { p.legend.removeSubrange(entries...) }
            }
            if group.count > 4 { p.legend.append(("s0", "\(group.count) streams", nil)) }
            s += p.render(
                description: "The feature \(feature) per window over time, one line per stream (chosen among the features with a value: "
                    + group.map { "\($0.stream): \($0.count)" }.joined(separator: ", ") + "). "
                    + group.map { FamilySection.stats($0.stream, $0.figures.values, unit: unit) }.joined(separator: "; ") + ".")
        }
        return s
    }
}

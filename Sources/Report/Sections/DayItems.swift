import Foundation
import Pipeline

/// Draws declared per-day bars (``ReportDailyBars``): one chart per stream, a stacked bar per day.
enum DailyBarsItem {
    static func html(_ d: ReportDailyBars, _ c: ReportContext) throws(ReportError) -> String {
        let rows = try c.select(d.rows, orderBy: [ReportOrder(d.day)])
        guard !rows.isEmpty else { return "" }
        var s = ""
        for (k, key) in FamilySection.distinct(rows, d.plotBy).sorted().enumerated() {
            let mine = d.plotBy.map { p in rows.filter { ($0.text(p) ?? "") == key } } ?? rows
            let days = mine.map { $0.text(d.day) ?? "?" }
            let totals = mine.map { r in d.bars.compactMap { r.double($0.column) }.reduce(0, +) * d.scale }
            let top = max(totals.max() ?? 0, 1e-9) * 1.12
            var p = c.plot(
                id: "\(d.id)-\(k)", title: d.title + (d.plotBy == nil ? "" : ": \(key)"), yLabel: d.unit, v0: 0,
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
enum ActogramItem {
    static let laneHeight = 30.0, laneGap = 6.0
    /// Most lanes (days) an actogram draws: two years.
    static let maximumDays = 731

    static func html(_ d: ReportActogram, _ c: ReportContext) throws(ReportError) -> String {
        let rows = try c.select(d.rows, orderBy: [ReportOrder(d.start)])
        guard !rows.isEmpty else { return "" }
        let shift = c.time.origin == "unix" ? Double(c.time.utcOffsetSeconds ?? 0) : 0
        var s = ""
        for (k, key) in FamilySection.distinct(rows, d.plotBy).sorted().enumerated() {
            let mine = d.plotBy.map { p in rows.filter { ($0.text(p) ?? "") == key } } ?? rows
            guard let column = d.values.first(where: { v in mine.contains { $0.double(v) != nil } }) else { continue }
            let first: Double = ((mine.first?.double(d.start) ?? 0) + shift) / 86_400
            let last: Double = ((mine.last?.double(d.start) ?? 0) + shift) / 86_400
            let day0 = Int(first.rounded(.down))
            // One lane per day, at most maximumDays of them (the page stays bounded whatever the span).
            let spanDays = Int(last.rounded(.down)) - day0 + 1
            let days = min(spanDays, Self.maximumDays)
            let clipped = spanDays > days ? " (first \(days) of \(spanDays) days)" : ""
            let vmax = mine.compactMap { $0.double(column) }.max() ?? 0
            var p = c.plot(
                id: "\(d.id)-\(k)", title: "\(d.title): \(key.isEmpty ? column : key) (\(column))\(clipped)", yLabel: "day",
                v0: 0, v1: 1,
                height: 26 + 44 + Double(days) * (laneHeight + laneGap) + laneGap)
            p.t0 = 0
            p.t1 = 86_400
            p.xTicks = stride(from: 0, through: 24, by: 3).map { (Double($0) * 3600, String(format: "%02d:00", $0)) }
            p.xTitle = "time of day (" + c.time.title + ")"
            let columns = Int(p.plotWidth)
            var peak = [[Double]](repeating: [Double](repeating: -1, count: columns), count: days)
            var nonWear = [[Bool]](repeating: [Bool](repeating: false, count: columns), count: days)
            var nonWearEpochs = 0
            for r in mine {
                guard let a = r.double(d.start) else { continue }
                let local = a + shift
                let day = Int((local / 86_400).rounded(.down)) - day0
                let col = min(columns - 1, Int((local - Double(day + day0) * 86_400) / 86_400 * Double(columns)))
                guard day >= 0, day < days, col >= 0 else { continue }
                if let f = d.nonWear, let v = r.text(f.column), f.values.contains(v) {
                    nonWear[day][col] = true
                    nonWearEpochs += 1
                }
                if let v = r.double(column) { peak[day][col] = max(peak[day][col], v) }
            }
            p.add("<g class=\"actogram\" data-vmax=\"\(vmax)\" data-lane-height=\"\(laneHeight)\" data-day0=\"\(day0)\">")
            var marked = [String]()
            for (b, band) in d.bands.enumerated() {
                let candidates = try c.select(band.rows, notNull: [band.onset])
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
            for day in 0..<days {
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
                    + "\(mine.count) epochs, \(nonWearEpochs) marked not worn (hatched)"
                    + (marked.isEmpty
                        ? "." : "; shaded on every lane: " + marked.joined(separator: ", ") + " (clock hours of the stream)."),
                valueTicks: [])
        }
        return s
    }
}

/// Draws declared intervals (``ReportIntervals``): per stream, one lane per period (night), the
/// main interval (sleep period) as a bar, inner intervals inside it, and the period's figures in
/// a table.
enum IntervalsItem {
    static func html(_ d: ReportIntervals, _ c: ReportContext) throws(ReportError) -> String {
        let rows = try c.select(d.rows, orderBy: [ReportOrder(d.periodStart)])
        guard !rows.isEmpty else { return "" }
        var s = "<h3>\(HTML.escape(d.title))</h3>"
        let have = try c.columns(d.rows.table.name)
        let figures = d.figures.filter { have.contains($0) }
        for (k, key) in FamilySection.distinct(rows, d.plotBy).sorted().enumerated() {
            let mine = d.plotBy.map { p in rows.filter { ($0.text(p) ?? "") == key } } ?? rows
            let inner = try d.inner.map { r throws(ReportError) in try c.select(r, orderBy: [ReportOrder(d.innerStart)]) } ?? []
            if mine.contains(where: { $0.double(d.start) != nil && $0.double(d.end) != nil }) {
                let lane = 22.0, gap = 8.0
                var p = c.plot(
                    id: "\(d.id)-\(k)", title: "\(d.title): \(key)", yLabel: d.label, v0: 0, v1: 1,
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
                    for e in inner where (d.plotBy.map { e.text($0) == key } ?? true) {
                        guard let a = e.double(d.innerStart), let b = e.double(d.innerEnd), a >= base, a < base + d.periodSeconds else {
                            continue
                        }
                        p.add(
                            "<rect class=\"bout\" x=\"\(HTML.n(p.x(a - base)))\" y=\"\(HTML.n(y + lane * 0.3))\" width=\"\(HTML.n(max(1, p.x(b - base) - p.x(a - base))))\" height=\"\(HTML.n(lane * 0.4))\"/>"
                        )
                    }
                }
                p.legend = [("spt", "sleep period (\(d.start) to \(d.end))", "rect")]
                if d.inner != nil { p.legend.append(("bout", "bouts", "rect")) }
                s += p.render(
                    description: "\(d.title) of \(key): one lane per \(d.label), \(mine.count) in all; bars from \(d.start) to \(d.end).",
                    valueTicks: [])
            }
            s +=
                "<table class=\"values\" data-values=\"\(HTML.escape(d.rows.table.name))\"><caption>\(HTML.escape(key))</caption><tr><th class=\"l\">\(HTML.escape(d.label))</th>"
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
enum FeatureSeriesItem {
    static func html(_ d: ReportFeatureSeries, _ c: ReportContext) throws(ReportError) -> String {
        let rows = try c.select(d.rows, notNull: [d.value], orderBy: [ReportOrder(d.stream), ReportOrder(d.start)])
        guard !rows.isEmpty else { return "" }
        var chosen = [(stream: String, feature: String, count: Int, rows: [ReportDatabase.Row])]()
        for stream in FamilySection.distinct(rows, d.stream).sorted() {
            let mine = rows.filter { $0.text(d.stream) == stream }
            let names = Set(mine.compactMap { $0.text(d.name) }).sorted()
            guard let feature = d.preferred.lazy.compactMap({ suffix in names.first { $0.hasSuffix(suffix) } }).first ?? names.first else {
                continue
            }
            chosen.append((stream, feature, names.count, mine.filter { $0.text(d.name) == feature }))
        }
        var s = ""
        let features = FamilySection.distinct(chosen.map { ReportDatabase.Row(columns: ["f": .text($0.feature)]) }, "f")
        for (k, feature) in features.enumerated() {
            let group = chosen.filter { $0.feature == feature }
            let unit = group.first?.rows.first?.text(d.unit) ?? ""
            var series = [(name: String, points: TimeSeriesItem.Points)]()
            for g in group {
                series.append(
                    (
                        g.stream,
                        g.rows.map { r in
                            let a = r.double(d.start) ?? 0
                            return (a + ((r.double(d.end) ?? a) - a) / 2, r.double(d.value))
                        }
                    ))
            }
            let values = series.flatMap { $0.points.compactMap(\.v) }
            let starts = group.flatMap { $0.rows.compactMap { $0.double(d.start) } }
            let ends = group.flatMap { $0.rows.compactMap { $0.double(d.end) } }
            let (v0, v1) = FamilySection.axis(values, zeroBased: false)
            var p = c.plot(
                id: "\(d.id)-\(k)",
                title: "\(d.title): \(feature)" + (group.count == 1 ? " of \(group[0].stream)" : " of \(group.count) streams"),
                yLabel: feature + (unit == "1" || unit.isEmpty ? "" : " (\(unit))"), v0: v0, v1: v1, height: 200)
            if let a = starts.min(), let b = ends.max(), b > a {
                p.t0 = a
                p.t1 = b
            }
            for (j, ser) in series.enumerated() {
                let gap = FamilySection.step(ser.points.map(\.t), fallback: 10) * 1.5
                p.addSeries(ser.points, gapSeconds: gap, cssClass: series.count <= 4 ? "s\(j)" : "s0", name: ser.name)
                if series.count > 4 { p.legend.removeLast() }
            }
            if series.count > 4 { p.legend.append(("s0", "\(series.count) streams", nil)) }
            s += p.render(
                description: "The feature \(feature) per window over time, one line per stream (chosen among the features with a value: "
                    + group.map { "\($0.stream): \($0.count)" }.joined(separator: ", ") + "). "
                    + series.map { FamilySection.stats($0.name, $0.points.compactMap(\.v), unit: unit) }.joined(separator: "; ") + ".")
        }
        return s
    }
}

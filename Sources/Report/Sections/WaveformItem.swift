import Foundation
import Pipeline

/// Draws a declared waveform (``ReportWaveform``): the rows of each `plotBy` value as a line per
/// y column over their x (s), the markers' rows drawn as ○ on the first line at their x. The
/// waveforms are short (a family stores one window or one median beat per stream), so a plot's
/// rows are read at once.
enum WaveformItem {
    static func html(_ d: ReportWaveform, _ c: ReportContext) throws(ReportError) -> String {
        let rows = try c.select(d.rows, orderBy: (d.plotBy.map { [ReportOrder($0)] } ?? []) + [ReportOrder(d.x)])
        guard !rows.isEmpty else {
            return "<p class=\"note\" data-empty=\"\(HTML.escape(d.id))\">\(HTML.escape(d.title)): \(HTML.escape(d.whenEmpty)).</p>"
        }
        var s = ""
        // One plot per plotBy value and, when declared, window value (rows ordered by plotBy, x).
        struct Key: Hashable {
            var by: String
            var window: Double?
        }
        func key(_ r: ReportDatabase.Row) -> Key {
            Key(by: d.plotBy.flatMap { r.text($0) } ?? "", window: d.window.flatMap { r.double($0) })
        }
        var keys = [Key](), groups = [Key: [ReportDatabase.Row]]()
        for r in rows {
            let k = key(r)
            if groups[k] == nil { keys.append(k) }
            groups[k, default: []].append(r)
        }
        if d.window != nil { keys.sort { $0.by != $1.by ? $0.by < $1.by : ($0.window ?? 0) < ($1.window ?? 0) } }
        var markerRows = [String: [ReportDatabase.Row]]()
        for (k, key) in keys.enumerated() {
            let mine = groups[key] ?? []
            let xs = mine.compactMap { $0.double(d.x) }
            let all = d.values.flatMap { v in mine.compactMap { $0.double(v) } }
            guard let t0 = xs.min(), let t1 = xs.max(), t1 > t0, let lo = all.min(), let hi = all.max() else { continue }
            let pad = max((hi - lo) * 0.08, 1e-6)
            var title = d.title + (d.plotBy == nil ? "" : ": \(key.by)")
            if let w = key.window { title += ", \(c.time.describe(w))" }
            if let n = d.note, let text = mine.lazy.compactMap({ $0.text(n) }).first(where: { !$0.isEmpty }) { title += " — \(text)" }
            let unit = FamilySection.unit(d.rows.table, d.values[0])
            var p = Plot(
                id: "\(d.id)-\(k)", title: title, t0: t0, t1: t1, v0: lo - pad, v1: hi + pad, time: c.time,
                yLabel: unit.isEmpty || unit == "1" ? d.values[0] : "\(d.values[0]) (\(unit))")
            p.height = 200
            if let axis = d.relativeXTitle {
                let ticks = Plot.niceTicks(t0, t1)
                let tickStep = ticks.count > 1 ? ticks[1] - ticks[0] : 1
                p.xTicks = ticks.filter { $0 >= t0 && $0 <= t1 }.map { ($0, Plot.tickLabel($0, step: tickStep)) }
                p.xTitle = axis
            }
            var step = Double.infinity
            for (a, b) in zip(xs, xs.dropFirst()) where b - a > 0 { step = min(step, b - a) }
            if !step.isFinite { step = 1 }
            var first = [(t: Double, v: Double)]()
            for (j, v) in d.values.enumerated() {
                let points = mine.compactMap { r in r.double(d.x).map { (t: $0, v: r.double(v)) } }
                if j == 0 { first = points.compactMap { p in p.v.map { (p.t, $0) } } }
                p.addSeries(points, gapSeconds: step * 2.5, cssClass: j == 0 ? "ecg" : "s\(j % 4)", name: v)
            }
            var marked = 0
            if let m = d.markers {
                if markerRows[key.by] == nil {
                    let extra = d.plotBy.map { [ReportFilter($0, key.by)] } ?? []
                    markerRows[key.by] = try c.select(m.rows, extra, orderBy: [ReportOrder(m.x)])
                }
                for e in markerRows[key.by] ?? [] where d.window.map({ e.double($0) == key.window }) ?? true {
                    guard let t = e.double(m.x), t >= t0, t <= t1, !first.isEmpty else { continue }
                    // On the first line: the value at the nearest sample.
                    let near = first.min { abs($0.t - t) < abs($1.t - t) }!
                    marked += 1
                    let label = m.label.flatMap { e.text($0) }
                    p.add(
                        "<circle class=\"beat\" data-marker=\"\(HTML.escape(m.name))\" data-t=\"\(t)\""
                            + (label.map { " data-label=\"\(HTML.escape($0))\"" } ?? "")
                            + (key.window.map { " data-window=\"\($0)\"" } ?? "")
                            + " cx=\"\(HTML.n(p.x(t)))\" cy=\"\(HTML.n(p.y(near.v)))\" r=\"4\"/>")
                    if let label {
                        // Labels alternate above and below the line so that neighbouring marks stay readable.
                        let dy = marked % 2 == 0 ? 16.0 : -9.0
                        p.add(
                            "<text class=\"mark-label\" x=\"\(HTML.n(p.x(t)))\" y=\"\(HTML.n(p.y(near.v) + dy))\" text-anchor=\"middle\">\(HTML.escape(label))</text>"
                        )
                    }
                }
            }
            let span =
                d.relativeXTitle == nil
                ? "from \(c.time.describe(t0)) for \(HTML.number(t1 - t0, 1)) s"
                : "over \(HTML.number(t0, 3)) to \(HTML.number(t1, 3)) s (\(d.relativeXTitle!))"
            let desc =
                "\(title): \(mine.count) samples \(span), "
                + "\(d.values[0]) \(HTML.number(lo, 3)) to \(HTML.number(hi, 3))"
                + (d.markers.map { "; \(marked) \($0.name)s marked (○)" } ?? "") + "."
            s += p.render(description: desc)
        }
        return s
    }
}

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
        var keys = [String](), seen = Set<String>()
        for r in rows {
            let v = d.plotBy.flatMap { r.text($0) } ?? ""
            if seen.insert(v).inserted { keys.append(v) }
        }
        for (k, key) in keys.enumerated() {
            let mine = d.plotBy.map { by in rows.filter { ($0.text(by) ?? "") == key } } ?? rows
            let xs = mine.compactMap { $0.double(d.x) }
            let all = d.values.flatMap { v in mine.compactMap { $0.double(v) } }
            guard let t0 = xs.min(), let t1 = xs.max(), t1 > t0, let lo = all.min(), let hi = all.max() else { continue }
            let pad = max((hi - lo) * 0.08, 1e-6)
            var title = d.title + (d.plotBy == nil ? "" : ": \(key)")
            if let n = d.note, let text = mine.lazy.compactMap({ $0.text(n) }).first(where: { !$0.isEmpty }) { title += " — \(text)" }
            let unit = FamilySection.unit(d.rows.table, d.values[0])
            var p = Plot(
                id: "\(d.id)-\(k)", title: title, t0: t0, t1: t1, v0: lo - pad, v1: hi + pad, time: c.time,
                yLabel: unit.isEmpty || unit == "1" ? d.values[0] : "\(d.values[0]) (\(unit))")
            p.height = 200
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
                let extra = d.plotBy.map { [ReportFilter($0, key)] } ?? []
                for e in try c.select(m.rows, extra, orderBy: [ReportOrder(m.x)]) {
                    guard let t = e.double(m.x), t >= t0, t <= t1, !first.isEmpty else { continue }
                    // On the first line: the value at the nearest sample.
                    let near = first.min { abs($0.t - t) < abs($1.t - t) }!
                    marked += 1
                    p.add(
                        "<circle class=\"beat\" data-marker=\"\(HTML.escape(m.name))\" data-t=\"\(t)\" cx=\"\(HTML.n(p.x(t)))\" cy=\"\(HTML.n(p.y(near.v)))\" r=\"4\"/>"
                    )
                }
            }
            let desc =
                "\(title): \(mine.count) samples from \(c.time.describe(t0)) for \(HTML.number(t1 - t0, 1)) s, "
                + "\(d.values[0]) \(HTML.number(lo, 3)) to \(HTML.number(hi, 3))"
                + (d.markers.map { "; \(marked) \($0.name)s marked (○)" } ?? "") + "."
            s += p.render(description: desc)
        }
        return s
    }
}

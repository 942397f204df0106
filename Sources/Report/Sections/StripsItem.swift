import Foundation
import Pipeline

/// Draws declared strips (``ReportStrips``): windows of the signal read back from the recording
/// file (first seconds, worst-quality window, largest-value window) with the events of a table
/// marked (○ detected, × removed as extra, ▼ inserted or moved by correction at its corrected time).
enum StripsItem {
    /// The windows to read back for one declaration.
    static func requests(_ d: ReportStrips, family: String, _ c: ReportContext) throws(ReportError) -> [SignalReadback.Strip] {
        var out = [SignalReadback.Strip]()
        let streams = try FamilySection.distinct(d.streams, "stream", orderBy: [ReportOrder("stream")], c).prefix(d.maxStreams)
        for stream in streams {
            guard let row = c.stream(stream), let first = row.double("first_time") else { continue }
            let last = row.double("last_time") ?? first
            var mine = [SignalReadback.Strip]()
            func add(_ start: Double, _ end: Double, _ kind: String) {
                // The same window twice is drawn once (its title says both).
                if let k = mine.firstIndex(where: { $0.start == start }) {
                    mine[k].kind += " and " + kind
                } else {
                    mine.append(.init(stream: stream, start: start, end: end, kind: kind, signal: d.signal, markers: d.markers))
                }
            }
            for w in d.windows {
                switch w {
                case .first(let seconds):
                    add(first, min(last, first + seconds), seconds == 60 ? "first minute" : "first \(TimeScale.trim(seconds)) s")
                case .worst(let q):
                    // The worst window with at least half of it inside the stream (windows reaching
                    // past a short stream's end hold little signal).
                    let worst = try c.select(
                        q.rows, [ReportFilter("stream", stream)], orderBy: q.worstFirst + [ReportOrder(q.start)],
                        labelRank: (q.label, q.labels), within: [(q.start, first, last)], limit: 50
                    ).first { w in
                        guard let a = w.double(q.start), let b = w.double(q.end) else { return false }
                        return min(b, last) - max(a, first) >= (b - a) / 2
                    }
                    if let w = worst, let a = w.double(q.start), let b = w.double(q.end) { add(a, b, "worst-quality window") }
                case .largest(let rows, let value):
                    let top = try c.select(
                        rows, [ReportFilter("stream", stream)], notNull: [value],
                        orderBy: [ReportOrder(value, descending: true), ReportOrder("window_start")], limit: 1
                    ).first
                    if let f = top, let a = f.double("window_start"), let b = f.double("window_end") {
                        add(a, b, value == "bpm" ? "fastest-rate window" : "largest-\(value) window")
                    }
                }
            }
            out += mine
        }
        return out
    }

    static func html(_ d: ReportStrips, family: String, _ c: ReportContext) throws(ReportError) -> String {
        var s = "<h3>\(HTML.escape(d.signal)) strips</h3>"
        switch c.readback.status {
        case .read:
            s += "<p>Read back from the recording file (content hash checked, decoded with the run's decode options)."
            if let m = d.markers {
                s += " \(m.name.capitalized)s: ○ detected"
                if m.removed != nil { s += ", × removed as extra" }
                if m.correctedTime != nil { s += ", ▼ \(m.name) inserted or moved by the artefact correction (at its corrected time)" }
                s += "."
            }
            s += " Masked samples are left out.</p>"
        default:
            return s
                + "<p class=\"warn\">\(HTML.escape(d.signal)) strips are not drawn: \(HTML.escape(SignalReadback.message(c.readback.status))).</p>"
        }
        let streams = try FamilySection.distinct(d.streams, "stream", c)
        if streams.count > d.maxStreams {
            s += "<p class=\"note\">Strips are drawn for the first \(d.maxStreams) of \(streams.count) streams.</p>"
        }
        for (k, strip) in c.readback.strips.enumerated() where strip.signal == d.signal && strip.markers == d.markers {
            s += try render(strip, index: k, c)
        }
        return s
    }

    static func render(_ strip: SignalReadback.Strip, index: Int, _ c: ReportContext) throws(ReportError) -> String {
        let finite = strip.values.filter(\.isFinite).map(Double.init)
        guard finite.count > 1, let lo = finite.min(), let hi = finite.max() else {
            return "<p class=\"note\">\(HTML.escape(strip.stream)), \(HTML.escape(strip.kind)): no usable samples in this window.</p>"
        }
        let pad = max((hi - lo) * 0.08, 1e-6)
        let unit = strip.unit == "uV" ? "µV" : (strip.unit == "1" ? "" : strip.unit)
        var p = Plot(
            id: "strip-\(index)", title: "\(strip.signal) \(strip.kind): \(strip.stream)", t0: strip.start,
            t1: max(strip.end, strip.start + 1e-3), v0: lo - pad, v1: hi + pad, time: c.time,
            yLabel: unit.isEmpty ? strip.signal : "\(strip.signal) (\(unit))")
        p.height = 200
        let points = zip(strip.times, strip.values).map { (t: $0, v: $1.isFinite ? Double($1) : nil) }
        let period = strip.times.count > 1 ? (strip.times.last! - strip.times.first!) / Double(strip.times.count - 1) : 1
        p.addSeries(points, gapSeconds: period * 2.5, cssClass: "ecg", name: strip.signal)
        var detected = 0, corrected = 0, removed = 0
        if let m = strip.markers {
            let events = try c.select(
                m.rows, [ReportFilter("stream", strip.stream)],
                within: ([m.time] + [m.correctedTime].compactMap { $0 }).map { ($0, strip.start, strip.end) })
            func value(at t: Double) -> Double {
                var a = 0, b = strip.times.count - 1
                while a < b {
                    let mid = (a + b) / 2
                    if strip.times[mid] < t { a = mid + 1 } else { b = mid }
                }
                let v = strip.values[a]
                return v.isFinite ? Double(v) : hi
            }
            for e in events {
                let correction = m.correction.flatMap { e.text($0) } ?? ""
                if let t = e.double(m.time), t >= strip.start, t <= strip.end {
                    let x = p.x(t), y = p.y(value(at: t))
                    if let r = m.removed, correction == r {
                        removed += 1
                        p.add(
                            "<path class=\"removed\" data-beat=\"removed\" d=\"M\(HTML.n(x - 4)) \(HTML.n(y - 4))l8 8m0 -8l-8 8\"/>")
                    } else {
                        detected += 1
                        p.add(
                            "<circle class=\"beat\" data-beat=\"detected\" data-t=\"\(t)\" cx=\"\(HTML.n(x))\" cy=\"\(HTML.n(y))\" r=\"4\"/>"
                        )
                    }
                }
                let touched = !correction.isEmpty && correction != m.removed
                if touched, let column = m.correctedTime, let nn = e.double(column), nn >= strip.start, nn <= strip.end {
                    corrected += 1
                    let x = p.x(nn), y = p.top + 2
                    p.add(
                        "<path class=\"corr\" data-beat=\"corrected\" d=\"M\(HTML.n(x - 5)) \(HTML.n(y))h10l-5 8z\"><title>\(HTML.escape(correction))</title></path>"
                    )
                }
            }
        }
        let name = strip.markers?.name ?? "event"
        let desc =
            "\(strip.signal) of \(strip.stream) from \(c.time.describe(strip.start)) for \(HTML.number(strip.end - strip.start, 1)) s (\(strip.kind)): "
            + "\(strip.times.count) samples, \(detected) detected \(name)s, \(corrected) \(name)s inserted or moved by correction, \(removed) removed as extra; "
            + "amplitude \(HTML.number(lo, 3)) to \(HTML.number(hi, 3)) \(unit)."
        return p.render(description: desc)
    }
}

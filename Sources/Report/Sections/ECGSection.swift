import Foundation

/// The ECG family's section: HRV per window, and ECG strips (the first minute, the worst-quality
/// window and the fastest-rate window) read back from the recording file with the detected and
/// corrected beats marked. Its quality windows shade the heart-rate plot.
struct ECGSection: ReportSection {
    let family = "ecg"
    let title = "ECG"
    let tables = ["ecg_quality", "beats", "heart_rate", "hrv"]
    let shows = "HRV per window and ECG strips with the detected and corrected beats"
    /// At most this many ECG streams get strips (a SensorKit export can hold many sessions).
    static let maxStripStreams = 4

    func hasResults(_ c: ReportContext) throws(ReportError) -> Bool {
        if try c.count("ecg_quality") > 0 { return true }
        return try c.count("beats", where: "source = 'ecg'") > 0
    }

    func ecgStreams(_ c: ReportContext) -> [String] {
        c.streams.filter { ($0.text("analysis") ?? "").split(separator: "+").contains("ecg") }.compactMap { $0.text("stream") }
    }

    func qualityBands(_ c: ReportContext) throws(ReportError) -> [QualityBand] {
        try c.rows("ecg_quality").compactMap { r in
            guard let s = r.text("stream"), let a = r.double("window_start"), let b = r.double("window_end") else { return nil }
            let rank = ["excellent": 0, "barely_acceptable": 1, "unacceptable": 2][r.text("label") ?? ""] ?? 2
            return QualityBand(stream: s, start: a, end: b, rank: rank)
        }
    }

    func strips(_ c: ReportContext) throws(ReportError) -> [SignalReadback.Strip] {
        var out = [SignalReadback.Strip]()
        for stream in ecgStreams(c).prefix(Self.maxStripStreams) {
            guard let row = c.streams.first(where: { $0.text("stream") == stream }), let first = row.double("first_time") else {
                continue
            }
            let last = row.double("last_time") ?? first
            out.append(.init(stream: stream, start: first, end: min(last, first + 60), kind: "first minute"))
            let worst = try c.rows(
                "ecg_quality", where: "stream = ?", [.text(stream)],
                orderBy:
                    "CASE label WHEN 'unacceptable' THEN 0 WHEN 'barely_acceptable' THEN 1 ELSE 2 END, masked_fraction DESC, bSQI ASC, window_start LIMIT 1"
            ).first
            var worstStart: Double?
            if let w = worst, let a = w.double("window_start"), let b = w.double("window_end") {
                out.append(.init(stream: stream, start: a, end: b, kind: "worst-quality window"))
                worstStart = a
            }
            let fastest = try c.rows(
                "heart_rate", where: "stream = ? AND source = 'ecg' AND bpm IS NOT NULL", [.text(stream)],
                orderBy: "bpm DESC, window_start LIMIT 1"
            ).first
            if let f = fastest, let a = f.double("window_start"), let b = f.double("window_end") {
                // The same window twice is drawn once (its title says both).
                if a != worstStart {
                    out.append(.init(stream: stream, start: a, end: b, kind: "fastest-rate window"))
                } else {
                    out[out.count - 1].kind = "worst-quality and fastest-rate window"
                }
            }
        }
        return out
    }

    func render(_ c: ReportContext) throws(ReportError) -> String {
        var s = ""
        let streams = ecgStreams(c)
        // HRV per window.
        s += "<h3>Heart-rate variability per 5-minute window</h3>"
        for (k, stream) in streams.enumerated() {
            let windows = try c.rows(
                "hrv", where: "stream = ? AND source = 'ecg' AND scope = 'window'", [.text(stream)], orderBy: "window_start")
            let whole = try c.rows("hrv", where: "stream = ? AND source = 'ecg' AND scope = 'recording'", [.text(stream)]).first
            if windows.isEmpty {
                s += "<p class=\"note\">\(HTML.escape(stream)): no complete 5-minute HRV window "
                s += "(the stream is shorter, or its beats do not fill one); only the whole-stream values below exist.</p>"
            } else {
                let rmssd = windows.map {
                    (t: (($0.double("window_start") ?? 0) + ($0.double("window_end") ?? 0)) / 2, v: $0.double("RMSSD"))
                }
                let sdnn = windows.map {
                    (t: (($0.double("window_start") ?? 0) + ($0.double("window_end") ?? 0)) / 2, v: $0.double("SDNN"))
                }
                let values = (rmssd + sdnn).compactMap(\.v)
                let top = max(10, (values.max() ?? 100) * 1.1)
                var p = c.plot(id: "hrv-\(k)", title: "HRV per window: \(stream)", yLabel: "ms", v0: 0, v1: top)
                p.addSeries(rmssd, gapSeconds: 301, cssClass: "s0", name: "RMSSD")
                p.addSeries(sdnn, gapSeconds: 301, cssClass: "s1", name: "SDNN")
                let median = { (x: [Double]) -> Double? in x.isEmpty ? nil : x.sorted()[x.count / 2] }
                s += p.render(
                    description:
                        "RMSSD and SDNN (ms) of \(windows.count) five-minute windows of \(stream), plotted at each window's middle; "
                        + "median RMSSD \(HTML.number(median(rmssd.compactMap(\.v)))) ms, median SDNN \(HTML.number(median(sdnn.compactMap(\.v)))) ms."
                )
            }
            if let whole {
                let metrics = ["MeanNN", "SDNN", "RMSSD", "pNN50", "LF", "HF", "LFHF", "SD1", "SD2", "DFA_alpha1"]
                s += "<table><caption>\(HTML.escape(stream)): whole stream</caption><tr>"
                s += metrics.map { "<th>\($0)</th>" }.joined() + "</tr><tr>"
                s += metrics.map { "<td>\(HTML.number(whole.double($0), 2))</td>" }.joined() + "</tr></table>"
            }
        }
        // Strips.
        s += "<h3>ECG strips</h3>"
        switch c.readback.status {
        case .read:
            s += "<p>Read back from the recording file (content hash checked). Beats: ○ detected R-peak, × removed as extra, "
            s += "▼ beat inserted or moved by the artefact correction (at its corrected time). Masked samples are left out.</p>"
        default:
            s += "<p class=\"warn\">ECG strips are not drawn: \(HTML.escape(Self.readbackMessage(c.readback.status))).</p>"
            return s
        }
        if streams.count > Self.maxStripStreams {
            s += "<p class=\"note\">Strips are drawn for the first \(Self.maxStripStreams) of \(streams.count) ECG streams.</p>"
        }
        for (k, strip) in c.readback.strips.enumerated() {
            s += try renderStrip(strip, index: k, kind: strip.kind, c)
        }
        return s
    }

    func renderStrip(_ strip: SignalReadback.Strip, index: Int, kind: String, _ c: ReportContext) throws(ReportError) -> String {
        let finite = strip.values.filter(\.isFinite).map(Double.init)
        guard !finite.isEmpty else {
            return "<p class=\"note\">\(HTML.escape(strip.stream)), \(kind): no usable samples in this window.</p>"
        }
        let lo = finite.min()!, hi = finite.max()!
        let pad = max((hi - lo) * 0.08, 1e-6)
        var p = Plot(
            id: "strip-\(index)", title: "ECG \(kind): \(strip.stream)", t0: strip.start, t1: max(strip.end, strip.start + 1e-3),
            v0: lo - pad, v1: hi + pad, time: c.time, yLabel: strip.unit.isEmpty ? "ECG" : "ECG (\(strip.unit == "uV" ? "µV" : strip.unit))"
        )
        p.height = 200
        let points = zip(strip.times, strip.values).map { (t: $0, v: $1.isFinite ? Double($1) : nil) }
        let period = strip.times.count > 1 ? (strip.times.last! - strip.times.first!) / Double(strip.times.count - 1) : 1
        p.addSeries(points, gapSeconds: period * 2.5, cssClass: "ecg", name: "ECG")
        let beats = try c.rows(
            "beats",
            where: "stream = ? AND source = 'ecg' AND ((time >= ? AND time <= ?) OR (nn_time >= ? AND nn_time <= ?))",
            [.text(strip.stream), .real(strip.start), .real(strip.end), .real(strip.start), .real(strip.end)])
        func value(at t: Double) -> Double {
            var a = 0, b = strip.times.count - 1
            while a < b {
                let m = (a + b) / 2
                if strip.times[m] < t { a = m + 1 } else { b = m }
            }
            let v = strip.values[a]
            return v.isFinite ? Double(v) : hi
        }
        var detected = 0, corrected = 0, removed = 0
        for b in beats {
            let correction = b.text("correction") ?? ""
            if let t = b.double("time"), t >= strip.start, t <= strip.end {
                let x = HTML.n(p.x(t)), y = HTML.n(p.y(value(at: t)))
                if correction == "removedExtra" {
                    removed += 1
                    p.add(
                        "<path class=\"removed\" data-beat=\"removed\" d=\"M\(HTML.n(p.x(t) - 4)) \(HTML.n(p.y(value(at: t)) - 4))l8 8m0 -8l-8 8\"/>"
                    )
                } else {
                    detected += 1
                    p.add("<circle class=\"beat\" data-beat=\"detected\" data-t=\"\(t)\" cx=\"\(x)\" cy=\"\(y)\" r=\"4\"/>")
                }
            }
            let touched = !correction.isEmpty && correction != "removedExtra"
            if touched, let nn = b.double("nn_time"), nn >= strip.start, nn <= strip.end {
                corrected += 1
                let x = p.x(nn), y = p.top + 2
                p.add(
                    "<path class=\"corr\" data-beat=\"corrected\" d=\"M\(HTML.n(x - 5)) \(HTML.n(y))h10l-5 8z\"><title>\(HTML.escape(correction))</title></path>"
                )
            }
        }
        let desc =
            "ECG of \(strip.stream) from \(c.time.describe(strip.start)) for \(HTML.number(strip.end - strip.start, 1)) s (\(kind)): "
            + "\(strip.times.count) samples, \(detected) detected beats, \(corrected) beats inserted or moved by correction, \(removed) removed as extra; "
            + "amplitude \(HTML.number(lo, 3)) to \(HTML.number(hi, 3)) \(strip.unit)."
        return p.render(description: desc)
    }

    static func readbackMessage(_ status: SignalReadback.Status) -> String {
        switch status {
        case .read: return "read"
        case .missing(let files): return "the recording file has moved or been deleted (not found: \(files.joined(separator: ", ")))"
        case .changed(let stored, let now):
            return
                "the recording file has changed since it was analysed (content hash \(stored) in the results, \(now) now); drawing it would not show what was analysed"
        case .unreadable(let why): return "the recording file could not be read back (\(why))"
        case .unknown: return "the results do not say which file or content this recording had"
        }
    }
}

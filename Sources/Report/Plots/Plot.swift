/// One SVG plot over time: axes with units and clock, series reduced per pixel, shaded spans,
/// markers, and a text alternative (`<title>`, `<desc>` and a caption).
///
/// Long series are reduced to a min/max envelope per pixel column (the "M4"-style reduction of
/// Jugel et al. 2014, "M4: a visualization-oriented time series data aggregation", PVLDB 7(10)),
/// so a week of data draws as at most two points per pixel and the page stays small; a series
/// with fewer points than twice the plot's pixel width is drawn point for point.
///
/// The SVG carries its mapping (`data-t0`, `data-t1`, `data-v0`, `data-v1` and the plot area
/// `data-left`, `data-right`, `data-top`, `data-bottom`), so a reader (or test) can turn drawn
/// points back into times and values.
struct Plot {
    /// Pixel columns of the signal timeline (a 960-wide plot with 12 and 14 px margins).
    static let defaultPlotColumns = 934
    var id: String
    var title: String
    var width = 960.0, height = 230.0
    var left = 64.0, right = 14.0, top = 26.0, bottom = 44.0
    var t0: Double, t1: Double
    var v0: Double, v1: Double
    var time: TimeScale
    var yLabel: String
    var body: [String] = []
    var legend: [(cssClass: String, label: String, marker: String?)] = []
    /// Time-axis ticks and labels replacing the clock ticks (days, hours of the day), or `nil`.
    var xTicks: [(t: Double, label: String)]? = nil
    /// The time axis' title replacing the clock's, or `nil`.
    var xTitle: String? = nil

    var plotWidth: Double { width - left - right }
    var plotHeight: Double { height - top - bottom }

    func x(_ t: Double) -> Double { left + (t - t0) / max(t1 - t0, 1e-9) * plotWidth }
    func y(_ v: Double) -> Double { top + (1 - (v - v0) / max(v1 - v0, 1e-12)) * plotHeight }

    /// A series as a path, broken where consecutive points are more than `gapSeconds` apart or a
    /// value is missing, reduced to a min/max envelope per pixel column when long.
    /// - Complexity: O(points).
    mutating func addSeries(
        _ points: [(t: Double, v: Double?)], gapSeconds: Double, cssClass: String, name: String
    ) {
        var path = SeriesPath(self, count: points.count, gapSeconds: gapSeconds)
        for p in points { path.add(t: p.t, v: p.v) }
        add(path, cssClass: cssClass, name: name)
    }

    /// Adds a series drawn point by point (``SeriesPath``) and its legend entry (none when it
    /// draws nothing).
    mutating func add(_ path: SeriesPath, cssClass: String, name: String) {
        var path = path
        path.finish()
        guard !path.d.isEmpty else { return }
        body.append(
            "<path class=\"\(cssClass) series\" data-series=\"\(HTML.escape(name))\" data-reduced=\"\(path.exact ? 0 : 1)\" d=\"\(path.d)\"/>"
        )
        for p in path.isolated {
            body.append("<circle class=\"\(cssClass) pt\" cx=\"\(HTML.n(p.x))\" cy=\"\(HTML.n(p.y))\" r=\"2.5\"/>")
        }
        legend.append((cssClass, name, nil))
    }

    /// Spans shaded over the plot's full height (quality, gaps), merged per pixel column:
    /// `spans` are (start, end, class); the class drawn in a column is the one with the highest
    /// `rank`.
    mutating func addBands(
        _ spans: [(start: Double, end: Double, cssClass: String)], rank: [String: Int], y0: Double? = nil, y1: Double? = nil
    ) {
        var bands = BandColumns(self, rank: rank)
        for s in spans { bands.add(start: s.start, end: s.end, cssClass: s.cssClass) }
        add(bands, y0: y0, y1: y1)
    }

    /// Draws spans merged per pixel column (``BandColumns``).
    mutating func add(_ bands: BandColumns, y0: Double? = nil, y1: Double? = nil) {
        let n = bands.column.count, column = bands.column, classes = bands.classes
        let top = y0 ?? self.top, h = (y1 ?? (self.top + plotHeight)) - top
        var c = 0
        while c < n {
            let k = column[c]
            var e = c + 1
            while e < n && column[e] == k { e += 1 }
            if k >= 0 {
                body.append(
                    "<rect class=\"\(classes[k])\" x=\"\(HTML.n(left + Double(c)))\" y=\"\(HTML.n(top))\" width=\"\(e - c)\" height=\"\(HTML.n(h))\"/>"
                )
            }
            c = e
        }
    }

    /// Raw SVG content inside the plot area.
    mutating func add(_ svg: String) { body.append(svg) }

    /// The `<figure>`: the SVG and a caption with the text alternative.
    func render(description: String, valueTicks: [Double]? = nil, valueLabel: ((Double) -> String)? = nil) -> String {
        // Legend: top right beside the title when both fit on the line, else in rows under the
        // time axis (never over the title or the plot), the drawing grown downwards for them (the
        // mapping is unchanged).
        let widths = legend.map { Self.legendItemWidth($0.label) }
        let besideTitle = left + Self.titleWidth(title) + 16 + widths.reduce(0, +) <= width - right
        var items = [(x: Double, y: Double)]()
        var rows = 0
        if besideTitle {
            var lx = width - right
            for w in widths.reversed() {
                lx -= w
                items.insert((lx, 5), at: 0)
            }
        } else if !legend.isEmpty {
            var lx = left
            rows = 1
            for w in widths {
                if lx + w > width - right && lx > left {
                    lx = left
                    rows += 1
                }
                items.append((lx, height + 2 + Double(rows - 1) * 18))
                lx += w
            }
        }
        let drawnHeight = rows > 0 ? height + Double(rows) * 18 + 4 : height
        var s = "<figure id=\"\(id)\" class=\"plot-figure\">"
        s += "<svg class=\"plot\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 \(HTML.n(width)) \(HTML.n(drawnHeight))\" "
        s += "role=\"img\" aria-labelledby=\"\(id)-title \(id)-desc\" data-plot=\"\(id)\" "
        s += "data-t0=\"\(t0)\" data-t1=\"\(t1)\" data-v0=\"\(v0)\" data-v1=\"\(v1)\" "
        s += "data-left=\"\(left)\" data-right=\"\(width - right)\" data-top=\"\(top)\" data-bottom=\"\(top + plotHeight)\">"
        s += "<title id=\"\(id)-title\">\(HTML.escape(title))</title><desc id=\"\(id)-desc\">\(HTML.escape(description))</desc>"
        s += "<text class=\"ptitle\" x=\"\(HTML.n(left))\" y=\"16\">\(HTML.escape(title))</text>"
        // Grid and value axis.
        let vt = valueTicks ?? Self.niceTicks(v0, v1)
        for v in vt where v >= v0 && v <= v1 {
            let yy = HTML.n(y(v))
            s += "<line class=\"grid\" x1=\"\(HTML.n(left))\" x2=\"\(HTML.n(left + plotWidth))\" y1=\"\(yy)\" y2=\"\(yy)\"/>"
            s += "<text x=\"\(HTML.n(left - 5))\" y=\"\(yy)\" text-anchor=\"end\" dominant-baseline=\"middle\">"
            s += HTML.escape(valueLabel?(v) ?? Self.tickLabel(v, step: vt.count > 1 ? vt[1] - vt[0] : 1)) + "</text>"
        }
        s += "<text x=\"12\" y=\"\(HTML.n(top + plotHeight / 2))\" text-anchor=\"middle\" "
        s += "transform=\"rotate(-90 12 \(HTML.n(top + plotHeight / 2)))\">\(HTML.escape(yLabel))</text>"
        // Time axis.
        let ticks =
            xTicks ?? time.ticks(t0, t1).enumerated().map { ($0.element, time.label($0.element, span: t1 - t0, first: $0.offset == 0)) }
        for (t, label) in ticks {
            let xx = HTML.n(x(t))
            s += "<line class=\"grid\" x1=\"\(xx)\" x2=\"\(xx)\" y1=\"\(HTML.n(top))\" y2=\"\(HTML.n(top + plotHeight))\"/>"
            let anchor = x(t) - left < 30 ? "start" : (left + plotWidth - x(t) < 30 ? "end" : "middle")
            s += "<text x=\"\(xx)\" y=\"\(HTML.n(top + plotHeight + 14))\" text-anchor=\"\(anchor)\">"
            s += HTML.escape(label) + "</text>"
        }
        s += "<text x=\"\(HTML.n(left + plotWidth / 2))\" y=\"\(HTML.n(height - 6))\" text-anchor=\"middle\">"
        s += HTML.escape(xTitle ?? time.axisTitle(from: t0)) + "</text>"
        s += body.joined()
        s +=
            "<rect class=\"axis\" x=\"\(HTML.n(left))\" y=\"\(HTML.n(top))\" width=\"\(HTML.n(plotWidth))\" height=\"\(HTML.n(plotHeight))\"/>"
        for (item, at) in zip(legend, items) {
            s += "<g class=\"legend\">"
            if item.marker == "rect" {
                s +=
                    "<rect class=\"\(item.cssClass)\" x=\"\(HTML.n(at.x))\" y=\"\(HTML.n(at.y))\" width=\"22\" height=\"12\" stroke=\"#111\" stroke-width=\"0.5\"/>"
            } else {
                s +=
                    "<line class=\"\(item.cssClass)\" x1=\"\(HTML.n(at.x))\" x2=\"\(HTML.n(at.x + 22))\" y1=\"\(HTML.n(at.y + 7))\" y2=\"\(HTML.n(at.y + 7))\"/>"
            }
            s += "<text x=\"\(HTML.n(at.x + 26))\" y=\"\(HTML.n(at.y + 11))\">\(HTML.escape(item.label))</text></g>"
        }
        s += "</svg><figcaption>\(HTML.escape(description))</figcaption></figure>\n"
        return s
    }

    /// A value tick's label with as many decimals as the tick step needs (0.05 → 2).
    static func tickLabel(_ v: Double, step: Double) -> String {
        var decimals = 0
        var unit = 1.0
        while decimals < 6 && step < unit * 0.999 {
            decimals += 1
            unit /= 10
        }
        if decimals == 0 && step.truncatingRemainder(dividingBy: 1) != 0 { decimals = 1 }
        return String(format: "%.\(decimals)f", v)
    }

    /// Width of a legend item: its line or swatch and its label (11-px text, generous per character).
    static func legendItemWidth(_ label: String) -> Double { Double(label.count) * 6.6 + 42 }

    /// Width of a plot title (13-px semi-bold text, generous per character).
    static func titleWidth(_ title: String) -> Double { Double(title.count) * 7.8 }

    /// Round values between `a` and `b`, about five of them.
    static func niceTicks(_ a: Double, _ b: Double) -> [Double] {
        guard b > a, (b - a).isFinite else { return [a] }
        let raw = (b - a) / 5
        let mag = pow10(raw)
        let step = [1.0, 2, 2.5, 5, 10].map { $0 * mag }.first { $0 >= raw } ?? 10 * mag
        var out = [Double]()
        let first = (a / step).rounded(.up)
        // From the index, never a running sum (a step below the values' precision would not
        // advance); at most 12 ticks.
        for k in 0..<12 {
            let v = (first + Double(k)) * step
            if v > b + step * 1e-9 { break }
            out.append(abs(v) < step * 1e-9 ? 0 : v)
        }
        return out
    }

    /// The power of ten at or below `x` (1e-12 at least; `x` finite and positive).
    static func pow10(_ x: Double) -> Double {
        guard x.isFinite, x > 0 else { return 1 }
        var m = 1.0
        while m * 10 <= x && m < 1e300 { m *= 10 }
        while m > x && m > 1e-12 { m /= 10 }
        return m
    }
}

/// A series' SVG path built point by point (``Plot/addSeries(_:gapSeconds:cssClass:name:)``'s
/// drawing, fed as rows stream from the database): memory follows the plot's width, never the
/// number of points. Broken where consecutive points are more than `gapSeconds` apart or a value
/// is missing (reduced: apart by more than one pixel column too); a series of more than twice the
/// plot's pixel width (`count`, known beforehand) is reduced to a min/max envelope per pixel column
/// (Jugel et al. 2014), a shorter one drawn point for point with a marker on each point drawn alone.
struct SeriesPath {
    let plot: Plot
    let gapSeconds: Double
    /// Whether the series is drawn point for point (at most twice the plot's pixel width).
    let exact: Bool
    private(set) var d = ""
    private(set) var isolated = [(x: Double, y: Double)]()
    private var penDown = false
    private var lastT = -Double.infinity
    private var run = 0
    private var runStart = (x: 0.0, y: 0.0)
    private var column = Int.min
    private var lo = 0.0, hi = 0.0, loFirst = true

    /// - Parameters:
    ///   - plot: the plot (its mapping).
    ///   - count: the number of points the series will get.
    ///   - gapSeconds: the longest step drawn as a line.
    init(_ plot: Plot, count: Int, gapSeconds: Double) {
        self.plot = plot
        exact = count <= Int(plot.plotWidth) * 2
        // Reduced, a break shorter than a pixel column cannot be seen: the line breaks only at
        // longer ones, so the path holds at most about three points per column whatever the
        // rows' spacing (rows 10^-7 s apart made every point its own break: a 9.6 MB path).
        self.gapSeconds = exact ? gapSeconds : max(gapSeconds, (plot.t1 - plot.t0) / max(plot.plotWidth, 1))
        d.reserveCapacity(min(count, Int(plot.plotWidth) * 2) * 14)
    }

    private mutating func liftPen() {
        if exact && run == 1 { isolated.append(runStart) }
        run = 0
        penDown = false
    }

    private mutating func flushColumn() {
        guard column != Int.min else { return }
        let px = plot.left + (Double(column) + 0.5)
        let (a, b) = loFirst ? (lo, hi) : (hi, lo)
        d += (penDown ? "L" : "M") + HTML.n(px) + " " + HTML.n(plot.y(a))
        if a != b { d += "L" + HTML.n(px) + " " + HTML.n(plot.y(b)) }
        penDown = true
        column = Int.min
    }

    /// The next point, in time order (`v` `nil`: no value, the line breaks).
    /// - Complexity: O(1) amortised.
    mutating func add(t: Double, v: Double?) {
        guard t >= plot.t0, t <= plot.t1 else { return }
        guard let v, v.isFinite else {
            if !exact { flushColumn() }
            liftPen()
            return
        }
        if t - lastT > gapSeconds {
            if !exact { flushColumn() }
            liftPen()
        }
        lastT = t
        if exact {
            if run == 0 { runStart = (plot.x(t), plot.y(v)) }
            run += 1
            d += (penDown ? "L" : "M") + HTML.n(plot.x(t)) + " " + HTML.n(plot.y(v))
            penDown = true
            return
        }
        let c = Int(plot.x(t) - plot.left)
        if c != column {
            flushColumn()
            column = c
            lo = v
            hi = v
            loFirst = true
        } else {
            if v < lo {
                lo = v
                loFirst = false
            }
            if v > hi {
                hi = v
                loFirst = true
            }
        }
    }

    /// Ends the path (called by ``Plot/add(_:cssClass:name:)``).
    mutating func finish() {
        if !exact { flushColumn() }
        liftPen()
    }
}

/// Shaded spans merged per pixel column as they stream in: the class drawn in a column is the
/// one with the highest rank (memory: one entry per pixel column).
struct BandColumns {
    let plot: Plot
    let rank: [String: Int]
    private(set) var column: [Int]
    private(set) var classes = [String]()
    private var index = [String: Int]()
    /// The classes of every span given (drawn or not).
    private(set) var given = Set<String>()

    init(_ plot: Plot, rank: [String: Int]) {
        self.plot = plot
        self.rank = rank
        column = [Int](repeating: -1, count: Int(plot.plotWidth.rounded(.up)))
    }

    /// One span (seconds) of class `cssClass`.
    /// - Complexity: O(pixel columns it covers).
    mutating func add(start: Double, end: Double, cssClass: String) {
        let n = column.count
        given.insert(cssClass)
        guard end > plot.t0, start < plot.t1 else { return }
        let k =
            index[cssClass]
            ?? {
                classes.append(cssClass)
                index[cssClass] = classes.count - 1
                return classes.count - 1
            }()
        let a = max(0, Int((plot.x(max(start, plot.t0)) - plot.left).rounded(.down)))
        let b = min(n - 1, max(a, Int((plot.x(min(end, plot.t1)) - plot.left).rounded(.up)) - 1))
        if a > b { return }
        let r = rank[cssClass] ?? 0
        for c in a...b where column[c] < 0 || (rank[classes[column[c]]] ?? 0) < r { column[c] = k }
    }
}

/// What an analysis family's section of the HTML report shows, declared by the family next to its
/// tables, in terms of those tables and their columns (never SQL): the report (module `Report`)
/// decides how each item is drawn and loops over the registered families.
///
/// ```swift
/// static var reportSection: ReportSection {
///     ReportSection(
///         title: "PPG: pulse", results: [ReportRows(PPGTables.quality.table)],
///         items: [.timeSeries(ReportTimeSeries(id: "ppg-heart-rate", title: "Heart rate per method", …))],
///         methods: "…", citations: ["Elgendi M (2016) …"])
/// }
/// ```
public struct ReportSection: Sendable, Hashable {
    /// The section's heading.
    public var title: String
    /// The recording has results of the family when any of these row sets is non-empty.
    public var results: [ReportRows]
    /// What the section draws, in order.
    public var items: [ReportItem]
    /// What the section will show, said when the recording has no results of the family.
    public var shows: String
    /// A methods paragraph (what was computed and how), printed under the section.
    public var methods: String
    /// The sources the methods paragraph cites, one reference each.
    public var citations: [String]

    /// Declares a section.
    /// - Parameters:
    ///   - title: heading.
    ///   - results: row sets whose presence means the family has results for a recording.
    ///   - items: what is drawn, in order.
    ///   - shows: what the section shows, for the note of a recording without results.
    ///   - methods: methods paragraph.
    ///   - citations: references of the methods paragraph.
    public init(
        title: String, results: [ReportRows], items: [ReportItem], shows: String, methods: String = "", citations: [String] = []
    ) {
        self.title = title
        self.results = results
        self.items = items
        self.shows = shows
        self.methods = methods
        self.citations = citations
    }

    /// The section of a family that declares none: the row count of each of its tables.
    /// - Parameters:
    ///   - name: the family's name.
    ///   - tables: its tables.
    public static func rowCounts(family name: String, tables: [ResultTable]) -> ReportSection {
        ReportSection(
            title: name, results: tables.map { ReportRows($0) }, items: [.rowCounts(tables)],
            shows: "the number of rows of each of its tables")
    }

    /// Every (table, column) the section names, for checking the declaration against the
    /// tables (`optional` columns may be absent from databases written by older versions).
    public var columnReferences: [(table: ResultTable, column: String, optional: Bool)] {
        results.flatMap(\.columnReferences) + items.flatMap(\.columnReferences)
    }
}

/// One thing a report section draws.
public enum ReportItem: Sendable, Hashable {
    /// Values over time, one plot per stream (or one plot), series split by columns.
    case timeSeries(ReportTimeSeries)
    /// Short windows of the signal read back from the recording file, with event markers.
    case strips(ReportStrips)
    /// Bars per day.
    case dailyBars(ReportDailyBars)
    /// Days × 24 h of a per-epoch value.
    case actogram(ReportActogram)
    /// Intervals per period (each night's sleep period and its bouts).
    case intervals(ReportIntervals)
    /// A chosen feature per stream over time, from a long (name, value) table.
    case featureSeries(ReportFeatureSeries)
    /// A table of per-stream values (one row per row of the table).
    case values(ReportValueTable)
    /// The number of rows of each table.
    case rowCounts([ResultTable])
    /// A short waveform stored in a table (x in seconds, y values), one plot per value of a
    /// column, with optional markers (a derived signal, a median beat).
    case waveform(ReportWaveform)

    /// `columns` of `table`, as references.
    static func refs(_ table: ResultTable, _ columns: [String?], optional: Bool = false) -> [(
        table: ResultTable, column: String, optional: Bool
    )] {
        columns.compactMap { $0 }.map { (table: table, column: $0, optional: optional) }
    }

    var columnReferences: [(table: ResultTable, column: String, optional: Bool)] {
        switch self {
        case .timeSeries(let s): return s.columnReferences
        case .strips(let s): return s.columnReferences
        case .dailyBars(let s):
            return s.rows.columnReferences + Self.refs(s.rows.table, [s.day, s.plotBy] + s.bars.map(\.column))
        case .actogram(let s):
            return s.rows.columnReferences + Self.refs(s.rows.table, [s.start, s.end, s.plotBy, s.nonWear?.column] + s.values)
                + s.bands.flatMap { Self.refs($0.rows.table, [$0.onset, s.plotBy] + $0.rows.filters.map(\.column), optional: true) }
        case .intervals(let s): return s.columnReferences
        case .featureSeries(let s):
            return s.rows.columnReferences + Self.refs(s.rows.table, [s.stream, s.start, s.end, s.name, s.value, s.unit])
        case .values(let s):
            return s.rows.columnReferences + Self.refs(s.rows.table, [s.rowLabel])
                + Self.refs(s.rows.table, s.columns, optional: s.optional)
        case .rowCounts: return []
        case .waveform(let s): return s.columnReferences
        }
    }
}

/// The rows of one declared table for a recording, optionally filtered.
public struct ReportRows: Sendable, Hashable {
    /// The table (one of the family's declared tables).
    public var table: ResultTable
    /// Conditions every row meets (all of them).
    public var filters: [ReportFilter]

    /// Declares a row set.
    /// - Parameters:
    ///   - table: the table.
    ///   - filters: conditions (default none: every row of the recording).
    public init(_ table: ResultTable, where filters: [ReportFilter] = []) {
        self.table = table
        self.filters = filters
    }

    var columnReferences: [(table: ResultTable, column: String, optional: Bool)] {
        ReportItem.refs(table, filters.map(\.column))
    }
}

/// A condition on a row: `column` holds one of `values` (written as text and compared with the
/// column's type, so `non_wear` = `1` matches the integer 1).
public struct ReportFilter: Sendable, Hashable {
    /// The column.
    public var column: String
    /// The accepted values.
    public var values: [String]

    /// Declares a condition.
    /// - Parameters:
    ///   - column: a column of the table filtered.
    ///   - values: accepted values (one or more).
    public init(_ column: String, _ values: String...) {
        self.column = column
        self.values = values
    }
}

/// Quality windows shaded behind a plot, and how their labels rank.
public struct ReportQualityShading: Sendable, Hashable {
    /// The quality windows.
    public var rows: ReportRows
    /// Window start and end columns (s, the plot's time scale).
    public var start: String, end: String
    /// The label column.
    public var label: String
    /// The labels from best to worst: the best is not shaded, the worst is hatched, those
    /// between are grey. A label not listed counts as the worst.
    public var labels: [String]
    /// How windows of equal label are ordered when the worst window is picked for a strip
    /// (first criterion first).
    public var worstFirst: [ReportOrder]

    /// Declares quality shading.
    /// - Parameters:
    ///   - rows: the quality windows.
    ///   - start: window start column.
    ///   - end: window end column.
    ///   - label: label column.
    ///   - labels: labels from best to worst.
    ///   - worstFirst: tie-breaks when picking the worst window (default: earliest first).
    public init(
        _ rows: ReportRows, start: String = "window_start", end: String = "window_end", label: String = "label", labels: [String],
        worstFirst: [ReportOrder] = []
    ) {
        self.rows = rows
        self.start = start
        self.end = end
        self.label = label
        self.labels = labels
        self.worstFirst = worstFirst
    }

    var columnReferences: [(table: ResultTable, column: String, optional: Bool)] {
        rows.columnReferences + ReportItem.refs(rows.table, [start, end, label] + worstFirst.map(\.column))
    }
}

/// An ordering criterion: a column, ascending or descending.
public struct ReportOrder: Sendable, Hashable {
    /// The column.
    public var column: String
    /// Largest first.
    public var descending: Bool

    /// Declares an ordering criterion.
    public init(_ column: String, descending: Bool = false) {
        self.column = column
        self.descending = descending
    }
}

/// Values of a table over time: each row is a point at the middle of its window (or at its
/// start), series split by the values of some columns, one plot per value of ``plotBy``.
public struct ReportTimeSeries: Sendable, Hashable {
    /// Plot identifier (`heart-rate`); a plot per stream gets `-0`, `-1`, … appended.
    public var id: String
    /// Plot title (the stream is appended when there is a plot per stream).
    public var title: String
    /// The rows drawn.
    public var rows: ReportRows
    /// Time column (s), and the window end column when rows are windows (drawn at the middle).
    public var start: String, end: String?
    /// Value columns, each its own series (the axis unit is the first column's).
    public var values: [String]
    /// Columns whose values split the series (`method`: one series per method).
    public var seriesBy: [String]
    /// One plot per value of this column (`stream`), or one plot for every row.
    public var plotBy: String?
    /// A confidence column (0–1) drawn in a panel under the plot, per series.
    public var confidence: String?
    /// Quality windows shaded behind the plot.
    public var quality: ReportQualityShading?
    /// Rows of another source drawn over every plot with the same columns (the ECG rate over the
    /// PPG rates), never under them.
    public var overlay: ReportRows?
    /// Columns whose values split and name the overlay's series (`source`, `stream`).
    public var overlayBy: [String]
    /// The value axis starts at zero (otherwise it fits the values).
    public var zeroBased: Bool
    /// Said when the recording has no such rows.
    public var whenEmpty: String

    /// Declares a time series.
    /// - Parameters:
    ///   - id: plot identifier.
    ///   - title: plot title.
    ///   - rows: rows drawn.
    ///   - start: time column.
    ///   - end: window end column, or `nil` for instants.
    ///   - values: value columns.
    ///   - seriesBy: columns splitting the series.
    ///   - plotBy: one plot per value of this column, or `nil`.
    ///   - confidence: confidence column (0–1) drawn under the plot, or `nil`.
    ///   - quality: quality shading, or `nil`.
    ///   - overlay: rows drawn over every plot, or `nil`.
    ///   - overlayBy: columns splitting and naming the overlay's series.
    ///   - zeroBased: value axis from zero.
    ///   - whenEmpty: the note when there are no rows.
    public init(
        id: String, title: String, rows: ReportRows, start: String = "window_start", end: String? = "window_end", values: [String],
        seriesBy: [String] = [], plotBy: String? = nil, confidence: String? = nil, quality: ReportQualityShading? = nil,
        overlay: ReportRows? = nil, overlayBy: [String] = [], zeroBased: Bool = false, whenEmpty: String = "no rows in this recording"
    ) {
        self.id = id
        self.title = title
        self.rows = rows
        self.start = start
        self.end = end
        self.values = values
        self.seriesBy = seriesBy
        self.plotBy = plotBy
        self.confidence = confidence
        self.quality = quality
        self.overlay = overlay
        self.overlayBy = overlayBy
        self.zeroBased = zeroBased
        self.whenEmpty = whenEmpty
    }

    var columnReferences: [(table: ResultTable, column: String, optional: Bool)] {
        var out = rows.columnReferences
        out += ReportItem.refs(rows.table, [start, end, confidence, plotBy] + values + seriesBy)
        if let quality { out += quality.columnReferences }
        if let overlay { out += overlay.columnReferences + ReportItem.refs(overlay.table, [start, end] + values + overlayBy) }
        return out
    }
}

/// Windows of a signal read back from the recording file, with events from a table marked.
public struct ReportStrips: Sendable, Hashable {
    /// What the signal is (`ECG`, `PPG`): the strips' titles and axis.
    public var signal: String
    /// Streams drawn: the distinct `stream` values of these rows.
    public var streams: ReportRows
    /// At most this many streams get strips.
    public var maxStreams: Int
    /// The windows drawn per stream.
    public var windows: [ReportStripWindow]
    /// Events marked on the strips (beats, pulses), or `nil`.
    public var markers: ReportEventMarkers?

    /// Declares strips.
    /// - Parameters:
    ///   - signal: signal name.
    ///   - streams: rows whose `stream` values are the streams drawn.
    ///   - maxStreams: stream limit.
    ///   - windows: windows per stream.
    ///   - markers: events marked, or `nil`.
    public init(
        signal: String, streams: ReportRows, maxStreams: Int = 4, windows: [ReportStripWindow], markers: ReportEventMarkers? = nil
    ) {
        self.signal = signal
        self.streams = streams
        self.maxStreams = maxStreams
        self.windows = windows
        self.markers = markers
    }

    var columnReferences: [(table: ResultTable, column: String, optional: Bool)] {
        var out = streams.columnReferences + ReportItem.refs(streams.table, ["stream"])
        for w in windows {
            switch w {
            case .first: break
            case .worst(let q): out += q.columnReferences
            case .largest(let rows, let value):
                out += rows.columnReferences + ReportItem.refs(rows.table, ["stream", "window_start", "window_end", value])
            }
        }
        if let m = markers {
            out += m.rows.columnReferences + ReportItem.refs(m.rows.table, ["stream", m.time, m.correctedTime, m.correction])
        }
        return out
    }
}

/// Which window of a stream a strip shows.
public enum ReportStripWindow: Sendable, Hashable {
    /// The first `seconds` of the stream.
    case first(seconds: Double)
    /// The worst quality window (labels ranked by the shading's order).
    case worst(ReportQualityShading)
    /// The window (`window_start`, `window_end`) with the largest `value` among these rows.
    case largest(ReportRows, value: String)
}

/// Events marked on strips: a time column, and optionally a corrected time and the correction.
public struct ReportEventMarkers: Sendable, Hashable {
    /// What an event is (`beat`, `pulse`).
    public var name: String
    /// The events.
    public var rows: ReportRows
    /// Detection time column (s).
    public var time: String
    /// Corrected time column (s), drawn as ▼ where a correction moved or inserted the event.
    public var correctedTime: String?
    /// Correction column: empty when untouched.
    public var correction: String?
    /// The correction value meaning the event was removed (drawn ×).
    public var removed: String?

    /// Declares event markers.
    public init(
        name: String, rows: ReportRows, time: String = "time", correctedTime: String? = nil, correction: String? = nil,
        removed: String? = nil
    ) {
        self.name = name
        self.rows = rows
        self.time = time
        self.correctedTime = correctedTime
        self.correction = correction
        self.removed = removed
    }
}

/// Bars per day, one chart per value of ``plotBy``; the bars of one day stack.
public struct ReportDailyBars: Sendable, Hashable {
    /// Plot identifier.
    public var id: String
    /// Plot title.
    public var title: String
    /// The rows (one per day and stream).
    public var rows: ReportRows
    /// The day column (`YYYY-MM-DD` or `+N`).
    public var day: String
    /// One chart per value of this column, or `nil`.
    public var plotBy: String?
    /// The stacked parts of each bar.
    public var bars: [ReportBar]
    /// Values are multiplied by this before drawing (`1/60`: seconds to minutes).
    public var scale: Double
    /// The unit drawn (after scaling).
    public var unit: String

    /// Declares per-day bars.
    public init(
        id: String, title: String, rows: ReportRows, day: String = "day", plotBy: String? = "stream", bars: [ReportBar],
        scale: Double = 1, unit: String
    ) {
        self.id = id
        self.title = title
        self.rows = rows
        self.day = day
        self.plotBy = plotBy
        self.bars = bars
        self.scale = scale
        self.unit = unit
    }
}

/// One part of a stacked day bar.
public struct ReportBar: Sendable, Hashable {
    /// The column.
    public var column: String
    /// Its label in the legend.
    public var label: String

    /// Declares a bar part.
    public init(_ column: String, _ label: String) {
        self.column = column
        self.label = label
    }
}

/// An actogram: one row per calendar day (on the stream's clock, shifted to local time when the
/// UTC offset is known), 24 h across, a bar per epoch of the first value column that has data,
/// epochs matching ``nonWear`` marked.
public struct ReportActogram: Sendable, Hashable {
    /// Plot identifier.
    public var id: String
    /// Plot title.
    public var title: String
    /// The epochs.
    public var rows: ReportRows
    /// Epoch start and end columns (s).
    public var start: String, end: String
    /// Value columns in order of preference (the first with a value in the stream is drawn).
    public var values: [String]
    /// Epochs matching this condition are marked non-wear.
    public var nonWear: ReportFilter?
    /// One actogram per value of this column.
    public var plotBy: String?
    /// Clock windows marked on every lane (e.g. the L5 and M10 windows of the rest-activity
    /// rhythm), from rows of another table with the same `plotBy` value.
    public var bands: [ReportClockBand]

    /// Declares an actogram.
    public init(
        id: String, title: String, rows: ReportRows, start: String = "epoch_start", end: String = "epoch_end", values: [String],
        nonWear: ReportFilter? = nil, plotBy: String? = "stream", bands: [ReportClockBand] = []
    ) {
        self.id = id
        self.title = title
        self.rows = rows
        self.start = start
        self.end = end
        self.values = values
        self.nonWear = nonWear
        self.plotBy = plotBy
        self.bands = bands
    }
}

/// A window of clock time marked on every lane of an actogram (``ReportActogram/bands``): it
/// starts at the hour a row's `onset` column holds (hours after midnight on the stream's clock)
/// and lasts `hours`, wrapping midnight.
public struct ReportClockBand: Sendable, Hashable {
    /// The rows holding the onset (the first row with a value per `plotBy` key is used).
    public var rows: ReportRows
    /// Column of the onset, in hours after midnight.
    public var onset: String
    /// Length of the window, h.
    public var hours: Double
    /// Legend label.
    public var label: String

    /// Declares a band.
    /// - Parameters:
    ///   - rows: rows holding the onset (filter them to one row per stream).
    ///   - onset: the onset column (h after midnight).
    ///   - hours: the window's length, h.
    ///   - label: the legend label.
    public init(rows: ReportRows, onset: String, hours: Double, label: String) {
        self.rows = rows
        self.onset = onset
        self.hours = hours
        self.label = label
    }
}

/// Intervals per period: one lane per period row (a night), its main interval (the sleep
/// period) drawn as a bar and the inner intervals (sleep bouts) inside it, with the period's
/// figures in a table.
public struct ReportIntervals: Sendable, Hashable {
    /// Plot identifier.
    public var id: String
    /// Plot title.
    public var title: String
    /// One row per period.
    public var rows: ReportRows
    /// The period's label column (`night`).
    public var label: String
    /// The period's start column (s) and its length (s).
    public var periodStart: String, periodSeconds: Double
    /// The main interval's start and end columns (s; empty when there is none).
    public var start: String, end: String
    /// Inner intervals (start, end columns) within the period, matched by ``plotBy`` and time, or `nil`.
    public var inner: ReportRows?
    /// The inner intervals' start and end columns.
    public var innerStart: String, innerEnd: String
    /// Columns listed per period in the table under the plot.
    public var figures: [String]
    /// One plot per value of this column.
    public var plotBy: String?

    /// Declares intervals.
    public init(
        id: String, title: String, rows: ReportRows, label: String, periodStart: String, periodSeconds: Double, start: String,
        end: String, inner: ReportRows? = nil, innerStart: String = "start", innerEnd: String = "end", figures: [String],
        plotBy: String? = "stream"
    ) {
        self.id = id
        self.title = title
        self.rows = rows
        self.label = label
        self.periodStart = periodStart
        self.periodSeconds = periodSeconds
        self.start = start
        self.end = end
        self.inner = inner
        self.innerStart = innerStart
        self.innerEnd = innerEnd
        self.figures = figures
        self.plotBy = plotBy
    }

    var columnReferences: [(table: ResultTable, column: String, optional: Bool)] {
        var out = rows.columnReferences
        out += ReportItem.refs(rows.table, [label, periodStart, start, end, plotBy] + figures)
        if let inner { out += inner.columnReferences + ReportItem.refs(inner.table, [innerStart, innerEnd, plotBy]) }
        return out
    }
}

/// One feature per stream over time, from a long table (a row per window and feature name).
public struct ReportFeatureSeries: Sendable, Hashable {
    /// Plot identifier (`-0`, `-1`, … per stream).
    public var id: String
    /// Plot title (the stream and feature are appended).
    public var title: String
    /// The rows.
    public var rows: ReportRows
    /// Stream, window start/end, name, value and unit columns.
    public var stream: String, start: String, end: String, name: String, value: String, unit: String
    /// Name suffixes tried in order to choose a stream's feature (the first name ending in one
    /// with a value); without a match, the stream's first name (in sort order) with a value.
    public var preferred: [String]

    /// Declares a feature series.
    public init(
        id: String, title: String, rows: ReportRows, stream: String = "stream", start: String = "window_start",
        end: String = "window_end", name: String = "feature", value: String = "value", unit: String = "unit", preferred: [String]
    ) {
        self.id = id
        self.title = title
        self.rows = rows
        self.stream = stream
        self.start = start
        self.end = end
        self.name = name
        self.value = value
        self.unit = unit
        self.preferred = preferred
    }
}

/// A table of values, one line per row of a table (per stream), with each column's unit and
/// meaning from the table's declaration.
public struct ReportValueTable: Sendable, Hashable {
    /// The caption.
    public var title: String
    /// The rows.
    public var rows: ReportRows
    /// The column labelling each line (`stream`).
    public var rowLabel: String
    /// The columns shown.
    public var columns: [String]
    /// Headings shown instead of column names, by column.
    public var headings: [String: String]
    /// Columns may be absent from databases written by older versions: the table shows the
    /// columns present and nothing when none is.
    public var optional: Bool

    /// Declares a value table.
    public init(
        title: String, rows: ReportRows, rowLabel: String = "stream", columns: [String], headings: [String: String] = [:],
        optional: Bool = false
    ) {
        self.title = title
        self.rows = rows
        self.rowLabel = rowLabel
        self.columns = columns
        self.headings = headings
        self.optional = optional
    }
}

/// A short waveform a family stores as rows (one row per sample: x in seconds, one or more y
/// columns), drawn as a line per y column, one plot per value of ``plotBy``, with markers at
/// the x of other rows (breaths on a respiratory signal, fiducial points on a median beat).
public struct ReportWaveform: Sendable, Hashable {
    /// Plot identifier (`-0`, `-1`, … appended per plot).
    public var id: String
    /// Plot title (the ``plotBy`` value and the ``note`` are appended).
    public var title: String
    /// The samples.
    public var rows: ReportRows
    /// The x column, s (on the stream's time scale, or relative, e.g. to the R peak).
    public var x: String
    /// The y columns, each its own line (the axis unit is the first column's).
    public var values: [String]
    /// One plot per value of this column, or one plot for every row.
    public var plotBy: String?
    /// A text column whose first value in a plot's rows is appended to its title (what the
    /// waveform is, its rate), or `nil`.
    public var note: String?
    /// Markers, or `nil`.
    public var markers: ReportWaveformMarkers?
    /// Said when the recording has no such rows.
    public var whenEmpty: String
    /// A column (s, the recording's clock) whose values split a ``plotBy`` value's rows into
    /// plots further (one plot per window of a median beat), its value named in the title; or
    /// `nil`.
    public var window: String?
    /// The x axis' title when ``x`` is not on the recording's clock (e.g. time from the R peak):
    /// the axis is then labelled with plain numbers; `nil` for the recording's clock.
    public var relativeXTitle: String?

    /// Declares a waveform.
    /// - Parameters:
    ///   - id: plot identifier.
    ///   - title: plot title.
    ///   - rows: the samples.
    ///   - x: x column (s).
    ///   - values: y columns.
    ///   - plotBy: one plot per value of this column, or `nil`.
    ///   - note: text column appended to each plot's title, or `nil`.
    ///   - markers: markers, or `nil`.
    ///   - whenEmpty: the note when there are no rows.
    public init(
        id: String, title: String, rows: ReportRows, x: String, values: [String], plotBy: String? = nil, note: String? = nil,
        markers: ReportWaveformMarkers? = nil, whenEmpty: String = "no rows in this recording"
    ) {
        self.id = id
        self.title = title
        self.rows = rows
        self.x = x
        self.values = values
        self.plotBy = plotBy
        self.note = note
        self.markers = markers
        self.whenEmpty = whenEmpty
    }

    /// Declares a waveform per window, on an axis not on the recording's clock (a median beat).
    /// - Parameters:
    ///   - id: plot identifier.
    ///   - title: plot title.
    ///   - rows: the samples.
    ///   - x: x column (s, relative).
    ///   - values: y columns.
    ///   - plotBy: one plot per value of this column (and window), or `nil`.
    ///   - window: one plot per value of this column too (s on the recording's clock, named in the title).
    ///   - relativeXTitle: the x axis' title.
    ///   - note: text column appended to each plot's title, or `nil`.
    ///   - markers: markers, or `nil`.
    ///   - whenEmpty: the note when there are no rows.
    public init(
        id: String, title: String, rows: ReportRows, x: String, values: [String], plotBy: String?, window: String,
        relativeXTitle: String, note: String? = nil, markers: ReportWaveformMarkers? = nil, whenEmpty: String = "no rows in this recording"
    ) {
        self.init(
            id: id, title: title, rows: rows, x: x, values: values, plotBy: plotBy, note: note, markers: markers, whenEmpty: whenEmpty)
        self.window = window
        self.relativeXTitle = relativeXTitle
    }

    var columnReferences: [(table: ResultTable, column: String, optional: Bool)] {
        var out = rows.columnReferences + ReportItem.refs(rows.table, [x, plotBy, note, window] + values)
        if let m = markers { out += m.rows.columnReferences + ReportItem.refs(m.rows.table, [m.x, plotBy, window, m.label]) }
        return out
    }
}

/// Markers on a waveform (``ReportWaveform/markers``): each row's x, drawn on the waveform's
/// first line at that x (the rows share the waveform's ``ReportWaveform/plotBy`` column).
public struct ReportWaveformMarkers: Sendable, Hashable {
    /// What a marker is (`breath`, `R peak`).
    public var name: String
    /// The marked rows.
    public var rows: ReportRows
    /// Their x column, s.
    public var x: String
    /// A text column written beside each marker (which boundary it is), or `nil`.
    public var label: String?

    /// Declares markers.
    /// - Parameters:
    ///   - name: what a marker is.
    ///   - rows: the marked rows (filtered, e.g. `breath` = 1).
    ///   - x: their x column (s).
    ///   - label: a text column written beside each marker, or `nil`.
    public init(name: String, rows: ReportRows, x: String, label: String? = nil) {
        self.name = name
        self.rows = rows
        self.x = x
        self.label = label
    }
}

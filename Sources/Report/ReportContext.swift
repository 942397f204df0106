import Foundation

/// What a report section reads: the database rows of one recording, its time axis, and the
/// signal read back from its files. Family sections (``ReportSection``) receive it.
struct ReportContext {
    let db: ReportDatabase
    /// `recordings.id`.
    let recordingID: Int
    /// The `recordings` row.
    let recording: ReportDatabase.Row
    /// The `streams` rows, by stream index.
    let streams: [ReportDatabase.Row]
    /// Start and end of the recording's timeline (stream time scale, s).
    let t0: Double, t1: Double
    /// How times read.
    let time: TimeScale
    /// Tables in the database.
    let tables: Set<String>
    /// What was read back from the files (filled after the sections asked for strips).
    var readback = SignalReadback()

    /// Rows of `table` for this recording (empty when the table is absent).
    func rows(_ table: String, where condition: String? = nil, _ parameters: [ReportDatabase.Value] = [], orderBy: String? = nil)
        throws(ReportError) -> [ReportDatabase.Row]
    {
        guard tables.contains(table) else { return [] }
        let quoted = "\"" + table.replacingOccurrences(of: "\"", with: "\"\"") + "\""
        var sql = "SELECT * FROM \(quoted) WHERE recording_id = ?"
        if let condition { sql += " AND (\(condition))" }
        if let orderBy { sql += " ORDER BY \(orderBy)" }
        return try db.query(sql, [.integer(recordingID)] + parameters)
    }

    /// Rows of `table` for this recording (0 when absent), optionally filtered.
    func count(_ table: String, where condition: String? = nil, _ parameters: [ReportDatabase.Value] = []) throws(ReportError) -> Int {
        guard tables.contains(table) else { return 0 }
        let quoted = "\"" + table.replacingOccurrences(of: "\"", with: "\"\"") + "\""
        var sql = "SELECT COUNT(*) AS n FROM \(quoted) WHERE recording_id = ?"
        if let condition { sql += " AND (\(condition))" }
        return try db.query(sql, [.integer(recordingID)] + parameters).first?.int("n") ?? 0
    }

    /// A new plot over the recording's timeline.
    func plot(id: String, title: String, yLabel: String, v0: Double, v1: Double, height: Double = 230) -> Plot {
        var p = Plot(id: id, title: title, t0: t0, t1: t1, v0: v0, v1: v1, time: time, yLabel: yLabel)
        p.height = height
        return p
    }
}

/// A quality window a family contributes to the heart-rate plot's shading.
struct QualityBand {
    var stream: String
    var start: Double
    var end: Double
    /// 0 good, 1 doubtful, 2 unusable.
    var rank: Int
}

/// A family's place in the recording report. Each family (ECG, PPG, motion, features) has one
/// provider, listed in ``ReportSections/all``; the report's core draws the header, the summary,
/// the QC account and the heart-rate plot, then asks each provider in turn. A family whose
/// tables hold no row for the recording gets the placeholder "no results from this family in
/// this recording" with what the section will show. Adding a family's plots is a new provider
/// file and one entry in that list.
protocol ReportSection: Sendable {
    /// The family's name (`ecg`, `ppg`, `motion`, `features`).
    var family: String { get }
    /// The section's heading.
    var title: String { get }
    /// The tables whose rows belong to this family (`ppg_quality`, `motion_epochs`, …).
    var tables: [String] { get }
    /// What the section shows (said in the placeholder).
    var shows: String { get }
    /// Whether the recording has results of this family (default: a row in one of ``tables``).
    func hasResults(_ c: ReportContext) throws(ReportError) -> Bool
    /// Strip windows the section wants read back from the file (default: none).
    func strips(_ c: ReportContext) throws(ReportError) -> [SignalReadback.Strip]
    /// Quality windows for the heart-rate plot's shading (default: none).
    func qualityBands(_ c: ReportContext) throws(ReportError) -> [QualityBand]
    /// The section's HTML body, called only when ``hasResults(_:)`` (default: the row counts and
    /// a note that this version does not draw them).
    func render(_ c: ReportContext) throws(ReportError) -> String
}

extension ReportSection {
    func hasResults(_ c: ReportContext) throws(ReportError) -> Bool {
        for t in tables where try c.count(t) > 0 { return true }
        return false
    }
    func strips(_ c: ReportContext) throws(ReportError) -> [SignalReadback.Strip] { [] }
    func qualityBands(_ c: ReportContext) throws(ReportError) -> [QualityBand] { [] }
    func render(_ c: ReportContext) throws(ReportError) -> String {
        var s =
            "<p class=\"note\">This recording has results of this family; this version of the report lists them but does not draw them yet.</p><ul>"
        for t in tables {
            let n = try c.count(t)
            s += "<li><code>\(HTML.escape(t))</code>: \(n) rows</li>"
        }
        return s + "</ul>"
    }
}

/// The family sections, in the order they appear.
enum ReportSections {
    /// Every family's section.
    static let all: [any ReportSection] = [ECGSection(), PPGSection(), MotionSection(), FeaturesSection()]
}

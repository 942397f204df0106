import Foundation

/// HTML reports of a results database (`sensorpipe run`): one self-contained page per recording
/// (inline SVG and CSS, no scripts, no external resources; opens from a file or a shared folder)
/// and an `index.html` listing every recording with its status, hours and summary figures.
///
/// ```swift
/// import SensorPipe
/// let written = try Report.write(database: "results.sqlite", to: "report")
/// print(written.index)   // report/index.html
/// ```
public enum Report {
    /// What ``write(database:to:recording:)`` wrote.
    public struct Output: Sendable {
        /// The `index.html`.
        public var index: String
        /// One page per recording, by `recordings.id`.
        public var pages: [Int: String]
    }

    /// Writes the reports of a results database.
    /// - Parameters:
    ///   - database: the SQLite results (`sensorpipe run --out`); opened read-only.
    ///   - directory: output folder (created when missing); pages are `recording-<id>.html`.
    ///   - recording: only this recording: its `recordings.id`, or its path (the latest stored
    ///     analysis of that path); `nil` for every recording.
    /// - Returns: the files written.
    /// - Throws: ``ReportError``.
    /// - Complexity: per recording, its rows plus one decoding pass over its file (to draw the
    ///   signal timeline and the ECG strips); pages are O(plot width), not O(samples).
    @discardableResult
    public static func write(database: String, to directory: String, recording: String? = nil) throws(ReportError) -> Output {
        let db = try ReportDatabase(path: database)
        let tables = db.tables
        var recordings = try db.query("SELECT * FROM recordings WHERE status IN ('ok', 'failed') ORDER BY id")
        if let recording {
            let absolute = URL(fileURLWithPath: recording).standardizedFileURL.path
            if let id = Int(recording), let r = recordings.first(where: { $0.int("id") == id }) {
                recordings = [r]
            } else if let r = recordings.last(where: { $0.text("path") == recording || $0.text("path") == absolute }) {
                recordings = [r]
            } else {
                throw ReportError(code: .noSuchRecording, message: "\(database): no recording with id or path \(recording)")
            }
        }
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw ReportError(code: .output, message: "\(directory): cannot create the folder (\(error.localizedDescription))")
        }
        let generated = "Written by SensorPipe from \(database)."
        var pages = [Int: String]()
        for r in recordings {
            guard let id = r.int("id") else { continue }
            let html = try RecordingReport.html(db: db, recording: r, tables: tables, generated: generated)
            let file = (directory as NSString).appendingPathComponent("recording-\(id).html")
            try save(html, to: file)
            pages[id] = file
        }
        let index = (directory as NSString).appendingPathComponent("index.html")
        try save(try IndexPage.html(db: db, recordings: recordings, pages: pages, tables: tables, database: database), to: index)
        return Output(index: index, pages: pages)
    }

    static func save(_ text: String, to path: String) throws(ReportError) {
        do {
            try text.write(toFile: path, atomically: true, encoding: .utf8)
        } catch {
            throw ReportError(code: .output, message: "\(path): cannot write (\(error.localizedDescription))")
        }
    }
}

import Foundation
import Pipeline
import Recordings
import Testing
import _TestSupport

/// EDF+ annotations through the pipeline (issue 34): the input's TALs land in the `annotations`
/// table equal to pyedflib's (the committed reference `Tests/RecordingsTests/Fixtures/edf/
/// pyedflib-excerpt.json`, `scripts/edf/pyedflib_reference.py`), and `convert --to edf --results`
/// writes one annotation per `beats` row of a `run` database.
@Suite("EDF annotations: input TALs stored, results written as annotations")
struct EDFAnnotationsPipelineTests {
    static let edfFolder = Fixtures.repositoryRoot.appendingPathComponent("Datasets/edf")

    /// The committed pyedflib reference of the `Datasets/edf` excerpt.
    static func reference() throws -> [[String: Any]] {
        try Fixtures.json("RecordingsTests", "edf/pyedflib-excerpt.json")["files"] as? [[String: Any]] ?? []
    }

    /// The excerpt file of a reference entry (committed plain or xz-compressed).
    static func path(of file: String) -> String {
        let plain = edfFolder.appendingPathComponent(file).path
        return FileManager.default.fileExists(atPath: plain) ? plain : plain + ".xz"
    }

    static func number(_ v: Any?) -> Double? { (v as? Double) ?? (v as? Int).map(Double.init) }

    /// The header start, Unix seconds of the local clock (EDF's start has no zone).
    static func startSeconds(_ text: String) -> Double? {
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = TimeZone(identifier: "UTC")
        f.dateFormat = "yyyy-MM-dd'T'HH:mm:ss"
        return f.date(from: String(text.prefix(19)))?.timeIntervalSince1970 // the sub-second part is the first record's onset
    }

    @Test("sensorpipe run: every annotation of the excerpt equals pyedflib's (onset on the streams' clock, duration, text)")
    func annotationsEqualPyedflib() throws {
        let refs = try Self.reference()
        #expect(refs.count == 3)
        let dir = TemporaryDirectory()
        let db = dir.url.appendingPathComponent("r.sqlite").path
        let inputs = refs.map { Self.path(of: $0["file"] as? String ?? "") }
        let r = try SensorPipeProcess.run(["run"] + inputs + ["--out", db, "--quiet"])
        #expect(r.status == 0, "\(r.stderr)")
        var total = 0
        for ref in refs {
            let file = ref["file"] as? String ?? ""
            let device = String(file.prefix { $0 != "." })
            let expected = ref["annotations"] as? [[String: Any]] ?? []
            let rows = SQLiteDump.rows(
                db,
                "SELECT text, printf('%.9f', onset), CASE WHEN duration_s IS NULL THEN 'none' ELSE printf('%.9f', duration_s) END, source, time_origin "
                    + "FROM annotations WHERE device = '\(device)' ORDER BY rowid")
            #expect(rows.count == expected.count, "\(file): \(rows.count) rows, pyedflib \(expected.count)")
            let start = try #require(Self.startSeconds(ref["start"] as? String ?? ""))
            // pyedflib's onsets count from the sub-second start (the first record's onset).
            let shift = Self.number(ref["firstRecordOnset"]) ?? 0
            for (row, e) in zip(rows, expected) {
                let c = row.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
                let onset: Double = try #require(Self.number(e["onset"]))
                let duration: Double = try #require(Self.number(e["duration"]))
                let text = e["text"] as? String
                try #require(c.count == 5, "\(row)")
                let stored: Double = Double(c[1]) ?? .nan
                let expectedOnset: Double = start + shift + onset
                #expect(c[0] == text, "\(file): \(row) vs \(e)")
                #expect(abs(stored - expectedOnset) < 1e-6, "\(file): \(row) vs \(e)")
                if duration < 0 {
                    #expect(c[2] == "none", "\(file): \(row) vs \(e)")
                } else {
                    let storedDuration: Double = Double(c[2]) ?? .nan
                    #expect(abs(storedDuration - duration) < 1e-7, "\(file): \(row) vs \(e)")
                }
                #expect(c[3] == "edf" && c[4] == "device_local")
            }
            total += expected.count
        }
        #expect(total >= 159) // 154 sleep stages + 5 UTF-8 annotations (+ the BDF's)
        // The annotation-only hypnogram has no stream; its recording is still stored, with its annotations.
        #expect(SQLiteDump.rows(db, "SELECT COUNT(*) FROM recordings WHERE status = 'ok'") == ["3"])
    }

    @Test("annotation rows do not depend on the block size (chunked = whole)")
    func blockSizeDoesNotChangeAnnotations() throws {
        for file in ["SC4001EC-Hypnogram.edf", "test_utf8.edf"] {
            var rows: [[[ResultValue]]] = []
            for capacity in [1, 7, 65_536] {
                let sink = MemorySink()
                _ = try RecordingAnalysis.run(
                    path: Self.path(of: file), analysis: AnalysisConfiguration(decode: DecodeOptions(blockCapacity: capacity)),
                    sink: sink)
                rows.append(sink.committed["annotations"] ?? [])
            }
            #expect(!rows[0].isEmpty && rows[0] == rows[1] && rows[1] == rows[2], "\(file)")
        }
    }

    @Test("convert --to edf --results: one annotation per beats row of a run database, ECG quality windows and AF episodes")
    func convertResultsMatchTheDatabase() throws {
        let record = Fixtures.repositoryRoot.appendingPathComponent("Datasets/ecg/watch-1_mitdb100_1716282000.ndjson.gz").path
        let dir = TemporaryDirectory()
        let db = dir.url.appendingPathComponent("r.sqlite").path, edf = dir.url.appendingPathComponent("r.edf").path
        let run = try SensorPipeProcess.run(["run", record, "--out", db, "--quiet"])
        #expect(run.status == 0, "\(run.stderr)")
        let convert = try SensorPipeProcess.run(["convert", record, edf, "--to", "edf", "--results"])
        #expect(convert.status == 0, "\(convert.stderr)")
        // Read back with SensorPipe's reader; the database is the independent side.
        let decoder = try EDFDecoder(path: edf)
        while try decoder.next() != nil {}
        let annotations = decoder.annotations.map { (time: decoder.header.startSeconds + $0.onsetSeconds, a: $0) }
        // EDF+'s channel tag: the stream key's channel (device/sensor/channel[/session=…]).
        func channel(_ stream: String) -> String {
            stream.split(separator: "/").dropFirst(2).filter { !$0.hasPrefix("session=") }.joined(separator: "/")
        }

        // Beats: the detected ones (time not empty), class and channel in the text.
        let beats = SQLiteDump.rows(
            db, "SELECT stream, source, printf('%.9f', time), COALESCE(class, '?') FROM beats WHERE time IS NOT NULL ORDER BY time, stream")
        #expect(beats.count >= 70, "\(beats.count) beats") // 74 in this minute of MIT-BIH 100
        let beatAnnotations = annotations.filter { $0.a.text.hasPrefix("beat ") || $0.a.text.hasPrefix("pulse@@") }
            .sorted { $0.time < $1.time }
        #expect(beatAnnotations.count == beats.count)
        var mismatches = 0
        for (row, a) in zip(beats, beatAnnotations) {
            let c = row.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
            let name: String = c[1] == "ppg" ? "pulse" : "beat \(c[3])"
            let text: String = name + "@@" + channel(c[0])
            let time: Double = Double(c[2]) ?? .nan
            if a.a.text != text || !(abs(time - a.time) <= 1e-6) || a.a.durationSeconds != nil { mismatches += 1 }
        }
        #expect(mismatches == 0, "\(mismatches) of \(beats.count) beat annotations differ from the beats rows")

        // ECG quality windows, with durations.
        let quality = SQLiteDump.rows(
            db,
            "SELECT stream, label, printf('%.9f', window_start), printf('%.9f', window_end - window_start) FROM ecg_quality "
                + "WHERE label IS NOT NULL ORDER BY window_start, stream")
        let qualityAnnotations = annotations.filter { $0.a.text.hasPrefix("ECG quality ") }.sorted { $0.time < $1.time }
        #expect(!quality.isEmpty && qualityAnnotations.count == quality.count)
        for (row, a) in zip(quality, qualityAnnotations) {
            let c = row.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
            #expect(a.a.text == "ECG quality \(c[1])@@\(channel(c[0]))")
            let start: Double = Double(c[2]) ?? .nan
            let length: Double = Double(c[3]) ?? .nan
            let duration: Double = a.a.durationSeconds ?? .nan
            #expect(abs(start - a.time) < 1e-6 && abs(length - duration) < 1e-6)
        }

        // AF episodes (none in MIT-BIH 100: both sides must agree on that too).
        let episodes: Int = Int(SQLiteDump.rows(db, "SELECT COUNT(*) FROM rhythm_episodes").first ?? "") ?? -1
        let episodeAnnotations: Int = annotations.filter { $0.a.text.hasPrefix("AF episode@@") }.count
        #expect(episodes == episodeAnnotations)
        // Nothing else was written.
        let written: Int = beatAnnotations.count + qualityAnnotations.count + episodeAnnotations
        #expect(annotations.count == written)
    }
}

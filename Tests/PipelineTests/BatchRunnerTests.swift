import Foundation
import Pipeline
import Recordings
import Testing
import _TestSupport

/// A batch over copies of the demo recordings, with corrupt files where asked.
struct BatchFixture {
    let dir = TemporaryDirectory()
    /// The seven demo recordings in `Datasets/`.
    static let demo: [String] = {
        let root = Fixtures.repositoryRoot.appendingPathComponent("Datasets")
        return FileManager.default.enumerator(atPath: root.path)!.compactMap { $0 as? String }
            .filter { $0.hasSuffix(".ndjson.gz") }.sorted().map { root.appendingPathComponent($0).path }
    }()

    /// Copies `count` demo recordings (cycling through them) into `folder`, with a corrupt file at
    /// each position in `corruptAt`: alternately a truncated gzip member of an ECG recording and a
    /// file of random bytes. Returns the paths in order.
    func make(_ folder: String, count: Int, corruptAt: Set<Int> = []) throws -> [String] {
        let fm = FileManager.default
        let base = dir.url.appendingPathComponent(folder)
        try fm.createDirectory(at: base, withIntermediateDirectories: true)
        var paths = [String]()
        var corrupt = 0
        var rng = SeededGenerator(seed: 7)
        for k in 0..<count {
            let name = String(format: "%03d", k)
            if corruptAt.contains(k) {
                let target = base.appendingPathComponent("\(name)-corrupt.ndjson.gz")
                if corrupt % 2 == 0 {
                    let bytes = try Data(contentsOf: URL(fileURLWithPath: Self.demo[3]))
                    try bytes.prefix(bytes.count / 2).write(to: target)
                } else {
                    try Data((0..<4096).map { _ in UInt8.random(in: 0...255, using: &rng) }).write(to: target)
                }
                corrupt += 1
                paths.append(target.path)
            } else {
                let source = Self.demo[k % Self.demo.count]
                let target = base.appendingPathComponent("\(name)-" + (source as NSString).lastPathComponent)
                try fm.copyItem(atPath: source, toPath: target.path)
                paths.append(target.path)
            }
        }
        return paths
    }

    /// Runs a batch into a new SQLite database `name` and returns its path and summary.
    func run(_ files: [String], into name: String, jobs: Int) throws -> (path: String, summary: BatchSummary) {
        let path = dir.url.appendingPathComponent(name).path
        let store = try BatchDatabase(path: path)
        let summary = try BatchRunner.run(
            recordings: files, store: store,
            options: BatchOptions(jobs: jobs, softwareVersion: "test"))
        return (path, summary)
    }
}

@Suite("Batch runner: parallel, resumable, failure-tolerant")
struct BatchRunnerTests {
    @Test("the database does not depend on --jobs (1, 2, 5), ids included")
    func jobsIndependence() throws {
        let f = BatchFixture()
        let files = try f.make("in", count: 12, corruptAt: [4, 9])
        let one = try f.run(files, into: "j1.sqlite", jobs: 1)
        #expect(one.summary.ok == 10 && one.summary.failed == 2 && one.summary.skipped == 0)
        let reference = SQLiteDump.content(one.path)
        #expect((reference["beats"]?.count ?? 0) > 200)
        for jobs in [2, 5] {
            let other = try f.run(files, into: "j\(jobs).sqlite", jobs: jobs)
            let diff = SQLiteDump.difference(reference, SQLiteDump.content(other.path))
            #expect(diff == nil, "jobs \(jobs): \(diff ?? "")")
        }
    }

    @Test("the README's main job: every recording under Datasets/ is analysed, none fails")
    func datasetsMainJob() throws {
        let f = BatchFixture()
        let root = Fixtures.repositoryRoot.appendingPathComponent("Datasets").path
        let inputs = try RecordingDiscovery.expand([root])
        let result = try f.run(inputs, into: "datasets.sqlite", jobs: 2)
        let errors = SQLiteDump.rows(result.path, "SELECT path, error FROM recordings WHERE status = 'failed'")
        #expect(result.summary.failed == 0, "\(errors)")
        #expect(result.summary.ok == inputs.count)
    }

    @Test("a batch with a tenth of its files corrupt completes; the good files' results equal a clean run")
    func corruptTenth() throws {
        let f = BatchFixture()
        let corruptAt: Set<Int> = [6, 13]
        let files = try f.make("mixed", count: 20, corruptAt: corruptAt)
        let good = files.enumerated().filter { !corruptAt.contains($0.offset) }.map(\.element)
        let clean = try f.run(good, into: "clean.sqlite", jobs: 2)
        let mixed = try f.run(files, into: "mixed.sqlite", jobs: 2)
        #expect(clean.summary.ok == 18 && clean.summary.failed == 0)
        #expect(mixed.summary.ok == 18 && mixed.summary.failed == 2)
        // Each failure is stored with an error naming its file.
        let failed = SQLiteDump.rows(mixed.path, "SELECT path, error FROM recordings WHERE status = 'failed' ORDER BY path")
        #expect(failed.count == 2)
        for row in failed {
            let parts = row.split(separator: "|", maxSplits: 1).map(String.init)
            #expect(parts.count == 2 && parts[1].contains((parts[0] as NSString).lastPathComponent), "\(row)")
        }
        // Good recordings' rows, keyed by path (ids differ: the corrupt files take ids in between).
        let queries = [
            "SELECT path, status, size, content_hash, streams, beats, samples_read, samples_used, masked, duplicates_dropped, rejected, gaps, segments, issues FROM recordings WHERE status = 'ok' ORDER BY path",
            "SELECT r.path, s.* FROM streams s JOIN recordings r ON r.id = s.recording_id ORDER BY r.path, s.stream_index",
            "SELECT r.path, b.* FROM beats b JOIN recordings r ON r.id = b.recording_id ORDER BY r.path, b.rowid",
            "SELECT r.path, h.* FROM heart_rate h JOIN recordings r ON r.id = h.recording_id ORDER BY r.path, h.rowid",
            "SELECT r.path, h.* FROM hrv h JOIN recordings r ON r.id = h.recording_id ORDER BY r.path, h.rowid",
            "SELECT r.path, q.* FROM ecg_quality q JOIN recordings r ON r.id = q.recording_id ORDER BY r.path, q.rowid",
        ]
        for q in queries {
            // Drop the recording_id column (second field) before comparing.
            func strip(_ rows: [String]) -> [String] {
                q.contains("s.*") || q.contains("b.*") || q.contains("h.*") || q.contains("q.*")
                    ? rows.map {
                        $0.split(separator: "|", omittingEmptySubsequences: false).enumerated()
                            .filter { $0.offset != 1 }.map(\.element).joined(separator: "|")
                    }
                    : rows
            }
            let a = strip(SQLiteDump.rows(clean.path, q)), b = strip(SQLiteDump.rows(mixed.path, q))
            #expect(!a.isEmpty && a == b, "\(q): \(a.count) vs \(b.count) rows")
        }
        // Rerunning retries only the failed files (and fails them again).
        let again = try f.run(files, into: "mixed.sqlite", jobs: 2)
        #expect(again.summary.skipped == 18 && again.summary.failed == 2 && again.summary.ok == 0)
    }

    @Test("every recording's samples balance: read = used + masked + duplicates + rejected, in recordings and streams")
    func sampleAccounting() throws {
        let f = BatchFixture()
        let fixtures = Fixtures.repositoryRoot.appendingPathComponent("Tests/RecordingsTests/Fixtures/sensorkit")
        var files = BatchFixture.demo
        for name in ["ecg.ndjson", "ppg.ndjson", "rotation.ndjson", "accelerometer.ndjson.gz", "mydatahelps-accelerometer.json.gz"] {
            files.append(fixtures.appendingPathComponent(name).path)
        }
        // A rotation-rate export with one malformed sample line: its samples are rejected, not lost.
        let text = try String(contentsOf: fixtures.appendingPathComponent("rotation.ndjson"), encoding: .utf8)
        let value = "\"x\":0.02687" // the 7th of the 50 samples of the third line: all 50 are rejected
        #expect(text.components(separatedBy: value).count == 2)
        let damaged = f.dir.url.appendingPathComponent("rotation-damaged.ndjson")
        try Data(text.replacingOccurrences(of: value, with: "\"x\":\"oops\"").utf8).write(to: damaged)
        files.append(damaged.path)
        // An ECG batch (256 values) whose 'frequency' is malformed, ahead of its session: its values
        // belong to no stream and are booked as rejected_unattributed.
        let ecgText = try String(contentsOf: fixtures.appendingPathComponent("ecg.ndjson"), encoding: .utf8)
        guard let r = ecgText.range(of: "\"frequency\":512.0") else { Issue.record("fixture changed"); return }
        let ecgDamaged = f.dir.url.appendingPathComponent("ecg-damaged.ndjson")
        try Data(ecgText.replacingCharacters(in: r, with: "\"frequency\":\"x\"").utf8).write(to: ecgDamaged)
        files.append(ecgDamaged.path)
        // A PPG line whose third optical sample has a malformed 'emitter': every sample of the line
        // (optical, accelerometer, temperature; counted here with JSONSerialization) is rejected.
        let ppgLines = try String(contentsOf: fixtures.appendingPathComponent("ppg.ndjson"), encoding: .utf8)
            .components(separatedBy: "\n").map { $0.hasSuffix("\r") ? String($0.dropLast()) : $0 }
        guard let k = ppgLines.firstIndex(where: { $0.contains("\"photoplethysmogram\"") && $0.contains("\"sample\"") }),
            var line = try JSONSerialization.jsonObject(with: Data(ppgLines[k].utf8)) as? [String: Any],
            var samples = line["sample"] as? [[String: Any]], var optical = samples[0]["opticalSamples"] as? [[String: Any]],
            optical.count > 2
        else { Issue.record("ppg fixture changed"); return }
        let ppgLineSamples = samples.reduce(0) { n, e in
            n + ((e["opticalSamples"] as? [Any])?.count ?? 0) + ((e["accelerometerSamples"] as? [Any])?.count ?? 0)
                + (e["temperature"] != nil ? 1 : 0)
        }
        optical[2]["emitter"] = "bad"
        samples[0]["opticalSamples"] = optical
        line["sample"] = samples
        var damagedPPG = ppgLines
        damagedPPG[k] = String(decoding: try JSONSerialization.data(withJSONObject: line), as: UTF8.self)
        let ppgDamaged = f.dir.url.appendingPathComponent("ppg-damaged.ndjson")
        try Data(damagedPPG.joined(separator: "\n").utf8).write(to: ppgDamaged)
        files.append(ppgDamaged.path)
        let run = try f.run(files, into: "qc.sqlite", jobs: 2)
        #expect(run.summary.ok == files.count && run.summary.failed == 0)
        for table in ["recordings", "streams"] {
            let unbalanced = SQLiteDump.rows(
                run.path,
                "SELECT COUNT(*) FROM \(table) WHERE samples_read != samples_used + masked + duplicates_dropped + rejected OR samples_read IS NULL"
            )
            #expect(unbalanced == ["0"], "\(table)")
        }
        // The fixtures exercise every term: masked samples, dropped duplicates and rejected samples.
        let totals = SQLiteDump.rows(
            run.path, "SELECT SUM(masked) > 0, SUM(duplicates_dropped) > 0, SUM(rejected) > 0, SUM(samples_used) > 0 FROM streams")
        #expect(totals == ["1|1|1|1"])
        let damagedRows = SQLiteDump.rows(
            run.path,
            "SELECT s.rejected FROM streams s JOIN recordings r ON r.id = s.recording_id WHERE r.path LIKE '%rotation-damaged.ndjson'")
        #expect(damagedRows == ["50"])
        let ecgRows = SQLiteDump.rows(
            run.path,
            "SELECT rejected_unattributed, rejected, samples_read - (SELECT SUM(samples_read) FROM streams WHERE recording_id = r.id) FROM recordings r WHERE path LIKE '%ecg-damaged.ndjson'"
        )
        #expect(ecgRows == ["256|256|256"])
        let ppgRows = SQLiteDump.rows(run.path, "SELECT rejected FROM recordings WHERE path LIKE '%ppg-damaged.ndjson'")
        #expect(ppgRows == [String(ppgLineSamples)] && ppgLineSamples > 90, "\(ppgRows) vs \(ppgLineSamples)")
        #expect(run.summary.signalSecondsBySensor.keys.count == 4, "\(run.summary.signalSecondsBySensor)")
    }

    @Test("the CSV-folder store gives each recording the analyze tables and a QC record; resumes; corrupt files recorded")
    func csvFolders() throws {
        let f = BatchFixture()
        let files = try f.make("in", count: 8, corruptAt: [2])
        let out = f.dir.url.appendingPathComponent("csv")
        let first = try BatchRunner.run(
            recordings: files, store: try CSVBatchFolder(directory: out),
            options: BatchOptions(jobs: 2, softwareVersion: "test"))
        #expect(first.ok == 7 && first.failed == 1)
        // The same recording through `analyze`'s sink gives the same CSV bytes.
        let ecg = files[3]
        let single = f.dir.url.appendingPathComponent("single")
        _ = try RecordingAnalysis.run(path: ecg, analysis: AnalysisConfiguration(), sink: try CSVResultSink(directory: single))
        let folder = out.appendingPathComponent("recordings").appendingPathComponent(CSVBatchFolder.folderName(for: ecg))
        for table in ["beats", "heart_rate", "hrv", "ecg_quality"] {
            let a = try Data(contentsOf: single.appendingPathComponent("\(table).csv"))
            let b = try Data(contentsOf: folder.appendingPathComponent("\(table).csv"))
            #expect(a == b && a.count > 100, "\(table).csv")
        }
        let record =
            try JSONSerialization.jsonObject(with: Data(contentsOf: folder.appendingPathComponent("recording.json"))) as? [String: Any]
        #expect(record?["status"] as? String == "ok")
        let index = try String(contentsOf: out.appendingPathComponent("recordings.csv"), encoding: .utf8)
        #expect(index.split(separator: "\n").count == 9)
        #expect(index.contains(",failed,"))
        let second = try BatchRunner.run(
            recordings: files, store: try CSVBatchFolder(directory: out),
            options: BatchOptions(jobs: 2, softwareVersion: "test"))
        #expect(second.skipped == 7 && second.failed == 1 && second.ok == 0)
        let partials = try FileManager.default.contentsOfDirectory(atPath: out.appendingPathComponent("recordings").path)
            .filter { $0.hasPrefix(".") }
        #expect(partials.isEmpty, "\(partials)")
    }

    @Test("manifests list recordings relative to their folder, with comments and folders")
    func manifests() throws {
        let f = BatchFixture()
        let files = try f.make("data", count: 3)
        let manifest = f.dir.url.appendingPathComponent("batch.manifest")
        let text = "# three recordings\n\ndata/\((files[0] as NSString).lastPathComponent)\n  \(files[1])\n\ndata\n"
        try Data(text.utf8).write(to: manifest)
        let expanded = try RecordingDiscovery.expand([manifest.path])
        // The folder lists the two files again: each file is one input, at its first appearance (issue 33).
        #expect(expanded.count == 3)
        #expect(expanded[0] == f.dir.url.appendingPathComponent("data").path + "/" + (files[0] as NSString).lastPathComponent)
        #expect(expanded[1] == files[1])
        #expect((expanded[2] as NSString).lastPathComponent == (files[2] as NSString).lastPathComponent)
    }

    @Test("a WFDB record is sized and hashed with its signal file: a changed .dat is analysed again")
    func wfdbMembers() throws {
        let f = BatchFixture()
        let samples = (0..<5000).map { k -> UInt8 in UInt8(truncatingIfNeeded: Int(100 * sin(Double(k) * 0.05))) }
        let dat = f.dir.write("rec.dat", samples.flatMap { [$0, $0 >= 128 ? 0xff : 0] })
        // The header's checksum is verified: the 16-bit sum of the samples.
        let checksum = Int16(truncatingIfNeeded: samples.reduce(0) { $0 + Int(Int8(bitPattern: $1)) })
        let text = "rec 1 500 5000\nrec.dat 16 200/mV 16 0 0 \(checksum) 0 ECG\n"
        let hea = f.dir.write("rec.hea", Array(text.utf8))
        let first = try f.run([hea], into: "w.sqlite", jobs: 1)
        #expect(first.summary.ok == 1 && first.summary.bytesAnalysed == 10_000 + text.utf8.count)
        #expect(SQLiteDump.rows(first.path, "SELECT size FROM recordings") == ["\(10_000 + text.utf8.count)"])
        #expect(try f.run([hea], into: "w.sqlite", jobs: 1).summary.skipped == 1)
        var bytes = try Data(contentsOf: URL(fileURLWithPath: dat))
        // Swap samples 500 and 501 (−13 and −8 adu): the content changes, the checksum does not.
        bytes.replaceSubrange(1000...1003, with: [bytes[1002], bytes[1003], bytes[1000], bytes[1001]])
        try bytes.write(to: URL(fileURLWithPath: dat))
        let changed = try f.run([hea], into: "w.sqlite", jobs: 1)
        #expect(changed.summary.ok == 1 && changed.summary.skipped == 0)
    }
}

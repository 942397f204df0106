import CSQLite
import Foundation
import Pipeline
import Signals
import Testing
import _TestSupport

/// Issue 33, classes 10–14: `merge` trusts no input database, opens inputs read-only and names
/// every file; CSV text cannot run as a formula; configuration syntax errors have a position; one
/// file reached three ways is one recording. (The crafted inputs are in Fixtures/crafted, written
/// by `scripts/make-crafted-databases.py`; `CraftedCorpusLimitsTests` runs them under limits.)
@Suite("Hardening round 3: merge trust model, CSV formula cells, config positions, duplicate inputs")
struct HardeningRound3Tests {
    static let crafted = Fixtures.url("PipelineTests", "crafted")
    static let ecg = Fixtures.repositoryRoot.appendingPathComponent("Datasets/ecg/watch-1_mitdb100_1716282000.ndjson.gz").path
    static let ppg = Fixtures.repositoryRoot.appendingPathComponent("Datasets/ppg/phone-1_butppg_1716296400.ndjson.gz").path

    /// A database with one analysed recording.
    static func database(_ file: String, at path: String) throws {
        let batch = try BatchDatabase(path: path)
        try batch.startRun(softwareVersion: "test", configJSON: "{}")
        _ = try batch.analyze(
            recording: RecordingInput(path: file), size: 0, contentHash: try ContentHash.file(file),
            analysis: AnalysisConfiguration())
        try batch.finishRun(ok: 1, failed: 0, skipped: 0)
    }

    /// An ECG database as the merge target and a PPG database as the shard, in `dir`.
    static func targetAndShard(in dir: TemporaryDirectory) throws -> (target: String, shard: String) {
        let target = dir.url.appendingPathComponent("merged.sqlite").path
        let shard = dir.url.appendingPathComponent("ppg.sqlite").path
        try database(ecg, at: target)
        try database(ppg, at: shard)
        return (target, shard)
    }

    static func mode(_ path: String) -> mode_t {
        var st = stat()
        return stat(path, &st) == 0 ? st.st_mode & 0o7777 : 0
    }

    // MARK: - Class 10: merge never runs SQL read from a shard

    @Test(
        "a shard whose schema is not the declarations is refused, naming it; the target is unchanged",
        arguments: [
            "schema-extra-statements.sqlite", "declared-table-extra-statements.sqlite", "trigger.sqlite",
            "view-named-as-table.sqlite", "extra-column.sqlite", "not-a-database.sqlite",
        ])
    func craftedShardRefused(name: String) throws {
        let dir = TemporaryDirectory()
        let target = dir.url.appendingPathComponent("merged.sqlite").path
        try Self.database(Self.ecg, at: target)
        let before = SQLiteDump.content(target)
        let shard = dir.url.appendingPathComponent(name).path
        try FileManager.default.copyItem(atPath: Self.crafted.appendingPathComponent("merge/\(name)").path, toPath: shard)
        let shardBytes = try Data(contentsOf: URL(fileURLWithPath: shard))
        do {
            let s = try ShardMerge.merge(shards: [shard], into: target)
            Issue.record("\(name): merged (\(s.recordings) recording(s))")
        } catch {
            #expect("\(error)".contains(shard), "\(name): \(error)")
        }
        #expect(SQLiteDump.difference(before, SQLiteDump.content(target)) == nil, "\(name)")
        let objects = SQLiteDump.rows(target, "SELECT name FROM sqlite_master WHERE type IN ('trigger', 'view')")
        #expect(objects.isEmpty, "\(name): \(objects)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: shard)) == shardBytes, "\(name): the shard was written")
    }

    /// The crafted report databases are FuzzMerge's mergeable seeds (`scripts/fuzz-seeds.py`): a
    /// schema change that leaves them stale makes merge refuse every one before its copy step,
    /// and a campaign then fuzzes only the refusal (it happened twice). Regenerate them with
    /// `scripts/make-crafted-databases.py` when this fails.
    @Test("every crafted report database merges with this build's declarations (FuzzMerge's seeds are not stale)")
    func craftedReportDatabasesMerge() throws {
        let folder = Self.crafted.appendingPathComponent("report")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".sqlite") }.sorted()
        #expect(names.count >= 5)
        for name in names {
            let dir = TemporaryDirectory()
            let shard = dir.url.appendingPathComponent(name).path
            try FileManager.default.copyItem(atPath: folder.appendingPathComponent(name).path, toPath: shard)
            let target = dir.url.appendingPathComponent("merged.sqlite").path
            do {
                let s = try ShardMerge.merge(shards: [shard], into: target)
                #expect(s.recordings == 1, "\(name): \(s.recordings) recording(s) merged")
            } catch {
                Issue.record("\(name) is refused: \(error)")
            }
        }
    }

    @Test("a clean shard still merges after the schema check, nothing written beside it")
    func cleanShardMerges() throws {
        let dir = TemporaryDirectory()
        let target = dir.url.appendingPathComponent("merged.sqlite").path
        let shardDir = dir.url.appendingPathComponent("shards")
        try FileManager.default.createDirectory(at: shardDir, withIntermediateDirectories: true)
        let moved = shardDir.appendingPathComponent("ppg.sqlite").path
        try Self.database(Self.ecg, at: target)
        try Self.database(Self.ppg, at: moved)
        let a = SQLiteDump.rows(target, "SELECT COUNT(*) FROM heart_rate").first.flatMap { Int($0) } ?? -1
        let b = SQLiteDump.rows(moved, "SELECT COUNT(*) FROM heart_rate").first.flatMap { Int($0) } ?? -1
        let listing = try FileManager.default.contentsOfDirectory(atPath: shardDir.path)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: moved))
        let s = try ShardMerge.merge(shards: [moved], into: target)
        #expect(s.recordings == 1)
        #expect(SQLiteDump.rows(target, "SELECT COUNT(*) FROM heart_rate") == ["\(a + b)"])
        // Nothing written to or beside the shard (no -wal, -shm or journal).
        #expect(try FileManager.default.contentsOfDirectory(atPath: shardDir.path) == listing)
        #expect(try Data(contentsOf: URL(fileURLWithPath: moved)) == bytes)
    }

    // MARK: - Class 11: file handling

    @Test("a write-protected target is refused with its name, not replaced (mode and content unchanged)")
    func writeProtectedTarget() throws {
        let dir = TemporaryDirectory()
        let (target, shard) = try Self.targetAndShard(in: dir)
        let before = try Data(contentsOf: URL(fileURLWithPath: target))
        chmod(target, 0o444)
        #expect {
            _ = try ShardMerge.merge(shards: [shard], into: target)
        } throws: { error in
            "\(error)".contains(target) && "\(error)".contains("not writable")
        }
        #expect(Self.mode(target) == 0o444)
        #expect(try Data(contentsOf: URL(fileURLWithPath: target)) == before)
    }

    @Test("the merged database keeps the target's permissions")
    func keepsPermissions() throws {
        let dir = TemporaryDirectory()
        let (target, shard) = try Self.targetAndShard(in: dir)
        chmod(target, 0o640)
        _ = try ShardMerge.merge(shards: [shard], into: target)
        #expect(Self.mode(target) == 0o640)
    }

    @Test("a shard the user can only read merges (as an unprivileged user: needs root and setpriv)")
    func readOnlyShard() throws {
        guard getuid() == 0, FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") else {
            print("HardeningRound3Tests.readOnlyShard: skipped (needs root and /usr/bin/setpriv to act as nobody)")
            return
        }
        let binary = try #require(SensorPipeProcess.binary, "\(SensorPipeProcess.MissingBinary())")
        let dir = TemporaryDirectory()
        chmod(dir.url.path, 0o755)
        let ro = dir.url.appendingPathComponent("ro"), rw = dir.url.appendingPathComponent("rw")
        try FileManager.default.createDirectory(at: ro, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: rw, withIntermediateDirectories: true)
        let shard = ro.appendingPathComponent("shard.sqlite").path
        try Self.database(Self.ppg, at: shard)
        chmod(ro.path, 0o755)
        chmod(shard, 0o644)
        chmod(rw.path, 0o777)
        let target = rw.appendingPathComponent("merged.sqlite").path
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
        p.arguments = ["--reuid=65534", "--regid=65534", "--clear-groups", binary.path, "merge", shard, "--out", target]
        let err = Pipe()
        p.standardError = err
        p.standardOutput = FileHandle.nullDevice
        try p.run()
        let message = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        #expect(p.terminationStatus == 0, "\(message)")
        #expect(SQLiteDump.rows(target, "SELECT COUNT(*) FROM recordings") == ["1"])
    }

    // MARK: - Class 12: CSV formula cells

    @Test("text cells starting with = + - @ tab CR are neutralised; numbers and plain text are not")
    func csvFormulaCells() {
        let cases: [(String, String)] = [
            ("=HYPERLINK(\"http://x\",\"y\")", "'=HYPERLINK(\"http://x\",\"y\")"),
            ("@SUM(1+1)", "'@SUM(1+1)"),
            ("+cmd|' /C calc'!A0", "'+cmd|' /C calc'!A0"),
            ("-2+3", "'-2+3"),
            ("\tx", "'\tx"),
            ("\rx", "'\rx"),
            ("-", "'-"),
            ("-12", "-12"),
            ("+3.5e-2", "+3.5e-2"),
            ("-.5", "-.5"),
            ("a=b", "a=b"),
            ("ppg/green", "ppg/green"),
        ]
        for (text, expected) in cases {
            #expect(CSVResultSink.neutralised(text) == expected, "\(text)")
        }
    }

    @Test("a device id =HYPERLINK(…) reaches CSV output as text, not a formula")
    func csvSinkNeutralises() throws {
        let dir = TemporaryDirectory()
        let sink = try CSVResultSink(directory: dir.url)
        let table = ResultTable(
            name: "t", summary: "", columns: [.init("device", .text, ""), .init("value", .real, "")])
        try sink.begin(recording: "r")
        try sink.write(table, values: [.text("=HYPERLINK(\"http://evil\",\"x\")"), .real(-1)])
        try sink.write(table, values: [.text("-12"), .real(-2.5)])
        try sink.write(table, values: [.text("@x"), .null])
        try sink.commit()
        let text = try String(contentsOf: dir.url.appendingPathComponent("t.csv"), encoding: .utf8)
        #expect(
            text == "device,value\n\"'=HYPERLINK(\"\"http://evil\"\",\"\"x\"\")\",-1.0\n-12,-2.5\n\"'@x\",\n", "\(text)")
    }

    // MARK: - Class 13: configuration syntax errors have a position

    @Test("a JSON configuration with a syntax error names line and column")
    func configPosition() {
        // Positions counted by hand in the files (scripts/make-crafted-databases.py).
        for (name, position) in [("missing-comma.json", ":4:5: "), ("unclosed.json", ":2:1: "), ("deep.json", ":1:")] {
            let path = Self.crafted.appendingPathComponent("config/\(name)").path
            #expect {
                _ = try AnalysisConfiguration(configurationFile: path)
            } throws: { error in
                "\(error)".contains(path + position) && "\(error)".contains("not valid JSON")
            }
        }
    }

    // MARK: - Class 8: an absurd UTC offset is rejected at analysis

    @Test("utc_offset_s beyond ±18 h is not an offset (days stay UTC; never year −292 billion)")
    func utcOffsetRange() {
        #expect(SummaryTimeBasis.utcOffset("-9223372036854775808") == nil)
        #expect(SummaryTimeBasis.utcOffset("64801") == nil && SummaryTimeBasis.utcOffset("-64801") == nil)
        #expect(SummaryTimeBasis.utcOffset("64800") == 64800 && SummaryTimeBasis.utcOffset("-18000") == -18000)
        #expect(SummaryTimeBasis.utcOffset("x") == nil && SummaryTimeBasis.utcOffset(nil) == nil)
    }

    @Test(
        "a recording whose utc_offset_s is beyond ±18 h: the offset is rejected at analysis, not stored, and named",
        arguments: [("+1830", false), ("-1859", false), ("+1800", true), ("-0730", true)])
    func utcOffsetRejectedAtAnalysis(offset: String, kept: Bool) throws {
        // Apple Health's `±hhmm` allows minutes up to 59 with 18 hours: +18:30 is 66,600 s.
        let dir = TemporaryDirectory()
        let source = try String(
            contentsOf: Fixtures.url("RecordingsTests", "health").appendingPathComponent("synthetic-english-quoted.csv"),
            encoding: .utf8)
        let file = dir.write("ecg.csv", source.replacingOccurrences(of: "2024-03-05 23:59:30 -0730", with: "2024-03-05 23:59:30 \(offset)"))
        let db = dir.url.appendingPathComponent("r.sqlite").path
        try Self.database(file, at: db)
        let stored = SQLiteDump.rows(db, "SELECT value FROM stream_attributes WHERE key = 'utc_offset_s'")
        let issues = SQLiteDump.rows(db, "SELECT issues FROM recordings").joined()
        let summary = SQLiteDump.rows(db, "SELECT time_basis FROM recording_summary")
        if kept {
            #expect(stored.count == 1 && !issues.contains("utc_offset_s"), "\(stored) \(issues)")
            #expect(summary.allSatisfy { $0 == "local" }, "\(summary)")
        } else {
            #expect(stored.isEmpty, "\(offset): stored \(stored)")
            #expect(issues.contains("utc_offset_s '") && issues.contains("rejected") && issues.contains("±18 h"), "\(issues)")
            #expect(!summary.isEmpty && summary.allSatisfy { $0 == "utc" }, "\(summary)")
        }
    }

    // MARK: - Class 14: one file reached three ways is one recording

    @Test("a file named directly, through its folder, in a manifest and through links is one input")
    func duplicateInputs() throws {
        let dir = TemporaryDirectory()
        let folder = dir.url.appendingPathComponent("in")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent("a.ndjson.gz").path
        try FileManager.default.copyItem(atPath: Self.ppg, toPath: file)
        let manifest = dir.write("list.manifest", "in/a.ndjson.gz\n./in//a.ndjson.gz\n")
        let link = dir.url.appendingPathComponent("link.ndjson.gz").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: file)
        let hard = dir.url.appendingPathComponent("hard.ndjson.gz").path
        try FileManager.default.linkItem(atPath: file, toPath: hard)
        let copy = dir.url.appendingPathComponent("copy.ndjson.gz").path
        try FileManager.default.copyItem(atPath: Self.ppg, toPath: copy)
        let found = try RecordingDiscovery.recordings([file, folder.path, manifest, link, hard, copy])
        #expect(found.map(\.path) == [file, copy], "\(found.map(\.path))")
        // The copy (another file, the same content) is not analysed: listed as a duplicate of the first.
        let db = dir.url.appendingPathComponent("r.sqlite").path
        let summary = try BatchRunner.run(
            inputs: found, store: try BatchDatabase(path: db), options: BatchOptions(jobs: 1, softwareVersion: "t"))
        #expect(summary.ok == 1 && summary.total == 1)
        #expect(summary.duplicates.map(\.path) == [copy] && summary.duplicates.map(\.duplicateOf) == [file])
        #expect(summary.json.contains("\"duplicate_of\""))
        #expect(SQLiteDump.rows(db, "SELECT count(*) FROM recordings") == ["1"])
        // A copy of a recording stored by an earlier run is analysed, stored and noted.
        let other = dir.url.appendingPathComponent("other.ndjson.gz").path
        try FileManager.default.copyItem(atPath: Self.ppg, toPath: other)
        let again = try BatchRunner.run(
            inputs: [RecordingInput(path: other)], store: try BatchDatabase(path: db),
            options: BatchOptions(jobs: 1, softwareVersion: "t"))
        #expect(again.ok == 1 && again.duplicates.isEmpty)
        #expect(again.sameContent.map(\.path) == [other] && again.sameContent.map(\.storedAs) == [file])
    }

    @Test("same sizes but other content are both analysed (only a hash match is a duplicate)")
    func sameSizeOtherContent() throws {
        let dir = TemporaryDirectory()
        let a = dir.write("a.csv", "time,value\n0,1\n1,2\n")
        let b = dir.write("b.csv", "time,value\n0,1\n1,3\n")
        let c = dir.write("c.csv", "time,value\n0,1\n1,2\n")
        let summary = try BatchRunner.run(
            recordings: [a, b, c], store: try BatchDatabase(path: dir.url.appendingPathComponent("r.sqlite").path),
            options: BatchOptions(jobs: 1, softwareVersion: "t"))
        #expect(summary.total == 2 && summary.duplicates.map(\.path) == [c] && summary.duplicates.map(\.duplicateOf) == [a])
    }
}

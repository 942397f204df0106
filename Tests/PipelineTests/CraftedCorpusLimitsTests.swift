import CSQLite
import Foundation
import Testing
import _TestSupport

/// Bounded memory and time per crafted input (issue 33, the round-3 counterpart of
/// ``MalformedCorpusLimitsTests``): every file of `Fixtures/crafted/<command>/` goes to the
/// `sensorpipe` command it targets in a child process limited to 768 MiB of address space
/// (`ulimit -v`) and 30 s (`timeout`): `report/` databases to `report` (which must write the pages,
/// status 0, each page under 2 MB), `merge/` shards to `merge` (refused, status 1, the target
/// untouched) and `config/` files to `run --config` (refused, status 64 or 1).
@Suite("Crafted databases, shards and configurations under an address-space and time limit")
struct CraftedCorpusLimitsTests {
    static let corpus = Fixtures.url("PipelineTests", "crafted")

    static var files: [String] {
        let fm = FileManager.default
        return ["report", "merge", "config"].flatMap { folder -> [String] in
            let names = (try? fm.contentsOfDirectory(atPath: corpus.appendingPathComponent(folder).path)) ?? []
            return names.filter { $0 != "README.md" }.sorted().map { "\(folder)/\($0)" }
        }
    }

    @Test("the corpus is found")
    func corpusFound() {
        #expect(Self.files.count >= 15, "\(Self.files.count) files under \(Self.corpus.path)")
    }

    @Test("each crafted input ends with its expected status, within 768 MiB and 30 s", arguments: files)
    func bounded(file: String) throws {
        let binary = try #require(SensorPipeProcess.binary, "\(SensorPipeProcess.MissingBinary())")
        let dir = TemporaryDirectory()
        let input = dir.url.appendingPathComponent((file as NSString).lastPathComponent).path
        try FileManager.default.copyItem(atPath: Self.corpus.appendingPathComponent(file).path, toPath: input)
        let folder = (file as NSString).deletingLastPathComponent
        let out = dir.url.appendingPathComponent("out").path
        let args: [String]
        let expected: Set<Int32>
        switch folder {
        case "report":
            args = ["report", input, "--out", out]
            expected = [0]
        case "merge":
            args = ["merge", input, "--out", out + ".sqlite"]
            expected = [1]
        default:
            args = [
                "run", "--config", input, "--out", out + ".sqlite",
                Fixtures.repositoryRoot.appendingPathComponent("Datasets/ppg/phone-1_butppg_1716296400.ndjson.gz").path,
            ]
            expected = [1, 64]
        }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/sh")
        p.arguments = ["-c", "ulimit -v 786432; exec timeout 30 \"$@\" >/dev/null 2>\"$0\"", out + ".stderr", binary.path] + args
        try p.run()
        p.waitUntilExit()
        let stderr = (try? String(contentsOfFile: out + ".stderr", encoding: .utf8)) ?? ""
        // 124: timeout; 132/134/137/139 (or a signal): trap, abort, out of memory.
        #expect(
            p.terminationReason == .exit && expected.contains(p.terminationStatus),
            "\(file): status \(p.terminationStatus) (\(p.terminationReason == .exit ? "exit" : "signal")): \(stderr.prefix(300))")
        if folder == "report" {
            let pages = (try? FileManager.default.contentsOfDirectory(atPath: out)) ?? []
            #expect(pages.contains("index.html"), "\(file): \(pages)")
            for page in pages {
                let size = (try? FileManager.default.attributesOfItem(atPath: out + "/" + page)[.size] as? Int) ?? 0
                #expect(size < 2_000_000, "\(file): \(page) is \(size) bytes")
            }
        } else {
            #expect(stderr.contains(input), "\(file): the error does not name the input: \(stderr.prefix(300))")
            if folder == "merge" { #expect(!FileManager.default.fileExists(atPath: out + ".sqlite"), "\(file)") }
        }
    }

    /// Address space for `sensorpipe report` over a database of 907,724 heart-rate rows (a 7-day
    /// PPG at the defaults has 907 k): 384 MiB. The report needs about 300 MB of address space for
    /// any database; streaming the rows (issue 33, class 8) keeps it there, while reading them
    /// whole took 944 MB resident (and 80 s, a 17.8 MB page) before.
    static let longReportKibibytes = 393_216

    @Test("a report over 907 k heart-rate rows stays within 384 MiB and 60 s, its pages under 2 MB")
    func longReport() throws {
        let binary = try #require(SensorPipeProcess.binary, "\(SensorPipeProcess.MissingBinary())")
        let dir = TemporaryDirectory()
        // 907,000 more spectral heart-rate windows of the recording's stream, spread over its span.
        let db = try Self.ppgDatabase(
            in: dir,
            adding: """
                WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 906999),
                span(a, b) AS (SELECT min(window_start), max(window_end) FROM heart_rate)
                INSERT INTO heart_rate (recording_id, stream, source, window_start, window_end, bpm, beats, method, confidence, recommended)
                SELECT h.recording_id, h.stream, h.source, a + (b - a) * i / 907000.0, a + (b - a) * i / 907000.0 + 8,
                    60 + (i % 61), h.beats, h.method, 0.5, h.recommended
                FROM n, span, (SELECT * FROM heart_rate WHERE method = 'spectral_offline' LIMIT 1) h
                """)
        try Self.reportWithinLimits(binary: binary.path, database: db, out: dir.url.appendingPathComponent("pages").path, seconds: 60)
    }

    /// A database of the BUT PPG excerpt in `dir`, with `sql` run on it; returns its path.
    static func ppgDatabase(in dir: TemporaryDirectory, adding sql: String) throws -> String {
        let db = dir.url.appendingPathComponent("long.sqlite").path
        try HardeningRound3Tests.database(HardeningRound3Tests.ppg, at: db)
        var handle: OpaquePointer?
        try #require(sqlite3_open(db, &handle) == SQLITE_OK)
        defer { sqlite3_close(handle) }
        try #require(sqlite3_exec(handle, sql, nil, nil, nil) == SQLITE_OK, "\(String(cString: sqlite3_errmsg(handle)))")
        return db
    }

    /// Runs `sensorpipe report` on `database` under ``longReportKibibytes`` of address space and
    /// `seconds`; expects status 0, the index and a page, every page under 2 MB.
    static func reportWithinLimits(binary: String, database: String, out: String, seconds: Int) throws {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/sh")
        p.arguments = [
            "-c",
            "ulimit -v \(Self.longReportKibibytes); exec timeout \(seconds) \"$0\" report \"$1\" --out \"$2\" >/dev/null 2>&1",
            binary, database, out,
        ]
        try p.run()
        p.waitUntilExit()
        #expect(p.terminationReason == .exit && p.terminationStatus == 0, "status \(p.terminationStatus)")
        let pages = (try? FileManager.default.contentsOfDirectory(atPath: out)) ?? []
        #expect(pages.contains("index.html") && pages.count >= 2, "\(pages)")
        for page in pages {
            let size = (try? FileManager.default.attributesOfItem(atPath: out + "/" + page)[.size] as? Int) ?? 0
            #expect(size < 2_000_000, "\(page) is \(size) bytes")
        }
    }

    /// A report over 1,000,000 feature rows (4 features × 250,000 windows of the recording's PPG
    /// stream) and 200,000 motion epochs (11.6 days of 5-s epochs, a fifth marked non-wear) stays
    /// within the address space of ``longReportKibibytes`` (issue 33, class 8: the feature series and
    /// the actogram stream their rows, as the time series do; reading them whole took about 1 GB).
    @Test("a report over 1 M feature rows and 200 k motion epochs stays within 384 MiB and 120 s, its pages under 2 MB")
    func longFeatureReport() throws {
        let binary = try #require(SensorPipeProcess.binary, "\(SensorPipeProcess.MissingBinary())")
        let dir = TemporaryDirectory()
        let db = try Self.ppgDatabase(
            in: dir,
            adding: """
                WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 249999),
                f(name, unit) AS (VALUES ('ppg_pd0_hr_mean', 'bpm'), ('ppg_pd0_mean', '1'), ('ppg_pd0_sd', '1'), ('ppg_pd0_min', '1')),
                s(recording_id, stream, a, b) AS (SELECT recording_id, stream, first_time, last_time FROM streams ORDER BY stream_index LIMIT 1)
                INSERT INTO features (recording_id, stream, window_start, window_end, feature, value, unit)
                SELECT s.recording_id, s.stream, s.a + (s.b - s.a) * i / 250000.0, s.a + (s.b - s.a) * i / 250000.0 + 10, f.name,
                    60 + (i % 61), f.unit
                FROM n, f, s;
                WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 199999),
                s(recording_id, a) AS (SELECT recording_id, first_time FROM streams ORDER BY stream_index LIMIT 1)
                INSERT INTO motion_epochs (recording_id, stream, epoch_start, epoch_end, samples, coverage, enmo_mg, non_wear)
                SELECT s.recording_id, 'phone-1/accelerometer', s.a + 5 * i, s.a + 5 * i + 5, 250, 1, i % 97, (i % 50) < 10
                FROM n, s;
                """)
        let out = dir.url.appendingPathComponent("pages").path
        try Self.reportWithinLimits(binary: binary.path, database: db, out: out, seconds: 120)
        // The feature plot (one stream, its preferred feature) and the actogram are drawn.
        let html = (try? String(contentsOfFile: out + "/recording-1.html", encoding: .utf8)) ?? ""
        #expect(html.contains("Feature per window: ppg_pd0_hr_mean of "), "no feature plot")
        #expect(html.contains("data-plot=\"actogram-0\"") && html.contains("200000 epochs, 40000 marked not worn"), "no actogram")
    }
}

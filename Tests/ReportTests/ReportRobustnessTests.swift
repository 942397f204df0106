import Foundation
import Report
import Testing
import _TestSupport

/// Issue 33, class 7: a report is read-only and survives any database. Every crafted database of
/// `Tests/PipelineTests/Fixtures/crafted/report/` (scripts/make-crafted-databases.py) gives its
/// pages, and the recording page names the values it skipped (columns and an example value).
/// Before the rule, these trapped (1e300 counts, a time of 1e22, a UTC offset of −2^63), hung
/// (a bpm of −1.7e308; a session dated in milliseconds) or aborted allocating 545 MB (a time of
/// −1e15). (`CraftedCorpusLimitsTests` runs the same files under 768 MiB and 30 s.)
@Suite("Report over crafted databases: bad values skipped and named")
struct ReportRobustnessTests {
    static let folder = Fixtures.repositoryRoot.appendingPathComponent("Tests/PipelineTests/Fixtures/crafted/report")

    @Test(
        "the page is written and names the skipped columns",
        arguments: [
            ("count-1e300.sqlite", ["samples_read", "beats"]),
            ("time-1e22.sqlite", ["last_time", "window_start"]),
            ("time-minus-1e15.sqlite", ["first_time", "window_start"]),
            ("rate-negative-huge.sqlite", ["bpm", "measured_rate_hz"]),
            ("rate-infinite.sqlite", ["bpm", "measured_rate_hz", "confidence"]),
            ("utc-offset-int-min.sqlite", ["utc_offset_s"]),
            ("session-in-milliseconds.sqlite", ["last_time", "window_start"]),
        ])
    func craftedDatabase(name: String, columns: [String]) throws {
        let dir = TemporaryDirectory()
        let out = dir.url.appendingPathComponent("report").path
        let written = try Report.write(database: Self.folder.appendingPathComponent(name).path, to: out)
        #expect(written.pages.count == 1)
        let page = try String(contentsOfFile: try #require(written.pages.values.first), encoding: .utf8)
        let note = page.range(of: "Values skipped as implausible").map { String(page[$0.lowerBound...].prefix(600)) } ?? ""
        #expect(!note.isEmpty, "\(name): no note of skipped values")
        for c in columns { #expect(note.contains(c + ":"), "\(name): \(c) not named in \(note)") }
        #expect(page.utf8.count < 2_000_000, "\(name): \(page.utf8.count) bytes")
    }

    @Test("a clean database names nothing")
    func cleanDatabase() throws {
        let f = try ReportFixture()
        let written = try Report.write(database: f.database, to: f.dir.url.appendingPathComponent("report").path)
        for p in written.pages.values {
            #expect(!(try String(contentsOfFile: p, encoding: .utf8)).contains("Values skipped as implausible"), "\(p)")
        }
    }
}

/// Issue 33, class 9: the report's file checks say the real cause.
@Suite("Report file checks: size before hash, the real cause of an unreadable database")
struct ReportFileCheckTests {
    @Test("a recording file of another size is called changed by its size, without hashing 2 GB")
    func sizeBeforeHash() throws {
        let f = try ReportFixture([("ppg", "phone-1_butppg_1716296400.ndjson.gz")])
        let file = try #require(f.recordings.first)
        // A sparse 2 GiB file in its place: hashing it would read 2 GiB.
        try FileManager.default.removeItem(atPath: file)
        _ = FileManager.default.createFile(atPath: file, contents: nil)
        let h = try #require(FileHandle(forWritingAtPath: file))
        try h.truncate(atOffset: 2 << 30)
        try h.close()
        let written = try Report.write(database: f.database, to: f.dir.url.appendingPathComponent("report").path)
        let page = try String(contentsOfFile: try #require(written.pages.values.first), encoding: .utf8)
        #expect(page.contains("bytes in the results, 2147483648 now"), "\(page.prefix(0))")
    }

    @Test("a valid database in a folder the user cannot write is read (as nobody: needs root and setpriv)")
    func unwritableFolder() throws {
        guard getuid() == 0, FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") else {
            print("ReportFileCheckTests.unwritableFolder: skipped (needs root and /usr/bin/setpriv to act as nobody)")
            return
        }
        let f = try ReportFixture([("ppg", "phone-1_butppg_1716296400.ndjson.gz")])
        let binary = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var dir = binary.deletingLastPathComponent()
        var sensorpipe: URL?
        for _ in 0..<4 {
            let c = dir.appendingPathComponent("sensorpipe")
            if FileManager.default.isExecutableFile(atPath: c.path) { sensorpipe = c }
            dir = dir.deletingLastPathComponent()
        }
        let tool = try #require(sensorpipe, "the sensorpipe executable is not built")
        chmod(f.dir.url.path, 0o755)
        chmod(f.database, 0o644)
        let out = "/tmp/sensorpipe-report-nobody-\(getpid())"
        defer { try? FileManager.default.removeItem(atPath: out) }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
        p.arguments = ["--reuid=65534", "--regid=65534", "--clear-groups", tool.path, "report", f.database, "--out", out]
        let err = Pipe()
        p.standardError = err
        p.standardOutput = FileHandle.nullDevice
        try p.run()
        let message = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        #expect(p.terminationStatus == 0, "\(message)")
        #expect(FileManager.default.fileExists(atPath: out + "/index.html"))
    }
}

import Foundation
import Synchronization
import Testing
import _TestSupport

/// Runs the `sensorpipe` executable built beside the tests.
struct SensorPipeProcess {
    /// The executable in the same build folder as the test bundle (SwiftPM builds every product
    /// before running tests).
    static let binary: URL? = {
        var candidates = [URL]()
        let argv0 = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var dir = argv0.deletingLastPathComponent()
        for _ in 0..<4 { // …/release/SensorPipePackageTests.xctest[/Contents/MacOS]
            candidates.append(dir.appendingPathComponent("sensorpipe"))
            dir = dir.deletingLastPathComponent()
        }
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }()

    /// Result of a finished process.
    struct Output {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// Runs `sensorpipe args…` to completion (in `folder` when given).
    static func run(_ args: [String], environment: [String: String] = [:], in folder: URL? = nil) throws -> Output {
        guard let binary else { throw MissingBinary() }
        let p = Process()
        if let folder { p.currentDirectoryURL = folder }
        p.executableURL = binary
        p.arguments = args
        p.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        try p.run()
        // Read both pipes to the end before waiting, so a full pipe never blocks the child.
        let errData = Mutex(Data())
        let done = DispatchSemaphore(value: 0)
        let errHandle = err.fileHandleForReading
        Thread.detachNewThread {
            let d = errHandle.readDataToEndOfFile()
            errData.withLock { $0 = d }
            done.signal()
        }
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        done.wait()
        p.waitUntilExit()
        return Output(
            status: p.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: errData.withLock { $0 }, as: UTF8.self))
    }

    /// Starts `sensorpipe args…` with `SENSORPIPE_STALL_BEFORE_COMMIT=n` and reads its stderr until
    /// it stalls inside the n-th stored recording's transaction (or ends, or 300 s pass).
    /// - Returns: the running process, its stderr and the text read so far.
    static func startStalled(_ args: [String], atCommit n: Int) throws -> (process: Process, stderr: FileHandle, text: String) {
        guard let binary else { throw MissingBinary() }
        let p = Process()
        p.executableURL = binary
        p.arguments = args
        p.environment = ProcessInfo.processInfo.environment.merging(["SENSORPIPE_STALL_BEFORE_COMMIT": "\(n)"]) { $1 }
        let err = Pipe()
        p.standardError = err
        p.standardOutput = FileHandle.nullDevice
        try p.run()
        var text = ""
        let deadline = Date().addingTimeInterval(300)
        while !text.contains("stalling before the commit") && Date() < deadline {
            let chunk = err.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            text += String(decoding: chunk, as: UTF8.self)
        }
        return (p, err.fileHandleForReading, text)
    }

    struct MissingBinary: Error, CustomStringConvertible {
        var description: String {
            "the sensorpipe executable was not found beside the test bundle (\(CommandLine.arguments[0])); build it with `swift build`"
        }
    }
}

@Suite("sensorpipe command line: exit codes, help, summary, kill and resume")
struct CommandLineTests {
    @Test("every command answers --help with its usage and exit code 0; usage errors exit with 64")
    func helpAndUsage() throws {
        for command in ["inspect", "convert", "analyze", "run", "merge"] {
            let r = try SensorPipeProcess.run([command, "--help"])
            #expect(r.status == 0 && r.stdout.contains("USAGE: sensorpipe \(command)"), "\(command): \(r.stdout.prefix(200))")
        }
        let top = try SensorPipeProcess.run(["--help"])
        #expect(top.status == 0 && top.stdout.contains("COMMANDS:"))
        for args in [
            ["run"], ["run", "x", "--jobs", "0"], ["run", "x", "--shard", "3/2"], ["run", "x", "--format", "xml"],
            ["run", "x", "--bogus"], ["frobnicate"],
        ] {
            let r = try SensorPipeProcess.run(args)
            #expect(r.status == 64 && r.stderr.contains("sensorpipe:"), "\(args): \(r.status) \(r.stderr.prefix(200))")
        }
    }

    @Test("run: exit 1 when a recording fails, the --json summary counts it, a rerun skips the good ones")
    func exitCodesAndJSON() throws {
        let f = BatchFixture()
        let files = try f.make("in", count: 5, corruptAt: [1])
        let db = f.dir.url.appendingPathComponent("r.sqlite").path
        let r = try SensorPipeProcess.run(["run", f.dir.url.appendingPathComponent("in").path, "--out", db, "--jobs", "2", "--json"])
        #expect(r.status == 1)
        let json = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any]
        let counts = json?["recordings"] as? [String: Int]
        #expect(counts == ["total": 5, "ok": 4, "failed": 1, "skipped": 0], "\(r.stdout)")
        let failures = json?["failures"] as? [[String: String]]
        #expect(failures?.first?["path"] == files[1])
        #expect(((json?["signal_hours"] as? [String: Double])?["electrocardiogram"] ?? 0) > 0.01)
        #expect(r.stderr.contains("FAILED"), "plain log lines when stderr is not a terminal")
        let again = try SensorPipeProcess.run(["run", f.dir.url.appendingPathComponent("in").path, "--out", db, "--quiet"])
        #expect(again.status == 1)
        #expect(again.stdout.contains("0 ok, 1 failed, 4 skipped"), "\(again.stdout)")
        #expect(!again.stderr.contains("skipped "), "--quiet prints failures only: \(again.stderr)")
        let good = try SensorPipeProcess.run(["run", files[0], files[2], "--out", f.dir.url.appendingPathComponent("g.sqlite").path])
        #expect(good.status == 0 && good.stdout.contains("2 ok, 0 failed"), "\(good.stdout)")
    }

    @Test("an empty output path is a usage error for run, merge, analyze and convert")
    func emptyOutput() throws {
        let demo = Fixtures.repositoryRoot.appendingPathComponent("Datasets/ecg/watch-1_mitdb100_1716282000.ndjson.gz").path
        for args in [
            ["run", demo, "--out", ""], ["merge", demo, "--out", ""], ["analyze", demo, "--out", ""],
            ["convert", demo, "--to", "sensorkit-ndjson", ""],
        ] {
            let r = try SensorPipeProcess.run(args)
            #expect(r.status == 64 && r.stderr.contains("empty"), "\(args): \(r.status) \(r.stderr)")
        }
    }

    @Test("SIGKILL inside a recording's transaction, then rerun: the database equals an uninterrupted run's")
    func killAndResume() throws {
        let f = BatchFixture()
        _ = try f.make("in", count: 12, corruptAt: [7])
        let input = f.dir.url.appendingPathComponent("in").path
        let reference = f.dir.url.appendingPathComponent("reference.sqlite").path
        let ref = try SensorPipeProcess.run(["run", input, "--out", reference, "--jobs", "2"])
        #expect(ref.status == 1) // the corrupt file

        // Stall inside the 6th stored recording's transaction (its rows written, not committed), then kill.
        let killed = f.dir.url.appendingPathComponent("killed.sqlite").path
        let (p, _, text) = try SensorPipeProcess.startStalled(["run", input, "--out", killed, "--jobs", "2"], atCommit: 6)
        #expect(text.contains("stalling before the commit"), "\(text)")
        // A second run on the same database while the first holds it: refused at once (exit 2),
        // naming the holder, instead of storing every recording twice.
        let second = try SensorPipeProcess.run(["run", input, "--out", killed, "--jobs", "1"])
        #expect(
            second.status == 2 && second.stderr.contains("another sensorpipe run (process \(p.processIdentifier))"),
            "\(second.status): \(second.stderr)")
        kill(p.processIdentifier, SIGKILL)
        p.waitUntilExit()
        #expect(p.terminationReason == .uncaughtSignal && p.terminationStatus == SIGKILL)

        // After the crash: exactly the five recordings committed before, no half-written rows.
        #expect(SQLiteDump.rows(killed, "SELECT status, COUNT(*) FROM recordings GROUP BY status ORDER BY status") == ["ok|5"])
        for table in ["beats", "heart_rate", "hrv", "ecg_quality", "streams"] {
            let orphans = SQLiteDump.rows(
                killed, "SELECT COUNT(*) FROM \(table) WHERE recording_id NOT IN (SELECT id FROM recordings WHERE status = 'ok')")
            #expect(orphans == ["0"], "\(table)")
        }

        // Resume.
        let resumed = try SensorPipeProcess.run(["run", input, "--out", killed, "--jobs", "2"])
        #expect(resumed.status == 1)
        #expect(resumed.stdout.contains("6 ok, 1 failed, 5 skipped"), "\(resumed.stdout)")
        let diff = SQLiteDump.difference(SQLiteDump.content(reference), SQLiteDump.content(killed))
        #expect(diff == nil, "\(diff ?? "")")
        #expect(SQLiteDump.rows(killed, "SELECT COUNT(*) FROM runs WHERE ended_at IS NULL") == ["1"], "the killed run stays open")
    }
}

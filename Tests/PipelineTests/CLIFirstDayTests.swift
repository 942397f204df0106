import Foundation
import Pipeline
import Testing
import _TestSupport

/// Issue 28 item 6: what a new user meets on the command line on the first day.
@Suite("sensorpipe: usage errors, Ctrl-C, analyze of several files, convert --device/--start")
struct CLIFirstDayTests {
    static let demo = Fixtures.repositoryRoot.appendingPathComponent("Datasets/ecg")

    @Test("a usage error prints the message, the command's one-line usage and the --help hint (exit 64), not the whole help")
    func oneLineUsage() throws {
        let r = try SensorPipeProcess.run(["run", "x", "--jobs", "0"])
        #expect(r.status == 64)
        #expect(
            r.stderr.split(separator: "\n") == [
                "sensorpipe: --jobs needs an integer from 1 to \(BatchOptions.maximumJobs), got '0'",
                "USAGE: sensorpipe run INPUT… [OPTIONS] [ANALYSIS OPTIONS]",
                "Run `sensorpipe run --help` for its options.",
            ], "\(r.stderr)")
        let merge = try SensorPipeProcess.run(["merge", "a.sqlite"])
        #expect(merge.status == 64 && merge.stderr.split(separator: "\n").count == 3, "\(merge.stderr)")
        #expect(merge.stderr.contains("USAGE: sensorpipe merge SHARD.sqlite… --out FILE [OPTIONS]"), "\(merge.stderr)")
        let top = try SensorPipeProcess.run(["frobnicate"])
        #expect(top.status == 64 && top.stderr.split(separator: "\n").count == 3 && top.stderr.contains("sensorpipe --help"))
    }

    @Test("analyze with several files says it analyses them as one recording; --each analyses each into DIR/NAME/")
    func analyzeSeveral() throws {
        let dir = TemporaryDirectory()
        let a = Self.demo.appendingPathComponent("watch-1_mitdb100_1716282000.ndjson.gz").path
        let b = Self.demo.appendingPathComponent("watch-1_mitdb105_1716285600.ndjson.gz").path
        let one = try SensorPipeProcess.run(["analyze", a, b, "--out", dir.url.appendingPathComponent("one").path])
        #expect(one.status == 0, "\(one.stderr)")
        let first = one.stdout.split(separator: "\n").first.map(String.init) ?? ""
        #expect(first.hasPrefix("one recording of 2 files") && first.contains(a) && first.contains(b), "\(one.stdout)")
        let each = try SensorPipeProcess.run(["analyze", a, b, "--each", "--out", dir.url.appendingPathComponent("each").path])
        #expect(each.status == 0, "\(each.stderr)")
        #expect(each.stdout.contains("2 recording(s): 2 ok, 0 failed"), "\(each.stdout)")
        for name in ["watch-1_mitdb100_1716282000", "watch-1_mitdb105_1716285600"] {
            let beats = dir.url.appendingPathComponent("each/\(name)/beats.csv").path
            #expect(FileManager.default.fileExists(atPath: beats), "\(beats)")
        }
        // Each alone has fewer beat rows than the two together (one more line per file: the header).
        let together = try String(contentsOfFile: dir.url.appendingPathComponent("one/beats.csv").path, encoding: .utf8)
        let alone = try ["watch-1_mitdb100_1716282000", "watch-1_mitdb105_1716285600"].map {
            try String(contentsOfFile: dir.url.appendingPathComponent("each/\($0)/beats.csv").path, encoding: .utf8)
        }
        let rowsAlone: Int = alone.map { (text: String) -> Int in text.split(separator: "\n").count - 1 }.reduce(0, +)
        let rowsTogether: Int = together.split(separator: "\n").count - 1
        #expect(rowsTogether == rowsAlone)
        let clash = try SensorPipeProcess.run(["analyze", a, a, "--each"])
        #expect(clash.status == 64 && clash.stderr.contains("would both write into"), "\(clash.stderr)")
    }

    @Test("SIGINT during run: the progress ends with a message and the resume hint (exit 130); the same command resumes")
    func interruptAndResume() throws {
        let f = BatchFixture()
        _ = try f.make("in", count: 6)
        let input = f.dir.url.appendingPathComponent("in").path
        let reference = f.dir.url.appendingPathComponent("reference.sqlite").path
        #expect(try SensorPipeProcess.run(["run", input, "--out", reference, "--jobs", "2"]).status == 0)

        let out = f.dir.url.appendingPathComponent("interrupted.sqlite").path
        let (p, err, stalled) = try SensorPipeProcess.startStalled(["run", input, "--out", out, "--jobs", "2"], atCommit: 4)
        var text = stalled
        #expect(text.contains("stalling before the commit"), "\(text)")
        kill(p.processIdentifier, SIGINT)
        text += String(decoding: err.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        #expect(p.terminationReason == .exit && p.terminationStatus == 130, "\(p.terminationReason) \(p.terminationStatus)")
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines.suffix(2).first?.hasPrefix("sensorpipe: interrupted after 3 of 6 recording(s), kept in \(out)") == true, "\(text)")
        #expect(lines.last?.hasPrefix("To resume, run the same command again: ") == true, "\(text)")
        #expect(lines.last?.hasSuffix("run \(input) --out \(out) --jobs 2") == true, "\(text)")

        #expect(SQLiteDump.rows(out, "SELECT status, COUNT(*) FROM recordings GROUP BY status") == ["ok|3"])
        let resumed = try SensorPipeProcess.run(["run", input, "--out", out, "--jobs", "2"])
        #expect(resumed.status == 0)
        #expect(resumed.stdout.contains("3 ok, 0 failed, 3 skipped"), "\(resumed.stdout)")
        let diff = SQLiteDump.difference(SQLiteDump.content(reference), SQLiteDump.content(out))
        #expect(diff == nil, "\(diff ?? "")")
    }

    @Test("convert --device names the device; --start makes stream-start times Unix times")
    func convertDeviceAndStart() throws {
        let dir = TemporaryDirectory()
        let record = Fixtures.repositoryRoot.appendingPathComponent("Tests/RecordingsTests/Fixtures/wfdb/records/fmt16.hea").path
        func inspect(_ path: String) throws -> [[String: Any]] {
            let r = try SensorPipeProcess.run(["inspect", path, "--json"])
            let json = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any]
            return json?["streams"] as? [[String: Any]] ?? []
        }
        let source = try inspect(record)
        #expect(!source.isEmpty && source.allSatisfy { $0["timeOrigin"] as? String == "stream_start" })

        let plain = dir.url.appendingPathComponent("plain.ndjson").path
        #expect(try SensorPipeProcess.run(["convert", record, "--to", "sensorkit-ndjson", plain]).status == 0)
        let moved = dir.url.appendingPathComponent("moved.ndjson").path
        let c = try SensorPipeProcess.run([
            "convert", record, "--to", "sensorkit-ndjson", moved, "--device", "holter-7", "--start", "2024-05-21T11:00:00+02:00",
        ])
        #expect(c.status == 0 && !c.stdout.contains("not Unix time"), "\(c.stdout) \(c.stderr)")
        let before = try inspect(plain), after = try inspect(moved)
        #expect(before.count == source.count && after.count == source.count)
        for (b, a) in zip(before, after) {
            #expect(b["timeOrigin"] as? String == "stream_start" && a["timeOrigin"] as? String == "unix")
            #expect(a["device"] as? String == "holter-7")
            let (b0, a0) = (b["start"] as? Double ?? .nan, a["start"] as? Double ?? .nan)
            let (b1, a1) = (b["end"] as? Double ?? .nan, a["end"] as? Double ?? .nan)
            #expect(abs(a0 - (b0 + 1_716_282_000)) < 1e-6 && abs(a1 - (b1 + 1_716_282_000)) < 1e-6, "\(b0) \(a0)")
            #expect(a["samplesEmitted"] as? Int == b["samplesEmitted"] as? Int)
        }
        let bad = try SensorPipeProcess.run(["convert", record, "--to", "sensorkit-ndjson", moved, "--start", "2024-05-21T09:00:00"])
        #expect(bad.status == 64 && bad.stderr.contains("--start needs an ISO 8601 time with a zone"), "\(bad.stderr)")
    }
}

import Foundation
import Testing
import _TestSupport

/// `sensorpipe run --report` and `sensorpipe report` as a user runs them.
@Suite("sensorpipe report and run --report")
struct ReportCommandTests {
    /// The executable in the test bundle's build folder.
    static let binary: String? = {
        var dir = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = dir.appendingPathComponent("sensorpipe").path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            dir = dir.deletingLastPathComponent()
        }
        return nil
    }()

    static func run(_ args: [String]) throws -> (status: Int32, out: String, err: String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: try #require(binary, "sensorpipe is not built beside the tests"))
        p.arguments = args
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        try p.run()
        let o = out.fileHandleForReading.readDataToEndOfFile(), e = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (p.terminationStatus, String(decoding: o, as: UTF8.self), String(decoding: e, as: UTF8.self))
    }

    @Test func runWithReportLeavesIndexAndPages() throws {
        let dir = TemporaryDirectory()
        let ecg = Fixtures.repositoryRoot.appendingPathComponent("Datasets/ecg").path
        let db = dir.url.appendingPathComponent("study.sqlite").path
        let r = try Self.run(["run", ecg, "--out", db, "--report", "--json", "--quiet"])
        #expect(r.status == 0, "\(r.err)")
        #expect((try? JSONSerialization.jsonObject(with: Data(r.out.utf8))) != nil, "stdout stays JSON: \(r.out.prefix(200))")
        let folder = dir.url.appendingPathComponent("study-report")
        let index = try String(contentsOf: folder.appendingPathComponent("index.html"), encoding: .utf8)
        for id in 1...3 {
            #expect(index.contains("recording-\(id).html"))
            #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("recording-\(id).html").path))
        }
        let one = try Self.run(["report", db, "--out", dir.url.appendingPathComponent("one").path, "--recording", "2"])
        #expect(one.status == 0 && one.out.contains("1 recording page(s)"), "\(one.err)")
        let missing = try Self.run(["report", dir.url.appendingPathComponent("none.sqlite").path])
        #expect(missing.status == 1 && missing.err.contains("no such file"))
        let usage = try Self.run(["report"])
        #expect(usage.status == 64)
        let csv = try Self.run(["run", ecg, "--format", "csv", "--report"])
        #expect(csv.status == 64)
    }
}

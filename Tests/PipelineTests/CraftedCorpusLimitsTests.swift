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
}

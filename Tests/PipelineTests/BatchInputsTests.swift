import Foundation
import Recordings
import Testing
import _TestSupport

@testable import Pipeline

@Suite("Batch inputs as people lay them out: symbolic links, --include/--exclude, sizes for the ETA, the bar's width")
struct BatchInputsTests {
    static let csv = "time,x\n0,1\n0.01,2\n"

    @Test("a symbolic link to a folder, and links to folders and files inside it, are followed; a loop is walked once")
    func symlinks() throws {
        let dir = TemporaryDirectory()
        let real = dir.url.path + "/real"
        try FileManager.default.createDirectory(atPath: real + "/sub", withIntermediateDirectories: true)
        _ = dir.write("real/a.csv", Self.csv)
        _ = dir.write("real/sub/b.csv", Self.csv)
        _ = dir.write("elsewhere.csv", Self.csv)
        let link = dir.url.path + "/link"
        #expect(symlink(real, link) == 0)
        #expect(symlink(real, real + "/sub/loop") == 0) // back to an enclosing folder
        #expect(symlink(dir.url.path + "/elsewhere.csv", real + "/c.csv") == 0)
        #expect(symlink(dir.url.path + "/missing.csv", real + "/broken.csv") == 0)
        let found = try RecordingDiscovery.expand([link])
        #expect(found == ["a.csv", "broken.csv", "c.csv", "sub/b.csv"].map { link + "/" + $0 })
    }

    @Test("--include and --exclude: name patterns, path patterns, both together")
    func filters() throws {
        let dir = TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: dir.url.path + "/week1", withIntermediateDirectories: true)
        for name in ["DATA_01_TYPE01.mat", "DATA_01_TYPE01_BPMtrace.mat", "week1/p1.csv", "p2.csv"] {
            _ = dir.write(name, Self.csv)
        }
        let root = dir.url.path
        let exclude = RecordingDiscovery.Filter(exclude: ["*_BPMtrace.mat"])
        #expect(
            try RecordingDiscovery.expand([root], filter: exclude)
                == ["DATA_01_TYPE01.mat", "p2.csv", "week1/p1.csv"].map { root + "/" + $0 })
        let include = RecordingDiscovery.Filter(include: ["*.csv"])
        #expect(try RecordingDiscovery.expand([root], filter: include) == [root + "/p2.csv", root + "/week1/p1.csv"])
        let path = RecordingDiscovery.Filter(include: ["*.csv"], exclude: ["*/week1/*"])
        #expect(try RecordingDiscovery.expand([root], filter: path) == [root + "/p2.csv"])
        #expect(try RecordingDiscovery.expand([root], filter: RecordingDiscovery.Filter(include: ["*.hea"])).isEmpty)
    }

    @Test("run: a folder whose files are all excluded is 'no recordings' with exit 1, and the message names the filter")
    func runNoRecordings() throws {
        let dir = TemporaryDirectory()
        _ = dir.write("a.csv", Self.csv)
        let r = try SensorPipeProcess.run(["run", dir.url.path, "--exclude", "*.csv", "--out", dir.url.path + "/r.sqlite"])
        #expect(r.status == 1)
        #expect(r.stderr.contains("no recordings found in \(dir.url.path)"))
        #expect(r.stderr.contains("--include/--exclude"))
    }

    @Test("the batch's byte total counts a WFDB record's signal file from the first report on")
    func sizesUpFront() throws {
        let dir = TemporaryDirectory()
        let hea = dir.write("r.hea", "r 1 250 100\nr.dat 16 200 16 0 0 0 0 ECG\n")
        let dat = dir.write("r.dat", [UInt8](repeating: 0, count: 200))
        let other = dir.write("b.csv", Self.csv)
        var reports = [BatchProgress]()
        let store = try BatchDatabase(path: dir.url.path + "/out.sqlite")
        _ = try BatchRunner.run(
            inputs: [RecordingInput(path: hea), RecordingInput(path: other)], store: store,
            options: BatchOptions(jobs: 1, softwareVersion: "test")
        ) { reports.append($0) }
        let size = { (p: String) in (try FileManager.default.attributesOfItem(atPath: p)[.size] as? Int) ?? -1 }
        let expected = try size(hea) + size(dat) + size(other)
        #expect(reports.count == 2)
        #expect(reports.map(\.bytesTotal) == [expected, expected])
        #expect(reports.first?.bytesDone == (try size(hea) + size(dat)))
        #expect(reports.last?.etaSeconds == 0)
    }

    @Test("ETA: skipped recordings take no time and do not make the rate")
    func eta() {
        let o = RecordingOutcome(index: 0, path: "x", status: .skipped, bytes: 900)
        var p = BatchProgress(
            total: 10, done: 1, bytesTotal: 2000, bytesDone: 900, bytesSkipped: 900, elapsedSeconds: 1, latest: o)
        #expect(p.etaSeconds == nil) // nothing read yet: unknown, not 0:00
        p.done = 2
        p.bytesDone = 1000 // 100 bytes read in 2 s
        p.elapsedSeconds = 2
        #expect(p.etaSeconds == 20) // 1000 bytes left at 50 bytes/s
    }

    /// Runs `command` under a pseudo-terminal 40 columns wide (util-linux's `script`); returns what
    /// the terminal received.
    static func underTerminal(_ command: String, status: Int32 = 0) throws -> String {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/script")
        p.arguments = ["-qec", "stty cols 40; " + command, "/dev/null"]
        let out = Pipe()
        p.standardOutput = out
        p.standardError = FileHandle.nullDevice
        p.standardInput = FileHandle.nullDevice
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        #expect(p.terminationStatus == status)
        return String(decoding: data, as: UTF8.self)
    }

    static let haveTerminal = FileManager.default.isExecutableFile(atPath: "/usr/bin/script")

    @Test(
        "the progress bar fits a narrow terminal and redraws on one line (run under a pseudo-terminal)",
        .enabled(if: haveTerminal, "util-linux's /usr/bin/script is absent: no pseudo-terminal to run under"))
    func narrowTerminal() throws {
        let binary = try #require(SensorPipeProcess.binary)
        let dir = TemporaryDirectory()
        // Each its own content (byte-identical inputs are analysed once).
        for i in 0..<3 { _ = dir.write("r\(i).csv", Self.csv + "0.0\(i + 2),\(i)\n") }
        // The files have no known CSV layout: each fails (a FAILED line), so the run exits 1.
        let text = try Self.underTerminal(
            "'\(binary.path)' run '\(dir.url.path)' --jobs 1 --out '\(dir.url.path)/o.sqlite'", status: 1)
        let redraws = text.components(separatedBy: "\r\u{1B}[K").dropFirst().map { $0.components(separatedBy: "\r")[0] }
        let bars = redraws.filter { $0.contains("recordings") }
        #expect(!bars.isEmpty, "no bar drawn: \(text.debugDescription)")
        for bar in bars { #expect(bar.count <= 39, "\(bar.debugDescription) is wider than 39 columns") }
        #expect(bars.last?.contains("3/3 recordings") == true)
    }

    @Test(
        "analyze shows decoding progress on a terminal, on one line that fits, and clears it before its result",
        .enabled(if: haveTerminal, "util-linux's /usr/bin/script is absent: no pseudo-terminal to run under"))
    func analyzeProgress() throws {
        let binary = try #require(SensorPipeProcess.binary)
        let dir = TemporaryDirectory()
        let input = Fixtures.repositoryRoot.appendingPathComponent("Datasets/ecg/watch-1_mitdb100_1716282000.ndjson.gz").path
        let text = try Self.underTerminal(
            "SENSORPIPE_PROGRESS_DELAY_S=0 '\(binary.path)' analyze '\(input)' --out '\(dir.url.path)/a'")
        let redraws = text.components(separatedBy: "\r\u{1B}[K").dropFirst().map { $0.components(separatedBy: "\r")[0] }
        let lines = redraws.filter { $0.hasPrefix("decoded ") }
        #expect(!lines.isEmpty, "no progress drawn: \(text.debugDescription)")
        for line in lines {
            #expect(line.count <= 39, "\(line.debugDescription) is wider than 39 columns")
            #expect(line.contains("M samples"))
        }
        // Cleared: the result line starts on a clean line after the last redraw.
        #expect(redraws.last?.contains(" →") == true, "\(redraws.last.debugDescription)")
        // The result line names the analysis rows per table (an ECG: beats among them).
        #expect(redraws.last?.contains("stream(s); ") == true, "\(redraws.last.debugDescription)")
        #expect(redraws.last?.contains(" beats ") == true, "\(redraws.last.debugDescription)")
        // Not on a terminal: no progress at all.
        let plain = try SensorPipeProcess.run(
            ["analyze", input, "--out", dir.url.path + "/b"], environment: ["SENSORPIPE_PROGRESS_DELAY_S": "0"])
        #expect(!plain.stderr.contains("decoded "))
    }
}

@Suite("File names that are not UTF-8 (issue 15 class 11): found, opened, analysed, named in messages")
struct NonUTF8FileNameTests {
    @Test("FilePathBytes: valid UTF-8 unchanged, other bytes round-trip, messages show \\xNN")
    func roundTrip() {
        #expect(FilePathBytes.decode(Array("é/ü.csv".utf8)) == "é/ü.csv")
        let raw: [UInt8] = [0x72, 0xE9, 0x2E, 0x68, 0x65, 0x61, 0xC3, 0xA9, 0xC3] // r, Latin-1 é, ".hea", UTF-8 é, a cut sequence
        let s = FilePathBytes.decode(raw)
        #expect(FilePathBytes.bytes(s) == raw)
        #expect(FilePathBytes.display(s) == "r\\xE9.heaé\\xC3")
        for b in UInt8(0x80)...UInt8(0xFF) { #expect(FilePathBytes.bytes(FilePathBytes.decode([0x61, b])) == [0x61, b]) }
    }

    /// Creates `folder/<name bytes>` holding `contents` through the byte path (Foundation cannot).
    static func create(_ folder: String, name: [UInt8], contents: Data) throws -> String {
        let path = FilePathBytes.decode(Array(folder.utf8) + [0x2F] + name)
        let fd = FilePathBytes.withCString(path) { open($0, O_WRONLY | O_CREAT | O_TRUNC, 0o644) }
        #expect(fd >= 0)
        _ = contents.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
        return path
    }

    @Test("a recording named with a Latin-1 byte is found in its folder and in a manifest, analysed by run and analyze")
    func analysed() throws {
        let dir = TemporaryDirectory()
        let source = Fixtures.repositoryRoot.appendingPathComponent("Datasets/ecg/watch-1_mitdb100_1716282000.ndjson.gz")
        let name: [UInt8] = Array("patient-".utf8) + [0xE9] + Array(".ndjson.gz".utf8)
        let folder = dir.url.path + "/in"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let path = try Self.create(folder, name: name, contents: Data(contentsOf: source))
        #expect(try RecordingDiscovery.expand([folder]) == [path])
        // A manifest beside the file, listing it by its bytes.
        let listed = try Self.create(folder, name: Array("files.manifest".utf8), contents: Data(name + [0x0A]))
        #expect(try RecordingDiscovery.expand([listed]) == [path])
        // The CLI gets the name as raw bytes through the shell.
        let binary = try #require(SensorPipeProcess.binary)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/sh")
        p.arguments = [
            "-c",
            "cd '\(folder)' && '\(binary.path)' analyze \"$(printf 'patient-\\351.ndjson.gz')\" --out '\(dir.url.path)/a' "
                + "&& '\(binary.path)' run . --out '\(dir.url.path)/r.sqlite' --quiet --json --exclude '*.manifest'",
        ]
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        try p.run()
        let stdout = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        #expect(p.terminationStatus == 0, "\(stderr)")
        #expect(stdout.contains("stream(s); ") && stdout.contains(" beats "), "\(stdout)")
        #expect(stdout.contains("\"ok\":1"), "\(stdout)")
        // A missing file with such a name is named with \xNN in the message.
        let missing = try SensorPipeProcess.run(["analyze", FilePathBytes.decode(Array("/nonexistent/x".utf8) + [0xE9])])
        #expect(missing.stderr.contains("/nonexistent/x\\xE9"), "\(missing.stderr)")
    }
}

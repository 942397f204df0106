import Foundation
import Pipeline
import Recordings
import Testing
import _TestSupport

/// A test family: claims the accelerometer and rotation rate of every device, records what it
/// receives and emits one row per block.
enum ProbeFamily: AnalysisFamily {
    struct Options: Sendable { var sensors: [SensorKind] = [.accelerometer, .rotationRate] }
    static let name = "probe"
    static let summary = "records what it receives"
    static let table = TableSchema<Streamed<Int>>(
        name: "probe_blocks", summary: "samples per block",
        columns: [
            .init("stream", .text, "stream key") { .text($0.stream) },
            .init("samples", .integer, "samples in the block") { .integer($0.value) },
        ])
    static var tables: [ResultTable] { [table.table] }
    static var options: [AnalysisOption<Options>] { [] }
    static var defaultOptions: Options { Options() }
    static func makeAnalyzer(options: Options) -> Analyzer { Analyzer(sensors: options.sensors) }

    struct Analyzer: RecordingAnalyzer {
        let sensors: [SensorKind]
        var names: [Int: String] = [:]
        var issues: [String] = []
        mutating func claim(_ stream: AnnouncedStream) -> Bool {
            guard sensors.contains(stream.info.key.sensor) else { return false }
            names[stream.index] = stream.name + " @ " + (stream.file as NSString).lastPathComponent
            return true
        }
        mutating func consume(_ block: SampleBlock, output: any ResultOutput) throws {
            try output.emit(ProbeFamily.table, Streamed(stream: names[block.stream]!, value: block.count))
        }
        mutating func finish(output: any ResultOutput) throws {}
    }
}

@Suite("Analysis core: recording-level contract, file groups, spool, schemas")
struct AnalysisCoreTests {
    static let fixtures = Fixtures.repositoryRoot.appendingPathComponent("Tests/RecordingsTests/Fixtures/sensorkit")

    /// A folder with one device's accelerometer and rotation rate as two SensorKit files, and an
    /// ECG session of its own.
    func splitFolder() throws -> (dir: TemporaryDirectory, acc: String, rot: String, ecg: String) {
        let dir = TemporaryDirectory()
        let fm = FileManager.default
        let acc = dir.url.appendingPathComponent("p01_accelerometer.ndjson.gz").path
        let rot = dir.url.appendingPathComponent("p01_rotationRate.ndjson").path
        let ecg = dir.url.appendingPathComponent("p01_session.ndjson").path
        try fm.copyItem(atPath: Self.fixtures.appendingPathComponent("accelerometer.ndjson.gz").path, toPath: acc)
        try fm.copyItem(atPath: Self.fixtures.appendingPathComponent("rotation.ndjson").path, toPath: rot)
        try fm.copyItem(atPath: Self.fixtures.appendingPathComponent("ecg.ndjson").path, toPath: ecg)
        return (dir, acc, rot, ecg)
    }

    @Test("the folder rule groups files that differ only by a sensor token; .group manifests name their members")
    func grouping() throws {
        let (dir, acc, rot, ecg) = try splitFolder()
        let found = try RecordingDiscovery.recordings([dir.url.path])
        #expect(found.count == 2)
        #expect(found.contains(RecordingInput(path: acc, files: [acc, rot])))
        #expect(found.contains(RecordingInput(path: ecg)))
        // Not grouped: two sensor tokens, or names that differ by more than the token.
        #expect(RecordingDiscovery.groupKey("/d/accelerometer_ecg.ndjson") == nil)
        #expect(RecordingDiscovery.groupKey("/d/p01_accelerometer.ndjson.gz") == RecordingDiscovery.groupKey("/d/p01_rotationRate.ndjson"))
        #expect(RecordingDiscovery.groupKey("/d/p01_accelerometer.ndjson") != RecordingDiscovery.groupKey("/d/p02_rotationRate.ndjson"))
        #expect(RecordingDiscovery.groupKey("/d/watch-1_mitdb100_1716282000.ndjson.gz") == nil)
        // A group manifest.
        let group = dir.write("both.group", "# one device\np01_rotationRate.ndjson\n\np01_session.ndjson\n")
        let withGroup = try RecordingDiscovery.recordings([dir.url.path])
        #expect(withGroup.contains(RecordingInput(path: group, files: [rot, ecg])))
        #expect(withGroup.contains(RecordingInput(path: acc))) // its partner is taken by the group
        #expect(withGroup.count == 2)
    }

    @Test("a recording of two files: both streams claimed, read side by side in time, accounted per file")
    func twoFiles() throws {
        let folder = try splitFolder()
        defer { withExtendedLifetime(folder.dir) {} }
        let (acc, rot) = (folder.acc, folder.rot)
        let probe = AnalysisFamilyEntry(ProbeFamily.self)
        let sink = MemorySink()
        let s = try RecordingAnalysis.run(
            recording: RecordingInput(path: acc, files: [acc, rot]),
            analysis: AnalysisConfiguration(decode: DecodeOptions(blockCapacity: 50)),
            families: [probe], sink: sink)
        #expect(s.streams == 2)
        #expect(s.streamSummaries.map(\.file) == [acc, rot])
        #expect(s.streamSummaries.allSatisfy { $0.analyses == ["probe"] })
        #expect(s.unbalancedAccounts.isEmpty)
        // Per-file accounts equal decoding each file alone.
        for (k, file) in [acc, rot].enumerated() {
            let alone = try RecordingOpener.open(path: file).decoder
            while try alone.next() != nil {}
            #expect(s.streamSummaries[k].account == alone.accounts[0])
        }
        // Every sample reached the probe once.
        let rows = sink.named("probe_blocks")
        let total = rows.reduce(0) { $0 + (ECGResultsTests.integer($1["samples"]) ?? 0) }
        #expect(total == s.accounts.reduce(0) { $0 + $1.samplesEmitted })
        // Both files were read, interleaved: the rotation file's blocks do not all come after the
        // accelerometer's (which would be file order).
        let order = rows.map { ECGResultsTests.text($0["stream"])!.contains("rotationRate.ndjson") }
        let firstRotation = try #require(order.firstIndex(of: true))
        #expect(order[firstRotation...].contains(false), "rotation blocks came after every accelerometer block")
    }

    @Test("several families may claim the same stream; results do not depend on block size")
    func sharedClaims() throws {
        let folder = try splitFolder()
        defer { withExtendedLifetime(folder.dir) {} }
        let (acc, rot) = (folder.acc, folder.rot)
        let recording = RecordingInput(path: acc, files: [acc, rot])
        func run(_ capacity: Int) throws -> (RecordingAnalysis.Summary, [String: Int]) {
            let sink = MemorySink()
            let s = try RecordingAnalysis.run(
                recording: recording, analysis: AnalysisConfiguration(decode: DecodeOptions(blockCapacity: capacity)),
                families: [AnalysisFamilyEntry(ProbeFamily.self), AnalysisFamilyEntry(ProbeFamily.self)],
                sink: sink)
            var perStream = [String: Int]()
            for r in sink.named("probe_blocks") {
                perStream[ECGResultsTests.text(r["stream"])!, default: 0] += ECGResultsTests.integer(r["samples"])!
            }
            return (s, perStream)
        }
        let (s, whole) = try run(1 << 16)
        #expect(s.streamSummaries.allSatisfy { $0.analyses == ["probe", "probe"] })
        let (_, parts) = try run(7)
        #expect(whole == parts)
        #expect(whole.values.reduce(0, +) == 2 * s.accounts.reduce(0) { $0 + $1.samplesEmitted })
    }

    @Test("StreamAligner releases blocks in time order within its bound, and every block exactly once")
    func aligner() {
        func block(_ stream: Int, _ start: Double, _ n: Int) -> SampleBlock {
            SampleBlock(
                stream: stream, segment: 0, firstSample: 0, time: .uniform(segmentStart: start, sampleRate: 1),
                columns: [Array(repeating: 0, count: n)], flags: Array(repeating: 0, count: n), endsSegment: false)
        }
        // Stream 0 arrives whole first, then stream 1 (file order): 10 blocks of 10 s each.
        var a = StreamAligner(streams: [0, 1], maxLagSeconds: 1000, maxBufferedSamples: 1000)
        var out = [SampleBlock]()
        for k in 0..<10 { a.push(block(0, Double(10 * k), 10), into: &out) }
        #expect(out.isEmpty) // waiting for stream 1
        for k in 0..<10 { a.push(block(1, Double(10 * k) + 5, 10), into: &out) }
        a.finish(into: &out)
        #expect(out.count == 20)
        #expect(zip(out, out.dropFirst()).allSatisfy { $0.time(at: 0) <= $1.time(at: 0) })
        #expect(a.releasedAhead == 0)
        // A stream that never comes: the bound releases the other one, counted.
        var b = StreamAligner(streams: [0, 1], maxLagSeconds: 30, maxBufferedSamples: 1000)
        var out2 = [SampleBlock]()
        for k in 0..<10 { b.push(block(0, Double(10 * k), 10), into: &out2) }
        #expect(out2.count >= 6 && b.releasedAhead == out2.count)
        b.finish(into: &out2)
        #expect(out2.count == 10)
        #expect(zip(out2, out2.dropFirst()).allSatisfy { $0.time(at: 0) <= $1.time(at: 0) })
    }

    @Test("RowSpool: rows come back in order and bit for bit, also after spilling to its file")
    func spool() throws {
        let t1 = ResultTable(
            name: "a", summary: "",
            columns: [
                ResultColumn("x", .real, ""), ResultColumn("s", .text, ""),
                ResultColumn("n", .integer, ""),
            ])
        let t2 = ResultTable(name: "b", summary: "", columns: [ResultColumn("y", .real, "")])
        let spool = RowSpool(memoryBudget: 64)
        var expected = [(String, [ResultValue])]()
        var rng = SystemRandomNumberGenerator()
        for i in 0..<5000 {
            let row: [ResultValue] = [
                .real(Double.random(in: -1e9...1e9, using: &rng)),
                i % 7 == 0 ? .null : .text("é,\"\(i)\"\n" + String(repeating: "x", count: i % 13)),
                .integer(Int.random(in: Int.min...Int.max, using: &rng)),
            ]
            try spool.append(t1, values: row)
            expected.append(("a", row))
            if i % 3 == 0 {
                try spool.append(t2, values: [.real(-.zero)])
                expected.append(("b", [.real(-.zero)]))
            }
        }
        #expect(spool.spilledBytes > 0)
        var got = [(String, [ResultValue])]()
        try spool.forEachRow { t, v in got.append((t.name, v)) }
        #expect(got.count == expected.count)
        #expect(zip(got, expected).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 })
        // -0.0 keeps its sign bit.
        if case .real(let z) = got.first(where: { $0.0 == "b" })!.1[0] { #expect(z.sign == .minus) }
    }

    @Test(
        "SQLite store: a table whose columns differ from the declaration is refused, naming table and column; missing trailing columns are added"
    )
    func signatures() throws {
        let dir = TemporaryDirectory()
        let path = dir.url.appendingPathComponent("r.sqlite").path
        let v1 = ResultTable(name: "demo", summary: "", columns: [ResultColumn("stream", .text, ""), ResultColumn("x", .real, "")])
        _ = try SQLiteResultSink(path: path, tables: [v1])
        // One more column at the end: migrated.
        let v2 = ResultTable(name: "demo", summary: "", columns: v1.columns + [ResultColumn("y", .integer, "")])
        let sink = try SQLiteResultSink(path: path, tables: [v2])
        try sink.begin(recording: "r")
        try sink.write(v2, values: [.text("s"), .real(1), .integer(2)])
        try sink.commit()
        #expect(try sqliteScalar(path, "SELECT y FROM demo") == "2")
        #expect(
            try sqliteScalar(path, "SELECT signature FROM table_signatures WHERE name = 'demo'")
                == "recording_id INTEGER, stream TEXT, x REAL, y INTEGER")
        // A column whose type changed: refused with the table and column named.
        let v3 = ResultTable(
            name: "demo", summary: "",
            columns: [
                ResultColumn("stream", .text, ""), ResultColumn("x", .text, ""),
                ResultColumn("y", .integer, ""),
            ])
        do {
            _ = try SQLiteResultSink(path: path, tables: [v3])
            Issue.record("a changed column type was accepted")
        } catch {
            #expect("\(error)".contains("table demo: column 3 is x REAL in the database, this build declares x TEXT"), "\(error)")
        }
    }
}

import Foundation
import Recordings
import Testing
import _TestSupport

@Suite("CSVDecoder: delimited text with an explicit mapping")
struct CSVDecoderTests {
    typealias Mapping = CSVMapping
    typealias N = CollectedDecode

    func fixture(_ name: String) -> String { Fixtures.url("RecordingsTests", "csv/\(name)").path }

    func decode(_ path: String, _ mapping: Mapping, capacity: Int = 65_536) throws -> (CSVDecoder, CollectedDecode) {
        let d = try CSVDecoder(path: path, mapping: mapping, blockCapacity: capacity)
        let c = try CollectedDecode.decode(d, blockCapacity: capacity)
        #expect(c.problems.isEmpty, "\(c.problems)")
        return (d, c)
    }

    /// The Oxford Step Counter validation layout: no header; ns since boot; m/s².
    static func oxford(startUnix: Double) -> Mapping {
        Mapping(
            deviceID: "samsung-s6",
            time: .column(.index(0), unit: .nanoseconds, origin: .firstSampleAt(unixSeconds: startUnix)),
            streams: [
                .init(
                    sensor: .accelerometer, channel: "acceleration",
                    columns: [
                        .init(.index(1), name: "x", unit: .metresPerSecondSquared),
                        .init(.index(2), name: "y", unit: .metresPerSecondSquared),
                        .init(.index(3), name: "z", unit: .metresPerSecondSquared),
                    ])
            ],
            hasHeaderRow: false)
    }

    /// Compares a decoded Oxford walk with the numbers the fixture script computed with Python.
    func checkOxford(_ c: CollectedDecode, _ e: [String: Any], _ label: String) {
        let s = c.streams[0]
        let qc = c.accounts[0]
        #expect(qc.samplesRead == e["rows"] as! Int, "\(label)")
        #expect(qc.duplicatesDropped == e["duplicates"] as! Int && qc.samplesEmitted == e["emitted"] as! Int, "\(label)")
        #expect(qc.segments == e["segments"] as! Int, "\(label) segments")
        #expect(s.times.first == N.number(e["firstTime"]) && s.times.last == N.number(e["lastTime"]), "\(label)")
        #expect(CollectedDecode.crc32(s.times) == (e["timesCRC32"] as! NSNumber).uintValue, "\(label) times")
        let crc = (e["crc32"] as! [NSNumber]).map(\.uintValue)
        for k in 0..<3 { #expect(CollectedDecode.crc32(s.columns[k]) == crc[k], "\(label) axis \(k)") }
        #expect(s.columns.map(\.first!) == N.numbers(e["first"]).map { Float($0) })
        #expect(s.columns.map(\.last!) == N.numbers(e["last"]).map { Float($0) })
        #expect(s.info.columns.map(\.unit) == [.standardGravity, .standardGravity, .standardGravity])
        #expect(s.info.attributes["x.sourceUnit"] == "m/s^2" && s.info.nominalSampleRate == nil)
        #expect(c.issues.isEmpty, "\(label): \(c.issues.prefix(3))")
    }

    @Test("Oxford excerpt (2000 rows, CC BY 4.0): explicit ns times, m/s² → g, an exact duplicate and a gap")
    func oxfordExcerpt() throws {
        let e = try Fixtures.json("RecordingsTests", "csv/oxford-excerpt-expected.json")
        let (d, c) = try decode(
            fixture("oxford-user1-neckpouch-first2000.csv"),
            Self.oxford(startUnix: N.number(e["startUnix"])))
        #expect(d.delimiter == .comma && d.columnNames.isEmpty)
        checkOxford(c, e, "excerpt")
        #expect(c.accounts[0].gaps == 1 && c.accounts[0].duplicatesDropped == 1)
        let rate = try #require(c.accounts[0].measuredSampleRate)
        #expect(rate > 95 && rate < 105)
    }

    @Test("semicolons, decimal commas, quoted fields across lines, missing cells, deg/s → rad/s")
    func semicolonComma() throws {
        let mapping = Mapping(
            deviceID: "logger",
            time: .column(.name("timestamp_ms"), unit: .milliseconds, origin: .unixEpoch),
            streams: [
                .init(
                    sensor: .accelerometer, channel: "acceleration",
                    columns: [
                        .init(.name("acc_x"), name: "x", unit: .standardGravity),
                        .init(.name("acc_y"), name: "y", unit: .standardGravity),
                        .init(.name("acc_z"), name: "z", unit: .standardGravity),
                    ]),
                .init(
                    sensor: .rotationRate, channel: "rotationRate",
                    columns: [
                        .init(.name("gyro_x"), name: "x", unit: .degreesPerSecond),
                        .init(.name("gyro_y"), name: "y", unit: .degreesPerSecond),
                        .init(.name("gyro_z"), name: "z", unit: .degreesPerSecond),
                    ]),
            ],
            decimalSeparator: .comma, skipLines: 2)
        let (d, c) = try decode(fixture("synthetic-semicolon-comma.csv"), mapping)
        #expect(d.delimiter == .semicolon)
        #expect(d.columnNames == ["timestamp_ms", "acc_x", "acc_y", "acc_z", "gyro_x", "gyro_y", "gyro_z", "note"])
        #expect(c.issues.isEmpty)
        let acc = c.streams[0], gyro = c.streams[1]
        #expect(acc.times == [1_700_000_000, 1_700_000_000.02, 1_700_000_000.04, 1_700_000_000.061])
        #expect(acc.columns[0] == [0.01, 0.02, 0.03, 0.04])
        #expect(acc.columns[2][1].isNaN && acc.columns[2][3] == 0.08)
        #expect(acc.flags == [0, SampleFlags.missing.rawValue, 0, 0])
        let rad = { (deg: Double) in Float(deg * Double.pi / 180) }
        #expect(gyro.columns[1] == [rad(-20.5), rad(-20), rad(-19.5), rad(-19)])
        #expect(gyro.columns[0][2].isNaN && gyro.flags == [0, 0, SampleFlags.missing.rawValue, 0])
        #expect(gyro.info.columns.map(\.unit) == [.radiansPerSecond, .radiansPerSecond, .radiansPerSecond])
        #expect(gyro.info.attributes["y.sourceUnit"] == "deg/s" && acc.info.attributes["x.sourceUnit"] == nil)
        #expect(c.accounts.allSatisfy { $0.samplesRead == 4 && $0.samplesEmitted == 4 && $0.segments == 1 })
        #expect(c.accounts.map(\.masked) == [1, 1])
    }

    @Test("tab-separated, no time column: uniform time base; a bad row starts a new segment on the grid")
    func tabUniform() throws {
        let mapping = Mapping(
            deviceID: "phone", time: .sampleRate(30, startUnix: 1_600_000_000),
            streams: [
                .init(
                    sensor: .photoplethysmogram, channel: "camera",
                    columns: [
                        .init(.name("red"), name: "red", unit: .dimensionless),
                        .init(.name("green"), name: "green", unit: .dimensionless),
                    ])
            ])
        let (d, c) = try decode(fixture("synthetic-tab-uniform.csv"), mapping)
        #expect(d.delimiter == .tab && d.columnNames == ["red", "green"])
        let s = c.streams[0]
        #expect(s.columns[0] == [1.5, 1.6, 1.8, 1.9])
        #expect(s.columns[1][3].isNaN && s.flags == [0, 0, 0, SampleFlags.missing.rawValue])
        #expect(s.segments == [0, 0, 1, 1])
        let t0 = 1_600_000_000.0
        let want = [t0, t0 + 1 / 30.0, t0 + 3 / 30.0, t0 + 4 / 30.0]
        #expect(zip(s.times, want).allSatisfy { abs($0 - $1) < 1e-6 }, "\(s.times.map { $0 - t0 })") // ulp(1.6e9) = 2.4e-7
        #expect(s.info.nominalSampleRate == 30)
        #expect(c.issues.map(\.message) == ["column 'red': expected a number, found 'bad'; sample of camera skipped"])
        #expect(c.issues.first?.line == 4 && c.issues.first?.column == 1)
        #expect(c.accounts[0].rejected == 1 && c.accounts[0].gaps == 1)
    }

    @Test("delimiter detection prefers tab and ';' over ',' (a decimal comma)")
    func delimiterDetection() throws {
        let dir = TemporaryDirectory()
        let mapping = Mapping(
            deviceID: "d", time: .sampleRate(1, startUnix: 0),
            streams: [
                .init(
                    sensor: .accelerometer, channel: "a",
                    columns: [.init(.index(1), name: "v", unit: .standardGravity)])
            ],
            hasHeaderRow: false, decimalSeparator: .comma)
        func detected(_ text: String) throws -> Mapping.Delimiter {
            try CSVDecoder(path: dir.write("f\(text.count).csv", text), mapping: mapping).delimiter
        }
        #expect(try detected("1,5;2,5\n1,6;2,6\n") == .semicolon)
        #expect(try detected("1,5\t2,5\n1,6\t2,6\n") == .tab)
        #expect(try detected("1,5,2\n1,6,3\n") == .comma)
        #expect(try detected("\"a;b\",1\n\"c;d\",2\n") == .comma) // quotes respected
    }

    @Test("time units and origins: integer µs with an offset, fractional seconds from a known start")
    func timeUnits() throws {
        let dir = TemporaryDirectory()
        func times(_ text: String, _ unit: Mapping.TimeUnit, _ origin: Mapping.TimeOrigin) throws -> [Double] {
            let mapping = Mapping(
                deviceID: "d", time: .column(.name("t"), unit: unit, origin: origin),
                streams: [
                    .init(
                        sensor: .accelerometer, channel: "a",
                        columns: [.init(.name("v"), name: "v", unit: .standardGravity)])
                ])
            return try decode(dir.write("t\(text.count).csv", text), mapping).1.streams[0].times
        }
        #expect(try times("t,v\n1000000,1\n1020000,2\n", .microseconds, .offset(seconds: 1e9)) == [1e9 + 1, 1e9 + 1.02])
        #expect(try times("t,v\n12.5,1\n12.52,2\n", .seconds, .firstSampleAt(unixSeconds: 100)) == [100, 100 + (12.52 - 12.5)])
        #expect(try times("t,v\n1700000000123,1\n", .milliseconds, .unixEpoch) == [1_700_000_000.123])
    }

    @Test("a column index beyond the first row of a header-less file is a clear error")
    func indexBeyondFirstRow() throws {
        let dir = TemporaryDirectory()
        let path = dir.write("short.csv", "1,2,3\n4,5,6\n")
        let mapping = Mapping(
            deviceID: "d", time: .sampleRate(1, startUnix: 0),
            streams: [
                .init(
                    sensor: .accelerometer, channel: "a",
                    columns: [.init(.index(3), name: "v", unit: .standardGravity)])
            ],
            hasHeaderRow: false)
        do {
            _ = try CollectedDecode.decode(try CSVDecoder(path: path, mapping: mapping))
            Issue.record("expected an error")
        } catch let e as RecordingError {
            #expect(e.description == "\(path):1: out-of-range: column #3 (0-based) requested, but the first row has 3 fields")
        }
    }

    @Test("decode-chunked equals decode-whole", arguments: [1, 7, 1000])
    func chunked(capacity: Int) throws {
        let e = try Fixtures.json("RecordingsTests", "csv/oxford-excerpt-expected.json")
        let oxford = Self.oxford(startUnix: N.number(e["startUnix"]))
        let uniform = Mapping(
            deviceID: "phone", time: .sampleRate(30, startUnix: 0),
            streams: [
                .init(
                    sensor: .photoplethysmogram, channel: "camera",
                    columns: [
                        .init(.name("red"), name: "red", unit: .dimensionless),
                        .init(.name("green"), name: "green", unit: .dimensionless),
                    ])
            ])
        for (file, mapping) in [("oxford-user1-neckpouch-first2000.csv", oxford), ("synthetic-tab-uniform.csv", uniform)] {
            let (_, whole) = try decode(fixture(file), mapping)
            let (_, part) = try decode(fixture(file), mapping, capacity: capacity)
            #expect(CollectedDecode.differences(whole, part) == 0, "\(file) at capacity \(capacity)")
        }
    }

    @Test("the bad-input corpus gives the expected errors")
    func badInputs() throws {
        let mapping = Mapping(
            deviceID: "d", time: .column(.name("time"), unit: .seconds, origin: .unixEpoch),
            streams: [
                .init(
                    sensor: .accelerometer, channel: "acceleration",
                    columns: [
                        .init(.name("x"), name: "x", unit: .standardGravity),
                        .init(.name("y"), name: "y", unit: .standardGravity),
                        .init(.name("z"), name: "z", unit: .standardGravity),
                    ])
            ])
        try BadInputCorpus.check(folder: "csv") { path in try CSVDecoder(path: path, mapping: mapping) }
    }

    // MARK: - Real data (skipped when ../shared/datasets is absent)

    @Test(
        "Oxford Step Counter validation: all 12 walks as NumPy reads them",
        .enabled(if: Fixtures.sharedDatasets != nil && FileManager.default.isExecutableFile(atPath: "/usr/bin/xz")))
    func oxfordAll() throws {
        let folder = try #require(Fixtures.sharedDatasets).appendingPathComponent("oxford-step-counter-validation")
        let expected = try Fixtures.json("RecordingsTests", "csv/oxford-expected.json")
        #expect(expected.count == 12)
        let dir = TemporaryDirectory()
        for (name, value) in expected.sorted(by: { $0.key < $1.key }) {
            let e = value as! [String: Any]
            let copy = dir.url.appendingPathComponent(name)
            try FileManager.default.copyItem(at: folder.appendingPathComponent(name), to: copy)
            let xz = Process()
            xz.executableURL = URL(fileURLWithPath: "/usr/bin/xz")
            xz.arguments = ["-dk", copy.path]
            try xz.run()
            xz.waitUntilExit()
            #expect(xz.terminationStatus == 0)
            let csv = copy.deletingPathExtension().path
            let (_, c) = try decode(csv, Self.oxford(startUnix: N.number(e["startUnix"])))
            checkOxford(c, e, name)
        }
    }
}

import Foundation
import Recordings
import Testing
import _TestSupport

/// CSV mappings from the command line (`--csv-time`, `--csv-column`), the CLI's message for a CSV
/// of unknown layout, and the Empatica E4 presets.
@Suite struct CSVColumnOptionsTests {
    static func write(_ name: String, _ text: String) throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("csvcolumns-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let path = dir.appendingPathComponent(name).path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func timeSpecs() throws {
        #expect(
            try CSVColumnOptions.parseTime("timestamp,ms").get() == .column(.name("timestamp"), unit: .milliseconds, origin: .unixEpoch))
        #expect(try CSVColumnOptions.parseTime("#0,ns,first").get() == .column(.index(0), unit: .nanoseconds, origin: .sinceFirstSample))
        #expect(try CSVColumnOptions.parseTime("t").get() == .column(.name("t"), unit: .seconds, origin: .unixEpoch))
        #expect(
            try CSVColumnOptions.parseTime("t,s,offset=3600").get() == .column(.name("t"), unit: .seconds, origin: .offset(seconds: 3600)))
        #expect(
            try CSVColumnOptions.parseTime("t,s,first=1700000000").get()
                == .column(.name("t"), unit: .seconds, origin: .firstSampleAt(unixSeconds: 1.7e9)))
        #expect(try CSVColumnOptions.parseTime("t,ms,local").get() == .column(.name("t"), unit: .milliseconds, origin: .deviceLocalClock))
        #expect(try CSVColumnOptions.parseTime("rate=50").get() == .sampleRate(50, startUnix: nil))
        #expect(try CSVColumnOptions.parseTime("rate=64,start=1495437335").get() == .sampleRate(64, startUnix: 1_495_437_335))
        for (bad, says) in [
            ("t,minutes", "time unit 'minutes'"), ("rate=0", "HZ > 0"), ("t,s,yesterday", "origin 'yesterday'"), ("", "expected COLUMN"),
        ] {
            guard case .failure(let e) = CSVColumnOptions.parseTime(bad) else {
                Issue.record("'\(bad)' accepted")
                continue
            }
            #expect(e.description.contains(says), "\(bad): \(e)")
        }
    }

    @Test func columnSpecs() throws {
        let x = try CSVColumnOptions.parseColumn("acc.x=ax,mg").get()
        #expect(x.sensor == .accelerometer && x.name == "x" && x.source == .name("ax") && x.unit == .gravityCounts(perG: 1000))
        let g = try CSVColumnOptions.parseColumn("gyro.z=#5,deg/s").get()
        #expect(g.sensor == .rotationRate && g.source == .index(5) && g.unit == .degreesPerSecond)
        let e = try CSVColumnOptions.parseColumn("ecg.I=Lead I").get()
        #expect(e.sensor == .electrocardiogram && e.name == "I" && e.source == .name("Lead I") && e.unit == .microvolts)
        for (bad, says) in [
            ("foo.x=a", "sensor 'foo'"), ("acc.x=a,furlongs", "unit 'furlongs'"), ("acc=a", "SENSOR.NAME"), ("acc.x=", "no COLUMN"),
        ] {
            guard case .failure(let err) = CSVColumnOptions.parseColumn(bad) else {
                Issue.record("'\(bad)' accepted")
                continue
            }
            #expect(err.description.contains(says), "\(bad): \(err)")
        }
    }

    @Test func commandLineMappingDecodes() throws {
        let path = try Self.write("wrist.csv", "time_ms,ax,ay,az,ppg\n1000,1000,0,-500,0.5\n1020,0,2000,0,0.6\n1040,x,0,0,0.7\n")
        var o = CSVColumnOptions()
        o.time = try CSVColumnOptions.parseTime("time_ms,ms").get()
        for s in ["acc.x=ax,mg", "acc.y=ay,mg", "acc.z=az,mg", "ppg.green=ppg"] {
            o.columns.append(try CSVColumnOptions.parseColumn(s).get())
        }
        var options = DecodeOptions()
        options.csvColumns = o
        let opened = try RecordingOpener.open(path: path, options: options)
        let c = try CollectedDecode.decode(opened.decoder)
        #expect(c.problems.isEmpty, "\(c.problems)")
        #expect(
            c.streams.map(\.info.key) == [
                StreamKey(deviceID: "wrist", sensor: .accelerometer, channel: "acceleration"),
                StreamKey(deviceID: "wrist", sensor: .photoplethysmogram, channel: "green"),
            ])
        let acc = c.streams[0]
        #expect(acc.columns[0].prefix(2) == [1, 0]) // mg → g
        #expect(acc.columns[2].prefix(2) == [-0.5, 0])
        #expect(acc.times.prefix(2) == [1.0, 1.02])
        // The bad value names its line and column.
        let issue = try #require(c.issues.first)
        #expect(issue.line == 4 && issue.column == 6, "\(issue)")
    }

    @Test func missingPartsAreNamed() throws {
        var o = CSVColumnOptions()
        o.columns.append(try CSVColumnOptions.parseColumn("acc.x=ax").get())
        #expect(throws: RecordingError.self) { try o.mapping(path: "a.csv") }
        do {
            _ = try o.mapping(path: "a.csv")
        } catch {
            #expect(error.description.contains("without --csv-time"))
        }
        o.time = .sampleRate(50, startUnix: nil)
        o.hasHeaderRow = false
        do {
            _ = try o.mapping(path: "a.csv")
            Issue.record("a named column without a header row was accepted")
        } catch {
            #expect(error.description.contains("--csv-no-header"))
        }
    }

    @Test func unknownLayoutSaysHowToMapIt() throws {
        let path = try Self.write("mystery.csv", "a,b,c\n1,2,3\n")
        do {
            _ = try RecordingOpener.open(path: path)
            Issue.record("opened without a mapping")
        } catch {
            #expect(error.description.contains("--csv-time COLUMN"), "\(error)")
            #expect(error.description.contains("--csv-mapping FILE"), "\(error)")
            #expect(!error.description.contains("give a column mapping"))
        }
    }

    /// Empatica E4 `ACC.csv` as the E4's `info.txt` documents it: start time row, rate row, then
    /// x, y, z in 1/64 g at 32 Hz.
    @Test func empaticaE4Accelerometer() throws {
        let path = try Self.write(
            "ACC.csv", "1495437335.000000, 1495437335.000000, 1495437335.000000\n32.000000, 32.000000, 32.000000\n-7,-21,60\n64,0,-64\n")
        let opened = try RecordingOpener.open(path: path)
        #expect(opened.preset == .empaticaE4ACC && opened.presetDetected)
        let c = try CollectedDecode.decode(opened.decoder)
        #expect(c.problems.isEmpty, "\(c.problems)")
        let s = try #require(c.streams.first)
        #expect(s.columns[0] == [Float(-7.0 / 64), 1])
        #expect(s.columns[2] == [Float(60.0 / 64), -1])
        #expect(s.times == [1_495_437_335, 1_495_437_335 + 1.0 / 32])
    }

    @Test func empaticaE4BVP() throws {
        let path = try Self.write("BVP.csv", "1495437335.000000\n64.000000\n0.00\n-1.25\n3.5\n")
        let opened = try RecordingOpener.open(path: path)
        #expect(opened.preset == .empaticaE4BVP)
        let c = try CollectedDecode.decode(opened.decoder)
        #expect(c.streams.first?.info.key.sensor == .photoplethysmogram)
        #expect(c.streams.first?.columns[0] == [0, -1.25, 3.5])
        #expect(c.streams.first?.times.last == 1_495_437_335 + 2.0 / 64)
    }
}

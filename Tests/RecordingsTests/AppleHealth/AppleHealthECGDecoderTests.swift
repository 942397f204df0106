import Foundation
import Recordings
import Testing
import _TestSupport

@Suite("AppleHealthECGDecoder: Health app ECG CSV exports")
struct AppleHealthECGDecoderTests {
    func fixture(_ name: String) -> String { Fixtures.url("RecordingsTests", "health/\(name)").path }

    func decode(
        _ path: String, capacity: Int = 65_536,
        fieldNames: [String: AppleHealthECGDecoder.Field] = [:]
    ) throws -> (AppleHealthECGDecoder, CollectedDecode) {
        let d = try AppleHealthECGDecoder(path: path, blockCapacity: capacity, fieldNames: fieldNames)
        let c = try CollectedDecode.decode(d, blockCapacity: capacity)
        #expect(c.problems.isEmpty, "\(c.problems)")
        return (d, c)
    }

    @Test("English export with RFC 4180 quoting, CRLF line ends and a 512.508 Hz rate")
    func englishQuoted() throws {
        let (d, c) = try decode(fixture("synthetic-english-quoted.csv"))
        #expect(d.header[.name] == "Doe, Jane")
        #expect(d.header[.dateOfBirth] == "Jan 2, 1990")
        #expect(d.header[.symptoms] == "Dizziness, \"light\" headache")
        #expect(d.header[.device] == "Watch7,3")
        #expect(d.header[.classification] == "Inconclusive")
        #expect(d.sampleRate == 512.508 && d.unit == .microvolts)
        #expect(d.startUnix == 1_709_710_170) // 2024-03-05 23:59:30 -0730 (Python datetime)
        #expect(
            c.devices == [
                DeviceInfo(
                    id: "apple-watch", name: "Apple Watch", model: "Watch", systemName: "watchOS",
                    productType: "Watch7,3")
            ])
        let s = try #require(c.streams.first)
        #expect(
            s.info.key
                == StreamKey(
                    deviceID: "apple-watch", sensor: .electrocardiogram, channel: "ecg",
                    session: "2024-03-05 23:59:30 -0730"))
        #expect(s.info.attributes["softwareVersion"] == "2.0" && s.info.attributes["lead"] == "Lead I")
        #expect(s.info.attributes["sampleRate"] == "512.508 hertz" && s.info.attributes["unit"] == "µV")
        #expect(s.info.nominalSampleRate == 512.508)
        #expect(s.columns[0] == [12.5, -3.25, 1083.72, 0, -0.001, -2161.73, 7, 0.5, -0.75, 44.125])
        #expect(s.times[0] == 1_709_710_170 && abs(s.times[9] - (1_709_710_170 + 9 / 512.508)) < 1e-9)
        #expect(c.issues.isEmpty && c.accounts[0].segments == 1 && c.accounts[0].samplesRead == 10)
    }

    @Test("decimal commas in values and in an unquoted rate ('Sample Rate,512,508 hertz')")
    func decimalComma() throws {
        let (d, c) = try decode(fixture("synthetic-decimal-comma.csv"))
        #expect(d.sampleRate == 512.508)
        #expect(d.header[.sampleRate] == "512,508 hertz")
        #expect(d.startUnix == 1_700_464_500) // 2023-11-20 08:15:00 +0100
        #expect(c.streams[0].columns[0] == [27.648, -1.5, -0.25, 1083.72, 0, 3])
        #expect(c.issues.isEmpty)
    }

    @Test("unknown header keys: date, rate and unit recognised by their values; aliases map the rest")
    func unknownKeys() throws {
        let (d, c) = try decode(fixture("synthetic-unknown-keys.csv"))
        #expect(d.sampleRate == 512.508 && d.startUnix == 1_654_070_400 && d.unit == .microvolts)
        #expect(d.header[.recordedDate] == "2022-06-01 10:00:00 +02:00")
        #expect(d.header[.classification] == "Rythme sinusal") // same key as in English
        #expect(d.header[.device] == nil && d.header[.lead] == nil)
        #expect(d.otherHeaderLines["Appareil"] == "Watch6,1")
        #expect(c.streams[0].columns[0] == [-10.5, 20.25, -0.125])
        let (e, _) = try decode(
            fixture("synthetic-unknown-keys.csv"),
            fieldNames: ["appareil": .device, "Dérivation": .lead, "Symptômes": .symptoms])
        #expect(e.header[.device] == "Watch6,1" && e.header[.lead] == "Dérivation I" && e.header[.symptoms] == "")
        #expect(e.otherHeaderLines["Appareil"] == nil)
    }

    @Test("gzip-compressed export decodes identically")
    func gzipped() throws {
        let dir = TemporaryDirectory()
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: fixture("synthetic-english-quoted.csv"))))
        let gz = dir.write("ecg.csv.gz", gzip(bytes))
        let (_, a) = try decode(fixture("synthetic-english-quoted.csv"))
        let (_, b) = try decode(gz)
        #expect(CollectedDecode.differences(a, b) == 0)
    }

    @Test("a bad line costs one rejected sample and starts a new segment on the true time grid")
    func badLineKeepsTime() throws {
        let (_, c) = try decode(Fixtures.url("RecordingsTests", "bad/health/bad-number.csv").path)
        let s = c.streams[0]
        #expect(s.columns[0] == [27.648, 26.053, 24.462, 22.867, 21.255])
        #expect(s.segments == [0, 0, 1, 1, 1])
        let start = 1_639_717_138.0 // 2021-12-17 12:58:58 +0800
        #expect(abs(s.times[2] - (start + 3 / 513.625)) < 1e-9) // the 4th line: index 3
        #expect(abs(s.times[4] - (start + 5 / 513.625)) < 1e-9)
    }

    @Test("the bad-input corpus gives the expected errors")
    func badInputs() throws {
        try BadInputCorpus.check(folder: "health") { path in try AppleHealthECGDecoder(path: path) }
    }

    @Test("decode-chunked equals decode-whole", arguments: [1, 7, 1000])
    func chunked(capacity: Int) throws {
        var paths = [fixture("synthetic-english-quoted.csv"), Fixtures.url("RecordingsTests", "bad/health/bad-number.csv").path]
        if let root = Fixtures.sharedDatasets {
            paths.append(root.appendingPathComponent("apple-watch-ecg/ecg_2023-09-26.csv").path)
        }
        for path in paths {
            let (_, whole) = try decode(path)
            let (_, part) = try decode(path, capacity: capacity)
            #expect(CollectedDecode.differences(whole, part) == 0, "\(path) at capacity \(capacity)")
        }
    }

    // MARK: - Real exports (skipped when ../shared/datasets is absent)

    @Test(
        "six real Apple Watch exports: counts, durations, start times and values as Python reads them",
        .enabled(if: Fixtures.sharedDatasets != nil))
    func realExports() throws {
        let root = try #require(Fixtures.sharedDatasets).appendingPathComponent("apple-watch-ecg")
        let expected = try Fixtures.json("RecordingsTests", "health/apple-watch-expected.json")
        // SOURCE.md's table: samples and duration (s) per file.
        let table: [String: (Int, Double)] = [
            "ecg_2021-12-17.csv": (15409, 30.0), "ecg_2023-07-04.csv": (14528, 28.3), "ecg_2023-09-26.csv": (13360, 26.1),
            "ecg_2023-09-28.csv": (15375, 30.0), "ecg_2023-10-03.csv": (15375, 30.0), "ecg_2024-01-24.csv": (15375, 30.0),
        ]
        #expect(expected.count == 6)
        for (file, (count, duration)) in table {
            let e = try #require(expected[file] as? [String: Any])
            let (d, c) = try decode(root.appendingPathComponent(file).path)
            let s = try #require(c.streams.first)
            let values = s.columns[0]
            #expect(values.count == count && (e["count"] as! Int) == count, "\(file)")
            #expect(abs(Double(count) / d.sampleRate - duration) < 0.05, "\(file)")
            #expect(d.sampleRate == CollectedDecode.number(e["sampleRate"]))
            #expect(d.startUnix == CollectedDecode.number(e["startUnix"]) && s.times.first == d.startUnix, "\(file)")
            #expect(abs(s.times[count - 1] - (d.startUnix + Double(count - 1) / d.sampleRate)) < 1e-9)
            #expect(Array(values.prefix(3)) == CollectedDecode.numbers(e["first"]).map { Float($0) }, "\(file)")
            #expect(values.last == Float(CollectedDecode.number(e["last"])))
            #expect(CollectedDecode.crc32(values) == (e["crc32"] as! NSNumber).uintValue, "\(file) checksum")
            #expect(d.header[.classification] == (e["classification"] as! String))
            #expect(d.header[.device] == "Watch5,1" && d.header[.lead] == "Lead I" && d.unit == .microvolts)
            #expect(c.issues.isEmpty && c.accounts[0].segments == 1 && c.accounts[0].rejected == 0)
            #expect(try RecordingFormat.sniff(path: root.appendingPathComponent(file).path) == .appleHealthECG)
        }
    }
}

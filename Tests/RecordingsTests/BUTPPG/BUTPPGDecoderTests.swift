import Foundation
import Recordings
import Testing
import _TestSupport

@Suite("BUTPPGDecoder: BUT PPG export (myData.csv layout)")
struct BUTPPGDecoderTests {
    typealias N = CollectedDecode

    static func fixture(_ name: String) -> String { Fixtures.url("RecordingsTests", "butppg/\(name)").path }
    static var realPath: String? {
        Fixtures.sharedDatasets.map { $0.appendingPathComponent("butppg-subset/myData.csv").path }
    }

    static func decode(_ path: String, capacity: Int = 65_536) throws -> (BUTPPGDecoder, CollectedDecode) {
        let d = try BUTPPGDecoder(path: path, blockCapacity: capacity)
        let c = try CollectedDecode.decode(d, blockCapacity: capacity)
        return (d, c)
    }

    /// Compares every record with the values Python computed (see scripts/make-gt3x-butppg-fixtures.py).
    static func check(_ c: CollectedDecode, _ expected: [String: Any], _ label: String) {
        #expect(c.problems.isEmpty, "\(label): \(c.problems)")
        #expect(c.issues.isEmpty, "\(label): \(c.issues.prefix(3))")
        #expect(c.devices.map(\.id) == ["but-ppg"])
        let records = expected["records"] as? [[String: Any]] ?? []
        #expect(c.streams.count == records.count, "\(label)")
        for (s, e) in zip(c.streams, records) {
            let id = e["id"] as? String ?? ""
            let key = s.info.key
            #expect(key == StreamKey(deviceID: "but-ppg", sensor: .photoplethysmogram, channel: "camera", session: id))
            #expect(s.info.columns == [ColumnInfo(name: "value", unit: .dimensionless)])
            #expect(s.info.nominalSampleRate == 30)
            let a = s.info.attributes
            #expect(a["butppg.RefHR"] == e["RefHR"] as? String && a["butppg.RefHR.unit"] == "bpm", "\(id)")
            #expect(a["butppg.Location"] == e["Location"] as? String && a["butppg.Motion"] == e["Motion"] as? String)
            #expect(a["butppg.Quality"] == e["Quality"] as? String, "\(id)")
            #expect(a["butppg.Quality.meaning"] == (e["Quality"] as? String == "1" ? "good" : "poor"))
            #expect(s.times.count == e["count"] as? Int, "\(id)")
            #expect(Set(s.segments).count == e["segments"] as? Int, "\(id) segments")
            #expect(s.columns[0].first == Float(N.number(e["firstValue"])) && s.columns[0].last == Float(N.number(e["lastValue"])))
            #expect(s.times.first == N.number(e["firstTime"]) && s.times.last == N.number(e["lastTime"]), "\(id)")
            #expect(N.crc32(s.columns[0]) == (e["valuesCRC32"] as? NSNumber)?.uintValue, "\(id) values")
            #expect(N.crc32(s.times) == (e["timesCRC32"] as? NSNumber)?.uintValue, "\(id) times")
            #expect(s.flags.allSatisfy { $0 == 0 })
        }
        for qc in c.accounts {
            #expect(qc.isBalanced && qc.rejected == 0 && qc.duplicatesDropped == 0 && qc.masked == 0)
        }
    }

    @Test("3-row excerpt (CC BY 4.0): values, times, attributes and QC match Python's reading")
    func excerpt() throws {
        let (d, c) = try Self.decode(Self.fixture("myData-excerpt.csv"))
        #expect(d.columnNames == BUTPPGDecoder.requiredColumns && d.rejectedRows == 0)
        Self.check(c, try Fixtures.json("RecordingsTests", "butppg/myData-excerpt-expected.json"), "excerpt")
        // Record 100001 is a first-version record: 300 times from 0 to 10 s in equal steps of 10/299 s.
        let first = try #require(c.streams.first)
        #expect(first.times.last == 10 && abs(first.times[1] - 10.0 / 299) < 1e-6)
        #expect(first.info.attributes["butppg.Location.meaning"] == "finger")
        #expect(c.streams[1].info.attributes["butppg.Motion"] == "8")
    }

    @Test(
        "the real myData.csv: 51 records × 300 samples, 37 good / 14 poor, all values as Python reads them",
        .enabled(if: BUTPPGDecoderTests.realPath != nil))
    func realFile() throws {
        let path = try #require(Self.realPath)
        let (d, c) = try Self.decode(path)
        Self.check(c, try Fixtures.json("RecordingsTests", "butppg/myData-expected.json"), "myData.csv")
        #expect(c.streams.count == 51 && d.rejectedRows == 0)
        #expect(c.accounts.allSatisfy { $0.samplesRead == 300 && $0.samplesEmitted == 300 && $0.segments == 1 })
        let quality = c.streams.map { $0.info.attributes["butppg.Quality"] ?? "" }
        #expect(quality.filter { $0 == "1" }.count == 37 && quality.filter { $0 == "0" }.count == 14)
        let location = c.streams.map { $0.info.attributes["butppg.Location"] ?? "" }
        #expect(location.filter { $0 == "1" }.count == 48 && location.filter { $0 == "0" }.count == 3)
        let motion = c.streams.map { $0.info.attributes["butppg.Motion"] ?? "" }
        #expect(
            motion.filter { $0 == "0" }.count == 38 && motion.filter { $0 == "8" }.count == 12
                && motion.filter { $0 == "7" }.count == 1)
        #expect(c.streams.first?.info.key.session == "100001" && c.streams.last?.info.key.session == "112096")
        #expect(try RecordingFormat.sniff(path: path) == .butPPG)
    }

    @Test("decode-chunked equals decode-whole (block capacity 1, 7, 1000, 65536)", arguments: [1, 7, 1000])
    func chunked(capacity: Int) throws {
        for path in [Self.fixture("myData-excerpt.csv")] + (Self.realPath.map { [$0] } ?? []) {
            let (_, whole) = try Self.decode(path, capacity: 65_536)
            let (_, parts) = try Self.decode(path, capacity: capacity)
            #expect(parts.problems.isEmpty, "\(parts.problems)")
            #expect(CollectedDecode.differences(whole, parts) == 0, "\(path) capacity \(capacity)")
        }
    }

    @Test("a value written NaN is kept as a missing (masked) sample; gzip input reads the same")
    func missingAndGzip() throws {
        let dir = TemporaryDirectory()
        let text =
            "ID RefHR Location Motion Quality Signal Time\r\n"
            + "7 61 0 3 0 \"1.5 NaN 2.5\" \"0 0.0333 0.0667\"\r\n\r\n"
        let plain = dir.write("x.csv", text)
        let zipped = dir.write("x.csv.gz", gzip(Array(text.utf8)))
        let (_, a) = try Self.decode(plain)
        let (_, b) = try Self.decode(zipped)
        #expect(a.problems.isEmpty && a.issues.isEmpty)
        let s = try #require(a.streams.first)
        #expect(s.columns[0][0] == 1.5 && s.columns[0][1].isNaN && s.columns[0][2] == 2.5)
        #expect(s.flags == [0, SampleFlags.missing.rawValue, 0])
        #expect(s.times == [0, 0.0333, 0.0667] && s.segments == [0, 0, 0])
        let qc = try #require(a.accounts.first)
        #expect(qc.samplesRead == 3 && qc.samplesEmitted == 3 && qc.masked == 1 && qc.used == 2 && qc.isBalanced)
        #expect(s.info.attributes["butppg.Location.meaning"] == "ear" && s.info.attributes["butppg.Motion.meaning"] == "walking")
        #expect(CollectedDecode.differences(a, b) == 0)
    }

    @Test("sniffing: the header line selects .butPPG, before the generic CSV rule")
    func sniff() throws {
        #expect(try RecordingFormat.sniff(path: Self.fixture("myData-excerpt.csv")) == .butPPG)
        #expect(RecordingFormat.butPPG.rawValue == "but-ppg-csv")
        let dir = TemporaryDirectory()
        let other = dir.write("y.csv", "ID,RefHR,Location\n1,2,3\n")
        #expect(try RecordingFormat.sniff(path: other) == .csv)
    }

    @Test("bad-input corpus (Fixtures/bad/butppg): errors, issues, QC and rejected rows as expected.json says")
    func badInputs() throws {
        try BadInputCorpus.check(folder: "butppg") { try BUTPPGDecoder(path: $0) }
        let expected = try Fixtures.json("RecordingsTests", "bad/butppg/expected.json")
        let dir = Fixtures.url("RecordingsTests", "bad/butppg")
        var checked = 0
        for (name, entry) in expected {
            guard let e = entry as? [String: Any], let rows = e["rejectedRows"] as? Int else { continue }
            let d = try BUTPPGDecoder(path: dir.appendingPathComponent(name).path)
            _ = try CollectedDecode.decode(d)
            #expect(d.rejectedRows == rows, "\(name)")
            // Every sample of a rejected row is counted (rows and samples without a stream).
            #expect(d.rejectedSamplesWithoutStream == (e["rejectedWithoutStream"] as? Int ?? 0), "\(name)")
            checked += 1
        }
        #expect(checked >= 7 && expected.count >= 10)
    }
}

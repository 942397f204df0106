import Foundation
import Testing
import _TestSupport

@testable import Recordings

@Suite("GT3XDecoder: ActiGraph .gt3x (ZIP with info.txt and log.bin)")
struct GT3XDecoderTests {
    typealias N = CollectedDecode

    static func fixture(_ name: String) -> String { Fixtures.url("RecordingsTests", "gt3x/\(name)").path }
    static var sharedFolder: URL? {
        Fixtures.sharedDatasets.map { $0.appendingPathComponent("actigraph-counts-example") }
    }

    static func decode(_ path: String, capacity: Int = 65_536) throws -> (GT3XDecoder, CollectedDecode) {
        let d = try GT3XDecoder(path: path, blockCapacity: capacity)
        let c = try CollectedDecode.decode(d, blockCapacity: capacity)
        return (d, c)
    }

    @Test(
        "example.gt3x (MIT), stored and deflated: every sample and time as pygt3x 0.7.1 decodes it",
        arguments: ["example.gt3x", "example-deflated.gt3x"])
    func example(name: String) throws {
        let e = try Fixtures.json("RecordingsTests", "gt3x/example-expected.json")
        let (d, c) = try Self.decode(Self.fixture(name))
        #expect(c.problems.isEmpty, "\(c.problems)")
        #expect(c.issues.isEmpty, "\(c.issues)")
        let s = try #require(c.streams.first)
        #expect(c.streams.count == 1 && c.devices.map(\.id) == [e["serialNumber"] as? String ?? ""])
        #expect(s.info.key == StreamKey(deviceID: "TAS1H52220588", sensor: .accelerometer, channel: "acceleration"))
        #expect(s.info.columns.map(\.unit) == [.standardGravity, .standardGravity, .standardGravity])
        #expect(s.info.columns.map(\.name) == ["x", "y", "z"])
        #expect(s.info.nominalSampleRate == 100 && d.info.sampleRate == 100)
        #expect(d.accelerationScale == N.number(e["accelerationScale"]))
        #expect(s.info.attributes["gt3x.accelerationScaleSource"] == "PARAMETERS record (ACCEL_SCALE)")
        #expect(s.info.attributes["gt3x.timeOrigin"] == "utc" && s.info.attributes["gt3x.utcOffsetSeconds"] == "-18000")
        #expect(s.info.attributes["gt3x.info.Subject Name"] == nil && s.info.attributes["gt3x.info.Limb"] == "Wrist")
        #expect(d.info.utcOffsetSeconds == e["utcOffsetSeconds"] as? Int)
        let n = try #require(e["count"] as? Int)
        #expect(s.times.count == n)
        #expect(N.crc32(s.columns[0]) == (e["xCRC32"] as? NSNumber)?.uintValue)
        #expect(N.crc32(s.columns[1]) == (e["yCRC32"] as? NSNumber)?.uintValue)
        #expect(N.crc32(s.columns[2]) == (e["zCRC32"] as? NSNumber)?.uintValue)
        #expect(N.crc32(s.times) == (e["timesUTCCRC32"] as? NSNumber)?.uintValue, "UTC times")
        let offset = Double(d.info.utcOffsetSeconds ?? 0)
        let local = s.times.map { $0 + offset }
        #expect(local.first == N.number(e["firstTimeLocal"]) && abs(local.last! - N.number(e["lastTimeLocal"])) < 1e-6)
        #expect(s.columns.map(\.first!) == N.numbers(e["first"]).map { Float($0) })
        #expect(s.columns.map(\.last!) == N.numbers(e["last"]).map { Float($0) })
        let qc = try #require(c.accounts.first)
        #expect(qc.samplesRead == n && qc.samplesEmitted == n && qc.segments == 1 && qc.isBalanced)
        #expect(qc.rejected == 0 && qc.duplicatesDropped == 0 && qc.gaps == 0 && qc.backwardSteps == 0)
        // info.txt: Start Date is the first sample on the device clock.
        #expect(d.info.startDateLocal == local.first && d.info.serialNumber == "TAS1H52220588")
        #expect(d.idleSleepModeEntries == 0)
    }

    @Test(
        "real data: every sample of example.gt3x equals the pygt3x CSV export (1/256 g), times to its 0.01 s",
        .enabled(if: GT3XDecoderTests.sharedFolder != nil))
    func againstCSV() throws {
        let folder = try #require(Self.sharedFolder)
        let csv = try String(contentsOf: folder.appendingPathComponent("example_raw_100hz_counts256.csv"), encoding: .utf8)
        let rows = csv.split(separator: "\n").dropFirst().map { $0.split(separator: ",") }
        let (d, c) = try Self.decode(folder.appendingPathComponent("example.gt3x").path)
        let s = try #require(c.streams.first)
        #expect(rows.count == 18_000 && s.times.count == rows.count)
        let offset = Double(d.info.utcOffsetSeconds ?? 0)
        var valueMismatches = 0, timeMismatches = 0
        var worstTime = 0.0
        for (i, r) in rows.enumerated() where i < s.times.count {
            for k in 0..<3 where Float(Int(r[k + 1])!) / 256 != s.columns[k][i] { valueMismatches += 1 }
            let dt = abs((s.times[i] + offset) - Double(r[0])!)
            worstTime = max(worstTime, dt)
            if dt > 0.005 { timeMismatches += 1 }
        }
        #expect(valueMismatches == 0 && timeMismatches == 0, "worst time difference \(worstTime) s")
    }

    @Test(
        "synthetic files: ACTIVITY (documentation example), ACTIVITY3, ACTIVITY2, duplicates, idle sleep, ZIP64, PARAMETERS scale",
        arguments: ["synthetic-activity.gt3x", "synthetic-zip64.gt3x"])
    func synthetic(name: String) throws {
        let all = try Fixtures.json("RecordingsTests", "gt3x/synthetic-expected.json")
        let e = try #require(all[name] as? [String: Any])
        let path = Self.fixture(name)
        let (d, c) = try Self.decode(path)
        #expect(c.problems.isEmpty, "\(c.problems)")
        let issues = (e["issues"] as? [String] ?? []).map { $0.replacingOccurrences(of: "{file}", with: path) }
        #expect(c.issues.map(\.description) == issues)
        let s = try #require(c.streams.first)
        #expect(s.columns[0] == N.numbers(e["x"]).map { Float($0) })
        #expect(s.columns[1] == N.numbers(e["y"]).map { Float($0) })
        #expect(s.columns[2] == N.numbers(e["z"]).map { Float($0) })
        #expect(s.times == N.numbers(e["times"]))
        #expect(s.segments == e["segments"] as? [Int])
        #expect(d.accelerationScale == N.number(e["scale"]))
        #expect(d.info.utcOffsetSeconds == e["utcOffsetSeconds"] as? Int)
        #expect(d.idleSleepModeEntries == e["idleSleepModeEntries"] as? Int)
        let qc = try #require(c.accounts.first)
        #expect(qc.samplesRead == e["samplesRead"] as? Int && qc.duplicatesDropped == e["duplicatesDropped"] as? Int)
        #expect(qc.gaps == e["gaps"] as? Int && qc.rejected == 0 && qc.isBalanced)
        #expect(s.info.attributes["gt3x.timeOrigin"] == (d.info.utcOffsetSeconds == nil ? "deviceLocal" : "utc"))
    }

    @Test("decode-chunked equals decode-whole (block capacity 1, 7, 1000, 65536)", arguments: [1, 7, 1000])
    func chunked(capacity: Int) throws {
        for name in ["example.gt3x", "synthetic-activity.gt3x", "synthetic-zip64.gt3x"] {
            let (_, whole) = try Self.decode(Self.fixture(name))
            let (_, parts) = try Self.decode(Self.fixture(name), capacity: capacity)
            #expect(parts.problems.isEmpty, "\(parts.problems)")
            #expect(CollectedDecode.differences(whole, parts) == 0, "\(name) capacity \(capacity)")
        }
    }

    @Test("bad-input corpus (Fixtures/bad/gt3x): errors, issues and QC as expected.json says")
    func badInputs() throws {
        try BadInputCorpus.check(folder: "gt3x") { try GT3XDecoder(path: $0) }
        let expected = try Fixtures.json("RecordingsTests", "bad/gt3x/expected.json")
        #expect(expected.keys.filter { !$0.hasPrefix("_") }.count >= 10)
    }

    @Test("sniffing: .gt3x extension, or a ZIP whose local headers name log.bin")
    func sniff() throws {
        #expect(try RecordingFormat.sniff(path: Self.fixture("example.gt3x")) == .gt3x)
        let dir = TemporaryDirectory()
        let bytes = try Array(Data(contentsOf: URL(fileURLWithPath: Self.fixture("example.gt3x"))))
        #expect(try RecordingFormat.sniff(path: dir.write("renamed.zip", bytes)) == .gt3x)
        let deflated = try Array(Data(contentsOf: URL(fileURLWithPath: Self.fixture("synthetic-activity.gt3x"))))
        #expect(try RecordingFormat.sniff(path: dir.write("renamed2.bin", deflated)) == .gt3x)
        let noLog = try Array(Data(contentsOf: Fixtures.url("RecordingsTests", "bad/gt3x/no-log-bin.gt3x")))
        // A ZIP without log.bin is not a .gt3x (it is then no known format at all).
        let other = try? RecordingFormat.sniff(path: dir.write("other.zip", noLog))
        #expect(other != .gt3x)
        #expect(RecordingFormat.gt3x.rawValue == "actigraph-gt3x")
    }

    @Test("ActiGraph parameter floats decode as Parameters.md's example says")
    func parameterFloat() {
        #expect(GT3XPayload.decodeFloat(0x0940_0000) == 256) // ACCEL_SCALE: 256 LSB/g
        #expect(GT3XPayload.decodeFloat(0x0C40_0000) == 2048) // IMU_ACCEL_SCALE
        #expect(GT3XPayload.decodeFloat(0x0554_0000) == 21) // IMU_TEMP_OFFSET: 21 °C
        #expect(abs(GT3XPayload.decodeFloat(0x0541_8937) - 16.384) < 5e-4) // IMU_GYRO_SCALE, given to 3 decimals
        #expect(abs(GT3XPayload.decodeFloat(0x0341_9581) - 4.1) < 0.005) // BATTERY_VOLTAGE ≈ 4.1 V
        #expect(GT3XPayload.decodeFloat(0) == 0)
        #expect(GT3XPayload.decodeFloat(0x09C0_0000) == -256) // negative fraction
    }

    @Test("info.txt: .NET ticks, TimeZone offsets, missing and malformed items")
    func infoText() throws {
        #expect(GT3XInfo.secondsSince1970(dotNetTicks: 638_222_420_400_000_000) == 1_686_645_240)
        #expect(GT3XInfo.secondsSince1970(dotNetTicks: 621_355_968_000_000_000 + 5) == 5e-7)
        #expect(GT3XInfo.parseOffset("-05:00:00") == -18_000 && GT3XInfo.parseOffset("+05:30") == 19_800)
        #expect(GT3XInfo.parseOffset("05:30:00") == 19_800 && GT3XInfo.parseOffset("25:00:00") == nil)
        #expect(GT3XInfo.parseOffset("-5h") == nil)
        let text = "\u{FEFF}Serial Number: MOS1\r\nSample Rate: 30\r\nStop Date: 0\r\nBattery Voltage: 4,19\r\n"
        let info = try GT3XInfo.parse(Array(text.utf8), file: "f")
        #expect(info.serialNumber == "MOS1" && info.sampleRate == 30 && info.stopDateLocal == nil)
        #expect(info.fields["Battery Voltage"] == "4,19" && info.utcOffsetSeconds == nil)
        #expect(throws: RecordingError(.wrongType, file: "f", "info.txt line 2: Sample Rate 'fast' is not a number")) {
            try GT3XInfo.parse(Array("Serial Number: A\nSample Rate: fast\n".utf8), file: "f")
        }
        #expect(
            throws: RecordingError(
                .missingField, file: "f",
                "info.txt has no 'Serial Number' line (the device identifier)")
        ) {
            try GT3XInfo.parse(Array("Sample Rate: 30\n".utf8), file: "f")
        }
    }

    @Test("12-bit ACTIVITY unpacking of the Activity.md example bytes")
    func unpack12() {
        let bytes: [UInt8] = [0x00, 0x60, 0x08, 0xEB, 0xD0, 0x07, 0x00, 0x9E, 0xBF, 0x00, 0x70, 0x08, 0xEB, 0xF0]
        #expect(GT3XPayload.sampleCount(type: 0x00, size: bytes.count) == 3)
        var x = [Float](repeating: 0, count: 3), y = x, z = x
        bytes.withUnsafeBytes { b in
            GT3XPayload.decode(
                type: 0x00, payload: b, count: 3, scale: 1,
                x: &x, y: &y, z: &z)
        }
        #expect(x == [8, 9, 8] && y == [6, 7, 7] && z == [-323, -321, -321])
    }
}

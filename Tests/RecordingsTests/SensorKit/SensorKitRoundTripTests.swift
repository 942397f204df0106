import Foundation
import Recordings
import Testing
import _TestSupport

@Suite("SensorKitWriter: decode → write → decode is lossless")
struct SensorKitRoundTripTests {
    func roundTrip(_ source: String, to path: String) throws -> (DecodedFile, DecodedFile) {
        let original = try decodeAll(source)
        let decoder = try SensorKitDecoder(path: source)
        let writer = try SensorKitWriter(path: path)
        while let e = try decoder.next() { try writer.write(e) }
        try writer.finish()
        return (original, try decodeAll(path))
    }

    @Test(
        "buffers, times (bit-exact), flags, segments, attributes and deletions survive",
        arguments: SensorKitDecoderTests.files, [false, true])
    func lossless(name: String, compress: Bool) throws {
        let dir = TemporaryDirectory()
        let out = dir.url.appendingPathComponent("out.ndjson" + (compress ? ".gz" : "")).path
        let (a, b) = try roundTrip(SensorKitFixtures.path(name), to: out)
        #expect(differences(a, b).isEmpty, "\(differences(a, b))")
        #expect(b.deletions == a.deletions)
        #expect(b.issues.isEmpty, "\(b.issues)")
        #expect(b.accounts.map(\.segments) == a.accounts.map(\.segments))
        #expect(b.accounts.map(\.masked) == a.accounts.map(\.masked))
        #expect(b.accounts.allSatisfy { $0.isBalanced })
        #expect(try ByteSource(path: out).isCompressed == compress)
        #expect(try SensorKitDecoder(path: out).format == .sensorKitNDJSON)
    }

    @Test("a second round trip reproduces the first output byte for byte")
    func idempotent() throws {
        let dir = TemporaryDirectory()
        let first = dir.url.appendingPathComponent("1.ndjson").path
        let second = dir.url.appendingPathComponent("2.ndjson").path
        _ = try roundTrip(SensorKitFixtures.path("ppg.ndjson"), to: first)
        _ = try roundTrip(first, to: second)
        #expect(FileManager.default.contents(atPath: first) == FileManager.default.contents(atPath: second))
    }
}

import Foundation
import Recordings
import Testing
import _TestSupport

/// FNV-1a 64 written out here, independent of `ContentDigest` (Fowler–Noll–Vo: offset basis
/// 0xcbf29ce484222325, prime 0x100000001b3; xor the byte, then multiply).
func referenceFNV1a64(_ bytes: Data) -> UInt64 {
    var h: UInt64 = 0xcbf2_9ce4_8422_2325
    for b in bytes {
        h = (h ^ UInt64(b)) &* 0x0000_0100_0000_01b3
    }
    return h
}

@Suite("ContentDigest: the content hash computed from the bytes a decoder reads")
struct ContentDigestTests {
    /// Opens `path` with a digest bound, decodes it to the end, and returns the digest.
    func decodeWhole(_ path: String) throws -> ContentDigest {
        let digest = ContentDigest()
        try ContentDigest.$current.withValue(digest) {
            let opened = try RecordingOpener.open(path: path)
            while try opened.decoder.next() != nil {}
        }
        return digest
    }

    @Test(
        "decoding a file whole hashes exactly its bytes (SensorKit gzip and plain, Apple Health, BUT PPG, WFDB header and signal)",
        arguments: [
            ("sensorkit/accelerometer.ndjson.gz", [String]()), ("sensorkit/ecg.ndjson", []), ("sensorkit/ppg.ndjson", []),
            ("health/synthetic-english-quoted.csv", []), ("butppg/myData-excerpt.csv", []),
            ("wfdb/records/fmt212.hea", ["wfdb/records/fmt212.dat"]),
        ])
    func decodedBytesAreHashed(file: String, others: [String]) throws {
        let path = Fixtures.url("RecordingsTests", file).path
        let digest = try decodeWhole(path)
        for member in [file] + others {
            let p = Fixtures.url("RecordingsTests", member).path
            let expected = referenceFNV1a64(try Data(contentsOf: URL(fileURLWithPath: p)))
            #expect(digest.hash(of: p) == expected, "\(member)")
            #expect(try ContentDigest.fileHash(p) == expected, "\(member)")
        }
    }

    @Test("a sniff's peek and a partly read source record nothing; without a bound digest nothing is hashed")
    func partialReadsAreNotHashed() throws {
        let path = Fixtures.url("RecordingsTests", "sensorkit/accelerometer.ndjson.gz").path
        let digest = ContentDigest()
        try ContentDigest.$current.withValue(digest) {
            _ = try RecordingFormat.sniff(path: path)
            let source = try ByteSource(path: path, chunkSize: 64)
            var buffer = [UInt8](repeating: 0, count: 16)
            _ = try buffer.withUnsafeMutableBytes { try source.read(into: $0) }
        }
        #expect(digest.hash(of: path) == nil)
        // Decoded outside the binding: the digest learns nothing.
        let opened = try RecordingOpener.open(path: path)
        while try opened.decoder.next() != nil {}
        #expect(digest.hash(of: path) == nil)
    }

    @Test("several files: FNV-1a 64 over their hashes as 8 little-endian bytes each, in order; one file: its hash")
    func combineRule() {
        let a: UInt64 = 0x0102_0304_0506_0708, b: UInt64 = 0xcbf2_9ce4_8422_2325
        var bytes = Data()
        for v in [a, b] { for k in 0..<8 { bytes.append(UInt8(truncatingIfNeeded: v >> (8 * UInt64(k)))) } }
        #expect(ContentDigest.combine([a, b]) == referenceFNV1a64(bytes))
        #expect(ContentDigest.combine([a]) == a)
        #expect(ContentDigest.combine([b, a]) != ContentDigest.combine([a, b]))
    }

    @Test("the discovery rules: recording extensions with compression, SensorKit sensor tokens as whole words")
    func fileNameRules() {
        #expect(RecordingFileNames.hasRecordingExtension("x.NDJSON.GZ") && RecordingFileNames.hasRecordingExtension("r.hea.xz"))
        #expect(!RecordingFileNames.hasRecordingExtension("notes.txt") && !RecordingFileNames.hasRecordingExtension("x.gz"))
        #expect(RecordingFileNames.sensorKitPattern("p01_accelerometer.ndjson.gz") == "p01_*.ndjson")
        #expect(RecordingFileNames.sensorKitPattern("P01-RotationRate.jsonl") == "P01-*.jsonl")
        #expect(RecordingFileNames.sensorKitPattern("ecg.ndjson") == "*.ndjson")
        #expect(RecordingFileNames.sensorKitPattern("p01_ecgx.ndjson") == nil) // not a whole word
        #expect(RecordingFileNames.sensorKitPattern("ecg_ppg.ndjson") == nil) // two tokens
        #expect(RecordingFileNames.sensorKitPattern("p01_ecg.csv") == nil) // not SensorKit
    }
}

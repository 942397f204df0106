import Foundation
import Pipeline
import Recordings
import Testing
import _TestSupport

/// FNV-1a 64 of a file's bytes, written out here (independent of `ContentDigest`), as hex.
private func referenceHash(_ paths: [String]) throws -> String {
    func fnv(_ bytes: Data, _ state: UInt64 = 0xcbf2_9ce4_8422_2325) -> UInt64 {
        var h = state
        for b in bytes { h = (h ^ UInt64(b)) &* 0x0000_0100_0000_01b3 }
        return h
    }
    let each = try paths.map { fnv(try Data(contentsOf: URL(fileURLWithPath: $0))) }
    var h = each[0]
    if each.count > 1 {
        // Several files: FNV-1a 64 over their hashes, 8 little-endian bytes each, in order.
        var bytes = Data()
        for v in each { for k in 0..<8 { bytes.append(UInt8(truncatingIfNeeded: v >> (8 * UInt64(k)))) } }
        h = fnv(bytes)
    }
    let s = String(h, radix: 16)
    return String(repeating: "0", count: 16 - s.count) + s
}

@Suite("Batch: each file read once; the content hash of the bytes decoded; the resume rule")
struct BatchReadOnceTests {
    /// A SensorKit export of two sensors (one recording by the folder rule), a WFDB record
    /// (header + signal file) and a single file, in a new folder.
    func study(_ f: BatchFixture) throws -> (group: [String], wfdb: [String], single: String) {
        let fm = FileManager.default
        let dir = f.dir.url.appendingPathComponent("study")
        try fm.createDirectory(at: dir, withIntermediateDirectories: true)
        let sensorkit = Fixtures.url("RecordingsTests", "sensorkit")
        let acc = dir.appendingPathComponent("p01_accelerometer.ndjson.gz").path
        let rot = dir.appendingPathComponent("p01_rotationRate.ndjson").path
        try fm.copyItem(atPath: sensorkit.appendingPathComponent("accelerometer.ndjson.gz").path, toPath: acc)
        try fm.copyItem(atPath: sensorkit.appendingPathComponent("rotation.ndjson").path, toPath: rot)
        let wfdb = Fixtures.url("RecordingsTests", "wfdb/records")
        for name in ["fmt212.hea", "fmt212.dat"] {
            try fm.copyItem(atPath: wfdb.appendingPathComponent(name).path, toPath: dir.appendingPathComponent(name).path)
        }
        let single = dir.appendingPathComponent("ecg.ndjson").path
        try fm.copyItem(atPath: sensorkit.appendingPathComponent("ecg.ndjson").path, toPath: single)
        return ([acc, rot], [dir.appendingPathComponent("fmt212.hea").path, dir.appendingPathComponent("fmt212.dat").path], single)
    }

    func runFolder(_ f: BatchFixture, _ folder: String, into db: String) throws -> BatchSummary {
        let store = try BatchDatabase(path: f.dir.url.appendingPathComponent(db).path)
        return try BatchRunner.run(
            inputs: try RecordingDiscovery.recordings([folder]), store: store,
            options: BatchOptions(jobs: 2, softwareVersion: "test"))
    }

    @Test("the stored content hash is FNV-1a 64 of the decoded files' bytes (one file, a WFDB record, a SensorKit group)")
    func hashesOfDecodedBytes() throws {
        let f = BatchFixture()
        let s = try study(f)
        let folder = (s.single as NSString).deletingLastPathComponent
        let first = try runFolder(f, folder, into: "r.sqlite")
        #expect(first.ok == 3 && first.failed == 0)
        let db = f.dir.url.appendingPathComponent("r.sqlite").path
        let stored = SQLiteDump.rows(db, "SELECT path, content_hash FROM recordings ORDER BY path")
        let expected = [
            "\(s.single)|\(try referenceHash([s.single]))",
            "\(s.wfdb[0])|\(try referenceHash(s.wfdb))",
            "\(s.group[0])|\(try referenceHash(s.group))",
        ].sorted()
        #expect(stored == expected)
        // The separate-pass hash (what resuming compares) is the same value.
        #expect(try ContentHash.files(s.group) == (try referenceHash(s.group)))
        #expect(try ContentHash.files(s.wfdb) == (try referenceHash(s.wfdb)))
    }

    @Test("resume: done recordings are skipped; a changed member of a group or record is analysed again, with its new hash")
    func resumeRule() throws {
        let f = BatchFixture()
        let s = try study(f)
        let folder = (s.single as NSString).deletingLastPathComponent
        #expect(try runFolder(f, folder, into: "r.sqlite").ok == 3)
        let again = try runFolder(f, folder, into: "r.sqlite")
        #expect(again.skipped == 3 && again.ok == 0)
        // Append a valid line to the group's plain member: same path, new content.
        let line = try String(contentsOfFile: s.group[1], encoding: .utf8).split(separator: "\r\n").last!
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: s.group[1]))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("\(line)\r\n".utf8))
        try handle.close()
        // Swap two bytes of the record's signal file.
        var dat = try Data(contentsOf: URL(fileURLWithPath: s.wfdb[1]))
        dat.swapAt(30, 33)
        try dat.write(to: URL(fileURLWithPath: s.wfdb[1]))
        let changed = try runFolder(f, folder, into: "r.sqlite")
        #expect(changed.ok + changed.failed == 2 && changed.skipped == 1)
        let db = f.dir.url.appendingPathComponent("r.sqlite").path
        let latest = SQLiteDump.rows(
            db, "SELECT path, content_hash FROM recordings WHERE id IN (SELECT MAX(id) FROM recordings GROUP BY path) ORDER BY path")
        #expect(latest.contains("\(s.group[0])|\(try referenceHash(s.group))"))
        #expect(latest.contains("\(s.wfdb[0])|\(try referenceHash(s.wfdb))"))
        #expect(try runFolder(f, folder, into: "r.sqlite").skipped == 3 - changed.failed)
    }
}

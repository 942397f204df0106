import CSQLite
import Foundation
import Pipeline
import Recordings
import Testing
import _TestSupport

@Suite("Sharded runs merged equal one unsharded run")
struct ShardMergeTests {
    static let files: [String] = {
        let dir = Fixtures.repositoryRoot.appendingPathComponent("Datasets")
        return FileManager.default.enumerator(atPath: dir.path)!.compactMap { $0 as? String }
            .filter { $0.hasSuffix(".ndjson.gz") }.sorted().map { dir.appendingPathComponent($0).path }
    }()

    func runBatch(_ files: [String], into path: String, config: String = "{}") throws {
        let batch = try BatchDatabase(path: path)
        try batch.startRun(softwareVersion: "test", configJSON: config)
        for f in files {
            _ = try batch.analyze(
                recording: RecordingInput(path: f), size: 0, contentHash: try ContentHash.file(f),
                analysis: AnalysisConfiguration())
        }
        try batch.finishRun(ok: files.count, failed: 0, skipped: 0)
    }

    @Test("shards of different configurations are refused unless allowed; a failed merge leaves the target unchanged")
    func mixedConfigurations() throws {
        let dir = TemporaryDirectory()
        let a = dir.url.appendingPathComponent("a.sqlite").path, b = dir.url.appendingPathComponent("b.sqlite").path
        try runBatch([Self.files[0]], into: a, config: "{\"x\":1}")
        try runBatch([Self.files[1]], into: b, config: "{\"x\":2}")
        let merged = dir.url.appendingPathComponent("merged.sqlite").path
        _ = try ShardMerge.merge(shards: [a], into: merged)
        let before = SQLiteDump.content(merged)
        do {
            _ = try ShardMerge.merge(shards: [b], into: merged)
            Issue.record("shards of two configurations were merged")
        } catch {
            #expect("\(error)".contains("2 different configurations") && "\(error)".contains(merged), "\(error)")
        }
        #expect(SQLiteDump.difference(before, SQLiteDump.content(merged)) == nil)
        let mixed = try ShardMerge.merge(shards: [b], into: merged, allowMixedConfigurations: true)
        #expect(mixed.recordings == 1)
        #expect(!FileManager.default.fileExists(atPath: merged + ".merging-\(getpid())"))
    }

    /// Rows of `sql` as text lines, sorted (order-insensitive comparison).
    func rows(_ path: String, _ sql: String) -> [String] { SQLiteDump.rows(path, sql).sorted() }

    @Test("3 shards cover the demo set exactly once; merged rows equal the unsharded run; re-merging adds nothing")
    func shardsAndMerge() throws {
        let dir = TemporaryDirectory()
        #expect(Self.files.count == 7)
        let whole = dir.url.appendingPathComponent("whole.sqlite").path
        try runBatch(Self.files, into: whole)
        var shardPaths = [String]()
        var covered = 0
        for k in 1...3 {
            let part = Self.files.filter { Shard("\(k)/3")!.contains(path: $0) }
            covered += part.count
            let p = dir.url.appendingPathComponent("s\(k).sqlite").path
            try runBatch(part, into: p)
            shardPaths.append(p)
        }
        #expect(covered == Self.files.count)
        let merged = dir.url.appendingPathComponent("merged.sqlite").path
        let first = try ShardMerge.merge(shards: shardPaths, into: merged)
        #expect(first.recordings == 7 && first.duplicates == 0)
        let again = try ShardMerge.merge(shards: [shardPaths[0]], into: merged)
        #expect(again.recordings == 0)
        let queries = [
            "SELECT path, status, beats, samples_read, samples_emitted FROM recordings",
            "SELECT r.path, s.stream, s.samples_emitted FROM streams s JOIN recordings r ON r.id = s.recording_id",
            "SELECT r.path, b.time, b.sample, b.nn_ms, b.quality FROM beats b JOIN recordings r ON r.id = b.recording_id",
            "SELECT r.path, h.window_start, h.bpm FROM heart_rate h JOIN recordings r ON r.id = h.recording_id",
            "SELECT r.path, h.window_start, h.RMSSD, h.SampEn FROM hrv h JOIN recordings r ON r.id = h.recording_id",
            "SELECT r.path, q.window_start, q.label, q.kSQI FROM ecg_quality q JOIN recordings r ON r.id = q.recording_id",
        ]
        for q in queries {
            let a = rows(whole, q), b = rows(merged, q)
            #expect(!a.isEmpty && a == b, "\(q): \(a.count) vs \(b.count) rows")
        }
    }
}

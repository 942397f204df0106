import Foundation
import Pipeline
import Recordings
import Testing
import _TestSupport

@Suite("BatchDatabase: resumable batch bookkeeping")
struct BatchDatabaseTests {
    @Test("FNV-1a 64 matches the published test vectors")
    func fnvVectors() {
        // Vectors from the FNV reference (draft-eastlake-fnv): "" and "a" and "foobar".
        #expect(ContentHash.text("") == "cbf29ce484222325")
        #expect(ContentHash.text("a") == "af63dc4c8601ec8c")
        #expect(ContentHash.text("foobar") == "85944171f73967e8")
    }

    @Test("a recording is stored with its streams in one transaction, then skipped; a corrupt file is recorded as failed")
    func resumeAndFailure() throws {
        let root = Fixtures.repositoryRoot
        let ecg = root.appendingPathComponent("Datasets/ecg/watch-1_mitdb100_1716282000.ndjson.gz").path
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("batch-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let corrupt = dir.appendingPathComponent("broken.ndjson.gz").path
        try Data([0x1f, 0x8b, 0x08, 0x00, 0xde, 0xad, 0xbe, 0xef]).write(to: URL(fileURLWithPath: corrupt))
        let path = dir.appendingPathComponent("results.sqlite").path

        let batch = try BatchDatabase(path: path)
        try batch.startRun(softwareVersion: "test", configJSON: "{\"a\":1}")
        let hash = try ContentHash.file(ecg)
        #expect(try !batch.isDone(path: ecg, contentHash: hash))
        let size = try FileManager.default.attributesOfItem(atPath: ecg)[.size] as! Int
        let summary = try batch.analyze(
            recording: RecordingInput(path: ecg), size: size, contentHash: hash,
            analysis: AnalysisConfiguration())
        #expect(summary.beats > 50) // about a minute of MIT-BIH record 100
        #expect(try batch.isDone(path: ecg, contentHash: hash))

        let badHash = try ContentHash.file(corrupt)
        #expect(throws: (any Error).self) {
            try batch.analyze(recording: RecordingInput(path: corrupt), size: 8, contentHash: badHash, analysis: AnalysisConfiguration())
        }
        try batch.recordFailure(path: corrupt, size: 8, contentHash: badHash, error: "corrupt")
        try batch.recordFailure(path: corrupt, size: 8, contentHash: badHash, error: "corrupt again")
        #expect(try !batch.isDone(path: corrupt, contentHash: badHash))
        try batch.finishRun(ok: 1, failed: 1, skipped: 0)

        #expect(try sqliteScalar(path, "SELECT count(*) FROM beats") == String(summary.beats))
        #expect(try sqliteScalar(path, "SELECT count(*) FROM recordings WHERE status = 'failed'") == "1")
        #expect(try sqliteScalar(path, "SELECT error FROM recordings WHERE status = 'failed'") == "corrupt again")
        #expect(try sqliteScalar(path, "SELECT count(*) FROM streams") == String(summary.accounts.count))
        #expect(
            try sqliteScalar(
                path, "SELECT samples_read - samples_emitted - duplicates_dropped - rejected FROM recordings WHERE status = 'ok'") == "0")
        #expect(try sqliteScalar(path, "SELECT count(*) FROM runs WHERE ended_at IS NOT NULL") == "1")

        // A new configuration does not count as done; the same one does after reopening.
        let again = try BatchDatabase(path: path)
        try again.startRun(softwareVersion: "test", configJSON: "{\"a\":1}")
        #expect(try again.isDone(path: ecg, contentHash: hash))
        try again.startRun(softwareVersion: "test", configJSON: "{\"a\":2}")
        #expect(try !again.isDone(path: ecg, contentHash: hash))
    }
}

import Cardio
import Foundation
import Pipeline
import Recordings
import Testing
import _TestSupport

/// Collects rows in memory (a test sink).
final class MemorySink: ResultSink {
    var staged: [String: [[ResultValue]]] = [:]
    var committed: [String: [[ResultValue]]] = [:]
    var tables: [String: ResultTable] = [:]
    func begin(recording: String) throws { staged = [:] }
    func declare(_ table: ResultTable) throws {
        tables[table.name] = table
        staged[table.name, default: []] += []
    }
    func write(_ table: ResultTable, values: [ResultValue]) throws {
        tables[table.name] = table
        staged[table.name, default: []].append(values)
    }
    func commit() throws { committed = staged; staged = [:] }
    func rollback() { staged = [:] }

    /// The committed rows of `table`, as column name → value.
    func named(_ table: String) -> [[String: ResultValue]] {
        guard let t = tables[table] else { return [] }
        return (committed[table] ?? []).map { Dictionary(uniqueKeysWithValues: zip(t.columns.map(\.name), $0)) }
    }
}

@Suite("RecordingAnalysis: sensorpipe analyze on the demo ECG sessions")
struct RecordingAnalysisTests {
    static let files = ["watch-1_mitdb100_1716282000", "watch-1_mitdb105_1716285600", "watch-1_mitdb119_1716289200"]

    func analyze(_ name: String, blockCapacity: Int) throws -> [String: [[ResultValue]]] {
        try analyzeSink(name, blockCapacity: blockCapacity).committed
    }

    func analyzeSink(_ name: String, blockCapacity: Int) throws -> MemorySink {
        let path = Fixtures.repositoryRoot.appendingPathComponent("Datasets/ecg/\(name).ndjson.gz").path
        let sink = MemorySink()
        _ = try RecordingAnalysis.run(
            path: path, analysis: AnalysisConfiguration(decode: DecodeOptions(blockCapacity: blockCapacity)),
            sink: sink)
        return sink
    }

    @Test("results do not depend on the block size", arguments: files)
    func blockSizeIndependence(name: String) throws {
        let whole = try analyze(name, blockCapacity: 1 << 20)
        for capacity in [1, 97, 4096] {
            let parts = try analyze(name, blockCapacity: capacity)
            for table in ["beats", "heart_rate", "hrv", "ecg_quality"] {
                #expect(parts[table] == whole[table], "\(table) with block capacity \(capacity)")
            }
        }
    }

    /// A wiring check (time axis, sample indices, segment handling) on the two clean excerpts;
    /// detector accuracy itself is measured on the full MIT-BIH and NSTDB records by the
    /// validation suite (docs/VALIDATION.md). Record 105's first minute is heavily noisy
    /// (Se 95 %, +P 96 % on this excerpt; 99.6 % / 98.9 % over the whole record).
    @Test("detected beats match the MIT-BIH annotations (EC57, 150 ms)", arguments: [files[0], files[2]])
    func beatsMatchAnnotations(name: String) throws {
        let reference = try Fixtures.json("PipelineTests", "demo-beats.json")
        let rows = try analyzeSink(name, blockCapacity: 65_536).named("beats")
        let stream = "watch-1/electrocardiogram/ecg/session=mitdb-\(name.split(separator: "_")[1].dropFirst(5))"
        let expected = try #require(reference[stream] as? [Double])
        // The `time` column users read: where each beat was detected (empty for inserted beats;
        // beats removed as extra by the correction are still detections and count).
        let detected = rows.compactMap { row -> Double? in
            guard case .real(let t)? = row["time"] else { return nil }
            return t
        }
        let fs = 512.0, t0 = expected[0] - 1
        let score = BeatMatching.match(
            reference: expected.map { Int((($0 - t0) * fs).rounded()) },
            detections: detected.map { Int((($0 - t0) * fs).rounded()) }, sampleRate: fs)
        #expect(
            score.sensitivity >= 0.99 && score.positivePredictivity >= 0.99,
            "Se \(score.sensitivity) +P \(score.positivePredictivity) on \(name)")
    }

    /// The demo ECG session (µV) as a two-lead WFDB record `two.hea` in `dir`: lead 0 as
    /// recorded, lead 1 inverted; format 16, 200 adu/mV, 512 Hz. No initial values or checksums
    /// (they are verified: placeholders would fail the record).
    /// - Returns: the header's path.
    static func twoLeadRecord(in dir: TemporaryDirectory) throws -> String {
        let demo = Fixtures.repositoryRoot.appendingPathComponent("Datasets/ecg/\(files[0]).ndjson.gz").path
        let opened = try RecordingOpener.open(path: demo)
        var samples = [Float]()
        while let e = try opened.decoder.next() { if case .block(let b) = e { samples += b.columns[0] } }
        var bytes = [UInt8]()
        for v in samples {
            for adu in [Int16(clamping: Int((v / 5).rounded())), Int16(clamping: Int((-v / 5).rounded()))] {
                let u = UInt16(bitPattern: adu)
                bytes += [UInt8(u & 0xff), UInt8(u >> 8)]
            }
        }
        _ = dir.write("two.dat", bytes)
        return dir.write("two.hea", Array("two 2 512 \(samples.count)\ntwo.dat 16 200/mV\ntwo.dat 16 200/mV\n".utf8))
    }

    @Test("every lead of a multi-signal WFDB record is analysed (regression: leads shared one analyzer slot)")
    func everyLeadAnalysed() throws {
        let dir = TemporaryDirectory()
        let hea = try Self.twoLeadRecord(in: dir)
        let sink = MemorySink()
        let summary = try RecordingAnalysis.run(path: hea, analysis: AnalysisConfiguration(), sink: sink)
        #expect(summary.streams == 2)
        let beats = sink.committed["beats"] ?? []
        let perStream = Dictionary(grouping: beats) { row -> String in if case .text(let s) = row[0] { return s } else { return "" } }
        // Both leads, and the series fused across them (issue 10 item 4).
        #expect(
            perStream.keys.sorted() == ["two/electrocardiogram/fused", "two/electrocardiogram/signal 0", "two/electrocardiogram/signal 1"],
            "\(perStream.keys.sorted())")
        let counts = perStream.values.map(\.count)
        #expect(counts.allSatisfy { $0 >= 70 && $0 <= 78 }, "\(counts)") // 74 beats in the first minute of record 100
    }
}

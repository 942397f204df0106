import Cardio
import Foundation
import Pipeline
import Recordings
import Testing
import _TestSupport

/// ``ECGWavesFamily`` on the redistributable 40-s QT Database excerpt (`Datasets/qtdb/sel100x`,
/// 30 beats marked by cardiologist 1): boundaries against the marks, and rows independent of
/// the block size. Expected values are the annotations; the bounds are the CSE 2σ tolerances.
@Suite("ECG waves on the QTDB excerpt sel100x")
struct QTDBWavesExcerptTests {
    static let hea = Fixtures.repositoryRoot.appendingPathComponent("Datasets/qtdb/sel100x.hea")
    static let q1c = Fixtures.repositoryRoot.appendingPathComponent("Datasets/qtdb/sel100x.q1c").path

    static func run(blockCapacity: Int) throws -> MemorySink {
        let sink = MemorySink()
        _ = try RecordingAnalysis.run(
            path: hea.path, analysis: AnalysisConfiguration(decode: DecodeOptions(blockCapacity: blockCapacity)), sink: sink)
        return sink
    }

    @Test("lead 0 (MLII) boundaries within the CSE 2σ tolerances of cardiologist 1's marks")
    func boundaries() throws {
        let sink = try Self.run(blockCapacity: 65_536)
        let rows = sink.named("ecg_waves").filter { if case .text(let s)? = $0["stream"] { s.hasSuffix("MLII") } else { false } }
        #expect(rows.count >= 45, "a beat per second or so over 40 s: \(rows.count) rows")
        let marks = try WavesScoring.marks(path: Self.q1c, rate: 250)
        let s = WavesScoring.score(rows: rows, marks: marks)
        for k in WavesScoring.Kind.allCases {
            print("\(k.rawValue): \(s.mean(k)) ± \(s.sd(k)) ms, Se \(s.se(k)) % of \(s.annotated[k] ?? 0)")
        }
        #expect((s.annotated[.qrsOnset] ?? 0) == 30 && (s.annotated[.tOffset] ?? 0) == 30)
        // P onset/offset and QRS offset meet the tolerances on this excerpt; QRS onset SD (10.9 ms
        // against 6.5) and the T offset (+74 ± 68 ms, Se 80 %) do not yet (docs/VALIDATION.md).
        for k in [WavesScoring.Kind.qrsOffset, .pOnset, .pOffset] {
            #expect(s.se(k) >= 96, "\(k.rawValue) Se \(s.se(k)) %")
            let tolerance = try #require(k.tolerance)
            #expect(abs(s.mean(k)) <= tolerance, "\(k.rawValue) mean \(s.mean(k)) ms")
            #expect(s.sd(k) <= tolerance, "\(k.rawValue) SD \(s.sd(k)) ms")
        }
        withKnownIssue("issue 30: QRS onset SD and T offset outside the CSE tolerances on sel100x") {
            for k in [WavesScoring.Kind.qrsOnset, .tOffset] {
                let tolerance = k.tolerance ?? 0
                #expect(s.se(k) >= 96 && abs(s.mean(k)) <= tolerance && s.sd(k) <= tolerance, "\(k.rawValue)")
            }
        }
    }

    @Test("ecg_waves and ecg_intervals rows of each stream do not depend on the block size")
    func chunkedEqualsWhole() throws {
        let whole = try Self.run(blockCapacity: 1 << 20)
        #expect(!(whole.committed["ecg_waves"] ?? []).isEmpty)
        // Rows of different streams interleave as they become final (as ecg_quality's do); each
        // stream's rows, in order, must not depend on the block size.
        func byStream(_ rows: [[ResultValue]]?) -> [ResultValue: [[ResultValue]]] {
            Dictionary(grouping: rows ?? [], by: { $0[0] })
        }
        for capacity in [1, 97, 4096] {
            let parts = try Self.run(blockCapacity: capacity)
            for table in ["ecg_waves", "ecg_intervals"] {
                #expect(parts.committed[table]?.count == whole.committed[table]?.count, "\(table) rows, block capacity \(capacity)")
                #expect(byStream(parts.committed[table]) == byStream(whole.committed[table]), "\(table) with block capacity \(capacity)")
            }
        }
    }
}

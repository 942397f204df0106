import Cardio
import Foundation
import Pipeline
import Recordings
import Testing
import _TestSupport

/// Issue 33, fault classes 1–6 (the analysis side): crafted recordings in
/// `Tests/PipelineTests/Fixtures/hardening/` (written by `scripts/make-analysis-hardening-fixtures.py`).
/// What each must give is written from how the file is built (its spans, its defect), never
/// from SensorPipe's output. Every file also runs through `sensorpipe analyze` under the corpus
/// limits (``MalformedCorpusLimitsTests``).
@Suite("Analysis hardening: times far from the data, gaps, outliers (issue 33)")
struct AnalysisHardeningTests {
    static func file(_ name: String) -> String { Fixtures.url("PipelineTests", "hardening/\(name)").path }
    /// The fixtures' first sample (Unix s), as the generator writes it.
    static let t0 = 1_716_307_300.0

    static func run(_ name: String, families: [String]? = nil) throws -> (MemorySink, RecordingAnalysis.Summary) {
        let sink = MemorySink()
        let chosen = try (families ?? AnalysisRegistry.families.map(\.name)).map {
            try #require(AnalysisRegistry.family(named: $0))
        }
        let summary = try RecordingAnalysis.run(
            recording: RecordingInput(path: file(name)), analysis: AnalysisConfiguration(), families: chosen, sink: sink)
        return (sink, summary)
    }

    static func real(_ v: ResultValue?) -> Double? {
        if case .real(let x)? = v { return x }
        if case .integer(let x)? = v { return Double(x) }
        return nil
    }

    /// Rows of `table` whose `[start, end)` meets none of `spans` (closed sample spans, s).
    static func rowsOutside(
        _ sink: MemorySink, _ table: String, start: String, end: String, spans: [ClosedRange<Double>]
    ) -> [[String: ResultValue]] {
        sink.named(table).filter { row in
            guard let s = real(row[start]), let e = real(row[end]) else { return false }
            return !spans.contains { $0.lowerBound < e && $0.upperBound >= s }
        }
    }

    // MARK: - Class 1: times far from the data

    @Test("a sample dated 1e20 s (rejected at decode) leaves the recording analysed")
    func farTimeAnalysed() throws {
        let (sink, summary) = try Self.run("acc-time-1e20.ndjson.gz")
        #expect(!sink.named("motion_epochs").isEmpty)
        #expect(summary.streamSummaries.first?.account.rejected == 1)
    }

    @Test(
        "a gap (1e6 s) or a clock reset to 1970 costs nothing: no window inside it, every row meets the data",
        arguments: [
            ("ecg-gap-1e6.ndjson.gz", [t0...(t0 + 60), (t0 + 60 + 1e6)...(t0 + 120 + 1e6)]),
            ("ppg-gap-1e6.ndjson.gz", [t0...(t0 + 60), (t0 + 60 + 1e6)...(t0 + 120 + 1e6)]),
            ("ecg-clock-reset-1970.ndjson.gz", [0...60, t0...(t0 + 60)]),
            ("ppg-clock-reset-1970.ndjson.gz", [0...60, t0...(t0 + 60)]),
        ])
    func gapsCostNothing(name: String, spans: [ClosedRange<Double>]) throws {
        let (sink, _) = try Self.run(name, families: ["ecg", "ppg"])
        let hr = sink.named("heart_rate")
        #expect(!hr.isEmpty)
        let outside = Self.rowsOutside(sink, "heart_rate", start: "window_start", end: "window_end", spans: spans)
        #expect(outside.isEmpty, "\(name): \(outside.count) of \(hr.count) heart-rate rows in the gap, e.g. \(outside.prefix(2))")
        // 2 × 60 s of signal: at most a few hundred windows of every kind, never 10^5.
        #expect(hr.count < 400, "\(name): \(hr.count) heart-rate rows for 120 s of signal")
        let hrv = Self.rowsOutside(sink, "hrv", start: "start_s", end: "end_s", spans: spans)
            .filter { $0["scope"] == .text("window") }
        #expect(hrv.isEmpty, "\(name): HRV windows in the gap: \(hrv.count)")
    }

    // MARK: - Class 2: HRV across a gap

    @Test("HRV over two 60-s spans a day apart: spectral and DFA metrics empty, saying the contiguous span is short")
    func hrvAcrossGap() throws {
        let (sink, _) = try Self.run("ecg-gap-1e6.ndjson.gz", families: ["ecg"])
        let whole = try #require(sink.named("hrv").first { $0["scope"] == .text("recording") })
        // 120 s of NN data in all, but under 60 s in either span: HF needs 60 s, LF 120 s,
        // ULF a 24-h span — none is met inside one span.
        for metric in ["HF", "LF", "VLF", "ULF", "DFA_alpha1"] {
            #expect(whole[metric] == .null, "\(metric): \(String(describing: whole[metric]))")
        }
        guard case .text(let reason)? = whole["null_reason"] else {
            Issue.record("no null_reason")
            return
        }
        #expect(reason.contains("HF,LnHF,VHF: < 60 s of NN data (Task Force 1996) in the longest contiguous span"), "\(reason)")
        #expect(reason.contains("ULF: span < 24 h (Task Force 1996) in the longest contiguous span"), "\(reason)")
        #expect(Self.real(whole["RMSSD"]) != nil, "time-domain metrics stay")
    }

    @Test("a hole over 300 s splits the NN series; spectral metrics are those of the longest contiguous span")
    func contiguousRuns() throws {
        // Three spans of 1 s intervals: 100 s, then 3 min after a 301-s hole, then 50 s after a 299-s hole.
        var times = [Double](), ms = [Double]()
        var t = 0.0
        for (n, hole) in [(100, 0.0), (180, 301.0), (50, 299.0)] {
            t += hole
            for _ in 0..<n {
                t += 1
                times.append(t)
                ms.append(1000)
            }
        }
        let runs = HRVAnalysis.contiguousRuns(milliseconds: ms, closingTimes: times)
        #expect(runs == [0..<100, 100..<330])
        #expect(HRVAnalysis.longestContiguousRun(milliseconds: ms, closingTimes: times) == 100..<330)
    }
}

import Cardio
import Foundation
import Motion
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

    static func run(
        _ name: String, families: [String]? = nil, analysis: AnalysisConfiguration = AnalysisConfiguration()
    ) throws -> (MemorySink, RecordingAnalysis.Summary) {
        let sink = MemorySink()
        let chosen = try (families ?? AnalysisRegistry.families.map(\.name)).map {
            try #require(AnalysisRegistry.family(named: $0))
        }
        let summary = try RecordingAnalysis.run(
            recording: RecordingInput(path: file(name)), analysis: analysis, families: chosen, sink: sink)
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

    /// The gap files and the spans their samples cover (Unix s), as the generator writes them.
    static let gapCases: [(String, [ClosedRange<Double>])] = {
        let t0 = 1_716_307_300.0
        let apart: [ClosedRange<Double>] = [t0...(t0 + 60), (t0 + 1_000_060)...(t0 + 1_000_120)]
        let reset: [ClosedRange<Double>] = [0...60, t0...(t0 + 60)]
        return [
            ("ecg-gap-1e6.ndjson.gz", apart), ("ppg-gap-1e6.ndjson.gz", apart),
            ("ecg-clock-reset-1970.ndjson.gz", reset), ("ppg-clock-reset-1970.ndjson.gz", reset),
        ]
    }()

    @Test(
        "a gap (1e6 s) or a clock reset to 1970 costs nothing: no window inside it, every row meets the data",
        arguments: gapCases)
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

    // MARK: - Class 3: PPG duplicate lines

    @Test("a repeated PPG line is dropped and counted; the results are those of the file without it")
    func ppgDuplicateLine() throws {
        let (dup, summary) = try Self.run("ppg-duplicate-line.ndjson.gz", families: ["ppg"])
        let (clean, _) = try Self.run("ppg-30-lines.ndjson.gz", families: ["ppg"])
        // The repeated line holds one PPG sample: 128 optical samples, 128 accelerometer samples
        // and one temperature.
        let dropped = Dictionary(
            uniqueKeysWithValues: summary.streamSummaries.map { ($0.key.description, $0.account.duplicatesDropped) })
        #expect(
            dropped == [
                "watch-1/photoplethysmogram/optical/e9/pd0,1/s1": 128, "watch-1/photoplethysmogram/accelerometer": 128,
                "watch-1/photoplethysmogram/temperature": 1,
            ], "\(dropped)")
        for table in ["beats", "heart_rate", "hrv", "ppg_quality"] {
            #expect(dup.named(table) == clean.named(table), "\(table): \(dup.named(table).count) vs \(clean.named(table).count) rows")
        }
        #expect(!clean.named("hrv").isEmpty)
    }

    // MARK: - Class 4: one outlier sample stays local

    @Test("a PPG sample of 1e6 at 30 s: beat-based heart rate is back 30 s later, for the rest of the recording")
    func ppgOutlierLocal() throws {
        let (sink, _) = try Self.run("ppg-outlier-1e6.ndjson.gz", families: ["ppg"])
        let beats = sink.named("heart_rate").filter { $0["method"] == .text("beats") }
        // The generator's pulse is 72 bpm throughout; from 60 s on (30 s after the outlier) every
        // window holds its rate.
        let late = beats.filter { (Self.real($0["window_start"]) ?? 0) >= Self.t0 + 60 }
        #expect(late.count >= 100, "\(late.count) beat-based windows after 60 s")
        let off = late.filter { Self.real($0["bpm"]).map { abs($0 - 72) > 2 } ?? true }
        #expect(off.isEmpty, "\(off.count) of \(late.count) windows after 60 s without 72 ± 2 bpm, e.g. \(off.prefix(2))")
    }

    @Test("three accelerometer samples of ±3.4e38 g are dropped and counted; the day keeps its ENMO")
    func accelerometerOutlierLocal() throws {
        let (sink, _) = try Self.run("acc-outlier-3e38.ndjson.gz", families: ["motion"])
        let streams = try #require(sink.named("motion_streams").first)
        #expect(streams["dropped_samples"] == .integer(3), "\(String(describing: streams["dropped_samples"]))")
        let day = try #require(sink.named("motion_daily").first)
        // At rest near 1 g: ENMO is small and finite (the generator's wrist at rest).
        let enmo = try #require(Self.real(day["enmo_mean_mg"]), "enmo_mean_mg is empty")
        #expect(enmo >= 0 && enmo < 100, "\(enmo)")
        for epoch in sink.named("motion_epochs") {
            if let v = Self.real(epoch["enmo_mg"]) { #expect(v.isFinite && v < 1000, "\(epoch)") }
        }
    }

    // MARK: - Class 5: units

    @Test("m/s² labelled g: implausible gravity refuses the epochs with the fix; the unit option gives rest")
    func gravityCheck() throws {
        let (sink, summary) = try Self.run("acc-mps2-as-g.ndjson.gz", families: ["motion"])
        #expect(sink.named("motion_epochs").isEmpty, "\(sink.named("motion_epochs").count) epochs written")
        let issues = summary.analysisIssues.map(\.message)
        #expect(
            issues.contains {
                $0.contains("implausible gravity") && $0.contains("look like m/s² labelled as g")
                    && $0.contains("--motion-acceleration-unit m/s^2")
            }, "\(issues)")
        var analysis = AnalysisConfiguration()
        analysis[MotionFamily.self].accelerationUnit = .metresPerSecondSquared
        let (fixed, again) = try Self.run("acc-mps2-as-g.ndjson.gz", families: ["motion"], analysis: analysis)
        #expect(!again.analysisIssues.contains { $0.message.contains("implausible gravity") })
        // 10 min at rest: every epoch sedentary, ENMO a few mg.
        let day = try #require(fixed.named("motion_daily").first)
        #expect(day["vigorous_s"] == .real(0), "\(String(describing: day["vigorous_s"]))")
        let enmo = try #require(Self.real(day["enmo_mean_mg"]))
        #expect(enmo < 50, "\(enmo)")
    }

    // MARK: - Class 6: many streams

    @Test(
        "many streams: 10,000 ECG sessions are analysed, each its own stream",
        arguments: [("ecg-10000-sessions.ndjson.gz", "ecg", 10_000)])
    func manyStreams(name: String, family: String, streams: Int) throws {
        // In process: every stream is announced and analysed. The limits (768 MiB, 30 s) are
        // checked on the same files by MalformedCorpusLimitsTests.
        let (_, summary) = try Self.run(name, families: [family])
        #expect(summary.streamSummaries.count >= streams, "\(summary.streamSummaries.count) streams")
        #expect(summary.streamSummaries.filter { $0.analyses == [family] }.count >= streams)
    }
}

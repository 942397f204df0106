import Cardio
import Foundation
import Pipeline
import Recordings
import Testing
import _TestSupport

/// ``ECGAnalyzer/finishResults()``: the typed results hold exactly the values of the result-table
/// rows ``RecordingAnalysis`` writes through the declared schemas (read back by column name), and
/// they make physiological sense on the MIT-BIH 100 demo excerpt.
@Suite("ECGResults: typed ECG results")
struct ECGResultsTests {
    static let demo = Fixtures.repositoryRoot
        .appendingPathComponent("Datasets/ecg/watch-1_mitdb100_1716282000.ndjson.gz").path

    /// Every ECG stream of `path`: the typed results of ``ECGAnalyzer/finishResults()``.
    func analyze(_ path: String, blockCapacity: Int = 65_536) throws -> [ECGResults] {
        let opened = try RecordingOpener.open(path: path, options: DecodeOptions(blockCapacity: blockCapacity))
        var analyzers = [Int: ECGAnalyzer]()
        while let event = try opened.decoder.next() {
            switch event {
            case .stream(let index, let info):
                if info.key.sensor == .electrocardiogram { analyzers[index] = ECGAnalyzer(streamName: info.key.description) }
            case .block(let b):
                analyzers[b.stream]?.consume(b)
            default:
                break
            }
        }
        return analyzers.keys.sorted().map { k in
            var a = analyzers[k]!
            return a.finishResults()
        }
    }

    /// The rows `RecordingAnalysis` writes for `path`, by table.
    func rows(_ path: String) throws -> MemorySink {
        let sink = MemorySink()
        _ = try RecordingAnalysis.run(path: path, analysis: AnalysisConfiguration(), sink: sink)
        return sink
    }

    static func real(_ v: ResultValue?) -> Double? { if case .real(let x)? = v { x } else { nil } }
    static func integer(_ v: ResultValue?) -> Int? { if case .integer(let x)? = v { x } else { nil } }
    static func text(_ v: ResultValue?) -> String? { if case .text(let x)? = v { x } else { nil } }

    /// Index and description of the first row that differs from its typed value, or `nil`; rows
    /// are read by column name (so the check does not reuse the declaration's order).
    static func firstMismatch<T>(_ values: [T], _ rows: [[String: ResultValue]], _ matches: (T, [String: ResultValue]) -> Bool) -> String? {
        guard values.count == rows.count else { return "\(values.count) values, \(rows.count) rows" }
        for (i, (v, row)) in zip(values, rows).enumerated() {
            if !matches(v, row) { return "row \(i): \(row) vs \(v)" }
            // Non-finite numbers are never written as numbers.
            if row.values.contains(where: { real($0).map { !$0.isFinite } ?? false }) { return "row \(i) holds a non-finite real" }
        }
        return nil
    }

    /// Checks typed results against the rows written for their stream, table by table.
    func checkAgainstRows(_ results: ECGResults, _ sink: MemorySink) {
        let name = results.streamName
        let r = Self.self
        let beats = sink.named("beats").filter { r.text($0["stream"]) == name }
        #expect(
            r.firstMismatch(results.beats, beats) { b, row in
                let corrections = Set((r.text(row["correction"]) ?? "?").split(separator: "+").map(String.init))
                var expected = Set<String>()
                if b.corrections.contains(.ectopic) { expected.insert("ectopic") }
                if b.corrections.contains(.longShort) { expected.insert("longShort") }
                if b.corrections.contains(.inserted) { expected.insert("inserted") }
                if b.corrections.contains(.followsRemovedExtra) { expected.insert("followsRemovedExtra") }
                if b.isRemovedExtra { expected.insert("removedExtra") }
                return r.text(row["source"]) == "ecg" && r.real(row["time"]) == b.detectionTimeSeconds
                    && r.real(row["nn_time"]) == b.nnTimeSeconds && r.integer(row["sample"]) == b.sampleIndex
                    && r.integer(row["segment"]) == b.segment && r.real(row["rr_ms"]) == b.rrMilliseconds
                    && r.real(row["nn_ms"]) == b.nnMilliseconds && r.real(row["hr_bpm"]) == b.heartRateBPM
                    && r.text(row["artefact"]) == (b.artefact?.rawValue ?? "") && corrections == expected
                    && r.text(row["quality"]) == b.qualityLabel?.rawValue
            } == nil)
        #expect(
            r.firstMismatch(results.heartRate, sink.named("heart_rate").filter { r.text($0["stream"]) == name }) { w, row in
                r.text(row["source"]) == "ecg" && r.real(row["window_start"]) == w.startSeconds
                    && r.real(row["window_end"]) == w.endSeconds && r.real(row["bpm"]) == w.heartRateBPM
                    && r.integer(row["beats"]) == w.intervalCount
            } == nil)
        #expect(
            r.firstMismatch(results.hrv, sink.named("hrv").filter { r.text($0["stream"]) == name }) { h, row in
                let values = HRVAnalysis.metricNames.map { r.real(row[$0]) ?? .nan }
                return r.real(row["window_start"]) == h.startSeconds && r.real(row["window_end"]) == h.endSeconds
                    && h.metrics.names == HRVAnalysis.metricNames && values.count == h.metrics.count
                    && zip(values, h.metrics.values).allSatisfy { $0 == $1 || ($0.isNaN && !$1.isFinite) }
                    && r.text(row["scope"]) == h.scope.rawValue
            } == nil)
        #expect(
            r.firstMismatch(results.quality, sink.named("ecg_quality").filter { r.text($0["stream"]) == name }) { q, row in
                let reals = ["kSQI", "sSQI", "pSQI", "basSQI", "bSQI", "template_correlation", "fuzzy_score", "masked_fraction"]
                    .map { r.real(row[$0]) ?? .nan }
                let typed = [q.kurtosis, q.skewness, q.pSQI, q.basSQI, q.bSQI, q.templateCorrelation, q.fuzzyScore, q.maskedFraction]
                return r.real(row["window_start"]) == q.startSeconds && r.real(row["window_end"]) == q.endSeconds
                    && r.text(row["label"]) == q.label.rawValue && r.integer(row["template_acceptable"]) == (q.isTemplateAcceptable ? 1 : 0)
                    && r.text(row["fuzzy_label"]) == q.fuzzyLabel.rawValue && r.integer(row["beats"]) == q.beatCount
                    && zip(reals, typed).allSatisfy { $0 == $1 || ($0.isNaN && !$1.isFinite) }
            } == nil)
        // Only the last HRV result covers the whole stream.
        #expect(results.hrv.dropLast().allSatisfy { $0.scope == .window })
        #expect(results.hrv.isEmpty || results.recordingHRV != nil)
    }

    @Test("typed results equal the rows RecordingAnalysis writes (demo MIT-BIH 100)")
    func demoMatchesRows() throws {
        let streams = try analyze(Self.demo)
        try #require(streams.count == 1)
        checkAgainstRows(streams[0], try rows(Self.demo))
        #expect(streams[0].issues.isEmpty)
    }

    @Test("HRV columns follow HRVAnalysis.metricNames (HRVMetric lists them in order)")
    func metricOrder() {
        #expect(HRVMetric.allCases.map(\.rawValue) == HRVAnalysis.metricNames)
    }

    @Test("typed results do not depend on the block size")
    func blockSizeIndependence() throws {
        let whole = try analyze(Self.demo, blockCapacity: 1 << 20)[0]
        let parts = try analyze(Self.demo, blockCapacity: 97)[0]
        #expect(whole.beats.count == parts.beats.count)
        #expect(zip(whole.beats, parts.beats).enumerated().first { $0.element.0 != $0.element.1 }?.offset == nil)
        #expect(whole.heartRate == parts.heartRate) // 6 windows
        // HRV and quality hold NaN where not computable (NaN ≠ NaN): compare bit patterns.
        #expect(whole.hrv.map(Self.bits) == parts.hrv.map(Self.bits)) // 1 result
        #expect(whole.quality.map(Self.bits) == parts.quality.map(Self.bits)) // 6 windows
    }

    static func bits(_ h: HRVResult) -> [UInt64] {
        [h.startSeconds, h.endSeconds, Double(h.intervalCount)].map(\.bitPattern) + h.metrics.values.map(\.bitPattern)
            + [h.scope == .window ? 0 : 1]
    }

    static func bits(_ q: ECGQualityResult) -> [UInt64] {
        [
            q.startSeconds, q.endSeconds, q.kurtosis, q.skewness, q.pSQI, q.basSQI, q.bSQI, q.templateCorrelation,
            q.fuzzyScore, q.maskedFraction, Double(q.beatCount),
        ].map(\.bitPattern)
            + [
                q.isTemplateAcceptable ? 1 : 0, UInt64(ECGQualityLabel.allCases.firstIndex(of: q.label)!),
                UInt64(ECGQualityLabel.allCases.firstIndex(of: q.fuzzyLabel)!),
            ]
    }

    /// MIT-BIH 100, first minute: 74 annotated beats (demo-beats.json, from the record's `.atr`),
    /// so 73 RR intervals over 59.29 s: 73.87 bpm. Sinus rhythm with one atrial premature beat
    /// (annotated `A` at 5.678 s), the only place where artefact correction may act.
    @Test("physiology of the demo: MIT-BIH 100, first minute")
    func demoPhysiology() throws {
        let results = try analyze(Self.demo)[0]
        let reference = try #require(
            try Fixtures.json("PipelineTests", "demo-beats.json")[
                "watch-1/electrocardiogram/ecg/session=mitdb-100"] as? [Double])
        let referenceBPM = 60 * Double(reference.count - 1) / (reference[reference.count - 1] - reference[0])

        #expect(results.beats.count == 74)
        // Every beat detected; nothing inserted or removed.
        #expect(results.beats.allSatisfy { $0.sampleIndex != nil && !$0.isRemovedExtra && !$0.corrections.contains(.inserted) })
        // The premature beat and the two after it (its long compensatory interval) at most.
        let streamStart = try #require(results.heartRate.first?.startSeconds)
        let touched = results.beats.filter { $0.artefact != nil || !$0.corrections.isEmpty }
        #expect(touched.count <= 3)
        #expect(touched.allSatisfy { $0.listedTimeSeconds - streamStart > 5.5 && $0.listedTimeSeconds - streamStart < 8 })
        #expect(zip(results.beats, results.beats.dropFirst()).allSatisfy { $0.listedTimeSeconds < $1.listedTimeSeconds })
        // Detection times are never moved: they are the sample's time.
        #expect(
            results.beats.allSatisfy { b in
                b.detectionTimeSeconds.map { abs($0 - streamStart - Double(b.sampleIndex!) / 512) < 1e-9 } ?? false
            })
        #expect(results.beats.first?.nnMilliseconds == nil && results.beats.dropFirst().allSatisfy { $0.nnMilliseconds != nil })

        let bpm = try #require(results.meanHeartRateBPM)
        #expect(abs(bpm - referenceBPM) < 0.2, "mean HR \(bpm) bpm, annotations \(referenceBPM) bpm")
        #expect(bpm > 73 && bpm < 76)
        #expect(results.heartRate.count == 6)
        #expect(results.heartRate.allSatisfy { ($0.heartRateBPM ?? 0) > 70 && ($0.heartRateBPM ?? 0) < 78 })

        let hrv = try #require(results.recordingHRV)
        // HRV uses the normal-to-normal intervals: the one annotated premature atrial beat of
        // the minute (near 6.5 s) takes its intervals out (issue 10), and so may the first
        // interval (the first beat is classified against no template but its own: uncertain).
        let excluded = results.beats.enumerated().filter { $0.element.nnExclusion != nil }
        #expect(excluded.count >= 2 && excluded.count <= 5)
        #expect(
            excluded.allSatisfy { k, b in
                k == 1 || (b.listedTimeSeconds - streamStart > 5.5 && b.listedTimeSeconds - streamStart < 8.5)
            })
        #expect(hrv.intervalCount == 73 - excluded.count && hrv.coverage.intervalCount == 73)
        let meanNN = try #require(hrv.metrics[.meanNN]), sdnn = try #require(hrv.metrics[.sdnn])
        let rmssd = try #require(hrv.metrics[.rmssd])
        #expect(abs(60000 / meanNN - bpm) < 0.01 * bpm)
        #expect(results.summary?.beatCount == 74 && results.summary?.meanHeartRateBPM == bpm)
        #expect(sdnn > 10 && sdnn < 60, "SDNN \(sdnn) ms") // resting sinus rhythm, 1 minute
        #expect(rmssd > 10 && rmssd < 60, "RMSSD \(rmssd) ms")

        #expect(results.quality.count == 6)
        #expect(results.quality.allSatisfy { $0.label != .unacceptable })
        #expect(results.beats.allSatisfy { $0.qualityLabel != nil })
    }

    /// A full record with ectopy (MIT-BIH 203: inserted beats and beats removed as extra, two
    /// streams) exercises every kind of beat row.
    @Test(
        "typed results equal the rows on MIT-BIH 203 (artefacts, two streams)",
        .enabled(if: Fixtures.sharedDatasets != nil, "../shared/datasets is absent"))
    func fullRecordMatchesRows() throws {
        let path = try #require(Fixtures.sharedDatasets).appendingPathComponent("mitdb/203.hea").path
        let streams = try analyze(path)
        #expect(streams.count == 2)
        let sink = try rows(path)
        for results in streams {
            checkAgainstRows(results, sink)
            #expect(results.beats.contains { $0.isRemovedExtra && $0.nnMilliseconds == nil && $0.sampleIndex != nil })
            #expect(results.beats.contains { $0.corrections.contains(.inserted) && $0.sampleIndex == nil })
            #expect(results.hrv.count > 2) // 5-minute windows, then the whole record
        }
    }
}

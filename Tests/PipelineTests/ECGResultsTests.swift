import Cardio
import Foundation
import Pipeline
import Recordings
import Testing
import _TestSupport

/// ``ECGAnalyzer/finishResults()``: the typed results hold exactly the values of the result-table
/// rows (``ECGAnalyzer/finish()``, ``RecordingAnalysis``), and they make physiological sense on
/// the MIT-BIH 100 demo excerpt.
@Suite("ECGResults: typed ECG results")
struct ECGResultsTests {
    static let demo = Fixtures.repositoryRoot
        .appendingPathComponent("Datasets/ecg/watch-1_mitdb100_1716282000.ndjson.gz").path

    /// Every ECG stream of `path`, analysed twice from the same state: typed results and rows.
    func analyze(_ path: String, blockCapacity: Int = 65_536) throws -> [(results: ECGResults, rows: ECGAnalyzer.Output)] {
        let opened = try RecordingOpener.open(path: path, options: DecodeOptions(blockCapacity: blockCapacity))
        var analyzers = [Int: ECGAnalyzer]()
        var streams = 0
        while let event = try opened.decoder.next() {
            switch event {
            case .stream(_, let info):
                if info.key.sensor == .electrocardiogram { analyzers[streams] = ECGAnalyzer(streamName: info.key.description) }
                streams += 1
            case .block(let b):
                analyzers[b.stream]?.consume(b)
            default:
                break
            }
        }
        return analyzers.keys.sorted().map { k in
            var typed = analyzers[k]!, rows = typed   // value copies: the same state finished twice
            return (typed.finishResults(), rows.finish())
        }
    }

    static func real(_ v: ResultValue) -> Double? { if case .real(let x) = v { x } else { nil } }
    static func integer(_ v: ResultValue) -> Int? { if case .integer(let x) = v { x } else { nil } }
    static func text(_ v: ResultValue) -> String? { if case .text(let x) = v { x } else { nil } }

    /// Index and description of the first row that differs from its typed value, or `nil`.
    static func firstMismatch<T>(_ values: [T], _ rows: [[ResultValue]], columns: Int,
                                 _ matches: (T, [ResultValue]) -> Bool) -> String? {
        guard values.count == rows.count else { return "\(values.count) values, \(rows.count) rows" }
        for (i, (v, row)) in zip(values, rows).enumerated() {
            if row.count != columns || !matches(v, row) { return "row \(i): \(row) vs \(v)" }
            // Non-finite numbers are never written as numbers.
            if row.contains(where: { real($0).map { !$0.isFinite } ?? false }) { return "row \(i) holds a non-finite real" }
        }
        return nil
    }

    /// Checks typed results against rows built without them, table by table.
    func checkAgainstRows(_ results: ECGResults, _ rows: ECGAnalyzer.Output) {
        let name = results.streamName
        let r = Self.self
        #expect(r.firstMismatch(results.beats, rows.beats, columns: ResultTables.beats.columns.count) { b, row in
            let corrections = Set((r.text(row[8]) ?? "?").split(separator: "+").map(String.init))
            var expected = Set<String>()
            if b.corrections.contains(.ectopic) { expected.insert("ectopic") }
            if b.corrections.contains(.longShort) { expected.insert("longShort") }
            if b.corrections.contains(.inserted) { expected.insert("inserted") }
            if b.corrections.contains(.followsRemovedExtra) { expected.insert("followsRemovedExtra") }
            if b.isRemovedExtra { expected.insert("removedExtra") }
            return r.text(row[0]) == name && r.real(row[1]) == b.timeSeconds && r.integer(row[2]) == b.sampleIndex
                && r.integer(row[3]) == b.segment && r.real(row[4]) == b.rrMilliseconds
                && r.real(row[5]) == b.nnMilliseconds && r.real(row[6]) == b.heartRateBPM
                && r.text(row[7]) == (b.artefact?.rawValue ?? "") && corrections == expected
                && r.text(row[9]) == b.qualityLabel?.rawValue
        } == nil)
        #expect(r.firstMismatch(results.heartRate, rows.heartRate, columns: ResultTables.heartRate.columns.count) { w, row in
            r.text(row[0]) == name && r.text(row[1]) == "ecg" && r.real(row[2]) == w.startSeconds
                && r.real(row[3]) == w.endSeconds && r.real(row[4]) == w.heartRateBPM && r.integer(row[5]) == w.intervalCount
        } == nil)
        #expect(r.firstMismatch(results.hrv, rows.hrv, columns: ResultTables.hrv.columns.count) { h, row in
            let values = row[3..<row.count - 1].map { r.real($0) ?? .nan }
            return r.text(row[0]) == name && r.real(row[1]) == h.startSeconds && r.real(row[2]) == h.endSeconds
                && h.metrics.names == HRVAnalysis.metricNames && values.count == h.metrics.count
                && zip(values, h.metrics.values).allSatisfy { $0 == $1 || ($0.isNaN && !$1.isFinite) }
                && r.text(row[row.count - 1]) == h.scope.rawValue
        } == nil)
        #expect(r.firstMismatch(results.quality, rows.quality, columns: ResultTables.quality.columns.count) { q, row in
            let reals = [4, 5, 6, 7, 8, 9, 12, 13].map { r.real(row[$0]) ?? .nan }
            let typed = [q.kurtosis, q.skewness, q.pSQI, q.basSQI, q.bSQI, q.templateCorrelation, q.fuzzyScore, q.maskedFraction]
            return r.text(row[0]) == name && r.real(row[1]) == q.startSeconds && r.real(row[2]) == q.endSeconds
                && r.text(row[3]) == q.label.rawValue && r.integer(row[10]) == (q.isTemplateAcceptable ? 1 : 0)
                && r.text(row[11]) == q.fuzzyLabel.rawValue && r.integer(row[14]) == q.beatCount
                && zip(reals, typed).allSatisfy { $0 == $1 || ($0.isNaN && !$1.isFinite) }
        } == nil)
        // Only the last HRV result covers the whole stream.
        #expect(results.hrv.dropLast().allSatisfy { $0.scope == .window })
        #expect(results.hrv.isEmpty || results.recordingHRV != nil)
    }

    @Test("typed results equal the rows finish() and RecordingAnalysis write (demo MIT-BIH 100)")
    func demoMatchesRows() throws {
        let streams = try analyze(Self.demo)
        try #require(streams.count == 1)
        checkAgainstRows(streams[0].results, streams[0].rows)
        #expect(streams[0].results.issues.isEmpty)

        let sink = MemorySink()
        _ = try RecordingAnalysis.run(path: Self.demo, analysis: AnalysisConfiguration(), sink: sink)
        let rows = streams[0].rows
        for (table, mine) in [("beats", rows.beats), ("heart_rate", rows.heartRate), ("hrv", rows.hrv), ("quality", rows.quality)] {
            let theirs = sink.committed[table] ?? []
            #expect(mine.count == theirs.count, "\(table)")
            let differing = zip(mine, theirs).enumerated().first { $0.element.0 != $0.element.1 }?.offset
            #expect(differing == nil, "\(table): first differing row \(differing ?? -1)")
        }
    }

    @Test("typed results do not depend on the block size")
    func blockSizeIndependence() throws {
        let whole = try analyze(Self.demo, blockCapacity: 1 << 20)[0].results
        let parts = try analyze(Self.demo, blockCapacity: 97)[0].results
        #expect(whole.beats.count == parts.beats.count)
        #expect(zip(whole.beats, parts.beats).enumerated().first { $0.element.0 != $0.element.1 }?.offset == nil)
        #expect(whole.heartRate == parts.heartRate)   // 6 windows
        // HRV and quality hold NaN where not computable (NaN ≠ NaN): compare bit patterns.
        #expect(whole.hrv.map(Self.bits) == parts.hrv.map(Self.bits))             // 1 result
        #expect(whole.quality.map(Self.bits) == parts.quality.map(Self.bits))     // 6 windows
    }

    static func bits(_ h: HRVResult) -> [UInt64] {
        [h.startSeconds, h.endSeconds, Double(h.intervalCount)].map(\.bitPattern) + h.metrics.values.map(\.bitPattern)
            + [h.scope == .window ? 0 : 1]
    }

    static func bits(_ q: ECGQualityResult) -> [UInt64] {
        [q.startSeconds, q.endSeconds, q.kurtosis, q.skewness, q.pSQI, q.basSQI, q.bSQI, q.templateCorrelation,
         q.fuzzyScore, q.maskedFraction, Double(q.beatCount)].map(\.bitPattern)
            + [q.isTemplateAcceptable ? 1 : 0, UInt64(ECGQualityLabel.allCases.firstIndex(of: q.label)!),
               UInt64(ECGQualityLabel.allCases.firstIndex(of: q.fuzzyLabel)!)]
    }

    /// MIT-BIH 100, first minute: 74 annotated beats (demo-beats.json, from the record's `.atr`),
    /// so 73 RR intervals over 59.29 s: 73.87 bpm. Sinus rhythm with one atrial premature beat
    /// (annotated `A` at 5.678 s), the only place where artefact correction may act.
    @Test("physiology of the demo: MIT-BIH 100, first minute")
    func demoPhysiology() throws {
        let results = try analyze(Self.demo)[0].results
        let reference = try #require(try Fixtures.json("PipelineTests", "demo-beats.json")[
            "watch-1/electrocardiogram/ecg/session=mitdb-100"] as? [Double])
        let referenceBPM = 60 * Double(reference.count - 1) / (reference[reference.count - 1] - reference[0])

        #expect(results.beats.count == 74)
        // Every beat detected; nothing inserted or removed.
        #expect(results.beats.allSatisfy { $0.sampleIndex != nil && !$0.isRemovedExtra && !$0.corrections.contains(.inserted) })
        // The premature beat and the two after it (its long compensatory interval) at most.
        let streamStart = try #require(results.heartRate.first?.startSeconds)
        let touched = results.beats.filter { $0.artefact != nil || !$0.corrections.isEmpty }
        #expect(touched.count <= 3)
        #expect(touched.allSatisfy { $0.timeSeconds - streamStart > 5.5 && $0.timeSeconds - streamStart < 8 })
        #expect(zip(results.beats, results.beats.dropFirst()).allSatisfy { $0.timeSeconds < $1.timeSeconds })
        #expect(results.beats.first?.nnMilliseconds == nil && results.beats.dropFirst().allSatisfy { $0.nnMilliseconds != nil })

        let bpm = try #require(results.meanHeartRateBPM)
        #expect(abs(bpm - referenceBPM) < 0.2, "mean HR \(bpm) bpm, annotations \(referenceBPM) bpm")
        #expect(bpm > 73 && bpm < 76)
        #expect(results.heartRate.count == 6)
        #expect(results.heartRate.allSatisfy { ($0.heartRateBPM ?? 0) > 70 && ($0.heartRateBPM ?? 0) < 78 })

        let hrv = try #require(results.recordingHRV)
        #expect(hrv.intervalCount == 73)
        let meanNN = try #require(hrv.metrics[.meanNN]), sdnn = try #require(hrv.metrics[.sdnn])
        let rmssd = try #require(hrv.metrics[.rmssd])
        #expect(abs(60000 / meanNN - bpm) < 1e-9 * bpm)
        #expect(sdnn > 10 && sdnn < 60, "SDNN \(sdnn) ms")     // resting sinus rhythm, 1 minute
        #expect(rmssd > 10 && rmssd < 60, "RMSSD \(rmssd) ms")

        #expect(results.quality.count == 6)
        #expect(results.quality.allSatisfy { $0.label != .unacceptable })
        #expect(results.beats.allSatisfy { $0.qualityLabel != nil })
    }

    /// A full record with ectopy (MIT-BIH 203: inserted beats and beats removed as extra, two
    /// streams) exercises every kind of beat row.
    @Test("typed results equal the rows on MIT-BIH 203 (artefacts, two streams)",
          .enabled(if: Fixtures.sharedDatasets != nil, "../shared/datasets is absent"))
    func fullRecordMatchesRows() throws {
        let path = try #require(Fixtures.sharedDatasets).appendingPathComponent("mitdb/203.hea").path
        let streams = try analyze(path)
        #expect(streams.count == 2)
        for (results, rows) in streams {
            checkAgainstRows(results, rows)
            #expect(results.beats.contains { $0.isRemovedExtra && $0.nnMilliseconds == nil && $0.sampleIndex != nil })
            #expect(results.beats.contains { $0.corrections.contains(.inserted) && $0.sampleIndex == nil })
            #expect(results.hrv.count > 2)   // 5-minute windows, then the whole record
        }
    }
}

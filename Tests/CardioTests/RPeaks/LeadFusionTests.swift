import Foundation
import Signals
import Testing
import _TestSupport

@testable import Cardio

/// Collects emitted rows as column name → value.
final class ECGRowCollector: ResultOutput {
    var rows: [String: [[String: ResultValue]]] = [:]
    func emit<Row>(_ schema: TableSchema<Row>, _ row: Row) throws {
        let names = schema.table.columns.map(\.name)
        rows[schema.table.name, default: []].append(Dictionary(uniqueKeysWithValues: zip(names, schema.values(of: row))))
    }
    func table(_ name: String, stream: String) -> [[String: ResultValue]] {
        (rows[name] ?? []).filter { $0["stream"] == .text(stream) }
    }
}

@Suite("Lead selection and lead fusion")
struct LeadFusionTests {
    static let rate = 360.0

    /// Two leads of MIT-BIH 119 (0:00–0:30, in µV; the annotated beats are the reference): lead 0
    /// carries bursts of electrode-motion-like noise (a random walk plus 12 Hz bursts) from 8 s to
    /// 22 s, lead 1 is the clean signal 10 samples (28 ms) later, at 0.6 of the amplitude.
    static func twoLeads() throws -> (noisy: [Float], clean: [Float], beats: [Int]) {
        let (x, beats) = try RPeakDetectorTests.excerpt(360)
        var rng = SeededGenerator(seed: 11)
        var noisy = x.map { $0 * 1000 }
        var walk: Float = 0
        for i in Int(8 * rate)..<Int(22 * rate) {
            walk += Float.random(in: -60...60, using: &rng)
            walk *= 0.995
            let t = Double(i) / rate
            let burst: Float = Int(t * 2) % 2 == 0 ? 900 * Float(sin(2 * Double.pi * 12 * t)) : 0
            noisy[i] += 8 * walk + burst
        }
        var clean = [Float](repeating: 0, count: x.count)
        for i in 10..<x.count { clean[i] = 600 * x[i - 10] }
        return (noisy, clean, beats)
    }

    /// Runs the ECG family over two leads of device `rec`, delivered in blocks of `block` samples
    /// (interleaved lead by lead).
    static func run(
        _ leads: [[Float]], names: [String], block: Int, options: ECGOptions = ECGOptions()
    ) throws -> (rows: ECGRowCollector, issues: [String]) {
        var a = ECGFamily.makeAnalyzer(options: options)
        let out = ECGRowCollector()
        var claimed = [Bool]()
        for (k, name) in names.enumerated() {
            let info = StreamInfo(
                key: StreamKey(deviceID: "rec", sensor: .electrocardiogram, channel: name),
                columns: [ColumnInfo(name: "value", unit: .microvolts)], nominalSampleRate: rate, attributes: ["lead": name],
                timeOrigin: .streamStart)
            claimed.append(a.claim(AnnouncedStream(index: k, info: info, file: "rec.hea")))
        }
        let n = leads[0].count
        var start = 0
        while start < n {
            let m = min(block, n - start)
            for (k, x) in leads.enumerated() where claimed[k] {
                let b = SampleBlock(
                    stream: k, segment: 0, firstSample: start, time: .uniform(segmentStart: 0, sampleRate: rate),
                    columns: [Array(x[start..<start + m])], flags: [UInt8](repeating: 0, count: m),
                    endsSegment: start + m == n)
                try a.consume(b, output: out)
            }
            start += m
        }
        try a.finish(output: out)
        return (out, a.issues)
    }

    static func detectedSamples(_ rows: [[String: ResultValue]]) -> [Int] {
        rows.compactMap { r -> Int? in
            guard case .real(let t)? = r["time"] else { return nil }
            return Int((t * rate).rounded())
        }
    }

    @Test("The fused series takes each beat from the cleaner lead, on the first lead's fiducial")
    func fusedTakesCleanerLead() throws {
        let (noisy, clean, beats) = try Self.twoLeads()
        let (rows, _) = try Self.run([noisy, clean], names: ["MLII", "V1"], block: 4096)
        let lead0 = Self.detectedSamples(rows.table("beats", stream: "rec/electrocardiogram/MLII"))
        let fusedRows = rows.table("beats", stream: "rec/electrocardiogram/fused")
        let fused = Self.detectedSamples(fusedRows)
        let s0 = BeatMatching.match(reference: beats, detections: lead0, sampleRate: Self.rate)
        let sf = BeatMatching.match(reference: beats, detections: fused, sampleRate: Self.rate)
        // The noise must hurt the noisy lead, else the test shows nothing.
        #expect(s0.falsePositives + s0.falseNegatives >= 3, "noisy lead: \(s0)")
        #expect(sf.falsePositives == 0 && sf.falseNegatives == 0, "fused: \(sf)")
        #expect(fusedRows.allSatisfy { $0["source"] == .text("fused") })
        // The clean lead's 28-ms delay is taken out: fused times sit on the annotations (±2 samples).
        #expect(abs(sf.medianOffsetMilliseconds) <= 2 * 1000 / Self.rate + 1e-9, "median offset \(sf.medianOffsetMilliseconds) ms")
        #expect(!rows.table("hrv", stream: "rec/electrocardiogram/fused").isEmpty)
        #expect(rows.table("ecg_summary", stream: "rec/electrocardiogram/fused").count == 1)
        #expect(rows.table("heart_rate", stream: "rec/electrocardiogram/fused").allSatisfy { $0["source"] == .text("fused") })
    }

    @Test("Fused rows do not depend on the block size", arguments: [1, 37, 1000])
    func chunkedEqualsWhole(block: Int) throws {
        let (noisy, clean, _) = try Self.twoLeads()
        let whole = try Self.run([noisy, clean], names: ["MLII", "V1"], block: noisy.count).rows
        let chunked = try Self.run([noisy, clean], names: ["MLII", "V1"], block: block).rows
        for table in ["beats", "heart_rate", "ecg_summary"] {
            let w = whole.table(table, stream: "rec/electrocardiogram/fused")
            #expect(!w.isEmpty)
            #expect(w == chunked.table(table, stream: "rec/electrocardiogram/fused"), "\(table), blocks of \(block)")
        }
    }

    @Test("--channel picks leads by name, lead attribute or index; unknown names are reported; no fusion for one lead")
    func channelSelection() throws {
        let (noisy, clean, _) = try Self.twoLeads()
        #expect(ECGFamily.options(applying: ["channel": .choice(" V1 ,0")]).channels == ["V1", "0"])
        #expect(ECGFamily.options(applying: ["channel": .choice("all")]).channels.isEmpty)
        #expect(ECGFamily.defaultOptions.channels.isEmpty && ECGFamily.defaultOptions.fusesLeads)
        for selector in ["V1", "1"] {
            var o = ECGOptions()
            o.channels = [selector]
            let (rows, issues) = try Self.run([noisy, clean], names: ["MLII", "V1"], block: 4096, options: o)
            #expect(rows.table("beats", stream: "rec/electrocardiogram/MLII").isEmpty, "\(selector)")
            #expect(!rows.table("beats", stream: "rec/electrocardiogram/V1").isEmpty, "\(selector)")
            #expect(rows.table("beats", stream: "rec/electrocardiogram/fused").isEmpty, "\(selector)")
            #expect(issues.isEmpty)
        }
        var o = ECGOptions()
        o.channels = ["V2"]
        let (rows, issues) = try Self.run([noisy, clean], names: ["MLII", "V1"], block: 4096, options: o)
        #expect(rows.rows["beats"] == nil)
        #expect(issues == ["ecg channel 'V2' matches no ECG stream (ECG channels: MLII, V1)"])
        var off = ECGOptions()
        off.fusesLeads = false
        let unfused = try Self.run([noisy, clean], names: ["MLII", "V1"], block: 4096, options: off).rows
        #expect(unfused.table("beats", stream: "rec/electrocardiogram/fused").isEmpty)
        #expect(!unfused.table("beats", stream: "rec/electrocardiogram/V1").isEmpty)
    }

    /// A lead of beats at `times` with one window over them labelled `label`.
    static func lead(_ times: [Double], _ label: ECGQualityLabel, correlation: Float = 0.9) -> LeadFusion.Lead {
        var s = BeatSeries()
        for (i, t) in times.enumerated() { s.append(segment: 0, sampleIndex: i, timeSeconds: t, beatClass: .normal) }
        s.cover(from: 0, to: 20)
        return LeadFusion.Lead(
            series: s, windows: [LeadFusion.Window(start: 0, end: 20, label: label, templateCorrelation: correlation)])
    }

    @Test("Two leads: the cleaner lead decides; three leads: a majority also counts")
    func decisionRules() {
        let beats = (0..<10).map { 1.0 + Double($0) }
        // Lead 0 noisy: misses beat 4, adds a beat at 6.5. Lead 1 clean, 20 ms later.
        let noisy = beats.filter { $0 != 5 } + [6.5]
        let a = Self.lead(noisy.sorted(), .unacceptable)
        let b = Self.lead(beats.map { $0 + 0.02 }, .excellent)
        let two = LeadFusion.fuse([a, b], options: BeatSeriesOptions()).series.times
        #expect(two.count == beats.count)
        #expect(zip(two, beats).allSatisfy { abs($0 - $1) < 1e-9 }, "\(two)")
        // Same quality, lead 0 ranked by its higher correlation: its miss and extra beat stay.
        let a2 = Self.lead(noisy.sorted(), .excellent, correlation: 0.95)
        let two2 = LeadFusion.fuse([a2, b], options: BeatSeriesOptions()).series.times
        #expect(two2.count == noisy.count)
        // Three leads, lead 0 cleanest: the beat it missed is confirmed by the two others; its
        // extra beat, seen by no other lead, stays (it is the cleanest lead's).
        let a3 = Self.lead(noisy.sorted(), .excellent, correlation: 0.99)
        let c = Self.lead(beats.map { $0 - 0.01 }, .barelyAcceptable)
        let three = LeadFusion.fuse([a3, b, c], options: BeatSeriesOptions()).series.times
        #expect(three.count == beats.count + 1)
        #expect(three.contains { abs($0 - 5) < 1e-9 })
    }

    @Test("A new fused segment starts where the timing lead crossed a gap")
    func fusedSegments() {
        var a = BeatSeries()
        for t in [1.0, 2, 3, 4, 7, 8, 9] { a.append(segment: t < 5 ? 0 : 1, sampleIndex: 0, timeSeconds: t, beatClass: .normal) }
        let lead0 = LeadFusion.Lead(
            series: a, windows: [LeadFusion.Window(start: 0, end: 20, label: .excellent, templateCorrelation: 0.9)])
        let b = Self.lead([1.0, 2, 3, 4, 5, 6, 7, 8, 9], .unacceptable)
        let f = LeadFusion.fuse([lead0, b], options: BeatSeriesOptions()).series
        #expect(f.times == [1, 2, 3, 4, 7, 8, 9])
        #expect(f.segments == [0, 0, 0, 0, 1, 1, 1])
    }
}

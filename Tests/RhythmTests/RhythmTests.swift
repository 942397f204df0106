import Foundation
import Pipeline
import Recordings
import Rhythm
import Testing
import _TestSupport

/// Collects rows of the rhythm tables (a test output).
final class RhythmRows: ResultOutput {
    var windows: [RhythmWindowRow] = []
    var episodes: [RhythmEpisodeRow] = []
    func emit<Row>(_ schema: TableSchema<Row>, _ row: Row) throws {
        if let w = row as? RhythmWindowRow { windows.append(w) }
        if let e = row as? RhythmEpisodeRow { episodes.append(e) }
    }
}

@Suite("Rhythm: RR measures, windows, episodes, chunked = whole, CinC excerpt")
struct RhythmTests {
    // MARK: - RR measures against closed forms

    @Test("a constant RR series: no irregularity; COSEn = ln(2r / RR) with SampEn 0")
    func constantSeries() throws {
        let m = try #require(RRIrregularity(intervals: Array(repeating: 0.8, count: 20)))
        #expect(m.count == 20)
        #expect(abs(m.meanSeconds - 0.8) < 1e-12)
        #expect(m.normalizedRMSSD == 0)
        #expect(m.shannonEntropy == 0)
        #expect(m.turningPointRatio == 0)
        #expect(m.largeDeltaShare == 0)
        // Every pair of templates matches at lengths 1 and 2: A = B, SampEn = 0.
        #expect(abs(m.cosEn - log(0.060 / 0.8)) < 1e-12)
    }

    @Test("an alternating series: every inner point turns; nRMSSD = |Δ| / mean; two equal bins")
    func alternatingSeries() throws {
        let rr = (0..<21).map { $0 % 2 == 0 ? 0.6 : 1.0 }
        let m = try #require(RRIrregularity(intervals: rr))
        #expect(m.turningPointRatio == 1)
        let mean = (11 * 0.6 + 10 * 1.0) / 21
        #expect(abs(m.normalizedRMSSD - 0.4 / mean) < 1e-12)
        // 11 and 10 of 21 in two bins: H = −Σ p ln p / ln 16.
        let p = [11.0 / 21, 10.0 / 21]
        #expect(abs(m.shannonEntropy - (-p.map { $0 * log($0) }.reduce(0, +) / log(16))) < 1e-12)
        #expect(m.largeDeltaShare == 1)
        #expect(RRIrregularity(intervals: [0.8, 0.8, 0.8]) == nil)
    }

    @Test("intervals outside 0.25–2.5 s are left out")
    func intervalRange() {
        let kept = RRIrregularity.intervals([0, 0.1, 1.0, 4.0, 4.8])
        #expect(kept.count == 2)
        #expect(zip(kept, [0.9, 0.8]).allSatisfy { abs($0 - $1) < 1e-12 })
    }

    // MARK: - Windows and episodes through the family (pulse timing, rr model)

    /// A 200-s PPG stream: regular pulses (0.8 s) for 100 s, then strongly irregular ones.
    static func pulses() -> [Double] {
        var t = [Double]()
        var x = 0.0
        var seed: UInt64 = 12_345
        while x < 200 {
            t.append(x)
            if x < 100 {
                x += 0.8
            } else {
                seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                x += 0.35 + 0.9 * Double(seed >> 11) / Double(1 << 53)
            }
        }
        return t
    }

    func run(blockSeconds: Double, options: RhythmOptions = RhythmOptions()) throws -> RhythmRows {
        try runPPG(beats: Self.pulses(), seconds: 200, blockSeconds: blockSeconds, options: options).rows
    }

    /// A PPG stream at 25 Hz of `seconds` (zeros) with pulses at `beats` (s), each published 3 s
    /// after its samples (a detector's lag), the samples in blocks of `blockSeconds`. `written`:
    /// the windows written when the first pulse at or after `watch` is published (−1 if none).
    func runPPG(
        beats: [Double], seconds: Int, blockSeconds: Double, options: RhythmOptions = RhythmOptions(), watch: Double = .infinity
    ) throws -> (rows: RhythmRows, written: Int) {
        var analyzer = RhythmFamily.makeAnalyzer(options: options)
        let info = StreamInfo(
            key: StreamKey(deviceID: "watch", sensor: .photoplethysmogram, channel: "green"),
            columns: [ColumnInfo(name: "green", unit: .dimensionless)], nominalSampleRate: 25, role: .optical)
        let claimed = analyzer.claim(AnnouncedStream(index: 0, info: info, file: "x"))
        #expect(claimed)
        let out = RhythmRows()
        let rate = 25.0, total = seconds * 25
        let perBlock = max(1, Int(blockSeconds * rate))
        let series = DerivedSeries(
            source: "ppg", name: "pulses", summary: "", isEventSeries: true,
            attributes: [.label("quality", values: ["good", "acceptable", "unacceptable"], "")])
        var next = 0, first = 0, written = -1
        func publish(until time: Double) throws {
            while next < beats.count && beats[next] < time {
                if beats[next] >= watch && written < 0 { written = out.windows.count }
                let e = DerivedEvent(series: "ppg_pulses", stream: info.key.description, time: beats[next], values: [.label("good")])
                try analyzer.consume(derived: e, series: series, output: out)
                next += 1
            }
        }
        while first < total {
            let n = min(perBlock, total - first)
            let block = SampleBlock(
                stream: 0, segment: 0, firstSample: first, time: .uniform(segmentStart: 0, sampleRate: rate),
                columns: [Array(repeating: 0, count: n)], flags: Array(repeating: 0, count: n), endsSegment: first + n == total)
            try analyzer.consume(block, output: out)
            try publish(until: Double(first + n) / rate - 3)
            first += n
        }
        try publish(until: .infinity)
        try analyzer.finish(output: out)
        return (out, written)
    }

    @Test("a 200-s stream gets 30-s windows from its start, the last one short; AF windows merge into one episode")
    func windowsAndEpisodes() throws {
        let out = try run(blockSeconds: 1000)
        #expect(out.windows.map(\.startSeconds) == [0, 30, 60, 90, 120, 150, 180])
        #expect(out.windows.map(\.endSeconds) == [30, 60, 90, 120, 150, 180, 200])
        // Strictly regular pulses are not AF (the model calls a perfectly constant rhythm `other`).
        #expect(out.windows.prefix(3).allSatisfy { $0.label != .af }, "\(out.windows.map(\.label))")
        #expect(out.windows.suffix(3).allSatisfy { $0.label == .af }, "\(out.windows.map(\.label))")
        #expect(out.episodes.count == 1)
        let e = try #require(out.episodes.first)
        #expect(e.offsetSeconds == 200)
        #expect(e.onsetSeconds == 90 || e.onsetSeconds == 120)
        // A 60-s minimum keeps it (≥ 80 s), a 200-s one drops it.
        #expect(
            try run(
                blockSeconds: 1000,
                options: {
                    var o = RhythmOptions(); o.episodeMinimumSeconds = 200; return o
                }()
            ).episodes.isEmpty)
    }

    @Test("a stream of at most 65 s is one window")
    func singleWindow() throws {
        var o = RhythmOptions()
        o.singleWindowMaxSeconds = 250
        let out = try run(blockSeconds: 7, options: o)
        #expect(out.windows.count == 1)
        #expect(out.windows.first?.startSeconds == 0)
        #expect(out.windows.first?.endSeconds == 200)
    }

    @Test("windows and episodes do not depend on block size or event timing", arguments: [0.04, 1.0, 13.0])
    func chunkedEqualsWhole(blockSeconds: Double) throws {
        let whole = try run(blockSeconds: 1000)
        let parts = try run(blockSeconds: blockSeconds)
        // Compared as text: a NaN measure equals itself there.
        #expect("\(parts.windows)" == "\(whole.windows)")
        #expect("\(parts.episodes)" == "\(whole.episodes)")
    }

    /// A 2-h PPG stream whose pulses (0.8 s apart) stop for 100 min after the first 10 min (off
    /// the wrist); `written` is the number of windows written by the time they resume.
    func runWithPause(blockSeconds: Double) throws -> (rows: RhythmRows, written: Int) {
        let beats = stride(from: 0.0, to: 7_200, by: 0.8).filter { $0 < 600 || $0 >= 6_600 }
        return try runPPG(beats: beats, seconds: 7_200, blockSeconds: blockSeconds, watch: 6_600)
    }

    /// Before: a window was written only when a beat after it arrived, so the 100 min without
    /// pulses held every sample (and wrote no window) until the pulses resumed — memory grew with
    /// the longest stretch without beats, not the window.
    @Test("a stretch without beats writes its windows once the samples are 660 s past them; chunked = whole")
    func pauseWritesWindows() throws {
        let whole = try runWithPause(blockSeconds: 1000)
        // Windows up to 6,600 − 660 s less one block (a block's pulses come after it) are
        // written before the pulses resume at 6,600 s; before, none after the first 10 min.
        #expect(whole.written >= Int((6_600 - 660 - 1_000) / 30) - 1, "\(whole.written)")
        #expect(whole.rows.windows.count == 240)
        #expect(whole.rows.windows[25].label == .insufficient)
        for blockSeconds in [0.4, 37.0] {
            let parts = try runWithPause(blockSeconds: blockSeconds)
            #expect(parts.written >= Int((6_600 - 660 - blockSeconds) / 30) - 1, "\(parts.written)")
            #expect(parts.rows.windows.count == whole.rows.windows.count)
            for (p, w) in zip(parts.rows.windows, whole.rows.windows) where "\(p)" != "\(w)" {
                Issue.record("block \(blockSeconds) s, window \(w.startSeconds): \(p) vs \(w)")
                break
            }
            #expect("\(parts.rows.episodes)" == "\(whole.rows.episodes)")
        }
    }

    // MARK: - CinC 2017 excerpt (ECG leads: beats and atrial activity)

    static let excerpt: [(record: String, label: RhythmLabel)] = [
        ("A00004", .af), ("A00404", .af), ("A00014", .sinus), ("A00019", .sinus), ("A00029", .other), ("A00034", .noisy),
    ]

    func analyze(_ record: String, blockCapacity: Int) throws -> [RhythmWindowRow] {
        let path = Fixtures.url("RhythmTests", "cinc2017/\(record).hea").path
        // Integrity verified (the default): the CinC headers' checksum field of 0 is a warning.
        let decode = DecodeOptions(blockCapacity: blockCapacity)
        let results = try RecordingAnalysis.results(of: RecordingInput(path: path), analysis: AnalysisConfiguration(decode: decode))
        return results.rows.rows(RhythmTables.windows)
    }

    @Test("CinC strips: one window per record, chunked = whole", arguments: excerpt.map(\.record))
    func cincChunked(record: String) throws {
        let whole = try analyze(record, blockCapacity: 1 << 20)
        #expect(whole.count == 1)
        for capacity in [1, 97, 4096] {
            #expect("\(try analyze(record, blockCapacity: capacity))" == "\(whole)", "block capacity \(capacity)")
        }
    }

    /// A 200-s two-lead record: the QT Database excerpt `Datasets/qtdb/sel100x` (40 s, format 212)
    /// repeated five times, with a header of its own.
    func twoLeadRecord(in dir: TemporaryDirectory) throws -> String {
        let source = Fixtures.repositoryRoot.appendingPathComponent("Datasets/qtdb")
        let dat = try Data(contentsOf: source.appendingPathComponent("sel100x.dat"))
        _ = dir.write("long.dat", [UInt8](repeatElement(dat, count: 5).joined()))
        let header = try String(contentsOf: source.appendingPathComponent("sel100x.hea"), encoding: .utf8)
            .replacingOccurrences(of: "sel100x 2 250 10000", with: "long 2 250 50000")
            .replacingOccurrences(of: "sel100x.dat", with: "long.dat")
        return dir.write("long.hea", header)
    }

    @Test("the fused series of a two-lead record gets the same 30-s windows whatever the block size")
    func fusedChunkedEqualsWhole() throws {
        let dir = TemporaryDirectory()
        let path = try twoLeadRecord(in: dir)
        func fused(_ capacity: Int) throws -> [RhythmWindowRow] {
            var decode = DecodeOptions(blockCapacity: capacity)
            decode.verifiesIntegrity = false // the checksums are the 40-s excerpt's
            let results = try RecordingAnalysis.results(of: RecordingInput(path: path), analysis: AnalysisConfiguration(decode: decode))
            return results.rows.rows(RhythmTables.windows).filter { $0.source == .fused }
        }
        let whole = try fused(1 << 20)
        #expect(whole.count == 7, "\(whole.map(\.startSeconds))")
        for capacity in [97, 4096] {
            #expect("\(try fused(capacity))" == "\(whole)", "block capacity \(capacity)")
        }
    }

    /// The held-out strips whose reference label the shipped model does not give (measured once
    /// with `ecg-trees-v6` in the CinC run of docs/VALIDATION.md, as with v5): A00404 (AF) comes out `other`,
    /// A00034 (noisy) `other` (A00029, `other`, was called `sinus` by `ecg-logistic-v4`). They
    /// stay known issues, so the test notices when they change.
    static let knownMisses: Set<String> = ["A00404", "A00034"]

    @Test("CinC strips: the reference label (REFERENCE-v3), AF strips ranked above sinus strips", arguments: excerpt.map(\.record))
    func cincLabels(record: String) throws {
        let reference = try #require(Self.excerpt.first { $0.record == record }).label
        let row = try #require(try analyze(record, blockCapacity: 4096).first)
        if Self.knownMisses.contains(record) {
            withKnownIssue("held-out miss of the shipped model (docs/VALIDATION.md)") { #expect(row.label == reference) }
        } else {
            #expect(row.label == reference)
        }
        #expect(row.model == "ecg-trees-v6")
        if reference == .af {
            for sinus in Self.excerpt where sinus.label == .sinus {
                let other = try #require(try analyze(sinus.record, blockCapacity: 4096).first)
                #expect((row.afProbability ?? 0) > (other.afProbability ?? 1), "\(record) vs \(sinus.record)")
            }
        }
    }
}

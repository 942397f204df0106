import Cardio
import Foundation
import Pipeline
import Recordings
import Testing
import _TestSupport

/// Scoring of ``ECGWavesFamily`` against the cardiologists' boundary marks of the QT Database
/// (`.q1c`, `.q2c`; Laguna et al. 1997), as in `qtdb-mitdb/SOURCE.md`: each annotated boundary
/// is matched to the nearest delineated boundary of the same kind within 150 ms (error =
/// delineated − annotated); Se = annotated boundaries matched / annotated. P and T detection
/// PPV over the annotated beats: a beat with a delineated P (T) counts as a true positive when
/// the cardiologist marked a P (T) peak for it.
struct WavesScoring {
    enum Kind: String, CaseIterable {
        case pOnset = "P on", pPeak = "P peak", pOffset = "P off", qrsOnset = "QRS on", qrsOffset = "QRS off", tPeak = "T peak",
            tOffset = "T off"
        /// CSE 2σ tolerance (ms) where the CSE working party gives one.
        var tolerance: Double? {
            switch self {
            case .pOnset: 10.2
            case .pOffset: 12.7
            case .qrsOnset: 6.5
            case .qrsOffset: 11.6
            case .tOffset: 30.6
            default: nil
            }
        }
        var column: String {
            switch self {
            case .pOnset: "p_onset"
            case .pPeak: "p_peak"
            case .pOffset: "p_offset"
            case .qrsOnset: "qrs_onset"
            case .qrsOffset: "qrs_offset"
            case .tPeak: "t_peak"
            case .tOffset: "t_offset"
            }
        }
    }

    /// Annotated marks of one record: per kind, times (s); annotated beats (QRS peak times) and
    /// whether each has a P / T peak mark.
    struct Marks {
        var times: [Kind: [Double]] = [:]
        var beats: [(time: Double, hasP: Bool, hasT: Bool)] = []
    }

    /// Reads a `.q1c`/`.q2c` file: `(` peak `)` triplets, onset or offset possibly missing.
    static func marks(path: String, rate: Double) throws -> Marks {
        let a = try WFDBAnnotations(path: path).annotations
        var m = Marks()
        var i = 0
        while i < a.count {
            let c = a[i].code
            let isPeak = c == .pWave || c == .tWave || c.isBeat
            if isPeak {
                let t = Double(a[i].sample) / rate
                let onset = i > 0 && a[i - 1].code == .waveformOnset ? Double(a[i - 1].sample) / rate : nil
                let offset = i + 1 < a.count && a[i + 1].code == .waveformEnd ? Double(a[i + 1].sample) / rate : nil
                if c == .pWave {
                    m.times[.pPeak, default: []].append(t)
                    if let o = onset { m.times[.pOnset, default: []].append(o) }
                    if let o = offset { m.times[.pOffset, default: []].append(o) }
                } else if c == .tWave {
                    m.times[.tPeak, default: []].append(t)
                    if let o = offset { m.times[.tOffset, default: []].append(o) }
                } else {
                    if let o = onset { m.times[.qrsOnset, default: []].append(o) }
                    if let o = offset { m.times[.qrsOffset, default: []].append(o) }
                    m.beats.append((t, false, false))
                }
            }
            i += 1
        }
        // P before its beat's QRS (within 400 ms), T after it (within 700 ms).
        for p in m.times[.pPeak] ?? [] {
            if let j = m.beats.firstIndex(where: { $0.time > p && $0.time - p < 0.4 }) { m.beats[j].hasP = true }
        }
        for t in m.times[.tPeak] ?? [] {
            if let j = m.beats.lastIndex(where: { $0.time < t && t - $0.time < 0.7 }) { m.beats[j].hasT = true }
        }
        return m
    }

    /// Errors (ms) and counts per kind.
    struct Score {
        var errors: [Kind: [Double]] = [:]
        var annotated: [Kind: Int] = [:]
        var pTP = 0, pFP = 0, tTP = 0, tFP = 0

        mutating func add(_ o: Score) {
            for k in Kind.allCases {
                errors[k, default: []] += o.errors[k] ?? []
                annotated[k, default: 0] += o.annotated[k] ?? 0
            }
            pTP += o.pTP
            pFP += o.pFP
            tTP += o.tTP
            tFP += o.tFP
        }

        func se(_ k: Kind) -> Double { 100 * Double(errors[k]?.count ?? 0) / Double(max(annotated[k] ?? 0, 1)) }
        func mean(_ k: Kind) -> Double {
            let e = errors[k] ?? []
            return e.isEmpty ? .nan : e.reduce(0, +) / Double(e.count)
        }
        func sd(_ k: Kind) -> Double {
            let e = errors[k] ?? []
            guard e.count > 1 else { return .nan }
            let m = mean(k)
            return (e.map { ($0 - m) * ($0 - m) }.reduce(0, +) / Double(e.count - 1)).squareRoot()
        }
    }

    /// Scores the rows of one stream (`ecg_waves`) against the marks.
    static func score(rows: [[String: ResultValue]], marks: Marks) -> Score {
        var s = Score()
        func real(_ v: ResultValue?) -> Double? { if case .real(let x)? = v { x } else { nil } }
        for k in Kind.allCases {
            let detected = rows.compactMap { real($0[k.column]) }.sorted()
            let annotated = marks.times[k] ?? []
            s.annotated[k] = annotated.count
            for a in annotated {
                // Nearest detection (binary search).
                var lo = 0, hi = detected.count
                while lo < hi {
                    let mid = (lo + hi) / 2
                    if detected[mid] < a { lo = mid + 1 } else { hi = mid }
                }
                var best: Double?
                for j in [lo - 1, lo] where j >= 0 && j < detected.count {
                    if best == nil || abs(detected[j] - a) < abs(best! - a) { best = detected[j] }
                }
                if let b = best, abs(b - a) <= 0.15 { s.errors[k, default: []].append((b - a) * 1000) }
            }
        }
        let beatRows = rows.compactMap { r -> (Double, Bool, Bool)? in
            guard let t = real(r["beat_time"]) else { return nil }
            return (
                t, real(r["p_onset"]) != nil || real(r["p_peak"]) != nil || real(r["p_offset"]) != nil,
                real(r["t_peak"]) != nil || real(r["t_offset"]) != nil
            )
        }
        for b in marks.beats {
            guard let r = beatRows.min(by: { abs($0.0 - b.time) < abs($1.0 - b.time) }), abs(r.0 - b.time) <= 0.15 else { continue }
            if r.1 { if b.hasP { s.pTP += 1 } else { s.pFP += 1 } }
            if r.2 { if b.hasT { s.tTP += 1 } else { s.tFP += 1 } }
        }
        return s
    }
}

@Suite(
    "QT Database: wave boundaries against the cardiologists' marks",
    .enabled(if: Fixtures.sharedDatasets != nil, "../shared/datasets is absent: QTDB delineation validation skipped"))
struct QTDBWavesValidationTests {
    static let records = [
        "sel100", "sel102", "sel103", "sel104", "sel114", "sel116", "sel117", "sel123", "sel213", "sel221", "sel223", "sel230",
        "sel231", "sel232", "sel233",
    ]

    /// The record's `.hea`/`.dat` unpacked into a cache folder.
    static func unpacked(_ name: String) throws -> URL {
        let src = try #require(Fixtures.sharedDatasets).appendingPathComponent("qtdb-mitdb")
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("sensorpipe-qtdb")
        try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let hea = dir.appendingPathComponent("\(name).hea"), dat = dir.appendingPathComponent("\(name).dat")
        if !FileManager.default.fileExists(atPath: hea.path) {
            try? FileManager.default.copyItem(at: src.appendingPathComponent("\(name).hea"), to: hea)
        }
        try XZ.unpack(src.appendingPathComponent("\(name).dat.xz"), to: dat)
        return hea
    }

    /// `ecg_waves` rows per stream of a record run through the whole pipeline.
    static func waves(_ hea: URL, blockCapacity: Int = 65_536) throws -> [String: [[String: ResultValue]]] {
        let sink = MemorySink()
        _ = try RecordingAnalysis.run(
            path: hea.path, analysis: AnalysisConfiguration(decode: DecodeOptions(blockCapacity: blockCapacity)), sink: sink)
        var out = [String: [[String: ResultValue]]]()
        for r in sink.named("ecg_waves") {
            if case .text(let s)? = r["stream"] { out[s, default: []].append(r) }
        }
        return out
    }

    static func f(_ x: Double, _ digits: Int = 1) -> String { x.isFinite ? String(format: "%.\(digits)f", x) : "–" }

    static func table(_ title: String, _ rows: [(String, WavesScoring.Score)]) -> String {
        var s = "\n\(title)\n\n| record | " + WavesScoring.Kind.allCases.map { "\($0.rawValue) mean ± SD (Se %)" }.joined(separator: " | ")
        s += " | P +P % | T +P % |\n|---|" + String(repeating: "---:|", count: WavesScoring.Kind.allCases.count + 2) + "\n"
        for (name, sc) in rows {
            s += "| \(name) | "
            s += WavesScoring.Kind.allCases.map { k in
                "\(f(sc.mean(k))) ± \(f(sc.sd(k))) (\(f(sc.se(k), 0)), n \(sc.annotated[k] ?? 0))"
            }.joined(separator: " | ")
            s +=
                " | \(f(100 * Double(sc.pTP) / Double(max(sc.pTP + sc.pFP, 1)))) | \(f(100 * Double(sc.tTP) / Double(max(sc.tTP + sc.tFP, 1)))) |\n"
        }
        return s
    }

    @Test("per boundary mean ± SD and Se on the 15 MIT-BIH records of QTDB (lead 0, lead 1, combined; q1c and q2c)")
    func boundaries() throws {
        var perLead: [String: [(String, WavesScoring.Score)]] = [:]
        var pooled: [String: WavesScoring.Score] = [:]
        for name in Self.records {
            let hea = try Self.unpacked(name)
            let rows = try Self.waves(hea)
            let src = try #require(Fixtures.sharedDatasets).appendingPathComponent("qtdb-mitdb")
            let signals = try String(contentsOf: hea, encoding: .utf8).split(whereSeparator: \.isNewline)
                .filter { !$0.hasPrefix("#") }.dropFirst().compactMap { $0.split(separator: " ").last.map(String.init) }
            for annotator in ["q1c", "q2c"] {
                let path = src.appendingPathComponent("\(name).\(annotator)").path
                guard FileManager.default.fileExists(atPath: path) else { continue }
                let marks = try WavesScoring.marks(path: path, rate: 250)
                for (stream, r) in rows {
                    // Lead 0 / lead 1: the record's signal order (its header); the lead's name per record.
                    let channel = String(stream.split(separator: "/").last ?? "")
                    let which = stream.hasSuffix("combined") ? "combined" : "lead \(signals.firstIndex(of: channel) ?? -1)"
                    let sc = WavesScoring.score(rows: r, marks: marks)
                    perLead["\(annotator) \(which)", default: []].append(("\(name) (\(channel))", sc))
                    pooled["\(annotator) \(which)", default: WavesScoring.Score()].add(sc)
                }
            }
        }
        var text = Self.table("Pooled", pooled.keys.sorted().map { ($0, pooled[$0]!) })
        for k in perLead.keys.sorted() { text += Self.table(k, perLead[k]!) }
        print(text)
        if let out = ProcessInfo.processInfo.environment["SENSORPIPE_WAVES_TABLE"] {
            try text.write(toFile: out, atomically: true, encoding: .utf8)
        }
        // Guards at today's figures (issue 30 targets are stricter; docs/VALIDATION.md states the misses).
        let q1 = try #require(pooled["q1c combined"])
        #expect(q1.se(.qrsOnset) >= 99)
        #expect(q1.se(.qrsOffset) >= 99)
        #expect(q1.se(.tOffset) >= 97)
        // P onset: 22.6 before the masked-onset rule (11), 21.7 with it.
        #expect(q1.sd(.pOnset) < 22.2)
        #expect(abs(q1.mean(.pOnset)) <= 5)
        #expect(q1.sd(.pOffset) < 20)
        #expect(q1.sd(.qrsOffset) < 19)
        #expect(q1.sd(.tOffset) < 38)
    }
}

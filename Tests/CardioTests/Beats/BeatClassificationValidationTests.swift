import Cardio
import Foundation
import Recordings
import Testing
import _TestSupport

/// Beat-classification validation on MIT-BIH Arrhythmia under ANSI/AAMI EC57: `RPeakDetector`
/// then `BeatClassifier` on the MLII lead of each record (channel 0, channel 1 in 114), fed in
/// the WFDB decoder's blocks, scored against the reference annotations' AAMI classes with
/// `EC57ClassScore` (150 ms matching). The four paced records (102, 104, 107, 217) are excluded
/// as EC57 says, and the ventricular flutter episodes of 207 as in the R-peak validation.
///
/// Prints the per-record table and the gross figures for all 44 records and for the de Chazal
/// et al. (2004) halves DS1 (the records the thresholds were checked on) and DS2 (held out),
/// and writes them to docs/VALIDATION.md (between the `beats` markers) in release builds.
/// Debug builds score record 119 only. Full run: `swift test -c release --filter BeatClassification`.
@Suite("Beat classification validation on MIT-BIH (EC57 VEB/SVEB)")
struct BeatClassificationValidationTests {
    static let enabled = Fixtures.sharedDatasets != nil && ECGRecord.xzAvailable

    static let paced: Set<String> = ["102", "104", "107", "217"]
    /// de Chazal, O'Dwyer & Reilly 2004, Table I.
    static let ds1: Set<String> = [
        "101", "106", "108", "109", "112", "114", "115", "116", "118", "119", "122",
        "124", "201", "203", "205", "207", "208", "209", "215", "220", "223", "230",
    ]
    static let ds2: Set<String> = [
        "100", "103", "105", "111", "113", "117", "121", "123", "200", "202", "210",
        "212", "213", "214", "219", "221", "222", "228", "231", "232", "233", "234",
    ]

    static var records: [String] {
        guard let d = Fixtures.sharedDatasets else { return [] }
        let all = ((try? String(contentsOf: d.appendingPathComponent("mitdb/RECORDS"), encoding: .utf8)) ?? "")
            .split(whereSeparator: \.isWhitespace).map(String.init).filter { !paced.contains($0) }
        #if DEBUG
            return all.filter { $0 == "119" }
        #else
            return all
        #endif
    }

    /// Index of the MLII signal from the record header (signal lines' last field).
    static func mlii(_ name: String) throws -> Int {
        let url = Fixtures.sharedDatasets!.appendingPathComponent("mitdb/\(name).hea")
        let lines = try String(contentsOf: url, encoding: .utf8).split(whereSeparator: \.isNewline)
            .filter { !$0.hasPrefix("#") }
        for (i, l) in lines.dropFirst().enumerated() where l.split(separator: " ").last?.trimmingCharacters(in: .whitespaces) == "MLII" {
            return i
        }
        return 0
    }

    struct Run {
        var name: String
        var score: EC57ClassScore
        var beats: [ClassifiedBeat]
        var reference: [(sample: Int, aami: AAMIBeatClass)]
        var sampleRate: Double
    }

    /// Detects and classifies in the decoder's blocks, as a streaming chain would.
    static func run(_ name: String) throws -> Run {
        let r = try ECGRecord.load(set: "mitdb", name: name, channel: try mlii(name))
        var detector = RPeakDetector(sampleRate: r.sampleRate)
        var classifier = BeatClassifier(sampleRate: r.sampleRate)
        var peaks = [Int](), beats = [ClassifiedBeat]()
        r.samples.withUnsafeBufferPointer { x in
            r.flags.withUnsafeBufferPointer { f in
                var start = 0
                for n in r.blockSizes {
                    peaks.removeAll(keepingCapacity: true)
                    let xs = UnsafeBufferPointer(rebasing: x[start..<start + n])
                    let fs = UnsafeBufferPointer(rebasing: f[start..<start + n])
                    detector.process(xs, flags: fs, into: &peaks)
                    classifier.process(xs, flags: fs, peaks: peaks, into: &beats)
                    start += n
                }
            }
        }
        peaks.removeAll()
        detector.finish(into: &peaks)
        classifier.process(UnsafeBufferPointer(start: nil, count: 0), flags: nil, peaks: peaks, into: &beats)
        classifier.finish(into: &beats)
        let src = Fixtures.sharedDatasets!.appendingPathComponent("mitdb")
        let ann = try WFDBAnnotations(path: src.appendingPathComponent("\(name).atr").path)
        let reference = ann.annotations.compactMap { a in a.code.aamiClass.map { (sample: a.sample, aami: $0) } }
        let score = EC57ClassScore.score(reference: reference, beats: beats, sampleRate: r.sampleRate, excluded: r.flutter)
        if let dir = ProcessInfo.processInfo.environment["BEATS_FEATURES_DIR"] {
            try writeFeatures(
                name: name, beats: beats, reference: reference, excluded: r.flutter,
                window: Int((0.150 * r.sampleRate).rounded()), to: dir)
        }
        return Run(name: name, score: score, beats: beats, reference: reference, sampleRate: r.sampleRate)
    }

    /// Writes one CSV row per classified beat (`BEATS_FEATURES_DIR=…`): the reference AAMI class of
    /// the nearest annotated beat within 150 ms (`O` none, `X` inside an excluded flutter episode)
    /// and the features. `scripts/ecg/fit-beat-classifier.py` fits the linear model on these (DS1).
    static func writeFeatures(
        name: String, beats: [ClassifiedBeat], reference: [(sample: Int, aami: AAMIBeatClass)],
        excluded: [ClosedRange<Int>], window: Int, to dir: String
    ) throws {
        var text =
            "record,sample,reference,class,rr_previous_s,rr_next_s,rr_normal_s,qrs_width_s,normal_qrs_width_s,"
            + "normal_correlation,amplitude_ratio,polarity_matches,cluster,in_normal_cluster,ventricular_probability,"
            + "p_correlation,p_amplitude_ratio,p_agreement,sinus_rr_s,rr_irregularity\n"
        var j = 0
        func o(_ x: Double?) -> String { x.map { String(format: "%.6f", $0) } ?? "" }
        for b in beats {
            while j < reference.count && reference[j].sample < b.sample - window { j += 1 }
            var best: Int?
            for k in j..<min(j + 3, reference.count) where abs(reference[k].sample - b.sample) <= window {
                if best == nil || abs(reference[k].sample - b.sample) < abs(reference[best!].sample - b.sample) { best = k }
            }
            var ref = best.map { reference[$0].aami.rawValue } ?? "O"
            if excluded.contains(where: { $0.contains(b.sample) }) { ref = "X" }
            let f = b.features
            text +=
                "\(name),\(b.sample),\(ref),\(b.beatClass.code),\(o(f.rrPreviousSeconds)),\(o(f.rrNextSeconds)),"
                + "\(o(f.rrNormalSeconds)),\(o(f.qrsWidthSeconds)),\(o(f.normalQRSWidthSeconds)),\(o(f.normalCorrelation)),"
                + "\(o(f.amplitudeRatio)),\(f.polarityMatchesNormal.map { $0 ? "1" : "0" } ?? ""),\(f.cluster ?? -1),"
                + "\(f.inNormalCluster ? 1 : 0),\(o(f.ventricularProbability)),"
                + "\(o(f.pCorrelation)),\(o(f.pAmplitudeRatio)),\(o(f.pTemplateAgreement)),\(o(f.sinusRRSeconds)),\(o(f.rrIrregularity))\n"
        }
        try text.write(to: URL(fileURLWithPath: dir).appendingPathComponent("\(name).csv"), atomically: true, encoding: .utf8)
    }

    static func pct(_ v: Double) -> String { v.isNaN ? "–" : String(format: "%.1f", 100 * v) }

    static func table(_ runs: [Run]) -> String {
        var s = "| record | set | beats | V | V TP | V FN | V FP | VEB Se % | VEB +P % | S | S TP | S FN | S FP | SVEB Se % | SVEB +P % |\n"
        s += "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n"
        func line(_ name: String, _ set: String, _ c: EC57ClassScore) -> String {
            "| \(name) | \(set) | \(c.beats) | \(c.referenceV) | \(c.vTP) | \(c.vFN) | \(c.vFP) | \(pct(c.vSe)) | \(pct(c.vPP)) | "
                + "\(c.referenceS) | \(c.sTP) | \(c.sFN) | \(c.sFP) | \(pct(c.sSe)) | \(pct(c.sPP)) |\n"
        }
        for r in runs { s += line(r.name, ds1.contains(r.name) ? "DS1" : ds2.contains(r.name) ? "DS2" : "–", r.score) }
        for (label, set) in [
            ("**gross, all**", nil as Set<String>?), ("**gross, DS1 (checked on)**", ds1),
            ("**gross, DS2 (held out)**", ds2),
        ] {
            var g = EC57ClassScore()
            for r in runs where set?.contains(r.name) ?? true { g.add(r.score) }
            s += line(label, "", g)
        }
        return s
    }

    static func confusion(_ g: EC57ClassScore) -> String {
        var s = "| reference \\ classified | N | S | V | Q | not detected |\n|---|---:|---:|---:|---:|---:|\n"
        for (i, c) in EC57ClassScore.referenceOrder.enumerated() {
            s += "| \(c?.rawValue ?? "no beat") | " + g.confusion[i].map(String.init).joined(separator: " | ") + " |\n"
        }
        return s
    }

    static func writeDoc(_ section: String) {
        ValidationDocument.replaceBlock("beats", writtenBy: "BeatClassificationValidationTests", with: section)
    }

    /// SDNN (sample SD) and RMSSD (adjacent pairs only) of intervals given by (start, end) in samples.
    static func sdnnRMSSD(_ iv: [(start: Int, end: Int)], sampleRate: Double) -> (sdnn: Double, rmssd: Double) {
        let ms = iv.map { Double($0.end - $0.start) * 1000 / sampleRate }
        let mean = ms.reduce(0, +) / Double(ms.count)
        let sdnn = (ms.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(ms.count - 1)).squareRoot()
        var sq = 0.0, n = 0
        for i in 1..<iv.count where iv[i].start == iv[i - 1].end {
            sq += (ms[i] - ms[i - 1]) * (ms[i] - ms[i - 1]); n += 1
        }
        return (sdnn, n > 0 ? (sq / Double(n)).squareRoot() : .nan)
    }

    /// Linear-interpolation percentile (NumPy's default), `q` in 0…100.
    static func percentile(_ x: [Double], _ q: Double) -> Double {
        let s = x.sorted()
        let h = Double(s.count - 1) * q / 100
        let lo = Int(h.rounded(.down)), hi = min(lo + 1, s.count - 1)
        return s[lo] + (h - Double(lo)) * (s[hi] - s[lo])
    }

    /// Whole-record SDNN/RMSSD from the classifier's NN intervals against the annotations' own N–N
    /// intervals (consecutive annotated beats both N, L, R, e or j; 300–2000 ms), and from all
    /// detected RR intervals (no classification) for comparison.
    static func nnSection(_ runs: [Run]) throws -> (String, medianSDNN: Double, p90SDNN: Double, medianRMSSD: Double, p90RMSSD: Double) {
        let normalCodes: Set<WFDBAnnotationCode> = [
            .normal, .leftBundleBranchBlock, .rightBundleBranchBlock,
            .atrialEscape, .nodalEscape,
        ]
        var s = "| record | annotated N–N | NN | excluded: not normal / range / gap | SDNN ref ms | SDNN ms | SDNN err % "
        s += "| RMSSD ref ms | RMSSD ms | RMSSD err % | all-RR SDNN err % | all-RR RMSSD err % |\n"
        s += "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n"
        var eS = [Double](), eR = [Double](), aS = [Double](), aR = [Double]()
        let range = NormalToNormalIntervals.defaultRangeMilliseconds
        for r in runs {
            let ann = try WFDBAnnotations(path: Fixtures.sharedDatasets!.appendingPathComponent("mitdb/\(r.name).atr").path)
            let beats = ann.annotations.filter { $0.code.isBeat }
            var ref = [(start: Int, end: Int)]()
            for i in 1..<beats.count where normalCodes.contains(beats[i - 1].code) && normalCodes.contains(beats[i].code) {
                let ms = Double(beats[i].sample - beats[i - 1].sample) * 1000 / r.sampleRate
                if range.contains(ms) { ref.append((beats[i - 1].sample, beats[i].sample)) }
            }
            guard ref.count >= 100 else { continue }
            let nn = NormalToNormalIntervals(r.beats, sampleRate: r.sampleRate)
            let mine: [(start: Int, end: Int)] = zip(nn.intervalsMilliseconds, nn.closingBeatTimesSeconds).map { ms, t in
                let end = Int((t * r.sampleRate).rounded())
                return (end - Int((ms * r.sampleRate / 1000).rounded()), end)
            }
            var all = [(start: Int, end: Int)]()
            for i in 1..<r.beats.count {
                let ms = Double(r.beats[i].sample - r.beats[i - 1].sample) * 1000 / r.sampleRate
                if range.contains(ms) { all.append((r.beats[i - 1].sample, r.beats[i].sample)) }
            }
            let a = sdnnRMSSD(ref, sampleRate: r.sampleRate), b = sdnnRMSSD(mine, sampleRate: r.sampleRate)
            let c = sdnnRMSSD(all, sampleRate: r.sampleRate)
            func err(_ x: Double, _ ref: Double) -> Double { abs(x - ref) / ref }
            eS.append(err(b.sdnn, a.sdnn)); eR.append(err(b.rmssd, a.rmssd))
            aS.append(err(c.sdnn, a.sdnn)); aR.append(err(c.rmssd, a.rmssd))
            s +=
                "| \(r.name) | \(ref.count) | \(nn.intervalsMilliseconds.count) | \(nn.excludedNonNormal) / \(nn.excludedOutOfRange) / \(nn.excludedGap) | "
            s += String(
                format: "%.1f | %.1f | %.1f | %.1f | %.1f | %.1f | %.1f | %.1f |\n", a.sdnn, b.sdnn, 100 * eS.last!,
                a.rmssd, b.rmssd, 100 * eR.last!, 100 * aS.last!, 100 * aR.last!)
        }
        let m = (percentile(eS, 50), percentile(eS, 90), percentile(eR, 50), percentile(eR, 90))
        s += String(
            format: "| **median** (\(eS.count) records) | | | | | | %.1f | | | %.1f | %.1f | %.1f |\n",
            100 * m.0, 100 * m.2, 100 * percentile(aS, 50), 100 * percentile(aR, 50))
        s += String(
            format: "| **90th percentile** | | | | | | %.1f | | | %.1f | %.1f | %.1f |\n",
            100 * m.1, 100 * m.3, 100 * percentile(aS, 90), 100 * percentile(aR, 90))
        return (s, m.0, m.1, m.2, m.3)
    }

    @Test(
        "EC57 VEB and SVEB Se/+P on MIT-BIH (44 non-paced records)",
        .enabled(if: enabled, "needs ../shared/datasets and xz"))
    func validate() throws {
        var runs = [Run]()
        for name in Self.records { runs.append(try Self.run(name)) }
        var gross = EC57ClassScore()
        for r in runs { gross.add(r.score) }
        var doc = "## Beat classification (EC57 VEB/SVEB)\n\n"
        doc += "Generated by `swift test -c release --filter BeatClassification` "
        doc += "(Tests/CardioTests/Beats/BeatClassificationValidationTests.swift): `RPeakDetector` then `BeatClassifier` "
        doc += "on the MLII lead, streamed in the WFDB decoder's blocks; 44 records (paced 102, 104, 107, 217 excluded, "
        doc += "ventricular flutter of 207 excluded); reference AAMI classes from the annotations "
        doc += "(`WFDBAnnotationCode.aamiClass`); 150 ms matching. VEB FP = N or S beats (or detections without a beat) "
        doc += "classified V; F and Q beats classified V are not counted. SVEB FP = N or V beats (or no beat) classified S. "
        doc += "Missed beats count as FN. DS1/DS2: de Chazal et al. 2004; the thresholds were checked on DS1 only.\n\n"
        doc += Self.table(runs)
        doc += "\nConfusion (all 44 records; rows reference AAMI class, columns classifier output):\n\n"
        doc += Self.confusion(gross)
        let nn = try Self.nnSection(runs)
        doc += "\n### Normal-to-normal intervals against the annotations (`NormalToNormalIntervals`)\n\n"
        doc += "Whole-record SDNN (sample SD) and RMSSD (adjacent interval pairs only) of the intervals between two beats "
        doc += "classified N (300–2000 ms), against the annotations' own N–N intervals (consecutive annotated beats both "
        doc += "N, L, R, e or j; 300–2000 ms), records with ≥ 100 annotated N–N intervals; relative error per record. "
        doc += "The last two columns use every detected RR interval (no classification), as before this classifier. "
        doc += "No Lipponen–Tarvainen correction is applied here. Targets (issue 10): median ≤ 3 %, 90th percentile ≤ 15 %.\n\n"
        doc += nn.0
        print(doc)
        #if !DEBUG
            Self.writeDoc(doc)
            // Issue 30: VEB kept at or above 92.3 / 90.6 %, SVEB Se and +P at or above 75 % (gross).
            #expect(gross.vSe >= 0.92, "gross VEB Se \(Self.pct(gross.vSe)) % below 92 %")
            #expect(gross.vPP >= 0.90, "gross VEB +P \(Self.pct(gross.vPP)) % below the 90 % target")
            #expect(gross.sSe >= 0.75, "gross SVEB Se \(Self.pct(gross.sSe)) % below the 75 % target")
            #expect(gross.sPP >= 0.75, "gross SVEB +P \(Self.pct(gross.sPP)) % below the 75 % target")
        #else
            #expect(gross.vTP > 0)
        #endif
    }
}

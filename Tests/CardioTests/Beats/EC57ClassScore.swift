import Cardio
import Recordings

/// ANSI/AAMI EC57 beat-class scoring of one record: reference beats (AAMI class) matched to
/// classified detections within 150 ms (the rule of `BeatMatching`: nearest partner wins, each
/// used once), then the VEB and SVEB counts.
///
/// Definitions used (EC57 §4.3 as applied by de Chazal et al. 2004):
/// - VEB: TP = reference V classified V. FN = reference V classified otherwise or not detected.
///   FP = a V classification of a reference N or S beat, or of a detection matching no beat;
///   reference F and Q beats classified V are not counted (EC57 does not penalise fusion beats
///   classified ventricular; Q beats are not scored).
/// - SVEB: TP = reference S classified S. FN = reference S classified otherwise or not detected.
///   FP = an S classification of a reference N or V beat or of an unmatched detection (F and Q
///   not counted).
struct EC57ClassScore {
    var vTP = 0, vFN = 0, vFP = 0
    var sTP = 0, sFN = 0, sFP = 0
    var referenceV = 0, referenceS = 0, beats = 0
    /// confusion[reference][detected], reference N S V F Q and O (no beat); detected N S V Q and O (missed).
    var confusion = [[Int]](repeating: [Int](repeating: 0, count: 5), count: 6)

    static let referenceOrder: [AAMIBeatClass?] = [.n, .s, .v, .f, .q, nil]

    mutating func add(_ o: EC57ClassScore) {
        vTP += o.vTP; vFN += o.vFN; vFP += o.vFP; sTP += o.sTP; sFN += o.sFN; sFP += o.sFP
        referenceV += o.referenceV; referenceS += o.referenceS; beats += o.beats
        for i in 0..<6 { for j in 0..<5 { confusion[i][j] += o.confusion[i][j] } }
    }

    var vSe: Double { vTP + vFN == 0 ? .nan : Double(vTP) / Double(vTP + vFN) }
    var vPP: Double { vTP + vFP == 0 ? .nan : Double(vTP) / Double(vTP + vFP) }
    var sSe: Double { sTP + sFN == 0 ? .nan : Double(sTP) / Double(sTP + sFN) }
    var sPP: Double { sTP + sFP == 0 ? .nan : Double(sTP) / Double(sTP + sFP) }

    /// Scores `beats` against reference beats (sample, AAMI class), both sorted by sample;
    /// beats inside `excluded` intervals are left out on both sides.
    static func score(
        reference: [(sample: Int, aami: AAMIBeatClass)], beats: [ClassifiedBeat], sampleRate: Double,
        excluded: [ClosedRange<Int>]
    ) -> EC57ClassScore {
        let w = Int((0.150 * sampleRate).rounded())
        let r = reference.filter { a in !excluded.contains { $0.contains(a.sample) } }
        let d = beats.filter { b in !excluded.contains { $0.contains(b.sample) } }
        var s = EC57ClassScore()
        s.beats = r.count
        func refRow(_ c: AAMIBeatClass?) -> Int { referenceOrder.firstIndex(of: c)! }
        func detCol(_ c: BeatClass?) -> Int {
            switch c {
            case .normal: 0
            case .supraventricular: 1
            case .ventricular: 2
            case .unclassifiable: 3
            case nil: 4
            }
        }
        func pair(_ ref: AAMIBeatClass?, _ det: BeatClass?) {
            s.confusion[refRow(ref)][detCol(det)] += 1
            if ref == .v { s.referenceV += 1; if det == .ventricular { s.vTP += 1 } else { s.vFN += 1 } }
            if ref == .s { s.referenceS += 1; if det == .supraventricular { s.sTP += 1 } else { s.sFN += 1 } }
            if det == .ventricular && (ref == .n || ref == .s || ref == nil) { s.vFP += 1 }
            if det == .supraventricular && (ref == .n || ref == .v || ref == nil) { s.sFP += 1 }
        }
        var i = 0, j = 0
        while i < r.count && j < d.count {
            let dt = d[j].sample - r[i].sample
            if dt < -w {
                pair(nil, d[j].beatClass); j += 1
            } else if dt > w {
                pair(r[i].aami, nil); i += 1
            } else if j + 1 < d.count && abs(d[j + 1].sample - r[i].sample) < abs(dt) {
                pair(nil, d[j].beatClass); j += 1
            } else if i + 1 < r.count && abs(d[j].sample - r[i + 1].sample) < abs(dt) {
                pair(r[i].aami, nil); i += 1
            } else {
                pair(r[i].aami, d[j].beatClass); i += 1; j += 1
            }
        }
        while i < r.count { pair(r[i].aami, nil); i += 1 }
        while j < d.count { pair(nil, d[j].beatClass); j += 1 }
        return s
    }
}

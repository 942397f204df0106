import Foundation

/// PR, QRS, QT and QTc of one stream over one window (or the whole stream): the median and
/// interquartile range over the beats that qualify.
///
/// A beat qualifies when it and the beat before it are classified normal (`N`), its quality
/// window is `excellent` or `barely_acceptable`, and the boundaries of the interval are
/// delineated; RR is the interval from the previous beat (0.3–2.0 s). QT = T offset − QRS onset,
/// PR = P onset − QRS onset reversed (QRS onset − P onset), QRS = QRS offset − QRS onset. QTc per
/// beat with its own RR (s), QT in ms: Bazett QT/√RR (1920), Fridericia QT/∛RR (1920),
/// Framingham QT + 154·(1 − RR) (Sagie et al. 1992), Hodges QT + 1.75·(HR − 60) (Hodges 1983).
public struct ECGIntervals: Sendable, Hashable {
    /// `window` or `recording`.
    public var scope: String
    /// Start and end (exclusive) of the window, s on the `beats.time` clock (the whole stream:
    /// its first and last delineated beat).
    public var startSeconds: Double
    public var endSeconds: Double
    /// Median and IQR (Q3 − Q1, linear quantiles) of each measure, ms; `nil` with fewer than
    /// ``minimumBeats`` contributing beats.
    public var pr: Spread?
    public var qrs: Spread?
    public var qt: Spread?
    public var qtcBazett: Spread?
    public var qtcFridericia: Spread?
    public var qtcFramingham: Spread?
    public var qtcHodges: Spread?
    /// Median RR of the QT beats, ms.
    public var rr: Spread?
    /// Beats contributing to QT/QTc, to PR, to QRS.
    public var qtBeats: Int
    public var prBeats: Int
    public var qrsBeats: Int
    /// Beats delineated in the window (any class or quality).
    public var beats: Int
    /// Whether the window's medians feed the family's summary figures: `false` for a lead's rows
    /// when the device's leads are combined (the combined stream's rows stand for the device, so
    /// a beat is not counted once per lead).
    public var countsInSummary = true

    /// The spread (max − min) of the leads' median QTs of this window, ms, when it exceeds
    /// ``leadDisagreementLimit`` and QT/QTc were emptied for it (``applyLeadAgreement(_:isLead:)``).
    public var qtLeadDisagreement: Double?

    /// The QT IQR, ms, when it exceeds ``qtSpreadLimit(rrIQR:)`` and QT/QTc were emptied for it
    /// (``applyQTSpread()``).
    public var qtSpread: Double?

    /// The median QT the spread rule emptied, ms: the cross-lead rule still compares it with the
    /// other leads' (a lead whose T ends are spread over two waves is still evidence that the
    /// combined row, built from it, may carry the wrong one).
    var qtMedianBeforeSpread: Double?

    /// Fewest contributing beats for a median.
    public static let minimumBeats = 5

    /// Leads' median QTs of one window further apart than this empty its QT/QTc, ms. The QT
    /// dispersion across the 12 leads (max − min) is 30–60 ms in healthy subjects, its upper
    /// normal limit about 70 ms, and values above 100 ms are rare even in disease (Malik M,
    /// Batchvarov VN, J Am Coll Cardiol 2000;36:1749–1766); any two leads differ by at most the
    /// dispersion, so a larger difference is a delineation failure in one lead at least.
    public static let leadDisagreementLimit = 100.0

    /// The QT interquartile range of one stream's window (or whole stream) that the heart can
    /// explain, ms: ``qtSpreadAllowance`` plus ``qtRRSlope`` × the RR interquartile range.
    /// - Parameter rrIQR: the RR interquartile range of the QT beats, ms.
    public static func qtSpreadLimit(rrIQR: Double) -> Double { qtSpreadAllowance + qtRRSlope * rrIQR }

    /// The part of ``qtSpreadLimit(rrIQR:)`` that RR changes do not explain, ms. Beat-to-beat QT
    /// variability at a steady rate has an SD of 2–10 ms (IQR ≤ 14 ms; Berger et al., Circulation
    /// 1997;96:1557–1565; Baumert et al., Europace 2016;18:925–944) and a delineator inside the
    /// CSE tolerance (T offset 2σ 30.6 ms) adds an IQR of about 21 ms; the allowance is the
    /// 100 ms that no two measurements of one heart's QT may differ by (the upper bound of the
    /// 12-lead QT dispersion, ``leadDisagreementLimit``), four times what both give together, so
    /// only beats whose T ends lie on different waves exceed it.
    public static let qtSpreadAllowance = 100.0

    /// The QT change per RR change allowed by ``qtSpreadLimit(rrIQR:)``, above the steady-state
    /// QT/RR slopes: 0.154 for the population (Framingham, Sagie et al. 1992), 0.25 implied by
    /// Bazett's formula at 60–80 /min, individual slopes varying around them (Malik et al., Heart
    /// 2002;87:220–228); QT follows RR with a lag of about 2 minutes (Pueyo et al. 2004), so
    /// within a window it changes less.
    public static let qtRRSlope = 0.3

    /// The single-stream QT plausibility rule: when the QT interquartile range exceeds
    /// ``qtSpreadLimit(rrIQR:)``, the beats' T offsets are not one repolarisation (a T end taken
    /// on two different waves, e.g. the T and a U wave), so the median is one of two readings;
    /// QT and QTc are emptied and the IQR recorded (``qtSpread``). Needs no second lead, so it
    /// applies to single-lead recordings too.
    public mutating func applyQTSpread() {
        guard let q = qt, let r = rr, q.iqr > Self.qtSpreadLimit(rrIQR: r.iqr) else { return }
        clearQT()
        qtSpread = q.iqr
        qtMedianBeforeSpread = q.median
    }

    /// A median and interquartile range, ms.
    public struct Spread: Sendable, Hashable {
        public var median: Double
        public var iqr: Double
    }

    /// Why QT/QTc is empty, or `nil`.
    public var nullReason: String? {
        var qtReason: String?
        if let s = qtSpread, let r = rr {
            qtReason =
                "QT IQR \(Int(s.rounded())) ms above the \(Int(Self.qtSpreadLimit(rrIQR: r.iqr).rounded())) ms RR changes allow (\(Int(Self.qtSpreadAllowance)) + \(Self.qtRRSlope) × RR IQR \(Int(r.iqr.rounded())) ms): T ends on different waves"
        } else if let d = qtLeadDisagreement {
            qtReason = "leads disagree on QT by \(Int(d.rounded())) ms (limit \(Int(Self.leadDisagreementLimit)) ms)"
        }
        if let reason = qtReason {
            return pr == nil ? reason + "; fewer than \(Self.minimumBeats) beats with a delineated P onset" : reason
        }
        guard qt == nil else { return pr == nil ? "fewer than \(Self.minimumBeats) beats with a delineated P onset" : nil }
        return
            "fewer than \(Self.minimumBeats) normal beats after a normal beat in acceptable quality with a delineated QRS onset and T offset"
    }

    /// The cross-lead QT agreement rule over the rows of one device's leads and window (or whole
    /// recording), its combined row included: when two leads or more have a QT and their median
    /// QTs differ by more than ``leadDisagreementLimit``, every row loses QT and QTc (which lead
    /// failed is not known, and the combined row's T offset is the leads' median, so it carries
    /// half the failure) and records the difference (``qtLeadDisagreement``). A lead row the
    /// spread rule emptied (``applyQTSpread()``) takes part with its measured median. A device
    /// with one lead has no such check.
    /// - Parameters:
    ///   - rows: the rows, changed in place.
    ///   - isLead: per row, whether it is a lead's (not the combined row).
    public static func applyLeadAgreement(_ rows: inout [ECGIntervals], isLead: [Bool]) {
        var low = Double.infinity, high = -Double.infinity, n = 0
        for (r, lead) in zip(rows, isLead) where lead {
            guard let q = r.qt?.median ?? r.qtMedianBeforeSpread else { continue }
            low = min(low, q)
            high = max(high, q)
            n += 1
        }
        guard n >= 2, high - low > leadDisagreementLimit else { return }
        for i in rows.indices {
            rows[i].clearQT()
            rows[i].qtLeadDisagreement = high - low
        }
    }

    /// Empties QT and the four QTc (the QT plausibility rules; PR, QRS and RR stay).
    private mutating func clearQT() {
        qt = nil
        qtcBazett = nil
        qtcFridericia = nil
        qtcFramingham = nil
        qtcHodges = nil
    }

    /// The four QTc formulas, ms.
    /// - Parameters:
    ///   - qt: QT, s.
    ///   - rr: RR, s.
    /// - Returns: Bazett, Fridericia, Framingham, Hodges, ms.
    public static func corrected(qt: Double, rr: Double) -> (bazett: Double, fridericia: Double, framingham: Double, hodges: Double) {
        let q = qt * 1000
        return (q / rr.squareRoot(), q / cbrt(rr), q + 154 * (1 - rr), q + 1.75 * (60 / rr - 60))
    }
}

/// Collects the qualifying beats of one stream into windows and the whole stream.
struct IntervalAccumulator {
    let windowSeconds: Double
    /// Whether each row gets ``ECGIntervals/applyQTSpread()``.
    let checksQTSpread: Bool
    var window: Int?
    var current = Values()
    var whole = Values()
    var first: Double?
    var last: Double?

    struct Values {
        var pr: [Float] = [], qrs: [Float] = [], qt: [Float] = [], rr: [Float] = []
        var b: [Float] = [], f: [Float] = [], fr: [Float] = [], h: [Float] = []
        var beats = 0
        var start = 0.0

        mutating func add(_ w: BeatWaves, previousNormal: Bool) {
            beats += 1
            guard w.beatClass == "N", previousNormal, w.signalQuality == "excellent" || w.signalQuality == "barely_acceptable",
                w.qrsStatus == .present, let on = w.qrsOnset
            else { return }
            if let off = w.qrsOffset { qrs.append(Float((off - on) * 1000)) }
            if w.pStatus == .present, let p = w.pOnset { pr.append(Float((on - p) * 1000)) }
            if w.tStatus == .present, let t = w.tOffset, let rrs = w.rrBefore, rrs >= 0.3, rrs <= 2.0 {
                let q = t - on
                let c = ECGIntervals.corrected(qt: q, rr: rrs)
                qt.append(Float(q * 1000))
                rr.append(Float(rrs * 1000))
                b.append(Float(c.bazett))
                f.append(Float(c.fridericia))
                fr.append(Float(c.framingham))
                h.append(Float(c.hodges))
            }
        }

        func result(scope: String, start: Double, end: Double) -> ECGIntervals {
            func spread(_ v: [Float]) -> ECGIntervals.Spread? {
                guard v.count >= ECGIntervals.minimumBeats else { return nil }
                // The linear quantiles read the values of the ascending order at ⌊p(n − 1)⌋ and
                // the next: those order statistics by selection (exact), read as Double (the
                // same values and order as sorting the Doubles).
                let n = v.count
                func index(_ p: Double) -> (Int, Double) {
                    let h = p * Double(n - 1)
                    return (Int(h.rounded(.down)), h)
                }
                var positions = [Int]()
                for p in [0.5, 0.75, 0.25] {
                    let i = index(p).0
                    positions.append(i)
                    if i + 1 < n { positions.append(i + 1) }
                }
                positions.sort()
                let values = v.withUnsafeBufferPointer { WaveSort.orderStatistics($0, positions: positions) }
                func s(_ i: Int) -> Double { Double(values[positions.firstIndex(of: i)!]) }
                func q(_ p: Double) -> Double {
                    let (i, h) = index(p)
                    let a = s(i)
                    return i + 1 < n ? a + (s(i + 1) - a) * (h - Double(i)) : a
                }
                return ECGIntervals.Spread(median: q(0.5), iqr: q(0.75) - q(0.25))
            }
            return ECGIntervals(
                scope: scope, startSeconds: start, endSeconds: end, pr: spread(pr), qrs: spread(qrs), qt: spread(qt),
                qtcBazett: spread(b), qtcFridericia: spread(f), qtcFramingham: spread(fr), qtcHodges: spread(h), rr: spread(rr),
                qtBeats: qt.count, prBeats: pr.count, qrsBeats: qrs.count, beats: beats)
        }
    }

    init(windowSeconds: Double, checksQTSpread: Bool) {
        self.windowSeconds = windowSeconds
        self.checksQTSpread = checksQTSpread
    }

    private func checked(_ r: ECGIntervals) -> ECGIntervals {
        var r = r
        if checksQTSpread { r.applyQTSpread() }
        return r
    }

    /// Adds a beat (in time order); returns the window it closes, if any.
    mutating func add(_ w: BeatWaves, previousNormal: Bool) -> ECGIntervals? {
        let k = Int((w.beatTime / windowSeconds).rounded(.down))
        var closed: ECGIntervals?
        if let c = window, c != k {
            closed = checked(current.result(scope: "window", start: Double(c) * windowSeconds, end: Double(c + 1) * windowSeconds))
            current = Values()
        }
        window = k
        current.add(w, previousNormal: previousNormal)
        whole.add(w, previousNormal: previousNormal)
        if first == nil { first = w.beatTime }
        last = w.beatTime
        return closed
    }

    /// The last window and the whole stream.
    func finish() -> [ECGIntervals] {
        guard let c = window, let f = first, let l = last else { return [] }
        return [
            checked(current.result(scope: "window", start: Double(c) * windowSeconds, end: Double(c + 1) * windowSeconds)),
            checked(whole.result(scope: "recording", start: f, end: l)),
        ]
    }
}

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

    /// Fewest contributing beats for a median.
    public static let minimumBeats = 5

    /// Leads' median QTs of one window further apart than this empty its QT/QTc, ms. The QT
    /// dispersion across the 12 leads (max − min) is 30–60 ms in healthy subjects, its upper
    /// normal limit about 70 ms, and values above 100 ms are rare even in disease (Malik M,
    /// Batchvarov VN, J Am Coll Cardiol 2000;36:1749–1766); any two leads differ by at most the
    /// dispersion, so a larger difference is a delineation failure in one lead at least.
    public static let leadDisagreementLimit = 100.0

    /// A median and interquartile range, ms.
    public struct Spread: Sendable, Hashable {
        public var median: Double
        public var iqr: Double
    }

    /// Why QT/QTc is empty, or `nil`.
    public var nullReason: String? {
        if let d = qtLeadDisagreement {
            let reason = "leads disagree on QT by \(Int(d.rounded())) ms (limit \(Int(Self.leadDisagreementLimit)) ms)"
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
    /// half the failure) and records the difference (``qtLeadDisagreement``). A device with one
    /// lead has no such check.
    /// - Parameters:
    ///   - rows: the rows, changed in place.
    ///   - isLead: per row, whether it is a lead's (not the combined row).
    public static func applyLeadAgreement(_ rows: inout [ECGIntervals], isLead: [Bool]) {
        var low = Double.infinity, high = -Double.infinity, n = 0
        for (r, lead) in zip(rows, isLead) where lead {
            guard let q = r.qt?.median else { continue }
            low = min(low, q)
            high = max(high, q)
            n += 1
        }
        guard n >= 2, high - low > leadDisagreementLimit else { return }
        for i in rows.indices {
            rows[i].qt = nil
            rows[i].qtcBazett = nil
            rows[i].qtcFridericia = nil
            rows[i].qtcFramingham = nil
            rows[i].qtcHodges = nil
            rows[i].qtLeadDisagreement = high - low
        }
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

    init(windowSeconds: Double) { self.windowSeconds = windowSeconds }

    /// Adds a beat (in time order); returns the window it closes, if any.
    mutating func add(_ w: BeatWaves, previousNormal: Bool) -> ECGIntervals? {
        let k = Int((w.beatTime / windowSeconds).rounded(.down))
        var closed: ECGIntervals?
        if let c = window, c != k {
            closed = current.result(scope: "window", start: Double(c) * windowSeconds, end: Double(c + 1) * windowSeconds)
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
            current.result(scope: "window", start: Double(c) * windowSeconds, end: Double(c + 1) * windowSeconds),
            whole.result(scope: "recording", start: f, end: l),
        ]
    }
}

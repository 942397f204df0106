import Foundation
import Signals
import Testing

@testable import Cardio

/// The single-stream QT rule of `ecg_intervals` (``ECGIntervals/applyQTSpread()``) on a crafted
/// single-lead recording at a steady rate (R every 0.8 s): every beat has the same T wave peaking
/// 280 ms after R, and in the alternating case every second beat has it at 440 ms instead — the
/// T end is then taken on two waves 160 ms apart, and the window's QT IQR (≈ 160 ms) is far
/// above what the RR changes allow (RR IQR 0 here, so the limit is
/// ``ECGIntervals/qtSpreadAllowance``). Expected values are the construction's (where the T
/// waves lie), never the rule's own output.
@Suite("Waves intervals: a single lead whose QT is not one value")
struct WaveQTSpreadTests {
    static let rr = 0.8
    static let rate = 250.0

    /// `seconds` of a lead at 250 Hz, R peaks at 1.0 + k·rr; beat k's T peak at `tPeak(k)`.
    static func lead(seconds: Double, tPeak: (Int) -> Double) -> [Float] {
        (0..<Int(seconds * rate)).map { i in
            let t = Double(i) / rate - 1.0
            let k = Int((t / rr).rounded())
            return Float(
                (-2...2).reduce(0.0) {
                    $0 + WaveLeadAgreementTests.shape(t - Double(k + $1) * rr, tPeak: tPeak(k + $1))
                })
        }
    }

    /// Runs the family on one lead (blocks of 1000 samples, the beats handed over after their
    /// samples); returns the interval rows.
    static func run(tPeak: @escaping (Int) -> Double, options: ECGWavesOptions = ECGWavesOptions()) throws -> [Streamed<ECGIntervals>] {
        let seconds = 130.0
        let x = lead(seconds: seconds, tPeak: tPeak)
        var a = ECGWavesFamily.makeAnalyzer(options: options)
        let info = StreamInfo(
            key: StreamKey(deviceID: "w", sensor: .electrocardiogram, channel: "I"),
            columns: [ColumnInfo(name: "ecg", unit: .millivolts)], nominalSampleRate: rate)
        let stream = AnnouncedStream(index: 0, info: info, file: "w")
        let claimed = a.claim(stream)
        #expect(claimed)
        let out = IntervalRowCollector()
        let beats = stride(from: 1.0, to: seconds - 1.5, by: rr).map { $0 }
        var next = 0
        var start = 0
        while start < x.count {
            let end = min(x.count, start + 1000)
            try a.consume(
                SampleBlock(
                    stream: 0, segment: 0, firstSample: start, time: .uniform(segmentStart: 0, sampleRate: rate),
                    columns: [Array(x[start..<end])], flags: [UInt8](repeating: 0, count: end - start), endsSegment: end == x.count),
                output: out)
            while next < beats.count, beats[next] + 0.5 <= Double(end) / rate {
                let e = DerivedEvent(
                    series: ECGBeatEvents.series.id, stream: stream.name, time: beats[next], values: [.label("N"), .label("excellent")])
                try a.consume(derived: e, series: ECGBeatEvents.series, output: out)
                next += 1
            }
            start = end
        }
        try a.finish(output: out)
        return out.rows
    }

    @Test("T at 280 and 440 ms on alternate beats: QT/QTc empty in every window and the recording row, with the reason")
    func alternatingTIsEmptied() throws {
        let alternate: (Int) -> Double = { $0 % 2 == 0 ? 0.28 : 0.44 }
        var off = ECGWavesOptions()
        off.checksQTSpread = false
        let measured = try Self.run(tPeak: alternate, options: off)
        let full = measured.filter { $0.value.qtBeats >= ECGIntervals.minimumBeats }
        #expect(full.count >= 3, "two full windows and the recording row: \(full.count)")
        for r in full {
            // Without the rule: a QT is published, and its IQR is the two T waves' distance.
            let qt = try #require(r.value.qt, "\(r.value.startSeconds)")
            let rrIQR = try #require(r.value.rr).iqr
            #expect(rrIQR < 5, "a steady rate: RR IQR \(rrIQR)")
            #expect(qt.iqr > ECGIntervals.qtSpreadAllowance + 30, "window \(r.value.startSeconds): QT IQR \(qt.iqr)")
        }
        let rows = try Self.run(tPeak: alternate)
        #expect(rows.count == measured.count)
        let emptied = expectQTEmptied(rows, reasonPrefix: "QT IQR")
        #expect(emptied >= 3)
    }

    @Test("the same T on every beat: QT kept in every row, near the construction's")
    func steadyTIsKept() throws {
        let rows = try Self.run(tPeak: { _ in 0.28 })
        let full = rows.filter { $0.value.qtBeats >= ECGIntervals.minimumBeats }
        #expect(full.count >= 3)
        for r in full {
            let qt = try #require(r.value.qt, "\(r.value.startSeconds): \(r.value.nullReason ?? "")")
            #expect(r.value.qtSpread == nil)
            // QRS onset ≈ R − 40 ms, T end ≈ 280 + 2.5σ (σ 40 ms) ≈ 380 ms after R: QT 350–480 ms.
            #expect(qt.median > 350 && qt.median < 480, "QT \(qt.median)")
        }
    }

    /// A window row with the given QT median and IQR and RR IQR, the spread rule applied.
    static func row(qt: Double = 400, qtIQR: Double, rrIQR: Double) -> ECGIntervals {
        var r = ECGIntervals(
            scope: "window", startSeconds: 0, endSeconds: 60, pr: nil, qrs: nil, qt: .init(median: qt, iqr: qtIQR),
            qtcBazett: .init(median: qt + 20, iqr: qtIQR), qtcFridericia: .init(median: qt + 10, iqr: qtIQR), qtcFramingham: nil,
            qtcHodges: nil, rr: .init(median: 800, iqr: rrIQR), qtBeats: 60, prBeats: 0, qrsBeats: 60, beats: 60)
        r.applyQTSpread()
        return r
    }

    @Test("the limit follows the RR spread: a QT IQR that RR changes explain is kept")
    func limitFollowsRR() {
        let row = { (qtIQR: Double, rrIQR: Double) in Self.row(qtIQR: qtIQR, rrIQR: rrIQR) }
        #expect(row(90, 0).qt != nil)
        #expect(row(120, 0).qt == nil)
        #expect(row(120, 0).qtSpread == 120)
        // 100 + 0.3 × 200 = 160 ms: a 120-ms QT IQR over a 200-ms RR IQR is within what the heart does.
        #expect(row(120, 200).qt != nil)
        #expect(row(170, 200).qt == nil)
    }

    @Test("a lead the spread rule emptied still takes part in the cross-lead rule with its measured QT")
    func spreadLeadStillCountsAcrossLeads() {
        // Lead II: T ends on two waves (QT 530, IQR 146); V5: 380 (IQR 30); combined (the leads'
        // median T end) 450 (IQR 69): II's measured QT is 150 ms from V5's, so the combined row,
        // which carries half of II's failure, is emptied too.
        var rows = [
            Self.row(qt: 530, qtIQR: 146, rrIQR: 40), Self.row(qt: 380, qtIQR: 30, rrIQR: 40), Self.row(qt: 450, qtIQR: 69, rrIQR: 40),
        ]
        #expect(rows[0].qt == nil && rows[1].qt != nil && rows[2].qt != nil)
        ECGIntervals.applyLeadAgreement(&rows, isLead: [true, true, false])
        #expect(rows.allSatisfy { $0.qt == nil && $0.qtcFridericia == nil })
        #expect(rows[0].nullReason?.hasPrefix("QT IQR 146 ms") == true, "\(rows[0].nullReason ?? "nil")")
        #expect(rows[1].nullReason?.hasPrefix("leads disagree on QT by 150 ms") == true, "\(rows[1].nullReason ?? "nil")")
        #expect(rows[2].nullReason?.hasPrefix("leads disagree on QT by 150 ms") == true)
    }
}

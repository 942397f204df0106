import Foundation
import Signals
import Testing

@testable import Cardio

/// Collects the `ecg_intervals` rows an analyzer emits.
final class IntervalRowCollector: ResultOutput {
    var rows: [Streamed<ECGIntervals>] = []
    func emit<Row>(_ schema: TableSchema<Row>, _ row: Row) throws {
        if let r = row as? Streamed<ECGIntervals> { rows.append(r) }
    }
    func publish(_ event: DerivedEvent) throws {}
}

/// Checks every row with enough QT beats for a QT plausibility rule's effect: QT and the four QTc
/// empty, the reason starting with `reasonPrefix`, PR, QRS and RR kept.
/// - Returns: how many rows were checked.
func expectQTEmptied(_ rows: [Streamed<ECGIntervals>], reasonPrefix: String) -> Int {
    var emptied = 0
    for r in rows where r.value.qtBeats >= ECGIntervals.minimumBeats {
        #expect(r.value.qt == nil && r.value.qtcBazett == nil && r.value.qtcFridericia == nil, "\(r.stream) \(r.value.startSeconds)")
        #expect(r.value.qtcFramingham == nil && r.value.qtcHodges == nil)
        #expect(r.value.nullReason?.hasPrefix(reasonPrefix) == true, "\(r.value.nullReason ?? "nil")")
        #expect(r.value.pr != nil && r.value.qrs != nil && r.value.rr != nil, "PR, QRS and RR are kept")
        emptied += 1
    }
    return emptied
}

/// The cross-lead QT rule of `ecg_intervals` (``ECGIntervals/applyLeadAgreement(_:isLead:)``) on
/// a crafted two-lead recording: both leads carry the same beats (R every 0.8 s), lead II's T wave
/// peaks 280 ms after R, lead V5's at `secondT`; with V5's T 160 ms later the leads' QTs differ
/// by far more than the 100-ms limit, with the same T they agree. Expected values are the
/// construction's (which lead is late, by how much), never the rule's own output.
@Suite("Waves intervals: leads that disagree on QT")
struct WaveLeadAgreementTests {
    static let rr = 0.8
    static let rate = 250.0

    /// One beat's waves at `t` s from its R peak, mV, with the T peak at `tPeak`.
    static func shape(_ t: Double, tPeak: Double) -> Double {
        func g(_ c: Double, _ s: Double) -> Double { exp(-0.5 * pow((t - c) / s, 2)) }
        return 0.15 * g(-0.16, 0.02) - 0.15 * g(-0.025, 0.008) + 1.2 * g(0, 0.01) - 0.3 * g(0.025, 0.008) + 0.3 * g(tPeak, 0.04)
    }

    /// `seconds` of a lead at 250 Hz, R peaks at 1.0 + k·rr.
    static func lead(seconds: Double, tPeak: Double) -> [Float] {
        (0..<Int(seconds * rate)).map { i in
            let t = Double(i) / rate - 1.0
            let k = (t / rr).rounded()
            return Float((-2...2).reduce(0.0) { $0 + shape(t - (k + Double($1)) * rr, tPeak: tPeak) })
        }
    }

    /// Runs the family on the two leads (blocks of 1000 samples, each lead's beats handed over
    /// as the ECG family would: after its samples); returns the interval rows.
    static func run(secondT: Double, options: ECGWavesOptions = ECGWavesOptions()) throws -> [Streamed<ECGIntervals>] {
        let seconds = 130.0
        let x = [lead(seconds: seconds, tPeak: 0.28), lead(seconds: seconds, tPeak: secondT)]
        var a = ECGWavesFamily.makeAnalyzer(options: options)
        let names = ["m/electrocardiogram/II", "m/electrocardiogram/V5"]
        for (i, channel) in ["II", "V5"].enumerated() {
            let info = StreamInfo(
                key: StreamKey(deviceID: "m", sensor: .electrocardiogram, channel: channel),
                columns: [ColumnInfo(name: "ecg", unit: .millivolts)], nominalSampleRate: rate)
            let stream = AnnouncedStream(index: i, info: info, file: "m")
            let claimed = a.claim(stream)
            #expect(claimed && stream.name == names[i], "\(stream.name)")
        }
        let out = IntervalRowCollector()
        let beats = stride(from: 1.0, to: seconds - 1.5, by: rr).map { $0 }
        var next = [0, 0]
        var start = 0
        let n = x[0].count
        while start < n {
            let end = min(n, start + 1000)
            for l in 0..<2 {
                try a.consume(
                    SampleBlock(
                        stream: l, segment: 0, firstSample: start, time: .uniform(segmentStart: 0, sampleRate: rate),
                        columns: [Array(x[l][start..<end])], flags: [UInt8](repeating: 0, count: end - start), endsSegment: end == n),
                    output: out)
                while next[l] < beats.count, beats[next[l]] + 0.5 <= Double(end) / rate {
                    let e = DerivedEvent(
                        series: ECGBeatEvents.series.id, stream: names[l], time: beats[next[l]], values: [.label("N"), .label("excellent")])
                    try a.consume(derived: e, series: ECGBeatEvents.series, output: out)
                    next[l] += 1
                }
            }
            start = end
        }
        try a.finish(output: out)
        return out.rows
    }

    @Test("V5's T 160 ms later than II's: every window's QT/QTc empty in both leads and the combined row, with the reason")
    func disagreeingLeadsAreEmptied() throws {
        var off = ECGWavesOptions()
        off.checksLeadAgreement = false
        let measured = try Self.run(secondT: 0.44, options: off)
        // Without the rule: each lead's QT as measured, V5's far longer than II's (the construction).
        let windows = measured.filter { $0.value.scope == "window" && $0.value.qtBeats >= ECGIntervals.minimumBeats }
        #expect(windows.count >= 6, "two full windows of three streams: \(windows.count)")
        for start in Set(windows.map(\.value.startSeconds)) {
            let qt = { (lead: String) in windows.first { $0.stream.hasSuffix(lead) && $0.value.startSeconds == start }?.value.qt?.median }
            let ii = try #require(qt("/II")), v5 = try #require(qt("/V5"))
            #expect(v5 - ii > ECGIntervals.leadDisagreementLimit + 20, "window \(start): II \(ii) ms, V5 \(v5) ms")
        }
        let rows = try Self.run(secondT: 0.44)
        #expect(rows.count == measured.count)
        let emptied = expectQTEmptied(rows, reasonPrefix: "leads disagree on QT by")
        #expect(emptied >= 8, "both windows and the recording rows of three streams: \(emptied)")
    }

    @Test("the same T in both leads: QT kept in every row")
    func agreeingLeadsAreKept() throws {
        let rows = try Self.run(secondT: 0.28)
        let full = rows.filter { $0.value.qtBeats >= ECGIntervals.minimumBeats }
        #expect(full.count >= 8)
        for r in full {
            #expect(
                r.value.qt != nil && r.value.qtLeadDisagreement == nil, "\(r.stream) \(r.value.startSeconds): \(r.value.nullReason ?? "")")
        }
    }
}

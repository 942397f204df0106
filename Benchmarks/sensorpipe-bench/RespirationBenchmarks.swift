import Cardio
import Foundation
import Pipeline
import Respiration

/// Keeps every derived event the ECG and PPG families publish (rows that carry one, and events
/// published on their own), and counts the rows.
final class DerivedEventCapture: ResultOutput {
    var events: [DerivedEvent] = []
    var rows = 0
    func emit<Row>(_ schema: TableSchema<Row>, _ row: Row) throws {
        rows += 1
        if let c = row as? any DerivedSeriesContributing, let e = c.derivedEvent { events.append(e) }
    }
    func publish(_ event: DerivedEvent) throws { events.append(event) }
}

/// Issue 31's speed target: the respiration stage of a 24-h ECG + PPG recording against the ECG
/// and PPG chains on the same recording, measured in the same run (guard: ≤ 0.10).
///
/// The recording: a day of 512 Hz ECG (the tiled MIT-BIH excerpt of ``ecgDay(count:)``, one
/// lead) and a day of 128 Hz finger-style PPG (the first optical channel of
/// ``syntheticWristPPG(count:rate:)``, no accelerometer). The reference
/// (`respiration/reference/ecg+ppg-families/day`) runs the ECG family and the PPG family over it
/// (analyzers fed in blocks of 65,536 samples, rows counted and dropped, the events they publish
/// built as in a run with subscribers). The case runs the respiration family over the events those
/// two families publish (`ecg_beats`, `ppg_pulses`, captured once in set-up and projected onto the
/// family's subscriptions as the runner does, in time order): the stage's own cost, the runner's
/// routing excluded. `--quick`: 1/16 of the day.
func respirationBenchmarks(_ scale: BenchmarkScale) -> [BenchmarkCase] {
    let ecgCount = scale.dayAt512Hz
    let ppgCount = ecgCount / 4
    let reference = "respiration/reference/ecg+ppg-families/day"
    return [
        BenchmarkCase(name: reference, samples: ecgCount + ppgCount, bytes: (ecgCount + ppgCount) * 4, reference: nil) {
            let ecg = ecgDay(count: ecgCount)
            let ppg = syntheticWristPPG(count: ppgCount, rate: 128).optical[0]
            return {
                let out = DerivedEventCapture()
                runECGAndPPGFamilies(ecg: ecg, ppg: ppg, output: out)
                blackHole(out.rows + out.events.count)
            }
        },
        BenchmarkCase(
            name: "respiration/stage/day/ecg+ppg", samples: ecgCount + ppgCount, bytes: (ecgCount + ppgCount) * 4,
            reference: reference
        ) {
            let capture = DerivedEventCapture()
            runECGAndPPGFamilies(
                ecg: ecgDay(count: ecgCount), ppg: syntheticWristPPG(count: ppgCount, rate: 128).optical[0], output: capture)
            let events = respirationInput(capture.events)
            precondition(events.count > ecgCount / 512, "respiration benchmark: \(events.count) events")
            return {
                var a = RespirationFamily.makeAnalyzer(options: RespirationFamily.defaultOptions)
                let out = CountingOutput()
                for (e, series) in events { try! a.consume(derived: e, series: series, output: out) }
                try! a.finish(output: out)
                precondition(out.rows > 0, "respiration benchmark: no rows")
                blackHole(out.rows)
            }
        },
    ]
}

/// The ECG family over one lead (`ecg`, 512 Hz) and the PPG family over one optical channel
/// (`ppg`, 128 Hz), each in blocks of 65,536 samples.
func runECGAndPPGFamilies(ecg: [Float], ppg: [Float], output: any ResultOutput) {
    var a = ECGFamily.makeAnalyzer(options: ECGFamily.defaultOptions)
    let info = StreamInfo(
        key: StreamKey(deviceID: "bench", sensor: .electrocardiogram, channel: "II"),
        columns: [ColumnInfo(name: "value", unit: .millivolts)], nominalSampleRate: 512, attributes: ["lead": "II"],
        timeOrigin: .streamStart)
    precondition(a.claim(AnnouncedStream(index: 0, info: info, file: "bench")))
    let time = TimeBase.uniform(segmentStart: 0, sampleRate: 512)
    var start = 0
    while start < ecg.count {
        let end = min(ecg.count, start + 65_536)
        try! a.consume(
            SampleBlock(
                stream: 0, segment: 0, firstSample: start, time: time, columns: [Array(ecg[start..<end])],
                flags: [UInt8](repeating: 0, count: end - start), endsSegment: end == ecg.count), output: output)
        start = end
    }
    try! a.finish(output: output)
    var p = makeWristPPGAnalyzer(rate: 128, channels: 1, accelerometer: false)
    feedWristPPG(&p, optical: [ppg], acc: [], firstSample: 0, last: true, rate: 128, output: output)
    try! p.finish(output: output)
}

/// The events the respiration family subscribes to, projected onto its subscriptions (as the
/// runner's router does), in time order.
func respirationInput(_ events: [DerivedEvent]) -> [(DerivedEvent, DerivedSeries)] {
    let analyzer = RespirationFamily.makeAnalyzer(options: RespirationFamily.defaultOptions)
    var declared = [String: DerivedSeries]()
    for s in ECGFamily.publishes + PPGFamily.publishes { declared[s.id] = s }
    var routes = [String: (series: DerivedSeries, indices: [Int])]()
    for sub in analyzer.subscriptions {
        guard let s = declared[sub.series], let p = s.projected(onto: sub.attributes) else {
            fatalError("respiration benchmark: \(sub.series) is not published with \(sub.attributes)")
        }
        routes[sub.series] = p
    }
    var out = [(DerivedEvent, DerivedSeries)]()
    for e in events {
        guard let r = routes[e.series] else { continue }
        var x = e
        x.values = r.indices.map { e.values[$0] }
        out.append((x, r.series))
    }
    return out.enumerated().sorted { ($0.element.0.time, $0.offset) < ($1.element.0.time, $1.offset) }.map(\.element)
}

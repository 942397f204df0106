import Cardio
import Foundation
import Pipeline
import Recordings
import Testing
import _TestSupport

/// What the routing test families saw, in order (one log per test run; the suite is serialized).
final class DerivedEventLog: @unchecked Sendable {
    var lines: [String] = []
    var running: Set<String> = []
    var violations: [String] = []
    /// Events the tick publisher publishes per sample.
    var ticksPerSample = 1

    func enter(_ who: String) {
        if !running.insert(who).inserted { violations.append("\(who) re-entered while its own call was running") }
        lines.append("\(who) {")
    }

    func leave(_ who: String) {
        running.remove(who)
        lines.append("} \(who)")
    }

    static let shared = DerivedEventLog()
    func reset(ticksPerSample: Int) {
        lines = []
        running = []
        violations = []
        self.ticksPerSample = ticksPerSample
    }
}

/// The test families have no options and no tables.
struct NoOptions: Sendable {}

extension AnalysisFamily where Options == NoOptions {
    static var tables: [ResultTable] { [] }
    static var options: [AnalysisOption<NoOptions>] { [] }
    static var defaultOptions: NoOptions { NoOptions() }
}

/// Publishes `tick_samples` (sample number, x) for every accelerometer sample, and subscribes to
/// the echoes of its own ticks (a cycle through ``EchoFamily``).
enum TickFamily: AnalysisFamily {
    static let name = "tick"
    static let summary = "publishes one event per sample"
    static let ticks = DerivedSeries(
        source: "tick", name: "samples", summary: "one event per accelerometer sample", isEventSeries: true,
        attributes: [.number("n", unit: "", "sample number in the stream"), .number("x", unit: "g", "the sample's x")])
    static var publishes: [DerivedSeries] { [ticks] }
    static func makeAnalyzer(options: NoOptions) -> Analyzer { Analyzer() }

    struct Analyzer: RecordingAnalyzer {
        var names: [Int: String] = [:]
        var counts: [Int: Int] = [:]
        var issues: [String] = []
        var subscriptions: [DerivedSubscription] { [DerivedSubscription(series: "echo_ticks", attributes: ["n"])] }
        mutating func claim(_ stream: AnnouncedStream) -> Bool {
            guard stream.info.key.sensor == .accelerometer else { return false }
            names[stream.index] = stream.name
            return true
        }
        mutating func consume(_ block: SampleBlock, output: any ResultOutput) throws {
            let log = DerivedEventLog.shared
            log.enter("tick")
            log.lines.append("tick block")
            defer { log.leave("tick") }
            var n = counts[block.stream] ?? 0
            for i in 0..<block.count {
                for _ in 0..<log.ticksPerSample {
                    n += 1
                    try output.publish(
                        DerivedEvent(
                            series: TickFamily.ticks.id, stream: names[block.stream]!, time: block.time(at: i),
                            values: [.number(Double(n)), .number(Double(block.columns[0][i]))]))
                }
            }
            counts[block.stream] = n
        }
        mutating func consume(derived event: DerivedEvent, series: DerivedSeries, output: any ResultOutput) throws {
            let log = DerivedEventLog.shared
            log.enter("tick")
            log.lines.append("tick got \(event.series) \(Int(event.values[0].number))")
            log.leave("tick")
        }
        mutating func finish(output: any ResultOutput) throws {}
    }
}

/// Subscribes to the ticks (attributes in its own order) and publishes `echo_ticks` for each
/// while it receives it: a consumer that publishes.
enum EchoFamily: AnalysisFamily {
    static let name = "echo"
    static let summary = "echoes every tick"
    static let echoes = DerivedSeries(
        source: "echo", name: "ticks", summary: "one event per tick received", isEventSeries: true,
        attributes: [.number("n", unit: "", "the tick's sample number")])
    static var publishes: [DerivedSeries] { [echoes] }
    static func makeAnalyzer(options: NoOptions) -> Analyzer { Analyzer() }

    struct Analyzer: RecordingAnalyzer {
        var issues: [String] = []
        var subscriptions: [DerivedSubscription] { [DerivedSubscription(series: "tick_samples", attributes: ["x", "n"])] }
        mutating func claim(_ stream: AnnouncedStream) -> Bool { false }
        mutating func consume(_ block: SampleBlock, output: any ResultOutput) throws {}
        mutating func consume(derived event: DerivedEvent, series: DerivedSeries, output: any ResultOutput) throws {
            let log = DerivedEventLog.shared
            log.enter("echo")
            defer { log.leave("echo") }
            if series.attributes.map(\.name) != ["x", "n"] || event.values.count != 2 {
                log.violations.append("echo: attributes \(series.attributes.map(\.name)), \(event.values.count) values")
            }
            try output.publish(
                DerivedEvent(series: EchoFamily.echoes.id, stream: event.stream, time: event.time, values: [event.values[1]]))
        }
        mutating func finish(output: any ResultOutput) throws {}
    }
}

/// Records the ticks and echoes it receives; one of its subscriptions names an attribute the
/// ticks do not declare.
enum RecorderFamily: AnalysisFamily {
    static let name = "recorder"
    static let summary = "records ticks and echoes"
    static func makeAnalyzer(options: NoOptions) -> Analyzer { Analyzer() }

    struct Analyzer: RecordingAnalyzer {
        var issues: [String] = []
        var subscriptions: [DerivedSubscription] {
            [
                DerivedSubscription(series: "tick_samples", attributes: ["n"]),
                DerivedSubscription(series: "echo_ticks", attributes: ["n"]),
                DerivedSubscription(series: "tick_samples", attributes: ["missing"]),
            ]
        }
        mutating func claim(_ stream: AnnouncedStream) -> Bool { false }
        mutating func consume(_ block: SampleBlock, output: any ResultOutput) throws {}
        mutating func consume(derived event: DerivedEvent, series: DerivedSeries, output: any ResultOutput) throws {
            DerivedEventLog.shared.lines.append("recorder \(event.series) \(event.stream) \(Int(event.values[0].number))")
        }
        mutating func finish(output: any ResultOutput) throws {}
    }
}

/// Records every event of one derived series (all attributes), for the ECG and PPG publishers.
final class SeriesRecorder: @unchecked Sendable {
    nonisolated(unsafe) static var series = ""
    nonisolated(unsafe) static var events: [DerivedEvent] = []
    nonisolated(unsafe) static var attributes: [String] = []
}

enum SeriesRecorderFamily: AnalysisFamily {
    static let name = "series_recorder"
    static let summary = "records one derived series"
    static func makeAnalyzer(options: NoOptions) -> Analyzer { Analyzer() }

    struct Analyzer: RecordingAnalyzer {
        var issues: [String] = []
        var subscriptions: [DerivedSubscription] {
            [DerivedSubscription(series: SeriesRecorder.series, attributes: SeriesRecorder.attributes)]
        }
        mutating func claim(_ stream: AnnouncedStream) -> Bool { false }
        mutating func consume(_ block: SampleBlock, output: any ResultOutput) throws {}
        mutating func consume(derived event: DerivedEvent, series: DerivedSeries, output: any ResultOutput) throws {
            SeriesRecorder.events.append(event)
        }
        mutating func finish(output: any ResultOutput) throws {}
    }
}

@Suite("Derived events: declared series, subscriptions, queued delivery", .serialized)
struct DerivedEventRoutingTests {
    static let accelerometer = Fixtures.repositoryRoot.appendingPathComponent(
        "Tests/RecordingsTests/Fixtures/sensorkit/accelerometer.ndjson.gz"
    ).path

    /// Runs tick, echo and recorder over the accelerometer fixture; returns the log and issues.
    static func run(capacity: Int, ticksPerSample: Int) throws -> (lines: [String], violations: [String], issues: [String]) {
        let log = DerivedEventLog.shared
        log.reset(ticksPerSample: ticksPerSample)
        let s = try RecordingAnalysis.run(
            recording: RecordingInput(path: accelerometer),
            analysis: AnalysisConfiguration(decode: DecodeOptions(blockCapacity: capacity)),
            families: [
                AnalysisFamilyEntry(TickFamily.self), AnalysisFamilyEntry(EchoFamily.self), AnalysisFamilyEntry(RecorderFamily.self),
            ],
            sink: MemorySink())
        return (log.lines, log.violations, s.issues)
    }

    /// The recorder's lines of one series, in order.
    static func received(_ lines: [String], _ series: String) -> [String] {
        lines.filter { $0.hasPrefix("recorder \(series) ") }
    }

    @Test("a consumer that publishes is never re-entered, its events reach the publisher only after the publisher's call")
    func queuedNotReentrant() throws {
        let r = try Self.run(capacity: 50, ticksPerSample: 1)
        #expect(r.violations.isEmpty, "\(r.violations.prefix(5))")
        let ticks = Self.received(r.lines, "tick_samples")
        #expect(ticks.count > 100, "the fixture has samples")
        #expect(Self.received(r.lines, "echo_ticks").count == ticks.count)
        #expect(r.lines.filter { $0.hasPrefix("tick got echo_ticks") }.count == ticks.count, "the cycle closes: every echo reaches tick")
        // Queued: nothing is delivered while tick's call runs (≤ 50 events a call, below the flush
        // count); after each call, the recorder gets that call's ticks, then their echoes.
        var inTick = false, sinceCall = [String]()
        var calls = 0
        for line in r.lines {
            if line == "tick block" {
                inTick = true
                if !sinceCall.isEmpty {
                    calls += 1
                    let kinds = sinceCall.map { $0.split(separator: " ")[1] }
                    let firstEcho = kinds.firstIndex(of: "echo_ticks") ?? kinds.count
                    #expect(kinds[firstEcho...].allSatisfy { $0 == "echo_ticks" }, "ticks after echoes: \(sinceCall.prefix(6))")
                    #expect(firstEcho * 2 == kinds.count, "each tick of the call echoed once")
                }
                sinceCall = []
            } else if line == "} tick" {
                inTick = false
            } else if line.hasPrefix("recorder ") {
                #expect(!inTick, "delivered while the publisher ran: \(line)")
                sinceCall.append(line)
            }
        }
        #expect(calls > 1)
        // A subscription to an attribute the series does not declare is reported.
        #expect(r.issues.contains { $0.contains("recorder: subscribes to missing of tick_samples") }, "\(r.issues)")
    }

    @Test("delivery is deterministic; per series, chunked = whole, also when the queue is flushed during a long call")
    func deterministicAndChunkIndependent() throws {
        // 200 events a sample: a 50-sample call publishes 10 000, over the flush count (4096).
        let a = try Self.run(capacity: 50, ticksPerSample: 200)
        let b = try Self.run(capacity: 50, ticksPerSample: 200)
        #expect(a.lines == b.lines, "two runs differ")
        #expect(a.violations.isEmpty, "\(a.violations.prefix(5))")
        var inCall = false, flushedInside = 0
        for line in a.lines {
            if line == "tick block" { inCall = true }
            if line == "} tick" { inCall = false }
            if inCall && line.hasPrefix("recorder ") { flushedInside += 1 }
        }
        #expect(flushedInside > 0, "the queue was drained inside a long publisher call")
        let c = try Self.run(capacity: 7, ticksPerSample: 200)
        #expect(c.violations.isEmpty, "\(c.violations.prefix(5))")
        for series in ["tick_samples", "echo_ticks"] {
            #expect(Self.received(a.lines, series) == Self.received(c.lines, series), "\(series): block size changed the sequence")
        }
    }

    /// Runs the registered families plus the series recorder on `path`.
    static func record(
        _ series: DerivedSeries, _ path: String, capacity: Int
    ) throws -> (events: [DerivedEvent], sink: MemorySink) {
        SeriesRecorder.series = series.id
        SeriesRecorder.attributes = series.attributes.map(\.name)
        SeriesRecorder.events = []
        let sink = MemorySink()
        _ = try RecordingAnalysis.run(
            recording: RecordingInput(path: path), analysis: AnalysisConfiguration(decode: DecodeOptions(blockCapacity: capacity)),
            families: AnalysisRegistry.families + [AnalysisFamilyEntry(SeriesRecorderFamily.self)], sink: sink)
        return (SeriesRecorder.events, sink)
    }

    @Test("ECG beats: one event per detected beat with its class and quality as in beats; amplitude and QRS width; chunked = whole")
    func ecgBeats() throws {
        let path = Fixtures.repositoryRoot.appendingPathComponent("Datasets/ecg/watch-1_mitdb100_1716282000.ndjson.gz").path
        let (events, sink) = try Self.record(ECGBeatEvents.series, path, capacity: 1 << 16)
        // The beats table's detected beats (time set), with class and quality.
        let detected = sink.named("beats").compactMap { r -> (Double, String, String?)? in
            guard case .real(let t) = r["time"] else { return nil }
            return (t, ECGResultsTests.text(r["class"]) ?? "", ECGResultsTests.text(r["quality"]))
        }
        #expect(events.count > 50)
        #expect(events.count == detected.count, "\(events.count) events, \(detected.count) detected beats")
        for (e, d) in zip(events, detected) {
            #expect(abs(e.time - d.0) < 1e-6, "time \(e.time) vs \(d.0)")
            #expect(e.values[0].label == d.1, "class at \(d.0)")
            #expect(e.values[3].label == d.2, "quality at \(d.0)")
        }
        // MIT-BIH 100 (MLII, normal sinus rhythm): R waves of about 1 mV, QRS about 60–100 ms.
        let amplitudes = events.map { $0.values[1].number }.filter(\.isFinite).sorted()
        let widths = events.map { $0.values[2].number }.filter(\.isFinite).sorted()
        #expect(amplitudes.count >= events.count - 2 && widths.count >= events.count - 2)
        let medianAmplitude = amplitudes[amplitudes.count / 2], medianWidth = widths[widths.count / 2]
        #expect(medianAmplitude > 400 && medianAmplitude < 2500, "median R amplitude \(medianAmplitude) µV")
        #expect(medianWidth > 0.04 && medianWidth < 0.14, "median QRS width \(medianWidth) s")
        let chunked = try Self.record(ECGBeatEvents.series, path, capacity: 7).events
        #expect(chunked == events, "block size changed the beat events")
    }

    @Test("PPG pulses: one event per detected pulse with its quality as in beats; measurements finite; chunked = whole")
    func ppgPulses() throws {
        let path = Fixtures.repositoryRoot.appendingPathComponent("Datasets/ppg/phone-1_butppg_1716296400.ndjson.gz").path
        let (events, sink) = try Self.record(PPGPulseEvents.series, path, capacity: 1 << 16)
        let detected = sink.named("beats").compactMap { r -> (String, Double, String?)? in
            guard case .real(let t) = r["time"] else { return nil }
            return (ECGResultsTests.text(r["stream"])!, t, ECGResultsTests.text(r["quality"]))
        }
        #expect(events.count > 20)
        var byStream = [String: [DerivedEvent]]()
        for e in events { byStream[e.stream, default: []].append(e) }
        var matched = 0
        for (stream, list) in byStream {
            let rows = detected.filter { $0.0 == stream }
            #expect(list.count == rows.count, "\(stream): \(list.count) events, \(rows.count) detected beats")
            for (e, d) in zip(list, rows) {
                #expect(abs(e.time - d.1) < 1e-6)
                #expect(e.values[3].label == d.2, "quality at \(d.1)")
                #expect(e.values[0].number.isFinite && e.values[1].number > 0, "peak, band-passed peak at \(d.1)")
                #expect(e.values[2].number >= 0.111 - 0.05 && e.values[2].number <= 1.5 + 0.05, "block width at \(d.1)")
                matched += 1
            }
        }
        #expect(matched == events.count)
        let chunked = try Self.record(PPGPulseEvents.series, path, capacity: 7).events
        #expect(chunked == events, "block size changed the pulse events")
    }

    @Test("stream roles come from the decoder: a SensorKit PPG's optical channels, accelerometer and temperature")
    func streamRoles() throws {
        let path = Fixtures.repositoryRoot.appendingPathComponent("Tests/RecordingsTests/Fixtures/sensorkit/ppg.ndjson").path
        let decoder = try RecordingOpener.open(path: path).decoder
        var roles = [String: StreamRole]()
        while let e = try decoder.next() {
            if case .stream(_, let info) = e { roles[info.key.channel] = info.role }
        }
        #expect(roles["accelerometer"] == .embeddedAccelerometer)
        #expect(roles["temperature"] == .temperature)
        let optical = roles.filter { $0.key.hasPrefix("optical/") }
        #expect(!optical.isEmpty && optical.values.allSatisfy { $0 == .optical }, "\(roles)")
        // Routing and accounting read the role: without features, the temperature is analysed by
        // no family and said to be auxiliary; the PPG family takes the optical channels (and the
        // rhythm family, for the pulse windows' span) and the accelerometer.
        var analysis = AnalysisConfiguration()
        try analysis.set(family: "features", key: "catalog", value: .choice("none"), origin: "test")
        let s = try RecordingAnalysis.run(path: path, analysis: analysis, sink: MemorySink())
        for summary in s.streamSummaries {
            switch summary.role {
            case .temperature:
                #expect(summary.analyses.isEmpty && summary.analysisDescription == "none: auxiliary channel")
            case .optical: #expect(summary.analyses == ["ppg", "rhythm"], "\(summary.key)")
            case .embeddedAccelerometer: #expect(summary.analyses.contains("ppg") && summary.analyses.contains("motion"))
            case .signal: Issue.record("\(summary.key): no stream of this file is its sensor's plain signal")
            case .record: Issue.record("\(summary.key): a SensorKit file has no device records")
            }
        }
        #expect(s.streamSummaries.contains { $0.role == .temperature })
    }
}

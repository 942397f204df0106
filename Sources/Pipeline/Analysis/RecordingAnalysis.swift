import Cardio
import Foundation
import Recordings
import Signals

/// Runs every registered analysis family (``AnalysisRegistry``) over a recording's streams and
/// writes their rows to a sink as they become final, inside one transaction (all of the
/// recording's rows, or none).
///
/// Routing: each decoder event is offered in order; every announced stream is offered to every
/// family's ``RecordingAnalyzer`` (several may claim it), and each block goes to the families
/// that claimed its stream. A recording of several files (``RecordingInput``) is decoded side by
/// side: the runner always reads next from the file that is furthest behind in time (the start
/// time of its next block), so blocks of different files arrive roughly in time order; stream
/// indices are recording-wide. Streams no family claims are decoded and accounted for, and say so
/// (`streams.analysis`).
public enum RecordingAnalysis {
    /// What happened to one stream.
    public struct StreamSummary: Sendable {
        /// The stream's key.
        public var key: StreamKey
        /// The member file it came from.
        public var file: String
        /// What its times count from.
        public var timeOrigin: TimeOrigin
        /// Attributes its source gave (``StreamInfo/attributes``) and those of its device.
        public var attributes: [String: String]
        /// Names of the families that analysed it (empty: none).
        public var analyses: [String]
        /// Its QC account.
        public var account: StreamQC
        /// What it is within its sensor (``StreamInfo/role``).
        public var role: StreamRole = .signal

        /// `streams.analysis`: the families joined by `+`, or `none: <why>`.
        public var analysisDescription: String {
            if !analyses.isEmpty { return analyses.joined(separator: "+") }
            if role == .record { return "none: device record, not analysed" }
            if role.isAuxiliary { return "none: auxiliary channel" }
            return "none: no analysis for \(key.sensor) streams in this version"
        }
    }

    /// What a run produced.
    public struct Summary: Sendable {
        /// Every stream, by recording-wide index.
        public var streamSummaries: [StreamSummary] = []
        /// Rows written per table.
        public var rowsByTable: [String: Int] = [:]
        /// Tables written (in first-write order, declared ones included).
        public var tables: [String] = []
        /// Problems that left parts unanalysed, and the decoders' recoverable issues, with the
        /// family and stream each concerns.
        public var analysisIssues: [AnalysisIssue] = []
        /// ``analysisIssues`` as lines (`stream: message`).
        public var issues: [String] {
            get { analysisIssues.map(\.description) }
            set { analysisIssues = newValue.map { AnalysisIssue(message: $0) } }
        }
        /// Samples read and rejected that belong to no stream (all files).
        public var rejectedWithoutStream = 0
        /// The recording's files.
        public var files: [String] = []
        /// Rows the analysis families wrote, per result table, in first-write order (tables a
        /// family declared but left empty are omitted; the summary tables are not included), and
        /// the input's own annotations (`annotations`, ``AnnotationTables``) when it has any.
        public var analysisRows: [(table: String, rows: Int)] = []
        /// The recording's `recording_summary` rows (one per family and device).
        public var recordingSummaries: [RecordingSummaryRow] = []

        /// One line for people: the analysis rows per table (`beats 385, heart_rate 742, …`), or
        /// `no analysis rows` when no family wrote any (decoded only).
        public var analysisRowsDescription: String {
            analysisRows.isEmpty ? "no analysis rows" : analysisRows.map { "\($0.table) \($0.rows)" }.joined(separator: ", ")
        }

        /// Streams in the recording.
        public var streams: Int { streamSummaries.count }
        /// Beats written (rows of `beats`).
        public var beats: Int { rowsByTable[BeatSeriesTables.beats.table.name] ?? 0 }
        /// QC accounts of the streams.
        public var accounts: [StreamQC] { streamSummaries.map(\.account) }
        /// Keys of the streams, in the order of ``accounts``.
        public var keys: [StreamKey] { streamSummaries.map(\.key) }
        /// Stream keys as written in the tables (`device/sensor/channel[/session]`).
        public var streamKeys: [String] { keys.map(\.description) }
        /// Sensors of the streams, in the order of ``accounts``.
        public var sensors: [SensorKind] { keys.map(\.sensor) }
        /// Streams no family analysed, as `key: reason` lines (`analyze` and `run` warn).
        public var unanalysedStreams: [String] {
            streamSummaries.filter { $0.analyses.isEmpty }.map { "\($0.key): \($0.analysisDescription)" }
        }

        /// Seconds of signal decoded, per sensor (``signalSeconds(analysedOnly:)``).
        public var signalSecondsBySensor: [SensorKind: Double] { signalSeconds(analysedOnly: false) }
        /// Seconds of signal some family analysed, per sensor.
        public var analysedSecondsBySensor: [SensorKind: Double] { signalSeconds(analysedOnly: true) }

        /// Seconds of signal per sensor: per device, the streams of a sensor whose spans (first to
        /// last sample) overlap are one recording period and count once, with the largest
        /// ``StreamQC/coveredSeconds`` among them (so the wavelengths of one PPG recording are not
        /// counted three times); separate periods add up. Auxiliary streams
        /// (``StreamRole/isAuxiliary``: the PPG temperature) are not counted.
        /// - Parameter analysedOnly: count only streams some family analysed.
        /// - Complexity: O(streams · log streams).
        public func signalSeconds(analysedOnly: Bool) -> [SensorKind: Double] {
            var spans = [String: [(first: Double, last: Double, covered: Double, sensor: SensorKind)]]()
            for s in streamSummaries where !analysedOnly || !s.analyses.isEmpty {
                let key = s.key, a = s.account
                guard !s.role.isAuxiliary, let first = a.firstTime, let last = a.lastTime else { continue }
                spans[key.deviceID + "\u{0}" + key.sensor.rawValue, default: []].append((first, last, a.coveredSeconds, key.sensor))
            }
            var out = [SensorKind: Double]()
            for list in spans.values {
                let sorted = list.sorted { $0.first < $1.first }
                var end = -Double.infinity, best = 0.0
                for s in sorted {
                    if s.first > end { // a new period: close the previous one
                        out[s.sensor, default: 0] += best
                        best = 0
                    }
                    best = max(best, s.covered)
                    end = max(end, s.last)
                }
                if let sensor = sorted.first?.sensor { out[sensor, default: 0] += best }
            }
            return out
        }

        /// Streams whose samples do not balance (read = used + masked + duplicates + rejected),
        /// as readable lines; empty when every sample is accounted for.
        public var unbalancedAccounts: [String] {
            streamSummaries.compactMap { s in
                let a = s.account
                guard !a.isBalanced else { return nil }
                return "\(s.key): samples read \(a.samplesRead) ≠ used \(a.used) + masked \(a.masked) + duplicates "
                    + "\(a.duplicatesDropped) + rejected \(a.rejected)"
            }
        }
    }

    /// Decodes one file and analyses it into `sink`.
    /// - Parameters:
    ///   - path: the recording.
    ///   - analysis: decoding and analysis options.
    ///   - sink: where rows go; committed at the end, rolled back on error.
    ///   - beforeCommit: called with the summary inside the sink's transaction, just before the
    ///     commit; its error rolls back.
    /// - Returns: a summary.
    /// - Throws: ``RecordingError`` from decoding, or the sink's errors.
    public static func run(
        path: String, analysis: AnalysisConfiguration, sink: any ResultSink,
        beforeCommit: (Summary) throws -> Void = { _ in }
    ) throws -> Summary {
        try run(recording: RecordingInput(path: path), analysis: analysis, sink: sink, beforeCommit: beforeCommit)
    }

    /// Decodes a recording (one file or several side by side) and analyses it into `sink`.
    /// - Parameters:
    ///   - recording: its identity and files.
    ///   - analysis: decoding and analysis options.
    ///   - families: the analysis families to run (default: every registered one; a library
    ///     user may add their own ``AnalysisFamily`` here).
    ///   - sink: where rows go as they become final; committed at the end, rolled back on error.
    ///   - beforeCommit: called with the summary inside the sink's transaction, just before the
    ///     commit (the batch runner writes its bookkeeping rows here); its error rolls back.
    ///   - progress: called after every decoded block (the callee throttles what it shows).
    /// - Returns: a summary.
    /// - Throws: ``RecordingError`` from decoding, or the sink's errors.
    /// - Complexity: one pass over the samples; memory bounded by the block size and the
    ///   analyses' look-ahead (the beat series keeps 20 bytes per beat until the end).
    public static func run(
        recording: RecordingInput, analysis: AnalysisConfiguration,
        families: [AnalysisFamilyEntry] = AnalysisRegistry.families, sink: any ResultSink,
        beforeCommit: (Summary) throws -> Void = { _ in },
        progress: ((Progress) -> Void)? = nil
    ) throws -> Summary {
        try sink.begin(recording: recording.path)
        do {
            let counting = CountingOutput(sink)
            var summary = try analyse(
                recording, analysis: analysis, families: families, output: counting, progress: progress)
            summary.analysisRows = counting.order.compactMap { t in
                counting.rows[t].flatMap { $0 > 0 ? (t, $0) : nil }
            }
            summary.recordingSummaries = try counting.emitSummary(
                analyses: summary.streamSummaries.map { s in
                    s.analyses.map { n in families.first { $0.name == n }?.summaryName(s.key.sensor) ?? n }
                })
            summary.rowsByTable = counting.rows
            summary.tables = counting.order
            try beforeCommit(summary)
            try sink.commit()
            return summary
        } catch {
            sink.rollback()
            throw error
        }
    }

    /// How far the decoding of one recording has come.
    public struct Progress: Sendable {
        /// Samples (time points) decoded so far, all streams.
        public var samples = 0
        /// Time of the latest decoded sample, in the streams' time origin (seconds), and of the
        /// earliest one: their difference is the stretch of signal read so far.
        public var firstTime = Double.infinity, latestTime = -Double.infinity

        /// Seconds of signal between the earliest and the latest sample decoded (0 before any).
        public var signalSeconds: Double { latestTime > firstTime ? latestTime - firstTime : 0 }
    }

    /// One member file being decoded.
    final class Source {
        let file: String
        let decoder: any RecordingDecoder
        var pending: RecordingEvent?
        var done = false
        var globalIndex: [Int: Int] = [:]
        var devices: [String: DeviceInfo] = [:]

        init(file: String, decoder: any RecordingDecoder) {
            self.file = file
            self.decoder = decoder
        }

        /// The next event, read ahead by one.
        func peek() throws -> RecordingEvent? {
            if pending == nil && !done {
                pending = try decoder.next()
                if pending == nil { done = true }
            }
            return pending
        }
    }

    static func analyse(
        _ recording: RecordingInput, analysis: AnalysisConfiguration,
        families entries: [AnalysisFamilyEntry], output: CountingOutput,
        progress: ((Progress) -> Void)? = nil
    ) throws -> Summary {
        var decoded = Progress()
        let sources = try recording.files.indices.map { i in
            var decode = analysis.decode
            if decode.format == nil, let formats = recording.formats, formats.count == recording.files.count {
                decode.format = formats[i] // recognised once by the caller
            }
            let file = recording.files[i]
            return Source(file: file, decoder: try RecordingOpener.open(path: file, options: decode).decoder)
        }
        let families = entries.map { ($0.name, AnalyzerBox($0.makeAnalyzer(values: analysis.values[$0.name] ?? [:]), name: $0.name)) }
        let router = DerivedRouter(boxes: families.map(\.1), publishes: entries.map(\.publishes))
        output.router = router.hasRoutes ? router : nil
        var claimedBy: [[Int]] = [] // global stream index → family indices
        var summary = Summary()
        summary.files = recording.files
        var owner: [(source: Int, local: Int)] = [] // global stream index → (file, local index)
        var used = Set<Int>() // families that claimed a stream
        var implausible: [Int: Int] = [:] // global stream index → samples at implausible times
        var gridding: [Int: ECGTimeGridding] = [:] // ECG streams → their grid (explicit times only)
        var gridded: [SampleBlock] = []
        /// Hands a block of stream `index` to the families that claimed the stream.
        func deliver(_ b: SampleBlock, _ index: Int) throws {
            for f in claimedBy[index] { try router.call(f, output: output) { try $0.consume(b, output: output) } }
        }
        while true {
            // Non-block events first (announcements must precede their blocks); then the block
            // that starts earliest across files (ties: the earlier file).
            var chosen = -1
            var chosenTime = Double.infinity
            for (s, source) in sources.enumerated() {
                guard let event = try source.peek() else { continue }
                guard case .block(let b) = event else { chosen = s; chosenTime = -.infinity; break }
                let t = b.count > 0 ? b.time(at: 0) : -.infinity
                if t < chosenTime || chosen < 0 { chosen = s; chosenTime = t }
            }
            guard chosen >= 0 else { break }
            let source = sources[chosen]
            let event = source.pending!
            source.pending = nil
            switch event {
            case .device(let d):
                source.devices[d.id] = d
            case .stream(let local, var info):
                // A UTC offset beyond ±18 h is no offset: rejected here (never stored, nor used to
                // count days), named once per stream.
                if let text = info.attributes[StreamAttribute.utcOffsetSeconds], SummaryTimeBasis.utcOffset(text) == nil {
                    info.attributes[StreamAttribute.utcOffsetSeconds] = nil
                    summary.analysisIssues.append(
                        AnalysisIssue(
                            stream: info.key.description,
                            message: "utc_offset_s '\(text.prefix(40))' rejected: not a UTC offset in whole seconds within ±18 h "
                                + "(\(SummaryTimeBasis.utcOffsetRange.lowerBound) … \(SummaryTimeBasis.utcOffsetRange.upperBound) s); "
                                + "not stored, days counted in UTC"))
                }
                let index = owner.count
                owner.append((chosen, local))
                source.globalIndex[local] = index
                let announced = AnnouncedStream(
                    index: index, info: info, device: source.devices[info.key.deviceID],
                    file: source.file)
                var claimers = [Int]()
                for f in families.indices {
                    var claimed = false
                    try router.call(f, output: output) { claimed = $0.claim(announced) }
                    if claimed {
                        claimers.append(f)
                        used.insert(f)
                    }
                }
                claimedBy.append(claimers)
                if info.key.sensor == .electrocardiogram && !claimers.isEmpty { gridding[index] = ECGTimeGridding() }
                output.figures.announce(index: index, info: info)
                let attributes = storedAttributes(info, device: announced.device)
                summary.streamSummaries.append(
                    StreamSummary(
                        key: info.key, file: source.file, timeOrigin: info.timeOrigin, attributes: attributes,
                        analyses: claimers.map { families[$0].0 }, account: StreamQC(), role: info.role))
            case .block(var b):
                guard let index = source.globalIndex[b.stream] else { continue }
                b.stream = index
                // A backstop of the decoders' time check (InputLimits.timeProblem): a block
                // whose times are no clock reading reaches no family (it would size windows
                // and grids by its time span), and is named once per stream.
                if b.count > 0,
                    let why = InputLimits.timeProblem(b.time(at: 0), absolute: summary.streamSummaries[index].timeOrigin != .streamStart)
                        ?? InputLimits.timeProblem(
                            b.time(at: b.count - 1), absolute: summary.streamSummaries[index].timeOrigin != .streamStart)
                {
                    if implausible[index, default: 0] == 0 {
                        summary.analysisIssues.append(
                            AnalysisIssue(
                                stream: summary.streamSummaries[index].key.description,
                                message: "samples at implausible times not analysed: \(why)"))
                    }
                    implausible[index, default: 0] += b.count
                    continue
                }
                output.figures.add(b)
                if gridding[index] != nil {
                    gridded.removeAll(keepingCapacity: true)
                    gridding[index]!.process(b, into: &gridded)
                    for g in gridded { try deliver(g, index) }
                } else {
                    try deliver(b, index)
                }
                if let progress, b.count > 0 {
                    decoded.samples += b.count
                    decoded.firstTime = min(decoded.firstTime, b.time(at: 0))
                    decoded.latestTime = max(decoded.latestTime, b.time(at: b.count - 1))
                    progress(decoded)
                }
            case .deletion(let d):
                for f in used.sorted() { try router.call(f, output: output) { try $0.consume(deletion: d, output: output) } }
            case .issue(let e):
                summary.analysisIssues.append(AnalysisIssue(message: e.description))
            case .annotation(let a):
                // The input's own annotations: stored as they come (the decoder bounds them).
                try output.emit(AnnotationTables.annotations, a)
            }
        }
        // ECG streams gridded from explicit times: what is still held, and the note per stream.
        for index in gridding.keys.sorted() {
            gridded.removeAll(keepingCapacity: true)
            gridding[index]!.finish(into: &gridded)
            for g in gridded { try deliver(g, index) }
            let rates = gridding[index]!.rates
            guard !rates.isEmpty else { continue }
            let distinct = rates.reduce(into: [Double]()) { if !$0.contains($1) { $0.append($1) } }
            summary.analysisIssues.append(
                AnalysisIssue(
                    stream: summary.streamSummaries[index].key.description,
                    message: "explicit sample times (a time column): \(rates.count) segment(s) put on a uniform grid before "
                        + "the ECG analyses, at \(distinct.prefix(4).map { "\($0)" }.joined(separator: ", ")) Hz (each segment's "
                        + "mean rate over its first \(ECGTimeGridding.lookAhead) samples, whole hertz within 0.1 %; linear interpolation)"))
            for note in gridding[index]!.notes {
                summary.analysisIssues.append(AnalysisIssue(stream: summary.streamSummaries[index].key.description, message: note))
            }
        }
        // Subscribers finish after their publishers: the publishers' last rows carry events.
        for f in router.finishingOrder(publishes: entries.map(\.publishes)) {
            try router.call(f, output: output) { try $0.finish(output: output) }
        }
        for f in families.indices {
            summary.analysisIssues += families[f].1.analyzer.streamIssues.map {
                var issue = $0
                issue.family = issue.family ?? families[f].0
                return issue
            }
        }
        summary.analysisIssues += router.issues.map { AnalysisIssue(message: $0) }
        for f in used.sorted() {
            for t in entries[f].tables { try output.declare(t) }
        }
        // Accounts are final now; streams a decoder registered but never announced come last.
        for (s, source) in sources.enumerated() {
            summary.rejectedWithoutStream += source.decoder.rejectedSamplesWithoutStream
            for local in source.decoder.streams.indices where source.globalIndex[local] == nil {
                let info = source.decoder.streams[local]
                source.globalIndex[local] = owner.count
                owner.append((s, local))
                summary.streamSummaries.append(
                    StreamSummary(
                        key: info.key, file: source.file, timeOrigin: info.timeOrigin,
                        attributes: storedAttributes(info, device: source.devices[info.key.deviceID]),
                        analyses: [], account: StreamQC(), role: info.role))
            }
        }
        // Each decoder's accounts once (the property builds the array: per stream, quadratic).
        let accounts = sources.map(\.decoder.accounts)
        for (index, o) in owner.enumerated() where o.local < accounts[o.source].count {
            summary.streamSummaries[index].account = accounts[o.source][o.local]
        }
        return summary
    }
}

/// Attribute keys never stored with the results: personal identifiers some exports carry (Apple
/// Health's `Name` and `Date of Birth`). They stay in ``StreamInfo/attributes`` for the caller.
let personalAttributeKeys: Set<String> = ["name", "dateOfBirth"]

/// The attributes stored for a stream (`stream_attributes`): the source's, without personal
/// identifiers, plus the device's description where the source did not give it.
func storedAttributes(_ info: StreamInfo, device: DeviceInfo?) -> [String: String] {
    var a = info.attributes.filter { !personalAttributeKeys.contains($0.key) }
    if let d = device {
        if a[StreamAttribute.deviceName] == nil, let v = d.name { a[StreamAttribute.deviceName] = v }
        if a[StreamAttribute.deviceModel] == nil, let v = d.productType ?? d.model { a[StreamAttribute.deviceModel] = v }
        if a[StreamAttribute.deviceSystem] == nil, let v = d.systemName {
            a[StreamAttribute.deviceSystem] = d.systemVersion.map { "\(v) \($0)" } ?? v
        }
    }
    return a
}

/// Passes rows to a sink and counts them per table; queues the derived-series event of every
/// row that carries one (``DerivedSeriesContributing``) and every published event for the
/// analyzers that subscribe (``DerivedRouter``).
final class CountingOutput: ResultOutput {
    let sink: any ResultSink
    var rows: [String: Int] = [:]
    var order: [String] = []
    /// The summary tables' figures, added up as rows pass.
    var figures = SummaryAccumulator()
    /// Routes derived events to their subscribers (`nil`: nobody subscribes).
    var router: DerivedRouter?

    init(_ sink: any ResultSink) { self.sink = sink }

    func emit<Row>(_ schema: TableSchema<Row>, _ row: Row) throws {
        if let c = row as? any SummaryContributing { for fact in c.summaryFacts { figures.add(fact) } }
        let name = schema.table.name
        if rows[name] == nil { order.append(name) }
        rows[name, default: 0] += 1
        try sink.emit(schema, row)
        if let router, let d = row as? any DerivedSeriesContributing, let event = d.derivedEvent {
            try router.publish(event, output: self)
        }
    }

    func publish(_ event: DerivedEvent) throws {
        try router?.publish(event, output: self)
    }

    func isSubscribed(to id: String) -> Bool { router?.isSubscribed(to: id) ?? false }

    func declare(_ table: ResultTable) throws {
        if rows[table.name] == nil {
            rows[table.name] = 0
            order.append(table.name)
        }
        try sink.declare(table)
    }

    /// Writes the recording's `recording_summary` and `daily_summary` rows (``SummaryTables``).
    /// - Parameter analyses: per stream, the families that analysed it.
    /// - Returns: the `recording_summary` rows.
    @discardableResult
    func emitSummary(analyses: [[String]]) throws -> [RecordingSummaryRow] {
        let (recording, daily) = figures.rows(analyses: analyses)
        for t in SummaryTables.all { try declare(t) }
        for r in recording { try emit(SummaryTables.recording, r) }
        for r in daily { try emit(SummaryTables.daily, r) }
        return recording
    }
}

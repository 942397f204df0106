import Signals

/// The ECG analysis family: every ECG stream of a recording (or those `channel` selects) gets its
/// own ``ECGAnalyzer`` (R-peaks, signal quality, the beat series with heart rate and HRV). Rows
/// are emitted as they become final: quality windows while the stream is read, the beat series
/// per stream at the end of the recording (its artefact correction runs over whole segments).
/// When two or more analysed leads share a device (and session), a beat series fused across them
/// (``LeadFusion``) follows the leads' rows: stream `device/electrocardiogram/fused[/session]`,
/// `source` `fused`, with its `beats`, `heart_rate`, `hrv` and `ecg_summary` rows.
public enum ECGFamily: AnalysisFamily {
    public static let name = "ecg"
    public static let summary = "ECG R-peaks, artefact correction, heart rate, HRV and signal quality"
    public static var tables: [ResultTable] { BeatSeriesTables.all + [ECGTables.quality.table, ECGTables.summary.table] }
    /// Quality figures (family `ecg`) and the beat-series figures of the leads (`ecg`) and of the
    /// fused series (`fused`).
    public static var summaryFigures: [SummaryFigure] {
        ECGTables.summaryFigures + BeatSeriesTables.summaryFigures(for: .ecg) + BeatSeriesTables.summaryFigures(for: .fused)
    }
    public static var publishes: [DerivedSeries] {
        [BeatSeriesEvents.nn(source: "ecg"), BeatSeriesEvents.heartRate(source: "ecg", method: .beats), ECGBeatEvents.series]
    }
    public static var defaultOptions: ECGOptions { ECGOptions() }
    public static var options: [AnalysisOption<ECGOptions>] {
        [
            .number(
                "heart_rate_window_s", unit: "s", "heart-rate window length", range: 1...86_400,
                get: { $0.heartRateWindowSeconds }, set: { $0.heartRateWindowSeconds = $1 }),
            .number(
                "heart_rate_step_s", unit: "s", "heart-rate window step", range: 1...86_400,
                get: { $0.heartRateStepSeconds }, set: { $0.heartRateStepSeconds = $1 }),
            .number(
                "hrv_window_s", unit: "s", "HRV window length (Task Force 1996: 300 s short-term)", range: 10...86_400,
                get: { $0.hrvWindowSeconds }, set: { $0.hrvWindowSeconds = $1 }),
            .number(
                "quality_window_s", unit: "s", "ECG signal-quality window length (Zhao & Zhang 2018: 10 s)",
                range: 2...600, get: { $0.qualityWindowSeconds }, set: { $0.qualityWindowSeconds = $1 }),
            .flag(
                "hrv_exclude_unacceptable", "leave intervals in unacceptable quality windows out of HRV (default on)",
                get: { $0.hrvExcludesUnacceptable }, set: { $0.hrvExcludesUnacceptable = $1 }),
            .text(
                "channel",
                "ECG leads to analyse: all, or comma-separated channel names or 0-based indexes among the recording's ECG streams",
                get: { $0.channels.isEmpty ? "all" : $0.channels.joined(separator: ",") },
                set: { $0.channels = ECGFamily.channels(parsing: $1) }),
            .flag(
                "fuse_leads", "also write a beat series fused across the leads of a multi-lead recording (source fused; default on)",
                get: { $0.fusesLeads }, set: { $0.fusesLeads = $1 }),
        ]
    }

    public static func makeAnalyzer(options: ECGOptions) -> Analyzer { Analyzer(options: options) }

    /// The channel selectors of a `channel` option value: comma-separated, trimmed; `all` or
    /// nothing selects every lead (an empty list).
    static func channels(parsing text: String) -> [String] {
        let items = text.split(separator: ",").map {
            String($0.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
        }
        .filter { !$0.isEmpty }
        return items == ["all"] ? [] : items
    }

    /// The channel name of a fused series (``StreamKey/channel``).
    public static let fusedChannel = "fused"

    /// The ECG analysis of one recording: one ``ECGAnalyzer`` per claimed ECG stream.
    public struct Analyzer: RecordingAnalyzer {
        let options: ECGOptions
        var analyzers = AnalyzerTable<Int, ECGAnalyzer>()
        /// Per analysed stream: the fused series' stream key of its device (and session).
        var groups: [Int: StreamKey] = [:]
        /// ECG streams announced so far (the index a numeric `channel` selector names).
        var ecgStreams = 0
        /// Channel selectors that named a stream.
        var matched: Set<String> = []
        /// Per analysed stream: µV per unit of its values (``ECGBeatEvents/microvoltsPerUnit(_:)``).
        var microvoltsPerUnit: [Int: Double] = [:]
        var announced: [String] = []
        /// Per analysed stream: the device's own classification (``StreamAttribute/classification``).
        var classifications: [Int: String] = [:]
        public private(set) var streamIssues: [AnalysisIssue] = []
        public var issues: [String] { streamIssues.map(\.description) }

        init(options: ECGOptions) { self.options = options }

        public mutating func claim(_ stream: AnnouncedStream) -> Bool {
            guard stream.info.key.sensor == .electrocardiogram else { return false }
            let position = ecgStreams
            ecgStreams += 1
            announced.append(stream.info.key.channel)
            if !options.channels.isEmpty {
                let lead = stream.info.attributes["lead"]
                let hits = options.channels.filter { $0 == stream.info.key.channel || $0 == lead || Int($0) == position }
                guard !hits.isEmpty else { return false }
                matched.formUnion(hits)
            }
            var analyzer = ECGAnalyzer(streamName: stream.name, options: options)
            analyzer.collectsBeatEvents = true
            analyzers.add(analyzer, for: stream.index)
            microvoltsPerUnit[stream.index] = ECGBeatEvents.microvoltsPerUnit(stream.info.columns.first?.unit)
            classifications[stream.index] = stream.info.attributes[StreamAttribute.classification]
            var key = stream.info.key
            key.channel = ECGFamily.fusedChannel
            groups[stream.index] = key
            return true
        }

        public mutating func consume(_ block: SampleBlock, output: any ResultOutput) throws {
            let scale = microvoltsPerUnit[block.stream]
            // Beat events are only collected while someone subscribes to them.
            let collects = output.isSubscribed(to: ECGBeatEvents.id)
            let taken = analyzers.update(block.stream) { a in
                a.collectsBeatEvents = collects
                a.consume(block)
                return (
                    name: a.streamName, finished: a.takeQualityResults(), beats: a.takeBeatEvents(microvoltsPerUnit: scale)
                )
            }
            guard let (name, finished, beats) = taken else { return }
            for q in finished { try output.emit(ECGTables.quality, Streamed(stream: name, value: q)) }
            for e in beats { try output.publish(e) }
        }

        public mutating func finish(output: any ResultOutput) throws {
            // Fused series first (the leads' beats are final once their last segment is closed),
            // emitted after the leads' rows.
            var fused = [(name: String, series: BeatSeries, windows: [LeadFusion.Window], classification: String?)]()
            // Leads whose device gets a fused series: their rates are not the recommended ones.
            var fusedLeads = Set<Int>()
            if options.fusesLeads {
                // One pass over the streams (10,000 sessions took quadratic time in a search of
                // the keys seen so far): each key's members in announcement order.
                var keys = [StreamKey]()
                var membersOf: [StreamKey: [Int]] = [:]
                for index in analyzers.order {
                    let key = groups[index]!
                    if membersOf[key] == nil { keys.append(key) }
                    membersOf[key, default: []].append(index)
                }
                for key in keys {
                    let members = membersOf[key]!
                    guard members.count >= 2 else { continue }
                    fusedLeads.formUnion(members)
                    var leads = [LeadFusion.Lead]()
                    for index in members { leads.append(analyzers.update(index) { $0.fusionLead() }!) }
                    let f = LeadFusion.fuse(leads, options: options.series)
                    fused.append((key.description, f.series, f.windows, members.compactMap { classifications[$0] }.first))
                }
            }
            for index in analyzers.order {
                guard var a = analyzers.remove(index) else { continue }
                let name = a.streamName
                let rows = SeriesRows(output: output, stream: name, source: .ecg, recommended: !fusedLeads.contains(index))
                try a.finish(
                    quality: { try output.emit(ECGTables.quality, Streamed(stream: name, value: $0)) },
                    beat: rows.beat, heartRate: rows.heartRate, hrv: rows.hrv)
                for e in a.takeBeatEvents(microvoltsPerUnit: microvoltsPerUnit[index]) { try output.publish(e) }
                if var summary = a.lastSummary {
                    summary.deviceClassification = classifications[index]
                    try output.emit(ECGTables.summary, Streamed(stream: name, value: summary))
                }
                streamIssues += a.issues.map { AnalysisIssue(family: ECGFamily.name, stream: name, message: $0) }
            }
            for var f in fused {
                let name = f.name
                let rows = SeriesRows(output: output, stream: name, source: .fused, recommended: true)
                var summary = try ECGAnalyzer.finish(
                    &f.series, windows: f.windows, excludesUnacceptable: options.hrvExcludesUnacceptable,
                    beat: rows.beat, heartRate: rows.heartRate, hrv: rows.hrv)
                summary.deviceClassification = f.classification
                try output.emit(ECGTables.summary, Streamed(stream: name, value: summary))
            }
            for c in options.channels where !matched.contains(c) {
                streamIssues.append(
                    AnalysisIssue(
                        family: ECGFamily.name,
                        message: "ecg channel '\(c)' matches no ECG stream (ECG channels: "
                            + (announced.isEmpty ? "none" : announced.joined(separator: ", ")) + ")"))
            }
        }
    }
}

/// The beat-series rows of one ECG stream (a lead or the fused series), written to `output`.
private struct SeriesRows {
    let output: any ResultOutput
    let stream: String
    let source: BeatSource
    /// Whether its heart rate is the device's recommended series (``HeartRateWindow/isRecommended``).
    let recommended: Bool

    func beat(_ b: ECGBeat) throws {
        try output.emit(
            BeatSeriesTables.beats,
            SeriesRow(stream: stream, source: source, value: LabelledBeat(beat: b.beat, qualityLabel: b.qualityLabel?.rawValue)))
    }

    func heartRate(_ w: HeartRateWindow) throws {
        var w = w
        w.isRecommended = recommended
        try output.emit(BeatSeriesTables.heartRate, SeriesRow(stream: stream, source: source, value: w))
    }

    func hrv(_ r: HRVResult) throws { try output.emit(BeatSeriesTables.hrv, SeriesRow(stream: stream, source: source, value: r)) }
}

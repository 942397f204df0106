import Signals

/// The rhythm family: a label per stream window — `sinus`, `af` (atrial fibrillation), `other`,
/// `noisy` or `insufficient` — from the beat series other families publish, AF episodes and
/// the AF burden.
///
/// Sources (derived-event contract, never another family's internals): each ECG lead's beats
/// (`ecg_beats`: time, class, QRS width, quality) together with the lead's samples, which the
/// family also claims, for the atrial-activity measures (``AtrialActivity``); the beats fused
/// across leads (the fused stream's `ecg_nn` events: timing only); each PPG optical stream's
/// pulses (`ppg_pulses`: timing and quality) together with the stream's samples, which the family
/// also claims, so each pulse is timed at its upstroke's middle
/// (``RhythmStream/upstrokeMiddle(samples:peak:previous:)``). Every window gets the RR irregularity measures
/// (``RRIrregularity``) and a label from a multinomial logistic model fitted offline
/// (``RhythmModel``; `ecg` model for leads, the timing-only `rr` model for fused and PPG).
/// A device's own beat list (`device_beats`, Apple Health's `InstantaneousBeatsPerMinute`) is a
/// stream of its own (`source` `device`, `rr` model): a window per run of listed beats, intervals
/// never across a gap in the list (``RhythmStream``).
/// A PPG window is never `af` when its pulses are mostly in unacceptable quality windows
/// (it is `noisy`); nor is a window of the fused series when at least half of its leads' beats
/// lie in unacceptable `ecg_quality` windows (timing alone cannot tell noise from AF).
public enum RhythmFamily: AnalysisFamily {
    public static let name = "rhythm"
    public static let summary = "rhythm labels (sinus, af, other, noisy, insufficient) per stream window, AF episodes and burden"
    public static var tables: [ResultTable] { [RhythmTables.windows.table, RhythmTables.episodes.table] }
    public static var summaryFigures: [SummaryFigure] { RhythmTables.summaryFigures }
    public static var defaultOptions: RhythmOptions { RhythmOptions() }
    public static var options: [AnalysisOption<RhythmOptions>] {
        [
            .number(
                "single_window_max_s", unit: "s", "a stream at most this long is one rhythm window (a Watch strip, a CinC record)",
                range: 10...600, get: { $0.singleWindowMaxSeconds }, set: { $0.singleWindowMaxSeconds = $1 }),
            .number(
                "window_s", unit: "s", "rhythm window length of longer streams, from the stream start", range: 10...600,
                get: { $0.windowSeconds }, set: { $0.windowSeconds = $1 }),
            .number(
                "min_intervals", unit: nil, "fewer kept RR intervals make a window insufficient", range: 4...1000,
                get: { $0.minimumIntervals }, set: { $0.minimumIntervals = $1 }),
            .number(
                "episode_min_s", unit: "s", "shortest AF episode (clinical definition: 30 s)", range: 0...86_400,
                get: { $0.episodeMinimumSeconds }, set: { $0.episodeMinimumSeconds = $1 }),
        ]
    }

    public static func makeAnalyzer(options: RhythmOptions) -> Analyzer { Analyzer(options: options) }

    /// Stream-key channel of the ECG family's fused beat series (`…/electrocardiogram/fused`).
    static let fusedChannel = "fused"

    /// The rhythm analysis of one recording.
    public struct Analyzer: RecordingAnalyzer {
        let options: RhythmOptions
        var streams = AnalyzerTable<String, RhythmStream>()
        var indices: [Int: String] = [:]
        /// The fused series' name of each ECG lead.
        var fusedNames: [String: String] = [:]
        /// ECG leads per fused series name (a fused series exists only with two or more).
        var fusedLeads: [String: Int] = [:]
        /// Lead beat quality (time, unacceptable) that arrived before its fused series' first beat.
        var pendingLeadQuality: [String: [(Double, Bool)]] = [:]
        public private(set) var issues: [String] = []

        init(options: RhythmOptions) { self.options = options }

        public mutating func claim(_ stream: AnnouncedStream) -> Bool {
            let source: RhythmSource
            if stream.info.key.sensor == .electrocardiogram {
                source = .ecg
                var key = stream.info.key
                key.channel = RhythmFamily.fusedChannel
                if fusedNames[stream.name] == nil { fusedLeads[key.description, default: 0] += 1 }
                fusedNames[stream.name] = key.description
            } else if stream.info.role == .optical {
                source = .ppg
            } else {
                return false
            }
            guard !stream.info.columns.isEmpty else { return false }
            indices[stream.index] = stream.name
            if !streams.contains(stream.name) {
                streams.add(
                    RhythmStream(name: stream.name, source: source, options: options, keepsSamples: source == .ecg || source == .ppg),
                    for: stream.name)
            }
            return true
        }

        public var subscriptions: [DerivedSubscription] {
            [
                DerivedSubscription(series: "ecg_beats", attributes: ["class", "qrs_width_s", "quality", "p_correlation"]),
                DerivedSubscription(series: "ecg_nn", attributes: ["nn_ms"]),
                DerivedSubscription(series: "ppg_pulses", attributes: ["quality"]),
                DerivedSubscription(series: "device_beats", attributes: ["segment"]),
            ]
        }

        public mutating func consume(_ block: SampleBlock, output: any ResultOutput) throws {
            guard let name = indices[block.stream] else { return }
            let last = try streams.update(name) { s in
                s.consume(block)
                try s.emitFinal(output: output, final: false)
                return s.lastSample
            }
            // The fused series spans its leads: its last sample follows theirs (not only the leads'
            // state when its first beat came), so its windows and long/single-window choice do not
            // depend on how the samples were cut into blocks.
            if let fused = fusedNames[name], let last {
                try streams.update(fused) { f in
                    f.extend(toLastSample: last)
                    try f.emitFinal(output: output, final: false)
                }
            }
        }

        public mutating func consume(derived event: DerivedEvent, series: DerivedSeries, output: any ResultOutput) throws {
            let beat: RhythmBeat
            switch event.series {
            case "ecg_beats":
                // (Streams are looked up through `update`, which reads the slot in place: the
                // subscript would copy the stream, its beats and its sample ring.)
                let lead = RhythmBeat(
                    time: event.time, beatClass: event.values[0].label, qrsWidth: event.values[1].number, quality: event.values[2].label,
                    segment: 0, pCorrelation: event.values.count > 3 ? event.values[3].number : .nan)
                let known: Void? = try streams.update(event.stream) { s in
                    s.append(lead)
                    try s.emitFinal(output: output, final: false)
                }
                guard known != nil else { return }
                // The fused series' quality gate reads its leads' beat quality (only the fused
                // series' own windows read it, so it may come after the lead's windows are written).
                if let fused = fusedNames[event.stream], let q = lead.quality, fusedLeads[fused, default: 0] > 1 {
                    let unacceptable = q == "unacceptable"
                    if streams.update(fused, { $0.appendLeadQuality(time: lead.time, unacceptable: unacceptable) }) == nil {
                        pendingLeadQuality[fused, default: []].append((lead.time, unacceptable))
                    }
                }
                return
            case "ecg_nn":
                // Only the fused series: a lead's own beats come as ecg_beats.
                if let source = streams.update(event.stream, { $0.source }) {
                    guard source == .fused else { return }
                } else {
                    let leads = fusedNames.filter { $0.value == event.stream }.map(\.key)
                    guard !leads.isEmpty else { return }
                    var fused = RhythmStream(name: event.stream, source: .fused, options: options, keepsSamples: false)
                    for lead in leads {
                        guard let l = streams[lead], let s = l.start else { continue }
                        fused.start = min(fused.start ?? s, s)
                        fused.lastSample = max(fused.lastSample, l.lastSample)
                        fused.samplePeriod = l.samplePeriod
                    }
                    if let s = fused.start, fused.lastSample - s > options.singleWindowMaxSeconds { fused.isLong = true }
                    for (t, u) in pendingLeadQuality.removeValue(forKey: event.stream) ?? [] {
                        fused.appendLeadQuality(time: t, unacceptable: u)
                    }
                    streams.add(fused, for: event.stream)
                }
                beat = RhythmBeat(time: event.time, beatClass: nil, qrsWidth: .nan, quality: nil)
            case "ppg_pulses":
                beat = RhythmBeat(time: event.time, beatClass: nil, qrsWidth: .nan, quality: event.values[0].label)
            case "device_beats":
                // A device's own beat list: a stream of its own, windows per run of beats.
                let segment = event.values[0].number
                guard segment.isFinite, abs(segment) < 1e15 else { return }
                let device = RhythmBeat(time: event.time, beatClass: nil, qrsWidth: .nan, quality: nil, segment: Int(segment))
                if try streams.update(event.stream, { try $0.appendDevice(device, output: output) }) == nil {
                    var s = RhythmStream(name: event.stream, source: .device, options: options, keepsSamples: false)
                    try s.appendDevice(device, output: output)
                    streams.add(s, for: event.stream)
                }
                return
            default:
                return
            }
            // A stream not claimed (or not created) is not updated: `update` returns nil.
            try streams.update(event.stream) { s in
                s.append(beat)
                try s.emitFinal(output: output, final: false)
            }
        }

        public mutating func finish(output: any ResultOutput) throws {
            for name in streams.order {
                guard var s = streams.remove(name) else { continue }
                try s.emitFinal(output: output, final: true)
                if s.lateBeats > 0 {
                    issues.append(
                        "\(name): \(s.lateBeats) beat(s) arrived more than \(Int(RhythmStream.beatLatencySeconds)) s after their "
                            + "samples, after their window was written; not counted in the rhythm rows")
                }
            }
        }

        static func model(for source: RhythmSource) -> RhythmModel {
            source == .ecg ? RhythmModelParameters.ecg : RhythmModelParameters.rr
        }
    }
}

import DSP
import Signals

/// The feature family: windowed features (``FeatureCatalog``) over the derived series other
/// families publish (NN intervals, heart rate, ENMO) and, with ``FeaturesOptions/rawStreams``
/// (`--features-raw true`), over every raw stream of a recording — accelerometer and rotation
/// rate per axis plus vector magnitude, ECG, PPG, and any other stream the decoders produce — in
/// the long `features` table, with every window and its valid fraction in `feature_windows`.
public enum FeaturesFamily: AnalysisFamily {
    /// Accepted `catalog` words: `default` (statistical, temporal, spectral), `all` (also
    /// catch22), `none` (family off), or groups joined by `+` in catalog order
    /// (`statistical+spectral`, `catch22`).
    public static let catalogChoices: [String] = {
        var out = ["default", "all", "none"]
        let groups = FeatureGroup.allCases
        for mask in 1..<(1 << groups.count) {
            out.append(groups.indices.filter { mask & (1 << $0) != 0 }.map { groups[$0].rawValue }.joined(separator: "+"))
        }
        return out
    }()

    public static let name = "features"
    public static let summary = "windowed statistical, temporal and spectral features of the derived series (and, opt-in, every raw stream)"
    public static var tables: [ResultTable] { [FeatureTables.features.table, FeatureTables.windows.table] }
    public static var defaultOptions: FeaturesOptions { FeaturesOptions() }
    public static var options: [AnalysisOption<FeaturesOptions>] {
        [
            .choice(
                "catalog", "feature groups (--features): default, all (adds catch22), none, or groups joined by +", choices: catalogChoices,
                get: { $0.catalog }, set: { $0.catalog = $1 }),
            .flag(
                "raw",
                "also every raw stream (accelerometer, rotation rate, ECG, PPG…): the catalog over its windows (off by default: most of a study's time and rows)",
                get: { $0.rawStreams }, set: { $0.rawStreams = $1 }),
            .number(
                "window_s", unit: "s", "feature window length on the raw streams", range: 0.1...86_400,
                get: { $0.windowing.lengthSeconds }, set: { $0.windowing.lengthSeconds = $1 }),
            .number(
                "step_s", unit: "s", "feature window step", range: 0.1...86_400,
                get: { $0.windowing.stepSeconds }, set: { $0.windowing.stepSeconds = $1 }),
            .flag(
                "align", "window starts at multiples of the step on the clock (UTC)",
                get: { $0.windowing.alignsToClock }, set: { $0.windowing.alignsToClock = $1 }),
            .number(
                "min_valid_fraction", unit: nil, "windows with less valid data get no features", range: 0...1,
                get: { $0.windowing.minimumValidFraction }, set: { $0.windowing.minimumValidFraction = $1 }),
            .flag(
                "derived", "also the derived series other families publish: NN intervals, heart rate (ECG, PPG), ENMO epochs",
                get: { $0.derivedSeries }, set: { $0.derivedSeries = $1 }),
            .number(
                "derived_window_s", unit: "s", "window length on the derived series", range: 1...604_800,
                get: { $0.derivedWindowSeconds }, set: { $0.derivedWindowSeconds = $1 }),
            .number(
                "derived_step_s", unit: "s", "window step on the derived series", range: 1...604_800,
                get: { $0.derivedStepSeconds }, set: { $0.derivedStepSeconds = $1 }),
            .number(
                "welch_segment_s", unit: "s", "Welch segment of the spectral features (capped at the window)",
                range: 0.1...86_400, get: { $0.welchSegmentSeconds }, set: { $0.welchSegmentSeconds = $1 }),
            .number(
                "acf_lag_s", unit: "s", "lag of the acf_<ms>ms feature", range: 0.001...3600,
                get: { $0.autocorrelationLagSeconds }, set: { $0.autocorrelationLagSeconds = $1 }),
        ]
    }

    public static func makeAnalyzer(options: FeaturesOptions) -> Analyzer { Analyzer(options: options) }

    /// The feature analysis of one recording: one windower and extractor per claimed stream.
    public struct Analyzer: RecordingAnalyzer {
        let options: FeaturesOptions
        var streams = AnalyzerTable<Int, StreamFeatures>()
        var derived = AnalyzerTable<DerivedKey, DerivedFeatures>()
        public private(set) var issues: [String] = []

        init(options: FeaturesOptions) { self.options = options }

        public mutating func claim(_ stream: AnnouncedStream) -> Bool {
            guard options.rawStreams, !options.groups.isEmpty, !stream.info.columns.isEmpty else { return false }
            streams.add(StreamFeatures(stream: stream, options: options), for: stream.index)
            return true
        }

        public mutating func consume(_ block: SampleBlock, output: any ResultOutput) throws {
            try streams.update(block.stream) { try $0.consume(block, output: output) }
        }

        /// The derived series of ``FeatureColumns/derivedSeries`` when `derived` is on.
        public var subscriptions: [DerivedSubscription] {
            options.derivedSeries && !options.groups.isEmpty ? FeatureColumns.derivedSubscriptions : []
        }

        public mutating func consume(derived event: DerivedEvent, series: DerivedSeries, output: any ResultOutput) throws {
            guard !series.attributes.isEmpty else { return }
            let key = DerivedKey(stream: event.stream, series: event.series)
            if !derived.contains(key) { derived.add(DerivedFeatures(first: event, series: series, options: options), for: key) }
            try derived.update(key) { try $0.append(event, output: output) }
        }

        public mutating func finish(output: any ResultOutput) throws {
            for index in streams.order {
                guard var s = streams.remove(index) else { continue }
                try s.finish(output: output)
            }
            for key in derived.order {
                guard var s = derived.remove(key) else { continue }
                try s.finish(output: output)
            }
        }
    }
}

/// A derived series of one source stream: the stream and the series' ``DerivedSeries/id``.
struct DerivedKey: Hashable {
    var stream: String
    var series: String
}

/// A stream as analyses see it when its decoder announces it.
public struct AnnouncedStream: Sendable {
    /// The stream's index in the recording: every ``SampleBlock/stream`` of it carries this
    /// number (recording-wide, also when the recording spans several files).
    public var index: Int
    /// The stream's description.
    public var info: StreamInfo
    /// The device it was recorded on, when the source describes it.
    public var device: DeviceInfo?
    /// The member file the stream comes from.
    public var file: String

    /// Creates an announcement.
    public init(index: Int, info: StreamInfo, device: DeviceInfo? = nil, file: String) {
        self.index = index
        self.info = info
        self.device = device
        self.file = file
    }

    /// The stream key as the tables write it (``StreamKey/description``).
    public var name: String { info.key.description }
}

/// The analysis contract: one value per recording and analysis family, with explicit state.
///
/// The runner calls ``claim(_:)`` for every stream as it is announced (streams appear while the
/// recording is read, not all at the start); the analysis keeps what it needs (several streams
/// are normal: PPG optical channels plus that device's accelerometer; several analyses may claim
/// the same stream). Then it receives the blocks of every claimed stream through
/// ``consume(_:output:)`` — blocks of one stream in order, blocks of different streams in the
/// order the runner reads them (for a recording of several files, whichever file is behind in
/// time is read first; ``StreamAligner`` aligns claimed streams in time with a bounded buffer) —
/// and emits rows to `output` as they become final. ``finish(output:)`` flushes what is left at
/// the end of the recording.
///
/// Results must never depend on block size or on how blocks of different streams interleave:
/// state that survives across blocks lives in the analysis, and a segment boundary
/// (``SampleBlock/segment`` changes) resets what must not span a gap.
public protocol RecordingAnalyzer: SendableMetatype {
    /// Offers a newly announced stream.
    /// - Parameter stream: the announcement.
    /// - Returns: `true` to receive the stream's blocks.
    mutating func claim(_ stream: AnnouncedStream) -> Bool
    /// Receives the next block of a claimed stream.
    /// - Parameters:
    ///   - block: the block; `block.stream` is the claimed ``AnnouncedStream/index``.
    ///   - output: where final rows go.
    /// - Throws: the output's error.
    mutating func consume(_ block: SampleBlock, output: any ResultOutput) throws
    /// Receives a deletion record of the recording (data the device deleted; a known gap).
    /// - Throws: the output's error.
    mutating func consume(deletion: DeletionRecord, output: any ResultOutput) throws
    /// Ends the recording: emits the remaining rows.
    /// - Throws: the output's error.
    mutating func finish(output: any ResultOutput) throws
    /// Problems that left parts of claimed streams unanalysed, each `stream: message`.
    var issues: [String] { get }
    /// The same problems with the stream each concerns (default: ``issues`` without a stream).
    var streamIssues: [AnalysisIssue] { get }
    /// The derived series (and their attributes) the analysis receives from other families'
    /// publications (``DerivedSeries``), read once after the analyzer is made. An analysis that
    /// subscribes finishes after the families whose series it subscribes to. Default: none.
    var subscriptions: [DerivedSubscription] { get }
    /// Receives one event of a subscribed series, after the publishing call has returned (never
    /// while the analysis itself is running): events of one series and stream in publication
    /// order; `event.values` and `series.attributes` hold only the subscribed attributes, in the
    /// subscription's order. The analysis may emit rows and publish events of its own here.
    /// - Parameters:
    ///   - event: the event.
    ///   - series: the series' declaration, restricted to the subscribed attributes.
    ///   - output: where rows and events go.
    /// - Throws: the output's error.
    mutating func consume(derived event: DerivedEvent, series: DerivedSeries, output: any ResultOutput) throws
}

extension RecordingAnalyzer {
    /// Deletion records are ignored unless an analysis needs them.
    public mutating func consume(deletion: DeletionRecord, output: any ResultOutput) throws {}
    /// No derived series unless an analysis subscribes.
    public var subscriptions: [DerivedSubscription] { [] }
    /// Derived events are ignored unless an analysis needs them.
    public mutating func consume(derived event: DerivedEvent, series: DerivedSeries, output: any ResultOutput) throws {}
}

/// An analysis family (ECG, PPG, motion, features): its name, its tables, its options and how to
/// make its ``RecordingAnalyzer``. A family lives in its own module; adding one to SensorPipe is
/// that module plus one entry in `Pipeline`'s `AnalysisRegistry`.
public protocol AnalysisFamily: SendableMetatype {
    /// The family's options (a plain struct with documented defaults).
    associatedtype Options: Sendable
    /// The analysis it runs per recording.
    associatedtype Analyzer: RecordingAnalyzer
    /// Short name, also the options' section in configuration files and the prefix of its
    /// command-line flags (`ecg`).
    static var name: String { get }
    /// One-line meaning.
    static var summary: String { get }
    /// Every table the family writes (names unique across families).
    static var tables: [ResultTable] { get }
    /// The figures the family's rows contribute to `recording_summary` and `daily_summary`
    /// (``SummaryFigure``), declared next to its tables; default none.
    static var summaryFigures: [SummaryFigure] { get }
    /// The name of the summary row (`recording_summary.family`) a claimed stream of sensor
    /// `sensor` is counted under: its decoded and analysed hours, and a row even when it gave no
    /// figure. Default: the family's ``name``; a family that analyses a source with figures of
    /// its own (the PPG family's `device` beat lists) names that source, so the stream's time is
    /// not shown under a family whose figures it can never fill.
    static func summaryName(for sensor: SensorKind) -> String
    /// Every derived series the family publishes (``DerivedSeries``: ids unique across
    /// families), through its rows (``DerivedSeriesContributing``) or
    /// ``ResultOutput/publish(_:)``. Default: none.
    static var publishes: [DerivedSeries] { get }
    /// The family's options, declared once: configuration files, command-line flags, `--help`
    /// and the canonical configuration JSON all come from this list.
    static var options: [AnalysisOption<Options>] { get }
    /// Options with every default.
    static var defaultOptions: Options { get }
    /// A fresh analysis for one recording.
    static func makeAnalyzer(options: Options) -> Analyzer
    /// What the family's section of the HTML report shows, in terms of its tables (default:
    /// the row count of each table, ``ReportSection/rowCounts(family:tables:)``).
    static var reportSection: ReportSection { get }
}

extension AnalysisFamily {
    /// No summary figures.
    public static var summaryFigures: [SummaryFigure] { [] }
    /// Every claimed stream is summarised under the family's name.
    public static func summaryName(for sensor: SensorKind) -> String { name }
    /// The row count of each of the family's tables.
    public static var reportSection: ReportSection { .rowCounts(family: name, tables: tables) }
    /// No derived series unless the family declares some.
    public static var publishes: [DerivedSeries] { [] }

    /// The family's defaults with the given option values applied (keys not given keep their
    /// defaults; values outside an option's accepted range are ignored, as callers check them
    /// where they enter).
    /// - Parameter values: option values by key.
    public static func options(applying values: [String: OptionValue]) -> Options {
        var options = defaultOptions
        for o in self.options { if let v = values[o.key] { _ = o.apply(v, to: &options) } }
        return options
    }
}

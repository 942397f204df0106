/// One value a result row contributes to a declared summary figure (``SummaryFigure``), so the
/// summary tables (`recording_summary`, `daily_summary`) are computed from the rows every family
/// emits without knowing the family: a family's row type conforms to ``SummaryContributing``
/// and says which of its declared figures it feeds, with what value, over which stretch of time.
///
/// The summary adds up facts per recording, device, family (``family``) and local calendar day
/// (a fact belongs to the day its ``startSeconds`` falls in), with the figure's
/// ``SummaryFigure/Aggregation``. A fact naming a figure no registered family declares for its
/// family is ignored (a test checks that every family's facts are declared).
public struct SummaryFact: Sendable, Hashable {
    /// The family (or beat source) the figure belongs to: `ecg`, `ppg`, `motion`, …
    public var family: String
    /// The stream key the row belongs to (``StreamKey/description``).
    public var stream: String
    /// Start of the stretch the figure covers, in the stream's time scale (seconds).
    public var startSeconds: Double
    /// End of the stretch (exclusive; equal to the start for an instant such as a beat).
    public var endSeconds: Double
    /// The declared figure's name (``SummaryFigure/name``, the summary column).
    public var figure: String
    /// The value, in the figure's unit (for a share: 0…1, the part of ``weight`` that counts).
    public var value: Double
    /// The fact's weight in a mean or share (1 unless the figure weights by time or samples).
    public var weight: Double

    /// Creates a fact.
    /// - Parameters:
    ///   - family: the family or beat source (`ecg`).
    ///   - stream: the row's stream key.
    ///   - startSeconds: start of the stretch (s, stream time scale).
    ///   - endSeconds: its end (s; equal to the start for an instant).
    ///   - figure: the declared figure's name.
    ///   - value: the value in the figure's unit.
    ///   - weight: the weight in a mean or share (default 1).
    public init(
        family: String, stream: String, startSeconds: Double, endSeconds: Double, figure: String, value: Double,
        weight: Double = 1
    ) {
        self.family = family
        self.stream = stream
        self.startSeconds = startSeconds
        self.endSeconds = endSeconds
        self.figure = figure
        self.value = value
        self.weight = weight
    }

    /// The two facts of a signal-quality window: its assessed time (`assessed_hours`) and whether
    /// that time is usable (`usable_share`, weighted by it).
    /// - Parameters:
    ///   - family: the family.
    ///   - stream: the row's stream key.
    ///   - startSeconds: start of the assessed stretch (s, stream time scale).
    ///   - endSeconds: its end (s).
    ///   - assessedSeconds: the time assessed in it (s).
    ///   - usable: whether the window's label allows the family's results.
    /// - Returns: the `assessed_hours` fact, then the `usable_share` fact.
    public static func qualityWindow(
        family: String, stream: String, startSeconds: Double, endSeconds: Double, assessedSeconds: Double, usable: Bool
    ) -> [SummaryFact] {
        [
            SummaryFact(
                family: family, stream: stream, startSeconds: startSeconds, endSeconds: endSeconds,
                figure: "assessed_hours", value: assessedSeconds / 3600),
            SummaryFact(
                family: family, stream: stream, startSeconds: startSeconds, endSeconds: endSeconds,
                figure: "usable_share", value: usable ? 1 : 0, weight: assessedSeconds),
        ]
    }
}

/// A result row that contributes to the summary tables. The runner asks every emitted row that
/// conforms; rows that do not (HRV windows, say) contribute nothing.
public protocol SummaryContributing {
    /// The row's facts (empty when it has none, e.g. a heart-rate window without a rate).
    var summaryFacts: [SummaryFact] { get }
}

/// A row value that knows its facts once it is told its stream (``Streamed`` rows conform when
/// their value does).
public protocol StreamSummaryValue {
    /// The value's facts for the summary tables (empty when none).
    /// - Parameter stream: the row's stream key.
    func summaryFacts(stream: String) -> [SummaryFact]
}

extension Streamed: SummaryContributing where Value: StreamSummaryValue {
    /// The value's facts (``StreamSummaryValue/summaryFacts(stream:)``).
    public var summaryFacts: [SummaryFact] { value.summaryFacts(stream: stream) }
}

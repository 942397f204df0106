/// One figure a result row contributes to the summary tables (`recording_summary`,
/// `daily_summary`), so the summary is computed from the rows every family emits without
/// knowing the family: a family's row type conforms to ``SummaryContributing`` and says what it
/// measured over which stretch of time.
///
/// The summary adds up facts per recording, device, family (``family``) and local calendar day
/// (a fact belongs to the day its ``startSeconds`` falls in).
public struct SummaryFact: Sendable, Hashable {
    /// What a row measured.
    public enum Measure: Sendable, Hashable {
        /// A heart (or pulse) rate over the fact's window, in beats per minute.
        case heartRate(bpm: Double)
        /// One beat of a beat series; `corrected` when artefact correction touched it (moved,
        /// inserted or removed it).
        case beat(corrected: Bool)
        /// A signal-quality window: `usable` when its label allows the family's results (for
        /// ECG: excellent or barely acceptable).
        case quality(usable: Bool)
        /// Steps counted over the window.
        case steps(Double)
        /// Whether the device was worn over the window.
        case wear(worn: Bool)
    }

    /// The family (or beat source) the figure belongs to: `ecg`, `ppg`, `motion`, …
    public var family: String
    /// The stream key the row belongs to (``StreamKey/description``).
    public var stream: String
    /// Start of the stretch the figure covers, in the stream's time scale (seconds).
    public var startSeconds: Double
    /// End of the stretch (exclusive; equal to the start for an instant such as a beat).
    public var endSeconds: Double
    /// What was measured.
    public var measure: Measure

    /// Creates a fact.
    /// - Parameters:
    ///   - family: the family or beat source (`ecg`).
    ///   - stream: the row's stream key.
    ///   - startSeconds: start of the stretch (s, stream time scale).
    ///   - endSeconds: its end (s; equal to the start for an instant).
    ///   - measure: the figure.
    public init(family: String, stream: String, startSeconds: Double, endSeconds: Double, measure: Measure) {
        self.family = family
        self.stream = stream
        self.startSeconds = startSeconds
        self.endSeconds = endSeconds
        self.measure = measure
    }
}

/// A result row that contributes to the summary tables. The runner asks every emitted row that
/// conforms; rows that do not (HRV windows, say) contribute nothing.
public protocol SummaryContributing {
    /// The row's figure, or `nil` when it has none (e.g. a heart-rate window without a rate).
    var summaryFact: SummaryFact? { get }
}

/// A row value that knows its figure once it is told its stream (``Streamed`` rows conform
/// when their value does).
public protocol StreamSummaryValue {
    /// The value's figure for the summary tables, or `nil`.
    /// - Parameter stream: the row's stream key.
    func summaryFact(stream: String) -> SummaryFact?
}

extension Streamed: SummaryContributing where Value: StreamSummaryValue {
    /// The value's figure (``StreamSummaryValue/summaryFact(stream:)``).
    public var summaryFact: SummaryFact? { value.summaryFact(stream: stream) }
}

/// One sample of a derived series a family publishes with a result row: an NN interval at its
/// beat, a heart-rate window at its start, an ENMO epoch at its start.
///
/// Families publish without knowing who listens: a row type conforms to
/// ``DerivedSeriesContributing`` (or its value to ``StreamDerivedValue``), and the runner hands
/// the samples of every emitted row to the analyzers that ask for derived series
/// (``RecordingAnalyzer/consumesDerivedSeries``), as the rows pass, in the order the publishing
/// family emits them. Samples of one series (``stream`` and ``channel``) come in non-decreasing
/// time within a segment of the source; a sample earlier than the previous one starts over.
public struct DerivedSample: Sendable, Hashable {
    /// Stream key of the source (``StreamKey/description``).
    public var stream: String
    /// The family token of the column names: the source's sensor (`ecg`, `ppg`, `acc`).
    public var family: String
    /// The series' name, the channel token of the column names (`nn`, `hr`, `enmo`).
    public var channel: String
    /// Unit of ``value`` (`ms`, `bpm`, `mg`).
    public var unit: String
    /// The sample's time, in the stream's time scale (s).
    public var time: Double
    /// The value; NaN when the sample is present but not valid (an excluded interval, a window
    /// without a rate, an epoch with too little data).
    public var value: Double
    /// The series' declared rate in Hz (epochs: 1 / epoch length), or `nil` for an event series
    /// (NN intervals) or a series whose rate is taken from its sample times.
    public var nominalRate: Double?
    /// Whether the series is a sequence of events (NN intervals at irregular beat times) rather
    /// than a uniformly sampled one: event series get no spectral features.
    public var isEventSeries: Bool

    /// Creates a sample.
    /// - Parameters:
    ///   - stream: the source's stream key.
    ///   - family: family token (`ecg`).
    ///   - channel: series name (`nn`).
    ///   - unit: unit of `value`.
    ///   - time: time in s.
    ///   - value: the value, NaN when not valid.
    ///   - nominalRate: declared rate in Hz, or `nil`.
    ///   - isEventSeries: irregular events (no spectral features).
    public init(
        stream: String, family: String, channel: String, unit: String, time: Double, value: Double,
        nominalRate: Double? = nil, isEventSeries: Bool = false
    ) {
        self.stream = stream
        self.family = family
        self.channel = channel
        self.unit = unit
        self.time = time
        self.value = value
        self.nominalRate = nominalRate
        self.isEventSeries = isEventSeries
    }
}

/// A result row that carries one sample of a derived series (``DerivedSample``).
public protocol DerivedSeriesContributing {
    /// The row's sample, or `nil` when the row is not part of a derived series.
    var derivedSample: DerivedSample? { get }
}

/// A row value that knows its derived-series sample once it is told its stream (``Streamed``
/// rows conform when their value does).
public protocol StreamDerivedValue {
    /// The value's sample, or `nil`.
    /// - Parameter stream: the row's stream key.
    func derivedSample(stream: String) -> DerivedSample?
}

extension Streamed: DerivedSeriesContributing where Value: StreamDerivedValue {
    /// The value's sample (``StreamDerivedValue/derivedSample(stream:)``).
    public var derivedSample: DerivedSample? { value.derivedSample(stream: stream) }
}

/// One attribute of a derived series' events, declared by the publishing family like a table
/// column: its name, kind, unit and meaning (``DerivedSeries``).
public struct DerivedAttribute: Sendable, Hashable {
    /// What values the attribute takes.
    public enum Kind: Sendable, Hashable {
        /// A real number in ``DerivedAttribute/unit`` (``DerivedValue/number(_:)``; NaN when the
        /// event has the attribute but no valid value).
        case number
        /// One of the listed words (``DerivedValue/label(_:)``), or none.
        case label(values: [String])
    }

    /// Name, lower snake case (`r_amplitude`, `qrs_width_s`).
    public var name: String
    /// Number or label.
    public var kind: Kind
    /// Unit of a number (`ms`, `bpm`, `mg`, `s`), empty for labels and dimensionless numbers.
    public var unit: String
    /// One-line meaning: what was measured, on which signal, by which method.
    public var meaning: String

    /// A number attribute.
    /// - Parameters:
    ///   - name: attribute name.
    ///   - unit: unit of the values (empty when dimensionless).
    ///   - meaning: one-line meaning.
    /// - Returns: the declaration.
    public static func number(_ name: String, unit: String, _ meaning: String) -> DerivedAttribute {
        DerivedAttribute(name: name, kind: .number, unit: unit, meaning: meaning)
    }

    /// A label attribute.
    /// - Parameters:
    ///   - name: attribute name.
    ///   - values: the words it takes.
    ///   - meaning: one-line meaning.
    /// - Returns: the declaration.
    public static func label(_ name: String, values: [String], _ meaning: String) -> DerivedAttribute {
        DerivedAttribute(name: name, kind: .label(values: values), unit: "", meaning: meaning)
    }
}

/// A derived series a family publishes, declared once like a table schema
/// (``AnalysisFamily/publishes``): events of one kind (a beat, a pulse, an NN interval, a
/// heart-rate window, an ENMO epoch), each at a time, with the declared attributes.
///
/// Families publish without knowing who listens, and consume without knowing who publishes:
/// a consumer names the series and attributes it needs (``DerivedSubscription``) and the runner
/// routes (``RecordingAnalyzer/subscriptions``). Events of one series and stream come in
/// non-decreasing time within a segment of the source (a time earlier than the previous one
/// starts a new segment); nothing is promised about the interleaving of different series or
/// streams, which depends on when their publishers run — a consumer that combines series
/// aligns them by time.
public struct DerivedSeries: Sendable, Hashable {
    /// The source token, also the family token of feature column names: the source's sensor
    /// (`ecg`, `ppg`, `acc`).
    public var source: String
    /// The series' name, also the channel token of feature column names (`nn`, `hr`, `beats`).
    public var name: String
    /// One-line meaning: what an event is and what its time is.
    public var summary: String
    /// Whether events are irregular in time (beats, NN intervals) rather than a uniformly
    /// sampled series (heart-rate windows, epochs): event series get no spectral features.
    public var isEventSeries: Bool
    /// The attributes every event carries, in this order (``DerivedEvent/values``).
    public var attributes: [DerivedAttribute]

    /// Creates a declaration.
    /// - Parameters:
    ///   - source: source token (`ecg`).
    ///   - name: series name (`beats`).
    ///   - summary: one-line meaning.
    ///   - isEventSeries: irregular events (default `false`).
    ///   - attributes: the attributes, in event order.
    public init(source: String, name: String, summary: String, isEventSeries: Bool = false, attributes: [DerivedAttribute]) {
        self.source = source
        self.name = name
        self.summary = summary
        self.isEventSeries = isEventSeries
        self.attributes = attributes
    }

    /// `<source>_<name>` (`ecg_beats`): what events and subscriptions name.
    public var id: String { source + "_" + name }

    /// The position of attribute `name` in ``attributes``, or `nil`.
    /// - Complexity: O(attributes).
    public func index(of name: String) -> Int? { attributes.firstIndex { $0.name == name } }

    /// The declaration restricted to the attributes `names`, in that order, with their positions
    /// in ``attributes``; `nil` when one of them is not declared.
    /// - Parameter names: attribute names.
    /// - Complexity: O(names · attributes).
    public func projected(onto names: [String]) -> (series: DerivedSeries, indices: [Int])? {
        var indices = [Int]()
        for n in names {
            guard let i = index(of: n) else { return nil }
            indices.append(i)
        }
        var s = self
        s.attributes = indices.map { attributes[$0] }
        return (s, indices)
    }
}

/// The value of one attribute of a ``DerivedEvent``.
public enum DerivedValue: Sendable, Hashable {
    /// A number in the attribute's unit (NaN: present but not valid).
    case number(Double)
    /// A label (one of the attribute's declared words).
    case label(String)
    /// Not known for this event (the detector did not measure it).
    case none

    /// The number, or NaN for a label or none.
    public var number: Double {
        if case .number(let x) = self { return x }
        return .nan
    }

    /// The label, or `nil`.
    public var label: String? {
        if case .label(let s) = self { return s }
        return nil
    }
}

/// One event of a derived series (``DerivedSeries``): a beat at its R peak with its amplitude,
/// width, class and quality, an NN interval at its beat, a heart-rate window at its start, an
/// ENMO epoch at its start.
public struct DerivedEvent: Sendable, Hashable {
    /// The series' ``DerivedSeries/id`` (`ecg_beats`).
    public var series: String
    /// Stream key of the source (``StreamKey/description``).
    public var stream: String
    /// The event's time, in the stream's time scale (s).
    public var time: Double
    /// A sampled series' declared rate in Hz (epochs: 1 / epoch length), or `nil` for an event
    /// series or a series whose rate is taken from its times.
    public var nominalRate: Double?
    /// One value per declared attribute, in declaration order; a consumer receives only the
    /// attributes it subscribed to, in its subscription's order.
    public var values: [DerivedValue]

    /// Creates an event.
    /// - Parameters:
    ///   - series: the series' id.
    ///   - stream: the source's stream key.
    ///   - time: time in s.
    ///   - nominalRate: declared rate in Hz, or `nil`.
    ///   - values: attribute values in declaration order.
    public init(series: String, stream: String, time: Double, nominalRate: Double? = nil, values: [DerivedValue]) {
        self.series = series
        self.stream = stream
        self.time = time
        self.nominalRate = nominalRate
        self.values = values
    }
}

/// What a consumer needs from one derived series: the series (by ``DerivedSeries/id``) and the
/// attributes, in the order it wants them (``RecordingAnalyzer/subscriptions``).
public struct DerivedSubscription: Sendable, Hashable {
    /// The series' id (`ecg_nn`).
    public var series: String
    /// The attributes to receive, in this order.
    public var attributes: [String]

    /// Creates a subscription.
    /// - Parameters:
    ///   - series: the series' id.
    ///   - attributes: the attribute names, in the order the consumer reads them.
    public init(series: String, attributes: [String]) {
        self.series = series
        self.attributes = attributes
    }
}

/// A result row that also publishes one event of a derived series (``DerivedEvent``): the
/// runner takes it from every emitted row, so a family whose rows already hold the series
/// publishes by conforming them, in a file of its own.
public protocol DerivedSeriesContributing {
    /// The row's event, or `nil` when the row publishes none.
    var derivedEvent: DerivedEvent? { get }
}

/// A row value that knows its derived-series event once it is told its stream (``Streamed``
/// rows conform when their value does).
public protocol StreamDerivedValue {
    /// The value's event, or `nil`.
    /// - Parameter stream: the row's stream key.
    func derivedEvent(stream: String) -> DerivedEvent?
}

extension Streamed: DerivedSeriesContributing where Value: StreamDerivedValue {
    /// The value's event (``StreamDerivedValue/derivedEvent(stream:)``).
    public var derivedEvent: DerivedEvent? { value.derivedEvent(stream: stream) }
}

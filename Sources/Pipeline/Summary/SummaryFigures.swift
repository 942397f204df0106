import Signals

/// How a summary row's days are counted (the `time_basis` column of the summary tables).
public enum SummaryTimeBasis: String, Sendable, Hashable, CaseIterable, Codable {
    /// Local calendar days: Unix times shifted by the recording's UTC offset
    /// (`stream_attributes.utc_offset_s`).
    case local
    /// UTC calendar days: Unix times whose offset the recording does not give.
    case utc
    /// Calendar days of the device's own clock (`time_origin = device_local`: local wall-clock
    /// time, offset unknown).
    case deviceLocal = "device_local"
    /// Days counted from the stream's start (`time_origin = stream_start`): not dates.
    case streamStart = "stream_start"

    /// UTC offsets accepted from a stream's `utc_offset_s` attribute: within ±18 h (ISO 8601 and
    /// `java.time.ZoneOffset` bounds; offsets in use are within −12 h … +14 h).
    public static let utcOffsetRange = -64_800...64_800

    /// The UTC offset a `utc_offset_s` attribute states: `nil` when absent, not an integer, or
    /// outside ``utcOffsetRange`` (such a recording's days are then UTC days, never shifted by an
    /// absurd offset into year −292 billion).
    public static func utcOffset(_ text: String?) -> Int? {
        guard let text, let v = Int(text), utcOffsetRange.contains(v) else { return nil }
        return v
    }

    /// The basis of a stream's times.
    /// - Parameters:
    ///   - origin: what its times count from.
    ///   - utcOffsetSeconds: the recording's UTC offset, when known.
    static func of(_ origin: TimeOrigin, utcOffsetSeconds: Int?) -> SummaryTimeBasis {
        switch origin {
        case .unix: utcOffsetSeconds == nil ? .utc : .local
        case .deviceLocal: .deviceLocal
        case .streamStart: .streamStart
        }
    }
}

/// The running totals of one declared figure in one summary row: Σ value, Σ value·weight,
/// Σ weight, lowest and highest value, facts, and for a median figure every fact's value and
/// weight — enough for every ``SummaryFigure/Aggregation``.
public struct SummaryAggregate: Sendable, Hashable {
    /// Facts added.
    public var count = 0
    /// Σ value.
    public var sum = 0.0
    /// Σ value · weight.
    public var weightedSum = 0.0
    /// Σ weight.
    public var weight = 0.0
    /// Lowest and highest value (±∞ without facts).
    public var minimum = Double.infinity, maximum = -Double.infinity
    /// Each fact's value and weight, in the order added: kept only for a ``SummaryFigure/Aggregation/median``
    /// figure (empty otherwise).
    public var values: [Double] = [], valueWeights: [Double] = []

    /// Adds one fact's value (and keeps it when `keep`: a median figure).
    mutating func add(value: Double, weight w: Double, keep: Bool = false) {
        if keep {
            values.append(value)
            valueWeights.append(w)
        }
        count += 1
        sum += value
        weightedSum += value * w
        weight += w
        minimum = Swift.min(minimum, value)
        maximum = Swift.max(maximum, value)
    }

    /// Adds another row's totals (a day's into the recording's).
    mutating func add(_ o: SummaryAggregate) {
        count += o.count
        sum += o.sum
        weightedSum += o.weightedSum
        weight += o.weight
        minimum = Swift.min(minimum, o.minimum)
        maximum = Swift.max(maximum, o.maximum)
        values += o.values
        valueWeights += o.valueWeights
    }

    /// The weighted median of the kept values (``SummaryFigure/Aggregation/median``), or `nil`
    /// without values or positive weight.
    /// - Complexity: O(n log n) in the kept values.
    public var weightedMedian: Double? {
        let order = values.indices.filter { valueWeights[$0] > 0 }.sorted { values[$0] < values[$1] }
        let total = order.reduce(0.0) { $0 + valueWeights[$1] }
        guard total > 0 else { return nil }
        let half = total / 2
        var cumulative = 0.0
        for (k, i) in order.enumerated() {
            cumulative += valueWeights[i]
            // Within rounding of exactly half (equal weights, even count): the two middle values' mean.
            if abs(cumulative - half) <= 1e-12 * total, k + 1 < order.count { return (values[i] + values[order[k + 1]]) / 2 }
            if cumulative > half { return values[i] }
        }
        return values[order[order.count - 1]]
    }

    /// The figure's value under `aggregation`, or `nil` when it has none (no facts; a mean or
    /// share over zero weight). A sum without facts is `nil` here: the summary tables write 0
    /// for it in the rows of a family that declares the figure.
    /// - Parameter aggregation: how the figure adds up.
    public func value(_ aggregation: SummaryFigure.Aggregation) -> Double? {
        guard count > 0 else { return nil }
        switch aggregation {
        case .sum: return sum
        case .mean, .share: return weight > 0 ? weightedSum / weight : nil
        case .min: return minimum
        case .max: return maximum
        case .median: return weightedMedian
        }
    }
}

/// The figures of one summary row (a recording's family on one device, whole or one day): the
/// decoded and analysed time (from the signal) and the totals of every declared figure
/// (``SummaryFigure``) the family's rows contributed facts to.
public struct SummaryFigures: Sendable, Hashable, Codable {
    /// Seconds covered by segments of any stream of the device (union; temperature channels left out).
    public var decodedSeconds = 0.0
    /// Seconds covered by segments of the streams the family analysed (union).
    public var analysedSeconds = 0.0
    /// Totals per declared figure name.
    public var aggregates: [String: SummaryAggregate] = [:]

    /// The value of the figure `name` under `aggregation`, or `nil` without facts.
    /// - Parameters:
    ///   - name: the figure's name (its column).
    ///   - aggregation: how it adds up.
    public func value(_ name: String, _ aggregation: SummaryFigure.Aggregation) -> Double? {
        aggregates[name]?.value(aggregation)
    }

    /// Adds one fact (its value kept when `keep`: a median figure).
    mutating func add(_ fact: SummaryFact, keep: Bool = false) {
        aggregates[fact.figure, default: SummaryAggregate()].add(value: fact.value, weight: fact.weight, keep: keep)
    }

    /// Adds another row's figures (a day's into the recording's).
    mutating func add(_ o: SummaryFigures) {
        decodedSeconds += o.decodedSeconds
        analysedSeconds += o.analysedSeconds
        for (k, v) in o.aggregates { aggregates[k, default: SummaryAggregate()].add(v) }
    }
}

/// One `recording_summary` row: a family's results on one device of a recording.
public struct RecordingSummaryRow: Sendable, Hashable, Codable {
    /// The family (or beat source): `ecg`, `ppg`, `motion`, …
    public var family: String
    /// The device identifier (``StreamKey/deviceID``).
    public var device: String
    /// Streams of the device the family analysed.
    public var streams: Int
    /// First sample time of those streams (s, stream time scale).
    public var firstTime: Double?
    /// Last sample time of those streams (s).
    public var lastTime: Double?
    /// What those times count from.
    public var timeOrigin: TimeOrigin
    /// How days are counted.
    public var timeBasis: SummaryTimeBasis
    /// The recording's UTC offset (s east of UTC), when known.
    public var utcOffsetSeconds: Int?
    /// The figures.
    public var figures: SummaryFigures
}

/// One `daily_summary` row: a family's results on one device over one calendar day.
public struct DailySummaryRow: Sendable, Hashable, Codable {
    /// The family (or beat source).
    public var family: String
    /// The device identifier.
    public var device: String
    /// The day as `YYYY-MM-DD` in ``timeBasis``, or `nil` when times are not dates (`stream_start`).
    public var date: String?
    /// Day number from the first day of the recording's row (1 = first).
    public var dayNumber: Int
    /// Time at which the day starts (its midnight), in the streams' time scale (s).
    public var dayStart: Double
    /// How days are counted.
    public var timeBasis: SummaryTimeBasis
    /// The recording's UTC offset (s east of UTC), when known.
    public var utcOffsetSeconds: Int?
    /// The figures.
    public var figures: SummaryFigures
}

extension SummaryAggregate: Codable {
    private enum CodingKeys: String, CodingKey { case count, sum, weightedSum, weight, minimum, maximum, values, valueWeights }

    /// Decodes an aggregate; a missing `minimum`/`maximum` is +∞/−∞ (no facts), missing
    /// `values`/`valueWeights` none kept.
    /// - Throws: `DecodingError` naming the member that is missing or of the wrong type, or
    ///   `values` and `valueWeights` of different lengths.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init()
        count = try c.decode(Int.self, forKey: .count)
        sum = try c.decode(Double.self, forKey: .sum)
        weightedSum = try c.decode(Double.self, forKey: .weightedSum)
        weight = try c.decode(Double.self, forKey: .weight)
        minimum = try c.decodeIfPresent(Double.self, forKey: .minimum) ?? .infinity
        maximum = try c.decodeIfPresent(Double.self, forKey: .maximum) ?? -.infinity
        values = try c.decodeIfPresent([Double].self, forKey: .values) ?? []
        valueWeights = try c.decodeIfPresent([Double].self, forKey: .valueWeights) ?? []
        guard values.count == valueWeights.count else {
            throw DecodingError.dataCorruptedError(
                forKey: .valueWeights, in: c, debugDescription: "\(values.count) values but \(valueWeights.count) weights")
        }
    }

    /// Encodes the totals; `minimum`/`maximum` only when finite, the kept values only when any.
    /// - Throws: the encoder's error.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(count, forKey: .count)
        try c.encode(sum, forKey: .sum)
        try c.encode(weightedSum, forKey: .weightedSum)
        try c.encode(weight, forKey: .weight)
        if minimum.isFinite { try c.encode(minimum, forKey: .minimum) }
        if maximum.isFinite { try c.encode(maximum, forKey: .maximum) }
        if !values.isEmpty {
            try c.encode(values, forKey: .values)
            try c.encode(valueWeights, forKey: .valueWeights)
        }
    }
}

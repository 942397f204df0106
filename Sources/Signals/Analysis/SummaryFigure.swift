/// One figure a family contributes to the summary tables (`recording_summary`, `daily_summary`):
/// a column name, its unit and meaning, and how the facts its rows contribute
/// (``SummaryFact``) are added up. A family declares its figures next to its tables
/// (``AnalysisFamily/summaryFigures``); the summary tables' figure columns are derived from the
/// registered families' declarations, so the summary never names a family.
///
/// The same aggregation runs over the facts of one local calendar day (`daily_summary`) and
/// over every fact of the recording (`recording_summary`): a recording's mean is the mean over
/// all its facts (not the mean of its days' means), its sum the sum over all its facts.
///
/// Several families may declare a figure of the same name (the beat-series figures are declared
/// for `ecg`, `fused` and `ppg`); they then share one column, so they must agree on its type,
/// unit and aggregation, and the column's meaning lists each family's meaning when they differ.
public struct SummaryFigure: Sendable, Hashable, Codable {
    /// How a figure's facts are added up per recording and per local day.
    public enum Aggregation: String, Sendable, Hashable, Codable, CaseIterable {
        /// Σ value. With no fact the figure is 0 in the rows of a family that declares it and
        /// analysed some time (a count of nothing is 0), empty in a row without analysed time
        /// (nothing was counted) and in other families' rows. A total over a population that may
        /// be empty (valid days, nights) is a ``mean`` instead.
        case sum
        /// Σ value·weight / Σ weight: a mean over the facts (weight 1 for a plain mean over
        /// windows, seconds or samples for a time- or sample-weighted mean). Empty without facts.
        case mean
        /// Σ value·weight / Σ weight with values in 0…1 (1 = the fact's stretch counts in the
        /// numerator): e.g. the usable share of the assessed seconds. Empty without facts or
        /// when Σ weight is 0.
        case share
        /// The smallest value. Empty without facts.
        case min
        /// The largest value. Empty without facts.
        case max
        /// The weighted median of the facts' values: values ascending, the first value at which
        /// the cumulative weight passes half of Σ weight; where it reaches exactly half, the mean
        /// of that value and the next (so with weight 1 the usual median, the mean of the two
        /// middle values for an even count). Empty without facts or when Σ weight is 0. Exact:
        /// the summary keeps each fact's value and weight (16 bytes a fact), so declare it only
        /// for figures with one fact per window, never per beat or sample.
        case median
    }

    /// The family (or beat source) whose summary rows the figure fills: the `family` column of
    /// the summary tables (`ecg`, `fused`, `ppg`, `motion`).
    public var family: String
    /// Column name (stable: reports and users read it by name).
    public var name: String
    /// Storage type: ``ResultType/integer`` (the sum is rounded) or ``ResultType/real``.
    public var type: ResultType
    /// Unit of the value (`h`, `bpm`, `min`, `mg`), or `nil` for counts and shares.
    public var unit: String?
    /// What the column holds, exactly (which rows, which filter, which unit).
    public var meaning: String
    /// How facts are added up.
    public var aggregation: Aggregation
    /// The family's table and column the figure summarises (`motion_daily`, `steps`), or `nil`:
    /// where a reader checks it, and what the contract test uses (a figure must not stay empty
    /// where its column holds data).
    public var sourceTable: String?
    public var sourceColumn: String?
    /// Local clock hours whose facts count (a fact counts when its start's time of day is within
    /// them, e.g. `0..<6` for the early hours of the night), or `nil` for all facts. Facts of
    /// streams whose clock is not local time (Unix times without a UTC offset, times from the
    /// stream start) do not count: the figure stays empty there rather than count UTC hours as
    /// local ones.
    public var localHours: Range<Int>?

    /// Declares a figure.
    /// - Parameters:
    ///   - family: the family (or beat source) whose summary rows it fills.
    ///   - name: column name.
    ///   - type: `.integer` or `.real` (default `.real`).
    ///   - unit: unit, or `nil`.
    ///   - meaning: what the column holds.
    ///   - aggregation: how facts are added up per day and per recording.
    ///   - sourceTable: the table it summarises, or `nil`.
    ///   - sourceColumn: the column of that table, or `nil`.
    ///   - localHours: local clock hours whose facts count (within 0…24), or `nil` for all.
    public init(
        family: String, name: String, type: ResultType = .real, unit: String? = nil, meaning: String,
        aggregation: Aggregation, sourceTable: String? = nil, sourceColumn: String? = nil, localHours: Range<Int>? = nil
    ) {
        precondition(type != .text, "a summary figure is a number")
        precondition(localHours.map { $0.lowerBound >= 0 && $0.upperBound <= 24 && !$0.isEmpty } ?? true, "local hours within 0…24")
        self.family = family
        self.name = name
        self.type = type
        self.unit = unit
        self.meaning = meaning
        self.aggregation = aggregation
        self.sourceTable = sourceTable
        self.sourceColumn = sourceColumn
        self.localHours = localHours
    }

    /// The same figure declared for another family (or beat source), e.g. a beat-series figure
    /// for `fused` as well as `ecg`.
    /// - Parameter family: the other family.
    public func declared(for family: String) -> SummaryFigure {
        var f = self
        f.family = family
        return f
    }
}

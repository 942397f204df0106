import Signals

/// The summary tables' open vocabulary: every figure the registered families declare
/// (``AnalysisFamily/summaryFigures``), in registry order, and the columns they make in
/// `recording_summary` and `daily_summary` (one per figure name; families that declare the same
/// name share its column). The CLI summary and the reports derive their figures from it.
public struct SummaryVocabulary: Sendable, Hashable {
    /// One figure column: the shared declaration of every family that fills it.
    public struct Column: Sendable, Hashable {
        /// Column name.
        public var name: String
        /// Storage type (`INTEGER` or `REAL`).
        public var type: ResultType
        /// Unit, or `nil`.
        public var unit: String?
        /// How facts add up.
        public var aggregation: SummaryFigure.Aggregation
        /// The families (or beat sources) whose rows fill the column, in declaration order.
        public var families: [String]
        /// The column's meaning: the declared meaning (each family's, when they differ), and
        /// that other families' rows leave it empty.
        public var meaning: String

        /// The value of this column in a row of `family` with these figures: the aggregate, 0 for a
        /// sum without facts in a declaring family's row that analysed some time (a count of
        /// nothing over analysed data is 0; over no analysed data — every sample rejected, a
        /// stream without segments — it is unknown), `nil` otherwise.
        /// - Parameters:
        ///   - figures: the row's figures.
        ///   - family: the row's family.
        public func value(in figures: SummaryFigures, family: String) -> Double? {
            if let v = figures.value(name, aggregation) { return v }
            return aggregation == .sum && families.contains(family) && figures.analysedSeconds > 0 ? 0 : nil
        }

        /// The value as a result value (integers rounded).
        func resultValue(in figures: SummaryFigures, family: String) -> ResultValue {
            let v = value(in: figures, family: family)
            return type == .integer ? .optional(v.map { Int($0.rounded()) }) : .finite(v)
        }
    }

    /// Every declaration, in registry order, once per family and name.
    public let figures: [SummaryFigure]
    /// The columns, in order of their first declaration.
    public let columns: [Column]
    private let declared: [Key: SummaryFigure]

    private struct Key: Hashable {
        var family: String
        var name: String
    }

    /// Builds the vocabulary of these declarations.
    /// - Parameter figures: every family's figures, in order.
    /// - Precondition: declarations of one name agree on type, unit, aggregation and local hours; one family
    ///   declares a name once, or identically.
    public init(_ figures: [SummaryFigure]) {
        var list = [SummaryFigure](), keys = Set<Key>()
        for f in figures {
            let key = Key(family: f.family, name: f.name)
            if keys.contains(key) {
                precondition(list.contains(f), "summary figure \(f.name) declared twice for \(f.family), differently")
                continue
            }
            keys.insert(key)
            list.append(f)
        }
        var names = [String]()
        for f in list where !names.contains(f.name) { names.append(f.name) }
        columns = names.map { name in
            let same = list.filter { $0.name == name }
            let first = same[0]
            for f in same {
                precondition(
                    f.type == first.type && f.unit == first.unit && f.aggregation == first.aggregation
                        && f.localHours == first.localHours,
                    "summary figure \(name): families \(first.family) and \(f.family) disagree on type, unit, aggregation or hours")
            }
            var meanings = [(families: [String], meaning: String)]()
            for f in same {
                if let k = meanings.firstIndex(where: { $0.meaning == f.meaning }) {
                    meanings[k].families.append(f.family)
                } else {
                    meanings.append(([f.family], f.meaning))
                }
            }
            let families = same.map(\.family)
            let text =
                meanings.count == 1
                ? meanings[0].meaning
                : meanings.map { $0.families.joined(separator: ", ") + ": " + $0.meaning }.joined(separator: "; ")
            return Column(
                name: name, type: first.type, unit: first.unit, aggregation: first.aggregation, families: families,
                meaning: text + " (rows of " + families.joined(separator: ", ") + "; empty in other families' rows)")
        }
        self.figures = list
        declared = Dictionary(uniqueKeysWithValues: list.map { (Key(family: $0.family, name: $0.name), $0) })
    }

    /// Whether `family` declares the figure `name` (facts naming undeclared figures are ignored).
    /// - Parameters:
    ///   - name: the figure's name.
    ///   - family: the fact's family.
    public func declares(_ name: String, for family: String) -> Bool {
        declared[Key(family: family, name: name)] != nil
    }

    /// The declaration of the figure `name` for `family`, or `nil` when it declares none.
    /// - Parameters:
    ///   - name: the figure's name.
    ///   - family: the fact's family.
    public func figure(_ name: String, for family: String) -> SummaryFigure? {
        declared[Key(family: family, name: name)]
    }
}

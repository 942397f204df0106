import Cardio
import Features
import Motion
import Respiration
import Rhythm
import Signals

/// One option of a registered family, type-erased: what configuration files, command-line flags
/// and `--help` show.
public struct OptionDescriptor: Sendable, Hashable {
    /// The family's name (the section in configuration files).
    public let family: String
    /// Key within the family (`hrv_window_s`).
    public let key: String
    /// One-line meaning.
    public let summary: String
    /// Unit of a number, or `nil`.
    public let unit: String?
    /// Accepted values.
    public let kind: OptionKind
    /// The default value.
    public let defaultValue: OptionValue

    /// The command-line flag: `--<family>-<key with _ as ->`.
    public var flag: String { "--\(family)-" + key.replacingOccurrences(of: "_", with: "-") }
}

/// A registered analysis family, type-erased (made from an ``AnalysisFamily`` type).
public struct AnalysisFamilyEntry: Sendable {
    /// The family's name.
    public let name: String
    /// One-line meaning.
    public let summary: String
    /// Every table it writes.
    public let tables: [ResultTable]
    /// Its options.
    public let options: [OptionDescriptor]
    /// The figures its rows contribute to the summary tables (``AnalysisFamily/summaryFigures``).
    public let summaryFigures: [SummaryFigure]
    /// What its section of the HTML report shows (``AnalysisFamily/reportSection``).
    public let reportSection: ReportSection
    /// The derived series it publishes (``AnalysisFamily/publishes``).
    public let publishes: [DerivedSeries]
    /// The summary row a claimed stream of a sensor counts under (``AnalysisFamily/summaryName(for:)``).
    public let summaryName: @Sendable (SensorKind) -> String
    let make: @Sendable ([String: OptionValue]) -> any RecordingAnalyzer

    /// Registers a family.
    public init<F: AnalysisFamily>(_ family: F.Type) {
        name = F.name
        summary = F.summary
        tables = F.tables
        summaryFigures = F.summaryFigures
        reportSection = F.reportSection
        publishes = F.publishes
        summaryName = { F.summaryName(for: $0) }
        let defaults = F.defaultOptions
        options = F.options.map { o in
            OptionDescriptor(
                family: F.name, key: o.key, summary: o.summary, unit: o.unit, kind: o.kind,
                defaultValue: o.value(in: defaults))
        }
        make = { values in F.makeAnalyzer(options: F.options(applying: values)) }
    }

    /// A fresh analysis for one recording with these option values (keys not given keep their
    /// defaults).
    public func makeAnalyzer(values: [String: OptionValue]) -> any RecordingAnalyzer { make(values) }
}

/// The analysis families SensorPipe runs, in order. Adding a family is its module plus one entry
/// here; its tables, options, flags and documentation follow from its declaration.
public enum AnalysisRegistry {
    /// Every family, in the order analyses run and their tables are listed.
    public static let families: [AnalysisFamilyEntry] = [
        AnalysisFamilyEntry(ECGFamily.self),
        AnalysisFamilyEntry(ECGWavesFamily.self),
        AnalysisFamilyEntry(MotionFamily.self),
        AnalysisFamilyEntry(FeaturesFamily.self),
        AnalysisFamilyEntry(PPGFamily.self),
        AnalysisFamilyEntry(RhythmFamily.self),
        AnalysisFamilyEntry(RespirationFamily.self),
    ]

    /// Every result table a recording writes: the families' (``tables``), the summary tables
    /// (``SummaryTables``) and the input's annotations (``AnnotationTables``), which SQLite creates
    /// up front and `run --format csv` writes as long tables.
    public static var resultTables: [ResultTable] { tables + SummaryTables.all + [AnnotationTables.annotations.table] }

    /// Every result table of every family, once each (families that share a stage, such as the
    /// beat-series tables, share its declaration).
    public static let tables: [ResultTable] = {
        var out = [ResultTable]()
        for family in families {
            for t in family.tables {
                if let existing = out.first(where: { $0.name == t.name }) {
                    precondition(existing == t, "table \(t.name) is declared twice with different columns")
                } else {
                    out.append(t)
                }
            }
        }
        return out
    }()

    /// Every summary figure the families declare, in registry order, and the summary columns they
    /// make (``SummaryVocabulary``): `recording_summary`, `daily_summary`, the CLI summary and the
    /// reports derive their figures from it.
    public static let summaryVocabulary = SummaryVocabulary(families.flatMap(\.summaryFigures))

    /// The family named `name`.
    public static func family(named name: String) -> AnalysisFamilyEntry? {
        families.first { $0.name == name }
    }
}

import Signals

/// The typed results of a recording's feature extraction (`results[FeaturesFamily.self]`): one
/// value per window and feature, and every window with its valid fraction.
public struct FeaturesResults: Sendable {
    /// Streams the family analysed, in stream order (derived series are not streams).
    public var streams: [String]
    /// Feature values (`features`).
    public var values: [FeatureValueRow]
    /// Windows (`feature_windows`).
    public var windows: [FeatureWindowRow]
    /// Problems that left parts unanalysed.
    public var issues: [AnalysisIssue]
}

extension FeaturesFamily: ResultsProvidingFamily {
    /// The feature rows of one recording, typed.
    /// - Parameter rows: the recording's rows.
    /// - Complexity: O(1) per table (the arrays are shared, not copied).
    public static func results(from rows: ResultRows) -> FeaturesResults {
        FeaturesResults(
            streams: rows.streamsByFamily[name] ?? [],
            values: rows.rows(FeatureTables.features),
            windows: rows.rows(FeatureTables.windows),
            issues: rows.issues.filter { $0.family == name })
    }
}

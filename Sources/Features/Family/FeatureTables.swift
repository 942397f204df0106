import DSP
import Signals

/// One feature value of one window (a row of `features`).
public struct FeatureValueRow: Sendable {
    /// Stream key.
    public var stream: String
    /// Window start, s.
    public var windowStart: Double
    /// Window end (exclusive), s.
    public var windowEnd: Double
    /// Column name `<family>_<channel>_<feature>`.
    public var feature: String
    /// Unit of the value.
    public var unit: String
    /// The value (NaN: undefined for this window, written as NULL).
    public var value: Double
}

/// One window of a stream (a row of `feature_windows`).
public struct FeatureWindowRow: Sendable {
    /// Stream key.
    public var stream: String
    /// The window.
    public var startSeconds: Double
    /// Window end (exclusive), s.
    public var endSeconds: Double
    /// Samples present.
    public var sampleCount: Int
    /// Valid samples.
    public var validCount: Int
    /// Valid fraction (see ``FeatureWindowSpan/validFraction``).
    public var validFraction: Double
    /// Rate used, Hz.
    public var sampleRate: Double
    /// Why no features were computed, or `nil` when they were.
    public var reason: String?
    /// What the window covers: `samples` (the stream's own samples) or the derived series
    /// (`nn`, `hr`, `hrSpectralOnline`, `hrSpectralOffline`, `enmo`; docs/FEATURES.md).
    public var series = "samples"
}

/// The feature family's tables.
public enum FeatureTables {
    /// Feature values, one row per window and feature (long layout).
    public static let features = TableSchema<FeatureValueRow>(
        name: "features", summary: "windowed features, one row per stream, window and feature (docs/FEATURES.md)",
        columns: [
            .init("stream", .text, "stream key") { .text($0.stream) },
            .init("window_start", .real, unit: "s", "window start (inclusive), on the stream's clock") {
                .real($0.windowStart)
            },
            .init("window_end", .real, unit: "s", "window end (exclusive)") { .real($0.windowEnd) },
            .init("feature", .text, "<family>_<channel>_<feature>, names of catalog version \(FeatureCatalog.version)") {
                .text($0.feature)
            },
            .init("value", .real, "the value; NULL when undefined for the window (docs/FEATURES.md says when)") {
                .finite($0.value)
            },
            .init("unit", .text, "unit of the value (1: dimensionless)") { .text($0.unit) },
        ],
        wideCSV: WideCSVLayout(
            filePrefix: "features", keyColumns: ["stream", "window_start", "window_end"], nameColumn: "feature",
            valueColumn: "value", separateSeries: FeatureColumns.derivedSeries.map(\.channel)))

    /// Every window of every stream the family analysed, computed or not.
    public static let windows = TableSchema<FeatureWindowRow>(
        name: "feature_windows", summary: "feature windows with their valid fraction, and why a window has no features",
        columns: [
            .init("stream", .text, "stream key") { .text($0.stream) },
            .init("window_start", .real, unit: "s", "window start (inclusive)") { .real($0.startSeconds) },
            .init("window_end", .real, unit: "s", "window end (exclusive)") { .real($0.endSeconds) },
            .init("samples", .integer, "samples present in the window") { .integer($0.sampleCount) },
            .init("valid_samples", .integer, "samples neither masked nor missing (the only ones features use)") {
                .integer($0.validCount)
            },
            .init("valid_fraction", .real, "min(1, valid samples / (window length · rate)); gaps and deleted spans lower it") {
                .finite($0.validFraction)
            },
            .init("sample_rate", .real, unit: "Hz", "rate used: nominal, else 1 / median interval in the window") {
                .finite($0.sampleRate)
            },
            .init("catalog_version", .integer, "FeatureCatalog version of the names and definitions") {
                _ in .integer(FeatureCatalog.version)
            },
            .init("reason", .text, "why the window has no features; NULL when it has them") { .optional($0.reason) },
            .init("series", .text, "samples (the stream's own) or the derived series: nn, hr, hrSpectralOnline, hrSpectralOffline, enmo") {
                .text($0.series)
            },
        ])
}

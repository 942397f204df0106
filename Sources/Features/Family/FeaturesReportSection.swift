import Signals

extension FeaturesFamily {
    /// The features section of the report: one chosen feature per stream over time (a heart-rate
    /// or NN mean where the stream has one, else ENMO's mean, else the first mean), and the
    /// windows without features with their reasons.
    public static var reportSection: ReportSection {
        ReportSection(
            title: "Features",
            results: [ReportRows(FeatureTables.features.table)],
            items: [
                .featureSeries(
                    ReportFeatureSeries(
                        id: "feature", title: "Feature per window", rows: ReportRows(FeatureTables.features.table),
                        preferred: ["_hr_mean", "_nn_mean", "_enmo_mean", "_mean"]))
            ],
            shows: "a chosen feature per stream over time",
            methods:
                "Features are computed per window of every stream and derived series (NN intervals, heart rate, ENMO) from the valid samples only; names and definitions follow the catalog in docs/FEATURES.md (catch22 after Lubba et al.). The report draws one feature per stream; every feature is in the features table.",
            citations: [
                "Lubba CH et al. (2019) catch22: CAnonical Time-series CHaracteristics. Data Min Knowl Discov 33:1821–1852."
            ])
    }
}

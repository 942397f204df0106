import Signals

extension PPGTables {
    /// The PPG quality figures (``SummaryFigure``) of family `ppg`: hours assessed and the usable
    /// share, from `ppg_quality`.
    public static let summaryFigures = [
        SummaryFigure(
            family: PPGFamily.name, name: "assessed_hours", unit: "h",
            meaning:
                "the unmasked time of each ppg_quality window's central step, summed over the optical streams; a window counts on the day it starts",
            aggregation: .sum, sourceTable: "ppg_quality", sourceColumn: "label"),
        SummaryFigure(
            family: PPGFamily.name, name: "usable_share",
            meaning: "share of the assessed time labelled good or acceptable; empty when nothing was assessed",
            aggregation: .share, sourceTable: "ppg_quality", sourceColumn: "label"),
    ]
}

extension PPGQualityResult: StreamSummaryValue {
    /// The window's facts for the summary tables: the unmasked time of its central step
    /// (`assessed_hours`; the windows overlap, 8 s every 2 s by default; the central steps tile
    /// the time once, and a window reaching past the data counts only its data) and whether it
    /// is usable (`usable_share`, weighted by that time): usable unless labelled unacceptable
    /// (`acceptable` is usable for heart rate). None when the step holds no data.
    public func summaryFacts(stream: String) -> [SummaryFact] {
        guard labelStartSeconds.isFinite && labelSeconds > 0 else { return [] }
        return SummaryFact.qualityWindow(
            family: PPGFamily.name, stream: stream, startSeconds: labelStartSeconds,
            endSeconds: labelStartSeconds + labelSeconds, assessedSeconds: labelSeconds, usable: label != .unacceptable)
    }
}

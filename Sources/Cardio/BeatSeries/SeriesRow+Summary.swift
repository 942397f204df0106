import Signals

extension BeatSeriesTables {
    /// The summary figures of a beat series (``SummaryFigure``), declared for one source
    /// (`ecg`, `fused`, `ppg`, `device`): the heart-rate figures come from the source's
    /// recommended series only (`heart_rate.recommended` = 1: ECG, fused and device `beats`, PPG
    /// `spectral_offline`; never an average over methods), the beat figures from every beat row
    /// of the source.
    /// - Parameter source: the beat source whose summary rows the figures fill.
    public static func summaryFigures(for source: BeatSource) -> [SummaryFigure] {
        let f = source.rawValue
        return [
            SummaryFigure(
                family: f, name: "hr_windows", type: .integer,
                meaning:
                    "heart_rate windows with a rate among the recommended rows (recommended = 1: ECG, fused and device method beats, PPG spectral_offline)",
                aggregation: .sum, sourceTable: "heart_rate", sourceColumn: "bpm"),
            SummaryFigure(
                family: f, name: "hr_mean_bpm", unit: "bpm",
                meaning: "mean of those windows' bpm (each window counts once); empty without any", aggregation: .mean,
                sourceTable: "heart_rate", sourceColumn: "bpm"),
            SummaryFigure(
                family: f, name: "hr_min_bpm", unit: "bpm", meaning: "lowest bpm of those windows", aggregation: .min,
                sourceTable: "heart_rate", sourceColumn: "bpm"),
            SummaryFigure(
                family: f, name: "hr_max_bpm", unit: "bpm", meaning: "highest bpm of those windows", aggregation: .max,
                sourceTable: "heart_rate", sourceColumn: "bpm"),
            SummaryFigure(
                family: f, name: "beats", type: .integer,
                meaning: "beat rows of the source (every stream of the device): detected, inserted and removed", aggregation: .sum,
                sourceTable: "beats", sourceColumn: "stream"),
            SummaryFigure(
                family: f, name: "corrected_share",
                meaning:
                    "share of those beat rows whose correction is not empty (ectopic, longShort, inserted, followsRemovedExtra, removedExtra); empty without beats",
                aggregation: .share, sourceTable: "beats", sourceColumn: "correction"),
        ]
    }
}

extension SeriesRow: SummaryContributing {
    /// The facts a beat-series row gives the summary tables, under its source's name (`ecg`,
    /// `fused`, `ppg`, `device`): a beat (`beats`, `corrected_share`), or a recommended heart-rate window
    /// with a rate (`hr_windows`, `hr_mean_bpm`, `hr_min_bpm`, `hr_max_bpm`). HRV rows and the
    /// other methods' heart-rate rows give none.
    public var summaryFacts: [SummaryFact] {
        func fact(_ figure: String, _ start: Double, _ end: Double, _ value: Double) -> SummaryFact {
            SummaryFact(family: source.rawValue, stream: stream, startSeconds: start, endSeconds: end, figure: figure, value: value)
        }
        switch value {
        case let labelled as LabelledBeat:
            let b = labelled.beat
            guard let t = b.detectionTimeSeconds ?? b.nnTimeSeconds else { return [] }
            let corrected = b.isRemovedExtra || !b.corrections.isEmpty
            return [fact("beats", t, t, 1), fact("corrected_share", t, t, corrected ? 1 : 0)]
        case let window as HeartRateWindow:
            guard window.isRecommended, let bpm = window.heartRateBPM, bpm.isFinite else { return [] }
            let a = window.startSeconds, b = window.endSeconds
            return [
                fact("hr_windows", a, b, 1), fact("hr_mean_bpm", a, b, bpm), fact("hr_min_bpm", a, b, bpm),
                fact("hr_max_bpm", a, b, bpm),
            ]
        default:
            return []
        }
    }
}

extension ECGTables {
    /// The ECG quality figures (``SummaryFigure``) of family `ecg`: hours assessed and the usable
    /// share, from `ecg_quality`.
    public static let summaryFigures = [
        SummaryFigure(
            family: ECGFamily.name, name: "assessed_hours", unit: "h",
            meaning: "ecg_quality windows assessed (window length summed); a window counts on the day it starts",
            aggregation: .sum, sourceTable: "ecg_quality", sourceColumn: "label"),
        SummaryFigure(
            family: ECGFamily.name, name: "usable_share",
            meaning:
                "share of the assessed time labelled excellent or barely_acceptable (usable for heart rate, Zhao & Zhang 2018); empty when nothing was assessed",
            aggregation: .share, sourceTable: "ecg_quality", sourceColumn: "label"),
    ]
}

extension ECGQualityResult: StreamSummaryValue {
    /// The window's facts for the summary tables: its length (`assessed_hours`) and whether it is
    /// usable (`usable_share`, weighted by its length): usable unless labelled unacceptable
    /// (Zhao & Zhang 2018: barely acceptable is usable for heart rate).
    public func summaryFacts(stream: String) -> [SummaryFact] {
        SummaryFact.qualityWindow(
            family: ECGFamily.name, stream: stream, startSeconds: startSeconds, endSeconds: endSeconds,
            assessedSeconds: max(0, endSeconds - startSeconds), usable: label != .unacceptable)
    }
}

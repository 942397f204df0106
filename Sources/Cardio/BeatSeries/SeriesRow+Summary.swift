import Signals

extension SeriesRow: SummaryContributing {
    /// The figure a beat-series row gives the summary tables, under its source's name (`ecg`,
    /// `ppg`): a beat (corrected when correction touched it), or a heart-rate window with a rate.
    /// HRV rows give none.
    public var summaryFact: SummaryFact? {
        switch value {
        case let labelled as LabelledBeat:
            let b = labelled.beat
            guard let t = b.detectionTimeSeconds ?? b.nnTimeSeconds else { return nil }
            let corrected = b.isRemovedExtra || !b.corrections.isEmpty
            return SummaryFact(
                family: source.rawValue, stream: stream, startSeconds: t, endSeconds: t,
                measure: .beat(corrected: corrected))
        case let window as HeartRateWindow:
            guard let bpm = window.heartRateBPM, bpm.isFinite else { return nil }
            return SummaryFact(
                family: source.rawValue, stream: stream, startSeconds: window.startSeconds,
                endSeconds: window.endSeconds, measure: .heartRate(bpm: bpm))
        default:
            return nil
        }
    }
}

extension ECGQualityResult: StreamSummaryValue {
    /// The window's usability for the summary tables: usable unless labelled unacceptable
    /// (Zhao & Zhang 2018: barely acceptable is usable for heart rate).
    public func summaryFact(stream: String) -> SummaryFact? {
        SummaryFact(
            family: ECGFamily.name, stream: stream, startSeconds: startSeconds, endSeconds: endSeconds,
            measure: .quality(usable: label != .unacceptable))
    }
}

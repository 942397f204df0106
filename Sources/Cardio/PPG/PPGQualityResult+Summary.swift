import Signals

extension PPGQualityResult: StreamSummaryValue {
    /// The window's usability for the summary tables: the unmasked time of its central step
    /// (the windows overlap, 8 s every 2 s by default; the central steps tile the time once, and
    /// a window reaching past the data counts only its data), usable unless labelled
    /// unacceptable (`acceptable` is usable for heart rate). `nil` when the step holds no data.
    public func summaryFact(stream: String) -> SummaryFact? {
        guard labelStartSeconds.isFinite && labelSeconds > 0 else { return nil }
        return SummaryFact(
            family: BeatSource.ppg.rawValue, stream: stream, startSeconds: labelStartSeconds,
            endSeconds: labelStartSeconds + labelSeconds, measure: .quality(usable: label != .unacceptable))
    }
}

import Cardio

extension ECGAnalyzer {
    /// The analysis results as result-table rows (``ECGResults`` as the tables store them).
    public struct Output {
        /// Rows of ``ResultTables/beats``.
        public var beats: [[ResultValue]] = []
        /// Rows of ``ResultTables/heartRate``.
        public var heartRate: [[ResultValue]] = []
        /// Rows of ``ResultTables/hrv``.
        public var hrv: [[ResultValue]] = []
        /// Rows of ``ResultTables/quality``.
        public var quality: [[ResultValue]] = []
    }

    /// Ends the stream and computes the beat-level results as result-table rows: the rows of
    /// ``finishResults()``'s values, `null` where a value is `nil` or not finite.
    /// - Returns: one array of rows per table, each row with exactly the table's columns.
    /// - Complexity: as ``finishResults()``, plus O(rows) to build the rows.
    public mutating func finish() -> Output {
        Output(finishResults())
    }
}

extension ECGAnalyzer.Output {
    /// The rows of the four ECG tables, one per typed value, in the same order. Non-finite and
    /// missing values become `null` (``ResultValue/finite(_:)``); column order is the tables'.
    /// - Complexity: O(values).
    init(_ results: ECGResults) {
        let name = ResultValue.text(results.streamName)
        beats = results.beats.map { b in
            [
                name, .real(b.timeSeconds), b.sampleIndex.map { .integer($0) } ?? .null, .integer(b.segment),
                .finite(b.rrMilliseconds), .finite(b.nnMilliseconds), .finite(b.heartRateBPM),
                .text(b.artefact?.rawValue ?? ""),
                .text(b.isRemovedExtra ? "removedExtra" : ECGAnalyzer.describe(b.corrections)),
                b.qualityLabel.map { .text($0.rawValue) } ?? .null,
            ]
        }
        heartRate = results.heartRate.map { w in
            [name, .text("ecg"), .real(w.startSeconds), .real(w.endSeconds), .finite(w.heartRateBPM),
             .integer(w.intervalCount)]
        }
        quality = results.quality.map { r in
            [
                name, .real(r.startSeconds), .real(r.endSeconds), .text(r.label.rawValue), .finite(r.kurtosis),
                .finite(r.skewness), .finite(r.pSQI), .finite(r.basSQI), .finite(r.bSQI),
                .finite(r.templateCorrelation), .integer(r.isTemplateAcceptable ? 1 : 0), .text(r.fuzzyLabel.rawValue),
                .finite(r.fuzzyScore), .finite(r.maskedFraction), .integer(r.beatCount),
            ]
        }
        hrv = results.hrv.map { h in
            [name, .real(h.startSeconds), .real(h.endSeconds)] + h.metrics.values.map { ResultValue.finite($0) }
                + [.text(h.scope.rawValue)]
        }
    }
}

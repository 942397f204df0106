import Signals

/// The ECG analysis family: every ECG stream of a recording gets its own ``ECGAnalyzer``
/// (R-peaks, signal quality, the beat series with heart rate and HRV). Rows are emitted as they
/// become final: quality windows while the stream is read, the beat series per stream at the end
/// of the recording (its artefact correction runs over whole segments).
public enum ECGFamily: AnalysisFamily {
    public static let name = "ecg"
    public static let summary = "ECG R-peaks, artefact correction, heart rate, HRV and signal quality"
    public static var tables: [ResultTable] { BeatSeriesTables.all + [ECGTables.quality.table, ECGTables.summary.table] }
    public static var defaultOptions: ECGAnalyzer.Options { ECGAnalyzer.Options() }
    public static var options: [AnalysisOption<ECGAnalyzer.Options>] {
        [
            .number(
                "heart_rate_window_s", unit: "s", "heart-rate window length", range: 1...86_400,
                get: { $0.heartRateWindowSeconds }, set: { $0.heartRateWindowSeconds = $1 }),
            .number(
                "heart_rate_step_s", unit: "s", "heart-rate window step", range: 1...86_400,
                get: { $0.heartRateStepSeconds }, set: { $0.heartRateStepSeconds = $1 }),
            .number(
                "hrv_window_s", unit: "s", "HRV window length (Task Force 1996: 300 s short-term)", range: 10...86_400,
                get: { $0.hrvWindowSeconds }, set: { $0.hrvWindowSeconds = $1 }),
            .number(
                "quality_window_s", unit: "s", "ECG signal-quality window length (Zhao & Zhang 2018: 10 s)",
                range: 2...600, get: { $0.qualityWindowSeconds }, set: { $0.qualityWindowSeconds = $1 }),
            .flag(
                "hrv_exclude_unacceptable", "leave intervals in unacceptable quality windows out of HRV (default on)",
                get: { $0.hrvExcludesUnacceptable }, set: { $0.hrvExcludesUnacceptable = $1 }),
        ]
    }

    public static func makeAnalyzer(options: ECGAnalyzer.Options) -> Analyzer { Analyzer(options: options) }

    /// The ECG analysis of one recording: one ``ECGAnalyzer`` per claimed ECG stream.
    public struct Analyzer: RecordingAnalyzer {
        let options: ECGAnalyzer.Options
        var analyzers: [Int: ECGAnalyzer] = [:]
        var order: [Int] = []
        public private(set) var issues: [String] = []

        init(options: ECGAnalyzer.Options) { self.options = options }

        public mutating func claim(_ stream: AnnouncedStream) -> Bool {
            guard stream.info.key.sensor == .electrocardiogram else { return false }
            analyzers[stream.index] = ECGAnalyzer(streamName: stream.name, options: options)
            order.append(stream.index)
            return true
        }

        public mutating func consume(_ block: SampleBlock, output: any ResultOutput) throws {
            guard var a = analyzers.removeValue(forKey: block.stream) else { return }
            a.consume(block)
            let finished = a.takeQualityResults()
            let name = a.streamName
            analyzers[block.stream] = a
            for q in finished { try output.emit(ECGTables.quality, Streamed(stream: name, value: q)) }
        }

        public mutating func finish(output: any ResultOutput) throws {
            for index in order {
                guard var a = analyzers.removeValue(forKey: index) else { continue }
                let name = a.streamName
                try a.finish(
                    quality: { try output.emit(ECGTables.quality, Streamed(stream: name, value: $0)) },
                    beat: {
                        try output.emit(
                            BeatSeriesTables.beats,
                            SeriesRow(
                                stream: name, source: .ecg, value: LabelledBeat(beat: $0.beat, qualityLabel: $0.qualityLabel?.rawValue)))
                    },
                    heartRate: { try output.emit(BeatSeriesTables.heartRate, SeriesRow(stream: name, source: .ecg, value: $0)) },
                    hrv: { try output.emit(BeatSeriesTables.hrv, SeriesRow(stream: name, source: .ecg, value: $0)) })
                if let summary = a.lastSummary { try output.emit(ECGTables.summary, Streamed(stream: name, value: summary)) }
                issues += a.issues.map { "\(name): \($0)" }
            }
        }
    }
}

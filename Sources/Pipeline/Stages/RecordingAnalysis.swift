import Recordings

/// Runs every analysis that applies to a recording's streams and writes the result rows to a
/// sink in one transaction (all of the recording's rows, or none).
///
/// Today: ECG streams get ``ECGAnalyzer`` (beats, heart rate, HRV, signal quality). Streams of other sensors are
/// decoded and accounted for; their analyses plug in here as they land.
public enum RecordingAnalysis {
    /// What a run produced.
    public struct Summary: Sendable {
        /// Streams in the recording.
        public var streams = 0
        /// Beats written (all ECG streams).
        public var beats = 0
        /// Tables written.
        public var tables: [String] = []
        /// Problems that left parts unanalysed, and the decoder's recoverable issues.
        public var issues: [String] = []
        /// QC accounts of the streams.
        public var accounts: [StreamQC] = []
        /// Stream keys (`device/sensor/channel[/session]`), in the order of ``accounts``.
        public var streamKeys: [String] = []
    }

    /// Decodes `path` and analyses it into `sink`.
    /// - Parameters:
    ///   - path: the recording.
    ///   - decode: decoder options.
    ///   - ecg: ECG analysis options.
    ///   - sink: where rows go; committed at the end, rolled back on error.
    ///   - beforeCommit: called with the summary inside the sink's transaction, just before the
    ///     commit (the batch runner writes its bookkeeping rows here); its error rolls back.
    /// - Returns: a summary.
    /// - Throws: ``RecordingError`` from decoding, or the sink's errors.
    /// - Complexity: one pass over the samples; memory bounded by the block size plus beat lists.
    public static func run(path: String, decode: DecodeOptions, ecg: ECGAnalyzer.Options,
                           sink: ResultSink,
                           beforeCommit: (Summary) throws -> Void = { _ in }) throws -> Summary {
        let opened = try RecordingOpener.open(path: path, options: decode)
        let d = opened.decoder
        var analyzers = [Int: ECGAnalyzer]()
        var summary = Summary()
        while let event = try d.next() {
            switch event {
            case .stream(let info):
                if info.key.sensor == .electrocardiogram {
                    analyzers[d.streams.count - 1] = ECGAnalyzer(streamName: info.key.description, options: ecg)
                }
            case .block(let b):
                analyzers[b.stream]?.consume(b)
            case .issue(let e):
                summary.issues.append(e.description)
            case .device, .deletion:
                break
            }
        }
        summary.streams = d.streams.count
        summary.accounts = d.accounts
        summary.streamKeys = d.streams.map { $0.key.description }
        try sink.begin(recording: path)
        do {
            var beats = [[ResultValue]](), hr = [[ResultValue]](), hrv = [[ResultValue]](), quality = [[ResultValue]]()
            for k in analyzers.keys.sorted() {
                var a = analyzers[k]!
                let out = a.finish()
                beats += out.beats
                hr += out.heartRate
                hrv += out.hrv
                quality += out.quality
                summary.issues += a.issues.map { "\(a.streamName): \($0)" }
            }
            if !analyzers.isEmpty {
                try sink.write(ResultTables.beats, rows: beats)
                try sink.write(ResultTables.heartRate, rows: hr)
                try sink.write(ResultTables.hrv, rows: hrv)
                try sink.write(ResultTables.quality, rows: quality)
                summary.tables = [ResultTables.beats.name, ResultTables.heartRate.name, ResultTables.hrv.name,
                                  ResultTables.quality.name]
            }
            summary.beats = beats.count
            try beforeCommit(summary)
            try sink.commit()
        } catch {
            sink.rollback()
            throw error
        }
        return summary
    }
}

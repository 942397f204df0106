import Recordings

/// Runs every analysis that applies to a recording's streams and writes the result rows to a
/// sink in one transaction (all of the recording's rows, or none).
///
/// Each stream gets the chain ``AnalysisConfiguration/makeAnalyzer(for:)`` gives for its sensor
/// (ECG today: ``ECGAnalyzer``); streams without an analysis are decoded and accounted for.
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
        /// Keys of the streams, in the order of ``accounts``.
        public var keys: [StreamKey] = []
        /// Stream keys as written in the tables (`device/sensor/channel[/session]`).
        public var streamKeys: [String] { keys.map(\.description) }
        /// Sensors of the streams, in the order of ``accounts``.
        public var sensors: [SensorKind] { keys.map(\.sensor) }
        /// Samples read and rejected that belong to no stream
        /// (``RecordingDecoder/rejectedSamplesWithoutStream``).
        public var rejectedWithoutStream = 0

        /// Seconds of signal per sensor: per device, the streams of a sensor whose spans
        /// (first to last sample) overlap are one recording period and count once, with the
        /// largest ``StreamQC/coveredSeconds`` among them (so the wavelengths of one PPG
        /// recording are not counted three times); separate periods add up. The PPG temperature
        /// channel is auxiliary and not counted.
        /// - Complexity: O(streams · log streams).
        public var signalSecondsBySensor: [SensorKind: Double] {
            var spans = [String: [(first: Double, last: Double, covered: Double, sensor: SensorKind)]]()
            for (k, a) in accounts.enumerated() where k < keys.count {
                let key = keys[k]
                guard key.channel != "temperature", let first = a.firstTime, let last = a.lastTime else { continue }
                spans[key.deviceID + "\u{0}" + key.sensor.rawValue, default: []].append((first, last, a.coveredSeconds, key.sensor))
            }
            var out = [SensorKind: Double]()
            for list in spans.values {
                let sorted = list.sorted { $0.first < $1.first }
                var end = -Double.infinity, best = 0.0
                for s in sorted {
                    if s.first > end {            // a new period: close the previous one
                        out[s.sensor, default: 0] += best
                        best = 0
                    }
                    best = max(best, s.covered)
                    end = max(end, s.last)
                }
                if let sensor = sorted.first?.sensor { out[sensor, default: 0] += best }
            }
            return out
        }

        /// Streams whose samples do not balance (read = used + masked + duplicates + rejected),
        /// as readable lines; empty when every sample is accounted for.
        public var unbalancedAccounts: [String] {
            accounts.enumerated().compactMap { k, a in
                guard !a.isBalanced else { return nil }
                let key = k < keys.count ? keys[k].description : "stream \(k)"
                return "\(key): samples read \(a.samplesRead) ≠ used \(a.used) + masked \(a.masked) + duplicates "
                    + "\(a.duplicatesDropped) + rejected \(a.rejected)"
            }
        }
    }

    /// Decodes `path` and analyses it into `sink`.
    /// - Parameters:
    ///   - path: the recording.
    ///   - analysis: decoding and analysis options.
    ///   - sink: where rows go; committed at the end, rolled back on error.
    ///   - beforeCommit: called with the summary inside the sink's transaction, just before the
    ///     commit (the batch runner writes its bookkeeping rows here); its error rolls back.
    /// - Returns: a summary.
    /// - Throws: ``RecordingError`` from decoding, or the sink's errors.
    /// - Complexity: one pass over the samples; memory bounded by the block size plus beat lists.
    public static func run(path: String, analysis: AnalysisConfiguration, sink: ResultSink,
                           beforeCommit: (Summary) throws -> Void = { _ in }) throws -> Summary {
        let opened = try RecordingOpener.open(path: path, options: analysis.decode)
        let d = opened.decoder
        var analyzers = [Int: any StreamAnalyzer]()
        var summary = Summary()
        var announced = 0
        while let event = try d.next() {
            switch event {
            case .stream(_, let info):
                // A decoder may register several streams before announcing them (WFDB: every
                // signal of the header), so the index is found by key, not by `streams.count`.
                let index = d.streams.firstIndex { $0.key == info.key } ?? announced
                announced += 1
                if let a = analysis.makeAnalyzer(for: info) { analyzers[index] = a }
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
        summary.keys = d.streams.map(\.key)
        summary.rejectedWithoutStream = d.rejectedSamplesWithoutStream
        // Rows of all streams, table by table, tables in the order the analyzers list them.
        var tables: [(table: ResultTable, rows: [[ResultValue]])] = []
        for k in analyzers.keys.sorted() {
            var a = analyzers[k]!
            for (table, rows) in a.finishTables() {
                if let i = tables.firstIndex(where: { $0.table.name == table.name }) {
                    tables[i].rows += rows
                } else {
                    tables.append((table, rows))
                }
            }
            summary.issues += a.issues.map { "\(a.streamName): \($0)" }
        }
        summary.tables = tables.map(\.table.name)
        summary.beats = tables.first { $0.table.name == ResultTables.beats.name }?.rows.count ?? 0
        try sink.begin(recording: path)
        do {
            for (table, rows) in tables { try sink.write(table, rows: rows) }
            try beforeCommit(summary)
            try sink.commit()
        } catch {
            sink.rollback()
            throw error
        }
        return summary
    }
}

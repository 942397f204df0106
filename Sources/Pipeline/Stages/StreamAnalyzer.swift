import Cardio
import Foundation
import Recordings

/// The analysis chain of one decoded stream: it consumes the stream's blocks in order and, at the
/// end of the stream, yields rows of result tables.
///
/// Every sensor's chain conforms (ECG today: ``ECGAnalyzer``; PPG, motion and window features
/// plug in through ``AnalysisConfiguration/makeAnalyzer(for:)``). State that must survive
/// across blocks lives in the analyzer, so the rows never depend on block size; a segment
/// boundary (`SampleBlock.segment` changes, or `endsSegment`) resets whatever must not span a gap.
public protocol StreamAnalyzer {
    /// The stream's key as written in the tables' `stream` column.
    var streamName: String { get }
    /// Problems that left parts of the stream unanalysed (reported in `recordings.issues`).
    var issues: [String] { get }
    /// Feeds the stream's next block.
    /// - Complexity: O(block length) for every analyzer SensorPipe ships.
    mutating func consume(_ block: SampleBlock)
    /// Ends the stream and returns its result rows, table by table, in a fixed table order
    /// (tables with no rows are still listed, so every sink creates them).
    mutating func finishTables() -> [(table: ResultTable, rows: [[ResultValue]])]
}

extension ECGAnalyzer: StreamAnalyzer {
    /// The ECG tables: ``ResultTables/beats``, ``ResultTables/heartRate``, ``ResultTables/hrv``
    /// and ``ResultTables/quality``.
    public mutating func finishTables() -> [(table: ResultTable, rows: [[ResultValue]])] {
        let out = finish()
        return [(ResultTables.beats, out.beats), (ResultTables.heartRate, out.heartRate),
                (ResultTables.hrv, out.hrv), (ResultTables.quality, out.quality)]
    }
}

/// Every option that changes results: which analyses run on which streams, and their parameters.
/// Its canonical JSON (``canonicalJSON(softwareVersion:)``) is stored with each run and its hash
/// decides resuming.
public struct AnalysisConfiguration: Sendable {
    /// Decoder options (block size does not change results; the preset and mappings do).
    public var decode: DecodeOptions
    /// ECG analysis options.
    public var ecg: ECGAnalyzer.Options

    /// Creates a configuration (defaults: automatic decoding, default ECG options).
    public init(decode: DecodeOptions = DecodeOptions(), ecg: ECGAnalyzer.Options = ECGAnalyzer.Options()) {
        self.decode = decode
        self.ecg = ecg
    }

    /// The analyzer for a stream, or `nil` when no analysis applies to its sensor yet (the stream
    /// is still decoded and its samples accounted for in `streams`).
    /// - Parameter info: the stream as announced by its decoder.
    /// - Returns: a fresh analyzer.
    public func makeAnalyzer(for info: StreamInfo) -> (any StreamAnalyzer)? {
        switch info.key.sensor {
        case .electrocardiogram: return ECGAnalyzer(streamName: info.key.description, options: ecg)
        case .accelerometer, .rotationRate, .photoplethysmogram: return nil
        }
    }

    /// The configuration as canonical JSON (sorted keys, no whitespace), including the software
    /// version, since a new version may change results.
    /// - Parameter softwareVersion: `sensorpipe --version`.
    /// - Returns: JSON text.
    public func canonicalJSON(softwareVersion: String) -> String {
        let config: [String: Any] = [
            "software_version": softwareVersion,
            "ecg": [
                "heart_rate_window_s": ecg.heartRateWindowSeconds,
                "heart_rate_step_s": ecg.heartRateStepSeconds,
                "hrv_window_s": ecg.hrvWindowSeconds,
                "quality_window_s": ecg.qualityWindowSeconds,
            ],
            "decode": ["preset": decode.preset.map { "\($0.rawValue)" } ?? "auto"],
        ]
        let data = (try? JSONSerialization.data(withJSONObject: config, options: [.sortedKeys])) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }
}

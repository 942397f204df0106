/// Analyses one recording with every registered analysis family and returns its typed results:
/// `SensorPipe.analyze(path:)`.
///
/// ```swift
/// import SensorPipe
/// let results = try SensorPipe.analyze(path: "Datasets/ecg/watch-1_mitdb100_1716282000.ndjson.gz")
/// for ecg in results[ECGFamily.self] { print(ecg.streamName, ecg.meanHeartRateBPM ?? .nan, ecg.recordingHRV?.metrics[.rmssd] ?? .nan) }
/// ```
/// - Parameters:
///   - path: the recording (a WFDB record by its `.hea`); more files of the same recording
///     (SensorKit fetches of other sensors) in `alsoReading`.
///   - alsoReading: further files of the same recording, decoded side by side.
///   - configuration: decoding and analysis options (default: every default).
/// - Returns: the typed results of every family (``RecordingResults``).
/// - Throws: ``RecordingError`` naming the file and place when it cannot be decoded.
/// - Complexity: one pass over the samples.
public func analyze(
    path: String, alsoReading: [String] = [],
    configuration: AnalysisConfiguration = AnalysisConfiguration()
) throws -> RecordingResults {
    try RecordingAnalysis.results(of: RecordingInput(path: path, files: [path] + alsoReading), analysis: configuration)
}

import Signals

/// The typed results of a recording's motion analysis (`results[MotionFamily.self]`): the rows of
/// the motion tables, in emission order.
public struct MotionResults: Sendable {
    /// Streams the family analysed (accelerometers and rotation rates), in stream order.
    public var streams: [String]
    /// Epochs per accelerometer stream (`motion_epochs`).
    public var epochs: [Streamed<MotionEpoch>]
    /// One row per stream and day (`motion_daily`).
    public var daily: [Streamed<MotionDay>]
    /// The rest-activity rhythm per stream and resolution (`motion_rhythm`).
    public var rhythm: [Streamed<MotionRhythm>]
    /// Epochs of rotation-rate streams (`motion_rotation_epochs`).
    public var rotationEpochs: [Streamed<RotationEpoch>]
    /// Sleep per noon-to-noon window (`motion_nights`).
    public var nights: [Streamed<MotionNight>]
    /// One summary per stream (`motion_streams`).
    public var streamSummaries: [Streamed<MotionStreamSummary>]
    /// Problems that left parts unanalysed.
    public var issues: [AnalysisIssue]
}

extension MotionFamily: ResultsProvidingFamily {
    /// The motion rows of one recording, typed.
    /// - Parameter rows: the recording's rows.
    /// - Complexity: O(1) per table (the arrays are shared, not copied).
    public static func results(from rows: ResultRows) -> MotionResults {
        MotionResults(
            streams: rows.streamsByFamily[name] ?? [],
            epochs: rows.rows(MotionTables.epochs),
            daily: rows.rows(MotionTables.daily),
            rhythm: rows.rows(MotionTables.rhythm),
            rotationEpochs: rows.rows(MotionTables.rotationEpochs),
            nights: rows.rows(MotionTables.nights),
            streamSummaries: rows.rows(MotionTables.streams),
            issues: rows.issues.filter { $0.family == name })
    }
}

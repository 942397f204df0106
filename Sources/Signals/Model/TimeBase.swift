/// How the samples of a block map to time (Unix seconds, UTC).
///
/// Regularly sampled sources (ECG batches, WFDB records, Apple Health ECG) keep a **uniform**
/// time base: sample `k` of a segment is at `segmentStart + k / sampleRate`, computed from the
/// segment start every time so that no rounding accumulates over a day-long recording.
/// Irregular sources (SensorKit accelerometer, whose timestamps jitter around 50 Hz) keep every
/// timestamp **explicitly**, exactly as read. Regularising onto a grid is a separate, explicit
/// operation (``Regularizer``).
public enum TimeBase: Sendable, Hashable {
    /// Sample `k` of the segment is at `segmentStart + k / sampleRate` (s, Hz).
    case uniform(segmentStart: Double, sampleRate: Double)
    /// One timestamp per sample of the block (Unix s), non-decreasing within a segment.
    case explicit([Double])
}

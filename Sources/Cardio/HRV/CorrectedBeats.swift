/// A beat series after artefact correction (``LipponenTarvainenCorrection``), with how each beat
/// was corrected and every artefact found.
public struct CorrectedBeats: Sendable, Equatable {
    /// Corrected beat times, seconds, increasing.
    public var beatTimesSeconds: [Double]
    /// One flag set per corrected beat (empty for a beat left as detected).
    public var corrections: [BeatCorrection]
    /// The artefacts found in each pass, indices into that pass's input (pass 0: the beats as
    /// given).
    public var detections: [[ArtifactDetection]]

    /// Creates a result from its parts.
    /// - Parameters:
    ///   - beatTimesSeconds: corrected beat times in seconds.
    ///   - corrections: one flag set per beat.
    ///   - detections: detections per pass.
    /// - Complexity: O(1).
    public init(beatTimesSeconds: [Double], corrections: [BeatCorrection], detections: [[ArtifactDetection]]) {
        precondition(beatTimesSeconds.count == corrections.count, "one flag set per beat")
        self.beatTimesSeconds = beatTimesSeconds
        self.corrections = corrections
        self.detections = detections
    }

    /// Number of beats that were moved, inserted or follow a removed beat.
    /// - Complexity: O(n).
    public var correctedBeatCount: Int { corrections.filter { !$0.isEmpty }.count }

    /// The corrected beats as NN intervals (ms); the flags of interval `i` are those of its
    /// closing beat `i + 1` (see ``corrections``).
    /// - Returns: the series.
    /// - Throws: ``HRVError`` if fewer than 3 beats remain.
    /// - Complexity: O(n).
    public func nnSeries() throws(HRVError) -> NNIntervalSeries {
        try NNIntervalSeries(beatTimesSeconds: beatTimesSeconds)
    }
}

/// One artefact found in one detection pass.
public struct ArtifactDetection: Sendable, Hashable {
    /// Index of the beat (R-peak) in that pass's input: interval `i` ends at beat `i`.
    public var beatIndex: Int
    /// What was found.
    public var kind: BeatArtifact
    /// Time of that beat in the pass's input, seconds.
    public var timeSeconds: Double

    /// Creates a detection record.
    /// - Parameters:
    ///   - beatIndex: beat index in the pass's input.
    ///   - kind: the artefact kind.
    ///   - timeSeconds: the beat's time in seconds.
    /// - Complexity: O(1).
    public init(beatIndex: Int, kind: BeatArtifact, timeSeconds: Double) {
        self.beatIndex = beatIndex
        self.kind = kind
        self.timeSeconds = timeSeconds
    }
}

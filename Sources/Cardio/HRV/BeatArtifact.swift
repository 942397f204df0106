/// The kind of an artefact found by ``LipponenTarvainenCorrection`` (Lipponen & Tarvainen 2019).
public enum BeatArtifact: String, Sendable, Hashable, CaseIterable {
    /// An ectopic beat: a short–long (or long–short) pair of intervals, corrected by moving the
    /// beat to the middle of its neighbours.
    case ectopic
    /// A missed beat: an interval about twice the local median, corrected by inserting a beat
    /// in its middle.
    case missed
    /// An extra (false) beat: two short intervals adding up to about the local median,
    /// corrected by removing the beat.
    case extra
    /// A long or short interval that is neither of the above, corrected like an ectopic beat.
    case longShort
}

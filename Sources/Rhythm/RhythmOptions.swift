/// Options of the rhythm family.
public struct RhythmOptions: Sendable, Hashable {
    /// A stream at most this long (s) is one window (a Watch strip, a CinC record: 65 s covers
    /// CinC 2017's 61-s maximum and Apple's 30-s strips); longer streams get ``windowSeconds``
    /// windows from the stream start.
    public var singleWindowMaxSeconds = 65.0
    /// Window length of longer streams, s (Apple's 30-s strip; the 30-s episode definition).
    public var windowSeconds = 30.0
    /// Fewer kept RR intervals than this make a window `insufficient`.
    public var minimumIntervals = 6.0
    /// Consecutive af windows shorter than this (s) are no episode (the clinical 30-s
    /// definition, Hindricks et al. 2020).
    public var episodeMinimumSeconds = 30.0

    /// Defaults.
    public init() {}
}

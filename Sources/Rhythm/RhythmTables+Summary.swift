import Signals

extension RhythmWindowRow: SummaryContributing {
    /// A window labelled sinus, af or other: its assessed time, its share in AF (weighted by its
    /// length) and a zero episode count (so a day assessed without episodes counts 0, not
    /// empty); noisy and insufficient windows give none.
    public var summaryFacts: [SummaryFact] {
        guard label == .sinus || label == .af || label == .other else { return [] }
        let seconds = endSeconds - startSeconds
        func fact(_ figure: String, _ value: Double, weight: Double = 1) -> SummaryFact {
            SummaryFact(
                family: RhythmFamily.name, stream: stream, startSeconds: startSeconds, endSeconds: endSeconds, figure: figure,
                value: value, weight: weight)
        }
        return [
            fact("rhythm_assessed_hours", seconds / 3600), fact("af_burden", label == .af ? 1 : 0, weight: seconds),
            fact("af_episodes", 0),
        ]
    }
}

extension RhythmEpisodeRow: SummaryContributing {
    /// One episode, counted on its onset's day, and its length in minutes.
    public var summaryFacts: [SummaryFact] {
        [
            SummaryFact(
                family: RhythmFamily.name, stream: stream, startSeconds: onsetSeconds, endSeconds: onsetSeconds,
                figure: "af_episodes", value: 1),
            SummaryFact(
                family: RhythmFamily.name, stream: stream, startSeconds: onsetSeconds, endSeconds: offsetSeconds,
                figure: "af_longest_episode_min", value: durationSeconds / 60),
        ]
    }
}

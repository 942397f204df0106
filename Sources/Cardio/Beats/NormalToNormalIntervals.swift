/// Normal-to-normal (NN) intervals from classified beats: only intervals whose two beats are both
/// classified normal (Task Force of the ESC and NASPE, "Heart rate variability: standards of
/// measurement, physiological interpretation and clinical use", Circulation 93(5):1043–1065, 1996,
/// doi:10.1161/01.CIR.93.5.1043: "NN" are intervals between adjacent QRS complexes resulting
/// from sinus node depolarisations), within a physiological range, with the excluded intervals
/// counted by reason.
///
/// The result's times feed ``NNIntervalSeries/init(intervalsMilliseconds:closingBeatTimesSeconds:)``,
/// which recognises the gaps left by excluded intervals (RMSSD then uses adjacent pairs only).
/// The Lipponen–Tarvainen correction of missed and extra detections is a separate step
/// (``LipponenTarvainenCorrection``) and is not applied here.
public struct NormalToNormalIntervals: Sendable, Equatable {
    /// NN intervals, milliseconds.
    public var intervalsMilliseconds: [Double] = []
    /// Time of the beat closing each interval, seconds from the stream start.
    public var closingBeatTimesSeconds: [Double] = []
    /// Intervals between consecutive beats considered (`beats.count − 1`).
    public var totalIntervals = 0
    /// Intervals left out because a beat is not normal (S, V or Q).
    public var excludedNonNormal = 0
    /// Intervals between two normal beats left out for lying outside the range.
    public var excludedOutOfRange = 0
    /// Intervals across a gap of masked samples (the later beat has no RR before).
    public var excludedGap = 0

    /// Default physiological range of an NN interval, milliseconds (30–200 bpm).
    public static let defaultRangeMilliseconds: ClosedRange<Double> = 300...2000

    /// Selects the NN intervals of `beats`.
    /// - Parameters:
    ///   - beats: classified beats in order (``BeatClassifier`` output).
    ///   - sampleRate: Hz of the sample indices in `beats`.
    ///   - rangeMilliseconds: accepted interval range, ms (default 300…2000).
    /// - Complexity: O(beats.count).
    public init(
        _ beats: [ClassifiedBeat], sampleRate: Double,
        rangeMilliseconds: ClosedRange<Double> = defaultRangeMilliseconds
    ) {
        precondition(sampleRate > 0, "sample rate \(sampleRate)")
        guard beats.count >= 2 else { return }
        totalIntervals = beats.count - 1
        for i in 1..<beats.count {
            let a = beats[i - 1], b = beats[i]
            guard a.beatClass == .normal && b.beatClass == .normal else {
                excludedNonNormal += 1
                continue
            }
            guard b.features.rrPreviousSeconds != nil else {
                excludedGap += 1
                continue
            }
            let ms = Double(b.sample - a.sample) * 1000 / sampleRate
            guard rangeMilliseconds.contains(ms) else {
                excludedOutOfRange += 1
                continue
            }
            intervalsMilliseconds.append(ms)
            closingBeatTimesSeconds.append(Double(b.sample) / sampleRate)
        }
    }

    /// The intervals as an HRV series (gaps recognised from the times).
    /// - Throws: ``HRVError`` when fewer than 2 intervals remain.
    /// - Complexity: O(n).
    public func series() throws(HRVError) -> NNIntervalSeries {
        try NNIntervalSeries(intervalsMilliseconds: intervalsMilliseconds, closingBeatTimesSeconds: closingBeatTimesSeconds)
    }
}

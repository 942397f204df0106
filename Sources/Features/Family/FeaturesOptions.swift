import DSP
import Signals

/// Options of the features family.
public struct FeaturesOptions: Sendable, Hashable {
    /// Whether every raw stream (accelerometer, rotation rate, ECG, PPG, …) gets the catalog over
    /// its windows: off by default, because at study scale it is most of a batch's time and of its
    /// rows (docs/RESULTS.md, "Rows and bytes per participant-day"); the derived series
    /// (``derivedSeries``) keep theirs. `--features-raw true` turns it on.
    public var rawStreams = false
    /// Windowing of the raw streams.
    public var windowing = FeatureWindowing()
    /// Window length and step of the derived series (NN intervals, heart rate, ENMO), s:
    /// 5 minutes by default (HRV's short-term window, Task Force 1996), enough values for
    /// the catalog (about 300 NN intervals, 30 heart-rate windows, 60 ENMO epochs).
    public var derivedWindowSeconds = 300.0
    public var derivedStepSeconds = 300.0
    /// Whether the derived series get features.
    public var derivedSeries = true
    /// Which groups (a ``FeaturesFamily/catalogChoices`` word).
    public var catalog = "default"
    /// Welch segment in s.
    public var welchSegmentSeconds = 10.0
    /// Lag of `acf_<ms>ms` in s.
    public var autocorrelationLagSeconds = 1.0

    /// Defaults.
    public init() {}

    /// The groups ``catalog`` names (empty for `none`).
    public var groups: Set<FeatureGroup> {
        if catalog == "default" { return FeatureGroup.defaultGroups }
        if catalog == "all" { return Set(FeatureGroup.allCases) }
        if catalog == "none" { return [] }
        return Set(catalog.split(separator: "+").compactMap { FeatureGroup(rawValue: String($0)) })
    }

    /// The windowing of the derived series: ``derivedWindowSeconds``, ``derivedStepSeconds``,
    /// the raw streams' alignment and minimum valid fraction.
    public var derivedWindowing: FeatureWindowing {
        FeatureWindowing(
            lengthSeconds: derivedWindowSeconds, stepSeconds: derivedStepSeconds,
            alignsToClock: windowing.alignsToClock, minimumValidFraction: windowing.minimumValidFraction)
    }

    /// The extractor configuration.
    public var configuration: FeatureExtractor.Configuration {
        FeatureExtractor.Configuration(
            groups: groups, welchSegmentSeconds: welchSegmentSeconds,
            autocorrelationLagSeconds: autocorrelationLagSeconds)
    }
}

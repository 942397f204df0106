import DSP

/// The typed results of one ECG stream's analysis (``ECGAnalyzer/finishResults()``): beats,
/// heart rate per window, HRV and signal quality, with the problems that left parts unanalysed.
///
/// These are the values behind the result tables (``ResultTables``): each array holds exactly
/// the rows of its table, in the same order, with the same values; a table writes `null` where a
/// typed value is `nil` or not finite. Times are Unix seconds when the recording carries absolute
/// time, otherwise seconds from the stream's start. `==` compares values as `Double` does, so
/// results holding NaN (an HRV metric or quality index that is not computable) never compare
/// equal, not even to themselves.
///
/// ```swift
/// let results = analyzer.finishResults()
/// print(results.beats.count, results.meanHeartRateBPM ?? .nan)
/// if let hrv = results.recordingHRV { print(hrv.metrics["SDNN"] ?? .nan, hrv.metrics["RMSSD"] ?? .nan) }
/// ```
public struct ECGResults: Sendable, Equatable {
    /// The stream's key (`device/sensor/channel[/session]`), as in the tables' `stream` column.
    public var streamName: String
    /// Every beat in time order: detected, inserted by artefact correction, or removed as extra
    /// (rows of ``ResultTables/beats``).
    public var beats: [ECGBeat]
    /// Heart rate per window, in time order (rows of ``ResultTables/heartRate``).
    public var heartRate: [HeartRateWindow]
    /// HRV per window, then one result for the whole stream (rows of ``ResultTables/hrv``).
    /// Empty with fewer than two NN intervals.
    public var hrv: [HRVResult]
    /// Signal quality per window, in time order (rows of ``ResultTables/quality``).
    public var quality: [ECGQualityResult]
    /// Problems that made parts of the stream unanalysable (irregular timestamps, a sample rate
    /// outside the detector's range), one line each.
    public var issues: [String]

    /// The HRV of the whole stream (the result with scope `.recording`), or `nil` with fewer
    /// than two NN intervals.
    /// - Complexity: O(1) (it is the last element of ``hrv``).
    public var recordingHRV: HRVResult? {
        hrv.last.flatMap { $0.scope == .recording ? $0 : nil }
    }

    /// Mean heart rate, beats per minute: 60000 / the mean of the beats' NN intervals (ms), or
    /// `nil` when the stream has no NN interval. The same, up to rounding, as 60000 / `MeanNN`
    /// of ``recordingHRV``.
    /// - Complexity: O(beats).
    public var meanHeartRateBPM: Double? {
        var sum = 0.0, count = 0
        for b in beats {
            if let nn = b.nnMilliseconds {
                sum += nn
                count += 1
            }
        }
        return count > 0 ? 60000 / (sum / Double(count)) : nil
    }
}

/// One beat of an ECG stream: a detected R-peak (possibly moved by artefact correction), a beat
/// inserted by the correction, or a detected beat the correction removed as extra (kept and
/// flagged, never silently dropped). One row of ``ResultTables/beats``.
public struct ECGBeat: Sendable, Hashable {
    /// Beat time, seconds; for a corrected beat, the corrected time.
    public var timeSeconds: Double
    /// Index of the detected R apex within its segment (samples from the segment's first
    /// sample), or `nil` for an inserted beat.
    public var sampleIndex: Int?
    /// Segment number within the stream (no interval spans two segments).
    public var segment: Int
    /// Interval from the previous detected beat of the same segment, milliseconds; `nil` for the
    /// first detected beat of a segment and for inserted beats.
    public var rrMilliseconds: Double?
    /// Interval from the previous beat after artefact correction, milliseconds; `nil` for the
    /// first beat of a segment and for a beat removed as extra.
    public var nnMilliseconds: Double?
    /// Instantaneous heart rate 60000 / ``nnMilliseconds``, beats per minute; `nil` when
    /// ``nnMilliseconds`` is `nil` or the rate is not finite.
    public var heartRateBPM: Double?
    /// The artefact Lipponen & Tarvainen (2019) found at this detected beat, or `nil`.
    public var artefact: BeatArtifact?
    /// What the correction did to this beat (empty for an untouched or removed beat).
    public var corrections: BeatCorrection
    /// Whether the correction removed this detected beat as extra (it then has no NN interval).
    public var isRemovedExtra: Bool
    /// The label of the quality window holding the beat, or `nil` outside assessed windows.
    public var qualityLabel: ECGQualityLabel?
}

/// Mean heart rate in one window of an ECG stream (one row of ``ResultTables/heartRate``).
/// Windows are aligned to the stream's first sample and cover it up to its last sample.
public struct HeartRateWindow: Sendable, Hashable {
    /// Window start, seconds.
    public var startSeconds: Double
    /// Window end (exclusive), seconds.
    public var endSeconds: Double
    /// 60000 / the mean NN interval (ms) of the intervals ending in the window, beats per
    /// minute; `nil` with fewer than two intervals.
    public var heartRateBPM: Double?
    /// NN intervals ending in the window.
    public var intervalCount: Int
}

/// HRV of one window of an ECG stream's NN intervals, or of the whole stream (one row of
/// ``ResultTables/hrv``). Computed by ``HRVAnalysis`` (Task Force 1996; NeuroKit2 names).
public struct HRVResult: Sendable, Equatable {
    /// What the result covers.
    public enum Scope: String, Sendable, Hashable {
        /// One window of ``ECGAnalyzer/Options/hrvWindowSeconds`` (default 5 minutes).
        case window
        /// The whole stream.
        case recording
    }

    /// Start, seconds: the window start, or for the whole stream the beat that opens its first
    /// NN interval.
    public var startSeconds: Double
    /// End, seconds: the window end, or for the whole stream its last beat.
    public var endSeconds: Double
    /// Window or whole stream.
    public var scope: Scope
    /// Every metric, in ``HRVAnalysis/metricNames`` order (`MeanNN`, `SDNN` and `RMSSD` in ms, …;
    /// units in `docs/RESULTS.md`); NaN where not computable.
    public var metrics: HRVMetrics
    /// NN intervals the result covers.
    public var intervalCount: Int
}

/// The signal quality of one window of an ECG stream (one row of ``ResultTables/quality``): the
/// values of ``ECGQualityWindow`` that the tables keep (Li et al. 2008; Orphanidou et al. 2015;
/// Zhao & Zhang 2018). Index values are NaN where not computable.
public struct ECGQualityResult: Sendable, Hashable {
    /// Window start, seconds.
    public var startSeconds: Double
    /// Window end (exclusive), seconds.
    public var endSeconds: Double
    /// Zhao & Zhang (2018) heuristic fusion label (unacceptable when too many samples are masked).
    public var label: ECGQualityLabel
    /// Zhao & Zhang (2018) fuzzy comprehensive evaluation label.
    public var fuzzyLabel: ECGQualityLabel
    /// kSQI: Pearson kurtosis of the unmasked samples (Gaussian 3; clean ECG > 5).
    public var kurtosis: Double
    /// sSQI: skewness of the unmasked samples.
    public var skewness: Double
    /// pSQI: power in 5–15 Hz over power in 5–40 Hz, 0…1.
    public var pSQI: Double
    /// basSQI: 1 − power in 0–1 Hz over power in 0–40 Hz, 0…1.
    public var basSQI: Double
    /// bSQI: agreement of this analysis' beats with Elgendi's detector within 150 ms, 0…1.
    public var bSQI: Double
    /// Mean correlation of the beats with their average template (Orphanidou et al. 2015).
    public var templateCorrelation: Double
    /// Whether Orphanidou's feasibility rules hold and the correlation is at least 0.66.
    public var isTemplateAcceptable: Bool
    /// The fuzzy evaluation's score.
    public var fuzzyScore: Double
    /// Share of masked samples in the window, 0…1.
    public var maskedFraction: Double
    /// Beats of this analysis in the window (unmasked ones).
    public var beatCount: Int
}

import DSP

/// The typed results of one ECG stream's analysis (``ECGAnalyzer/finishResults()``): beats,
/// heart rate per window, HRV and signal quality, with the problems that left parts unanalysed.
///
/// These are the values behind the ECG result tables (``ECGTables``): each array holds exactly
/// the rows of its table, in the same order, with the same values; a table writes `null` where a
/// typed value is `nil` or not finite. Times are Unix seconds when the recording carries absolute
/// time, otherwise seconds from the stream's start. `==` compares values as `Double` does, so
/// results holding NaN (an HRV metric or quality index that is not computable) never compare
/// equal, not even to themselves.
///
/// ```swift
/// let results = analyzer.finishResults()
/// print(results.beats.count, results.meanHeartRateBPM ?? .nan)
/// if let hrv = results.recordingHRV { print(hrv.metrics[.sdnn] ?? .nan, hrv.metrics[.rmssd] ?? .nan) }
/// ```
public struct ECGResults: Sendable, Equatable {
    /// The stream's key (`device/sensor/channel[/session]`), as in the tables' `stream` column.
    public var streamName: String
    /// Every beat in time order: detected, inserted by artefact correction, or removed as extra
    /// (rows of the `beats` table).
    public var beats: [ECGBeat]
    /// Heart rate per window, in time order (rows of `heart_rate`).
    public var heartRate: [HeartRateWindow]
    /// HRV per window, then one result for the whole stream (rows of `hrv`).
    /// Empty with fewer than two NN intervals.
    public var hrv: [HRVResult]
    /// Signal quality per window, in time order (rows of `quality`).
    public var quality: [ECGQualityResult]
    /// Problems that made parts of the stream unanalysable (irregular timestamps, a sample rate
    /// outside the detector's range), one line each.
    public var issues: [String]
    /// The stream's summary figures (the `ecg_summary` row), or `nil` before the analysis ended.
    public var summary: ECGSummary?

    /// Creates results from their parts.
    public init(
        streamName: String, beats: [ECGBeat], heartRate: [HeartRateWindow], hrv: [HRVResult],
        quality: [ECGQualityResult], issues: [String], summary: ECGSummary? = nil
    ) {
        self.summary = summary
        self.streamName = streamName
        self.beats = beats
        self.heartRate = heartRate
        self.hrv = hrv
        self.quality = quality
        self.issues = issues
    }

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

/// One beat of an ECG stream: a ``SeriesBeat`` of the beat series (detected, inserted or removed
/// as extra; its fields are reachable directly, e.g. `beat.detectionTimeSeconds`) with the label
/// of the quality window it lies in. One row of the `beats` table.
@dynamicMemberLookup
public struct ECGBeat: Sendable, Hashable {
    /// The beat as the beat series gives it.
    public var beat: SeriesBeat
    /// The label of the quality window holding the beat's listed time
    /// (``SeriesBeat/listedTimeSeconds``), or `nil` outside assessed windows.
    public var qualityLabel: ECGQualityLabel?

    /// Pairs a beat with its quality label.
    public init(beat: SeriesBeat, qualityLabel: ECGQualityLabel?) {
        self.beat = beat
        self.qualityLabel = qualityLabel
    }

    /// The beat series' fields.
    public subscript<T>(dynamicMember path: KeyPath<SeriesBeat, T>) -> T { beat[keyPath: path] }
}

/// The signal quality of one window of an ECG stream (one row of the `quality` table): the
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

import Signals

/// The PPG family's own table (the beat-series tables, with `source` = ppg, are
/// ``BeatSeriesTables``).
public enum PPGTables {
    /// PPG quality per window (the heart-rate windows).
    public static let quality = TableSchema<Streamed<PPGQualityResult>>(
        name: "ppg_quality", summary: "PPG signal-quality indices and label per window",
        columns: [
            .init("stream", .text, "stream key of the channel assessed") { .text($0.stream) },
            .init("window_start", .real, unit: "s", "window start") { .real($0.value.startSeconds) },
            .init("window_end", .real, unit: "s", "window end (exclusive)") { .real($0.value.endSeconds) },
            .init("label", .text, "good, acceptable or unacceptable") { .text($0.value.label.rawValue) },
            .init("skewness", .real, "skewness SQI of the 0.4–4 Hz band-passed pulse channel (Elgendi 2016)") {
                .finite($0.value.skewness)
            },
            .init("perfusion_index", .real, unit: "%", "pulsatile / mean raw level × 100; empty when the raw level is not positive") {
                .finite($0.value.perfusionIndex)
            },
            .init("template_correlation", .real, "mean correlation of the pulses with their average template (Orphanidou et al. 2015)") {
                .finite($0.value.templateCorrelation)
            },
            .init("in_band_power", .real, "power within ±0.2 Hz of the window's heart rate and its 2nd harmonic / power 0.4–4 Hz, 0–1") {
                .finite($0.value.inBandPower)
            },
            .init("acceleration_rms", .real, unit: "g", "RMS of the 0.4–4 Hz band-passed acceleration vector; empty without accelerometer")
            {
                .finite($0.value.accelerationRMS)
            },
            .init("masked_fraction", .real, "share of masked samples in the window") { .finite($0.value.maskedFraction) },
            .init("pulses", .integer, "systolic peaks detected in the window") { .integer($0.value.pulseCount) },
        ])
}

/// PPG quality label of a window.
public enum PPGQualityLabel: String, Sendable, Hashable, CaseIterable {
    /// Usable for beat-to-beat analysis.
    case good
    /// Usable for heart rate, not for beat-to-beat analysis.
    case acceptable
    /// Not usable.
    case unacceptable
}

/// The quality of one PPG window (one row of `ppg_quality`); indices are NaN where not
/// computable.
public struct PPGQualityResult: Sendable, Hashable {
    /// Window start, seconds.
    public var startSeconds: Double
    /// Window end (exclusive), seconds.
    public var endSeconds: Double
    /// The label.
    public var label: PPGQualityLabel
    /// Skewness SQI (Elgendi 2016).
    public var skewness: Double
    /// Perfusion index, percent.
    public var perfusionIndex: Double
    /// Template correlation (Orphanidou et al. 2015).
    public var templateCorrelation: Double
    /// Relative in-band power, 0…1.
    public var inBandPower: Double
    /// Accelerometer RMS, g.
    public var accelerationRMS: Double
    /// Share of masked samples.
    public var maskedFraction: Double
    /// Pulses in the window.
    public var pulseCount: Int
    /// Whether an `unacceptable` window fails only the interval-ratio rule (longest / shortest
    /// interval < 2.2: a missed pulse, ectopic beats, atrial fibrillation), its pulse shapes
    /// intact (``PPGQuality``); published as the pulses' `unacceptable_cause` `rhythm`.
    var rhythmOnly = false
    /// Start of the window's central step, seconds: the stretch its label stands for (a beat
    /// there takes this label; the windows overlap, the central steps tile the time).
    public var labelStartSeconds = Double.nan
    /// Unmasked time of the central step, seconds: what the summary counts as assessed (a
    /// window reaching past a short recording's end covers time without data).
    public var labelSeconds = 0.0
}

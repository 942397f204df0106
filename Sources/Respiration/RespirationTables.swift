import Signals

/// The respiration family's table and summary figures.
public enum RespirationTables {
    /// Breathing rate per window, stream and source.
    public static let respiration = TableSchema<Streamed<RespirationWindow>>(
        name: "respiration", summary: "breathing rate per window from the ECG beats, the PPG pulses and their fusion",
        columns: [
            .init(
                "stream", .text,
                "stream key of the ECG lead or optical stream; fused rows: the first (in key order) stream that gave the window a source row"
            ) { .text($0.stream) },
            .init("source", .text, "ecg, ppg or fused") { .text($0.value.source.rawValue) },
            .init("window_start", .real, unit: "s", "window start (multiples of the window length on the stream's time scale)") {
                .real($0.value.startSeconds)
            },
            .init("window_end", .real, unit: "s", "window end (exclusive)") { .real($0.value.endSeconds) },
            .init(
                "breaths_per_min", .real, unit: "1/min",
                "breathing rate: the mean of the used modulation rates when two or more pass quality and their standard deviation is below the agreement limit (Karlen et al. 2013 smart fusion); fused: the ECG rate, the PPG rate, or their mean when both exist and agree by the same rule; empty otherwise"
            ) { .finite($0.value.breathsPerMinute) },
            .init(
                "quality", .real,
                "mean spectral purity (share of the 0.05–1 Hz power within ±2/window of the peak) of the modulations that pass the purity gate, 0–1 (also when they disagree); fused: mean over the sources with a rate; empty when none"
            ) { .finite($0.value.quality) },
            .init("rate_amplitude", .real, unit: "1/min", "rate of the amplitude modulation (ECG R above baseline; PPG RIAV) when used") {
                .finite($0.value.used[RespirationModulation.amplitude.rawValue])
            },
            .init(
                "rate_frequency", .real, unit: "1/min", "rate of the frequency modulation (ECG RSA from RR intervals; PPG RIFV) when used"
            ) { .finite($0.value.used[RespirationModulation.frequency.rawValue]) },
            .init("rate_intensity", .real, unit: "1/min", "rate of the PPG intensity modulation (RIIV: mean of peak and foot) when used") {
                .finite($0.value.used[RespirationModulation.intensity.rawValue])
            },
            .init("rate_qrs_area", .real, unit: "1/min", "rate of the ECG QRS-area modulation when used") {
                .finite($0.value.used[RespirationModulation.qrsArea.rawValue])
            },
            .init("rate_ecg", .real, unit: "1/min", "fused rows: the ECG rate used (mean over the leads with a rate)") {
                .finite($0.value.used[RespirationSource.ecg.rawValue])
            },
            .init("rate_ppg", .real, unit: "1/min", "fused rows: the PPG rate used (mean over the optical streams with a rate)") {
                .finite($0.value.used[RespirationSource.ppg.rawValue])
            },
            .init(
                "method", .text,
                "spectral_peak+smart_fusion: periodogram peak 0.1–0.7 Hz of each modulation resampled to the grid and band-passed, fused as Karlen et al. 2013"
            ) { _ in .text(RespirationFamily.method) },
            .init("null_reason", .text, "why breaths_per_min is empty, else empty") { .optional($0.value.nullReason) },
        ])

    /// The summary figures of family `respiration`, from the fused rows.
    public static let summaryFigures = [
        SummaryFigure(
            family: RespirationFamily.name, name: "mean_breaths_per_min", unit: "1/min",
            meaning: "mean breathing rate over the fused respiration windows with a rate (a window counts on the day it starts)",
            aggregation: .mean, sourceTable: "respiration", sourceColumn: "breaths_per_min"),
        SummaryFigure(
            family: RespirationFamily.name, name: "rate_share",
            meaning: "share of the fused respiration windows that have a breathing rate",
            aggregation: .share, sourceTable: "respiration", sourceColumn: "breaths_per_min"),
    ]
}

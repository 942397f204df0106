import Signals

/// The respiration family's table and summary figures.
public enum RespirationTables {
    /// Breathing rate per window, stream and source.
    public static let respiration = TableSchema<Streamed<RespirationWindow>>(
        name: "respiration", summary: "breathing rate per window from the ECG beats, the PPG pulses and their fusion",
        columns: [
            .init(
                "stream", .text,
                "stream key of the ECG lead, optical stream or accelerometer; fused rows: the first (in key order) stream that gave the window a source row"
            ) { .text($0.stream) },
            .init("source", .text, "ecg, ppg, fused or accelerometer (with the accelerometer option; not validated, never fused)") {
                .text($0.value.source.rawValue)
            },
            .init("window_start", .real, unit: "s", "window start (multiples of the window length on the stream's time scale)") {
                .real($0.value.startSeconds)
            },
            .init("window_end", .real, unit: "s", "window end (exclusive)") { .real($0.value.endSeconds) },
            .init(
                "breaths_per_min", .real, unit: "1/min",
                "breathing rate: the mean of the used modulation rates when two or more pass quality (spectral purity, autocorrelation at the rate's period, breath count agreeing with the spectral peak) and their standard deviation is below the agreement limit (Karlen et al. 2013 smart fusion); fused: the same rule over every ECG and PPG modulation that passed quality in the window (one modulation of one source counted once; with three or more that disagree, the one furthest from their median left out until they agree or two remain); empty otherwise"
            ) { .finite($0.value.breathsPerMinute) },
            .init(
                "quality", .real,
                "mean spectral purity (share of the 0.05–1 Hz power within ±2/window of the peak) of the modulations that pass quality, 0–1 (also when they disagree); fused: mean over the modulations fused; empty when none"
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
            .init(
                "rate_ecg", .real, unit: "1/min",
                "fused rows: the mean of the ECG modulation rates the fusion kept (the beat-interval modulation, one whether the ECG or the PPG times it, counts here when an ECG lead gives it)"
            ) {
                .finite($0.value.used[RespirationSource.ecg.rawValue])
            },
            .init("rate_ppg", .real, unit: "1/min", "fused rows: the mean of the PPG modulation rates the fusion kept") {
                .finite($0.value.used[RespirationSource.ppg.rawValue])
            },
            .init(
                "method", .text,
                "spectral_peak+smart_fusion: periodogram peak 0.1–0.7 Hz of each modulation resampled to the grid and band-passed, gated by respiratory quality indices (Birrenkott et al. 2016; Schäfer & Kratky 2008), fused as Karlen et al. 2013; principal_axis+spectral_peak (accelerometer rows): the same peak and indices on a still accelerometer's principal axis (Bates et al. 2010)"
            ) { .text($0.value.source == .accelerometer ? RespirationFamily.accelerometerMethod : RespirationFamily.method) },
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

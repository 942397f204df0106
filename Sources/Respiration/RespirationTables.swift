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
                "breathing rate: the peak of the modulations' fused spectrum (mean of their normalised periodograms over the window and its neighbours within the spectral span (default two windows each side)) when its concentration (quality) or its local concentration (the share of the fused spectrum within ±3/window Hz of the peak that lies within ±1/(2·window) Hz of it) reaches the source's threshold for that index (option rate_bands, default on: lowered above 12, 16 and 20 breaths/min to the no-breathing maxima of peaks there) or (option joint_index, default on) the product of the two reaches its no-breathing maximum at the peak's rate band, or else (option modulation_indices, default off) the peak of the product of the modulations' spectra (fused rows of both sources) or of the single modulation whose own spectrum's peak is the most concentrated reaches that index's no-breathing threshold (method spectral_fusion); else the mean of the used modulation rates when two or more pass quality (spectral purity, autocorrelation at the rate's period, breath count agreeing with the spectral peak) and their standard deviation is below the agreement limit (Karlen et al. 2013 smart fusion); fused: the same rule over every ECG and PPG modulation that passed quality in the window (one modulation of one source counted once; with three or more that disagree, the one furthest from their median left out until they agree or two remain; the spectral threshold is the ECG's or the PPG's when the window's spectra are of that source only), and when neither gives a rate the mean of the window's ECG and PPG rows' rates if they agree (standard deviation below the agreement limit; method agreeing_sources); empty otherwise"
            ) { .finite($0.value.breathsPerMinute) },
            .init(
                "quality", .real,
                "peak concentration of the fused spectrum: the share of the mean normalised 0.05–1 Hz periodogram of the row's modulations (window and its neighbours within the spectral span, default two each side) within ±1/(2·window) Hz of its peak, 0–1 (about 0.2 or less for beats without breathing; a rate given by the local concentration, or by a peak above 12 breaths/min where the rate bands lower the threshold (to 0.16 above 20), can have a lower quality); empty when the window has fewer than two modulations; fused rows of method agreeing_sources: the mean quality of the source rows whose rates they average; accelerometer rows: spectral purity"
            ) { .finite($0.value.quality) },
            .init(
                "rate_amplitude", .real, unit: "1/min",
                "rate of the amplitude modulation (ECG R above baseline; PPG RIAV) when used (spectral_fusion rows: its own periodogram peak in the window)"
            ) {
                .finite($0.value.used[RespirationModulation.amplitude.rawValue])
            },
            .init(
                "rate_frequency", .real, unit: "1/min",
                "rate of the frequency modulation (ECG RSA from RR intervals; PPG RIFV) when used (spectral_fusion rows: its own periodogram peak in the window)"
            ) { .finite($0.value.used[RespirationModulation.frequency.rawValue]) },
            .init(
                "rate_intensity", .real, unit: "1/min",
                "rate of the PPG intensity modulation (RIIV: mean of peak and foot) when used (spectral_fusion rows: its own periodogram peak in the window)"
            ) {
                .finite($0.value.used[RespirationModulation.intensity.rawValue])
            },
            .init(
                "rate_qrs_area", .real, unit: "1/min",
                "rate of the ECG QRS-area modulation when used (spectral_fusion rows: its own periodogram peak in the window)"
            ) {
                .finite($0.value.used[RespirationModulation.qrsArea.rawValue])
            },
            .init(
                "rate_ecg", .real, unit: "1/min",
                "fused rows: the mean of the ECG modulation rates the fusion kept (the beat-interval modulation, one whether the ECG or the PPG times it, counts here when an ECG lead gives it; spectral_fusion rows: of the ECG modulations' own peaks; agreeing_sources rows: of the ECG leads' rates)"
            ) {
                .finite($0.value.used[RespirationSource.ecg.rawValue])
            },
            .init(
                "rate_ppg", .real, unit: "1/min",
                "fused rows: the mean of the PPG modulation rates the fusion kept (spectral_fusion rows: of the PPG modulations' own peaks; agreeing_sources rows: of the optical streams' rates)"
            ) {
                .finite($0.value.used[RespirationSource.ppg.rawValue])
            },
            .init(
                "method", .text,
                "spectral_fusion: the peak (0.1–0.7 Hz) of the mean of the modulations' normalised periodograms over the window and its neighbours within the spectral span (default two windows each side) (Nemati et al. 2010; Welch 1967), its concentration or local concentration reaching the source's threshold, or the product spectrum's or the most concentrated single modulation's peak reaching its own (Bailón et al. 2006); smart_fusion: the mean of the modulation rates that pass the respiratory quality indices (Birrenkott et al. 2016; Schäfer & Kratky 2008) and agree (Karlen et al. 2013), the fallback; agreeing_sources (fused rows): the mean of the window's ECG and PPG rows' rates when both fusions fail and those rates agree; spectral_fusion+smart_fusion: no rate (both tried); principal_axis+spectral_peak (accelerometer rows): the same peak and indices on a still accelerometer's principal axis (Bates et al. 2010)"
            ) {
                let v = $0.value
                return .text(
                    v.source == .accelerometer
                        ? RespirationFamily.accelerometerMethod
                        : v.breathsPerMinute == nil
                            ? RespirationFamily.method
                            : v.spectral
                                ? RespirationFamily.spectralMethod
                                : v.fromSources ? RespirationFamily.sourcesMethod : RespirationFamily.smartMethod)
            },
            .init("null_reason", .text, "why breaths_per_min is empty, else empty") { .optional($0.value.nullReason) },
        ])

    /// The respiratory signal of each stream's best-rated window (the report's strip).
    public static let signal = TableSchema<Streamed<RespirationSignalSample>>(
        name: "respiration_signal",
        summary:
            "per ECG lead and optical stream, the respiratory signal of its window with a rate and the highest quality: the modulation whose own peak is nearest the rate, band-passed and resampled to the grid",
        columns: [
            .init("stream", .text, "stream key of the ECG lead or optical stream") { .text($0.stream) },
            .init("source", .text, "ecg or ppg") { .text($0.value.source.rawValue) },
            .init("modulation", .text, "amplitude, frequency, intensity or qrs_area") { .text($0.value.modulation.rawValue) },
            .init("window_start", .real, unit: "s", "start of the window drawn (its respiration row)") { .real($0.value.windowStart) },
            .init("time", .real, unit: "s", "the sample's time (the grid: window start + i / grid_hz)") { .real($0.value.time) },
            .init(
                "value", .real, unit: "1",
                "the modulation linearly interpolated to the grid, band-passed 0.1–0.7 Hz, detrended, scaled to its largest absolute value in the window"
            ) { .real($0.value.value) },
            .init(
                "breath", .integer,
                "1 at the maximum of each breath counted (a cycle between upward zero crossings; Schäfer & Kratky 2008), else 0"
            ) { .integer($0.value.breath ? 1 : 0) },
            .init("note", .text, "the modulation, window, rate, method and quality of the row drawn") { .text($0.value.note) },
        ])

    /// The summary figures of family `respiration`, from the fused rows.
    public static let summaryFigures = [
        SummaryFigure(
            family: RespirationFamily.name, name: "mean_breaths_per_min", unit: "1/min",
            meaning:
                "mean breathing rate over the fused respiration rows with a rate (one fused row per window with an ECG or PPG row; it has a rate wherever one of those rows has, unless their rates disagree; a window counts on the day it starts; accelerometer rows not counted)",
            aggregation: .mean, sourceTable: "respiration", sourceColumn: "breaths_per_min"),
        SummaryFigure(
            family: RespirationFamily.name, name: "median_breaths_per_min", unit: "1/min",
            meaning:
                "median breathing rate over the same fused rows as mean_breaths_per_min (the day's rows for a day, every row for the recording; each window counts once)",
            aggregation: .median, sourceTable: "respiration", sourceColumn: "breaths_per_min"),
        SummaryFigure(
            family: RespirationFamily.name, name: "night_median_breaths_per_min", unit: "1/min",
            meaning:
                "median breathing rate over the fused rows with a rate whose window starts between 00:00 and 06:00 local time (the night's early hours, counted on the day they fall in); empty where the recording's clock is not local time (no UTC offset, or times from the stream start)",
            aggregation: .median, sourceTable: "respiration", sourceColumn: "breaths_per_min", localHours: 0..<6),
        SummaryFigure(
            family: RespirationFamily.name, name: "rate_share",
            meaning: "share of the fused respiration rows (one per window with an ECG or PPG row) that have a breathing rate",
            aggregation: .share, sourceTable: "respiration", sourceColumn: "breaths_per_min"),
    ]
}

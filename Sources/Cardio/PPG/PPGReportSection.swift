import Signals

extension PPGFamily {
    /// The PPG quality windows, labels from best to worst; the worst window is the one with the
    /// most masked samples, then the lowest template correlation.
    static var qualityShading: ReportQualityShading {
        ReportQualityShading(
            ReportRows(PPGTables.quality.table), labels: ["good", "acceptable", "unacceptable"],
            worstFirst: [ReportOrder("masked_fraction", descending: true), ReportOrder("template_correlation")])
    }

    /// The PPG section of the report: heart rate with each method and stream its own series
    /// (methods told apart by dash pattern: pulse count, spectral online, spectral offline) and
    /// its confidence, shaded by the PPG
    /// quality windows, with the ECG rate of the same recording drawn over it; pulse-rate
    /// variability; pulse strips read back from the file with the detected pulses; and the heart
    /// rate and variability of the beat lists the device detected itself (source `device`).
    public static var reportSection: ReportSection {
        let beats = BeatSeriesTables.beats.table, heartRate = BeatSeriesTables.heartRate.table, hrv = BeatSeriesTables.hrv.table
        let ppg = ReportFilter("source", "ppg"), device = ReportFilter("source", "device")
        return ReportSection(
            title: "PPG: pulse",
            results: [
                ReportRows(PPGTables.quality.table), ReportRows(heartRate, where: [ppg]), ReportRows(beats, where: [ppg]),
                ReportRows(heartRate, where: [device]), ReportRows(beats, where: [device]),
            ],
            items: [
                .timeSeries(
                    ReportTimeSeries(
                        id: "ppg-heart-rate", title: "Heart rate per method", rows: ReportRows(heartRate, where: [ppg]), values: ["bpm"],
                        seriesBy: ["method", "stream"], confidence: "confidence", quality: qualityShading,
                        overlay: ReportRows(heartRate, where: [ReportFilter("source", "ecg", "fused")]), overlayBy: ["source", "stream"],
                        whenEmpty: "no PPG heart-rate window in this recording")),
                .timeSeries(
                    ReportTimeSeries(
                        id: "prv", title: "Pulse-rate variability per window",
                        rows: ReportRows(hrv, where: [ppg, ReportFilter("scope", "window")]), values: ["RMSSD", "SDNN"],
                        plotBy: "stream", zeroBased: true,
                        whenEmpty: "no complete pulse-rate variability window (the streams are shorter than one window)")),
                .values(
                    ReportValueTable(
                        title: "Pulse-rate variability of the whole stream",
                        rows: ReportRows(hrv, where: [ppg, ReportFilter("scope", "recording")]),
                        columns: ["MeanNN", "SDNN", "RMSSD", "nn_count", "excluded_quality_share", "null_reason"])),
                .timeSeries(
                    ReportTimeSeries(
                        id: "device-heart-rate", title: "Heart rate from the device's own beat lists",
                        rows: ReportRows(heartRate, where: [device]), values: ["bpm"], seriesBy: ["stream"],
                        whenEmpty: "no beat list the device detected itself (Apple Health InstantaneousBeatsPerMinute) in this recording")),
                .values(
                    ReportValueTable(
                        title: "Variability of the device's own beat lists (whole stream)",
                        rows: ReportRows(hrv, where: [device, ReportFilter("scope", "recording")]),
                        columns: ["MeanNN", "SDNN", "RMSSD", "nn_count", "null_reason"])),
                .strips(
                    ReportStrips(
                        signal: "PPG", streams: ReportRows(PPGTables.quality.table),
                        windows: [.first(seconds: 10), .worst(qualityShading)],
                        markers: ReportEventMarkers(
                            name: "pulse", rows: ReportRows(beats, where: [ppg]), correctedTime: "nn_time", correction: "correction",
                            removed: "removedExtra"))),
            ],
            shows:
                "heart rate per method with its confidence and the PPG quality windows, the ECG rate over it where both exist, pulse-rate variability and pulse strips with the detected pulses, and the heart rate and variability of the beat lists the device detected itself (source device)",
            methods:
                "Per device, the optical channels and the accelerometer are put on one 25-Hz grid. Heart rate per 8-s window (2-s step) comes from three methods kept apart in the heart_rate table's method column: spectral_offline (the periodogram's path through the whole recording by Viterbi decoding, motion removed with the accelerometer), spectral_online (the same spectrum tracked causally) and beats (60000 / mean interval of the detected systolic pulses); confidence is the share of the cleaned spectrum within ±6 bpm of the estimate. Systolic pulses are detected per optical channel and corrected like ECG beats; each window's quality is labelled good, acceptable or unacceptable from the skewness, template correlation and in-band power. Beat lists the device detected itself (Apple Health InstantaneousBeatsPerMinute) are taken as beats at their listed times and run through the same beat-series stage (source device, method beats).",
            citations: [
                "Temko A (2017) Accurate heart rate monitoring during physical exercises using PPG. IEEE Trans Biomed Eng 64(9):2016–2024.",
                "Zhang Z, Pi Z, Liu B (2015) TROIKA: a general framework for heart rate monitoring using wrist-type photoplethysmographic signals during intensive physical exercise. IEEE Trans Biomed Eng 62(2):522–531.",
                "Viterbi AJ (1967) Error bounds for convolutional codes and an asymptotically optimum decoding algorithm. IEEE Trans Inf Theory 13(2):260–269.",
                "Elgendi M et al. (2013) Systolic peak detection in acceleration photoplethysmograms measured from emergency responders in tropical conditions. PLoS ONE 8(10):e76585.",
                "Elgendi M (2016) Optimal signal quality index for photoplethysmogram signals. Bioengineering 3(4):21.",
                "Orphanidou C et al. (2015) Signal-quality indices for the electrocardiogram and photoplethysmogram. IEEE J Biomed Health Inform 19(3):832–838.",
            ])
    }
}

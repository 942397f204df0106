import Signals

extension ECGFamily {
    /// The ECG quality windows, labels from best to worst; the worst window is the one with the
    /// most masked samples, then the lowest bSQI.
    static var qualityShading: ReportQualityShading {
        ReportQualityShading(
            ReportRows(ECGTables.quality.table), labels: ["excellent", "barely_acceptable", "unacceptable"],
            worstFirst: [ReportOrder("masked_fraction", descending: true), ReportOrder("bSQI")])
    }

    /// The ECG section of the report: heart rate per window (ECG and fused leads) shaded by the
    /// ECG quality windows, HRV per window, the whole-stream HRV and the per-stream summary with
    /// the device's own classification beside it, and strips read back from the file (first
    /// minute, worst-quality and fastest-rate window) with the detected and corrected beats.
    public static var reportSection: ReportSection {
        let beats = BeatSeriesTables.beats.table, heartRate = BeatSeriesTables.heartRate.table, hrv = BeatSeriesTables.hrv.table
        return ReportSection(
            title: "ECG",
            results: [ReportRows(ECGTables.quality.table), ReportRows(beats, where: [ReportFilter("source", "ecg")])],
            items: [
                .timeSeries(
                    ReportTimeSeries(
                        id: "heart-rate", title: "Heart rate per window (ECG)",
                        rows: ReportRows(heartRate, where: [ReportFilter("source", "ecg", "fused")]), values: ["bpm"],
                        seriesBy: ["source", "stream"], quality: qualityShading,
                        whenEmpty: "no ECG heart-rate window in this recording")),
                .timeSeries(
                    ReportTimeSeries(
                        id: "hrv", title: "HRV per window",
                        rows: ReportRows(hrv, where: [ReportFilter("source", "ecg"), ReportFilter("scope", "window")]),
                        values: ["RMSSD", "SDNN"], plotBy: "stream", zeroBased: true,
                        whenEmpty:
                            "no complete HRV window (the streams are shorter, or their beats do not fill one); only the whole-stream values below exist"
                    )),
                .values(
                    ReportValueTable(
                        title: "HRV of the whole stream",
                        rows: ReportRows(hrv, where: [ReportFilter("source", "ecg", "fused"), ReportFilter("scope", "recording")]),
                        columns: ["MeanNN", "SDNN", "RMSSD", "pNN50", "LF", "HF", "LFHF", "SD1", "SD2", "DFA_alpha1", "null_reason"])),
                .values(
                    ReportValueTable(
                        title: "Per ECG stream: SensorPipe's beats and rate", rows: ReportRows(ECGTables.summary.table),
                        columns: ["beats", "normal", "supraventricular", "ventricular", "unclassifiable", "mean_hr_bpm", "usable_share"])),
                .values(
                    ReportValueTable(
                        title: "The device's own classification (as exported by the device, e.g. Apple Health; not SensorPipe's)",
                        rows: ReportRows(ECGTables.summary.table), columns: ["device_classification"],
                        headings: ["device_classification": "device's classification"], optional: true)),
                .strips(
                    ReportStrips(
                        signal: "ECG", streams: ReportRows(ECGTables.quality.table),
                        windows: [
                            .first(seconds: 60), .worst(qualityShading),
                            .largest(ReportRows(heartRate, where: [ReportFilter("source", "ecg")]), value: "bpm"),
                        ],
                        markers: ReportEventMarkers(
                            name: "beat", rows: ReportRows(beats, where: [ReportFilter("source", "ecg")]), correctedTime: "nn_time",
                            correction: "correction", removed: "removedExtra"))),
            ],
            shows: "heart rate and HRV per window, the per-stream summary and ECG strips with the detected and corrected beats",
            methods:
                "R-peaks are detected by a streaming Pan–Tompkins/Hamilton–Tompkins detector; each 10-s window's quality is labelled excellent, barely acceptable or unacceptable from bSQI, kSQI and other indices; beats are corrected for ectopic, missed and extra beats (Lipponen & Tarvainen), and heart rate is 60000 / mean NN interval per window; HRV follows the Task Force standard with NeuroKit2's metric names, leaving out intervals in unacceptable windows.",
            citations: [
                "Pan J, Tompkins WJ (1985) A real-time QRS detection algorithm. IEEE Trans Biomed Eng 32(3):230–236.",
                "Hamilton PS, Tompkins WJ (1986) Quantitative investigation of QRS detection rules. IEEE Trans Biomed Eng 33(12):1157–1165.",
                "Zhao Z, Zhang Y (2018) SQI quality evaluation mechanism of single-lead ECG signal. Front Physiol 9:727.",
                "Lipponen JA, Tarvainen MP (2019) A robust algorithm for heart rate variability time series artefact correction. J Med Eng Technol 43(3):173–181.",
                "Task Force of the ESC and NASPE (1996) Heart rate variability: standards of measurement. Circulation 93(5):1043–1065.",
            ])
    }
}

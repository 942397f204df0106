import Signals

extension ECGWavesFamily {
    /// The wave-delineation section of the report: QT and QTc per window over time, PR and QRS
    /// per window, the whole-stream medians, and per lead and window the median beat with its
    /// median boundaries marked.
    public static var reportSection: ReportSection {
        let intervals = ECGWavesTables.intervals.table
        let windows = ReportRows(intervals, where: [ReportFilter("scope", "window")])
        let median = ECGWavesTables.medianBeats.table
        return ReportSection(
            title: "ECG waves: PR, QRS, QT and QTc",
            results: [ReportRows(ECGWavesTables.waves.table)],
            items: [
                .timeSeries(
                    ReportTimeSeries(
                        id: "ecg-qt", title: "QT and QTc per window (medians over normal beats in acceptable quality)", rows: windows,
                        start: "start", end: "end", values: ["qt_ms", "qtc_fridericia_ms", "qtc_bazett_ms"], plotBy: "stream",
                        whenEmpty: "no window with enough normal beats in acceptable quality with a delineated T offset")),
                .timeSeries(
                    ReportTimeSeries(
                        id: "ecg-pr-qrs", title: "PR and QRS per window", rows: windows, start: "start", end: "end",
                        values: ["pr_ms", "qrs_ms"], plotBy: "stream", zeroBased: true,
                        whenEmpty: "no window with enough normal beats in acceptable quality with a delineated P onset")),
                .values(
                    ReportValueTable(
                        title: "Whole stream: median intervals (ms)",
                        rows: ReportRows(intervals, where: [ReportFilter("scope", "recording")]),
                        columns: [
                            "qt_beats", "rr_ms", "pr_ms", "qrs_ms", "qt_ms", "qtc_bazett_ms", "qtc_fridericia_ms", "qtc_framingham_ms",
                            "qtc_hodges_ms", "null_reason",
                        ])),
                .waveform(
                    ReportWaveform(
                        id: "ecg-median-beat", title: "Median beat", rows: ReportRows(median, where: [ReportFilter("point", "sample")]),
                        x: "offset", values: ["amplitude"], plotBy: "stream", window: "window_start",
                        relativeXTitle: "time from the R peak (s)", note: "note",
                        markers: ReportWaveformMarkers(
                            name: "boundary point",
                            rows: ReportRows(
                                median,
                                where: [
                                    ReportFilter("point", "p_onset", "p_peak", "p_offset", "qrs_onset", "qrs_offset", "t_peak", "t_offset")
                                ]), x: "offset", label: "point"),
                        whenEmpty:
                            "no lead in µV or mV has a window with 5 normal beats in acceptable quality with a delineated QRS onset")),
            ],
            shows:
                "QT/QTc, PR and QRS per window and their whole-stream medians, and per lead and window (median_beat_window_s, default an hour) the median beat with its median P, QRS and T boundaries marked",
            methods:
                "Every beat the ECG family detects is delineated on its lead with the wavelet delineator of Martínez et al. (2004): a quadratic-spline wavelet (algorithme à trous, scales 2^1–2^5 at 250 Hz); QRS onset and offset from the modulus maxima at scale 2^2, P and T peaks as zero crossings and their boundaries from the maxima at scale 2^4 (T also 2^5) in rate-dependent search windows. Intervals are medians over normal beats following a normal beat in acceptable signal quality; QTc by Bazett, Fridericia, Framingham and Hodges. The median beat of a window is the sample-wise median of the same beats (at most 256, taken evenly), each aligned on its R peak over −300…+600 ms of the 250 Hz lead with its level at the QRS onset subtracted; its marks are the medians of each boundary relative to R over those beats, shown where found on at least half of them.",
            citations: [
                "Martínez JP, Almeida R, Olmos S, Rocha AP, Laguna P (2004) A wavelet-based ECG delineator: evaluation on standard databases. IEEE Trans Biomed Eng 51(4):570–581.",
                "Laguna P, Mark RG, Goldberger AL, Moody GB (1997) A database for evaluation of algorithms for measurement of QT and other waveform intervals in the ECG. Computers in Cardiology 24:673–676.",
                "Sagie A, Larson MG, Goldberg RJ, Bengtson JR, Levy D (1992) An improved method for adjusting the QT interval for heart rate (the Framingham Heart Study). Am J Cardiol 70(7):797–801.",
                "Hodges M, Salerno D, Erlien D (1983) Bazett's QT correction reviewed: evidence that a linear QT correction for heart rate is better. J Am Coll Cardiol 1:694.",
            ])
    }
}

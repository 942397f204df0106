import Signals

extension RhythmFamily {
    /// The rhythm windows as shading, labels from the one most in need of attention to the best.
    static var labelShading: ReportQualityShading {
        ReportQualityShading(
            ReportRows(RhythmTables.windows.table), labels: ["af", "other", "noisy", "insufficient", "sinus"],
            worstFirst: [ReportOrder("af_probability", descending: true)])
    }

    /// The rhythm section of the report: the AF probability and heart rate per window over time,
    /// shaded by the window labels (the label strip), and the AF episodes. (No ECG strip: strips
    /// mark the beats of the beat-series table, which this family does not declare.)
    public static var reportSection: ReportSection {
        let windows = RhythmTables.windows.table, episodes = RhythmTables.episodes.table
        return ReportSection(
            title: "Rhythm",
            results: [ReportRows(windows), ReportRows(episodes)],
            items: [
                .timeSeries(
                    ReportTimeSeries(
                        id: "rhythm-af", title: "AF probability per rhythm window", rows: ReportRows(windows), values: ["af_probability"],
                        plotBy: "stream", quality: labelShading, zeroBased: true, whenEmpty: "no rhythm window in this recording")),
                .timeSeries(
                    ReportTimeSeries(
                        id: "rhythm-hr", title: "Mean heart rate per rhythm window", rows: ReportRows(windows), values: ["mean_hr_bpm"],
                        plotBy: "stream", quality: labelShading, whenEmpty: "no rhythm window in this recording")),
                .values(
                    ReportValueTable(
                        title: "AF episodes", rows: ReportRows(episodes),
                        columns: ["onset", "offset", "duration_s", "windows", "beats", "mean_hr_bpm"])),
            ],
            shows:
                "the AF probability and heart rate of every rhythm window, shaded by its label, and the AF episodes",
            methods:
                "Each stream is cut into rhythm windows (one window for a stream of at most 65 s, else 30-s windows from its start). Per window the RR intervals between the published beats give irregularity measures (normalised RMSSD, Shannon entropy and turning-point ratio after Dash et al., COSEn after Lake and Moorman, the median successive difference after Petrėnas et al.); on ECG leads the beat-aligned PR and QRS segments give the P-wave coherence and the residual around the average beat (atrial activity). A multinomial logistic model fitted offline on a training split of the PhysioNet/CinC 2017 records labels each window sinus, af, other or noisy; windows with too few intervals are insufficient. Consecutive af windows of at least 30 s are AF episodes; AF burden is the share of labelled time in af windows.",
            citations: [
                "Clifford GD et al. (2017) AF classification from a short single lead ECG recording: the PhysioNet/Computing in Cardiology Challenge 2017. Comput Cardiol 44. doi:10.22489/CinC.2017.065-469",
                "Dash S, Chon KH, Lu S, Raeder EA (2009) Automatic real time detection of atrial fibrillation. Ann Biomed Eng 37(9):1701–1709.",
                "Lake DE, Moorman JR (2011) Accurate estimation of entropy in very short physiological time series: the problem of atrial fibrillation detection in implanted ventricular devices. Am J Physiol Heart Circ Physiol 300(1):H319–H325.",
                "Petrėnas A, Marozas V, Sörnmo L (2015) Low-complexity detection of atrial fibrillation in continuous long-term monitoring. Comput Biol Med 65:184–191.",
                "Stridh M, Sörnmo L (2001) Spatiotemporal QRST cancellation techniques for analysis of atrial fibrillation. IEEE Trans Biomed Eng 48(1):105–111.",
            ])
    }
}

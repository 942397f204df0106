import Signals

extension MotionFamily {
    /// The motion section of the report: ENMO per epoch over time, an actogram (days × 24 h of
    /// ENMO, or ActiGraph counts, with non-wear marked), per-day bars of intensity minutes, steps
    /// and wear, and each night's sleep period time window with its sustained-inactivity bouts.
    public static var reportSection: ReportSection {
        let epochs = MotionTables.epochs.table, daily = MotionTables.daily.table
        return ReportSection(
            title: "Motion: activity, sleep and wear",
            results: [ReportRows(epochs), ReportRows(daily)],
            items: [
                .timeSeries(
                    ReportTimeSeries(
                        id: "enmo", title: "ENMO per epoch", rows: ReportRows(epochs), start: "epoch_start", end: "epoch_end",
                        values: ["enmo_mg"], plotBy: "stream", zeroBased: true, whenEmpty: "no accelerometer epochs in this recording")),
                .actogram(
                    ReportActogram(
                        id: "actogram", title: "Actogram", rows: ReportRows(epochs), values: ["enmo_mg", "counts_vm"],
                        nonWear: ReportFilter("non_wear", "1"),
                        bands: [
                            ReportClockBand(
                                rows: ReportRows(MotionTables.rhythm.table, where: [ReportFilter("resolution", "1min")]),
                                onset: "l5_onset_h", hours: 5, label: "L5"),
                            ReportClockBand(
                                rows: ReportRows(MotionTables.rhythm.table, where: [ReportFilter("resolution", "1min")]),
                                onset: "m10_onset_h", hours: 10, label: "M10"),
                        ])),
                .dailyBars(
                    ReportDailyBars(
                        id: "intensity", title: "Time per intensity class per day (worn time)", rows: ReportRows(daily),
                        bars: [
                            ReportBar("sedentary_s", "sedentary"), ReportBar("light_s", "light"), ReportBar("moderate_s", "moderate"),
                            ReportBar("vigorous_s", "vigorous"),
                        ], scale: 1.0 / 60, unit: "min")),
                .values(
                    ReportValueTable(
                        title: "Rest-activity rhythm over the valid days", rows: ReportRows(MotionTables.rhythm.table),
                        columns: [
                            "resolution", "valid_days", "interdaily_stability", "intradaily_variability", "relative_amplitude", "l5_mg",
                            "l5_onset_h", "m10_mg", "m10_onset_h", "cosinor_amplitude_mg", "cosinor_acrophase_h", "sri", "null_reason",
                        ], optional: true)),
                .dailyBars(
                    ReportDailyBars(
                        id: "steps", title: "Steps per day", rows: ReportRows(daily), bars: [ReportBar("steps", "steps")],
                        unit: "steps")),
                .dailyBars(
                    ReportDailyBars(
                        id: "wear", title: "Wear per day", rows: ReportRows(daily),
                        bars: [ReportBar("wear_s", "worn"), ReportBar("non_wear_s", "not worn")], scale: 1.0 / 3600, unit: "h")),
                .intervals(
                    ReportIntervals(
                        id: "nights", title: "Sleep period per night (noon to noon)", rows: ReportRows(MotionTables.nights.table),
                        label: "night", periodStart: "window_start", periodSeconds: 86_400, start: "spt_onset", end: "spt_wake",
                        inner: ReportRows(MotionTables.sleepBouts.table), innerStart: "bout_start", innerEnd: "bout_end",
                        figures: [
                            "spt_s", "sleep_s", "bouts", "waso_s", "sleep_efficiency", "awakenings", "sleep_onset_latency_s", "nap_bouts",
                            "nap_s", "rotation_rate_dps", "valid_s", "non_wear_s", "note", "null_reason",
                        ])
                ),
            ],
            shows:
                "ENMO over time, an actogram with non-wear and the L5 and M10 windows marked, intensity minutes, the rest-activity rhythm, steps and wear per day, and each night's sleep period",
            methods:
                "Accelerometers are auto-calibrated against gravity and put on a clock-aligned grid; per 5-s epoch SensorPipe computes ENMO, MAD, the wrist angles, the intensity class from ENMO cut-points, ActiGraph counts and steps. Wear is judged per 15-min block from the axes' standard deviation and range over 60 min. The sleep period time window of each noon-to-noon window comes from the z-angle (HDCZA), and sleep within it is sustained inactivity (no z-angle change over 5° for over 5 min). On days worn at least 16 h, MVPA bouts follow GGIR's 80 % rule, and the rest-activity rhythm (IS, IV, L5, M10, RA, cosinor, sleep regularity) is computed over those days from hourly and 1-min bins of ENMO.",
            citations: [
                "van Hees VT et al. (2013) Separating movement and gravity components in an acceleration signal and implications for the assessment of human daily physical activity. PLoS ONE 8(4):e61691.",
                "van Hees VT et al. (2014) Autocalibration of accelerometer data for free-living physical activity assessment using local gravity and temperature. J Appl Physiol 117(7):738–744.",
                "Hildebrand M et al. (2014) Age group comparability of raw accelerometer output from wrist- and hip-worn monitors. Med Sci Sports Exerc 46(9):1816–1824.",
                "Neishabouri A et al. (2022) Quantification of acceleration as activity counts in ActiGraph wearable. Sci Rep 12:11958.",
                "van Hees VT et al. (2015) A novel, open access method to assess sleep duration using a wrist-worn accelerometer. PLoS ONE 10(11):e0142533.",
                "van Hees VT et al. (2018) Estimating sleep parameters using an accelerometer without sleep diary. Sci Rep 8:12975.",
                "Rowlands AV et al. (2018) Beyond cut points: accelerometer metrics that capture the physical activity profile. Med Sci Sports Exerc 50(6):1323–1332.",
                "Witting W et al. (1990) Alterations in the circadian rest-activity rhythm in aging and Alzheimer's disease. Biol Psychiatry 27(6):563–572.",
                "van Someren EJW et al. (1999) Bright light therapy: improved sensitivity to its effects on rest-activity rhythms in Alzheimer patients by application of nonparametric methods. Chronobiol Int 16(4):505–518.",
                "Cornelissen G (2014) Cosinor-based rhythmometry. Theor Biol Med Model 11:16.",
                "Phillips AJK et al. (2017) Irregular sleep/wake patterns are associated with poorer academic performance and delayed circadian and sleep/wake timing. Sci Rep 7:3216.",
            ])
    }
}

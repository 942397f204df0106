import Signals

extension MotionTables {
    /// `motion_daily`'s day outcomes (``MotionDayOutcomes``): empty on a day below the wear rule,
    /// with the reason in `outcomes_note`. Every outcome runs over the day's worn epochs
    /// (`non_wear = 0`); non-worn and undecided epochs are neither active nor sedentary.
    static var dailyOutcomeColumns: [TableSchema<Streamed<MotionDay>>.Column] {
        func mx(_ minutes: Int, _ value: @escaping @Sendable (MotionDayOutcomes) -> Double?) -> TableSchema<Streamed<MotionDay>>.Column {
            .init(
                "accel_top\(minutes)min_mg", .real, unit: "mg",
                "ENMO above which the day's most active \(minutes) min lie: the ⌈\(minutes)·60/epoch⌉-th highest worn epoch (Rowlands et al. 2018 \"M\(minutes)\"; not GGIR's M5/M10 window mean, see motion_rhythm)"
            ) {
                .finite($0.value.outcomes.flatMap(value))
            }
        }
        return [
            .init("valid_day", .integer, "1 when the day is worn at least valid_day_wear_h (default 16 h), else 0") {
                .integer($0.value.outcomes == nil ? 0 : 1)
            },
            mx(60, \.accelTop60MilliG), mx(30, \.accelTop30MilliG), mx(15, \.accelTop15MilliG), mx(5, \.accelTop5MilliG),
            .init(
                "ig_gradient", .real,
                "intensity gradient (Rowlands et al. 2018): slope of ln(minutes per 25-mg ENMO bin, 0–4000 mg, then 4000–8000 mg) on ln(bin midpoint), bins with time only"
            ) {
                .finite($0.value.outcomes?.intensityGradient)
            },
            .init("ig_intercept", .real, "intercept of that line") { .finite($0.value.outcomes?.intensityIntercept) },
            .init("ig_r2", .real, "R² of that line") { .finite($0.value.outcomes?.intensityR2) },
            .init(
                "mvpa_bout1_min", .real, unit: "min",
                "minutes in MVPA bouts of ≥ 1 min: every epoch of a window of ≥ 1 min starting and ending with an MVPA epoch (ENMO ≥ moderate_from_mg), ≥ 80 % MVPA epochs, no non-MVPA run over 1 min (GGIR's bout rule)"
            ) {
                .finite($0.value.outcomes?.mvpaBout1Minutes)
            },
            .init("mvpa_bout5_min", .real, unit: "min", "minutes in MVPA bouts of ≥ 5 min (same rule)") {
                .finite($0.value.outcomes?.mvpaBout5Minutes)
            },
            .init("mvpa_bout10_min", .real, unit: "min", "minutes in MVPA bouts of ≥ 10 min (same rule)") {
                .finite($0.value.outcomes?.mvpaBout10Minutes)
            },
            .init(
                "sed_bouts", .integer,
                "sedentary bouts: maximal runs of consecutive worn sedentary epochs over the clock day, sleep period included"
            ) {
                .optional($0.value.outcomes?.sedentaryBouts)
            },
            .init("sed_bout_mean_min", .real, unit: "min", "mean sedentary bout length") {
                .finite($0.value.outcomes?.sedentaryBoutMeanMinutes)
            },
            .init("sed_in_bouts30_min", .real, unit: "min", "sedentary minutes in bouts of ≥ 30 min") {
                .finite($0.value.outcomes?.sedentaryInBouts30Minutes)
            },
            .init(
                "sed_to_active_tp", .real, unit: "1/min",
                "sedentary fragmentation: transition probability out of a sedentary bout per minute, 1 / sed_bout_mean_min (Chastin & Granat 2010)"
            ) {
                .finite($0.value.outcomes?.sedentaryToActiveProbability)
            },
            .init(
                "cadence_peak1_spm", .real, unit: "1/min",
                "steps in the day's highest clock minute, over minutes at least half worn (Tudor-Locke et al. 2012)"
            ) {
                .finite($0.value.outcomes?.cadencePeak1)
            },
            .init("cadence_peak30_spm", .real, unit: "1/min", "mean steps of the day's 30 highest minutes, not necessarily consecutive") {
                .finite($0.value.outcomes?.cadencePeak30)
            },
            .init("cadence_ge100_min", .integer, unit: "min", "minutes with at least 100 steps") {
                .optional($0.value.outcomes?.cadenceMinutesAtLeast100)
            },
            .init("cadence_p95_spm", .real, unit: "1/min", "95th percentile of steps per minute over those minutes (linear, R type 7)") {
                .finite($0.value.outcomes?.cadenceP95)
            },
            .init("outcomes_note", .text, "why the day outcomes are empty, or empty") { .optional($0.value.outcomesNote) },
        ]
    }

    /// One row per accelerometer stream and rhythm resolution: the rest-activity rhythm over the
    /// stream's valid days (``MotionRhythm``).
    public static let rhythm = TableSchema<Streamed<MotionRhythm>>(
        name: "motion_rhythm",
        summary:
            "per accelerometer stream and bin resolution: rest-activity rhythm over the valid days (IS, IV, RA, L5, M10, cosinor, sleep regularity)",
        columns: [
            .init("stream", .text, "stream key") { .text($0.stream) },
            .init("resolution", .text, "hourly or 1min: the bins the measures run on") { .text($0.value.resolution) },
            .init("bin_s", .real, unit: "s", "bin length") { .real($0.value.binSeconds) },
            .init("time_basis", .text, "utc, device_local or stream_start: the clock of the bins and onsets") {
                .text($0.value.timeBasis)
            },
            .init("valid_days", .integer, "clock days worn at least valid_day_wear_h (motion_daily.valid_day = 1)") {
                .integer($0.value.validDays)
            },
            .init("first_day", .text, "first valid day") { .optional($0.value.firstDay) },
            .init("last_day", .text, "last valid day (days between that are not valid are left out)") { .optional($0.value.lastDay) },
            .init(
                "bins", .integer,
                "bins with a value on the valid days: mean ENMO of the bin's worn epochs, when they are at least half of the bin (non-wear never counts as rest)"
            ) {
                .integer($0.value.bins)
            },
            .init(
                "interdaily_stability", .real,
                "IS = N·Σₕ(x̄ₕ − x̄)² / (p·Σ(xᵢ − x̄)²) (Witting et al. 1990; van Someren et al. 1999); needs 2 valid days"
            ) {
                .finite($0.value.interdailyStability)
            },
            .init(
                "intradaily_variability", .real,
                "IV = N·Σ(xᵢ − xᵢ₋₁)² / ((N − 1)·Σ(xᵢ − x̄)²), successive differences over present pairs (Witting et al. 1990)"
            ) {
                .finite($0.value.intradailyVariability)
            },
            .init("relative_amplitude", .real, "RA = (M10 − L5) / (M10 + L5) (van Someren et al. 1999)") {
                .finite($0.value.relativeAmplitude)
            },
            .init("l5_mg", .real, unit: "mg", "mean ENMO of the least active 5 h of the average 24-h profile (windows wrap midnight)") {
                .finite($0.value.l5MilliG)
            },
            .init("l5_onset_h", .real, unit: "h", "clock time of the L5 window's start") { .finite($0.value.l5OnsetHours) },
            .init(
                "m10_mg", .real, unit: "mg",
                "mean ENMO of the most active 10 h of the average 24-h profile (GGIR's \"M10\"; not an MX metric)"
            ) {
                .finite($0.value.m10MilliG)
            },
            .init("m10_onset_h", .real, unit: "h", "clock time of the M10 window's start") { .finite($0.value.m10OnsetHours) },
            .init(
                "cosinor_mesor_mg", .real, unit: "mg",
                "mesor of the least-squares 24-h cosinor on the bins at their centre times (Cornelissen 2014)"
            ) {
                .finite($0.value.cosinorMesorMilliG)
            },
            .init("cosinor_amplitude_mg", .real, unit: "mg", "cosinor amplitude") { .finite($0.value.cosinorAmplitudeMilliG) },
            .init("cosinor_acrophase_h", .real, unit: "h", "clock time of the fitted cosine's peak (0–24)") {
                .finite($0.value.cosinorAcrophaseHours)
            },
            .init(
                "sri", .real,
                "sleep regularity index (Phillips et al. 2017, missing-data form of Fischer et al. 2021): 200·P(same state 24 h apart) − 100 over minute pairs with a state on both; a minute sleeps when most of its worn epochs lie in motion_sleep_bouts; 1min row, ≥ 1440 pairs"
            ) {
                .finite($0.value.sleepRegularityIndex)
            },
            .init("sri_pairs", .integer, "minute pairs 24 h apart with a sleep/wake state on both") {
                .optional($0.value.sleepRegularityPairs)
            },
            .init("null_reason", .text, "why measures are empty, one clause per measure, or empty") { .optional($0.value.nullReason) },
        ])
}

import Signals

/// Per-stream summary of the motion analysis: how the stream was put on its grid.
public struct MotionStreamSummary: Sendable, Hashable {
    /// Grid rate in Hz, or `nil` when the stream could not be analysed.
    public var gridRateHz: Int?
    /// Where the grid rate came from (`declared`, `median interval`, `option`).
    public var gridRateSource: String?
    /// Input samples.
    public var inputSamples: Int
    /// Grid samples produced.
    public var gridSamples: Int
    /// Share of grid samples that were interpolated (not an input sample on a grid point).
    public var interpolatedFraction: Double?
    /// Input samples dropped (masked, non-finite or beyond ±1000 g, time going backwards).
    public var droppedSamples: Int
    /// Intervals longer than 1 s left as gaps.
    public var gaps: Int
    /// Epochs written.
    public var epochs: Int
    /// Steps in all epochs.
    public var steps: Int
    /// The auto-calibration (van Hees et al. 2014), or `nil` when it was off or the stream is a
    /// rotation rate.
    public var calibration: CalibrationResult?
    /// The accelerometer stream paired with a rotation-rate stream (same device), or `nil`.
    public var pairedStream: String?
    /// Share of the rotation rate's grid points with an accelerometer point, or `nil`.
    public var pairedFraction: Double?
    /// Why the stream was not (fully) analysed, or `nil`.
    public var note: String?
}

/// One day of one stream: time in each intensity class and steps.
public struct MotionDay: Sendable, Hashable {
    /// The day: `YYYY-MM-DD` on the stream's clock (UTC for Unix times, the device's wall clock
    /// for device-local times), or `+N` days from the stream start when times have no origin.
    public var day: String
    /// What `day` counts on: `utc`, `device_local` or `stream_start`.
    public var timeBasis: String
    /// The day's start (midnight), s on the stream's clock.
    public var startSeconds: Double
    /// Seconds covered by grid samples.
    public var coveredSeconds: Double
    /// Seconds of 15-min blocks judged worn and not worn (van Hees et al. 2013).
    public var wearSeconds: Double
    public var nonWearSeconds: Double
    /// Seconds of worn epochs with metrics in each intensity class (non-worn epochs have no
    /// class: the sums run over worn time only, as GGIR's).
    public var sedentarySeconds: Double
    public var lightSeconds: Double
    public var moderateSeconds: Double
    public var vigorousSeconds: Double
    /// Mean ENMO over epochs with metrics not judged non-wear, weighted by samples, in mg.
    public var enmoMeanMilliG: Double?
    /// Steps.
    public var steps: Int
    /// The day's activity outcomes when the day is valid (worn at least
    /// ``MotionOptions/validDayWearHours``), else `nil`.
    public var outcomes: MotionDayOutcomes?
    /// Why ``outcomes`` is `nil`, or `nil`.
    public var outcomesNote: String?
}

/// An epoch on a clock-aligned grid: what the first columns of every epoch table hold.
protocol ClockEpoch {
    var startSeconds: Double { get }
    var lengthSeconds: Double { get }
    var samples: Int { get }
    var coverage: Double { get }
}

extension MotionEpoch: ClockEpoch {}
extension RotationEpoch: ClockEpoch {}

/// The motion family's tables.
public enum MotionTables {
    /// stream, epoch_start, epoch_end, samples, coverage: the leading columns of an epoch table.
    static func clockEpochColumns<E: ClockEpoch>() -> [TableSchema<Streamed<E>>.Column] {
        [
            .init("stream", .text, "stream key") { .text($0.stream) },
            .init("epoch_start", .real, unit: "s", "epoch start (a multiple of the epoch length on the stream's clock)") {
                .real($0.value.startSeconds)
            },
            .init("epoch_end", .real, unit: "s", "epoch end (exclusive)") {
                .real($0.value.startSeconds + $0.value.lengthSeconds)
            },
            .init("samples", .integer, "grid samples in the epoch") { .integer($0.value.samples) },
            .init("coverage", .real, "samples / samples of a full epoch; metrics are empty below 0.5") {
                .finite($0.value.coverage)
            },
        ]
    }

    /// One row per clock-aligned epoch of an accelerometer stream.
    public static let epochs = TableSchema<Streamed<MotionEpoch>>(
        name: "motion_epochs", summary: "accelerometer epochs: ENMO, MAD, HFEN, BFEN, angles, intensity, ActiGraph counts, steps",
        columns: clockEpochColumns() + [
            .init("enmo_mg", .real, unit: "mg", "mean of max(|a| − 1 g, 0) (van Hees et al. 2013)") { .finite($0.value.enmoMilliG) },
            .init("mad_mg", .real, unit: "mg", "mean amplitude deviation of |a| (Vähä-Ypyä et al. 2015)") {
                .finite($0.value.madMilliG)
            },
            .init("hfen_mg", .real, unit: "mg", "mean norm of the axes high-passed at 0.2 Hz (Butterworth order 4, causal)") {
                .finite($0.value.hfenMilliG)
            },
            .init("bfen_mg", .real, unit: "mg", "mean norm of the axes band-passed 0.2–15 Hz (Butterworth order 4, causal)") {
                .finite($0.value.bfenMilliG)
            },
            .init("angle_x_deg", .real, unit: "deg", "atan(x / √(y² + z²)) of the epoch's mean acceleration") {
                .finite($0.value.angleXDegrees)
            },
            .init("angle_y_deg", .real, unit: "deg", "atan(y / √(x² + z²)) of the epoch's mean acceleration") {
                .finite($0.value.angleYDegrees)
            },
            .init("angle_z_deg", .real, unit: "deg", "atan(z / √(x² + y²)) of the epoch's mean acceleration") {
                .finite($0.value.angleZDegrees)
            },
            .init(
                "intensity", .text,
                "sedentary, light, moderate or vigorous from ENMO (Hildebrand et al. 2014, 2017 cut-points); empty when not worn"
            ) {
                .optional($0.value.intensity?.rawValue)
            },
            .init(
                "non_wear", .integer,
                "1 when the 15-min block holding the epoch start is judged not worn (van Hees et al. 2013), 0 when worn, empty when undecided"
            ) {
                .optional($0.value.nonWear.map { $0 ? 1 : 0 })
            },
            .init("counts_x", .integer, "ActiGraph counts of the x axis (ActiLife axis 2; Neishabouri et al. 2022)") {
                .optional($0.value.countsX)
            },
            .init("counts_y", .integer, "ActiGraph counts of the y axis (ActiLife axis 1)") { .optional($0.value.countsY) },
            .init("counts_z", .integer, "ActiGraph counts of the z axis (ActiLife axis 3)") { .optional($0.value.countsZ) },
            .init("counts_vm", .real, "√(counts_x² + counts_y² + counts_z²)") { .finite($0.value.countsVectorMagnitude) },
            .init("steps", .integer, "steps detected in the epoch") { .integer($0.value.steps) },
            .init("cadence_spm", .real, unit: "1/min", "steps per minute in the epoch") {
                .real(Double($0.value.steps) * 60 / $0.value.lengthSeconds)
            },
            .init("note", .text, "why metrics are empty, or empty") { .optional($0.value.note) },
        ])

    /// One row per day of an accelerometer stream.
    public static let daily = TableSchema<Streamed<MotionDay>>(
        name: "motion_daily", summary: "per day of an accelerometer stream: time in each intensity class, ENMO, steps",
        columns: [
            .init("stream", .text, "stream key") { .text($0.stream) },
            .init("day", .text, "YYYY-MM-DD on the stream's clock, or +N days from the stream start") { .text($0.value.day) },
            .init("time_basis", .text, "utc, device_local or stream_start") { .text($0.value.timeBasis) },
            .init("covered_s", .real, unit: "s", "time covered by grid samples") { .real($0.value.coveredSeconds) },
            .init("wear_s", .real, unit: "s", "covered time in 15-min blocks judged worn (van Hees et al. 2013)") {
                .real($0.value.wearSeconds)
            },
            .init(
                "non_wear_s", .real, unit: "s",
                "covered time in blocks judged not worn (2 of 3 axes: SD < 13 mg, range < 50 mg over 60 min)"
            ) {
                .real($0.value.nonWearSeconds)
            },
            .init("sedentary_s", .real, unit: "s", "time in worn sedentary epochs (non-wear epochs count in no class)") {
                .real($0.value.sedentarySeconds)
            },
            .init("light_s", .real, unit: "s", "time in worn light epochs") { .real($0.value.lightSeconds) },
            .init("moderate_s", .real, unit: "s", "time in worn moderate epochs") { .real($0.value.moderateSeconds) },
            .init("vigorous_s", .real, unit: "s", "time in worn vigorous epochs") { .real($0.value.vigorousSeconds) },
            .init("enmo_mean_mg", .real, unit: "mg", "mean ENMO of epochs with metrics not judged non-wear") {
                .finite($0.value.enmoMeanMilliG)
            },
            .init("steps", .integer, "steps (all epochs)") { .integer($0.value.steps) },
        ] + dailyOutcomeColumns)

    /// One row per clock-aligned epoch of a rotation-rate stream.
    public static let rotationEpochs = TableSchema<Streamed<RotationEpoch>>(
        name: "motion_rotation_epochs",
        summary: "rotation-rate (gyroscope) epochs: angular speed, angle turned through, gyroscope-aided gravity angles, turns",
        columns: clockEpochColumns() + [
            .init("mean_speed_dps", .real, unit: "deg/s", "mean angular speed |ω|") {
                .finite($0.value.meanSpeedDegreesPerSecond)
            },
            .init("peak_speed_dps", .real, unit: "deg/s", "largest angular speed |ω|") {
                .finite($0.value.peakSpeedDegreesPerSecond)
            },
            .init("rotation_deg", .real, unit: "deg", "angle turned through in the epoch (∫|ω| dt)") {
                .finite($0.value.rotationDegrees)
            },
            .init("mean_x_dps", .real, unit: "deg/s", "mean rotation rate about the device's x axis") {
                .finite($0.value.meanXDegreesPerSecond)
            },
            .init("mean_y_dps", .real, unit: "deg/s", "mean rotation rate about the device's y axis") {
                .finite($0.value.meanYDegreesPerSecond)
            },
            .init("mean_z_dps", .real, unit: "deg/s", "mean rotation rate about the device's z axis") {
                .finite($0.value.meanZDegreesPerSecond)
            },
            .init("paired_samples", .integer, "grid samples with an accelerometer sample of the same device") {
                .integer($0.value.pairedSamples)
            },
            .init(
                "gravity_source", .text,
                "accelerometer+gyroscope (complementary filter, Mahony et al. 2008), or empty: no gravity estimate for half the epoch"
            ) {
                .optional($0.value.gravityAngleXDegrees == nil ? nil : "accelerometer+gyroscope")
            },
            .init("gravity_angle_x_deg", .real, unit: "deg", "atan(x / √(y² + z²)) of the mean gyroscope-aided gravity direction") {
                .finite($0.value.gravityAngleXDegrees)
            },
            .init("gravity_angle_y_deg", .real, unit: "deg", "atan(y / √(x² + z²)) of the mean gyroscope-aided gravity direction") {
                .finite($0.value.gravityAngleYDegrees)
            },
            .init("gravity_angle_z_deg", .real, unit: "deg", "atan(z / √(x² + y²)) of the mean gyroscope-aided gravity direction") {
                .finite($0.value.gravityAngleZDegrees)
            },
            .init("vertical_rate_dps", .real, unit: "deg/s", "mean rotation rate about the gravity axis (ω · ĝ)") {
                .finite($0.value.verticalRateDegreesPerSecond)
            },
            .init(
                "turns", .integer,
                "turns ending in the epoch (El-Gohary et al. 2014: vertical rate > 5°/s, peak ≥ 15°/s, ≥ 45°, 0.5–10 s)"
            ) {
                .optional($0.value.turns)
            },
            .init("turn_deg", .real, unit: "deg", "sum of the absolute angles of those turns") { .finite($0.value.turnDegrees) },
        ])

    /// One row per noon-to-noon window of an accelerometer stream: the sleep period time window
    /// and sustained inactivity (``SleepDetector``).
    public static let nights = TableSchema<Streamed<MotionNight>>(
        name: "motion_nights",
        summary: "per noon-to-noon window: sleep period time (HDCZA, van Hees 2018), sustained inactivity (van Hees 2015)",
        columns: [
            .init("stream", .text, "stream key") { .text($0.stream) },
            .init("night", .text, "date of the noon opening the window (YYYY-MM-DD or +N)") { .text($0.value.night) },
            .init("time_basis", .text, "utc, device_local or stream_start") { .text($0.value.timeBasis) },
            .init("window_start", .real, unit: "s", "noon opening the window, on the stream's clock") {
                .real($0.value.windowStartSeconds)
            },
            .init("valid_s", .real, unit: "s", "worn time with a z-angle in the window (16 h needed)") {
                .real($0.value.validSeconds)
            },
            .init("non_wear_s", .real, unit: "s", "time in blocks judged not worn") { .real($0.value.nonWearSeconds) },
            .init("threshold_deg", .real, unit: "deg", "HDCZA threshold: 10th percentile × 15 within 0.13…0.50") {
                .finite($0.value.thresholdDegrees)
            },
            .init("spt_onset", .real, unit: "s", "sleep period time window start (sleep onset)") {
                .finite($0.value.onsetSeconds)
            },
            .init("spt_wake", .real, unit: "s", "sleep period time window end (wake)") { .finite($0.value.wakeSeconds) },
            .init("spt_s", .real, unit: "s", "duration of the sleep period time window") { .finite($0.value.sptSeconds) },
            .init("sleep_s", .real, unit: "s", "sustained inactivity (no z-angle change > 5° for > 5 min) inside the window") {
                .finite($0.value.sleepSeconds)
            },
            .init("bouts", .integer, "sustained-inactivity bouts inside the window") { .optional($0.value.bouts) },
            .init("waso_s", .real, unit: "s", "wake after sleep onset: spt_s − sleep_s") { .finite($0.value.wasoSeconds) },
            .init(
                "sleep_efficiency", .real,
                "sleep_s / spt_s: sustained inactivity over the sleep period time window (the denominator is the SPT window, not a time in bed)"
            ) {
                .finite($0.value.sleepEfficiency)
            },
            .init(
                "awakenings", .integer,
                "wake intervals between successive sleep bouts inside the window lasting at least awakening_min (default 5 min)"
            ) {
                .optional($0.value.awakenings)
            },
            .init("note", .text, "why the night has no sleep period time window, or empty") { .optional($0.value.note) },
            .init("tib_start", .real, unit: "s", "time-in-bed window start from option time_in_bed (a sleep diary), or empty") {
                .finite($0.value.timeInBed?.startSeconds)
            },
            .init("tib_end", .real, unit: "s", "time-in-bed window end, or empty") { .finite($0.value.timeInBed?.endSeconds) },
            .init(
                "sleep_onset_latency_s", .real, unit: "s",
                "start of the first sustained-inactivity bout lying wholly inside the time in bed minus tib_start (GGIR's time-in-bed rule); empty without a time in bed"
            ) {
                .finite($0.value.sleepOnsetLatencySeconds)
            },
            .init(
                "nap_bouts", .integer,
                "sustained-inactivity bouts of the window outside the sleep period window, wholly within 09:00–18:00 of their clock day, 15–240 min long, not next to an epoch judged not worn (GGIR's possible_nap_window/possible_nap_dur; option naps, off by default)"
            ) {
                .optional($0.value.napBouts)
            },
            .init("nap_s", .real, unit: "s", "time in those nap bouts") { .finite($0.value.napSeconds) },
            .init(
                "rotation_rate_dps", .real, unit: "deg/s",
                "mean angular speed |ω| of the paired gyroscope over the sleep period window, weighted by grid samples (needs rotation epochs over half the window)"
            ) {
                .finite($0.value.rotationRateMeanDegreesPerSecond)
            },
            .init("null_reason", .text, "why sleep_onset_latency_s, the naps or rotation_rate_dps are empty, one clause each") {
                .optional($0.value.nullReason)
            },
        ])

    /// One row per analysed accelerometer or rotation-rate stream.
    public static let streams = TableSchema<Streamed<MotionStreamSummary>>(
        name: "motion_streams", summary: "per accelerometer or rotation-rate stream: grid, resampled share, epochs, steps",
        columns: [
            .init("stream", .text, "stream key") { .text($0.stream) },
            .init("grid_hz", .integer, unit: "Hz", "rate of the clock-aligned grid") { .optional($0.value.gridRateHz) },
            .init("grid_rate_source", .text, "declared, median interval or option") { .optional($0.value.gridRateSource) },
            .init("input_samples", .integer, "input samples") { .integer($0.value.inputSamples) },
            .init("grid_samples", .integer, "grid samples (linear interpolation, never across gaps over 1 s)") {
                .integer($0.value.gridSamples)
            },
            .init("interpolated_fraction", .real, "share of grid samples that were interpolated") {
                .finite($0.value.interpolatedFraction)
            },
            .init("dropped_samples", .integer, "masked, non-finite, beyond ±1000 g or out-of-order input samples") {
                .integer($0.value.droppedSamples)
            },
            .init("gaps", .integer, "intervals over 1 s left as gaps") { .integer($0.value.gaps) },
            .init("epochs", .integer, "epochs written") { .integer($0.value.epochs) },
            .init("steps", .integer, "steps") { .integer($0.value.steps) },
            .init("calibration", .text, "auto-calibration (van Hees et al. 2014): applied, rejected, or empty when off") {
                .optional($0.value.calibration.map { $0.accepted ? "applied" : "rejected" })
            },
            .init("cal_still_windows", .integer, "still 10-s windows (per-axis SD < 13 mg) used by the calibration") {
                .optional($0.value.calibration?.stillWindows)
            },
            .init("cal_error_before_mg", .real, unit: "mg", "mean |‖a‖ − 1 g| of the still windows before calibration") {
                .finite($0.value.calibration?.errorBeforeG.map { $0 * 1000 })
            },
            .init("cal_error_after_mg", .real, unit: "mg", "the same after the fitted calibration (applied only below 10 mg)") {
                .finite($0.value.calibration?.errorAfterG.map { $0 * 1000 })
            },
            .init("cal_offset_x_mg", .real, unit: "mg", "offset added to x before scaling") {
                .finite($0.value.calibration.map { $0.offsetG.x * 1000 })
            },
            .init("cal_offset_y_mg", .real, unit: "mg", "offset added to y before scaling") {
                .finite($0.value.calibration.map { $0.offsetG.y * 1000 })
            },
            .init("cal_offset_z_mg", .real, unit: "mg", "offset added to z before scaling") {
                .finite($0.value.calibration.map { $0.offsetG.z * 1000 })
            },
            .init("cal_scale_x", .real, "scale factor of x (calibrated = (raw + offset) · scale)") {
                .finite($0.value.calibration?.scale.x)
            },
            .init("cal_scale_y", .real, "scale factor of y") { .finite($0.value.calibration?.scale.y) },
            .init("cal_scale_z", .real, "scale factor of z") { .finite($0.value.calibration?.scale.z) },
            .init("cal_note", .text, "why the calibration was rejected, or empty") {
                .optional($0.value.calibration?.reason)
            },
            .init("paired_stream", .text, "rotation rate: the same device's accelerometer used for gravity and turns, or empty") {
                .optional($0.value.pairedStream)
            },
            .init("paired_fraction", .real, "rotation rate: share of grid samples with an accelerometer sample") {
                .finite($0.value.pairedFraction)
            },
            .init("note", .text, "why the stream was not (fully) analysed, or empty") { .optional($0.value.note) },
        ])

    /// One row per sustained-inactivity bout inside a night's sleep period time window (the
    /// bouts `motion_nights.bouts` counts and `sleep_s` adds up).
    public static let sleepBouts = TableSchema<Streamed<SleepBout>>(
        name: "motion_sleep_bouts",
        summary: "sustained-inactivity bouts (van Hees 2015) inside each night's sleep period time window",
        columns: [
            .init("stream", .text, "stream key") { .text($0.stream) },
            .init("night", .text, "the night (motion_nights.night) the bout belongs to") { .text($0.value.night) },
            .init("bout_start", .real, unit: "s", "bout start, on the stream's clock") { .real($0.value.span.startSeconds) },
            .init("bout_end", .real, unit: "s", "bout end (exclusive)") { .real($0.value.span.endSeconds) },
            .init("duration_s", .real, unit: "s", "bout_end − bout_start") { .real($0.value.span.endSeconds - $0.value.span.startSeconds) },
            .init(
                "kind", .text,
                "sleep: inside the sleep period time window; nap: a nap bout outside it (option naps; motion_nights.nap_bouts)"
            ) { .text($0.value.kind) },
        ])

    /// Every motion table.
    public static var all: [ResultTable] {
        [epochs.table, daily.table, nights.table, sleepBouts.table, rotationEpochs.table, streams.table, rhythm.table]
    }
}

/// One sustained-inactivity bout of a night (a row of `motion_sleep_bouts`).
public struct SleepBout: Sendable, Hashable {
    /// The night's label (``MotionNight/night``).
    public var night: String
    /// The bout.
    public var span: MotionNight.Span
    /// `sleep` for a bout inside the SPT window, `nap` for a nap bout (``MotionOptions/naps``).
    public var kind = "sleep"
}

/// The rest-activity rhythm of one accelerometer stream at one resolution (a row of
/// `motion_rhythm`), over its valid days (``MotionOptions/validDayWearHours``): ENMO of the worn
/// epochs binned by clock hour or clock minute (``RestActivityRhythm``).
public struct MotionRhythm: Sendable, Hashable {
    /// `hourly` or `1min`.
    public var resolution: String
    /// Bin length, s.
    public var binSeconds: Double
    /// What the day labels count on: `utc`, `device_local` or `stream_start`.
    public var timeBasis: String
    /// Valid days (worn at least the wear rule) in the series.
    public var validDays: Int
    /// The first and last valid day (`motion_daily.day`), or `nil` without any.
    public var firstDay: String?
    public var lastDay: String?
    /// Bins with a value (at least half of their epochs worn with ENMO) on the valid days.
    public var bins: Int
    /// Interdaily stability (0…1).
    public var interdailyStability: Double?
    /// Intradaily variability (0…≈2).
    public var intradailyVariability: Double?
    /// Relative amplitude (M10 − L5) / (M10 + L5).
    public var relativeAmplitude: Double?
    /// Mean ENMO of the least active 5 h of the average day, mg, and the window's start, clock h.
    public var l5MilliG: Double?
    public var l5OnsetHours: Double?
    /// Mean ENMO of the most active 10 h of the average day, mg, and the window's start, clock h.
    public var m10MilliG: Double?
    public var m10OnsetHours: Double?
    /// Single-component 24-h cosinor: mesor and amplitude in mg, acrophase as the clock time of
    /// the fitted peak in h.
    public var cosinorMesorMilliG: Double?
    public var cosinorAmplitudeMilliG: Double?
    public var cosinorAcrophaseHours: Double?
    /// Sleep regularity index (−100…100), 1-min row only.
    public var sleepRegularityIndex: Double?
    /// Minute pairs 24 h apart with a sleep/wake state on both.
    public var sleepRegularityPairs: Int?
    /// Why measures are empty (one clause per measure), or `nil`.
    public var nullReason: String?
}

/// Day-level activity outcomes of a valid day (`motion_daily`), over its worn epochs.
public struct MotionDayOutcomes: Sendable, Hashable {
    /// The acceleration (ENMO, mg) above which the day's most active 60, 30, 15 and 5 minutes lie
    /// (Rowlands et al. 2018's MX; not GGIR's M5/M10 window means, which `motion_rhythm` holds as
    /// L5/M10).
    public var accelTop60MilliG: Double?
    public var accelTop30MilliG: Double?
    public var accelTop15MilliG: Double?
    public var accelTop5MilliG: Double?
    /// Intensity gradient (Rowlands et al. 2018): slope, intercept and R² of ln(minutes) against
    /// ln(bin midpoint mg) over 25-mg bins.
    public var intensityGradient: Double?
    public var intensityIntercept: Double?
    public var intensityR2: Double?
    /// Minutes of MVPA (ENMO ≥ the moderate cut-point) in bouts of at least 1, 5 and 10 min (80 %
    /// of the bout's epochs MVPA, starting and ending with one, no break over 1 min).
    public var mvpaBout1Minutes: Double
    public var mvpaBout5Minutes: Double
    public var mvpaBout10Minutes: Double
    /// Sedentary bouts (maximal runs of consecutive worn sedentary epochs), their mean length in
    /// minutes, the sedentary minutes in runs of at least 30 min, and the sedentary-to-active
    /// transition probability per minute (1 / mean bout length; Chastin SFM, Granat MH (2010)
    /// "Methods for objective measure, quantification and analysis of sedentary behaviour and
    /// inactivity", Gait Posture 31(1):82–86, doi:10.1016/j.gaitpost.2009.09.002). Epoch level:
    /// one non-sedentary epoch ends a bout.
    public var sedentaryBouts: Int
    public var sedentaryBoutMeanMinutes: Double?
    public var sedentaryInBouts30Minutes: Double
    public var sedentaryToActiveProbability: Double?
    /// Cadence over the day's worn clock minutes (steps in the minute): the highest minute, the
    /// mean of the 30 highest minutes, not necessarily consecutive (Tudor-Locke C et al. (2012)
    /// "Peak stepping cadence in free-living adults: 2005–2006 NHANES", J Phys Act Health
    /// 9(8):1125–1129), minutes with at least 100 steps, and the 95th percentile (linear, R type
    /// 7). A minute counts when at least half of its epochs are worn with ENMO.
    public var cadencePeak1: Double?
    public var cadencePeak30: Double?
    public var cadenceMinutesAtLeast100: Int?
    public var cadenceP95: Double?
}

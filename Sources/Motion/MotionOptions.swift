/// Options of the motion family, with documented defaults.
public struct MotionOptions: Sendable, Hashable {
    /// Epoch length in s (whole seconds; epochs start at multiples of it on the stream's clock).
    public var epochSeconds: Double = 5
    /// Grid rate in Hz; 0 takes the stream's declared rate, or the median sampling interval of
    /// its first 1024 samples rounded to a whole hertz.
    public var gridRateHz: Double = 0
    /// ENMO below which an epoch is sedentary, in mg (Hildebrand et al. 2017, "Evaluation of raw
    /// acceleration sedentary thresholds in children and adults", Scand J Med Sci Sports
    /// 27(12):1814–1823, doi:10.1111/sms.12795: 44.8 mg, adults, non-dominant wrist).
    public var sedentaryBelowMilliG: Double = 44.8
    /// ENMO from which an epoch is moderate, in mg (Hildebrand et al. 2014, "Age group
    /// comparability of raw accelerometer output from wrist- and hip-worn monitors", Med Sci
    /// Sports Exerc 46(9):1816–1824, doi:10.1249/MSS.0000000000000289: 100.6 mg, adults, wrist).
    public var moderateFromMilliG: Double = 100.6
    /// ENMO from which an epoch is vigorous, in mg (Hildebrand et al. 2014: 428.8 mg).
    public var vigorousFromMilliG: Double = 428.8

    /// Whether accelerometer streams are auto-calibrated against gravity (van Hees et al. 2014;
    /// ``AutoCalibration``) before the epochs are computed. The epochs then come in a second pass
    /// over the grid, kept in a temporary file, at the end of the stream.
    public var autoCalibrate = true

    /// Worn hours a clock day needs to be valid, h: only valid days get the day outcomes
    /// (``MotionDayOutcomes``) and enter the rest-activity rhythm (``MotionRhythm``). 16 h is
    /// GGIR's `includedaycrit` default.
    public var validDayWearHours: Double = 16
    /// Whether `motion_rhythm` has an hourly row (bins of 1 h).
    public var rhythmHourly = true
    /// Whether `motion_rhythm` has a 1-min row (bins of 1 min; the sleep regularity index).
    public var rhythmMinute = true
    /// Shortest wake interval between two sleep bouts that counts as an awakening
    /// (`motion_nights.awakenings`), min.
    public var awakeningMinutes: Double = 5
    /// A time-in-bed window known from outside the recording (a sleep diary's usual bed and rise
    /// times), `HH:MM-HH:MM` on the stream's clock, applied to every night; empty (default) when
    /// none is known. The HDCZA window is a sleep period, not a time in bed, so without this
    /// `motion_nights.sleep_onset_latency_s` is empty (as GGIR computes no latency for it).
    /// The window must not contain noon (it lies inside one noon-to-noon window).
    public var timeInBed = ""
    /// Whether naps are detected (`motion_nights.nap_bouts`, `nap_s`; off by default): a
    /// sustained-inactivity bout of the noon-to-noon window that does not overlap its SPT window,
    /// lies wholly within ``napWindowHours`` of its clock day and lasts within ``napMinutes``
    /// (GGIR's `possible_nap_window` and `possible_nap_dur`, defaults of `g.part5.classifyNaps`).
    public var naps = false
    /// Clock hours a nap must lie within (GGIR's `possible_nap_window` default 9–18 h).
    public var napWindowHours: ClosedRange<Double> = 9...18
    /// Durations a nap must have, min (GGIR's `possible_nap_dur` default 15–240 min).
    public var napMinutes: ClosedRange<Double> = 15...240

    /// The unit of accelerometer values: as the stream declares (default), or `g` or `m/s^2`
    /// whatever it declares — the fix for an export that wrote m/s² under a g label (found by
    /// the gravity check, ``GravityCheck``).
    public var accelerationUnit = AccelerationUnit.declared

    /// The unit accelerometer values are read in (``accelerationUnit``).
    public enum AccelerationUnit: String, Sendable, Hashable, CaseIterable {
        /// The stream's declared unit (g or m/s²).
        case declared
        /// Standard gravity, whatever the stream declares.
        case g
        /// m/s², whatever the stream declares.
        case metresPerSecondSquared = "m/s^2"
    }

    /// Options with every default.
    public init() {}

    /// Intensity class of an ENMO value in mg.
    /// - Complexity: O(1).
    public func intensity(enmoMilliG: Double) -> IntensityClass {
        if enmoMilliG < sedentaryBelowMilliG { return .sedentary }
        if enmoMilliG < moderateFromMilliG { return .light }
        if enmoMilliG < vigorousFromMilliG { return .moderate }
        return .vigorous
    }
}

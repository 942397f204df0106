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

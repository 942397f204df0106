import Signals

extension MotionTables {
    /// The motion family's summary figures (``SummaryFigure``), from `motion_epochs` (steps,
    /// wear, time per intensity class, ENMO) and `motion_nights` (sleep). Epochs judged not worn
    /// never count as activity, rest or sleep: they have no intensity class, no ENMO in the mean,
    /// and sleep bouts hold worn epochs only.
    public static let summaryFigures: [SummaryFigure] = [
        SummaryFigure(
            family: MotionFamily.name, name: "steps", type: .integer,
            meaning: "steps detected (motion_epochs.steps summed over every epoch of the device's accelerometer streams)",
            aggregation: .sum, sourceTable: "motion_daily", sourceColumn: "steps"),
        SummaryFigure(
            family: MotionFamily.name, name: "wear_hours", unit: "h",
            meaning:
                "covered time of epochs whose 15-min block is judged worn (motion_epochs.non_wear = 0; van Hees et al. 2013), hours; undecided blocks count neither as worn nor as not worn",
            aggregation: .sum, sourceTable: "motion_daily", sourceColumn: "wear_s"),
        SummaryFigure(
            family: MotionFamily.name, name: "non_wear_hours", unit: "h",
            meaning: "covered time of epochs whose 15-min block is judged not worn (motion_epochs.non_wear = 1), hours",
            aggregation: .sum, sourceTable: "motion_daily", sourceColumn: "non_wear_s"),
        SummaryFigure(
            family: MotionFamily.name, name: "sedentary_min", unit: "min",
            meaning:
                "covered time of epochs classified sedentary (ENMO cut-points, Hildebrand et al. 2014, 2017; epochs judged not worn have no class), minutes",
            aggregation: .sum, sourceTable: "motion_daily", sourceColumn: "sedentary_s"),
        SummaryFigure(
            family: MotionFamily.name, name: "light_min", unit: "min",
            meaning: "covered time of epochs classified light, minutes", aggregation: .sum, sourceTable: "motion_daily",
            sourceColumn: "light_s"),
        SummaryFigure(
            family: MotionFamily.name, name: "mvpa_min", unit: "min",
            meaning: "covered time of epochs classified moderate or vigorous (MVPA), minutes", aggregation: .sum,
            sourceTable: "motion_daily", sourceColumn: "moderate_s"),
        SummaryFigure(
            family: MotionFamily.name, name: "enmo_mean_mg", unit: "mg",
            meaning:
                "mean ENMO of the epochs with metrics not judged non-wear, weighted by their samples (as motion_daily.enmo_mean_mg); empty without any",
            aggregation: .mean, sourceTable: "motion_daily", sourceColumn: "enmo_mean_mg"),
        SummaryFigure(
            family: MotionFamily.name, name: "sleep_hours", unit: "h",
            meaning:
                "sustained inactivity inside the sleep period time window (motion_nights.sleep_s; van Hees et al. 2015, 2018), hours, mean over the nights with a window; a night counts on the day of the noon opening it; empty without any",
            aggregation: .mean, sourceTable: "motion_nights", sourceColumn: "sleep_s"),
        SummaryFigure(
            family: MotionFamily.name, name: "spt_hours", unit: "h",
            meaning:
                "duration of the sleep period time window (motion_nights.spt_s, HDCZA), hours, mean over the nights with a window; empty without any",
            aggregation: .mean, sourceTable: "motion_nights", sourceColumn: "spt_s"),
        SummaryFigure(
            family: MotionFamily.name, name: "accel_top30min_mg", unit: "mg",
            meaning:
                "ENMO above which a valid day's most active 30 min lie (motion_daily.accel_top30min_mg; Rowlands et al. 2018's M30, not GGIR's M10 window mean), mean over the valid days; a day counts on its midnight; empty without a valid day",
            aggregation: .mean, sourceTable: "motion_daily", sourceColumn: "accel_top30min_mg"),
        SummaryFigure(
            family: MotionFamily.name, name: "ig_gradient",
            meaning:
                "intensity gradient of a valid day (motion_daily.ig_gradient; Rowlands et al. 2018), mean over the valid days; empty without a valid day",
            aggregation: .mean, sourceTable: "motion_daily", sourceColumn: "ig_gradient"),
        SummaryFigure(
            family: MotionFamily.name, name: "mvpa_bout10_min", unit: "min",
            meaning:
                "minutes of MVPA in bouts of ≥ 10 min (GGIR's 80 % rule; motion_daily.mvpa_bout10_min) per valid day, mean over the valid days (GGIR's plain average of valid days); empty without a valid day",
            aggregation: .mean, sourceTable: "motion_daily", sourceColumn: "mvpa_bout10_min"),
        SummaryFigure(
            family: MotionFamily.name, name: "cadence_peak30_spm", unit: "1/min",
            meaning:
                "peak 30-min cadence of a valid day (mean steps of its 30 highest minutes; motion_daily.cadence_peak30_spm), mean over the valid days; empty without a valid day",
            aggregation: .mean, sourceTable: "motion_daily", sourceColumn: "cadence_peak30_spm"),
        SummaryFigure(
            family: MotionFamily.name, name: "accel_top60min_mg", unit: "mg",
            meaning:
                "ENMO above which a valid day's most active 60 min lie (motion_daily.accel_top60min_mg; Rowlands et al. 2018's M60), mean over the valid days; empty without a valid day",
            aggregation: .mean, sourceTable: "motion_daily", sourceColumn: "accel_top60min_mg"),
        SummaryFigure(
            family: MotionFamily.name, name: "accel_top5min_mg", unit: "mg",
            meaning:
                "ENMO above which a valid day's most active 5 min lie (motion_daily.accel_top5min_mg; Rowlands et al. 2018's M5, not GGIR's L5/M5 window mean), mean over the valid days; empty without a valid day",
            aggregation: .mean, sourceTable: "motion_daily", sourceColumn: "accel_top5min_mg"),
        SummaryFigure(
            family: MotionFamily.name, name: "mvpa_bout1_min", unit: "min",
            meaning:
                "minutes of MVPA in bouts of ≥ 1 min (GGIR's 80 % rule; motion_daily.mvpa_bout1_min) per valid day, mean over the valid days; empty without a valid day",
            aggregation: .mean, sourceTable: "motion_daily", sourceColumn: "mvpa_bout1_min"),
        SummaryFigure(
            family: MotionFamily.name, name: "mvpa_bout5_min", unit: "min",
            meaning:
                "minutes of MVPA in bouts of ≥ 5 min (GGIR's 80 % rule; motion_daily.mvpa_bout5_min) per valid day, mean over the valid days; empty without a valid day",
            aggregation: .mean, sourceTable: "motion_daily", sourceColumn: "mvpa_bout5_min"),
        SummaryFigure(
            family: MotionFamily.name, name: "sed_in_bouts30_min", unit: "min",
            meaning:
                "sedentary minutes in bouts of ≥ 30 min over a valid clock day, sleep period included (motion_daily.sed_in_bouts30_min), mean over the valid days; empty without a valid day",
            aggregation: .mean, sourceTable: "motion_daily", sourceColumn: "sed_in_bouts30_min"),
        SummaryFigure(
            family: MotionFamily.name, name: "sed_to_active_tp", unit: "1/min",
            meaning:
                "sedentary fragmentation of a valid day, 1 / mean sedentary bout length (motion_daily.sed_to_active_tp; Chastin & Granat 2010), mean over the valid days; empty without a valid day",
            aggregation: .mean, sourceTable: "motion_daily", sourceColumn: "sed_to_active_tp"),
        SummaryFigure(
            family: MotionFamily.name, name: "cadence_peak1_spm", unit: "1/min",
            meaning:
                "peak 1-min cadence of a valid day (steps in its highest clock minute; motion_daily.cadence_peak1_spm), mean over the valid days; empty without a valid day",
            aggregation: .mean, sourceTable: "motion_daily", sourceColumn: "cadence_peak1_spm"),
        SummaryFigure(
            family: MotionFamily.name, name: "cadence_ge100_min", unit: "min",
            meaning:
                "minutes with at least 100 steps on a valid day (motion_daily.cadence_ge100_min), mean over the valid days; empty without a valid day",
            aggregation: .mean, sourceTable: "motion_daily", sourceColumn: "cadence_ge100_min"),
        SummaryFigure(
            family: MotionFamily.name, name: "sleep_efficiency",
            meaning:
                "sleep_s / spt_s of a night (motion_nights.sleep_efficiency: the denominator is the HDCZA sleep period window, not a time in bed), mean over the nights with a window; a night counts on the day of the noon opening it",
            aggregation: .mean, sourceTable: "motion_nights", sourceColumn: "sleep_efficiency"),
        SummaryFigure(
            family: MotionFamily.name, name: "awakenings",
            meaning:
                "wake intervals of at least awakening_min between a night's sleep bouts (motion_nights.awakenings), mean per night over the nights with a window",
            aggregation: .mean, sourceTable: "motion_nights", sourceColumn: "awakenings"),
        SummaryFigure(
            family: MotionFamily.name, name: "sleep_onset_latency_min", unit: "min",
            meaning:
                "sleep onset latency against the diary's time in bed (motion_nights.sleep_onset_latency_s, option time_in_bed), minutes, mean over the nights with one; empty without a time in bed",
            aggregation: .mean, sourceTable: "motion_nights", sourceColumn: "sleep_onset_latency_s"),
        SummaryFigure(
            family: MotionFamily.name, name: "nap_min", unit: "min",
            meaning:
                "time in nap bouts outside the sleep period (motion_nights.nap_s; option naps, GGIR's nap window and durations), minutes, mean over the nights analysed for naps; empty without one (naps off by default)",
            aggregation: .mean, sourceTable: "motion_nights", sourceColumn: "nap_s"),
        SummaryFigure(
            family: MotionFamily.name, name: "night_rotation_rate_dps", unit: "deg/s",
            meaning:
                "mean angular speed of the paired gyroscope over a night's sleep period window (motion_nights.rotation_rate_dps), mean over the nights with a value; empty without a gyroscope",
            aggregation: .mean, sourceTable: "motion_nights", sourceColumn: "rotation_rate_dps"),
    ]
}

extension MotionEpoch: StreamSummaryValue {
    /// The epoch's facts for the summary tables: its steps, its covered time as worn or not worn
    /// (when its block is decided) and in its intensity class, and its ENMO (weighted by its
    /// samples) unless judged not worn. Zero sums give no fact.
    public func summaryFacts(stream: String) -> [SummaryFact] {
        var out = [SummaryFact]()
        let end = startSeconds + lengthSeconds
        func add(_ figure: String, _ value: Double, weight: Double = 1) {
            out.append(
                SummaryFact(
                    family: MotionFamily.name, stream: stream, startSeconds: startSeconds, endSeconds: end, figure: figure,
                    value: value, weight: weight))
        }
        if steps > 0 { add("steps", Double(steps)) }
        let seconds = coverage * lengthSeconds
        if seconds > 0 {
            switch nonWear {
            case false?: add("wear_hours", seconds / 3600)
            case true?: add("non_wear_hours", seconds / 3600)
            case nil: break
            }
            switch intensity {
            case .sedentary?: add("sedentary_min", seconds / 60)
            case .light?: add("light_min", seconds / 60)
            case .moderate?, .vigorous?: add("mvpa_min", seconds / 60)
            case nil: break
            }
        }
        if let enmo = enmoMilliG, nonWear != true, samples > 0 { add("enmo_mean_mg", enmo, weight: Double(samples)) }
        return out
    }
}

extension MotionNight: StreamSummaryValue {
    /// The night's facts for the summary tables, at the noon opening its window: its sustained
    /// inactivity, sleep period time, sleep efficiency and awakenings when it has a sleep period
    /// time window; its sleep onset latency, nap time and rotation rate when it has them.
    public func summaryFacts(stream: String) -> [SummaryFact] {
        var out = [SummaryFact]()
        func fact(_ figure: String, _ value: Double?) {
            guard let value, value.isFinite else { return }
            out.append(
                SummaryFact(
                    family: MotionFamily.name, stream: stream, startSeconds: windowStartSeconds,
                    endSeconds: windowStartSeconds + 86_400, figure: figure, value: value))
        }
        fact("sleep_hours", sleepSeconds.map { $0 / 3600 })
        fact("spt_hours", sptSeconds.map { $0 / 3600 })
        fact("sleep_efficiency", sleepEfficiency)
        fact("awakenings", awakenings.map(Double.init))
        fact("sleep_onset_latency_min", sleepOnsetLatencySeconds.map { $0 / 60 })
        fact("nap_min", napSeconds.map { $0 / 60 })
        fact("night_rotation_rate_dps", rotationRateMeanDegreesPerSecond)
        return out
    }
}

extension MotionDay: StreamSummaryValue {
    /// A valid day's outcome facts, over the day (midnight to midnight on the stream's clock):
    /// the acceleration above its most active 60, 30 and 5 min, its intensity gradient, its MVPA
    /// minutes in 1-, 5- and 10-min bouts, its sedentary time in 30-min bouts and fragmentation,
    /// its peak 1- and 30-min cadence and minutes at ≥ 100 steps/min. A day below the wear rule
    /// gives none.
    public func summaryFacts(stream: String) -> [SummaryFact] {
        guard let o = outcomes else { return [] }
        var out = [SummaryFact]()
        func add(_ figure: String, _ value: Double?) {
            guard let value, value.isFinite else { return }
            out.append(
                SummaryFact(
                    family: MotionFamily.name, stream: stream, startSeconds: startSeconds, endSeconds: startSeconds + 86_400,
                    figure: figure, value: value))
        }
        add("accel_top30min_mg", o.accelTop30MilliG)
        add("ig_gradient", o.intensityGradient)
        add("mvpa_bout10_min", o.mvpaBout10Minutes)
        add("cadence_peak30_spm", o.cadencePeak30)
        add("accel_top60min_mg", o.accelTop60MilliG)
        add("accel_top5min_mg", o.accelTop5MilliG)
        add("mvpa_bout1_min", o.mvpaBout1Minutes)
        add("mvpa_bout5_min", o.mvpaBout5Minutes)
        add("sed_in_bouts30_min", o.sedentaryInBouts30Minutes)
        add("sed_to_active_tp", o.sedentaryToActiveProbability)
        add("cadence_peak1_spm", o.cadencePeak1)
        add("cadence_ge100_min", o.cadenceMinutesAtLeast100.map(Double.init))
        return out
    }
}

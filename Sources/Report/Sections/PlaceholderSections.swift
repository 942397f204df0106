/// The PPG family's place in the report (issue: PPG family). Until its plots are drawn here, the
/// report lists its rows, or says the recording has none.
struct PPGSection: ReportSection {
    let family = "ppg"
    let title = "PPG: pulse"
    let tables = ["ppg_quality"]
    let shows =
        "pulse strips with detected pulses, PPG quality per window, pulse rate against the ECG where both exist, and accelerometer-assisted heart rate against the periodogram"

    func hasResults(_ c: ReportContext) throws(ReportError) -> Bool {
        if try c.count("ppg_quality") > 0 { return true }
        if try c.count("heart_rate", where: "source = 'ppg'") > 0 { return true }
        return try c.count("beats", where: "source = 'ppg'") > 0
    }
}

/// The motion family's place in the report (issue: motion family).
struct MotionSection: ReportSection {
    let family = "motion"
    let title = "Motion: activity, sleep and wear"
    let tables = ["motion_epochs", "motion_daily"]
    let shows = "an actogram with sleep and non-wear, and steps per day"
}

/// The features family's place in the report (issue: features family).
struct FeaturesSection: ReportSection {
    let family = "features"
    let title = "Features"
    let tables = ["features"]
    let shows = "the feature windows over time"
}

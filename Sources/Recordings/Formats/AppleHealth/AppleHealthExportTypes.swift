/// The HealthKit record types ``AppleHealthExportDecoder`` turns into streams, with their units
/// as Apple writes them in `export.xml` and the units delivered.
///
/// Units (HealthKit `HKUnit` unit strings, as the export's `unit` attribute writes them):
/// `count/min` (heart rate, respiratory rate) is kept; `ms` (SDNN) is kept; `%` is a fraction
/// in HealthKit (`HKUnit.percent()`: 1 = 100 %, so an export's `value="0.97"` is 97 %) and is
/// delivered in per cent; `count` (steps) is kept; `degC` is kept and `degF` converted
/// ((F − 32) · 5/9). A record whose unit differs from these is rejected with an issue, never
/// reinterpreted.
enum AppleHealthExportTypes {
    /// How one record type is delivered.
    struct Quantity {
        /// The stream's channel (the identifier without its HealthKit prefix).
        let channel: String
        /// The delivered unit of the `value` column.
        let unit: PhysicalUnit
        /// Converts a value written in `sourceUnit`; `nil` for a unit this type does not accept.
        let convert: @Sendable (Double, String) -> Double?
    }

    private static func same(_ accepted: String) -> @Sendable (Double, String) -> Double? {
        { v, u in u == accepted ? v : nil }
    }

    private static let temperature: @Sendable (Double, String) -> Double? = { v, u in
        switch u {
        case "degC": return v
        case "degF": return (v - 32) * 5 / 9
        default: return nil
        }
    }

    /// Quantity types by HealthKit identifier.
    static let quantities: [String: Quantity] = [
        "HKQuantityTypeIdentifierHeartRate": Quantity(channel: "HeartRate", unit: .perMinute, convert: same("count/min")),
        "HKQuantityTypeIdentifierRestingHeartRate": Quantity(
            channel: "RestingHeartRate", unit: .perMinute, convert: same("count/min")),
        "HKQuantityTypeIdentifierWalkingHeartRateAverage": Quantity(
            channel: "WalkingHeartRateAverage", unit: .perMinute, convert: same("count/min")),
        "HKQuantityTypeIdentifierHeartRateVariabilitySDNN": Quantity(
            channel: "HeartRateVariabilitySDNN", unit: .milliseconds, convert: same("ms")),
        "HKQuantityTypeIdentifierRespiratoryRate": Quantity(
            channel: "RespiratoryRate", unit: .perMinute, convert: same("count/min")),
        "HKQuantityTypeIdentifierOxygenSaturation": Quantity(
            channel: "OxygenSaturation", unit: .percent, convert: { v, u in u == "%" ? v * 100 : nil }),
        "HKQuantityTypeIdentifierStepCount": Quantity(channel: "StepCount", unit: .count, convert: same("count")),
        "HKQuantityTypeIdentifierAppleSleepingWristTemperature": Quantity(
            channel: "AppleSleepingWristTemperature", unit: .degreesCelsius, convert: temperature),
    ]

    /// The sleep-analysis record type (a category: its `value` is a name).
    static let sleepAnalysis = "HKCategoryTypeIdentifierSleepAnalysis"

    /// `HKCategoryValueSleepAnalysis` names and their HealthKit raw values (Apple,
    /// `HKCategoryValueSleepAnalysis`: inBed 0, asleepUnspecified 1 — `Asleep` before iOS 16 —,
    /// awake 2, asleepCore 3, asleepDeep 4, asleepREM 5), delivered as the `value` column.
    static let sleepCategories: [String: Float] = [
        "HKCategoryValueSleepAnalysisInBed": 0, "HKCategoryValueSleepAnalysisAsleep": 1,
        "HKCategoryValueSleepAnalysisAsleepUnspecified": 1, "HKCategoryValueSleepAnalysisAwake": 2,
        "HKCategoryValueSleepAnalysisAsleepCore": 3, "HKCategoryValueSleepAnalysisAsleepDeep": 4,
        "HKCategoryValueSleepAnalysisAsleepREM": 5,
    ]

    /// Seconds per unit of a workout's `durationUnit` (`min` in every export seen; `s`, `hr`).
    static func secondsPer(durationUnit: String) -> Double? {
        switch durationUnit {
        case "s": return 1
        case "min": return 60
        case "hr", "h": return 3600
        default: return nil
        }
    }

    /// Parses a beat's `time` attribute: the time of day in the export's locale,
    /// `HH:mm:ss.SS` or `HH:mm:ss,SS` (decimal comma), or `h:mm:ss.SS AM|PM`.
    /// - Returns: seconds since local midnight, or `nil` for another shape.
    static func timeOfDay(_ text: String) -> Double? {
        var s = Substring(text).drop { $0 == " " }
        var pm: Bool?
        let upper = s.uppercased()
        if upper.hasSuffix("AM") || upper.hasSuffix("PM") {
            pm = upper.hasSuffix("PM")
            s = s.dropLast(2)
            while let c = s.last, c == " " || c == "\u{00A0}" || c == "\u{202F}" { s = s.dropLast() }
        }
        let parts = s.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 3, let h = Int(parts[0]), let m = Int(parts[1]), (0..<60).contains(m) else { return nil }
        let secText = parts[2].replacingOccurrences(",", ".")
        guard let sec = Double(secText), sec >= 0, sec < 61, secText.first?.isNumber == true else { return nil }
        var hour = h
        if let pm {
            guard (1...12).contains(h) else { return nil }
            hour = h % 12 + (pm ? 12 : 0)
        }
        guard (0..<24).contains(hour) else { return nil }
        return Double(hour * 3600 + m * 60) + sec
    }
}

extension AppleHealthExportTypes {
    /// ``timeOfDay(_:)`` of the common shape `H:mm:ss`, `HH:mm:ss.S…` or `HH:mm:ss,S…` (ASCII
    /// digits only: at most 2 for hours and minutes, 2 for whole seconds, 9 for the fraction),
    /// read straight from the bytes; `nil` for any other text, which the caller then gives to
    /// ``timeOfDay(_:)`` (AM/PM, spaces, signs, other digit counts), so both agree on every input.
    /// The seconds are correctly rounded (``DecimalNumber/parse(_:separators:)``), as `Double(_:)`.
    static func timeOfDay(bytes b: UnsafeBufferPointer<UInt8>) -> Double? {
        var i = 0
        func digits(_ most: Int) -> Int? {
            var v = 0
            let from = i
            while i < b.count && i - from < most && b[i] >= 0x30 && b[i] <= 0x39 {
                v = v * 10 + Int(b[i] - 0x30)
                i += 1
            }
            return i > from ? v : nil
        }
        guard let h = digits(2), i < b.count, b[i] == 0x3A else { return nil }
        i += 1
        guard let m = digits(2), i < b.count, b[i] == 0x3A else { return nil }
        i += 1
        let secondsStart = i
        guard digits(2) != nil else { return nil }
        if i < b.count {
            guard b[i] == 0x2E || b[i] == 0x2C else { return nil }
            i += 1
            guard digits(9) != nil else { return nil }
        }
        guard i == b.count, h < 24, m < 60,
            let sec = DecimalNumber.parse(UnsafeBufferPointer(rebasing: b[secondsStart...]), separators: .either), sec < 61
        else { return nil }
        return Double(h * 3600 + m * 60) + sec
    }
}

extension Substring {
    fileprivate func replacingOccurrences(_ a: Character, _ b: Character) -> String {
        String(map { $0 == a ? b : $0 })
    }
}

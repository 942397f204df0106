/// Calendar dates from day counts, for the tables and reports that name days.
public enum CivilDate {
    /// `YYYY-MM-DD` (proleptic Gregorian) of the day `days` after 1970-01-01 (negative before it).
    ///
    /// Howard Hinnant's `civil_from_days` ("chrono-Compatible Low-Level Date Algorithms", 2013).
    /// - Parameter days: days since 1970-01-01.
    /// - Returns: the ISO 8601 date.
    /// - Complexity: O(1).
    public static func isoDate(daysSince1970 days: Int) -> String {
        let (y, m, d) = components(daysSince1970: days)
        func pad(_ v: Int, _ width: Int) -> String {
            let s = String(v)
            return String(repeating: "0", count: max(0, width - s.count)) + s
        }
        return pad(y, 4) + "-" + pad(m, 2) + "-" + pad(d, 2)
    }

    /// Year, month (1–12) and day (1–31), proleptic Gregorian, of the day `days` after 1970-01-01
    /// (Hinnant's `civil_from_days`, as ``isoDate(daysSince1970:)``).
    /// - Parameter days: days since 1970-01-01 (negative before it).
    /// - Returns: the date's components.
    /// - Complexity: O(1).
    public static func components(daysSince1970 days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (m <= 2 ? 1 : 0), m, d)
    }
}

import Foundation
import Pipeline

/// How a plot's time axis reads: what the times count from (a result stream's `time_origin`),
/// the recording's UTC offset when known, and the tick labels that follow from both.
struct TimeScale: Sendable {
    /// `unix`, `stream_start` or `device_local`.
    var origin: String
    /// Seconds east of UTC (`stream_attributes.utc_offset_s`), when known.
    var utcOffsetSeconds: Int?

    /// The axis title, saying which clock the labels are in.
    var title: String {
        switch origin {
        case "unix":
            if let o = utcOffsetSeconds { return "local time (\(Self.offsetText(o)))" }
            return "time (UTC; the recording's UTC offset is unknown)"
        case "device_local": return "device clock (local time, UTC offset unknown)"
        default: return "time from the stream's start"
        }
    }

    /// Whether the times are calendar times (tick labels are clock times and dates).
    var isCalendar: Bool { origin == "unix" || origin == "device_local" }

    private var shift: Double { origin == "unix" ? Double(utcOffsetSeconds ?? 0) : 0 }

    /// `UTC+08:00`.
    static func offsetText(_ seconds: Int) -> String {
        let sign = seconds < 0 ? "−" : "+"
        let a = abs(seconds)
        return String(format: "UTC%@%02d:%02d", sign, a / 3600, (a % 3600) / 60)
    }

    /// Tick positions (stream time) for the span `t0…t1`, about `target` of them, on round clock values.
    func ticks(_ t0: Double, _ t1: Double, target: Int = 7) -> [Double] {
        guard t1 > t0 else { return [t0] }
        let steps: [Double] = [
            0.2, 0.5, 1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10_800, 21_600, 43_200, 86_400,
            172_800, 604_800,
        ]
        let span = t1 - t0
        guard span.isFinite else { return [t0] }
        // Beyond a week per tick: whole weeks, as many as keep about `target` ticks.
        let step = steps.first { span / $0 <= Double(target) } ?? (span / Double(target) / 604_800).rounded(.up) * 604_800
        var out = [Double]()
        let first = ((t0 + shift) / step).rounded(.up)
        // Ticks are computed from their index (no running sum), at most 2·target + 2 of them.
        for k in 0...(2 * target + 2) {
            let t = (first + Double(k)) * step - shift
            if t > t1 + 1e-9 { break }
            out.append(t)
        }
        return out
    }

    /// A tick label: clock time (with the month and day at midnights and on spans of days), or
    /// elapsed time. The date of the first tick is in ``axisTitle(from:)``.
    func label(_ t: Double, span: Double, first: Bool) -> String {
        if isCalendar {
            let local = t + shift
            let (date, time) = Self.calendar(local, seconds: span < 600)
            let midnight = local.truncatingRemainder(dividingBy: 86_400) == 0
            if span >= 2 * 86_400 { return String(date.dropFirst(5)) + (midnight ? "" : " " + time) }
            return midnight ? String(date.dropFirst(5)) + " " + time : time
        }
        if span < 600 { return Self.trim(t) + " s" }
        if span < 36_000 { return Self.trim(t / 60) + " min" }
        return Self.trim(t / 3600) + " h"
    }

    /// The axis title with the date the axis starts on: `local time (UTC+08:00), from 2024-05-21`.
    func axisTitle(from t0: Double) -> String {
        guard isCalendar else { return title }
        return title + ", from " + Self.calendar(t0 + shift, seconds: false).0
    }

    /// A full time for text: `2024-05-21 09:00:12 (UTC+08:00)` or `12.5 s from the stream's start`.
    func describe(_ t: Double) -> String {
        if isCalendar {
            let (date, time) = Self.calendar(t + shift, seconds: true)
            let zone =
                origin == "device_local" ? "device clock" : (utcOffsetSeconds.map { Self.offsetText($0) } ?? "UTC")
            return "\(date) \(time) (\(zone))"
        }
        return Self.trim(t) + " s from the stream's start"
    }

    static func trim(_ x: Double) -> String {
        let s = String(format: "%.1f", x)
        return s.hasSuffix(".0") ? String(s.dropLast(2)) : s
    }

    /// `YYYY-MM-DD` and `HH:MM[:SS]` of seconds since 1970 on some calendar (no time zone applied).
    static func calendar(_ t: Double, seconds: Bool) -> (String, String) {
        let total = Int(t.rounded(.down))
        var days = total / 86_400
        var rest = total % 86_400
        if rest < 0 {
            rest += 86_400
            days -= 1
        }
        let date = CivilDate.isoDate(daysSince1970: days)
        let time = two(rest / 3600) + ":" + two((rest % 3600) / 60) + (seconds ? ":" + two(rest % 60) : "")
        return (date, time)
    }

    /// `%02d` of 0…99 without a format string (pages call it for every tick and time described).
    static func two(_ n: Int) -> String { n < 10 ? "0" + String(n) : String(n) }
}

import Foundation

/// The night outcomes that need more than the SPT window: the sleep onset latency against a
/// known time in bed and the naps outside the night.
///
/// - Sleep onset latency: GGIR's rule for a guider that reflects the time in bed (GGIR vignette
///   "Sleep analysis", chapter 10: with a time-in-bed guider a sustained-inactivity bout counts as
///   sleep when it lies wholly inside the guider, the first one's start is sleep onset, and the
///   latency is onset minus the guider's start). The time in bed comes from
///   ``MotionOptions/timeInBed`` (a diary); HDCZA estimates the sleep period, not the time in bed,
///   so without one the latency is empty, as in GGIR (`sleepwindowType = "SPT"`).
/// - Naps: GGIR's nap rule (vignette "Nap detection"; `g.part5.classifyNaps` defaults): a
///   sustained-inactivity bout that does not overlap the SPT window, lies within
///   ``MotionOptions/napWindowHours`` of its clock day and lasts within ``MotionOptions/napMinutes``.
///   GGIR's further classifier (`nap_model = "hip3yr"`, trained on 3-year-olds' hip data, which
///   also tells naps from missed non-wear) is not applied; instead a bout next to an epoch judged
///   not worn is not a nap (the stillness goes on into non-wear: the edge of an off-wrist period
///   that the 15-min non-wear blocks judged worn). The caller leaves those bouts out.
enum NightOutcomes {
    /// The time-in-bed window of the noon-to-noon window starting at `windowStart`, from an
    /// `HH:MM-HH:MM` text.
    /// - Returns: the window, or why there is none (`nil` span and a reason).
    /// - Complexity: O(text length).
    static func timeInBed(_ text: String, windowStart: Double) -> (span: MotionNight.Span?, reason: String?) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else {
            return (
                nil,
                "sleep_onset_latency: no time-in-bed window known (HDCZA gives the sleep period, not the time in bed; option time_in_bed)"
            )
        }
        let parts = trimmed.split(separator: "-").map { $0.trimmingCharacters(in: .whitespaces) }
        guard parts.count == 2, let bed = clockSeconds(parts[0]), let rise = clockSeconds(parts[1]), bed != rise else {
            return (nil, "sleep_onset_latency: time_in_bed '\(trimmed)' is not HH:MM-HH:MM")
        }
        // Seconds after the window's noon; the window must not contain noon.
        let start = (bed - 43_200 + 86_400).truncatingRemainder(dividingBy: 86_400)
        let length = (rise - bed + 86_400).truncatingRemainder(dividingBy: 86_400)
        guard start + length <= 86_400 else {
            return (nil, "sleep_onset_latency: time_in_bed '\(trimmed)' contains noon (it must lie inside one noon-to-noon window)")
        }
        return (MotionNight.Span(startSeconds: windowStart + start, endSeconds: windowStart + start + length), nil)
    }

    /// `HH:MM` as seconds after midnight, or `nil`.
    private static func clockSeconds(_ text: String) -> Double? {
        let hm = text.split(separator: ":")
        guard hm.count == 2, let h = Int(hm[0]), let m = Int(hm[1]), (0..<24).contains(h), (0..<60).contains(m) else { return nil }
        return Double(h * 3600 + m * 60)
    }

    /// Sleep onset latency against a time in bed: the first bout lying wholly inside it.
    /// - Parameters:
    ///   - bouts: the window's sustained-inactivity bouts, in time order (s on the stream's clock).
    ///   - timeInBed: the night's time in bed.
    /// - Returns: the latency in s, or why there is none.
    /// - Complexity: O(bouts).
    static func latency(bouts: [MotionNight.Span], timeInBed: MotionNight.Span) -> (seconds: Double?, reason: String?) {
        guard
            let first = bouts.first(where: { $0.startSeconds >= timeInBed.startSeconds && $0.endSeconds <= timeInBed.endSeconds })
        else { return (nil, "sleep_onset_latency: no sustained-inactivity bout lies wholly inside the time in bed") }
        return (first.startSeconds - timeInBed.startSeconds, nil)
    }

    /// The nap bouts of a window: bouts not overlapping the SPT window, inside the nap hours of
    /// their clock day, of a nap's duration.
    /// - Complexity: O(bouts).
    static func naps(bouts: [MotionNight.Span], spt: MotionNight.Span, options: MotionOptions) -> [MotionNight.Span] {
        bouts.filter { b in
            guard b.endSeconds <= spt.startSeconds || b.startSeconds >= spt.endSeconds else { return false }
            let minutes = (b.endSeconds - b.startSeconds) / 60
            guard options.napMinutes.contains(minutes) else { return false }
            let midnight = (b.startSeconds / 86_400).rounded(.down) * 86_400
            return b.startSeconds >= midnight + options.napWindowHours.lowerBound * 3600
                && b.endSeconds <= midnight + options.napWindowHours.upperBound * 3600
        }
    }
}

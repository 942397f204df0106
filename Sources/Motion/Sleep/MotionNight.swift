/// One noon-to-noon window of an accelerometer stream: its sleep period time window (HDCZA)
/// and the sustained-inactivity bouts inside it.
public struct MotionNight: Sendable, Hashable {
    /// The date of the noon that opens the window (`YYYY-MM-DD` on the stream's clock, or `+N`).
    public var night: String
    /// What `night` counts on: `utc`, `device_local` or `stream_start`.
    public var timeBasis: String
    /// Start of the window (noon), in s on the stream's clock.
    public var windowStartSeconds: Double
    /// Worn time with a z-angle in the window, in s.
    public var validSeconds: Double
    /// Time in 15-min blocks judged not worn, in s.
    public var nonWearSeconds: Double
    /// The HDCZA threshold of the window, in degrees (10th percentile × 15, within 0.13…0.50).
    public var thresholdDegrees: Double?
    /// Sleep onset and wake: start and end (exclusive) of the SPT window, in s.
    public var onsetSeconds: Double?
    public var wakeSeconds: Double?
    /// Sustained-inactivity time inside the SPT window, in s.
    public var sleepSeconds: Double?
    /// Sustained-inactivity bouts inside the SPT window.
    public var bouts: Int?
    /// Those bouts' start and end (exclusive), in s on the stream's clock, in time order.
    public var boutSpans: [Span] = []
    /// Wake intervals between successive sleep bouts lasting at least
    /// ``MotionOptions/awakeningMinutes``, or `nil` without an SPT window.
    public var awakenings: Int?
    /// Why the night has no SPT window, or `nil`.
    public var note: String?
    /// The time-in-bed window of the night (``MotionOptions/timeInBed``), in s on the stream's
    /// clock, or `nil` when none is known.
    public var timeInBed: Span?
    /// Sleep onset latency: start of the first sustained-inactivity bout lying wholly inside the
    /// time in bed, minus the time in bed's start, in s (GGIR's rule for a time-in-bed guider);
    /// `nil` without a time in bed, an SPT window or such a bout.
    public var sleepOnsetLatencySeconds: Double?
    /// Nap bouts: sustained-inactivity bouts of the window outside the SPT window that pass the nap
    /// rule (``MotionOptions/naps``), in time order; empty when nap detection is off.
    public var napSpans: [Span] = []
    /// Whether nap detection ran on the night (``MotionOptions/naps`` on and an SPT window).
    public var napsDetected = false
    /// Mean rotation rate over the SPT window, in deg/s: the paired gyroscope's mean angular speed
    /// |ω| weighted by its grid samples, or `nil` (see ``nullReason``).
    public var rotationRateMeanDegreesPerSecond: Double?
    /// Why the sleep onset latency, the naps and the rotation rate are empty, one clause each.
    public var latencyNote: String?, napNote: String?, rotationNote: String?

    /// The clauses of ``latencyNote``, ``napNote`` and ``rotationNote``, or `nil`.
    public var nullReason: String? {
        let parts = [latencyNote, napNote, rotationNote].compactMap { $0 }
        return parts.isEmpty ? nil : parts.joined(separator: "; ")
    }

    /// Nap bouts found (``napSpans``), or `nil` when nap detection did not run.
    public var napBouts: Int? { napsDetected ? napSpans.count : nil }

    /// Time in nap bouts, in s, or `nil` when nap detection did not run.
    public var napSeconds: Double? {
        napsDetected ? napSpans.reduce(0) { $0 + $1.endSeconds - $1.startSeconds } : nil
    }

    /// A stretch of time, in s on the stream's clock.
    public struct Span: Sendable, Hashable {
        /// Start, s.
        public var startSeconds: Double
        /// End (exclusive), s.
        public var endSeconds: Double
    }

    /// Duration of the SPT window, in s.
    public var sptSeconds: Double? {
        guard let a = onsetSeconds, let b = wakeSeconds else { return nil }
        return b - a
    }

    /// Sleep efficiency of the sleep period: sustained-inactivity time over the SPT window's
    /// duration (denominator: the SPT window, not a time in bed), 0…1.
    public var sleepEfficiency: Double? {
        guard let spt = sptSeconds, spt > 0, let sleep = sleepSeconds else { return nil }
        return sleep / spt
    }

    /// Wake after sleep onset: SPT time outside sustained-inactivity bouts, in s.
    public var wasoSeconds: Double? {
        guard let spt = sptSeconds, let sleep = sleepSeconds else { return nil }
        return spt - sleep
    }
}

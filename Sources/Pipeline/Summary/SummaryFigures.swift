import Signals

/// How a summary row's days are counted (the `time_basis` column of the summary tables).
public enum SummaryTimeBasis: String, Sendable, Hashable, CaseIterable {
    /// Local calendar days: Unix times shifted by the recording's UTC offset
    /// (`stream_attributes.utc_offset_s`).
    case local
    /// UTC calendar days: Unix times whose offset the recording does not give.
    case utc
    /// Calendar days of the device's own clock (`time_origin = device_local`: local wall-clock
    /// time, offset unknown).
    case deviceLocal = "device_local"
    /// Days counted from the stream's start (`time_origin = stream_start`): not dates.
    case streamStart = "stream_start"

    /// The basis of a stream's times.
    /// - Parameters:
    ///   - origin: what its times count from.
    ///   - utcOffsetSeconds: the recording's UTC offset, when known.
    static func of(_ origin: TimeOrigin, utcOffsetSeconds: Int?) -> SummaryTimeBasis {
        switch origin {
        case .unix: utcOffsetSeconds == nil ? .utc : .local
        case .deviceLocal: .deviceLocal
        case .streamStart: .streamStart
        }
    }
}

/// The figures of one summary row (a recording's family on one device, whole or one day), added
/// up from the ``SummaryFact``s of the rows the families emitted and from the decoded signal.
public struct SummaryFigures: Sendable, Hashable {
    /// Seconds covered by segments of any stream of the device (union; temperature channels left out).
    public var decodedSeconds = 0.0
    /// Seconds covered by segments of the streams the family analysed (union).
    public var analysedSeconds = 0.0
    /// Seconds of quality windows assessed.
    public var assessedSeconds = 0.0
    /// Seconds of quality windows found usable.
    public var usableSeconds = 0.0
    /// Heart-rate windows with a rate.
    public var heartRateWindows = 0
    /// Sum of their rates (bpm).
    public var heartRateSum = 0.0
    /// Lowest window rate (bpm).
    public var heartRateMin = Double.infinity
    /// Highest window rate (bpm).
    public var heartRateMax = -Double.infinity
    /// Beat rows.
    public var beats = 0
    /// Beat rows correction touched.
    public var correctedBeats = 0
    /// Steps, when some family counts them.
    public var steps: Double?
    /// Seconds judged worn, when some family judges wear.
    public var wornSeconds: Double?

    /// Mean of the heart-rate windows' rates (bpm), or `nil` without any.
    public var heartRateMean: Double? { heartRateWindows > 0 ? heartRateSum / Double(heartRateWindows) : nil }
    /// Usable share of the assessed time (0…1), or `nil` when nothing was assessed.
    public var usableShare: Double? { assessedSeconds > 0 ? usableSeconds / assessedSeconds : nil }
    /// Share of beat rows correction touched (0…1), or `nil` without beats.
    public var correctedShare: Double? { beats > 0 ? Double(correctedBeats) / Double(beats) : nil }

    /// Adds one fact.
    mutating func add(_ measure: SummaryFact.Measure, seconds: Double) {
        switch measure {
        case .heartRate(let bpm):
            heartRateWindows += 1
            heartRateSum += bpm
            heartRateMin = min(heartRateMin, bpm)
            heartRateMax = max(heartRateMax, bpm)
        case .beat(let corrected):
            beats += 1
            if corrected { correctedBeats += 1 }
        case .quality(let usable):
            assessedSeconds += seconds
            if usable { usableSeconds += seconds }
        case .steps(let n):
            steps = (steps ?? 0) + n
        case .wear(let worn):
            wornSeconds = (wornSeconds ?? 0) + (worn ? seconds : 0)
        }
    }

    /// Adds another row's figures (a day's into the recording's).
    mutating func add(_ o: SummaryFigures) {
        decodedSeconds += o.decodedSeconds
        analysedSeconds += o.analysedSeconds
        assessedSeconds += o.assessedSeconds
        usableSeconds += o.usableSeconds
        heartRateWindows += o.heartRateWindows
        heartRateSum += o.heartRateSum
        heartRateMin = min(heartRateMin, o.heartRateMin)
        heartRateMax = max(heartRateMax, o.heartRateMax)
        beats += o.beats
        correctedBeats += o.correctedBeats
        if let s = o.steps { steps = (steps ?? 0) + s }
        if let w = o.wornSeconds { wornSeconds = (wornSeconds ?? 0) + w }
    }
}

/// One `recording_summary` row: a family's results on one device of a recording.
public struct RecordingSummaryRow: Sendable, Hashable {
    /// The family (or beat source): `ecg`, `ppg`, `motion`, …
    public var family: String
    /// The device identifier (``StreamKey/deviceID``).
    public var device: String
    /// Streams of the device the family analysed.
    public var streams: Int
    /// First sample time of those streams (s, stream time scale).
    public var firstTime: Double?
    /// Last sample time of those streams (s).
    public var lastTime: Double?
    /// What those times count from.
    public var timeOrigin: TimeOrigin
    /// How days are counted.
    public var timeBasis: SummaryTimeBasis
    /// The recording's UTC offset (s east of UTC), when known.
    public var utcOffsetSeconds: Int?
    /// The figures.
    public var figures: SummaryFigures
}

/// One `daily_summary` row: a family's results on one device over one calendar day.
public struct DailySummaryRow: Sendable, Hashable {
    /// The family (or beat source).
    public var family: String
    /// The device identifier.
    public var device: String
    /// The day as `YYYY-MM-DD` in ``timeBasis``, or `nil` when times are not dates (`stream_start`).
    public var date: String?
    /// Day number from the first day of the recording's row (1 = first).
    public var dayNumber: Int
    /// Time at which the day starts (its midnight), in the streams' time scale (s).
    public var dayStart: Double
    /// How days are counted.
    public var timeBasis: SummaryTimeBasis
    /// The recording's UTC offset (s east of UTC), when known.
    public var utcOffsetSeconds: Int?
    /// The figures.
    public var figures: SummaryFigures
}

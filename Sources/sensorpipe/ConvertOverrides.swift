import Foundation
import Recordings

/// What `convert --device ID --start TIME` changes in the decoded events before they are written:
/// the device id of everything, and the times of streams that count from their own start.
struct ConvertOverrides {
    /// `--device`: the device id written for every stream, device line and deletion record.
    var deviceID: String?
    /// `--start`: Unix seconds added to the times of `stream_start` streams, which become `unix`.
    var startUnix: Double?
    /// Streams whose times were shifted (by decoder stream index).
    private var shifted = Set<Int>()

    /// How many streams `--start` shifted so far.
    var shiftedStreams: Int { shifted.count }

    /// Whether stream `k`'s times were shifted.
    func shifted(stream k: Int) -> Bool { shifted.contains(k) }

    /// `--start TIME`: ISO 8601 with a zone, or Unix seconds.
    static var startRule: ValueRule<Double> {
        .parsed(
            "TIME", "an ISO 8601 time with a zone (2024-05-21T09:00:00Z) or Unix seconds", unixSeconds)
    }

    /// Unix seconds of `text`: a finite number, or ISO 8601 date and time with `Z` or `±hh:mm`
    /// (fractional seconds allowed); `nil` otherwise (a time without a zone is ambiguous).
    static func unixSeconds(_ text: String) -> Double? {
        if let s = Double(text) { return s.isFinite ? s : nil }
        for options: ISO8601DateFormatter.Options in [[.withInternetDateTime], [.withInternetDateTime, .withFractionalSeconds]] {
            let f = ISO8601DateFormatter()
            f.formatOptions = options
            if let d = f.date(from: text) { return d.timeIntervalSince1970 }
        }
        return nil
    }

    /// The event with the overrides applied.
    mutating func apply(_ event: RecordingEvent) -> RecordingEvent {
        switch event {
        case .device(var info):
            if let deviceID { info.id = deviceID }
            return .device(info)
        case .stream(let index, var info):
            if let deviceID { info.key.deviceID = deviceID }
            if startUnix != nil && info.timeOrigin == .streamStart {
                info.timeOrigin = .unix
                shifted.insert(index)
            }
            return .stream(index: index, info: info)
        case .block(var block):
            guard let startUnix, shifted.contains(block.stream) else { return event }
            switch block.time {
            case .uniform(let start, let rate): block.time = .uniform(segmentStart: start + startUnix, sampleRate: rate)
            case .explicit(let times): block.time = .explicit(times.map { $0 + startUnix })
            }
            return .block(block)
        case .deletion(var record):
            if let deviceID { record.deviceID = deviceID }
            return .deletion(record)
        case .annotation(var a):
            if let deviceID { a.deviceID = deviceID }
            return .annotation(a)
        case .issue:
            return event
        }
    }
}

import Foundation
import Signals

/// Adds up a recording's summary figures while it is analysed: the segment spans of every
/// stream (from the blocks the router delivers) and the ``SummaryFact``s of the rows the
/// families emit, binned per family, device and calendar day. Facts naming a figure the
/// vocabulary does not declare for their family are ignored, and so are facts outside a figure's
/// local hours (``SummaryFigure/localHours``). Memory: one span per segment and one bin per
/// family, device and day (one total per declared figure, plus each fact's value and weight for
/// a median figure).
struct SummaryAccumulator {
    /// The declared figures facts may name.
    let vocabulary: SummaryVocabulary

    init(vocabulary: SummaryVocabulary = AnalysisRegistry.summaryVocabulary) {
        self.vocabulary = vocabulary
    }

    struct Stream {
        var name: String
        var device: String
        var origin: TimeOrigin
        var utcOffsetSeconds: Int?
        var auxiliary: Bool
        var spans: [(start: Double, end: Double)] = []
        var segment = -1

        var basis: SummaryTimeBasis { .of(origin, utcOffsetSeconds: utcOffsetSeconds) }
        /// Seconds added to a time to reach the calendar of ``basis``.
        var shift: Double { Double(utcOffsetSeconds ?? 0) * (origin == .unix ? 1 : 0) }
    }

    struct BinKey: Hashable {
        var family: String
        var device: String
        var day: Int
    }

    private(set) var streams: [Stream] = []
    private var byName: [String: Int] = [:]
    /// Per family, device and day: where its figures are in ``binFigures``.
    private var bins: [BinKey: Int] = [:]
    private var binFigures: [SummaryFigures] = []
    private var factStreams: [String: Set<Int>] = [:]
    /// What the last facts resolved to. A family's facts come in runs (a beat's two figures, then
    /// the next beat's; window after window) with the same family, stream and day, and the same
    /// few figure names, so a fact mostly skips hashing its strings: `String ==` of strings that
    /// share their storage (a row's literals, an analyzer's stream name) is a comparison of two
    /// words. Same facts, same bins, same order of additions as the look-ups.
    private var recentStream: (family: String, key: String, index: Int, device: String, shift: Double)?
    private var recentBin: (key: BinKey, index: Int)?
    private var recentFigures: [(family: String, figure: String, declaration: SummaryFigure?)] = []

    /// A stream was announced (recording-wide `index`, in announcement order).
    mutating func announce(index: Int, info: StreamInfo) {
        precondition(index == streams.count, "streams are announced in index order")
        let offset = SummaryTimeBasis.utcOffset(info.attributes[StreamAttribute.utcOffsetSeconds])
        streams.append(
            Stream(
                name: info.key.description, device: info.key.deviceID, origin: info.timeOrigin,
                utcOffsetSeconds: offset, auxiliary: info.role.isAuxiliary))
        byName[info.key.description] = index
    }

    /// A block of stream `block.stream` (recording-wide index) was delivered.
    mutating func add(_ block: SampleBlock) {
        guard block.count > 0, block.stream < streams.count else { return }
        let first = block.time(at: 0), last = block.time(at: block.count - 1)
        if streams[block.stream].segment == block.segment, let k = streams[block.stream].spans.indices.last {
            streams[block.stream].spans[k].end = max(streams[block.stream].spans[k].end, last)
        } else {
            streams[block.stream].segment = block.segment
            streams[block.stream].spans.append((first, last))
        }
    }

    /// A row was emitted; its figure, if any, is added to its day.
    mutating func add(_ fact: SummaryFact) {
        guard fact.startSeconds.isFinite, fact.value.isFinite, fact.weight.isFinite, let figure = declaration(fact) else { return }
        let s: Int, device: String, shift: Double
        if let r = recentStream, r.key == fact.stream, r.family == fact.family {
            (s, device, shift) = (r.index, r.device, r.shift)
        } else {
            guard let found = streamIndex(fact.stream) else { return }
            (s, device, shift) = (found, streams[found].device, streams[found].shift)
            factStreams[fact.family, default: []].insert(s)
            recentStream = (fact.family, fact.stream, s, device, shift)
        }
        let day = Int(((fact.startSeconds + shift) / 86_400).rounded(.down))
        if let hours = figure.localHours {
            guard streams[s].basis == .local || streams[s].basis == .deviceLocal else { return }
            let hour = ((fact.startSeconds + shift) - Double(day) * 86_400) / 3_600
            guard hour >= Double(hours.lowerBound), hour < Double(hours.upperBound) else { return }
        }
        let bin: Int
        if let r = recentBin, r.key.day == day, r.key.family == fact.family, r.key.device == device {
            bin = r.index
        } else {
            let key = BinKey(family: fact.family, device: device, day: day)
            if let b = bins[key] {
                bin = b
            } else {
                bin = binFigures.count
                bins[key] = bin
                binFigures.append(SummaryFigures())
            }
            recentBin = (key, bin)
        }
        binFigures[bin].add(fact, keep: figure.aggregation == .median)
    }

    /// The vocabulary's declaration of the fact's figure for its family, or `nil` when it declares
    /// none (the last few answers kept).
    private mutating func declaration(_ fact: SummaryFact) -> SummaryFigure? {
        for r in recentFigures where r.figure == fact.figure && r.family == fact.family { return r.declaration }
        let declaration = vocabulary.figure(fact.figure, for: fact.family)
        if recentFigures.count == 16 { recentFigures.removeFirst() }
        recentFigures.append((fact.family, fact.figure, declaration))
        return declaration
    }

    /// The announced stream a fact's stream key names, or, for a series a family derives (the ECG
    /// leads' `…/electrocardiogram/fused`), the first announced stream of the same device.
    private mutating func streamIndex(_ key: String) -> Int? {
        if let s = byName[key] { return s }
        guard let s = streams.firstIndex(where: { key.hasPrefix($0.device + "/") }) else { return nil }
        byName[key] = s
        return s
    }

    /// The summary rows, given which families analysed which stream.
    /// - Parameter analyses: per recording-wide stream index, the families that claimed it.
    /// - Complexity: O(segments · log segments + bins).
    func rows(analyses: [[String]]) -> (recording: [RecordingSummaryRow], daily: [DailySummaryRow]) {
        var groups = [String: Set<Int>]() // "family\0device" → streams
        var order = [(family: String, device: String)]()
        func note(_ family: String, _ s: Int) {
            let key = family + "\u{0}" + streams[s].device
            if groups[key] == nil { order.append((family, streams[s].device)) }
            groups[key, default: []].insert(s)
        }
        for (s, families) in analyses.enumerated() where s < streams.count {
            for f in families { note(f, s) }
        }
        for (family, set) in factStreams.sorted(by: { $0.key < $1.key }) {
            for s in set.sorted() { note(family, s) }
        }
        var recording = [RecordingSummaryRow](), daily = [DailySummaryRow]()
        // Streams and bins by device, once (searched per family and device, they were quadratic
        // in the devices: 10,000 one-stream devices).
        var streamsOfDevice = [String: [Int]]()
        for s in streams.indices where !streams[s].auxiliary { streamsOfDevice[streams[s].device, default: []].append(s) }
        var binDays = [String: [Int]]()
        for key in bins.keys { binDays[key.family + "\u{0}" + key.device, default: []].append(key.day) }
        for (family, device) in order {
            let members = groups[family + "\u{0}" + device]!.sorted()
            let lead = streams[members[0]]
            let basis = lead.basis, shift = lead.shift
            let deviceStreams = streamsOfDevice[device] ?? []
            let decoded = Self.secondsPerDay(deviceStreams.flatMap { streams[$0].spans }, shift: shift)
            let analysed = Self.secondsPerDay(members.flatMap { streams[$0].spans }, shift: shift)
            var days = Set(analysed.keys)
            for day in binDays[family + "\u{0}" + device] ?? [] { days.insert(day) }
            var total = SummaryFigures()
            total.decodedSeconds = decoded.values.reduce(0, +)
            total.analysedSeconds = analysed.values.reduce(0, +)
            let firstDay = days.min() ?? 0
            for day in days.sorted() {
                var f = bins[BinKey(family: family, device: device, day: day)].map { binFigures[$0] } ?? SummaryFigures()
                var counted = f
                counted.decodedSeconds = 0
                counted.analysedSeconds = 0
                total.add(counted)
                f.decodedSeconds = decoded[day] ?? 0
                f.analysedSeconds = analysed[day] ?? 0
                let midnight = Double(day) * 86_400
                daily.append(
                    DailySummaryRow(
                        family: family, device: device,
                        date: basis == .streamStart ? nil : Self.date(midnight), dayNumber: day - firstDay + 1,
                        dayStart: midnight - shift, timeBasis: basis, utcOffsetSeconds: lead.utcOffsetSeconds, figures: f))
            }
            let starts = members.compactMap { streams[$0].spans.first?.start }
            let ends = members.compactMap { streams[$0].spans.map(\.end).max() }
            recording.append(
                RecordingSummaryRow(
                    family: family, device: device, streams: members.count, firstTime: starts.min(), lastTime: ends.max(),
                    timeOrigin: lead.origin, timeBasis: basis, utcOffsetSeconds: lead.utcOffsetSeconds, figures: total))
        }
        return (recording, daily)
    }

    /// The union of `spans`, split into calendar days (`shift` seconds added before dividing).
    static func secondsPerDay(_ spans: [(start: Double, end: Double)], shift: Double) -> [Int: Double] {
        var out = [Int: Double]()
        var merged = [(start: Double, end: Double)]()
        for s in spans.sorted(by: { $0.start < $1.start }) {
            if let last = merged.last, s.start <= last.end {
                merged[merged.count - 1].end = max(last.end, s.end)
            } else {
                merged.append(s)
            }
        }
        for m in merged {
            var a = m.start + shift
            let b = m.end + shift
            while a < b {
                let day = Int((a / 86_400).rounded(.down))
                let next = min(b, Double(day + 1) * 86_400)
                out[day, default: 0] += next - a
                a = next
            }
        }
        return out
    }

    /// `YYYY-MM-DD` of a midnight given in seconds since 1970 (already shifted to the calendar).
    static func date(_ midnight: Double) -> String {
        let days = Int((midnight / 86_400).rounded(.down))
        return CivilDate.isoDate(daysSince1970: days)
    }
}

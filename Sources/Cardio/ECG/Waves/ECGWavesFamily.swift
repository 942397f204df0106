import Signals

/// ECG wave delineation: P, QRS and T boundaries of every beat the ECG family detects, per lead
/// and combined across the leads of a device, and PR/QRS/QT/QTc per window.
///
/// Receives the beats through the derived-event contract (``ECGBeatEvents/series``, `ecg_beats`:
/// time, class, quality) and the raw lead (it claims every ECG stream; a lead the ECG family
/// does not analyse gets no beats and no rows). Each lead is resampled to 250 Hz and wavelet
/// transformed once, as it streams (``WaveGrid``), and each beat is delineated by
/// ``WaveDelineator`` (Martínez et al. 2004) on the scales within −1.0…+1.2 s of it, so rows
/// depend on the samples and the beat times only, never on block sizes. Combined rows (stream `device/electrocardiogram/combined`):
/// the first lead's beat and each other lead's beat within 150 ms of it; earliest P and QRS
/// onset and latest P and QRS offset among the leads where the wave is present (the global
/// boundaries: a lead's QRS offset fails early, on a truncated wide QRS), the median T offset
/// (a lead's T offset fails late, on a U wave or a slow return, and the latest would keep
/// every such failure); for P and T only among the leads whose boundary is coherent with
/// their own last beats (``Combiner``), and for the P onset only among the leads where it is not
/// masked by an overlapping T wave when any is; peaks from the first lead where present.
public enum ECGWavesFamily: AnalysisFamily {
    public static let name = "waves"
    public static let summary = "ECG wave delineation (P, QRS, T per beat) and PR/QRS/QT/QTc per window"
    public static var tables: [ResultTable] {
        [ECGWavesTables.waves.table, ECGWavesTables.intervals.table, ECGWavesTables.medianBeats.table]
    }
    public static var summaryFigures: [SummaryFigure] { ECGWavesTables.summaryFigures }
    public static var defaultOptions: ECGWavesOptions { ECGWavesOptions() }
    public static var options: [AnalysisOption<ECGWavesOptions>] {
        [
            .number(
                "interval_window_s", unit: "s", "ecg_intervals window length", range: 10...86_400,
                get: { $0.intervalWindowSeconds }, set: { $0.intervalWindowSeconds = $1 }),
            .number(
                "median_beat_window_s", unit: "s", "ecg_median_beats window length", range: 10...86_400,
                get: { $0.medianBeatWindowSeconds }, set: { $0.medianBeatWindowSeconds = $1 }),
            .flag(
                "combine_leads", "also write boundaries combined across the leads of a multi-lead recording (default on)",
                get: { $0.combinesLeads }, set: { $0.combinesLeads = $1 }),
            .flag(
                "qt_lead_agreement",
                "empty a window's QT/QTc in all rows of a multi-lead device when its leads' median QTs differ by more than 100 ms (default on)",
                get: { $0.checksLeadAgreement }, set: { $0.checksLeadAgreement = $1 }),
            .flag(
                "qt_spread",
                "empty a window's QT/QTc when its QT IQR exceeds 100 ms + 0.3 × its RR IQR: the T ends lie on different waves (default on; single-lead recordings too)",
                get: { $0.checksQTSpread }, set: { $0.checksQTSpread = $1 }),
        ]
    }

    public static func makeAnalyzer(options: ECGWavesOptions) -> Analyzer { Analyzer(options: options) }

    /// The channel of the combined rows (``StreamKey/channel``).
    public static let combinedChannel = "combined"

    /// Beats of two leads closer than this are one beat, s.
    static let matchSeconds = 0.15

    /// The delineation of one recording.
    public struct Analyzer: RecordingAnalyzer {
        let options: ECGWavesOptions
        var leads = AnalyzerTable<Int, WaveLead>()
        var byName: [String: Int] = [:]
        /// Per lead: its stream name (read per beat without copying the lead out of ``leads``).
        var nameOf: [Int: String] = [:]
        /// The same by stream index for indices below ``indexed``, and whether the lead's group has
        /// two leads or more (rows combined): arrays, so that a beat hashes no key.
        var names: [String?] = []
        var combined: [Bool] = []
        static let indexed = 4096
        /// The last beat event's stream and its lead, and the last row's stream and its
        /// accumulator (beats come stream by stream: a string comparison instead of a hash).
        var lastEvent: (stream: String, index: Int)?
        var lastRow: (stream: String, index: Int)?
        /// Per lead: its group's combined stream name.
        var groupOf: [Int: String] = [:]
        var groups: [String: Combiner] = [:]
        var groupOrder: [String] = []
        /// Per stream with rows, in the order of its first row: its interval windows and whether
        /// its last beat was normal (arrays, mutated in place; ``accumulatorIndex`` finds a stream's).
        var accumulators: [IntervalAccumulator] = []
        var accumulatorOrder: [String] = []
        var previousNormal: [Bool] = []
        var accumulatorIndex: [String: Int] = [:]
        /// Per multi-lead group: interval rows not yet written (``emitInterval(_:stream:output:)``).
        var held: [String: [(stream: String, value: ECGIntervals)]] = [:]
        public private(set) var streamIssues: [AnalysisIssue] = []
        public var issues: [String] { streamIssues.map(\.description) }

        init(options: ECGWavesOptions) { self.options = options }

        public var subscriptions: [DerivedSubscription] {
            [DerivedSubscription(series: ECGBeatEvents.series.id, attributes: ["class", "quality"])]
        }

        public mutating func claim(_ stream: AnnouncedStream) -> Bool {
            guard stream.info.key.sensor == .electrocardiogram else { return false }
            leads.add(
                WaveLead(
                    streamName: stream.name, microvoltsPerUnit: ECGBeatEvents.microvoltsPerUnit(stream.info.columns.first?.unit),
                    medianWindowSeconds: options.medianBeatWindowSeconds), for: stream.index)
            byName[stream.name] = stream.index
            nameOf[stream.index] = stream.name
            if stream.index >= 0 && stream.index < Self.indexed {
                if names.count <= stream.index {
                    names += [String?](repeating: nil, count: stream.index + 1 - names.count)
                    combined += [Bool](repeating: false, count: stream.index + 1 - combined.count)
                }
                names[stream.index] = stream.name
            }
            var key = stream.info.key
            key.channel = ECGWavesFamily.combinedChannel
            let g = key.description
            groupOf[stream.index] = g
            if groups[g] == nil {
                groups[g] = Combiner(name: g)
                groupOrder.append(g)
            }
            groups[g]!.members.append(stream.index)
            if groups[g]!.members.count >= 2 { for m in groups[g]!.members where m >= 0 && m < combined.count { combined[m] = true } }
            return true
        }

        public mutating func consume(_ block: SampleBlock, output: any ResultOutput) throws {
            let taken = leads.update(block.stream) { l in
                l.consume(block)
                return l.take()
            }
            guard let (done, medians) = taken else { return }
            try emit(done, medians, lead: block.stream, output: output)
        }

        public mutating func consume(derived event: DerivedEvent, series: DerivedSeries, output: any ResultOutput) throws {
            guard event.series == ECGBeatEvents.series.id else { return }
            let index: Int
            if let e = lastEvent, e.stream == event.stream {
                index = e.index
            } else {
                guard let i = byName[event.stream] else { return }
                index = i
                lastEvent = (event.stream, i)
            }
            let beat = WaveLead.Beat(time: event.time, beatClass: event.values.first?.label, quality: event.values.dropFirst().first?.label)
            let taken = leads.update(index) { l in
                l.add(beat)
                return l.take()
            }
            guard let (done, medians) = taken else { return }
            try emit(done, medians, lead: index, output: output)
        }

        public mutating func finish(output: any ResultOutput) throws {
            for index in leads.order {
                guard var l = leads.remove(index) else { continue }
                l.flushAll()
                try emit(l.done, l.doneMedians, lead: index, output: output)
                if let g = groupOf[index] { groups[g]!.ended.insert(index) }
                try drain(groupOf[index], output: output)
            }
            for (i, name) in accumulatorOrder.enumerated() {
                for var r in accumulators[i].finish() {
                    r.countsInSummary = summarises(name)
                    try emitInterval(r, stream: name, output: output)
                }
            }
            for g in groupOrder { try release(g, all: true, output: output) }
        }

        /// The group (combined stream name) of a stream whose device has two leads or more (`nil`
        /// without the cross-lead QT rule).
        private func multiLeadGroup(_ stream: String) -> String? {
            guard options.checksLeadAgreement else { return nil }
            let g = groups[stream] != nil ? stream : byName[stream].flatMap { groupOf[$0] }
            guard let g, groups[g]!.members.count >= 2 else { return nil }
            return g
        }

        /// Writes an interval row; a multi-lead device's rows are held until every stream of the
        /// device has passed their window, for the cross-lead QT rule.
        private mutating func emitInterval(_ r: ECGIntervals, stream: String, output: any ResultOutput) throws {
            guard let g = multiLeadGroup(stream) else {
                try output.emit(ECGWavesTables.intervals, Streamed(stream: stream, value: r))
                return
            }
            held[g, default: []].append((stream, r))
            try release(g, all: false, output: output)
        }

        /// Writes a group's held rows of the windows that every stream of the group has passed
        /// (`all`: every held row), with ``ECGIntervals/applyLeadAgreement(_:isLead:)`` over each
        /// window's (and the whole recording's) rows.
        private mutating func release(_ g: String, all: Bool, output: any ResultOutput) throws {
            guard let rows = held[g], !rows.isEmpty else { return }
            let w = options.intervalWindowSeconds
            func window(_ r: ECGIntervals) -> Int { r.scope == "window" ? Int((r.startSeconds / w).rounded()) : Int.max }
            var horizon = Int.max
            if !all {
                var streams = groups[g]!.members.map { nameOf[$0] }
                if options.combinesLeads { streams.append(g) }
                for s in streams {
                    guard let s, let k = accumulatorIndex[s], let open = accumulators[k].window else { return }
                    horizon = min(horizon, open)
                }
            }
            var keys: [Int] = []
            for r in rows where all || window(r.value) < horizon {
                let k = window(r.value)
                if !keys.contains(k) { keys.append(k) }
            }
            guard !keys.isEmpty else { return }
            for key in keys {
                let part = rows.filter { window($0.value) == key }
                var values = part.map(\.value)
                ECGIntervals.applyLeadAgreement(&values, isLead: part.map { $0.stream != g })
                for (p, v) in zip(part, values) { try output.emit(ECGWavesTables.intervals, Streamed(stream: p.stream, value: v)) }
            }
            held[g] = rows.filter { !keys.contains(window($0.value)) }
        }

        /// Whether a stream's interval windows feed the summary: a combined stream's, or a lead's
        /// whose device's leads are not combined.
        private func summarises(_ stream: String) -> Bool {
            guard options.combinesLeads, let lead = byName[stream], let g = groupOf[lead] else { return true }
            return groups[g]!.members.count < 2
        }

        /// Writes a lead's delineated beats and median beat rows, and passes the beats to its group.
        private mutating func emit(_ beats: [BeatWaves], _ medians: [MedianBeatPoint], lead: Int, output: any ResultOutput) throws {
            let inArrays = lead >= 0 && lead < names.count
            guard !beats.isEmpty || !medians.isEmpty, let name = inArrays ? names[lead] : nameOf[lead] else { return }
            for b in beats { try write(b, stream: name, output: output) }
            for m in medians { try output.emit(ECGWavesTables.medianBeats, Streamed(stream: name, value: m)) }
            guard !beats.isEmpty else { return }
            guard options.combinesLeads, inArrays ? combined[lead] : true, let g = groupOf[lead], groups[g]!.members.count >= 2 else {
                return
            }
            groups[g]!.queues[lead, default: []].append(contentsOf: beats)
            try drain(g, output: output)
        }

        private mutating func drain(_ g: String?, output: any ResultOutput) throws {
            guard options.combinesLeads, let g, groups[g]!.members.count >= 2 else { return }
            let combined = groups[g]!.take()
            for b in combined { try write(b, stream: g, output: output) }
        }

        /// One row, and its contribution to the stream's intervals.
        private mutating func write(_ b: BeatWaves, stream: String, output: any ResultOutput) throws {
            try output.emit(ECGWavesTables.waves, Streamed(stream: stream, value: b))
            let i: Int
            if let r = lastRow, r.stream == stream {
                i = r.index
            } else if let k = accumulatorIndex[stream] {
                i = k
                lastRow = (stream, k)
            } else {
                i = accumulators.count
                accumulatorIndex[stream] = i
                lastRow = (stream, i)
                accumulators.append(
                    IntervalAccumulator(windowSeconds: options.intervalWindowSeconds, checksQTSpread: options.checksQTSpread))
                accumulatorOrder.append(stream)
                previousNormal.append(false)
            }
            if var closed = accumulators[i].add(b, previousNormal: previousNormal[i]) {
                closed.countsInSummary = summarises(stream)
                try emitInterval(closed, stream: stream, output: output)
            }
            previousNormal[i] = b.beatClass == "N"
        }
    }

    /// Combines the delineated beats of the leads of one device.
    struct Combiner {
        let name: String
        var members: [Int] = []
        var queues: [Int: [BeatWaves]] = [:]
        var ended: Set<Int> = []

        /// The combined rows of the first lead's beats that every other lead has passed (a beat
        /// later than 150 ms after it, or its end).
        mutating func take() -> [BeatWaves] {
            guard let reference = members.first else { return [] }
            var out = [BeatWaves]()
            while let b = queues[reference]?.first {
                for m in members.dropFirst() where !ended.contains(m) {
                    guard let last = queues[m]?.last, last.beatTime > b.beatTime + ECGWavesFamily.matchSeconds else { return out }
                }
                var parts = [b]
                var from = [reference]
                for m in members.dropFirst() {
                    var q = queues[m] ?? []
                    // Drop beats too early to match this or any later reference beat.
                    while let f = q.first, f.beatTime < b.beatTime - ECGWavesFamily.matchSeconds { q.removeFirst() }
                    if let i = q.indices.min(by: { abs(q[$0].beatTime - b.beatTime) < abs(q[$1].beatTime - b.beatTime) }),
                        abs(q[i].beatTime - b.beatTime) <= ECGWavesFamily.matchSeconds
                    {
                        parts.append(q[i])
                        from.append(m)
                        q.remove(at: i)
                    }
                    queues[m] = q
                }
                out.append(combine(parts, leads: from))
                queues[reference]!.removeFirst()
            }
            return out
        }

        /// Per lead (``members`` index) and boundary (0 P onset, 1 P offset, 2 T offset): the last
        /// ``coherenceBeats`` values of that lead, relative to the beat time, s (oldest first).
        var history: [Int: [[Double]]] = [:]

        /// Beats of a lead's history the coherence rule compares with.
        static let coherenceBeats = 8
        /// A lead's boundary this far from the median of its last ``coherenceBeats`` values is
        /// incoherent, s.
        static let coherenceSeconds = 0.04

        /// The combined boundaries of one beat's leads (the first is the reference lead), and the
        /// leads' histories updated.
        ///
        /// P onset and offset: the earliest onset and latest offset (the global boundaries), and
        /// T offset: the median, among the leads whose value is coherent with that lead's own
        /// last ``coherenceBeats`` beats (within ``coherenceSeconds`` of their median, relative to
        /// the beat time); all leads when none is, or when a lead has fewer than 3 values. The PR
        /// interval and the P wave's duration change little from one beat to the next in a
        /// stable rhythm (sinus or ectopic atrial), the QT follows a change of RR over minutes
        /// (QT/RR hysteresis: Pueyo E et al. 2004, IEEE Trans Biomed Eng 51(9):1511–1520), and a
        /// real change of activation or repolarisation shows in every lead at once, so a lead's
        /// lone jump is a measurement failure (a U wave or the T end taken as the P's first
        /// phase, a P found in noise, a U wave or slow return taken as the T's end); the
        /// earliest-onset / latest-offset rule would keep every such failure. The multilead rules of Laguna et al. 1994 (Comput Biomed
        /// Res 27:45–60) likewise discard a lead's boundary far from the other leads' before
        /// taking the earliest onset / latest offset; with two leads the other lead cannot
        /// outvote it, so each lead is compared with its own recent beats. QRS onset/offset
        /// keep the plain earliest/latest rule (on the QT Database the coherence rule moved
        /// them away from the annotations: a paced lead's truncated QRS is coherent with its
        /// own truncated beats, so the lead that found the whole QRS is the one discarded).
        /// The P onset, before the coherence rule: only the leads where it is not masked by an
        /// overlapping wave (``WaveDelineator/onsetMasked(_:first:)``) when any lead has one (at
        /// high rates the P rides on the previous T's downslope in one lead and its onset there
        /// is where it emerges, not where it starts).
        mutating func combine(_ parts: [BeatWaves], leads: [Int]) -> BeatWaves {
            var c = Self.combine(parts)
            let pOn = coherent(parts, leads: leads, kind: 0, preferring: { !$0.pOnsetMasked }) {
                $0.pStatus == .present ? $0.pOnset : nil
            }
            let pOff = coherent(parts, leads: leads, kind: 1) { $0.pStatus == .present ? $0.pOffset : nil }
            let tOff = coherent(parts, leads: leads, kind: 2) { $0.tStatus == .present ? $0.tOffset : nil }
            if let v = pOn.min() { c.pOnset = v }
            if let v = pOff.max() { c.pOffset = v }
            if let v = Self.median(tOff) { c.tOffset = v }
            return c
        }

        /// The values of a boundary of the leads that are coherent with their own history (all
        /// when none is), each lead's history updated with its value. When some leads with a
        /// value are `preferring`, only those are considered (the others still update their
        /// history): a P onset masked by an overlapping T wave in one lead
        /// (``WaveDelineator/onsetMasked(_:first:)``) gives way to a lead where it is not.
        private mutating func coherent(
            _ parts: [BeatWaves], leads: [Int], kind: Int, preferring: (BeatWaves) -> Bool = { _ in true },
            _ value: (BeatWaves) -> Double?
        ) -> [Double] {
            var all: [Double] = [], kept: [Double] = []
            var preferredAll: [Double] = [], preferredKept: [Double] = []
            for (i, part) in parts.enumerated() {
                guard let v = value(part) else { continue }
                let relative = v - part.beatTime
                // The lead's history, mutated in place in the dictionary (no copy per beat).
                if history[leads[i]] == nil { history[leads[i]] = [[], [], []] }
                let n = history[leads[i]]![kind].count
                let isCoherent = n < 3 || abs(relative - Self.median(history[leads[i]]![kind])!) <= Self.coherenceSeconds
                all.append(v)
                if isCoherent { kept.append(v) }
                if preferring(part) {
                    preferredAll.append(v)
                    if isCoherent { preferredKept.append(v) }
                }
                history[leads[i]]![kind].append(relative)
                if n >= Self.coherenceBeats { history[leads[i]]![kind].removeFirst() }
            }
            if !preferredAll.isEmpty { return preferredKept.isEmpty ? preferredAll : preferredKept }
            return kept.isEmpty ? all : kept
        }

        /// The combined boundaries of one beat's leads (the first is the reference lead), without
        /// the leads' histories: earliest/latest P and QRS boundaries, median T offset.
        static func combine(_ parts: [BeatWaves]) -> BeatWaves {
            var c = parts[0]
            c.leads = parts.count
            func status(_ s: [WaveStatus]) -> WaveStatus {
                s.contains(.present) ? .present : s.contains(.absent) ? .absent : .notDeterminable
            }
            let qrs = parts.filter { $0.qrsStatus == .present }
            let p = parts.filter { $0.pStatus == .present }
            let t = parts.filter { $0.tStatus == .present }
            c.qrsStatus = status(parts.map(\.qrsStatus))
            c.pStatus = status(parts.map(\.pStatus))
            c.tStatus = status(parts.map(\.tStatus))
            c.qrsOnset = qrs.compactMap(\.qrsOnset).min()
            c.qrsOffset = qrs.compactMap(\.qrsOffset).max()
            c.pOnset = p.compactMap(\.pOnset).min()
            c.pOffset = p.compactMap(\.pOffset).max()
            c.tOffset = median(t.compactMap(\.tOffset))
            c.pPeak = p.first?.pPeak
            c.pShape = p.first?.pShape
            c.tPeak = t.first?.tPeak
            c.tShape = t.first?.tShape
            return c
        }

        /// The median of `x` (the mean of the middle two for an even count), `nil` when empty.
        static func median(_ x: [Double]) -> Double? {
            guard !x.isEmpty else { return nil }
            let s = x.sorted(), n = s.count
            return n % 2 == 1 ? s[n / 2] : 0.5 * (s[n / 2 - 1] + s[n / 2])
        }
    }
}

import Signals

/// One family's analyzer of a recording, boxed so that one analyzer can receive a derived event
/// while another's call is on the stack (never its own: ``DerivedRouter``).
final class AnalyzerBox {
    var analyzer: any RecordingAnalyzer
    let name: String

    init(_ analyzer: any RecordingAnalyzer, name: String) {
        self.analyzer = analyzer
        self.name = name
    }
}

/// Routes the events of derived series (``DerivedSeries``) from the families that publish them
/// to the analyzers that subscribe (``RecordingAnalyzer/subscriptions``), queued, never
/// re-entrantly.
///
/// Every call into an analyzer goes through ``call(_:output:_:)``: the analyzer is marked
/// running, and the events it publishes (rows that carry one, ``ResultOutput/publish(_:)``)
/// are projected onto each subscriber's attributes and appended to that subscriber's queue.
/// When the call returns, the queues are drained: subscribers in family order, each queue in
/// publication order, again until every queue is empty (a subscriber that publishes while it
/// receives adds to the queues; its events are delivered after it returns). A subscriber is
/// never handed an event while one of its own calls is running. So that a publisher that emits
/// a long series in one call (a beat series at the end of a recording) does not hold it all,
/// the queues are also drained during its call once ``flushCount`` events wait — to the other
/// analyzers only, in the same per-subscriber order; a subscriber sees the same sequence of
/// calls either way.
final class DerivedRouter {
    /// A subscriber's view of one series: the declaration restricted to its attributes and
    /// where they sit in the publisher's events.
    struct Route {
        var consumer: Int
        var series: DerivedSeries
        var indices: [Int]
        /// The subscription is the declaration in its own order (no projection needed).
        var identity: Bool
    }

    /// Events waiting before the queues are drained inside a publisher's call.
    static let flushCount = 4096

    let boxes: [AnalyzerBox]
    private var routes: [String: [Route]] = [:]
    private var declared: Set<String> = []
    private var queues: [[(event: DerivedEvent, series: DerivedSeries)]]
    private var heads: [Int]
    private var running: [Bool]
    private var pending = 0
    private var flushAt = DerivedRouter.flushCount
    private var draining = false
    private var undeclaredReported: Set<String> = []
    /// Subscriptions that name attributes the series does not declare, and events of series
    /// nobody declared (`family: message`).
    private(set) var issues: [String] = []

    /// Prepares the routes.
    /// - Parameters:
    ///   - boxes: the recording's analyzers, in family order.
    ///   - publishes: per family, the series it declares.
    init(boxes: [AnalyzerBox], publishes: [[DerivedSeries]]) {
        self.boxes = boxes
        var declarations = [String: DerivedSeries]()
        for list in publishes {
            for s in list where declarations[s.id] == nil { declarations[s.id] = s }
        }
        declared = Set(declarations.keys)
        queues = Array(repeating: [], count: boxes.count)
        heads = Array(repeating: 0, count: boxes.count)
        running = Array(repeating: false, count: boxes.count)
        for (c, box) in boxes.enumerated() {
            for sub in box.analyzer.subscriptions {
                guard let series = declarations[sub.series] else { continue } // no publisher in this run
                guard let (projected, indices) = series.projected(onto: sub.attributes) else {
                    let missing = sub.attributes.filter { series.index(of: $0) == nil }
                    issues.append(
                        "\(box.name): subscribes to \(missing.joined(separator: ", ")) of \(sub.series), which its publisher does not declare"
                    )
                    continue
                }
                routes[sub.series, default: []].append(
                    Route(consumer: c, series: projected, indices: indices, identity: indices == Array(series.attributes.indices)))
            }
        }
    }

    /// Whether any analyzer subscribes to a published series (otherwise events need not be looked at).
    var hasRoutes: Bool { !routes.isEmpty }

    /// Whether any analyzer subscribes to the series `id`.
    func isSubscribed(to id: String) -> Bool { routes[id] != nil }

    /// The order in which the analyzers finish: every analyzer after the families whose series
    /// it subscribes to (ties and cycles in family order), so the publishers' last events reach it.
    /// - Parameter publishes: per family, the series it declares.
    func finishingOrder(publishes: [[DerivedSeries]]) -> [Int] {
        let n = boxes.count
        var after = [Set<Int>](repeating: [], count: n) // f finishes after these
        for (id, list) in routes {
            for r in list {
                for p in 0..<n where p != r.consumer && publishes[p].contains(where: { $0.id == id }) { after[r.consumer].insert(p) }
            }
        }
        var done = [Bool](repeating: false, count: n), order = [Int]()
        while order.count < n {
            let ready =
                (0..<n).first { !done[$0] && after[$0].allSatisfy { done[$0] } }
                ?? (0..<n).first { !done[$0] }! // a cycle: family order
            done[ready] = true
            order.append(ready)
        }
        return order
    }

    /// Runs one call into analyzer `f`, then delivers the events it published.
    /// - Parameters:
    ///   - f: the analyzer's index.
    ///   - output: the recording's output (also what subscribers write to).
    ///   - body: the call.
    /// - Throws: the call's or a subscriber's error.
    func call(_ f: Int, output: CountingOutput, _ body: (inout any RecordingAnalyzer) throws -> Void) throws {
        running[f] = true
        try body(&boxes[f].analyzer)
        running[f] = false
        try drain(output: output)
    }

    /// Queues `event` for every subscriber of its series (projected onto its attributes).
    /// - Throws: a subscriber's error when the queues are drained during the publisher's call.
    func publish(_ event: DerivedEvent, output: CountingOutput) throws {
        guard let list = routes[event.series] else {
            if !declared.contains(event.series), undeclaredReported.insert(event.series).inserted {
                let who = running.indices.filter { running[$0] }.map { boxes[$0].name }.joined(separator: ", ")
                issues.append("\(who.isEmpty ? "an analysis" : who): published events of \(event.series), which no family declares")
            }
            return
        }
        for r in list {
            var e = event
            if !r.identity { e.values = r.indices.map { $0 < event.values.count ? event.values[$0] : .none } }
            queues[r.consumer].append((e, r.series))
            pending += 1
        }
        if pending >= flushAt && !draining { try drain(output: output) }
    }

    /// Delivers queued events to every subscriber that is not running, until no more can be.
    private func drain(output: CountingOutput) throws {
        guard !draining, pending > 0 else { return }
        draining = true
        defer { draining = false }
        var delivered = true
        while delivered {
            delivered = false
            for c in boxes.indices where !running[c] && heads[c] < queues[c].count {
                running[c] = true
                while heads[c] < queues[c].count {
                    let (event, series) = queues[c][heads[c]]
                    heads[c] += 1
                    pending -= 1
                    try boxes[c].analyzer.consume(derived: event, series: series, output: output)
                }
                running[c] = false
                queues[c].removeAll(keepingCapacity: true)
                heads[c] = 0
                delivered = true
            }
        }
        flushAt = pending + Self.flushCount // what is left waits for running analyzers
    }
}

/// The per-row work of ``CSVDecoder``: time conversion, value parsing, duplicates, time order,
/// rejection, and feeding each stream's ``StreamAssembler``. A value type, so its state is
/// mutated without the dynamic exclusivity checks a class's stored arrays would need in the hot
/// loop.
struct CSVRowDecoder {
    /// What the decoder needs to know about one stream.
    struct Stream {
        var fields: [Int]
        var factors: [Double]
        var name: String
        /// Offset of the stream's columns in the flat value buffers.
        var offset: Int
    }

    let path: String
    let streams: [Stream]
    // Flat copies of the streams' fields and factors, indexed by value offset (hot loop).
    private let fieldOf: [Int]
    private let factorOf: [Double]
    private let ranges: [Range<Int>]
    var assemblers: [StreamAssembler]
    let columnNames: [String]
    let hasHeaderRow: Bool
    let separators: DecimalNumber.Separators
    let timeField: Int?
    let timeUnit: CSVMapping.TimeUnit
    let timeOrigin: CSVMapping.TimeOrigin
    /// Whether the times count from 1970 (Unix or device-local) rather than the stream start
    /// (which range of ``InputLimits/timeProblem(_:absolute:)`` applies).
    let absoluteTime: Bool
    let uniformRate: Double
    let uniformStart: Double
    let runCapacity: Int
    var expectedFields: Int?

    private var values: [Float] // this row, all streams' columns, flat
    private var lastValues: [Float] // last appended sample per stream (duplicates)
    private var lastFlags: [UInt8]
    private var lastTimes: [Double]
    private var runs: [[Float]] // uniform streams: pending run per stream, column after column
    private var runFlags: [[UInt8]]
    private var runFlagged: [Bool]
    private var runFirst: [Int]
    private var firstInteger: Int64?
    private var firstReal: Double?
    private var lastRowTime = -Double.infinity
    private var rowIndex = 0

    init(
        path: String, streams: [Stream], assemblers: [StreamAssembler], columnNames: [String], hasHeaderRow: Bool,
        separators: DecimalNumber.Separators, time: CSVMapping.Time, timeField: Int?, runCapacity: Int
    ) {
        self.path = path
        self.streams = streams
        self.assemblers = assemblers
        self.columnNames = columnNames
        self.hasHeaderRow = hasHeaderRow
        self.separators = separators
        self.timeField = timeField
        self.runCapacity = runCapacity
        expectedFields = hasHeaderRow ? columnNames.count : nil
        switch time {
        case .column(_, let unit, let origin):
            timeUnit = unit
            timeOrigin = origin.arithmetic
            switch origin {
            case .recordingStart, .sinceFirstSample: absoluteTime = false
            case .offset, .firstSampleAt, .deviceLocalClock: absoluteTime = true
            }
            uniformRate = 0
            uniformStart = 0
        case .sampleRate(let rate, let start):
            timeUnit = .seconds
            timeOrigin = .unixEpoch
            absoluteTime = start != nil
            uniformRate = rate
            uniformStart = start ?? 0
        }
        fieldOf = streams.flatMap(\.fields)
        factorOf = streams.flatMap(\.factors)
        ranges = streams.map { $0.offset..<($0.offset + $0.fields.count) }
        let total = fieldOf.count
        values = [Float](repeating: 0, count: total)
        lastValues = values
        lastFlags = [UInt8](repeating: 0, count: streams.count)
        lastTimes = [Double](repeating: -.infinity, count: streams.count)
        runs = streams.map { [Float](repeating: 0, count: $0.fields.count * runCapacity) }
        runFlags = Array(repeating: [], count: streams.count)
        runFlagged = Array(repeating: false, count: streams.count)
        runFirst = Array(repeating: 0, count: streams.count)
    }

    // MARK: - Rows

    private func issue(
        _ code: RecordingError.Code, line: Int, column: Int?, _ message: String,
        into events: inout [RecordingEvent]
    ) {
        events.append(.issue(RecordingError(code, file: path, line: line, column: column, message)))
    }

    private func columnName(_ f: Int) -> String {
        f < columnNames.count ? "'\(columnNames[f])'" : "#\(f)"
    }

    private static func text(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String {
        AppleHealthECGDecoder.excerpt(String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self))
    }

    /// Rejects this row's sample of stream `s`.
    private mutating func reject(_ s: Int, into events: inout [RecordingEvent]) {
        assemblers[s].qc.rejected += 1
        if timeField == nil {
            flushRun(s, into: &events)
            assemblers[s].markGap()
            runFirst[s] = rowIndex + 1
        }
    }

    /// Handles one non-blank data record.
    /// - Parameters:
    ///   - bytes: the bytes `fields` index.
    ///   - fields: the record's fields.
    ///   - columns: 1-based column of each field.
    ///   - outcome: how splitting ended.
    ///   - line: the record's first line.
    ///   - events: receives blocks and issues.
    mutating func take(
        _ bytes: UnsafeBufferPointer<UInt8>, fields: UnsafeBufferPointer<Range<Int>>,
        columns: UnsafeBufferPointer<Int>, outcome: CSVRecordSplitter.Outcome, line: Int,
        into events: inout [RecordingEvent]
    ) {
        defer { rowIndex += 1 }
        for s in assemblers.indices { assemblers[s].qc.samplesRead += 1 }
        if case .textAfterQuote(let c) = outcome {
            issue(.syntax, line: line, column: c, "text after a closing quote (RFC 4180 §2.7); row skipped", into: &events)
            for s in streams.indices { reject(s, into: &events) }
            return
        }
        let count = fields.count
        if expectedFields == nil { expectedFields = count }
        if count != expectedFields! {
            issue(
                .syntax, line: line, column: nil,
                "expected \(expectedFields!) fields"
                    + (hasHeaderRow ? " (as in the header)" : " (as in the first row)") + ", found \(count); row skipped",
                into: &events)
            for s in streams.indices { reject(s, into: &events) }
            return
        }
        var time = 0.0
        if let tf = timeField {
            guard tf < count, let t = rowTime(UnsafeBufferPointer(rebasing: bytes[fields[tf]])) else {
                let found = tf < count ? "'\(Self.text(bytes, fields[tf]))'" : "no such field"
                issue(
                    .wrongType, line: line, column: tf < count ? columns[tf] : nil,
                    "time column \(columnName(tf)): expected a finite number, found \(found); row skipped", into: &events)
                for s in streams.indices { reject(s, into: &events) }
                return
            }
            if let why = InputLimits.timeProblem(t, absolute: absoluteTime) {
                issue(
                    .outOfRange, line: line, column: columns[tf],
                    "time column \(columnName(tf)): \(why); row skipped", into: &events)
                for s in streams.indices { reject(s, into: &events) }
                return
            }
            time = t
            if t < lastRowTime {
                issue(
                    .timeOrder, line: line, column: columns[tf],
                    "time goes backwards: \(t) s after \(lastRowTime) s; a new segment starts", into: &events)
            }
        } else {
            time = uniformStart + Double(rowIndex) / uniformRate
        }
        var appended = false
        for s in ranges.indices {
            let range = ranges[s]
            var flags: UInt8 = 0
            var bad = -1
            for k in range {
                let f = fieldOf[k]
                guard f < count else { bad = f; break }
                let field = UnsafeBufferPointer(rebasing: bytes[fields[f]])
                let v: Double
                if let x = DecimalNumber.parse(field, separators: separators) {
                    v = x
                } else if DecimalNumber.isMissing(field) {
                    v = .nan
                    flags = SampleFlags.missing.rawValue
                } else {
                    bad = f
                    break
                }
                let scaled = v * factorOf[k]
                if InputLimits.exceedsFloat(scaled) {
                    // Masked, not ±inf (a value beyond the Float range).
                    values[k] = .nan
                    flags |= SampleFlags.missing.rawValue | SampleFlags.saturated.rawValue
                } else {
                    values[k] = Float(scaled)
                }
            }
            if bad >= 0 {
                issue(
                    .wrongType, line: line, column: columns[bad],
                    "column \(columnName(bad)): expected a number, found '\(Self.text(bytes, fields[bad]))'; "
                        + "sample of \(streams[s].name) skipped", into: &events)
                reject(s, into: &events)
                continue
            }
            if timeField != nil {
                if time == lastTimes[s] && flags == lastFlags[s]
                    && values[range].elementsEqual(lastValues[range], by: { $0.bitPattern == $1.bitPattern })
                {
                    assemblers[s].qc.duplicatesDropped += 1
                    continue
                }
                appended = true
                lastTimes[s] = time
                lastFlags[s] = flags
                for k in range { lastValues[k] = values[k] }
                let row = values
                row.withUnsafeBufferPointer { b in
                    assemblers[s].append(
                        time: time, values: UnsafeBufferPointer(rebasing: b[range]),
                        flags: SampleFlags(rawValue: flags), into: &events)
                }
            } else {
                let n = runFlags[s].count
                for (c, k) in range.enumerated() { runs[s][c * runCapacity + n] = values[k] }
                runFlags[s].append(flags)
                if flags != 0 { runFlagged[s] = true }
                if runFlags[s].count == runCapacity { flushRun(s, into: &events) }
            }
        }
        if let tf = timeField {
            if time == lastRowTime && appended {
                issue(
                    .timeOrder, line: line, column: columns[tf],
                    "time does not advance: \(time) s repeats with different values; a new segment starts", into: &events)
            }
            lastRowTime = time
        }
    }

    /// The Unix time of a time field, or `nil` if it is not a finite number.
    private mutating func rowTime(_ field: UnsafeBufferPointer<UInt8>) -> Double? {
        let per = timeUnit.perSecond
        if let v = DecimalNumber.parseInteger(field) {
            switch timeOrigin {
            case .offset(let o):
                return Double(v / per) + Double(v % per) / Double(per) + o
            case .recordingStart, .deviceLocalClock, .sinceFirstSample:
                preconditionFailure("replaced by its arithmetic form in init")
            case .firstSampleAt(let s):
                if firstInteger == nil && firstReal == nil { firstInteger = v }
                if let v0 = firstInteger {
                    let (d, overflow) = v.subtractingReportingOverflow(v0)
                    if !overflow { return s + Double(d) / Double(per) }
                }
                return s + (Double(v) - (firstReal ?? Double(firstInteger!))) / Double(per)
            }
        }
        guard let x = DecimalNumber.parse(field, separators: separators) else { return nil }
        switch timeOrigin {
        case .offset(let o):
            return x / Double(per) + o
        case .recordingStart, .deviceLocalClock, .sinceFirstSample:
            preconditionFailure("replaced by its arithmetic form in init")
        case .firstSampleAt(let s):
            if firstInteger == nil && firstReal == nil { firstReal = x }
            return s + (x - (firstReal ?? Double(firstInteger!))) / Double(per)
        }
    }

    /// Hands stream `s`'s pending run (uniform time base) to its assembler.
    private mutating func flushRun(_ s: Int, into events: inout [RecordingEvent]) {
        let n = runFlags[s].count
        guard n > 0 else { return }
        let start = uniformStart + Double(runFirst[s]) / uniformRate
        let columns = streams[s].fields.count, capacity = runCapacity, rate = uniformRate
        let run = runs[s], flags = runFlags[s], flagged = runFlagged[s]
        run.withUnsafeBufferPointer { b in
            let pointers = (0..<columns).map { UnsafeBufferPointer(rebasing: b[($0 * capacity)..<($0 * capacity + n)]) }
            if flagged {
                flags.withUnsafeBufferPointer { f in
                    assemblers[s].appendRun(start: start, sampleRate: rate, columns: pointers, flags: f, into: &events)
                }
            } else {
                assemblers[s].appendRun(start: start, sampleRate: rate, columns: pointers, flags: nil, into: &events)
            }
        }
        runFirst[s] += n
        runFlags[s].removeAll(keepingCapacity: true)
        runFlagged[s] = false
    }

    /// Ends every stream.
    mutating func finish(into events: inout [RecordingEvent]) {
        for s in streams.indices {
            flushRun(s, into: &events)
            assemblers[s].finish(into: &events)
        }
    }
}

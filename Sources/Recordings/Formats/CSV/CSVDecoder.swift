/// Decodes sensor samples from delimited text (CSV, semicolon- or tab-separated), as stated by a
/// ``CSVMapping``.
///
/// **Syntax.** Records follow RFC 4180 (Y. Shafranovich, 2005, "Common Format and MIME Type for
/// Comma-Separated Values (CSV) Files"): quoted fields may contain delimiters, doubled quotes
/// and line breaks; LF or CRLF line ends; a UTF-8 byte-order mark is ignored; blank lines are
/// skipped. With ``CSVMapping/Delimiter/automatic`` the delimiter is the first of tab, `;`, `,`
/// that splits the first (up to 20) non-blank lines after the preamble into the same number
/// (> 1) of fields, quotes respected; if none is consistent, the one giving most fields on the
/// first line; a single-column file reads as comma-separated. Tab and `;` come first because a
/// `,` may be a decimal comma.
///
/// **Time.** With a time column, every sample keeps its own time (explicit time base), converted
/// to Unix seconds per the mapping; integer ticks (ms, µs, ns) are converted in integer
/// arithmetic, so nanosecond timestamps lose nothing before the final `Double`. Time going
/// backwards is reported as an ``RecordingEvent/issue(_:)`` (code `.timeOrder`) and the stream's
/// assembler starts a new segment there; a row whose time and values repeat the previous row
/// exactly is an exact duplicate and is dropped and counted. Without a time column, row `k` is
/// at `start + k / rate` (uniform time base).
///
/// **Values.** An empty cell, `NaN`, `NA`, `N/A` or `null` is a missing value: NaN with
/// ``SampleFlags/missing`` (the sample keeps its place in time). Units are converted as
/// ``CSVMapping`` states (acceleration → g, rotation → rad/s).
///
/// **Bad rows** (recoverable, reported as issues, samples counted as rejected): a row with a
/// different number of fields than the header (or, without a header, than the first row); a
/// time cell that is not a number (the whole row); a value cell that is not a number (that
/// stream's sample). In a stream without a time column a rejected sample's slot is lost, so the
/// next sample starts a new segment (counted as a gap). Fatal: an empty file, invalid UTF-8 in
/// the header, a mapped column missing from the header, a quoted field never closed.
public final class CSVDecoder: RecordingDecoder {
    /// The file being decoded.
    public let path: String
    /// Always ``RecordingFormat/csv``.
    public var format: RecordingFormat { .csv }
    /// Streams announced so far.
    public private(set) var streams: [StreamInfo] = []
    /// QC account per announced stream.
    public var accounts: [StreamQC] { Array(assemblers.prefix(streams.count).map(\.qc)) }
    /// The mapping in use.
    public let mapping: CSVMapping
    /// The delimiter in use (detected when the mapping says ``CSVMapping/Delimiter/automatic``).
    public let delimiter: CSVMapping.Delimiter
    /// Column names of the header row (empty without one).
    public let columnNames: [String]

    private struct StreamPlan {
        var info: StreamInfo
        var fields: [Int]
        var factors: [Double]
        var values: [Float]
        var lastValues: [Float]
        var lastFlags: UInt8 = 0
        var lastTime = -Double.infinity
        var run: [[Float]]
        var runFlags: [UInt8] = []
        var runFlagged = false
        var runFirst = 0
    }

    private let reader: CSVRecordReader
    private var plans: [StreamPlan] = []
    // Kept apart from `plans` so a plan's buffers can be read while its assembler is mutated.
    private var assemblers: [StreamAssembler] = []
    private let separators: DecimalNumber.Separators
    private let timeField: Int?
    private let timeUnit: CSVMapping.TimeUnit
    private let timeOrigin: CSVMapping.TimeOrigin
    private let uniformRate: Double
    private let uniformStart: Double
    private let runCapacity: Int
    private var expectedFields: Int?
    private var firstInteger: Int64?
    private var firstReal: Double?
    private var lastRowTime = -Double.infinity
    private var rowIndex = 0
    private var pending: [RecordingEvent] = []
    private var pendingIndex = 0
    private var announced = false
    private var finished = false

    /// Opens `path`, reads the preamble and header row, and resolves the mapping.
    /// - Parameters:
    ///   - path: the file (plain or gzip-compressed).
    ///   - mapping: syntax, time and streams.
    ///   - blockCapacity: maximum samples per block (default 65,536).
    /// - Throws: ``RecordingError``: `.empty` (no bytes, or no header row), `.invalidUTF8`
    ///   (header), `.missingField` (a named column is not in the header), `.outOfRange` (a column
    ///   index beyond the header), `.syntax` (unclosed quote), `.unreadable`.
    /// - Complexity: reads at most 64 KiB for delimiter detection, then the header.
    public init(path: String, mapping: CSVMapping, blockCapacity: Int = 65_536) throws(RecordingError) {
        precondition(blockCapacity > 0, "block capacity must be positive")
        self.path = path
        self.mapping = mapping
        runCapacity = min(blockCapacity, 4096)
        separators = mapping.decimalSeparator == .point ? .point : .comma
        let head = try ByteSource.peek(path: path, count: 1 << 16)
        guard !head.isEmpty else { throw RecordingError(.empty, file: path, "the file is empty") }
        let delimiter = mapping.delimiter == .automatic
            ? Self.detectDelimiter(head, skipLines: mapping.skipLines, complete: head.count < 1 << 16)
            : mapping.delimiter
        self.delimiter = delimiter
        let reader = CSVRecordReader(lines: LineReader(source: try ByteSource(path: path)), delimiter: delimiter.byte!)
        self.reader = reader
        for _ in 0..<mapping.skipLines { _ = try reader.skipLine() }

        var names = [String]()
        if mapping.hasHeaderRow {
            var found = false
            while try reader.next() {
                if reader.isBlank { continue }
                found = true
                break
            }
            guard found else {
                throw RecordingError(.empty, file: path, line: reader.lines.lineNumber + 1,
                                     "no header row (the file has no non-blank line after the preamble)")
            }
            if case .textAfterQuote(let c) = reader.outcome {
                throw RecordingError(.syntax, file: path, line: reader.recordLine, column: c,
                                     "text after a closing quote in the header row (RFC 4180 §2.7)")
            }
            let s = reader.splitter
            for f in s.fields.indices {
                if let bad = s.withField(f, { AppleHealthECGDecoder.firstInvalidUTF8(ArraySlice($0)) }) {
                    throw RecordingError(.invalidUTF8, file: path, line: reader.recordLine, column: s.columns[f] + bad,
                                         "header field \(f + 1) is not valid UTF-8")
                }
                names.append(AppleHealthECGValues.trim(s.string(f)))
            }
            expectedFields = names.count
        }
        columnNames = names

        func resolve(_ ref: CSVMapping.ColumnReference) throws(RecordingError) -> Int {
            switch ref {
            case .name(let n):
                let key = AppleHealthECGValues.trim(n)
                guard let i = names.firstIndex(of: key) else {
                    throw RecordingError(.missingField, file: path, line: reader.recordLine,
                                         "no column '\(key)' in the header; columns are: "
                                         + names.map { "'\($0)'" }.joined(separator: ", "))
                }
                return i
            case .index(let i):
                if mapping.hasHeaderRow && i >= names.count {
                    throw RecordingError(.outOfRange, file: path, line: reader.recordLine,
                                         "column #\(i) (0-based) requested, but the header has \(names.count) columns")
                }
                return i
            }
        }
        switch mapping.time {
        case .column(let ref, let unit, let origin):
            timeField = try resolve(ref)
            timeUnit = unit
            timeOrigin = origin
            uniformRate = 0
            uniformStart = 0
        case .sampleRate(let rate, let start):
            timeField = nil
            timeUnit = .seconds
            timeOrigin = .unixEpoch
            uniformRate = rate
            uniformStart = start
        }
        for (s, stream) in mapping.streams.enumerated() {
            var fields = [Int]()
            var factors = [Double]()
            var columns = [ColumnInfo]()
            var attributes = stream.attributes
            for c in stream.columns {
                fields.append(try resolve(c.source))
                let d = c.unit.delivered
                factors.append(d.factor)
                columns.append(ColumnInfo(name: c.name, unit: d.unit))
                if let source = d.source { attributes["\(c.name).sourceUnit"] = source }
                if case .name(let n) = c.source { attributes["\(c.name).sourceColumn"] = n }
            }
            let info = StreamInfo(
                key: StreamKey(deviceID: mapping.deviceID, sensor: stream.sensor, channel: stream.channel),
                columns: columns, nominalSampleRate: timeField == nil ? uniformRate : nil, attributes: attributes)
            let n = columns.count
            assemblers.append(StreamAssembler(stream: s, columnCount: n, uniform: timeField == nil,
                                              blockCapacity: blockCapacity))
            plans.append(StreamPlan(
                info: info, fields: fields, factors: factors,
                values: [Float](repeating: 0, count: n), lastValues: [Float](repeating: 0, count: n),
                run: Array(repeating: [], count: n)))
        }
    }

    /// The delimiter that splits the first lines consistently (see the type's discussion).
    static func detectDelimiter(_ head: [UInt8], skipLines: Int, complete: Bool) -> CSVMapping.Delimiter {
        var lines = head.split(separator: 0x0A, omittingEmptySubsequences: false)
        if !complete && lines.count > 1 { lines.removeLast() }      // partial last line
        var sample = [ArraySlice<UInt8>]()
        for line in lines.dropFirst(skipLines) {
            var l = line
            if l.last == 0x0D { l = l.dropLast() }
            if l.starts(with: [0xEF, 0xBB, 0xBF]) { l = l.dropFirst(3) }
            if l.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { continue }
            sample.append(l)
            if sample.count == 20 { break }
        }
        let candidates: [CSVMapping.Delimiter] = [.tab, .semicolon, .comma]
        var firstLineCounts = [Int]()
        for candidate in candidates {
            var splitter = CSVRecordSplitter(delimiter: candidate.byte!)
            var counts = [Int]()
            for l in sample {
                let outcome = l.withUnsafeBufferPointer { splitter.split($0) }
                guard outcome == .complete else { break }
                counts.append(splitter.fields.count)
            }
            firstLineCounts.append(counts.first ?? 1)
            if let c = counts.first, c > 1, counts.allSatisfy({ $0 == c }) { return candidate }
        }
        if let best = firstLineCounts.indices.max(by: { firstLineCounts[$0] < firstLineCounts[$1] }),
           firstLineCounts[best] > 1 {
            return candidates[best]
        }
        return .comma
    }

    /// The next event: the device and all streams first, then blocks and issues in file order.
    /// - Throws: ``RecordingError`` for an unclosed quote, I/O or decompression failures.
    /// - Complexity: amortised O(fields) per row.
    public func next() throws(RecordingError) -> RecordingEvent? {
        if !announced {
            announced = true
            pending.append(.device(DeviceInfo(id: mapping.deviceID)))
            for p in plans {
                streams.append(p.info)
                pending.append(.stream(p.info))
            }
        }
        while pendingIndex == pending.count {
            pending.removeAll(keepingCapacity: true)
            pendingIndex = 0
            if finished { return nil }
            while pending.isEmpty {
                guard try reader.next() else {
                    for s in plans.indices {
                        flushRun(s)
                        assemblers[s].finish(into: &pending)
                    }
                    finished = true
                    break
                }
                if reader.isBlank { continue }
                takeRow()
            }
        }
        defer { pendingIndex += 1 }
        return pending[pendingIndex]
    }

    private func issue(_ code: RecordingError.Code, column: Int?, _ message: String) {
        pending.append(.issue(RecordingError(code, file: path, line: reader.recordLine, column: column, message)))
    }

    /// Rejects this row's sample of stream `s`.
    private func reject(_ s: Int) {
        assemblers[s].qc.rejected += 1
        if timeField == nil {
            flushRun(s)
            assemblers[s].markGap()
            plans[s].runFirst = rowIndex + 1
        }
    }

    private func fieldText(_ f: Int) -> String {
        AppleHealthECGDecoder.excerpt(reader.splitter.string(f))
    }

    private func columnName(_ f: Int) -> String {
        f < columnNames.count ? "'\(columnNames[f])'" : "#\(f)"
    }

    /// Handles one non-blank data record.
    private func takeRow() {
        defer { rowIndex += 1 }
        for s in plans.indices { assemblers[s].qc.samplesRead += 1 }
        let splitter = reader.splitter
        if case .textAfterQuote(let c) = reader.outcome {
            issue(.syntax, column: c, "text after a closing quote (RFC 4180 §2.7); row skipped")
            for s in plans.indices { reject(s) }
            return
        }
        let count = splitter.fields.count
        if expectedFields == nil { expectedFields = count }
        if count != expectedFields! {
            issue(.syntax, column: nil, "expected \(expectedFields!) fields"
                  + (mapping.hasHeaderRow ? " (as in the header)" : " (as in the first row)")
                  + ", found \(count); row skipped")
            for s in plans.indices { reject(s) }
            return
        }
        var time = 0.0
        if let tf = timeField {
            guard tf < count, let t = rowTime(splitter, tf) else {
                let found = tf < count ? "'\(fieldText(tf))'" : "no such field"
                issue(.wrongType, column: tf < count ? splitter.columns[tf] : nil,
                      "time column \(columnName(tf)): expected a finite number, found \(found); row skipped")
                for s in plans.indices { reject(s) }
                return
            }
            time = t
            if t < lastRowTime {
                issue(.timeOrder, column: splitter.columns[tf],
                      "time goes backwards: \(t) s after \(lastRowTime) s; a new segment starts")
            }
        } else {
            time = uniformStart + Double(rowIndex) / uniformRate
        }
        var appended = false
        for s in plans.indices {
            var flags: UInt8 = 0
            var bad = false
            for (c, f) in plans[s].fields.enumerated() {
                guard f < count else { bad = true; break }
                let v: Double? = splitter.withField(f) { b in
                    DecimalNumber.isMissing(b) ? Double.nan : DecimalNumber.parse(b, separators: separators)
                }
                guard let v else {
                    issue(.wrongType, column: splitter.columns[f],
                          "column \(columnName(f)): expected a number, found '\(fieldText(f))'; "
                          + "sample of \(plans[s].info.key.channel) skipped")
                    bad = true
                    break
                }
                if v.isNaN { flags = SampleFlags.missing.rawValue }
                plans[s].values[c] = Float(v * plans[s].factors[c])
            }
            if bad { reject(s); continue }
            if timeField != nil {
                if time == plans[s].lastTime && flags == plans[s].lastFlags
                    && plans[s].values.elementsEqual(plans[s].lastValues, by: { $0.bitPattern == $1.bitPattern }) {
                    assemblers[s].qc.duplicatesDropped += 1
                    continue
                }
                appended = true
                plans[s].lastTime = time
                plans[s].lastFlags = flags
                plans[s].lastValues = plans[s].values
                plans[s].values.withUnsafeBufferPointer { b in
                    assemblers[s].append(time: time, values: b, flags: SampleFlags(rawValue: flags), into: &pending)
                }
            } else {
                for c in plans[s].values.indices { plans[s].run[c].append(plans[s].values[c]) }
                plans[s].runFlags.append(flags)
                if flags != 0 { plans[s].runFlagged = true }
                if plans[s].runFlags.count == runCapacity { flushRun(s) }
            }
        }
        if timeField != nil {
            if time == lastRowTime && appended, let tf = timeField {
                issue(.timeOrder, column: splitter.columns[tf],
                      "time does not advance: \(time) s repeats with different values; a new segment starts")
            }
            lastRowTime = time
        }
    }

    /// The Unix time of a row's time field, or `nil` if it is not a finite number.
    private func rowTime(_ splitter: CSVRecordSplitter, _ field: Int) -> Double? {
        let per = timeUnit.perSecond
        if let v = splitter.withField(field, { DecimalNumber.parseInteger($0) }) {
            switch timeOrigin {
            case .offset(let o):
                return Double(v / per) + Double(v % per) / Double(per) + o
            case .firstSampleAt(let s):
                if firstInteger == nil && firstReal == nil { firstInteger = v }
                if let v0 = firstInteger {
                    let (d, overflow) = v.subtractingReportingOverflow(v0)
                    if !overflow { return s + Double(d) / Double(per) }
                }
                return s + (Double(v) - (firstReal ?? Double(firstInteger!))) / Double(per)
            }
        }
        guard let x = splitter.withField(field, { DecimalNumber.parse($0, separators: separators) }) else {
            return nil
        }
        switch timeOrigin {
        case .offset(let o):
            return x / Double(per) + o
        case .firstSampleAt(let s):
            if firstInteger == nil && firstReal == nil { firstReal = x }
            return s + (x - (firstReal ?? Double(firstInteger!))) / Double(per)
        }
    }

    /// Hands stream `s`'s pending run (uniform time base) to its assembler.
    private func flushRun(_ s: Int) {
        let n = plans[s].runFlags.count
        guard n > 0 else { return }
        let start = uniformStart + Double(plans[s].runFirst) / uniformRate
        let rate = uniformRate
        let columnCount = plans[s].run.count
        var pointers = [UnsafeBufferPointer<Float>]()
        func go(_ c: Int) {
            if c == columnCount {
                if plans[s].runFlagged {
                    plans[s].runFlags.withUnsafeBufferPointer { f in
                        assemblers[s].appendRun(start: start, sampleRate: rate, columns: pointers, flags: f,
                                                     into: &pending)
                    }
                } else {
                    assemblers[s].appendRun(start: start, sampleRate: rate, columns: pointers, flags: nil,
                                                 into: &pending)
                }
                return
            }
            plans[s].run[c].withUnsafeBufferPointer { b in
                pointers.append(b)
                go(c + 1)
            }
        }
        go(0)
        plans[s].runFirst += n
        for c in 0..<columnCount { plans[s].run[c].removeAll(keepingCapacity: true) }
        plans[s].runFlags.removeAll(keepingCapacity: true)
        plans[s].runFlagged = false
    }
}

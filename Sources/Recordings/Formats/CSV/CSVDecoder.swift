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
/// at `start + k / rate` (uniform time base). The mapping says what the times count from
/// (``StreamInfo/timeOrigin``: Unix for a Unix or offset clock, ``TimeOrigin/streamStart`` for
/// a column counting from the recording start or a rate without a start time,
/// ``TimeOrigin/deviceLocal`` for a local clock).
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
    public var accounts: [StreamQC] { Array(rows.assemblers.prefix(streams.count).map(\.qc)) }
    /// The mapping in use.
    public let mapping: CSVMapping
    /// The delimiter in use (detected when the mapping says ``CSVMapping/Delimiter/automatic``).
    public let delimiter: CSVMapping.Delimiter
    /// Column names of the header row (empty without one).
    public let columnNames: [String]

    private let reader: CSVRecordReader
    private var rows: CSVRowDecoder
    private let infos: [StreamInfo]
    private var pending = EventQueue()
    private var announced = false
    private var finished = false
    private var firstRowChecked: Bool
    private let largestField: Int

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
        let head = try ByteSource.peek(path: path, count: 1 << 16)
        guard !head.isEmpty else { throw RecordingError(.empty, file: path, "the file is empty") }
        let delimiter =
            mapping.delimiter == .automatic
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
                throw RecordingError(
                    .empty, file: path, line: reader.lines.lineNumber + 1,
                    "no header row (the file has no non-blank line after the preamble)")
            }
            if case .textAfterQuote(let c) = reader.outcome {
                throw RecordingError(
                    .syntax, file: path, line: reader.recordLine, column: c,
                    "text after a closing quote in the header row (RFC 4180 §2.7)")
            }
            let columns = reader.splitter.columns
            for f in reader.splitter.fields.indices {
                let bytes = reader.fieldBytes(f)
                if let bad = AppleHealthECGDecoder.firstInvalidUTF8(bytes[...]) {
                    throw RecordingError(
                        .invalidUTF8, file: path, line: reader.recordLine, column: columns[f] + bad,
                        "header field \(f + 1) is not valid UTF-8")
                }
                names.append(AppleHealthECGValues.trim(String(decoding: bytes, as: UTF8.self)))
            }
        }
        columnNames = names

        func resolve(_ ref: CSVMapping.ColumnReference) throws(RecordingError) -> Int {
            switch ref {
            case .name(let n):
                let key = AppleHealthECGValues.trim(n)
                guard let i = names.firstIndex(of: key) else {
                    throw RecordingError(
                        .missingField, file: path, line: reader.recordLine,
                        "no column '\(key)' in the header; columns are: "
                            + names.map { "'\($0)'" }.joined(separator: ", "))
                }
                return i
            case .index(let i):
                if mapping.hasHeaderRow && i >= names.count {
                    throw RecordingError(
                        .outOfRange, file: path, line: reader.recordLine,
                        "column #\(i) (0-based) requested, but the header has \(names.count) columns")
                }
                return i
            }
        }
        var timeField: Int?
        var nominalRate: Double?
        switch mapping.time {
        case .column(let ref, _, _): timeField = try resolve(ref)
        case .sampleRate(let rate, _): nominalRate = rate
        }
        var plans = [CSVRowDecoder.Stream]()
        var assemblers = [StreamAssembler]()
        var infos = [StreamInfo]()
        var offset = 0
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
            infos.append(
                StreamInfo(
                    key: StreamKey(deviceID: mapping.deviceID, sensor: stream.sensor, channel: stream.channel),
                    columns: columns, nominalSampleRate: nominalRate, attributes: attributes,
                    timeOrigin: mapping.streamTimeOrigin,
                    // A stream of temperatures only is auxiliary, as SensorKit's PPG temperature.
                    role: !columns.isEmpty && columns.allSatisfy { $0.unit == .degreesCelsius } ? .temperature : nil))
            plans.append(CSVRowDecoder.Stream(fields: fields, factors: factors, name: stream.channel, offset: offset))
            offset += fields.count
            assemblers.append(
                StreamAssembler(
                    stream: s, columnCount: fields.count, uniform: timeField == nil,
                    blockCapacity: blockCapacity))
        }
        self.infos = infos
        largestField = max(timeField ?? 0, plans.flatMap(\.fields).max() ?? 0)
        firstRowChecked = mapping.hasHeaderRow
        rows = CSVRowDecoder(
            path: path, streams: plans, assemblers: assemblers, columnNames: names,
            hasHeaderRow: mapping.hasHeaderRow,
            separators: mapping.decimalSeparator == .point ? .point : .comma,
            time: mapping.time, timeField: timeField, runCapacity: min(blockCapacity, 4096))
    }

    /// The delimiter that splits the first lines consistently (see the type's discussion).
    static func detectDelimiter(_ head: [UInt8], skipLines: Int, complete: Bool) -> CSVMapping.Delimiter {
        var lines = head.split(separator: 0x0A, omittingEmptySubsequences: false)
        if !complete && lines.count > 1 { lines.removeLast() } // partial last line
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
            firstLineCounts[best] > 1
        {
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
            for info in infos {
                streams.append(info)
                pending.append(.stream(index: streams.count - 1, info: info))
            }
        }
        while true {
            if let e = try pending.next() { return e }
            if finished { return nil }
            try readSome()
        }
    }

    /// Reads records until events are produced or the file ends.
    private func readSome() throws(RecordingError) {
        let reader = self.reader
        var events = [RecordingEvent]()
        pending.withEvents { swap(&events, &$0) }
        defer { pending.withEvents { swap(&events, &$0) } }
        while events.isEmpty {
            guard try reader.next() else {
                self.rows.finish(into: &events)
                finished = true
                return
            }
            if reader.isBlank { continue }
            if !firstRowChecked {
                firstRowChecked = true
                let count = reader.splitter.fields.count
                guard largestField < count else {
                    throw RecordingError(
                        .outOfRange, file: path, line: reader.recordLine,
                        "column #\(largestField) (0-based) requested, but the first row has \(count) fields")
                }
            }
            let outcome = reader.outcome, line = reader.recordLine
            reader.withFields { bytes, fields, columns in
                self.rows.take(bytes, fields: fields, columns: columns, outcome: outcome, line: line, into: &events)
            }
        }
    }
}

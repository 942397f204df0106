/// Decodes an ECG exported by the Apple Health app ("Export All Health Data" →
/// `electrocardiograms/ecg_<date>.csv`) into one regularly sampled ECG stream.
///
/// The format, as observed in real exports (there is no published specification):
/// ```
/// Name,…
/// Date of Birth,"…"
/// Recorded Date,2021-12-17 12:58:58 +0800
/// Classification,Sinus Rhythm
/// Symptoms,
/// Software Version,1.90
/// Device,"Watch5,1"
/// Sample Rate,513.625 hertz
///
///
/// Lead,Lead I
/// Unit,µV
///
/// 27.648
/// …   one voltage per line
/// ```
/// Header lines are `key,value` records quoted as in RFC 4180 (Shafranovich 2005, §2: a value
/// with a comma is enclosed in double quotes, `""` is a quote); an unquoted value that contains
/// commas is taken whole (everything after the first comma). Every header line is kept as a
/// stream attribute (recognised keys under ``Field`` raw values, others under their own key),
/// including the personal `Name` and `Date of Birth`; drop them before sharing results. The
/// recording's metadata is also stored under the keys every format uses (``StreamAttribute``):
/// `classification` (e.g. `Sinus Rhythm`), `symptoms`, `device_model` (`Device`, e.g.
/// `Watch5,1`), `device_software` (`Software Version`) and `utc_offset_s` (the offset of
/// `Recorded Date`, seconds east of UTC).
///
/// **Time** (``TimeOrigin/unix``). `Recorded Date` with its UTC offset gives the Unix time of the first sample; sample
/// `k` is at `start + k / rate`, with the declared non-integer rate (e.g. 512.508 Hz) kept
/// exactly. A date without a UTC offset is rejected (the instant would be unknown).
///
/// **Locales.** Header keys are recognised in English (verified on real exports) and through
/// `fieldNames` (add your locale's names); a key this decoder does not know is still recognised
/// by its value when the value has the unmistakable shape of the recorded date
/// (`yyyy-MM-dd HH:mm:ss ±hhmm`), of a sample rate (`<number> hertz|Hz`) or of a unit (`µV`,
/// `uV`, `mV`). Numbers may use a decimal point or a decimal comma (`27,648`,
/// `512,508 Hertz`): Apple writes numbers without digit grouping (values beyond ±1000 µV appear
/// as `1083.72`), so a single `.` or `,` in a number is its decimal separator; a number with
/// both, or with two separators, is rejected rather than guessed.
///
/// **Bad lines.** A data line that is not one number is skipped with an
/// ``RecordingEvent/issue(_:)`` and counted as rejected; because its time slot is lost, the
/// next sample starts a new segment (counted as a gap), so no sample is ever shifted in time.
/// Blank lines are ignored. Missing `Sample Rate`, `Recorded Date` or `Unit`, a rate ≤ 0, an
/// unknown unit, invalid UTF-8 in the header or no samples at all are fatal.
public final class AppleHealthECGDecoder: RecordingDecoder {
    /// The header fields this decoder understands.
    public enum Field: String, Sendable, Hashable, CaseIterable {
        case name, dateOfBirth, recordedDate, classification, symptoms, softwareVersion, device
        case sampleRate, lead, unit
    }

    /// English header keys, as the Health app writes them.
    public static let englishFieldNames: [String: Field] = [
        "Name": .name, "Date of Birth": .dateOfBirth, "Recorded Date": .recordedDate,
        "Classification": .classification, "Symptoms": .symptoms, "Software Version": .softwareVersion,
        "Device": .device, "Sample Rate": .sampleRate, "Lead": .lead, "Unit": .unit,
    ]

    /// The file being decoded.
    public let path: String
    /// Always ``RecordingFormat/appleHealthECG``.
    public var format: RecordingFormat { .appleHealthECG }
    /// The ECG stream, once announced.
    public private(set) var streams: [StreamInfo] = []
    /// QC account of the ECG stream, once announced.
    public var accounts: [StreamQC] { streams.isEmpty ? [] : [assembler.qc] }
    /// Recognised header fields, raw values as written.
    public let header: [Field: String]
    /// Header lines with keys this decoder does not know, raw key → value.
    public let otherHeaderLines: [String: String]
    /// Declared sample rate, Hz.
    public let sampleRate: Double
    /// Unix time of the first sample (s), from `Recorded Date` and its UTC offset.
    public let startUnix: Double
    /// Unit of the values (µV in every export seen).
    public let unit: PhysicalUnit

    private let info: StreamInfo
    private let device: DeviceInfo
    private let lines: LineReader
    private var assembler: StreamAssembler
    private var pending = EventQueue()
    private var headerIssues: [RecordingEvent] = [] // found by init, delivered after the stream
    private var announced = false
    private var finished = false
    private var firstData: (bytes: [UInt8], line: Int)?
    private var run: [Float] = []
    private let runCapacity: Int
    private var runFirst = 0 // sample index of run[0]
    private var sampleIndex = 0 // data lines seen (delivered and rejected)
    private var splitter = CSVRecordSplitter(delimiter: 0x2C)

    /// Opens `path` and reads its header.
    /// - Parameters:
    ///   - path: the exported `.csv` file (plain or gzip-compressed).
    ///   - blockCapacity: maximum samples per block (default 65,536).
    ///   - deviceID: device identifier of the stream (default `"apple-watch"`); the export does
    ///     not name the device instance.
    ///   - fieldNames: extra header keys (e.g. your locale's) → field; matched without regard to
    ///     case, in addition to ``englishFieldNames``.
    /// - Throws: ``RecordingError``: `.empty` (empty file or no samples), `.missingField`
    ///   (no `Sample Rate`, `Recorded Date` or `Unit` line), `.syntax` (malformed value or
    ///   quoting), `.outOfRange` (rate ≤ 0 or not finite, unknown unit), `.invalidUTF8` (header
    ///   bytes), `.unreadable`.
    /// - Complexity: reads the header and the first data line.
    public convenience init(
        path: String, blockCapacity: Int = 65_536, deviceID: String = "apple-watch",
        fieldNames: [String: Field] = [:]
    ) throws(RecordingError) {
        try self.init(
            source: try ByteSource(path: path), path: path, blockCapacity: blockCapacity, deviceID: deviceID, fieldNames: fieldNames)
    }

    /// Decodes from `source` (an ECG CSV read from an export's ZIP archive), as
    /// ``init(path:blockCapacity:deviceID:fieldNames:)``; `path` names it in errors.
    init(
        source: ByteSource, path: String, blockCapacity: Int = 65_536, deviceID: String = "apple-watch",
        fieldNames: [String: Field] = [:]
    ) throws(RecordingError) {
        precondition(blockCapacity > 0, "block capacity must be positive")
        self.path = path
        runCapacity = min(blockCapacity, 4096)
        lines = LineReader(source: source)
        var names = [String: Field]()
        for (k, f) in Self.englishFieldNames { names[k.lowercased()] = f }
        for (k, f) in fieldNames { names[AppleHealthECGValues.trim(k).lowercased()] = f }

        var fields = [Field: (value: String, line: Int, column: Int)]()
        var others = [String: String]()
        var issues = [RecordingError]()
        var sawUnit = false
        var headerClosed = false
        var lastLine = 0
        var splitter = CSVRecordSplitter(delimiter: 0x2C)
        while let range = try lines.nextLine() {
            lastLine = lines.lineNumber
            var lo = range.lowerBound
            if lines.lineNumber == 1 && range.count >= 3 && lines.buffer[lo] == 0xEF
                && lines.buffer[lo + 1] == 0xBB && lines.buffer[lo + 2] == 0xBF
            {
                lo += 3
            } // BOM
            let bytes = lines.buffer[lo..<range.upperBound]
            if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) {
                if sawUnit { headerClosed = true }
                continue
            }
            let isNumber = bytes.withUnsafeBufferPointer { Self.parseValue($0, splitter: &splitter) != nil }
            if headerClosed || isNumber {
                firstData = (Array(bytes), lines.lineNumber)
                break
            }
            if let bad = Self.firstInvalidUTF8(bytes) {
                throw RecordingError(
                    .invalidUTF8, file: path, line: lines.lineNumber, column: bad + 1 + (lo - range.lowerBound),
                    "header line is not valid UTF-8 (byte 0x\(String(bytes[bytes.startIndex + bad], radix: 16, uppercase: true)))")
            }
            let outcome = bytes.withUnsafeBufferPointer { splitter.split($0) }
            switch outcome {
            case .complete: break
            case .openQuote(let c):
                throw RecordingError(
                    .syntax, file: path, line: lines.lineNumber, column: c,
                    "quoted header value is never closed (RFC 4180 §2.5)")
            case .textAfterQuote(let c):
                throw RecordingError(
                    .syntax, file: path, line: lines.lineNumber, column: c,
                    "text after a closing quote; expected ',' or the end of the line (RFC 4180 §2.7)")
            }
            let key = AppleHealthECGValues.trim(splitter.string(0))
            guard splitter.fields.count >= 2 else {
                issues.append(
                    RecordingError(
                        .syntax, file: path, line: lines.lineNumber, column: 1,
                        "header line '\(Self.excerpt(key))' is not 'key,value'; ignored"))
                continue
            }
            let value = AppleHealthECGValues.trim(
                (1..<splitter.fields.count).map { splitter.string($0) }
                    .joined(separator: ","))
            let column = splitter.columns[1]
            var field = names[key.lowercased()]
            if field == nil {
                if fields[.recordedDate] == nil && AppleHealthECGValues.parseDate(value) != nil {
                    field = .recordedDate
                } else if fields[.sampleRate] == nil && AppleHealthECGValues.parseRate(value, requireUnit: true) != nil {
                    field = .sampleRate
                } else if fields[.unit] == nil && AppleHealthECGValues.parseUnit(value) != nil {
                    field = .unit
                }
            }
            if let field {
                if fields[field] == nil { fields[field] = (value, lines.lineNumber, column) }
                if field == .unit { sawUnit = true }
            } else {
                others[key] = value
            }
        }
        guard lastLine > 0 else { throw RecordingError(.empty, file: path, "the file is empty") }
        let dataLine = firstData?.line ?? lastLine + 1

        func missing(_ name: String, _ example: String) -> RecordingError {
            RecordingError(
                .missingField, file: path, line: dataLine,
                "no '\(name)' line in the header (lines 1–\(dataLine - 1)); expected e.g. '\(example)'")
        }
        guard let rateField = fields[.sampleRate] else { throw missing("Sample Rate", "Sample Rate,512 hertz") }
        guard let rate = AppleHealthECGValues.parseRate(rateField.value, requireUnit: false) else {
            throw RecordingError(
                .syntax, file: path, line: rateField.line, column: rateField.column,
                "sample rate '\(Self.excerpt(rateField.value))' is not '<number> hertz'")
        }
        guard rate > 0 && rate.isFinite else {
            throw RecordingError(
                .outOfRange, file: path, line: rateField.line, column: rateField.column,
                "sample rate must be a positive number of hertz, found '\(Self.excerpt(rateField.value))'")
        }
        if let why = InputLimits.sampleRateProblem(rate) {
            throw RecordingError(
                .outOfRange, file: path, line: rateField.line, column: rateField.column,
                "sample rate '\(Self.excerpt(rateField.value))': \(why)")
        }
        guard let dateField = fields[.recordedDate] else {
            throw missing("Recorded Date", "Recorded Date,2021-12-17 12:58:58 +0800")
        }
        guard let start = AppleHealthECGValues.parseDate(dateField.value) else {
            throw RecordingError(
                .syntax, file: path, line: dateField.line, column: dateField.column,
                "recorded date '\(Self.excerpt(dateField.value))' is not 'yyyy-MM-dd HH:mm:ss ±hhmm' "
                    + "(a UTC offset is required)")
        }
        guard let unitField = fields[.unit] else { throw missing("Unit", "Unit,µV") }
        guard let unit = AppleHealthECGValues.parseUnit(unitField.value) else {
            throw RecordingError(
                .outOfRange, file: path, line: unitField.line, column: unitField.column,
                "unit '\(Self.excerpt(unitField.value))' is not µV, uV or mV")
        }
        guard firstData != nil else {
            throw RecordingError(.empty, file: path, line: dataLine, "no ECG samples after the header")
        }

        sampleRate = rate
        startUnix = start
        self.unit = unit
        header = fields.mapValues(\.value)
        otherHeaderLines = others
        var attributes = others
        for (f, v) in fields { attributes[f.rawValue] = v.value }
        // The same facts under the keys every format uses (StreamAttribute).
        if let v = fields[.classification]?.value { attributes[StreamAttribute.classification] = v }
        if let v = fields[.symptoms]?.value { attributes[StreamAttribute.symptoms] = v }
        if let v = fields[.device]?.value, !v.isEmpty { attributes[StreamAttribute.deviceModel] = v }
        if let v = fields[.softwareVersion]?.value, !v.isEmpty { attributes[StreamAttribute.deviceSoftware] = v }
        if let offset = AppleHealthECGValues.parseDateAndOffset(dateField.value)?.utcOffsetSeconds {
            attributes[StreamAttribute.utcOffsetSeconds] = String(offset)
        }
        info = StreamInfo(
            key: StreamKey(deviceID: deviceID, sensor: .electrocardiogram, channel: "ecg", session: dateField.value),
            columns: [ColumnInfo(name: "value", unit: unit)], nominalSampleRate: rate, attributes: attributes,
            timeOrigin: .unix)
        device = DeviceInfo(
            id: deviceID, name: "Apple Watch", model: "Watch", systemName: "watchOS",
            productType: fields[.device]?.value)
        assembler = StreamAssembler(stream: 0, columnCount: 1, uniform: true, blockCapacity: blockCapacity)
        run.reserveCapacity(runCapacity)
        headerIssues = issues.map { .issue($0) }
    }

    /// The next event: the device, the ECG stream, header issues, then blocks and issues in
    /// file order.
    /// - Throws: ``RecordingError`` for I/O or decompression failures.
    /// - Complexity: amortised O(1) per sample.
    public func next() throws(RecordingError) -> RecordingEvent? {
        if !announced {
            announced = true
            streams.append(info)
            pending.append(.device(device))
            pending.append(.stream(index: streams.count - 1, info: info))
            pending.append(contentsOf: headerIssues)
            headerIssues = []
        }
        while true {
            if let e = try pending.next() { return e }
            if finished { return nil }
            try readSome()
        }
    }

    /// Reads data lines until events are produced or the file ends.
    private func readSome() throws(RecordingError) {
        if let first = firstData {
            firstData = nil
            first.bytes.withUnsafeBufferPointer { take($0, line: first.line) }
        }
        while pending.isEmpty {
            guard let range = try lines.nextLine() else {
                flushRun()
                pending.withEvents { assembler.finish(into: &$0) }
                finished = true
                return
            }
            let line = lines.lineNumber
            lines.buffer.withUnsafeBufferPointer { b in take(UnsafeBufferPointer(rebasing: b[range]), line: line) }
        }
    }

    /// Handles one data line.
    private func take(_ bytes: UnsafeBufferPointer<UInt8>, line: Int) {
        if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { return }
        assembler.qc.samplesRead += 1
        sampleIndex += 1
        if let v = Self.parseValue(bytes, splitter: &splitter), !InputLimits.exceedsFloat(v) {
            run.append(Float(v))
            if run.count == runCapacity { flushRun() }
            return
        }
        flushRun()
        assembler.qc.rejected += 1
        assembler.markGap()
        runFirst = sampleIndex
        let text = String(decoding: bytes, as: UTF8.self)
        pending.append(
            .issue(
                RecordingError(
                    .wrongType, file: path, line: line, column: 1,
                    "expected one number (\(unit == .microvolts ? "µV" : "mV")) per line, "
                        + "found '\(Self.excerpt(text))'; sample skipped")))
    }

    private func flushRun() {
        guard !run.isEmpty else { return }
        let start = startUnix + Double(runFirst) / sampleRate
        run.withUnsafeBufferPointer { b in
            pending.withEvents {
                assembler.appendRun(start: start, sampleRate: sampleRate, columns: [b], flags: nil, into: &$0)
            }
        }
        runFirst += run.count
        run.removeAll(keepingCapacity: true)
    }

    /// One value line: a number with a decimal point or comma, optionally quoted as one field.
    static func parseValue(_ bytes: UnsafeBufferPointer<UInt8>, splitter: inout CSVRecordSplitter) -> Double? {
        var i = 0
        while i < bytes.count && (bytes[i] == 0x20 || bytes[i] == 0x09) { i += 1 }
        if i < bytes.count && bytes[i] == 0x22 {
            guard splitter.split(bytes) == .complete, splitter.fields.count == 1 else { return nil }
            return splitter.withField(0) { DecimalNumber.parse($0, separators: .either) }
        }
        return DecimalNumber.parse(bytes, separators: .either)
    }

    /// Index of the first byte that breaks UTF-8 (Unicode 15, table 3-7), or `nil`.
    static func firstInvalidUTF8(_ bytes: ArraySlice<UInt8>) -> Int? {
        var it = bytes.makeIterator()
        var decoder = UTF8()
        var offset = 0
        var valid = 0
        loop: while true {
            switch decoder.decode(&it) {
            case .scalarValue(let s):
                offset += UTF8.width(s)
                valid = offset
            case .emptyInput: break loop
            case .error: return valid
            }
        }
        return nil
    }

    /// At most 40 characters of `text`, for messages.
    static func excerpt(_ text: String) -> String {
        text.count <= 40 ? text : String(text.prefix(40)) + "…"
    }
}

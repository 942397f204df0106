#if canImport(Glibc)
    import Glibc
#endif

/// Streaming decoder of SensorKit exports: the canonical SensorKit export schema v1
/// (`sensorkit-ndjson`, `docs/SCHEMA.md`; JSON Lines, plain or gzip) and the MyDataHelps
/// SensorKit JSON export (`{"device":{…},"samples":[{"timestamp":…,"sample":{…}}]}`).
///
/// Property names follow Apple's SensorKit and CoreMotion types one to one: `SRFetchResult`,
/// `SRDevice`, `CMRecordedAccelerometerData`, `CMRecordedRotationRateData`,
/// `SRElectrocardiogramSample` / `SRElectrocardiogramData` / `SRElectrocardiogramSession`,
/// `SRPhotoplethysmogramSample` / `SRPhotoplethysmogramOpticalSample` /
/// `SRPhotoplethysmogramAccelerometerSample`, and `SRDeletionRecord`.
///
/// **Streams** (one ``StreamAssembler`` each, so segmentation and QC follow the common rules):
/// - `acceleration` (accelerometer): x, y, z in g at explicit times = `startDate` (jittery
///   ~50 Hz; no rate is assumed, gaps are judged from the stream's own recent intervals).
/// - `rotationRate`: x, y, z in rad/s at explicit times = `startDate`.
/// - `ecg` (one stream per `session.identifier`): `value` in µV on a uniform time base per batch
///   (`date + j / frequency`, ``StreamAssembler/appendRun(start:sampleRate:columns:flags:into:)``);
///   `flags` bit 0 → ``SampleFlags/signalInvalid`` (masked), bit 1 → ``SampleFlags/crownTouched``
///   (kept). Attributes `lead`, `sessionGuidance`.
/// - `optical/e<emitter>/pd<i,j>/s<signalIdentifier>` (one per PPG optical channel):
///   `normalizedReflectance` (`null` → NaN + ``SampleFlags/missing``) and the four `noiseTerms`
///   (NaN when `null`), at `startDate + nanosecondsSinceStart / 10⁹` of the optical sample, declared
///   rate `samplingFrequency`; `conditions` → ``SampleFlags/saturated`` / ``SampleFlags/unreliableNoise``.
///   Attributes `emitter`, `activePhotodiodeIndexes`, `signalIdentifier`, `nominalWavelength` and
///   `effectiveWavelength` (nm, of the channel's first sample), `usage` (of its first sample).
/// - `accelerometer` (PPG): x, y, z in g at `startDate + nanosecondsSinceStart / 10⁹`.
/// - `temperature` (PPG): °C at the PPG sample's `startDate + nanosecondsSinceStart / 10⁹`
///   (`null` → NaN + missing; absent → no sample).
///
/// **Time and device.** Every stream's times are Unix seconds (``TimeOrigin/unix``: the schema's
/// `Date` fields). A stream announced after its device's `device` line (the schema puts it
/// first) carries that device's ``StreamAttribute`` keys: `device_name`, `device_model`
/// (`productType`, else `model`), `device_system` (`systemName systemVersion`).
///
/// **Stream lines.** A `stream` line (SensorPipe's extension, ``SensorKitStreamLine``, written by
/// ``SensorKitWriter``) sets the key, time origin and attributes of the stream whose data follow
/// it, so a converted recording keeps its source's stream keys and metadata.
///
/// **Not kept** (documented, never silent): the result-level `timestamp`/`timestampUnix` (when the
/// framework wrote the result, not when it was measured); the per-sample CoreMotion `timestamp`
/// (seconds since boot) and the accelerometer batch `identifier` (used only for duplicate
/// detection); the ECG `session.state` of each batch; the order of `activePhotodiodeIndexes`
/// (a set); per-sample changes of `effectiveWavelength` and `usage` within a PPG channel;
/// ECG `flags` bits above bit 1.
///
/// **Duplicates** (exact, by the schema's keys: accelerometer (`deviceId`, `identifier`,
/// `startDate`), rotation rate (`deviceId`, `startDate`), ECG (`session.identifier`, `date`)) are
/// dropped and counted in ``StreamQC/duplicatesDropped`` (one warning issue per stream); memory is
/// bounded by remembering a window of recent keys of each kind (always the last
/// `duplicateWindow`/2 distinct keys, never more than `duplicateWindow`; ``DuplicateWindow``): an
/// older twin is not recognised and then shows up as a backward step (a new segment).
///
/// **Errors.** Fatal (thrown): an empty file, a first line that is not a `header` of schema
/// `sensorkit-ndjson` version 1 (`.unsupportedVersion` at line 1), a truncated gzip stream, a
/// MyDataHelps file whose structure is broken. Recoverable (an ``RecordingEvent/issue(_:)`` naming
/// line and column; the line's already-parsed samples counted as `rejected`): a malformed line —
/// invalid JSON (RFC 8259), wrong types, `NaN`/`Infinity`, numbers beyond the double range,
/// invalid UTF-8, unknown enum values, non-positive rates, missing required fields. Unknown fields
/// and line types are skipped and counted (``unknownFieldCount``, ``unknownLineTypeCount``), with
/// one warning issue for the first occurrence of each name. Blank lines are ignored.
///
/// MyDataHelps specifics: the sensor of each `samples` element is recognised from its fields
/// (`acceleration`, `rotationRate`, `data`/`frequency`, `opticalSamples`, …) unless a top-level
/// `"sensor"` names it; the device identifier is the `device` object's `deviceId` or
/// `identifier`, else the name of the file's parent folder (MyDataHelps puts each device's files in
/// a folder named by its device ID). `sample` may be one object or an array of them.
public final class SensorKitDecoder: RecordingDecoder {
    /// The file being decoded, as given to ``init(path:blockCapacity:duplicateWindow:format:)``.
    public let path: String
    /// `.sensorKitNDJSON` or `.myDataHelpsJSON`.
    public let format: RecordingFormat
    /// Streams announced so far.
    public var streams: [StreamInfo] { state.streams }
    /// QC accounts (final once ``next()`` has returned `nil`).
    public var accounts: [StreamQC] { state.assemblers.map(\.qc) }
    /// Fields not in the schema, skipped.
    public var unknownFieldCount: Int { parser.unknownFields }
    /// Lines whose `type` is not in the schema, skipped.
    public var unknownLineTypeCount: Int { state.unknownLineTypes }
    /// Blank lines, ignored.
    public var blankLineCount: Int { state.blankLines }
    /// Records (lines or MyDataHelps elements) rejected as malformed.
    public var rejectedRecordCount: Int { state.rejectedRecords }
    /// Samples of rejected records that could not be attributed to a stream (the error came
    /// before the record said which stream).
    public var rejectedSamplesWithoutStream: Int { state.rejectedWithoutStream }
    /// Deletion records read so far.
    public var deletions: [DeletionRecord] { state.deletions }
    /// The header's `sensor`, `deviceId` and `exporter` (NDJSON).
    public private(set) var headerSensor: String?
    public private(set) var headerDeviceID: String?
    public private(set) var exporter: String?

    private var state: SensorKitDecodeState
    private var parser = SensorKitRecordParser()
    private var pending = EventQueue()
    private var finished = false
    private var headerDone = false
    private let lines: LineReader?
    private let splitter: MyDataHelpsSplitter?
    // MyDataHelps state.
    private var mdhDevice: Int?
    private var mdhKind: SensorKitLineType?
    private var mdhSensorName: String?
    private let fallbackDeviceID: String

    /// Opens a SensorKit export.
    /// - Parameters:
    ///   - path: `.ndjson`, `.ndjson.gz`, `.json` or `.json.gz` file.
    ///   - blockCapacity: maximum samples per block (default 65,536).
    ///   - duplicateWindow: how many recent keys of each kind are remembered for duplicate
    ///     detection (default 131,072: always the last 65,536 keys, ≥ 22 min of 50 Hz
    ///     accelerometer; 8 MiB per sensor kind at most).
    ///   - format: `.sensorKitNDJSON` or `.myDataHelpsJSON`; recognised from the content when `nil`.
    /// - Throws: ``RecordingError`` `.unreadable`, `.empty`, or `.unknownFormat` for another format.
    /// - Complexity: O(1) (reads at most 4 KiB to recognise the format).
    public init(
        path: String, blockCapacity: Int = 65_536, duplicateWindow: Int = 131_072,
        format: RecordingFormat? = nil
    ) throws(RecordingError) {
        precondition(blockCapacity > 0 && duplicateWindow > 0)
        self.path = path
        let fmt: RecordingFormat
        if let format {
            guard format == .sensorKitNDJSON || format == .myDataHelpsJSON else {
                throw RecordingError(
                    .unknownFormat, file: path, "SensorKitDecoder reads sensorkit-ndjson or mydatahelps-json, not \(format)")
            }
            fmt = format
        } else {
            fmt = try Self.recognise(path: path)
        }
        self.format = fmt
        state = SensorKitDecodeState(path: path, blockCapacity: blockCapacity, duplicateWindow: duplicateWindow)
        let source = try ByteSource(path: path)
        if fmt == .sensorKitNDJSON {
            lines = LineReader(source: source)
            splitter = nil
        } else {
            lines = nil
            splitter = MyDataHelpsSplitter(source: source)
        }
        let parent = path.split(separator: "/").dropLast().last.map(String.init) ?? "device"
        fallbackDeviceID = parent
    }

    /// NDJSON when the first line is an object with a `type`; MyDataHelps when the content is
    /// one object with `samples`/`device`; otherwise NDJSON (whose line-1 check then explains).
    static func recognise(path: String) throws(RecordingError) -> RecordingFormat {
        let head = try ByteSource.peek(path: path, count: 4096)
        var k = 0
        if head.starts(with: [0xEF, 0xBB, 0xBF]) { k = 3 }
        while k < head.count, head[k] == 0x20 || head[k] == 0x0A || head[k] == 0x0D || head[k] == 0x09 { k += 1 }
        guard k < head.count else { throw RecordingError(.empty, file: path, "the file is empty") }
        let firstLine = head[k...].prefix { $0 != 0x0A }
        let text = String(decoding: firstLine, as: UTF8.self)
        if head[k] == UInt8(ascii: "{") && !text.contains("\"type\"")
            && (text.contains("\"samples\"") || text.contains("\"device\"") || text == "{" || text == "{\r")
        {
            return .myDataHelpsJSON
        }
        return .sensorKitNDJSON
    }

    /// The next event (device, stream, block, deletion or issue), or `nil` at the end.
    /// - Returns: the event; devices and streams are announced before their first block.
    /// - Throws: ``RecordingError`` for fatal problems (header, truncated gzip, broken MyDataHelps
    ///   structure); malformed lines are delivered as `.issue` events instead.
    /// - Complexity: amortised O(bytes decoded); memory bounded by the block capacity, the longest
    ///   line (or MyDataHelps element) and the duplicate window.
    public func next() throws(RecordingError) -> RecordingEvent? {
        while true {
            if let e = try pending.next() { return e }
            if finished { return nil }
            try decodeMore()
        }
    }

    /// Decodes records until at least one event is ready (or the end).
    private func decodeMore() throws(RecordingError) {
        var st = SensorKitDecodeState(path: "", blockCapacity: 1, duplicateWindow: 1)
        swap(&st, &state)
        var p = SensorKitRecordParser()
        swap(&p, &parser)
        pending.withEvents { swap(&st.events, &$0) }
        defer {
            pending.withEvents { swap(&st.events, &$0) }
            swap(&p, &parser)
            swap(&st, &state)
        }
        if let lines {
            try decodeLines(lines, &st, &p)
        } else if let splitter {
            try decodeMyDataHelps(splitter, &st, &p)
        }
    }

    // MARK: - NDJSON

    private func decodeLines(
        _ reader: LineReader, _ st: inout SensorKitDecodeState,
        _ p: inout SensorKitRecordParser
    ) throws(RecordingError) {
        while st.events.isEmpty {
            guard let range = try reader.nextLine() else {
                if !headerDone { throw RecordingError(.empty, file: path, "the file is empty") }
                st.finish()
                finished = true
                return
            }
            let number = reader.lineNumber
            let failure: RecordingError? = reader.buffer.withUnsafeBufferPointer { b -> RecordingError? in
                var start = range.lowerBound
                if number == 1 && range.count >= 3 && b[start] == 0xEF && b[start + 1] == 0xBB && b[start + 2] == 0xBF {
                    start += 3 // UTF-8 byte order mark
                }
                var s = JSONScanner(base: b.baseAddress! + start, count: range.upperBound - start)
                do throws(RecordingError) {
                    try processLine(&s, number, &st, &p)
                    return nil
                } catch {
                    return error
                }
            }
            if let failure { throw failure }
        }
    }

    private func processLine(
        _ s: inout JSONScanner, _ number: Int, _ st: inout SensorKitDecodeState,
        _ p: inout SensorKitRecordParser
    ) throws(RecordingError) {
        let place = RecordPlace(line: number, column: 1)
        if !headerDone {
            try parseHeader(&s, &st, &p)
            headerDone = true
            reportUnknown(&st, &p, place)
            return
        }
        s.skipWhitespace()
        if s.atEnd { st.blankLines += 1; return }
        s.i = 0
        p.reset()
        let type: SensorKitLineType?
        do {
            type = try SensorKitRecordParser.lineType(&s)
        } catch {
            st.rejectedRecords += 1
            st.events.append(.issue(st.error(error, s, place)))
            return
        }
        guard let type else {
            st.rejectedRecords += 1
            st.events.append(
                .issue(
                    RecordingError(
                        .missingField, file: path, line: number, column: 1,
                        "missing required field 'type'; line skipped")))
            return
        }
        switch type {
        case .header:
            st.events.append(
                .issue(
                    RecordingError(
                        .inconsistent, file: path, line: number, column: 1,
                        "a second header line is ignored")))
        case .device:
            do {
                let info = try parseDevice(&s, &p, idRequired: true)
                st.announce(info)
            } catch {
                st.rejectedRecords += 1
                st.events.append(.issue(st.error(error, s, place)))
            }
        case .stream:
            do {
                let line = try SensorKitStreamLine.parse(&s, &p)
                let key = SensorKitDecodeState.DeclaredKey(
                    device: st.device(named: line.deviceID), sensor: line.sensor,
                    reference: line.reference)
                st.declared[key] = line
                reportUnknown(&st, &p, place)
            } catch {
                st.rejectedRecords += 1
                st.events.append(.issue(st.error(error, s, place)))
            }
        case .unknown(let name):
            st.unknownLineTypes += 1
            do {
                try s.skipValue()
                try s.expectEnd()
            } catch {
                st.rejectedRecords += 1
                st.events.append(.issue(st.error(error, s, place)))
                return
            }
            if st.seenUnknownTypes.count < 256 && st.seenUnknownTypes.insert(name).inserted {
                st.events.append(
                    .issue(
                        RecordingError(
                            .unknownLineType, file: path, line: number, column: 1,
                            "unknown line type \"\(name)\" skipped (further lines of this type are only counted)")))
            }
        default:
            do {
                try p.parseDataLine(&s, type: type)
            } catch {
                let d = p.deviceID.map { st.device(s, $0) } ?? headerDeviceID.map { st.device(named: $0) }
                st.reject(&p, device: d)
                reportUnknown(&st, &p, place)
                st.events.append(.issue(st.error(error, s, place)))
                return
            }
            reportUnknown(&st, &p, place)
            let d = st.device(s, p.deviceID!)
            do {
                try st.commit(&p, device: d, place: place)
            } catch {
                st.rejectedRecords += 1
                st.events.append(.issue(error))
            }
        }
    }

    private func reportUnknown(_ st: inout SensorKitDecodeState, _ p: inout SensorKitRecordParser, _ place: RecordPlace) {
        for name in p.newUnknownNames {
            st.events.append(
                .issue(
                    RecordingError(
                        .unknownField, file: path, line: place.line,
                        "unknown field '\(name)' skipped (further occurrences are only counted)")))
        }
        p.newUnknownNames.removeAll(keepingCapacity: true)
    }

    private func headerError(_ message: String, column: Int = 1) -> RecordingError {
        RecordingError(.unsupportedVersion, file: path, line: 1, column: column, message)
    }

    /// Line 1: `{"type":"header","schema":"sensorkit-ndjson","version":1,…}`.
    private func parseHeader(
        _ s: inout JSONScanner, _ st: inout SensorKitDecodeState,
        _ p: inout SensorKitRecordParser
    ) throws(RecordingError) {
        let place = RecordPlace(line: 1, column: 1)
        s.skipWhitespace()
        if s.atEnd {
            throw headerError(
                "line 1 must be the header {\"type\":\"header\",\"schema\":\"sensorkit-ndjson\",\"version\":1,…}; found an empty line")
        }
        s.i = 0
        do {
            let type = try SensorKitRecordParser.lineType(&s)
            guard type == .header else {
                throw headerError(
                    "line 1 must be the header {\"type\":\"header\",\"schema\":\"sensorkit-ndjson\",\"version\":1,…}; "
                        + (type.map { "found a \"\($0.name)\" line" } ?? "found a line without 'type'"))
            }
            try s.beginObject("header")
            var first = true
            var schema: String?
            var version: Int64?
            var versionColumn = 1
            while try s.nextKey(&first) {
                if s.keyIs("schema") {
                    schema = try s.readString("schema")
                } else if s.keyIs("version") {
                    s.skipWhitespace()
                    versionColumn = s.i + 1
                    version = try s.readInt64("version")
                } else if s.keyIs("sensor") {
                    headerSensor = try s.readString("sensor")
                } else if s.keyIs("deviceId") {
                    headerDeviceID = try s.readString("deviceId")
                } else if s.keyIs("exporter") {
                    exporter = try s.readString("exporter")
                } else if s.keyIs("from") {
                    _ = try s.readDouble("from")
                } else if s.keyIs("to") {
                    _ = try s.readDouble("to")
                } else if s.keyIs("type") {
                    _ = try s.readStringRange("type")
                } else {
                    try p.skipUnknown(&s, in: "header")
                }
            }
            try s.expectEnd()
            guard let schema else { throw headerError("the header has no 'schema' (expected \"sensorkit-ndjson\")") }
            guard schema == "sensorkit-ndjson" else {
                throw headerError("unsupported schema \"\(schema)\" (this decoder reads \"sensorkit-ndjson\")")
            }
            guard let version else { throw headerError("the header has no 'version' (this decoder reads version 1)") }
            guard version == 1 else {
                throw headerError("unsupported schema version \(version) (this decoder reads version 1)", column: versionColumn)
            }
            st.headerDeviceID = headerDeviceID
            st.headerSensor = headerSensor
        } catch let e as ScanError {
            throw st.error(e, s, place)
        } catch let e as RecordingError {
            throw e
        } catch {
            fatalError("unreachable")
        }
    }

    /// A `device` line (NDJSON) or the `device` object (MyDataHelps).
    private func parseDevice(
        _ s: inout JSONScanner, _ p: inout SensorKitRecordParser,
        idRequired: Bool
    ) throws(ScanError) -> DeviceInfo {
        s.skipWhitespace()
        let at = s.i
        try s.beginObject("device")
        var info = DeviceInfo(id: "")
        var haveID = false
        var first = true
        func optionalString(_ s: inout JSONScanner, _ field: StaticString) throws(ScanError) -> String? {
            s.readNull() ? nil : try s.readString(field)
        }
        while try s.nextKey(&first) {
            if s.keyIs("deviceId") {
                info.id = try s.readString("deviceId"); haveID = true
            } else if !idRequired && s.keyIs("identifier") {
                info.id = try s.readString("identifier"); haveID = true
            } else if s.keyIs("name") {
                info.name = try optionalString(&s, "name")
            } else if s.keyIs("model") {
                info.model = try optionalString(&s, "model")
            } else if s.keyIs("systemName") {
                info.systemName = try optionalString(&s, "systemName")
            } else if s.keyIs("systemVersion") {
                info.systemVersion = try optionalString(&s, "systemVersion")
            } else if s.keyIs("productType") {
                info.productType = try optionalString(&s, "productType")
            } else if idRequired && s.keyIs("type") {
                _ = try s.readStringRange("type")
            } else {
                try p.skipUnknown(&s, in: "device")
            }
        }
        if idRequired { try s.expectEnd() }
        if !haveID {
            if idRequired { throw SensorKitRecordParser.missing("deviceId", in: "a device line", at: at) }
            info.id = fallbackDeviceID
        }
        return info
    }

    // MARK: - MyDataHelps

    private func decodeMyDataHelps(
        _ splitter: MyDataHelpsSplitter, _ st: inout SensorKitDecodeState,
        _ p: inout SensorKitRecordParser
    ) throws(RecordingError) {
        while st.events.isEmpty {
            guard let record = try splitter.next() else {
                st.finish()
                finished = true
                return
            }
            let failure: RecordingError? = splitter.buffer.withUnsafeBufferPointer { b -> RecordingError? in
                var s = JSONScanner(base: b.baseAddress! + record.range.lowerBound, count: record.range.count)
                do throws(RecordingError) {
                    try processMember(record, &s, &st, &p)
                    return nil
                } catch {
                    return error
                }
            }
            if let failure { throw failure }
        }
    }

    private func processMember(
        _ record: MyDataHelpsSplitter.Record, _ s: inout JSONScanner,
        _ st: inout SensorKitDecodeState, _ p: inout SensorKitRecordParser
    ) throws(RecordingError) {
        let place = record.place
        switch record.key {
        case "samples[]":
            p.reset()
            let d = mdhDevice ?? st.device(named: fallbackDeviceID)
            mdhDevice = d
            do {
                try parseEntry(&s, &p)
            } catch {
                st.reject(&p, device: d)
                reportUnknown(&st, &p, place)
                st.events.append(.issue(st.error(error, s, place)))
                return
            }
            reportUnknown(&st, &p, place)
            do {
                try st.commit(&p, device: d, place: place)
            } catch {
                st.rejectedRecords += 1
                st.events.append(.issue(error))
            }
        case "device":
            do {
                let info = try parseDevice(&s, &p, idRequired: false)
                try s.expectEnd()
                if let d = mdhDevice, st.deviceIDs[d] != info.id {
                    st.events.append(
                        .issue(
                            RecordingError(
                                .inconsistent, file: path, line: place.line, column: place.column,
                                "the device object follows the samples; they were attributed to device \"\(st.deviceIDs[d])\"")))
                }
                st.announce(info)
                if mdhDevice == nil { mdhDevice = st.device(named: info.id) }
            } catch {
                st.events.append(.issue(st.error(error, s, place)))
            }
        case "samples":
            throw RecordingError(
                .wrongType, file: path, line: place.line, column: place.column,
                "expected an array for 'samples', found \(s.found(at: 0))")
        case "sensor", "type":
            do {
                let name = try s.readString("sensor")
                try s.expectEnd()
                mdhSensorName = name
                switch name {
                case "accelerometer": mdhKind = .accelerometer
                case "rotationRate": mdhKind = .rotationRate
                case "electrocardiogram": mdhKind = .electrocardiogram
                case "photoplethysmogram": mdhKind = .photoplethysmogram
                default: break
                }
            } catch {
                st.events.append(.issue(st.error(error, s, place)))
            }
        default:
            p.unknownFields += 1
            if p.knownUnknownNames.insert(record.key).inserted {
                st.events.append(
                    .issue(
                        RecordingError(
                            .unknownField, file: path, line: place.line, column: place.column,
                            "unknown top-level field '\(record.key)' skipped")))
            }
            do {
                try s.skipValue()
                try s.expectEnd()
            } catch {
                st.events.append(.issue(st.error(error, s, place)))
            }
        }
    }

    /// One `samples` element: `{"timestamp": …, "sample": {…} or [{…}, …]}`.
    private func parseEntry(_ s: inout JSONScanner, _ p: inout SensorKitRecordParser) throws(ScanError) {
        try s.beginObject("samples element")
        var first = true
        var sawSample = false
        while try s.nextKey(&first) {
            if s.keyIs("sample") {
                sawSample = true
                s.skipWhitespace()
                let at = s.i
                var inferred = mdhKind
                if inferred == nil { inferred = try Self.inferKind(s) }
                guard let kind = inferred else {
                    throw ScanError(
                        .inconsistent, at: at,
                        "cannot tell which sensor this sample is from (no "
                            + "acceleration, rotationRate, data, opticalSamples or reason field)")
                }
                p.type = kind
                if kind == .deletionRecord {
                    p.deletionSensor = mdhSensorName
                    try p.parseDeletion(&s)
                } else if s.byte(s.i) == UInt8(ascii: "[") {
                    try s.beginArray("sample")
                    var firstSample = true
                    while try s.nextElement(&firstSample) { try p.parseSample(&s, type: kind) }
                } else {
                    try p.parseSample(&s, type: kind)
                }
            } else if s.keyIs("timestamp") {
                try s.skipValue()
            } else {
                try p.skipUnknown(&s, in: "samples element")
            }
        }
        try s.expectEnd()
        if !sawSample { throw SensorKitRecordParser.missing("sample", in: "a samples element", at: 0) }
    }

    /// Recognises a sample's sensor from its field names.
    static func inferKind(_ scanner: JSONScanner) throws(ScanError) -> SensorKitLineType? {
        var s = scanner
        s.skipWhitespace()
        if s.byte(s.i) == UInt8(ascii: "[") {
            s.i += 1
            s.skipWhitespace()
        }
        guard s.byte(s.i) == UInt8(ascii: "{") else { return nil }
        s.i += 1
        var first = true
        while try s.nextKey(&first) {
            if s.keyIs("acceleration") { return .accelerometer }
            if s.keyIs("rotationRate") { return .rotationRate }
            if s.keyIs("data") || s.keyIs("frequency") || s.keyIs("lead") || s.keyIs("session") { return .electrocardiogram }
            if s.keyIs("opticalSamples") || s.keyIs("accelerometerSamples") || s.keyIs("usage") { return .photoplethysmogram }
            if s.keyIs("reason") || s.keyIs("startTimeUnix") { return .deletionRecord }
            try s.skipValue()
        }
        return nil
    }
}

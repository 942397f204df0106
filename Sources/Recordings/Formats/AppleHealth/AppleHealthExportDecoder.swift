/// Decodes Apple Health's "Export All Health Data" `export.xml` (plain, gzip, or inside the
/// export's `export.zip`) in one streaming pass and constant memory (``HealthXMLTokenizer``: no
/// document tree; exports reach several GB).
///
/// **Streams** (one per record type and `sourceName`, so a watch's and a phone's samples of the
/// same type never mix; `deviceID` = `sourceName`; the device's `hardware:` model, when the
/// record's `device` names one, is the stream's `device_model`):
/// - quantity types of ``AppleHealthExportTypes/quantities`` (heart rate, resting and walking
///   heart rate, HRV SDNN, respiratory rate, oxygen saturation, step count, sleeping wrist
///   temperature): sensor ``SensorKind/healthRecord``, channel = identifier without its prefix,
///   columns `value` (converted unit) and `duration_s` (`endDate − startDate`), one sample per
///   record at its `startDate`;
/// - `HKCategoryTypeIdentifierSleepAnalysis`: channel `SleepAnalysis`, `value` = the category's
///   HealthKit raw value (``AppleHealthExportTypes/sleepCategories``), `duration_s`;
/// - `Workout`: channel `Workout`, `value` = its `duration` in s, `duration_s`; the activity
///   type is counted per type (``workoutCounts``);
/// - the beat lists of HRV records (`HeartRateVariabilityMetadataList` →
///   `InstantaneousBeatsPerMinute bpm="…" time="…"`): sensor ``SensorKind/heartbeat``, channel
///   `beats`, column `bpm`, one sample per beat at its time. The `time` is the time of day in the
///   export's locale (`23:47:49,20`, `11:47:49.20 PM`); it is placed on the local date of the
///   record's `startDate` with that date's UTC offset, and on the next (previous) day when that
///   puts it more than 12 h before (after) the record's start (a list across midnight).
///
/// Samples keep their own times (irregular streams with explicit times; a new segment where
/// time goes back or a gap exceeds two recent intervals, ``StreamAssembler``). Every other record
/// type is counted (``recordCounts``) and listed in one issue at the end, "not analysed".
///
/// **Accounting.** Each record of a streamed type (and each beat) is one sample read; one whose
/// date, value or unit cannot be read is rejected with an issue naming its byte offset.
/// Streams and record types are capped (4096 each) so a crafted file cannot grow the tables.
///
/// Dates are `yyyy-MM-dd HH:mm:ss ±hhmm` (``AppleHealthECGValues/parseDateAndOffset(_:)``).
public final class AppleHealthExportDecoder: RecordingDecoder {
    public let path: String
    /// Always ``RecordingFormat/appleHealthExport``.
    public var format: RecordingFormat { .appleHealthExport }
    public private(set) var streams: [StreamInfo] = []
    public var accounts: [StreamQC] { assemblers.map(\.qc) }
    /// Records per `type` attribute (every `Record`, streamed or not), and `Workout` elements
    /// under the key `Workout`.
    public private(set) var recordCounts: [String: Int] = [:]
    /// Workouts per `workoutActivityType`.
    public private(set) var workoutCounts: [String: Int] = [:]
    /// Beats (`InstantaneousBeatsPerMinute`) seen.
    public private(set) var beatCount = 0
    /// Samples of records rejected before their stream was known.
    public private(set) var rejectedSamplesWithoutStream = 0

    /// Most streams (type × source) and distinct record types accepted.
    static let maximumKeys = 4096

    private let tokenizer: HealthXMLTokenizer
    private var assemblers: [StreamAssembler] = []
    private var streamIndex: [StreamKey: Int] = [:]
    private var announcedDevices: Set<String> = []
    private var pending = EventQueue()
    private let blockCapacity: Int
    private var finished = false
    private var sawRoot = false
    // The record being read (its children: metadata, beat list).
    private var inRecord = false
    private var recordStart = 0.0
    private var recordOffset = 0
    private var recordDayStart = 0.0
    private var recordSource = ""
    private var recordModel: String?
    private var isHRVRecord = false

    /// Opens `path`: an `export.xml` (plain or compressed) or an export `.zip` holding one.
    /// - Parameters:
    ///   - path: the file.
    ///   - blockCapacity: samples per block.
    /// - Throws: ``RecordingError`` when the file cannot be opened, or a zip holds no
    ///   `export.xml`.
    public init(path: String, blockCapacity: Int = 65_536) throws(RecordingError) {
        self.path = path
        self.blockCapacity = blockCapacity
        let head = try ByteSource.peek(path: path, count: 4)
        if head.starts(with: [0x50, 0x4B, 0x03, 0x04]) {
            let archive = try ZipArchive(path: path)
            guard
                let entry = archive.entries.first(where: {
                    $0.name == "export.xml" || $0.name.hasSuffix("/export.xml")
                })
            else {
                throw RecordingError(
                    .missingField, file: path,
                    "the zip archive holds no export.xml (an Apple Health export has apple_health_export/export.xml)")
            }
            let reader = try ZipEntryReader(archive: archive, entry: entry)
            tokenizer = HealthXMLTokenizer(path: path) { buffer throws(RecordingError) in try reader.read(into: buffer) }
        } else {
            let source = try ByteSource(path: path)
            tokenizer = HealthXMLTokenizer(path: path) { buffer throws(RecordingError) in try source.read(into: buffer) }
        }
    }

    /// Decodes from memory (tests and the fuzz target).
    /// - Parameters:
    ///   - bytes: the document.
    ///   - name: the name errors give.
    ///   - blockCapacity: samples per block.
    ///   - chunkSize: bytes handed to the tokenizer per read (small values test reads that split
    ///     tokens).
    public init(bytes: [UInt8], name: String = "export.xml", blockCapacity: Int = 65_536, chunkSize: Int = 1 << 16) {
        precondition(chunkSize > 0)
        path = name
        self.blockCapacity = blockCapacity
        var position = 0
        tokenizer = HealthXMLTokenizer(path: name, chunkSize: chunkSize) { buffer in
            let n = min(buffer.count, bytes.count - position)
            if n > 0 {
                bytes.withUnsafeBytes { buffer.baseAddress!.copyMemory(from: $0.baseAddress! + position, byteCount: n) }
            }
            position += n
            return n
        }
    }

    public func next() throws(RecordingError) -> RecordingEvent? {
        while pending.isEmpty && !finished {
            do {
                try step()
            } catch {
                finished = true
                pending.withEvents { events in
                    for k in assemblers.indices { assemblers[k].finish(into: &events) }
                }
                pending.deferError(error)
            }
        }
        return try pending.next()
    }

    /// Reads tokens until at least one event is queued or the document ends.
    private func step() throws(RecordingError) {
        var budget = 4096
        while budget > 0 {
            budget -= 1
            guard let token = try tokenizer.next() else {
                guard sawRoot else {
                    throw RecordingError(.missingField, file: path, byteOffset: tokenizer.offset, "no <HealthData> element")
                }
                finish()
                return
            }
            switch token {
            case .start(let selfClosing):
                if !sawRoot {
                    guard tokenizer.nameIs("HealthData") else {
                        throw RecordingError(
                            .unknownFormat, file: path, byteOffset: tokenizer.tagOffset,
                            "root element <\(tokenizer.name)> is not <HealthData> (not an Apple Health export.xml)")
                    }
                    sawRoot = true
                } else if tokenizer.nameIs("Record") {
                    try record(selfClosing: selfClosing)
                } else if tokenizer.nameIs("InstantaneousBeatsPerMinute") {
                    if inRecord && isHRVRecord { try beat() }
                } else if tokenizer.nameIs("Workout") {
                    try workout()
                }
            case .end:
                if tokenizer.nameIs("Record") { inRecord = false }
            }
            if !pending.isEmpty { return }
        }
    }

    private func finish() {
        finished = true
        pending.withEvents { events in
            for k in assemblers.indices { assemblers[k].finish(into: &events) }
        }
        let others = recordCounts.filter {
            AppleHealthExportTypes.quantities[$0.key] == nil && $0.key != AppleHealthExportTypes.sleepAnalysis && $0.key != "Workout"
        }
        if !others.isEmpty {
            let list = others.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
                .map { "\($0.key) \($0.value)" }.joined(separator: ", ")
            pending.append(
                .issue(RecordingError(.unsupportedVersion, file: path, "records not analysed (counted only): \(list)")))
        }
    }

    private func count(_ key: String, in table: inout [String: Int]) throws(RecordingError) {
        if table[key] == nil && table.count >= Self.maximumKeys {
            throw RecordingError(
                .outOfRange, file: path, byteOffset: tokenizer.tagOffset, "more than \(Self.maximumKeys) distinct record types")
        }
        table[key, default: 0] += 1
    }

    private func string(_ name: StaticString) throws(RecordingError) -> String? {
        guard let i = tokenizer.attribute(name) else { return nil }
        return try tokenizer.value(i)
    }

    /// The `hardware:` field of a `device` description (`<<HKDevice: 0x…>, name:…, hardware:Watch5,3, software:…>`).
    static func hardware(ofDevice text: String) -> String? {
        let b = Array(text.utf8)
        let key = Array("hardware:".utf8)
        guard b.count >= key.count, let at = (0...(b.count - key.count)).first(where: { b[$0..<($0 + key.count)].elementsEqual(key) })
        else {
            return nil
        }
        var end = at + key.count
        // The next field starts with ", "; models themselves hold commas without a space ("Watch5,3").
        while end < b.count && b[end] != 0x3E && !(b[end] == 0x2C && end + 1 < b.count && b[end + 1] == 0x20) { end += 1 }
        let value = String(decoding: b[(at + key.count)..<end], as: UTF8.self)
        return value.isEmpty ? nil : value
    }

    private func rejectRecord(_ stream: Int?, _ message: String, at offset: Int) {
        if let stream {
            assemblers[stream].qc.samplesRead += 1
            assemblers[stream].qc.rejected += 1
        } else {
            rejectedSamplesWithoutStream += 1
        }
        pending.append(.issue(RecordingError(.syntax, file: path, byteOffset: offset, message)))
    }

    private func date(_ name: StaticString) throws(RecordingError) -> (unix: Double, utcOffsetSeconds: Int)? {
        guard let text = try string(name) else { return nil }
        return AppleHealthECGValues.parseDateAndOffset(text)
    }

    private func record(selfClosing: Bool) throws(RecordingError) {
        let offset = tokenizer.tagOffset
        guard let type = try string("type") else {
            rejectRecord(nil, "Record without a type", at: offset)
            return
        }
        try count(type, in: &recordCounts)
        isHRVRecord = false
        let quantity = AppleHealthExportTypes.quantities[type]
        let isSleep = type == AppleHealthExportTypes.sleepAnalysis
        guard quantity != nil || isSleep else { return }
        let source = try string("sourceName") ?? "unknown source"
        let model = try string("device").flatMap(Self.hardware(ofDevice:))
        let channel = quantity?.channel ?? "SleepAnalysis"
        let stream = try streamFor(
            source: source, model: model, sensor: .healthRecord, channel: channel,
            columns: [ColumnInfo(name: "value", unit: quantity?.unit ?? .dimensionless), ColumnInfo(name: "duration_s", unit: .seconds)],
            attributes: ["health.type": type]
                + (isSleep
                    ? [
                        "value.categories":
                            "HealthKit raw values: 0 inBed, 1 asleepUnspecified, 2 awake, 3 asleepCore, 4 asleepDeep, 5 asleepREM"
                    ] : [:]),
            offset: offset)
        guard let start = try date("startDate"), let end = try date("endDate") else {
            rejectRecord(stream, "\(type): missing or malformed startDate/endDate (expected yyyy-MM-dd HH:mm:ss ±hhmm)", at: offset)
            return
        }
        let valueText = try string("value") ?? ""
        let value: Double?
        if let quantity {
            let unit = try string("unit") ?? ""
            let number = Array(valueText.utf8).withUnsafeBufferPointer { DecimalNumber.parse($0, separators: .point) }
            guard let number, let converted = quantity.convert(number, unit) else {
                rejectRecord(
                    stream, "\(type): value '\(valueText)' in unit '\(unit)' not readable (accepted unit differs, or not a number)",
                    at: offset)
                return
            }
            value = converted
        } else {
            value = AppleHealthExportTypes.sleepCategories[valueText].map(Double.init)
        }
        guard let value, Float(value).isFinite else {
            rejectRecord(stream, "\(type): value '\(valueText)' not readable", at: offset)
            return
        }
        append(stream, time: start.unix, values: [Float(value), Float(end.unix - start.unix)])
        if type == "HKQuantityTypeIdentifierHeartRateVariabilitySDNN" && !selfClosing {
            inRecord = true
            isHRVRecord = true
            recordStart = start.unix
            recordOffset = start.utcOffsetSeconds
            let local = start.unix + Double(start.utcOffsetSeconds)
            recordDayStart = (local / 86_400).rounded(.down) * 86_400 - Double(start.utcOffsetSeconds)
            recordSource = source
            recordModel = model
        } else if !selfClosing {
            inRecord = true
        }
    }

    private func beat() throws(RecordingError) {
        let offset = tokenizer.tagOffset
        beatCount += 1
        let stream = try streamFor(
            source: recordSource, model: recordModel, sensor: .heartbeat, channel: "beats",
            columns: [ColumnInfo(name: "bpm", unit: .perMinute)],
            attributes: ["health.type": "InstantaneousBeatsPerMinute"], offset: offset)
        let bpmText = try string("bpm") ?? ""
        let timeText = try string("time") ?? ""
        let bpm = Array(bpmText.utf8).withUnsafeBufferPointer { DecimalNumber.parse($0, separators: .either) }
        guard let bpm, bpm > 0, bpm < 1000, let tod = AppleHealthExportTypes.timeOfDay(timeText) else {
            rejectRecord(stream, "InstantaneousBeatsPerMinute: bpm '\(bpmText)' or time '\(timeText)' not readable", at: offset)
            return
        }
        var t = recordDayStart + tod
        if t < recordStart - 43_200 { t += 86_400 } else if t > recordStart + 43_200 { t -= 86_400 }
        append(stream, time: t, values: [Float(bpm)])
    }

    private func workout() throws(RecordingError) {
        let offset = tokenizer.tagOffset
        try count("Workout", in: &recordCounts)
        let activity = try string("workoutActivityType") ?? "unknown"
        try count(activity, in: &workoutCounts)
        let source = try string("sourceName") ?? "unknown source"
        let model = try string("device").flatMap(Self.hardware(ofDevice:))
        let stream = try streamFor(
            source: source, model: model, sensor: .healthRecord, channel: "Workout",
            columns: [ColumnInfo(name: "value", unit: .seconds), ColumnInfo(name: "duration_s", unit: .seconds)],
            attributes: ["health.type": "Workout", "value.meaning": "the workout's duration attribute"], offset: offset)
        guard let start = try date("startDate"), let end = try date("endDate") else {
            rejectRecord(stream, "Workout: missing or malformed startDate/endDate", at: offset)
            return
        }
        let durationText = try string("duration") ?? ""
        let unit = try string("durationUnit") ?? "min"
        let number = Array(durationText.utf8).withUnsafeBufferPointer { DecimalNumber.parse($0, separators: .point) }
        guard let number, let per = AppleHealthExportTypes.secondsPer(durationUnit: unit), (number * per).isFinite else {
            rejectRecord(stream, "Workout: duration '\(durationText)' \(unit) not readable", at: offset)
            return
        }
        append(stream, time: start.unix, values: [Float(number * per), Float(end.unix - start.unix)])
    }

    private func append(_ stream: Int, time: Double, values: [Float]) {
        assemblers[stream].qc.samplesRead += 1
        pending.withEvents { events in
            values.withUnsafeBufferPointer { v in
                assemblers[stream].append(time: time, values: v, flags: [], into: &events)
            }
        }
    }

    private func streamFor(
        source: String, model: String?, sensor: SensorKind, channel: String, columns: [ColumnInfo],
        attributes: [String: String], offset: Int
    ) throws(RecordingError) -> Int {
        let key = StreamKey(deviceID: source, sensor: sensor, channel: channel)
        if let k = streamIndex[key] { return k }
        guard streams.count < Self.maximumKeys else {
            throw RecordingError(
                .outOfRange, file: path, byteOffset: offset, "more than \(Self.maximumKeys) streams (record type × source)")
        }
        if announcedDevices.insert(source).inserted {
            pending.append(.device(DeviceInfo(id: source, name: source, model: model)))
        }
        var attrs = attributes
        if let model { attrs[StreamAttribute.deviceModel] = model }
        let info = StreamInfo(key: key, columns: columns, nominalSampleRate: nil, attributes: attrs, timeOrigin: .unix)
        let k = streams.count
        streams.append(info)
        streamIndex[key] = k
        assemblers.append(StreamAssembler(stream: k, columnCount: columns.count, uniform: false, blockCapacity: blockCapacity))
        pending.append(.stream(index: k, info: info))
        return k
    }
}

extension Dictionary where Key == String, Value == String {
    fileprivate static func + (a: Self, b: Self) -> Self { a.merging(b) { x, _ in x } }
}

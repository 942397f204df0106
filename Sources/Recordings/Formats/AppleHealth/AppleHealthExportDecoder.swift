#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

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
/// type is counted (``recordCounts``) and listed in one issue at the end, code `not-analysed`.
///
/// **ECGs in the ZIP.** Opened on the export's `export.zip`, the decoder then reads the archive's
/// `…/electrocardiograms/*.csv` (in name order) with ``AppleHealthECGDecoder``, each as its file
/// in the unpacked folder is read: the same ECG stream (key `apple-watch/electrocardiogram/ecg`
/// with the recording's date as session), attributes and samples, after the records' streams.
/// A CSV that cannot be read is an issue naming `export.zip/<entry>`; the others are still read.
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
    public var accounts: [StreamQC] { assemblers.map(\.qc) + ecgAccounts + (ecg?.accounts ?? []) }
    /// Records per `type` attribute (every `Record`, streamed or not), and `Workout` elements
    /// under the key `Workout`.
    public var recordCounts: [String: Int] {
        Dictionary(uniqueKeysWithValues: types.map { ($0.name, $0.count) })
    }
    /// Workouts per `workoutActivityType`.
    public private(set) var workoutCounts: [String: Int] = [:]
    /// Beats (`InstantaneousBeatsPerMinute`) seen.
    public private(set) var beatCount = 0
    /// Samples of records rejected before their stream was known.
    public private(set) var rejectedSamplesWithoutStream = 0
    /// Bytes the XML tokenizer's buffer holds now: the input's size (at least 4 KiB) or one read
    /// (1 MiB), growing only for a tag that does not fit, never beyond 1 MiB + one read.
    public var bufferBytes: Int { tokenizer.capacity }

    /// Most streams (type × source) and distinct record types accepted.
    static let maximumKeys = 4096
    /// Largest ECG CSV read from an export's ZIP archive (a 30-s Watch ECG is about 200 KB).
    static let maximumECGBytes = 64 << 20

    private let tokenizer: HealthXMLTokenizer
    /// Distinct record types (and `Workout`) in order of appearance, with their counts.
    private var types: [RecordType] = []
    private var typeIndex: [String: Int] = [:]
    /// Recent raw `type`, `sourceName` and `device` values (entity references undecoded) and
    /// what they decoded to, so a repeated value is neither decoded nor hashed again.
    private var typeCache = RawValueCache<Int>()
    private var sourceCache = RawValueCache<Int>()
    private var deviceCache = RawValueCache<String?>()
    private var unitCache = RawValueCache<String>()
    /// Distinct `sourceName` values, by id.
    private var sources: [String] = []
    private var sourceIndex: [String: Int] = [:]
    /// Streams by (source id, record type id; -1 for the beat lists).
    private var streamBySlot: [Slot: Int] = [:]
    /// An export ZIP's ECG CSVs (`…/electrocardiograms/*.csv`), read after `export.xml`.
    private var archive: ZipArchive?
    private var ecgEntries: [ZipArchive.Entry] = []
    private var ecgNext = 0
    private var ecg: AppleHealthECGDecoder?
    /// Index of the current ECG decoder's stream 0 among this decoder's streams.
    private var ecgBase = 0
    private var ecgAccounts: [StreamQC] = []
    private var failed = false
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
    private var recordSourceID = 0
    /// The beat stream of the current HRV record, once its first beat is read.
    private var recordBeatStream: Int?
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
            self.archive = archive
            ecgEntries = archive.entries.filter(Self.isECG).sorted { $0.name < $1.name }
            let reader = try ZipEntryReader(archive: archive, entry: entry)
            tokenizer = HealthXMLTokenizer(path: path, sizeHint: entry.uncompressedSize) { buffer throws(RecordingError) in
                try reader.read(into: buffer)
            }
        } else {
            let source = try ByteSource(path: path)
            tokenizer = HealthXMLTokenizer(path: path, sizeHint: source.isCompressed ? nil : source.fileSize) {
                buffer throws(RecordingError) in try source.read(into: buffer)
            }
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
        tokenizer = HealthXMLTokenizer(path: name, chunkSize: chunkSize, sizeHint: bytes.count) { buffer in
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
                failed = true
                pending.withEvents { events in
                    for k in assemblers.indices { assemblers[k].finish(into: &events) }
                }
                pending.deferError(error)
            }
        }
        if !pending.isEmpty || failed { return try pending.next() }
        return nextECGEvent()
    }

    /// Whether a ZIP entry is one of the export's ECG CSVs (`electrocardiograms/*.csv`, the
    /// folder the Health app writes them to).
    static func isECG(_ entry: ZipArchive.Entry) -> Bool {
        let parts = entry.name.split(separator: "/")
        return parts.count >= 2 && parts[parts.count - 2] == "electrocardiograms" && parts.last!.lowercased().hasSuffix(".csv")
            && !parts.last!.hasPrefix(".")
    }

    /// The next event of the ZIP's ECG CSVs, each read by ``AppleHealthECGDecoder`` as its file
    /// in the unpacked folder would be (same streams, attributes and samples); stream indexes
    /// follow `export.xml`'s. A CSV that cannot be read is one issue naming it
    /// (`export.zip/apple_health_export/electrocardiograms/ecg_….csv`), and the next is read.
    private func nextECGEvent() -> RecordingEvent? {
        while true {
            if let d = ecg {
                do {
                    guard let event = try d.next() else {
                        ecgAccounts += d.accounts
                        ecg = nil
                        continue
                    }
                    switch event {
                    case .device(let device):
                        if announcedDevices.insert(device.id).inserted { return event }
                    case .stream(let index, let info):
                        streams.append(info)
                        return .stream(index: ecgBase + index, info: info)
                    case .block(var block):
                        block.stream += ecgBase
                        return .block(block)
                    case .deletion, .issue, .annotation:
                        return event
                    }
                } catch {
                    ecgAccounts += d.accounts
                    ecg = nil
                    return .issue(error)
                }
                continue
            }
            guard let archive, ecgNext < ecgEntries.count else { return nil }
            let entry = ecgEntries[ecgNext]
            ecgNext += 1
            let name = path + "/" + entry.name
            do {
                let bytes = try ZipEntryReader(archive: archive, entry: entry).readAll(limit: Self.maximumECGBytes)
                ecgBase = streams.count
                ecg = try AppleHealthECGDecoder(source: ByteSource(bytes: bytes, path: name), path: name, blockCapacity: blockCapacity)
            } catch {
                return .issue(error)
            }
        }
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
                .issue(RecordingError(.notAnalysed, file: path, "records not analysed (counted only): \(list)")))
        }
    }

    private func count(_ key: String, in table: inout [String: Int]) throws(RecordingError) {
        if table[key] == nil && table.count >= Self.maximumKeys {
            throw RecordingError(
                .outOfRange, file: path, byteOffset: tokenizer.tagOffset, "more than \(Self.maximumKeys) distinct record types")
        }
        table[key, default: 0] += 1
    }

    /// Counts one record of type `name` (or a `Workout`) and returns the type's id.
    private func countType(_ name: String) throws(RecordingError) -> Int {
        if let k = typeIndex[name] {
            types[k].count += 1
            return k
        }
        guard types.count < Self.maximumKeys else {
            throw RecordingError(
                .outOfRange, file: path, byteOffset: tokenizer.tagOffset, "more than \(Self.maximumKeys) distinct record types")
        }
        let k = types.count
        types.append(RecordType(name: name))
        typeIndex[name] = k
        return k
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

    /// A date attribute: parsed from the raw bytes when they are a date (then they hold no
    /// reference and are ASCII), else decoded first, exactly as a `String`.
    private func date(_ name: StaticString) throws(RecordingError) -> (unix: Double, utcOffsetSeconds: Int)? {
        try date(at: tokenizer.attribute(name))
    }

    private func date(at index: Int?) throws(RecordingError) -> (unix: Double, utcOffsetSeconds: Int)? {
        guard let i = index else { return nil }
        if let fast = AppleHealthECGValues.parseDateAndOffset(bytes: tokenizer.rawValue(i)) { return fast }
        return AppleHealthECGValues.parseDateAndOffset(try tokenizer.value(i))
    }

    /// A number attribute, `nil` when absent; parsed from the raw bytes when they are a number
    /// (then they hold no reference: `&` is no number's byte), else decoded first.
    /// - Returns: the number (or `nil`) and, when it was decoded, the text.
    private func number(_ i: Int?, _ separators: DecimalNumber.Separators) throws(RecordingError) -> (Double?, String?) {
        guard let i else { return (nil, "") }
        if let fast = DecimalNumber.parse(tokenizer.rawValue(i), separators: separators) { return (fast, nil) }
        let text = try tokenizer.value(i)
        return (Array(text.utf8).withUnsafeBufferPointer { DecimalNumber.parse($0, separators: separators) }, text)
    }

    /// The decoded text of attribute `i` for a message (`""` when absent).
    private func text(_ i: Int?, decoded: String?) -> String {
        if let decoded { return decoded }
        guard let i else { return "" }
        return (try? tokenizer.value(i)) ?? ""
    }

    /// The id of the current record's `type` (counted), through ``typeCache``.
    private func recordType(_ i: Int) throws(RecordingError) -> Int {
        if let k = typeCache.lookup(tokenizer.rawValue(i)) {
            types[k].count += 1
            return k
        }
        let k = try countType(try tokenizer.value(i))
        typeCache.insert(tokenizer.rawValue(i), k)
        return k
    }

    /// The id of the current tag's `sourceName` ("unknown source" when absent).
    private func sourceID() throws(RecordingError) -> Int { try sourceID(at: tokenizer.attribute("sourceName")) }

    private func sourceID(at index: Int?) throws(RecordingError) -> Int {
        guard let i = index else { return sourceID(of: "unknown source") }
        if let k = sourceCache.lookup(tokenizer.rawValue(i)) { return k }
        let k = sourceID(of: try tokenizer.value(i))
        sourceCache.insert(tokenizer.rawValue(i), k)
        return k
    }

    private func sourceID(of name: String) -> Int {
        if let k = sourceIndex[name] { return k }
        sources.append(name)
        sourceIndex[name] = sources.count - 1
        return sources.count - 1
    }

    /// The decoded `unit` attribute `i`, through ``unitCache``.
    private func unitText(_ i: Int) throws(RecordingError) -> String {
        if let unit = unitCache.lookup(tokenizer.rawValue(i)) { return unit }
        let unit = try tokenizer.value(i)
        unitCache.insert(tokenizer.rawValue(i), unit)
        return unit
    }

    /// The `hardware:` model of the current tag's `device`, if any.
    private func deviceModel() throws(RecordingError) -> String? { try deviceModel(at: tokenizer.attribute("device")) }

    private func deviceModel(at index: Int?) throws(RecordingError) -> String? {
        guard let i = index else { return nil }
        if let model = deviceCache.lookup(tokenizer.rawValue(i)) { return model }
        let model = Self.hardware(ofDevice: try tokenizer.value(i))
        deviceCache.insert(tokenizer.rawValue(i), model)
        return model
    }

    private func record(selfClosing: Bool) throws(RecordingError) {
        let offset = tokenizer.tagOffset
        let a = RecordAttributes(tokenizer)
        guard let typeAttribute = a.type else {
            rejectRecord(nil, "Record without a type", at: offset)
            return
        }
        let typeID = try recordType(typeAttribute)
        isHRVRecord = false
        let kind = types[typeID].kind
        guard kind == .quantity || kind == .hrv || kind == .sleep else { return }
        let quantity = types[typeID].quantity
        let sourceID = try sourceID(at: a.sourceName)
        let model = try deviceModel(at: a.device)
        let stream: Int
        if types[typeID].lastSource == sourceID {
            stream = types[typeID].lastStream
        } else {
            stream = try streamFor(slot: Slot(source: sourceID, type: typeID), model: model, offset: offset)
            types[typeID].lastSource = sourceID
            types[typeID].lastStream = stream
        }
        guard let start = try date(at: a.startDate), let end = try date(at: a.endDate) else {
            let type = types[typeID].name
            rejectRecord(stream, "\(type): missing or malformed startDate/endDate (expected yyyy-MM-dd HH:mm:ss ±hhmm)", at: offset)
            return
        }
        let valueAttribute = a.value
        let value: Double?
        if let quantity {
            let (number, decoded) = try number(valueAttribute, .point)
            let unit = try a.unit.map { i throws(RecordingError) in try unitText(i) } ?? ""
            guard let number, let converted = quantity.convert(number, unit) else {
                let type = types[typeID].name
                let valueText = text(valueAttribute, decoded: decoded)
                rejectRecord(
                    stream, "\(type): value '\(valueText)' in unit '\(unit)' not readable (accepted unit differs, or not a number)",
                    at: offset)
                return
            }
            value = converted
        } else {
            let valueText = try valueAttribute.map { i throws(RecordingError) in try tokenizer.value(i) } ?? ""
            value = AppleHealthExportTypes.sleepCategories[valueText].map(Double.init)
        }
        guard let value, Float(value).isFinite else {
            let valueText = text(valueAttribute, decoded: nil)
            rejectRecord(stream, "\(types[typeID].name): value '\(valueText)' not readable", at: offset)
            return
        }
        append(stream, time: start.unix, Float(value), Float(end.unix - start.unix))
        if kind == .hrv && !selfClosing {
            inRecord = true
            isHRVRecord = true
            recordStart = start.unix
            recordOffset = start.utcOffsetSeconds
            let local = start.unix + Double(start.utcOffsetSeconds)
            recordDayStart = (local / 86_400).rounded(.down) * 86_400 - Double(start.utcOffsetSeconds)
            recordSource = sources[sourceID]
            recordSourceID = sourceID
            recordModel = model
            recordBeatStream = nil
        } else if !selfClosing {
            inRecord = true
        }
    }

    private func beat() throws(RecordingError) {
        let offset = tokenizer.tagOffset
        beatCount += 1
        let stream: Int
        if let known = recordBeatStream {
            stream = known
        } else {
            stream = try streamFor(slot: Slot(source: recordSourceID, type: -1), model: recordModel, offset: offset)
            recordBeatStream = stream
        }
        let bpmAttribute = tokenizer.attribute("bpm")
        let (bpm, bpmDecoded) = try number(bpmAttribute, .either)
        let timeAttribute = tokenizer.attribute("time")
        var tod: Double?
        var timeDecoded: String?
        if let timeAttribute {
            if let fast = AppleHealthExportTypes.timeOfDay(bytes: tokenizer.rawValue(timeAttribute)) {
                tod = fast
            } else {
                let text = try tokenizer.value(timeAttribute)
                tod = AppleHealthExportTypes.timeOfDay(text)
                timeDecoded = text
            }
        } else {
            tod = AppleHealthExportTypes.timeOfDay("")
        }
        guard let bpm, bpm > 0, bpm < 1000, let tod else {
            let bpmText = text(bpmAttribute, decoded: bpmDecoded)
            let timeText = text(timeAttribute, decoded: timeDecoded)
            rejectRecord(stream, "InstantaneousBeatsPerMinute: bpm '\(bpmText)' or time '\(timeText)' not readable", at: offset)
            return
        }
        var t = recordDayStart + tod
        if t < recordStart - 43_200 { t += 86_400 } else if t > recordStart + 43_200 { t -= 86_400 }
        append(stream, time: t, Float(bpm))
    }

    private func workout() throws(RecordingError) {
        let offset = tokenizer.tagOffset
        let typeID = try countType("Workout")
        let activity = try string("workoutActivityType") ?? "unknown"
        try count(activity, in: &workoutCounts)
        let sourceID = try sourceID()
        let model = try deviceModel()
        let stream = try streamFor(slot: Slot(source: sourceID, type: typeID), model: model, offset: offset)
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
        append(stream, time: start.unix, Float(number * per), Float(end.unix - start.unix))
    }

    private func append(_ stream: Int, time: Double, _ a: Float, _ b: Float? = nil) {
        assemblers[stream].qc.samplesRead += 1
        var pair = (a, b ?? 0)
        let n = b == nil ? 1 : 2
        pending.withEvents { events in
            withUnsafeBytes(of: &pair) { raw in
                let v = UnsafeBufferPointer(start: raw.baseAddress!.assumingMemoryBound(to: Float.self), count: n)
                assemblers[stream].append(time: time, values: v, flags: [], into: &events)
            }
        }
    }

    /// The stream of `slot` (made on its first record, as ``streamFor(source:model:sensor:channel:columns:attributes:offset:)``).
    private func streamFor(slot: Slot, model: String?, offset: Int) throws(RecordingError) -> Int {
        if let k = streamBySlot[slot] { return k }
        let source = sources[slot.source]
        let k: Int
        if slot.type < 0 {
            k = try streamFor(
                source: source, model: model, sensor: .heartbeat, channel: "beats",
                columns: [ColumnInfo(name: "bpm", unit: .perMinute)],
                attributes: ["health.type": "InstantaneousBeatsPerMinute"], offset: offset)
        } else if types[slot.type].kind == .workout {
            k = try streamFor(
                source: source, model: model, sensor: .healthRecord, channel: "Workout",
                columns: [ColumnInfo(name: "value", unit: .seconds), ColumnInfo(name: "duration_s", unit: .seconds)],
                attributes: ["health.type": "Workout", "value.meaning": "the workout's duration attribute"], offset: offset)
        } else {
            let type = types[slot.type]
            let isSleep = type.kind == .sleep
            k = try streamFor(
                source: source, model: model, sensor: .healthRecord, channel: type.quantity?.channel ?? "SleepAnalysis",
                columns: [
                    ColumnInfo(name: "value", unit: type.quantity?.unit ?? .dimensionless), ColumnInfo(name: "duration_s", unit: .seconds),
                ],
                attributes: ["health.type": type.name]
                    + (isSleep
                        ? [
                            "value.categories":
                                "HealthKit raw values: 0 inBed, 1 asleepUnspecified, 2 awake, 3 asleepCore, 4 asleepDeep, 5 asleepREM"
                        ] : [:]),
                offset: offset)
        }
        streamBySlot[slot] = k
        return k
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

/// A stream's key inside the decoder: source id and record type id (-1: the beat lists).
private struct Slot: Hashable {
    let source: Int
    let type: Int
}

/// The attributes a `Record` is read from, found in one pass over the tag (the first of each
/// name, as ``HealthXMLTokenizer/attribute(_:)`` finds it).
private struct RecordAttributes {
    var type: Int?
    var sourceName: Int?
    var device: Int?
    var unit: Int?
    var value: Int?
    var startDate: Int?
    var endDate: Int?

    init(_ tokenizer: HealthXMLTokenizer) {
        for i in 0..<tokenizer.attributeCount {
            let n = tokenizer.attributeNameBytes(i)
            func named(_ text: StaticString) -> Bool { memcmp(n.baseAddress!, text.utf8Start, n.count) == 0 }
            switch n.count {
            case 4:
                if type == nil && named("type") {
                    type = i
                } else if unit == nil && named("unit") {
                    unit = i
                }
            case 5: if value == nil && named("value") { value = i }
            case 6: if device == nil && named("device") { device = i }
            case 7: if endDate == nil && named("endDate") { endDate = i }
            case 9: if startDate == nil && named("startDate") { startDate = i }
            case 10: if sourceName == nil && named("sourceName") { sourceName = i }
            default: break
            }
        }
    }
}

/// One record type (or `Workout`) of an export and what the decoder does with it.
private struct RecordType {
    enum Kind { case counted, quantity, sleep, hrv, workout }
    let name: String
    var count = 1
    /// The source of this type's last record and its stream (records of one type and source
    /// come in runs).
    var lastSource = -1
    var lastStream = -1
    let quantity: AppleHealthExportTypes.Quantity?
    let kind: Kind

    init(name: String) {
        self.name = name
        quantity = AppleHealthExportTypes.quantities[name]
        if name == "Workout" {
            kind = .workout
        } else if name == "HKQuantityTypeIdentifierHeartRateVariabilitySDNN" {
            kind = .hrv
        } else if quantity != nil {
            kind = .quantity
        } else if name == AppleHealthExportTypes.sleepAnalysis {
            kind = .sleep
        } else {
            kind = .counted
        }
    }
}

/// The last few raw attribute values (bytes as written, at most 256 each) and what they
/// decoded to: exports repeat a handful of types, sources and devices record after record.
/// - Complexity: lookup O(entries) `memcmp` of one value, no allocation.
private struct RawValueCache<Value> {
    static var entries: Int { 8 }
    static var longest: Int { 256 }
    /// `entries` slots of `longest` bytes; `keys` lives as long as the decoder (never freed
    /// while a cache exists: the decoder owns one of each kind).
    private let keys = KeyStorage(bytes: Self.entries * Self.longest)
    private var lengths: [Int] = []
    private var values: [Value] = []
    private var next = 0

    func lookup(_ raw: UnsafeBufferPointer<UInt8>) -> Value? {
        let n = raw.count
        let base = keys.bytes
        for k in 0..<lengths.count where lengths[k] == n && memcmp(base + k * Self.longest, raw.baseAddress!, n) == 0 {
            return values[k]
        }
        return nil
    }

    mutating func insert(_ raw: UnsafeBufferPointer<UInt8>, _ value: Value) {
        guard raw.count <= Self.longest, raw.count > 0 else { return }
        let k: Int
        if lengths.count < Self.entries {
            k = lengths.count
            lengths.append(raw.count)
            values.append(value)
        } else {
            k = next
            lengths[k] = raw.count
            values[k] = value
            next = (next + 1) % Self.entries
        }
        (keys.bytes + k * Self.longest).update(from: raw.baseAddress!, count: raw.count)
    }
}

/// Bytes freed with their owner.
private final class KeyStorage {
    let bytes: UnsafeMutablePointer<UInt8>
    init(bytes count: Int) { bytes = .allocate(capacity: count) }
    deinit { bytes.deallocate() }
}

/// Decodes an EDF, EDF+ (continuous and discontinuous), BDF or BDF+ file into one uniformly
/// sampled stream per delivered signal, streaming: data records are read a few MiB at a time, so
/// memory is bounded by the record size and the block size, never by the file (files over 4 GB
/// decode in constant memory).
///
/// - **Streams.** Signals are classified by ``EDFSignalRules`` (or the caller's `sensor`): ECG in
///   µV, PPG as written, accelerometer axes grouped into x, y, z streams in g. Each signal keeps
///   its own rate (samples per record ÷ record duration). Key: device = the file name without
///   extension, channel = the label (`label #i` when two signals share a label, `signal i` when
///   empty); header fields are kept in ``StreamInfo/attributes`` (`edf.*`). Signals not
///   delivered are still decoded record by record, and an issue names each.
/// - **Values.** `physical = bitValue × (offset + digital)` with EDFlib's `bitValue` and `offset`
///   (``EDFHeader/Signal/scale``), in `Double`, then the unit factor, then `Float`: equal to
///   pyedflib's physical values rounded to `Float`. Digital values outside the header's digital
///   range are delivered as they are (EDF does not mark them).
/// - **Time.** ``TimeOrigin/deviceLocal``: EDF start date and time are the local clock of the
///   recording, zone not given. Record `k` starts at the header start + its onset: `k × duration`
///   for EDF/BDF, the first record's time-keeping TAL onset (a sub-second start) + `k × duration`
///   for EDF+C, each record's own time-keeping onset for EDF+D, where a record that does not
///   follow its predecessor starts a new segment (``StreamQC/gaps``).
/// - **Annotations.** Every TAL annotation (not the time-keeping ones) of every `EDF Annotations`
///   signal is delivered as a ``RecordingEvent/annotation(_:)`` as its record is read (onset =
///   header start + TAL onset, on the streams' clock; source `edf`) and, when `keepsAnnotations`,
///   also kept in ``annotations``. At most ``maximumAnnotations`` are delivered and kept; the rest
///   are counted in ``annotationsNotKept`` and named by an issue. The annotation signals are not
///   data.
/// - **Checks.** Header fields are range-checked (``EDFHeader``). A file shorter than its declared
///   records is delivered to its last whole record and then fails `truncated` (naming the byte
///   offset); bytes after the declared records, an EDF+C record whose onset breaks continuity and a
///   record without its time-keeping TAL are integrity failures (thrown at the end with
///   `verifiesIntegrity`, else issues); a malformed TAL is an issue naming its byte offset (that
///   signal's annotations in that record are skipped).
///
/// Sources: Kemp B., Värri A., Rosa A. C., Nielsen K. D., Gade J., "A simple format for exchange of
/// digitized polygraphic recordings", Electroencephalogr. Clin. Neurophysiol. 82:391–393, 1992;
/// Kemp B., Olivan J., "European data format 'plus' (EDF+)", Clin. Neurophysiol. 114:1755–1761,
/// 2003 (edfplus.info); BioSemi, "BDF format" (biosemi.com/faq/file_format.htm).
public final class EDFDecoder: RecordingDecoder {
    /// The file, as given by the caller.
    public let path: String
    /// Always ``RecordingFormat/edf``.
    public var format: RecordingFormat { .edf }
    /// The file's header.
    public let header: EDFHeader
    /// Streams announced so far.
    public private(set) var streams: [StreamInfo] = []
    /// QC account per announced stream.
    public var accounts: [StreamQC] { assemblers.map(\.qc) }
    /// Annotations read so far, in file order (final once ``next()`` has returned `nil`); empty
    /// unless the decoder was opened with `keepsAnnotations` (they are delivered as events
    /// either way).
    public private(set) var annotations: [EDFAnnotation] = []
    /// Annotations delivered as events so far (at most ``maximumAnnotations``).
    public private(set) var annotationsDelivered = 0
    /// Annotations read beyond ``maximumAnnotations`` (counted, neither delivered nor kept).
    public private(set) var annotationsNotKept = 0
    /// Seconds after the header start of the first record (the EDF+ sub-second start; 0 for EDF).
    public private(set) var firstRecordOnsetSeconds: Double?
    /// Data records read.
    public private(set) var recordsRead = 0
    /// Record onsets (seconds after the header start) where an EDF+D recording resumes after a gap.
    public private(set) var discontinuities = 0

    /// Largest number of annotations delivered and kept (2^20).
    public static let maximumAnnotations = 1 << 20

    /// One delivered stream: its signals (1, or 3 accelerometer axes) and their scaling.
    struct Plan {
        var signals: [Int]
        var factor: [Double]
        var rate: Double
    }

    let source: ByteSource
    let blockCapacity: Int
    let verifiesIntegrity: Bool
    let recordsPerRead: Int
    let recordsAvailable: Int?
    var plans: [Plan] = []
    var assemblers: [StreamAssembler] = []
    var signalOffsets: [Int] = []
    var buffer: UnsafeMutableRawBufferPointer
    var scratch: [UnsafeMutableBufferPointer<Float>] = []
    var pending = EventQueue()
    var started = false
    var finished = false
    var expectedOnset: Double?
    var integrityFailure: RecordingError?
    let classification: [SensorKind?]
    let digital: Bool
    let keepsAnnotations: Bool

    /// Opens a file and reads its header.
    /// - Parameters:
    ///   - path: the `.edf`/`.bdf` file (plain, gzip or xz).
    ///   - blockCapacity: maximum samples per delivered block (default 65,536).
    ///   - sensor: classifies each signal (default ``EDFSignalRules/classify(_:)``); `nil` skips it.
    ///   - verifiesIntegrity: whether integrity failures fail the recording (default `true`).
    ///   - digital: deliver the digital values (integers, exact in `Float` up to 2^24, so every
    ///     EDF and BDF value) in ``PhysicalUnit/adcUnits`` instead of physical values (default
    ///     `false`), as pyedflib's `readSignal(digital=True)`.
    ///   - keepsAnnotations: also keep the annotations in ``annotations`` (default `true`); the
    ///     pipeline passes `false` and takes them from the events, so they are not held for the
    ///     whole file.
    /// - Throws: ``RecordingError`` for an unreadable or malformed header (naming the field's byte
    ///   offset).
    /// - Complexity: O(header size).
    public init(
        path: String, blockCapacity: Int = 65_536,
        sensor: (EDFHeader.Signal) -> SensorKind? = EDFSignalRules.classify,
        verifiesIntegrity: Bool = true, digital: Bool = false, keepsAnnotations: Bool = true
    ) throws(RecordingError) {
        precondition(blockCapacity > 0)
        self.digital = digital
        self.keepsAnnotations = keepsAnnotations
        self.path = path
        self.blockCapacity = blockCapacity
        self.verifiesIntegrity = verifiesIntegrity
        let source = try ByteSource(path: path, chunkSize: 1 << 18)
        self.source = source
        let fixed = try Self.read(source, count: 256)
        let h = try EDFHeader.parse(fixed: fixed, file: path) { (n: Int) throws(RecordingError) -> [UInt8] in
            // A header no file could hold is refused before reading it.
            if !source.isCompressed && n > source.fileSize { return [] }
            return try Self.read(source, count: n)
        }
        header = h
        var offsets = [Int](), o = 0
        for s in h.signals {
            offsets.append(o)
            o += s.samplesPerRecord * h.variant.bytesPerSample
        }
        signalOffsets = offsets
        if !source.isCompressed {
            let data = source.fileSize - h.headerBytes
            recordsAvailable = h.recordBytes > 0 ? max(0, data) / h.recordBytes : (h.recordCount ?? 0)
        } else {
            recordsAvailable = nil
        }
        // About 4 MiB per read, at least one record.
        recordsPerRead = max(1, (1 << 22) / max(h.recordBytes, 1))
        // Grown as bytes arrive (``step()``), never to what the header merely claims.
        buffer = .allocate(byteCount: min(recordsPerRead * max(h.recordBytes, 1), 1 << 16), alignment: 8)
        classification = h.signals.map { $0.isAnnotations ? nil : sensor($0) }
    }

    deinit {
        buffer.deallocate()
        for s in scratch { s.deallocate() }
    }

    /// Reads exactly `count` bytes (fewer only at the end of the content).
    static func read(_ source: ByteSource, count: Int) throws(RecordingError) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let from = filled
            let n = try out.withUnsafeMutableBytes { b in
                Result { () throws(RecordingError) -> Int in
                    try source.read(into: UnsafeMutableRawBufferPointer(rebasing: b[from..<count]))
                }
            }.get()
            if n == 0 { break }
            filled += n
        }
        out.removeLast(count - filled)
        return out
    }

    /// The channel name of signal `i`: its label, made unique.
    func channelName(_ i: Int) -> String {
        let s = header.signals
        func name(_ k: Int) -> String { s[k].label.isEmpty ? "signal \(k)" : s[k].label }
        let n = name(i)
        return s.indices.contains { $0 != i && name($0) == n } ? "\(n) #\(i)" : n
    }

    func attributes(of i: Int) -> [String: String] {
        let s = header.signals[i]
        func f(_ v: Double) -> String { v == v.rounded() && abs(v) < 1e15 ? String(Int(v)) : String(v) }
        var a = [
            "edf.format": header.variant.rawValue, "edf.signal": String(i), "edf.label": s.label,
            "edf.transducer": s.transducer, "edf.physical_dimension": s.physicalDimension,
            "edf.physical_min": f(s.physicalMinimum), "edf.physical_max": f(s.physicalMaximum),
            "edf.digital_min": String(s.digitalMinimum), "edf.digital_max": String(s.digitalMaximum),
            "edf.prefilter": s.prefilter, "edf.samples_per_record": String(s.samplesPerRecord),
            "edf.record_duration_s": f(header.recordDurationSeconds),
        ]
        let words = header.recording.split(separator: " ")
        if header.variant.isPlus, words.count >= 5, words[0] == "Startdate", words[4] != "X" {
            a[StreamAttribute.deviceModel] = words[4...].joined(separator: " ")
        }
        return a
    }

    func announce() {
        let h = header
        let device = Self.stem(path)
        pending.append(.device(DeviceInfo(id: device, name: "\(h.variant.rawValue) file \(device)")))
        var accelerometerGroups: [String: [Int?]] = [:]
        var groupOrder: [String] = []
        for (i, s) in h.signals.enumerated() where !s.isAnnotations {
            let rate = h.recordDurationSeconds > 0 ? Double(s.samplesPerRecord) / h.recordDurationSeconds : 0
            func skip(_ why: String) {
                pending.append(
                    .issue(
                        RecordingError(
                            .unsupported, file: path, byteOffset: s.headerOffset,
                            "signal \(i) (\(s.label.isEmpty ? "no label" : s.label), \(s.physicalDimension.isEmpty ? "no unit" : s.physicalDimension), "
                                + "\(EDFSignalRules.kindName(s))): \(why); decoded and checked but not delivered (not analysed)")))
            }
            guard let kind = classification[i] else {
                skip("no SensorPipe analysis reads it")
                continue
            }
            guard s.samplesPerRecord > 0 else {
                skip("it has no samples")
                continue
            }
            if let problem = InputLimits.sampleRateProblem(rate) {
                skip("its rate \(s.samplesPerRecord) samples per \(h.recordDurationSeconds) s: \(problem)")
                continue
            }
            switch kind {
            case .electrocardiogram:
                guard let factor = EDFSignalRules.microvoltFactor(s.physicalDimension) else {
                    skip("ECG in '\(s.physicalDimension)', not a voltage unit")
                    continue
                }
                add(Plan(signals: [i], factor: [factor], rate: rate), kind: kind, channel: channelName(i), unit: .microvolts)
            case .photoplethysmogram:
                add(Plan(signals: [i], factor: [1], rate: rate), kind: kind, channel: channelName(i), unit: .dimensionless)
            case .accelerometer:
                guard let (axis, group) = EDFSignalRules.axis(of: s), EDFSignalRules.gravityFactor(s.physicalDimension) != nil else {
                    skip("accelerometer signals need an x, y or z label and a unit g, mg or m/s^2")
                    continue
                }
                let key = "\(group)|\(s.physicalDimension)|\(s.samplesPerRecord)"
                if accelerometerGroups[key] == nil {
                    accelerometerGroups[key] = [nil, nil, nil]
                    groupOrder.append(key)
                }
                if accelerometerGroups[key]![axis] != nil {
                    skip("a second \(["x", "y", "z"][axis]) axis of accelerometer '\(group)'")
                    continue
                }
                accelerometerGroups[key]![axis] = i
            case .rotationRate:
                skip("rotation rate is not read from EDF files")
            case .heartbeat, .healthRecord:
                skip("beat lists and device records are not read from EDF files")
            }
        }
        for key in groupOrder {
            let axes = accelerometerGroups[key]!
            guard axes.allSatisfy({ $0 != nil }) else {
                for case let i? in axes {
                    let s = header.signals[i]
                    pending.append(
                        .issue(
                            RecordingError(
                                .unsupported, file: path, byteOffset: s.headerOffset,
                                "signal \(i) (\(s.label)): accelerometer axis without its other axes (same name, unit and "
                                    + "samples per record); decoded and checked but not delivered (not analysed)")))
                }
                continue
            }
            let signals = axes.map { $0! }
            let s = header.signals[signals[0]]
            let factor = EDFSignalRules.gravityFactor(s.physicalDimension)!
            let group = String(key.prefix { $0 != "|" })
            add(
                Plan(signals: signals, factor: [factor, factor, factor], rate: Double(s.samplesPerRecord) / h.recordDurationSeconds),
                kind: .accelerometer, channel: group.isEmpty ? "acceleration" : group, unit: .standardGravity)
        }
    }

    func add(_ plan: Plan, kind: SensorKind, channel: String, unit: PhysicalUnit) {
        var a = attributes(of: plan.signals[0])
        if plan.signals.count > 1 {
            a["edf.signal"] = plan.signals.map(String.init).joined(separator: ",")
            a["edf.label"] = plan.signals.map { header.signals[$0].label }.joined(separator: ",")
        }
        let names = plan.signals.count == 3 ? ["x", "y", "z"] : ["value"]
        let unit = digital ? .adcUnits : unit
        let info = StreamInfo(
            key: StreamKey(deviceID: Self.stem(path), sensor: kind, channel: channel),
            columns: names.map { ColumnInfo(name: $0, unit: unit) }, nominalSampleRate: plan.rate, attributes: a,
            timeOrigin: .deviceLocal)
        let index = streams.count
        streams.append(info)
        plans.append(plan)
        assemblers.append(StreamAssembler(stream: index, columnCount: plan.signals.count, uniform: true, blockCapacity: blockCapacity))
        pending.append(.stream(index: index, info: info))
        let n = header.signals[plan.signals[0]].samplesPerRecord
        for _ in plan.signals {
            let b = UnsafeMutableBufferPointer<Float>.allocate(capacity: n)
            b.initialize(repeating: 0)
            scratch.append(b)
        }
    }

    /// The file name without folders and `.edf`/`.bdf`/`.rec`/`.gz`/`.xz` extensions.
    static func stem(_ path: String) -> String {
        var name = String(path.split(separator: "/").last ?? Substring(path))
        for ext in [".gz", ".xz", ".edf", ".bdf", ".rec", ".EDF", ".BDF", ".REC"] where name.hasSuffix(ext) && name.count > ext.count {
            name.removeLast(ext.count)
        }
        return name
    }

    /// The next event: the device and streams, issues for signals not delivered, then blocks in
    /// record order, and `nil` at the end.
    /// - Throws: ``RecordingError`` for a truncated file or (verifying) an integrity failure, after
    ///   the samples before it.
    /// - Complexity: amortised O(record size) per record.
    public func next() throws(RecordingError) -> RecordingEvent? {
        if !started {
            started = true
            announce()
        }
        while true {
            if let e = try pending.next() { return e }
            if finished { return nil }
            do {
                try step()
            } catch {
                finish()
                pending.deferError(error)
            }
        }
    }

    func finish() {
        guard !finished else { return }
        finished = true
        pending.withEvents { events in
            for k in assemblers.indices { assemblers[k].finish(into: &events) }
        }
        if annotationsNotKept > 0 {
            pending.append(
                .issue(
                    RecordingError(
                        .outOfRange, file: path,
                        "\(annotationsDelivered + annotationsNotKept) EDF+ annotations; the first \(Self.maximumAnnotations) are "
                            + "delivered (stored), \(annotationsNotKept) are counted only")))
        }
    }

    /// Reads the next records into events.
    func step() throws(RecordingError) {
        let h = header
        let declared = h.recordCount
        var want = recordsPerRead
        if let declared { want = min(want, declared - recordsRead) }
        guard want > 0, h.recordBytes > 0 else {
            try atEnd()
            return
        }
        let bytes = want * h.recordBytes
        var filled = 0
        while filled < bytes {
            if buffer.count == filled {
                // Double what has arrived (a claimed record larger than the file costs only its bytes).
                let grown = UnsafeMutableRawBufferPointer.allocate(byteCount: min(bytes, 2 * buffer.count), alignment: 8)
                grown.copyMemory(from: UnsafeRawBufferPointer(rebasing: buffer[0..<filled]))
                buffer.deallocate()
                buffer = grown
            }
            let n = try source.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[filled..<min(bytes, buffer.count)]))
            if n == 0 { break }
            filled += n
        }
        let whole = h.recordBytes > 0 ? filled / h.recordBytes : want
        for r in 0..<whole {
            try record(UnsafeRawBufferPointer(rebasing: buffer[(r * h.recordBytes)..<((r + 1) * h.recordBytes)]))
        }
        if filled < bytes {
            // The content ended: a partial record, or fewer records than declared.
            let offset = h.headerBytes + recordsRead * h.recordBytes
            if declared != nil || filled % max(h.recordBytes, 1) != 0 {
                finish()
                pending.deferError(
                    RecordingError(
                        .truncated, file: path, byteOffset: offset + filled % max(h.recordBytes, 1),
                        "the file ends after \(recordsRead) whole data records"
                            + (filled % max(h.recordBytes, 1) > 0 ? " and \(filled % h.recordBytes) bytes of the next" : "")
                            + (declared.map { " but the header declares \($0)" } ?? "")
                            + " (\(h.recordBytes) bytes each)"))
                return
            }
            try atEnd()
        }
    }

    /// After the last declared record: checks for trailing bytes, then ends.
    func atEnd() throws(RecordingError) {
        if header.recordCount != nil {
            if try !Self.read(source, count: 1).isEmpty {
                let e = RecordingError(
                    .inconsistent, file: path, byteOffset: header.headerBytes + recordsRead * header.recordBytes,
                    "bytes follow the \(recordsRead) data records the header declares; they are not read")
                if verifiesIntegrity && integrityFailure == nil { integrityFailure = e } else { pending.append(.issue(e)) }
            }
        }
        finish()
        if let integrityFailure { pending.deferError(integrityFailure) }
    }

    func integrity(_ e: RecordingError) {
        if verifiesIntegrity && integrityFailure == nil { integrityFailure = e } else { pending.append(.issue(e)) }
    }

    /// Decodes one data record.
    func record(_ raw: UnsafeRawBufferPointer) throws(RecordingError) {
        let h = header
        let k = recordsRead
        let recordOffset = h.headerBytes + k * h.recordBytes
        var timeKeeping: Double?
        var firstAnnotationSignal = true
        for (i, s) in h.signals.enumerated() where s.isAnnotations {
            let bytes = UnsafeRawBufferPointer(
                rebasing: raw[signalOffsets[i]..<(signalOffsets[i] + s.samplesPerRecord * h.variant.bytesPerSample)])
            do {
                let parsed = try EDFTALParser.parse(bytes, record: k, firstSignal: firstAnnotationSignal)
                if firstAnnotationSignal { timeKeeping = parsed.timeKeeping }
                for a in parsed.annotations {
                    guard annotationsDelivered < Self.maximumAnnotations else {
                        annotationsNotKept += 1
                        continue
                    }
                    annotationsDelivered += 1
                    if keepsAnnotations { annotations.append(a) }
                    pending.append(
                        .annotation(
                            RecordingAnnotation(
                                deviceID: Self.stem(path), onsetSeconds: h.startSeconds + a.onsetSeconds,
                                durationSeconds: a.durationSeconds, text: a.text, source: "edf", timeOrigin: .deviceLocal)))
                }
            } catch {
                pending.append(
                    .issue(
                        RecordingError(
                            .syntax, file: path, byteOffset: recordOffset + signalOffsets[i] + error.offset,
                            "data record \(k), signal \(i) (\(s.label)): \(error.message); its annotations in this record are skipped")))
            }
            firstAnnotationSignal = false
        }
        // The record's onset, seconds after the header start.
        var onset: Double
        let expected = expectedOnset ?? 0
        if h.variant.isPlus {
            if let t = timeKeeping {
                onset = t
            } else {
                onset = expected
                integrity(
                    RecordingError(
                        .missingField, file: path, byteOffset: recordOffset,
                        "data record \(k) has no time-keeping TAL; its onset is taken as \(expected) s"))
            }
            if h.variant.isDiscontinuous {
                if k > 0 && abs(onset - expected) > 1e-7 {
                    discontinuities += 1
                    for a in assemblers.indices { assemblers[a].markGap() }
                }
            } else if k > 0 {
                if abs(onset - expected) > 1e-6 {
                    integrity(
                        RecordingError(
                            .inconsistent, file: path, byteOffset: recordOffset,
                            "EDF+C data record \(k) starts at \(onset) s, not at \(expected) s where the previous one ends; "
                                + "the record is placed contiguously"))
                }
                onset = expected
            }
        } else {
            onset = Double(k) * h.recordDurationSeconds
        }
        if firstRecordOnsetSeconds == nil { firstRecordOnsetSeconds = onset }
        expectedOnset = onset + h.recordDurationSeconds
        recordsRead += 1
        let start = h.startSeconds + onset
        var column = 0
        pending.withEvents { events in
            for (p, plan) in plans.enumerated() {
                var views: [UnsafeBufferPointer<Float>] = []
                for (c, i) in plan.signals.enumerated() {
                    decode(signal: i, raw: raw, factor: plan.factor[c], into: scratch[column + c])
                    views.append(UnsafeBufferPointer(scratch[column + c]))
                }
                column += plan.signals.count
                assemblers[p].qc.samplesRead += views[0].count
                assemblers[p].appendRun(start: start, sampleRate: plan.rate, columns: views, flags: nil, into: &events)
            }
        }
    }

    /// Decodes signal `i`'s samples of one record into physical values × `factor`.
    func decode(signal i: Int, raw: UnsafeRawBufferPointer, factor: Double, into out: UnsafeMutableBufferPointer<Float>) {
        let s = header.signals[i]
        var (bitValue, offset) = s.scale
        var factor = factor
        if digital { (bitValue, offset, factor) = (1, 0, 1) }
        let base = signalOffsets[i]
        let n = s.samplesPerRecord
        if header.variant.isBDF {
            for j in 0..<n {
                let p = base + 3 * j
                var v = Int32(raw[p]) | Int32(raw[p + 1]) << 8 | Int32(raw[p + 2]) << 16
                v = (v << 8) >> 8
                out[j] = Float(bitValue * (offset + Double(v)) * factor)
            }
        } else {
            for j in 0..<n {
                let p = base + 2 * j
                let v = Int16(bitPattern: UInt16(raw[p]) | UInt16(raw[p + 1]) << 8)
                out[j] = Float(bitValue * (offset + Double(v)) * factor)
            }
        }
    }
}

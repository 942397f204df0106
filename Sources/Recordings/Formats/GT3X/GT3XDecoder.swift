/// Decodes the raw accelerometer samples of an ActiGraph `.gt3x` file (GT3X+, wGT3X+, wGT3X-BT,
/// ActiSleep, GT9X Link, …) into one accelerometer stream, in g, streaming with memory bounded by
/// the read size and the block size.
///
/// **Container.** A `.gt3x` file is a ZIP archive (PKWARE APPNOTE 6.3.10; entries stored or
/// deflated, ZIP64 accepted) holding `info.txt` (``GT3XInfo``) and `log.bin`, a sequence of
/// timestamped log records (``RecordingFormat/gt3x``). The format is ActiGraph's
/// "GT3X-File-Format" documentation (github.com/actigraph/GT3X-File-Format, README,
/// `info.txt.md`, `LogRecords/*.md`); its older NHANES variant (`activity.bin` + `log.txt`) is
/// not decoded.
///
/// **Samples.** ACTIVITY2 records (0x1A, little-endian Int16 x, y, z), ACTIVITY (0x00, 12-bit
/// packed y, x, z) and ACTIVITY3 (0x1B, 12-bit packed x, y, z; read as `pygt3x` reads it) each
/// hold one second of samples. Values are counts ÷ the acceleration scale (counts per g), taken
/// from the PARAMETERS record's `ACCEL_SCALE` when present (as ActiGraph's `Activity2.md`
/// prescribes), else `info.txt`'s `Acceleration Scale`, else ActiGraph's documented default for
/// the serial number (341 for NEO and CLE, 256 for MOS). Unlike ActiLife, values are not rounded
/// to three decimals; a `calibration.json` saying the data are not calibrated is reported as an
/// issue (its calibration is not applied). Activity records with a one-byte payload mark a USB
/// connection, not samples, and are skipped.
///
/// **Time.** Sample `i` of a record is at `timestamp + i / sampleRate` (explicit per-sample
/// times). Record timestamps are whole seconds on the **device's clock, which is local time**
/// (the file carries no time zone in `log.bin`). When `info.txt` has a `TimeZone` line its
/// offset is removed, so times are UTC Unix seconds (``TimeOrigin/unix``, `gt3x.timeOrigin` =
/// `utc`, the offset kept as `utc_offset_s`); otherwise the times are device-local seconds since
/// 1970 labelled as such (``TimeOrigin/deviceLocal``, `gt3x.timeOrigin` = `deviceLocal`) and an
/// issue says so. Device metadata goes to the ``StreamAttribute`` keys `device_serial`,
/// `device_name`, `device_model` (`Device Type`) and `device_software` (`Firmware`). One offset serves the whole file: the device clock does
/// not follow daylight-saving changes.
///
/// **Gaps.** Idle sleep mode (EVENT records 0x08/0x09) stops sampling; unlike ActiLife, which
/// repeats the last sample, the missing seconds are left out, so the stream's assembler starts a
/// new segment there (counted in ``StreamQC/gaps``). Records whose timestamp does not advance
/// start a new segment too (``StreamQC/backwardSteps``, with an issue); an activity record
/// repeating the previous one exactly (type, timestamp, payload) is dropped and counted as
/// duplicates.
///
/// **Errors.** Recoverable (an `.issue`, samples counted as rejected): a record whose checksum
/// does not match (its samples are rejected), an ACTIVITY2 payload that is not whole 6-byte
/// samples, more samples in a record than the sample rate. An entry whose CRC-32 or size differs
/// from the ZIP directory fails the recording (`info.txt` at once, `log.bin` after its samples)
/// unless `verifiesIntegrity` is `false` (then an issue). Fatal (thrown, after the samples before the problem): no ZIP end
/// record (truncated file), no `log.bin` or `info.txt`, a byte other than `0x1E`/`0x00` where a
/// record must start, `log.bin` ending inside a record, corrupt deflate data. Byte offsets of
/// record problems are offsets in `log.bin` (the message says so); those of container problems
/// are offsets in the `.gt3x` file.
public final class GT3XDecoder: RecordingDecoder {
    /// The `.gt3x` file, as given by the caller.
    public let path: String
    /// Always ``RecordingFormat/gt3x``.
    public var format: RecordingFormat { .gt3x }
    /// The parsed `info.txt`.
    public let info: GT3XInfo
    /// Streams announced so far (the accelerometer stream, once the first activity record or the
    /// end of `log.bin` is reached).
    public private(set) var streams: [StreamInfo] = []
    /// QC account of the accelerometer stream (empty before it is announced).
    public var accounts: [StreamQC] { assembler.map { [$0.qc] } ?? [] }
    /// Counts per g used for the samples (known once the stream is announced).
    public private(set) var accelerationScale: Double?
    /// Number of times the device entered idle sleep mode (EVENT record payload 0x08).
    public private(set) var idleSleepModeEntries = 0

    let archive: ZipArchive
    let logEntry: ZipEntryReader
    let log: GT3XLogReader
    let blockCapacity: Int
    let timeShift: Double
    var assembler: StreamAssembler?
    var parameterScale: Double?
    var lastActivityType: UInt8 = 0
    var lastActivityTimestamp: UInt32?
    var lastActivityPayload: [UInt8] = []
    var pending = EventQueue()
    var finished = false
    var x: [Float], y: [Float], z: [Float]

    /// Whether a ZIP CRC-32 or size mismatch fails the recording (else it is an issue).
    let verifiesIntegrity: Bool

    /// Largest number of samples one record can hold (65,535 payload bytes of 36-bit samples).
    static let maximumSamplesPerRecord = 65_535 * 8 / 36

    /// Opens a `.gt3x` file: reads the ZIP directory and `info.txt`.
    /// - Parameters:
    ///   - path: the `.gt3x` file.
    ///   - blockCapacity: maximum samples per delivered block (default 65,536).
    /// - Throws: ``RecordingError``: `.unknownFormat` (not a ZIP archive), `.truncated` (no ZIP
    ///   end record), `.missingField` (no `log.bin`, no `info.txt`, or no serial number or sample
    ///   rate in it), `.unsupported` (NHANES-format file, encryption, other compression methods),
    ///   `.wrongType`/`.outOfRange` (malformed `info.txt` values), `.unreadable`.
    /// - Complexity: O(ZIP directory + `info.txt`).
    public init(path: String, blockCapacity: Int = 65_536, verifiesIntegrity: Bool = true) throws(RecordingError) {
        precondition(blockCapacity > 0, "block capacity must be positive")
        self.verifiesIntegrity = verifiesIntegrity
        self.path = path
        self.blockCapacity = blockCapacity
        let archive = try ZipArchive(path: path)
        self.archive = archive
        let names = archive.entries.map(\.name)
        guard let logBin = archive.entry(named: "log.bin") else {
            if archive.entry(named: "activity.bin") != nil {
                throw RecordingError(
                    .unsupported, file: path, byteOffset: archive.directoryOffset,
                    "the archive holds activity.bin instead of log.bin: the older NHANES GT3X "
                        + "format (NEO/MRA devices, firmware ≤ 2.5.0) is not decoded")
            }
            throw RecordingError(
                .missingField, file: path, byteOffset: archive.directoryOffset,
                "the ZIP archive has no log.bin entry (it holds "
                    + (names.isEmpty ? "nothing" : names.joined(separator: ", ")) + "); not a GT3X file")
        }
        guard let infoEntry = archive.entry(named: "info.txt") else {
            throw RecordingError(
                .missingField, file: path, byteOffset: archive.directoryOffset,
                "the ZIP archive has no info.txt entry (it holds \(names.joined(separator: ", ")))")
        }
        let infoReader = try ZipEntryReader(archive: archive, entry: infoEntry)
        let infoBytes = try infoReader.readAll(limit: 1 << 20)
        if let problem = infoReader.verify() {
            let e = RecordingError(
                .inconsistent, file: path, byteOffset: infoReader.dataStart,
                "ZIP entry 'info.txt': \(problem)")
            if verifiesIntegrity { throw e }
            pending.append(.issue(e))
        }
        info = try GT3XInfo.parse(infoBytes, file: path)
        timeShift = Double(info.utcOffsetSeconds ?? 0)
        if info.utcOffsetSeconds == nil {
            pending.append(
                .issue(
                    RecordingError(
                        .missingField, file: path,
                        "info.txt has no TimeZone line: times are the device's local clock (seconds since 1970 as if "
                            + "UTC), not UTC")))
        }
        if let calibration = archive.entry(named: "calibration.json") {
            let reader = try ZipEntryReader(archive: archive, entry: calibration)
            if Self.saysUncalibrated(try reader.readAll(limit: 1 << 20)) {
                pending.append(
                    .issue(
                        RecordingError(
                            .unsupported, file: path, byteOffset: reader.dataStart,
                            "calibration.json says the samples are not calibrated; its calibration is not applied "
                                + "(values are counts ÷ scale)")))
            }
        }
        logEntry = try ZipEntryReader(archive: archive, entry: logBin)
        log = GT3XLogReader(entry: logEntry, path: path)
        x = [Float](repeating: 0, count: Self.maximumSamplesPerRecord)
        y = x
        z = x
    }

    /// Whether a `calibration.json` text has `"isCalibrated"` set to `false`.
    static func saysUncalibrated(_ bytes: [UInt8]) -> Bool {
        let key = Array("\"isCalibrated\"".utf8)
        var i = 0
        while i + key.count <= bytes.count {
            if bytes[i] == key[0] && Array(bytes[i..<i + key.count]) == key {
                var j = i + key.count
                func skipSpace() {
                    while j < bytes.count && (bytes[j] == 0x20 || bytes[j] == 0x09 || bytes[j] == 0x0A || bytes[j] == 0x0D) { j += 1 }
                }
                skipSpace()
                guard j < bytes.count && bytes[j] == 0x3A else { return false }
                j += 1
                skipSpace()
                return bytes[j...].starts(with: Array("false".utf8))
            }
            i += 1
        }
        return false
    }

    /// ActiGraph's documented scale for a serial number (`Activity2.md`), if any.
    static func defaultScale(serialNumber s: String) -> Double? {
        if s.hasPrefix("NEO") || s.hasPrefix("CLE") { return 341 }
        if s.hasPrefix("MOS") { return 256 }
        return nil
    }

    /// The next event: issues found in `info.txt`, then the device and stream (at the first
    /// activity record), blocks and issues in file order, and `nil` at the end.
    /// - Throws: ``RecordingError`` for a lost record framing, a truncated `log.bin`, corrupt
    ///   deflate data or a scale that cannot be determined — after the samples before it.
    /// - Complexity: amortised O(record size) per record.
    public func next() throws(RecordingError) -> RecordingEvent? {
        while true {
            if let e = try pending.next() { return e }
            if finished { return nil }
            do {
                try step()
            } catch {
                // Thrown once the samples before it are delivered; then the recording ends.
                finishStream()
                pending.deferError(error)
                finished = true
            }
        }
    }

    /// Flushes the stream's held and partial blocks.
    func finishStream() {
        guard var a = assembler else { return }
        assembler = nil
        pending.withEvents { a.finish(into: &$0) }
        assembler = a
    }

    /// Reads records until events are produced or `log.bin` ends.
    func step() throws(RecordingError) {
        while pending.isEmpty {
            guard let r = try log.next() else {
                if assembler == nil { try announce(requireScale: false) }
                finishStream()
                if let problem = logEntry.verify() {
                    let e = RecordingError(
                        .inconsistent, file: path, byteOffset: logEntry.dataStart,
                        "ZIP entry 'log.bin': \(problem)")
                    // Verifying, the samples are delivered and then the recording fails.
                    if verifiesIntegrity { pending.deferError(e) } else { pending.append(.issue(e)) }
                }
                finished = true
                return
            }
            if GT3XPayload.isActivity(r.type) {
                try activity(r)
                continue
            }
            guard r.checksumMatches else {
                pending.append(.issue(checksumError(r, consequence: "record ignored")))
                continue
            }
            if r.type == GT3XPayload.parameters {
                let scale = log.buffer.withUnsafeBytes { b in
                    GT3XPayload.accelerationScale(parameters: UnsafeRawBufferPointer(rebasing: b[r.payload]))
                }
                if let s = scale {
                    if let used = accelerationScale, used != s {
                        pending.append(
                            .issue(
                                RecordingError(
                                    .inconsistent, file: path, byteOffset: r.offset,
                                    "log.bin byte \(r.offset): PARAMETERS record gives ACCEL_SCALE \(s) after samples were "
                                        + "scaled with \(used) counts/g; \(used) is kept")))
                    } else if parameterScale == nil {
                        parameterScale = s
                    }
                }
            } else if r.type == GT3XPayload.event && r.payload.count == 1 && log.buffer[r.payload.lowerBound] == 0x08 {
                idleSleepModeEntries += 1
            }
        }
    }

    func checksumError(_ r: GT3XLogReader.Record, consequence: String) -> RecordingError {
        RecordingError(
            .inconsistent, file: path, byteOffset: r.offset,
            "log.bin byte \(r.offset): \(GT3XPayload.name(r.type)) record (timestamp \(r.timestamp), "
                + "\(r.payload.count) payload bytes) has checksum 0x\(GT3XLogReader.hex(r.storedChecksum)) but its "
                + "bytes give 0x\(GT3XLogReader.hex(r.computedChecksum)); \(consequence)")
    }

    /// Announces the device and the accelerometer stream.
    func announce(requireScale: Bool) throws(RecordingError) {
        var scale: Double?
        var source = ""
        if let s = parameterScale {
            scale = s
            source = "PARAMETERS record (ACCEL_SCALE)"
            if let i = info.accelerationScale, i != s {
                pending.append(
                    .issue(
                        RecordingError(
                            .inconsistent, file: path,
                            "info.txt gives Acceleration Scale \(i) but the PARAMETERS record in log.bin gives ACCEL_SCALE \(s); "
                                + "\(s) is used (ActiGraph: the parameter takes precedence)")))
            }
        } else if let s = info.accelerationScale, s > 0, s.isFinite {
            scale = s
            source = "info.txt (Acceleration Scale)"
        } else if let s = Self.defaultScale(serialNumber: info.serialNumber) {
            scale = s
            source = "ActiGraph default for serial numbers starting \(info.serialNumber.prefix(3))"
        }
        if requireScale && scale == nil {
            throw RecordingError(
                .missingField, file: path,
                "no acceleration scale: neither a PARAMETERS record, nor 'Acceleration Scale' in info.txt, "
                    + "nor a documented default for serial number \(info.serialNumber)")
        }
        accelerationScale = scale
        var attributes: [String: String] = [
            "gt3x.serialNumber": info.serialNumber,
            "gt3x.sampleRate": Self.format(info.sampleRate),
            "gt3x.timeOrigin": info.utcOffsetSeconds == nil ? "deviceLocal" : "utc",
        ]
        for (k, v) in info.fields where k != "Subject Name" { attributes["gt3x.info.\(k)"] = v }
        if let s = scale {
            attributes["gt3x.accelerationScale"] = Self.format(s)
            attributes["gt3x.accelerationScaleSource"] = source
        }
        if let o = info.utcOffsetSeconds {
            attributes["gt3x.utcOffsetSeconds"] = String(o)
            attributes[StreamAttribute.utcOffsetSeconds] = String(o)
        }
        attributes[StreamAttribute.deviceSerial] = info.serialNumber
        attributes[StreamAttribute.deviceName] = "ActiGraph " + (info.deviceType ?? "device")
        if let t = info.deviceType, !t.isEmpty { attributes[StreamAttribute.deviceModel] = t }
        if let f = info.firmware, !f.isEmpty { attributes[StreamAttribute.deviceSoftware] = f }
        let device = DeviceInfo(
            id: info.serialNumber, name: "ActiGraph " + (info.deviceType ?? "device"),
            model: info.deviceType, systemName: "ActiGraph firmware", systemVersion: info.firmware)
        let stream = StreamInfo(
            key: StreamKey(deviceID: info.serialNumber, sensor: .accelerometer, channel: "acceleration"),
            columns: [
                ColumnInfo(name: "x", unit: .standardGravity), ColumnInfo(name: "y", unit: .standardGravity),
                ColumnInfo(name: "z", unit: .standardGravity),
            ],
            nominalSampleRate: info.sampleRate, attributes: attributes,
            timeOrigin: info.utcOffsetSeconds == nil ? .deviceLocal : .unix)
        pending.append(.device(device))
        streams.append(stream)
        pending.append(.stream(index: streams.count - 1, info: stream))
        assembler = StreamAssembler(stream: 0, columnCount: 3, uniform: false, blockCapacity: blockCapacity)
    }

    static func format(_ v: Double) -> String {
        v == v.rounded() && abs(v) < 1e15 ? String(Int64(v)) : String(v)
    }

    /// Handles one activity record.
    func activity(_ r: GT3XLogReader.Record) throws(RecordingError) {
        let size = r.payload.count
        if size == 1 { return } // USB connection event (Activity2.md), not samples
        if assembler == nil { try announce(requireScale: true) }
        guard var a = assembler, let scale = accelerationScale else { return }
        // Own the assembler and the event list locally (no copy-on-write of the block buffers,
        // no exclusivity checks on class properties inside the sample loop).
        assembler = nil
        var events = [RecordingEvent]()
        pending.withEvents { swap(&events, &$0) }
        defer {
            assembler = a
            pending.withEvents { swap(&events, &$0) }
        }
        let n = GT3XPayload.sampleCount(type: r.type, size: size)
        a.qc.samplesRead += n
        guard r.checksumMatches else {
            a.qc.rejected += n
            events.append(.issue(checksumError(r, consequence: "its \(n) samples are rejected")))
            return
        }
        if r.type == GT3XPayload.activity2 && size % 6 != 0 {
            a.qc.rejected += n
            events.append(
                .issue(
                    RecordingError(
                        .inconsistent, file: path, byteOffset: r.offset,
                        "log.bin byte \(r.offset): ACTIVITY2 record (timestamp \(r.timestamp)) has \(size) payload bytes, "
                            + "not a whole number of 6-byte samples; its \(n) samples are rejected")))
            return
        }
        guard n > 0 else { return }
        let same =
            lastActivityTimestamp == r.timestamp && lastActivityType == r.type
            && log.buffer[r.payload].elementsEqual(lastActivityPayload)
        if same {
            a.qc.duplicatesDropped += n
            return
        }
        let rate = info.sampleRate
        if rate == rate.rounded() && Double(n) > rate {
            events.append(
                .issue(
                    RecordingError(
                        .inconsistent, file: path, byteOffset: r.offset,
                        "log.bin byte \(r.offset): \(GT3XPayload.name(r.type)) record (timestamp \(r.timestamp)) holds \(n) "
                            + "samples, more than one second at \(Self.format(rate)) Hz; delivered as they are")))
        }
        if let last = lastActivityTimestamp, r.timestamp <= last {
            events.append(
                .issue(
                    RecordingError(
                        .timeOrder, file: path, byteOffset: r.offset,
                        "log.bin byte \(r.offset): \(GT3XPayload.name(r.type)) record timestamp \(r.timestamp) does not "
                            + "advance past the previous one (\(last)); a new segment starts")))
        }
        lastActivityTimestamp = r.timestamp
        lastActivityType = r.type
        lastActivityPayload.removeAll(keepingCapacity: true)
        lastActivityPayload.append(contentsOf: log.buffer[r.payload])

        let start = Double(r.timestamp), shift = timeShift
        let fscale = Float(scale)
        log.buffer.withUnsafeBytes { raw in
            let payload = UnsafeRawBufferPointer(rebasing: raw[r.payload])
            x.withUnsafeMutableBufferPointer { xb in
                y.withUnsafeMutableBufferPointer { yb in
                    z.withUnsafeMutableBufferPointer { zb in
                        GT3XPayload.decode(
                            type: r.type, payload: payload, count: n, scale: fscale,
                            x: xb.baseAddress!, y: yb.baseAddress!, z: zb.baseAddress!)
                        withUnsafeTemporaryAllocation(of: Float.self, capacity: 3) { v in
                            let values = UnsafeBufferPointer(v)
                            for i in 0..<n {
                                v[0] = xb[i]
                                v[1] = yb[i]
                                v[2] = zb[i]
                                // Same operations as pygt3x (timestamp + i / rate), then the offset.
                                let t = (start + Double(i) / rate) - shift
                                a.append(time: t, values: values, flags: [], declaredRate: rate, into: &events)
                            }
                        }
                    }
                }
            }
        }
    }
}

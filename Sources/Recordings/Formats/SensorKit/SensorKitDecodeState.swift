#if canImport(Glibc)
    import Glibc
#endif

/// Where a record lies in the file, to turn an offset within it into line and column.
struct RecordPlace {
    /// 1-based line of the record's first byte.
    var line: Int
    /// 1-based column of the record's first byte.
    var column: Int

    /// Line and column of byte `offset` of the record `s` (which may span lines).
    func locate(_ offset: Int, in s: JSONScanner) -> (line: Int, column: Int) {
        var line = self.line
        var lastNewline = -1
        var k = 0
        while k < min(offset, s.count) {
            if s.base[k] == 0x0A { line += 1; lastNewline = k }
            k += 1
        }
        return lastNewline < 0 ? (line, column + offset) : (line, offset - lastNewline)
    }
}

/// The mutable state of a ``SensorKitDecoder``: stream table, assemblers, duplicate windows and
/// counters. Kept in a struct that the decoder moves into a local variable while it decodes, so
/// the hot loops touch no class storage.
struct SensorKitDecodeState {
    let path: String
    let blockCapacity: Int
    var events: [RecordingEvent] = []
    var streams: [StreamInfo] = []
    var assemblers: [StreamAssembler] = []
    var streamIndex: [StreamKey: Int] = [:]

    // Devices.
    var deviceIDs: [String] = []
    var deviceLookup: [String: Int] = [:]
    var deviceAnnounced: [Bool] = []
    /// Per device: its `device` line's ``StreamAttribute`` keys (empty until one is read).
    var deviceAttributes: [[String: String]] = []
    var lastDeviceBytes: [UInt8] = []
    var lastDevice = -1
    /// Per device: stream index of its accelerometer, rotation rate, PPG accelerometer and PPG
    /// temperature streams (−1: none yet).
    var motionStreams: [[Int]] = []

    struct ECGKey: Hashable { var device: Int; var session: Int }
    struct OpticalKey: Hashable { var device: Int; var emitter: Int64; var photodiodes: UInt64; var signal: Int64 }
    var sessions: [String: Int] = [:]
    var ecgStreams: [ECGKey: Int] = [:]
    var opticalStreams: [OpticalKey: Int] = [:]
    var accelerometerDuplicates: DuplicateWindow
    var rotationDuplicates: DuplicateWindow
    var ecgDuplicates: DuplicateWindow
    /// PPG samples (`SRPhotoplethysmogramSample`) by device, `startDate` and
    /// `nanosecondsSinceStart`: a repeated one is dropped whole, its samples counted per stream.
    var ppgDuplicates: DuplicateWindow
    var duplicateReported: Set<Int> = []
    var leadChangeReported: Set<Int> = []

    /// What `stream` lines declared, by (device, sensor, reference), until the stream appears.
    struct DeclaredKey: Hashable { var device: Int; var sensor: SensorKind; var reference: String }
    var declared: [DeclaredKey: SensorKitStreamLine] = [:]

    var deletions: [DeletionRecord] = []
    var headerDeviceID: String?
    var headerSensor: String?

    // Counters.
    var unknownFields = 0
    var unknownLineTypes = 0
    var blankLines = 0
    var rejectedRecords = 0
    var rejectedWithoutStream = 0
    var seenUnknownTypes: Set<String> = []

    init(path: String, blockCapacity: Int, duplicateWindow: Int) {
        self.path = path
        self.blockCapacity = blockCapacity
        accelerometerDuplicates = DuplicateWindow(capacity: duplicateWindow)
        rotationDuplicates = DuplicateWindow(capacity: duplicateWindow)
        ecgDuplicates = DuplicateWindow(capacity: duplicateWindow)
        ppgDuplicates = DuplicateWindow(capacity: duplicateWindow)
    }

    func error(_ e: ScanError, _ s: JSONScanner, _ place: RecordPlace) -> RecordingError {
        let (line, column) = place.locate(e.offset, in: s)
        return RecordingError(e.code, file: path, line: line, column: column, e.message)
    }

    // MARK: - Devices and streams

    /// Index of the device named by `range` of the record (cached for the common one-device file).
    mutating func device(_ s: JSONScanner, _ range: (start: Int, length: Int, escaped: Bool)) -> Int {
        if !range.escaped && lastDevice >= 0 && range.length == lastDeviceBytes.count
            && lastDeviceBytes.withUnsafeBytes({ memcmp($0.baseAddress!, s.base + range.start, range.length) }) == 0
        {
            return lastDevice
        }
        let id = s.decodeString(start: range.start, length: range.length, escaped: range.escaped)
        let d = device(named: id)
        if !range.escaped {
            lastDeviceBytes = Array(UnsafeBufferPointer(start: s.base + range.start, count: range.length))
            lastDevice = d
        }
        return d
    }

    mutating func device(named id: String) -> Int {
        if let d = deviceLookup[id] { return d }
        let d = deviceIDs.count
        deviceIDs.append(id)
        deviceLookup[id] = d
        deviceAnnounced.append(false)
        deviceAttributes.append([:])
        motionStreams.append([-1, -1, -1, -1])
        return d
    }

    /// Emits a full device description (a `device` line).
    mutating func announce(_ info: DeviceInfo) {
        let d = device(named: info.id)
        deviceAnnounced[d] = true
        deviceAttributes[d] = StreamAttribute.deviceAttributes(of: info)
        events.append(.device(info))
    }

    /// Registers and announces a stream (and its device if not yet announced). A `stream` line
    /// declared for it (by its reference: the ECG session identifier, else the channel the
    /// data lines give) sets its channel, session, time origin and attributes; otherwise it
    /// gets its device's attributes (`device_model`, …) when a `device` line came before it.
    mutating func addStream(_ stream: StreamInfo, device d: Int, uniform: Bool) -> Int {
        if !deviceAnnounced[d] {
            deviceAnnounced[d] = true
            events.append(.device(DeviceInfo(id: deviceIDs[d])))
        }
        var info = stream
        let reference = info.key.sensor == .electrocardiogram ? info.key.session ?? "" : info.key.channel
        if let line = declared.removeValue(forKey: DeclaredKey(device: d, sensor: info.key.sensor, reference: reference)) {
            info.key.channel = line.channel
            info.key.session = line.session
            info.timeOrigin = line.timeOrigin
            if let rate = line.nominalSampleRate { info.nominalSampleRate = rate }
            info.attributes = line.attributes
        } else {
            info.attributes.merge(deviceAttributes[d]) { own, _ in own }
        }
        let k = streams.count
        streams.append(info)
        streamIndex[info.key] = k
        assemblers.append(
            StreamAssembler(
                stream: k, columnCount: info.columns.count, uniform: uniform,
                blockCapacity: blockCapacity))
        events.append(.stream(index: streams.count - 1, info: info))
        return k
    }

    static let motionChannels: [(SensorKind, String, PhysicalUnit, StreamRole)] = [
        (.accelerometer, "acceleration", .standardGravity, .signal),
        (.rotationRate, "rotationRate", .radiansPerSecond, .signal),
        (.photoplethysmogram, "accelerometer", .standardGravity, .embeddedAccelerometer),
        (.photoplethysmogram, "temperature", .degreesCelsius, .temperature),
    ]

    /// Stream of a device's accelerometer (0), rotation rate (1), PPG accelerometer (2) or PPG
    /// temperature (3).
    @inline(__always)
    mutating func motionStream(_ which: Int, device d: Int, rate: Double? = nil) -> Int {
        let k = motionStreams[d][which]
        if k >= 0 { return k }
        let (sensor, channel, unit, role) = Self.motionChannels[which]
        let columns =
            which == 3
            ? [ColumnInfo(name: "temperature", unit: unit)]
            : ["x", "y", "z"].map { ColumnInfo(name: $0, unit: unit) }
        var attributes: [String: String] = [:]
        if which == 3 { attributes["time"] = "startDate + nanosecondsSinceStart of the PPG sample" }
        if which == 2 { attributes["time"] = "startDate + nanosecondsSinceStart of the accelerometer sample" }
        let info = StreamInfo(
            key: StreamKey(deviceID: deviceIDs[d], sensor: sensor, channel: channel),
            columns: columns, nominalSampleRate: rate, attributes: attributes, role: role)
        let n = addStream(info, device: d, uniform: false)
        motionStreams[d][which] = n
        return n
    }

    mutating func session(_ id: String) -> Int {
        if let k = sessions[id] { return k }
        let k = sessions.count
        sessions[id] = k
        return k
    }

    mutating func ecgStream(device d: Int, session id: String, batch b: StagedECGBatch) -> Int {
        let key = ECGKey(device: d, session: session(id))
        if let k = ecgStreams[key] { return k }
        var attributes: [String: String] = [:]
        if b.lead >= 0 { attributes["lead"] = SensorKitEnum.lead.name(b.lead) }
        if b.guidance >= 0 { attributes["sessionGuidance"] = SensorKitEnum.sessionGuidance.name(b.guidance) }
        let info = StreamInfo(
            key: StreamKey(
                deviceID: deviceIDs[d], sensor: .electrocardiogram, channel: "ecg",
                session: id),
            columns: [ColumnInfo(name: "value", unit: .microvolts)],
            nominalSampleRate: b.frequency.isNaN ? nil : b.frequency, attributes: attributes)
        let k = addStream(info, device: d, uniform: true)
        ecgStreams[key] = k
        return k
    }

    static func photodiodeList(_ mask: UInt64) -> String {
        (0..<64).filter { mask & (1 << UInt64($0)) != 0 }.map(String.init).joined(separator: ",")
    }

    static let opticalColumns = [
        "normalizedReflectance", "whiteNoise", "pinkNoise", "backgroundNoise",
        "backgroundNoiseOffset",
    ].map { ColumnInfo(name: $0, unit: .dimensionless) }

    mutating func opticalStream(device d: Int, _ o: StagedOpticalSample, usage: UInt8) -> Int {
        let key = OpticalKey(device: d, emitter: o.emitter, photodiodes: o.photodiodes, signal: o.signalIdentifier)
        if let k = opticalStreams[key] { return k }
        let pd = Self.photodiodeList(o.photodiodes)
        var attributes = [
            "emitter": "\(o.emitter)", "activePhotodiodeIndexes": pd,
            "signalIdentifier": "\(o.signalIdentifier)",
            "time": "startDate + nanosecondsSinceStart of the optical sample",
        ]
        if !o.nominalWavelength.isNaN { attributes["nominalWavelength"] = "\(o.nominalWavelength)" }
        if !o.effectiveWavelength.isNaN { attributes["effectiveWavelength"] = "\(o.effectiveWavelength)" }
        if usage != 0 {
            attributes["usage"] = (0..<4).filter { usage & (1 << UInt8($0)) != 0 }
                .map { SensorKitEnum.usage.name($0) }.joined(separator: ",")
        }
        let info = StreamInfo(
            key: StreamKey(
                deviceID: deviceIDs[d], sensor: .photoplethysmogram,
                channel: "optical/e\(o.emitter)/pd\(pd)/s\(o.signalIdentifier)"),
            columns: Self.opticalColumns,
            nominalSampleRate: o.samplingFrequency.isNaN ? nil : o.samplingFrequency,
            attributes: attributes)
        let k = addStream(info, device: d, uniform: false)
        opticalStreams[key] = k
        return k
    }

    // MARK: - Committing a parsed record

    mutating func reportDuplicate(_ k: Int, at place: RecordPlace) {
        if duplicateReported.insert(k).inserted {
            events.append(
                .issue(
                    RecordingError(
                        .duplicate, file: path, line: place.line,
                        "exact duplicate sample(s) of stream \(streams[k].key) dropped (first occurrence; further duplicates are only counted)"
                    )))
        }
    }

    /// Moves a successfully parsed record's samples into their streams.
    mutating func commit(_ p: inout SensorKitRecordParser, device d: Int, place: RecordPlace) throws(RecordingError) {
        guard let type = p.type else { return }
        switch type {
        case .accelerometer, .rotationRate:
            let rotation = type == .rotationRate
            let k = motionStream(rotation ? 1 : 0, device: d)
            let n = p.motion.count
            var duplicates = 0
            withUnsafeTemporaryAllocation(of: Float.self, capacity: 3) { v in
                let values = UnsafeBufferPointer(v)
                for m in p.motion {
                    let key = DuplicateWindow.Key(a: UInt64(d), b: rotation ? 0 : m.identifier, c: m.time.bitPattern)
                    let fresh =
                        rotation
                        ? rotationDuplicates.insert(key, time: m.time)
                        : accelerometerDuplicates.insert(key, time: m.time)
                    guard fresh else { duplicates += 1; continue }
                    v[0] = m.x; v[1] = m.y; v[2] = m.z
                    assemblers[k].append(time: m.time, values: values, flags: [], declaredRate: 0, into: &events)
                }
            }
            assemblers[k].qc.samplesRead += n
            assemblers[k].qc.duplicatesDropped += duplicates
            if duplicates > 0 { reportDuplicate(k, at: place) }
        case .electrocardiogram:
            for b in p.ecgBatches where b.count > 0 {
                let k = ecgStream(device: d, session: b.session!, batch: b)
                assemblers[k].qc.samplesRead += b.count
                if b.lead >= 0, let lead = streams[k].attributes["lead"], lead != SensorKitEnum.lead.name(b.lead),
                    leadChangeReported.insert(k).inserted
                {
                    events.append(
                        .issue(
                            RecordingError(
                                .inconsistent, file: path, line: place.line,
                                "lead changes from \(lead) to \(SensorKitEnum.lead.name(b.lead)) within session \(b.session!); the stream keeps attribute lead=\(lead)"
                            )))
                }
                let key = DuplicateWindow.Key(a: UInt64(session(b.session!)), b: b.date.bitPattern, c: 0)
                guard ecgDuplicates.insert(key, time: b.date) else {
                    assemblers[k].qc.duplicatesDropped += b.count
                    reportDuplicate(k, at: place)
                    continue
                }
                p.ecgValues.withUnsafeBufferPointer { vb in
                    p.ecgFlags.withUnsafeBufferPointer { fb in
                        assemblers[k].appendRun(
                            start: b.date, sampleRate: b.frequency,
                            columns: [UnsafeBufferPointer(rebasing: vb[b.start..<b.start + b.count])],
                            flags: UnsafeBufferPointer(rebasing: fb[b.start..<b.start + b.count]),
                            into: &events)
                    }
                }
            }
        case .photoplethysmogram:
            withUnsafeTemporaryAllocation(of: Float.self, capacity: 5) { v in
                for parent in p.ppg {
                    // The key names the sample's content too (its optical channels and readings, its
                    // accelerometer readings): two recordings (sessions) starting at the same time on
                    // one device, or two samples split from one, are distinct, not repeats.
                    var channels: UInt64 = 0xcbf2_9ce4_8422_2325 // FNV-1a over the children
                    func mix(_ v: UInt64) { channels = (channels ^ v) &* 0x100_0000_01b3 }
                    for j in parent.opticalStart..<parent.opticalStart + parent.opticalCount {
                        let o = p.optical[j]
                        mix(UInt64(bitPattern: o.emitter))
                        mix(o.photodiodes)
                        mix(UInt64(bitPattern: o.signalIdentifier))
                        mix(UInt64(bitPattern: o.nanosecondsSinceStart))
                        mix(o.normalizedReflectance.bitPattern)
                    }
                    for j in parent.accelerometerStart..<parent.accelerometerStart + parent.accelerometerCount {
                        let a = p.ppgAccelerometer[j]
                        mix(UInt64(bitPattern: a.nanosecondsSinceStart))
                        mix(UInt64(a.x.bitPattern) | UInt64(a.y.bitPattern) << 32)
                        mix(UInt64(a.z.bitPattern))
                    }
                    let key = DuplicateWindow.Key(
                        a: UInt64(d) ^ (channels << 24), b: parent.startDate.bitPattern,
                        c: UInt64(bitPattern: parent.nanosecondsSinceStart))
                    guard ppgDuplicates.insert(key, time: parent.startDate) else {
                        // An exact repeat of an earlier PPG sample (an exporter repeating a
                        // result): every sample of it is read and dropped as a duplicate.
                        var counted: [Int] = []
                        if parent.temperatureState != 0 { counted.append(motionStream(3, device: d)) }
                        for j in parent.opticalStart..<parent.opticalStart + parent.opticalCount {
                            counted.append(opticalStream(device: d, p.optical[j], usage: parent.usage))
                        }
                        for j in parent.accelerometerStart..<parent.accelerometerStart + parent.accelerometerCount {
                            counted.append(motionStream(2, device: d, rate: p.ppgAccelerometer[j].samplingFrequency))
                        }
                        for k in counted {
                            assemblers[k].qc.samplesRead += 1
                            assemblers[k].qc.duplicatesDropped += 1
                            reportDuplicate(k, at: place)
                        }
                        continue
                    }
                    if parent.temperatureState != 0 {
                        let k = motionStream(3, device: d)
                        let t = parent.startDate + Double(parent.nanosecondsSinceStart) / 1e9
                        let missing = parent.temperatureState == 1
                        v[0] = missing ? .nan : Float(parent.temperature)
                        assemblers[k].qc.samplesRead += 1
                        assemblers[k].append(
                            time: t, values: UnsafeBufferPointer(rebasing: v[0..<1]),
                            flags: missing ? .missing : [], declaredRate: 0, into: &events)
                    }
                    for j in parent.opticalStart..<parent.opticalStart + parent.opticalCount {
                        let o = p.optical[j]
                        let k = opticalStream(device: d, o, usage: parent.usage)
                        let t = parent.startDate + Double(o.nanosecondsSinceStart) / 1e9
                        v[0] = Float(o.normalizedReflectance)
                        v[1] = Float(o.noise.0); v[2] = Float(o.noise.1); v[3] = Float(o.noise.2); v[4] = Float(o.noise.3)
                        assemblers[k].qc.samplesRead += 1
                        assemblers[k].append(
                            time: t, values: UnsafeBufferPointer(v), flags: SampleFlags(rawValue: o.flags),
                            declaredRate: o.samplingFrequency, into: &events)
                    }
                    for j in parent.accelerometerStart..<parent.accelerometerStart + parent.accelerometerCount {
                        let a = p.ppgAccelerometer[j]
                        let k = motionStream(2, device: d, rate: a.samplingFrequency)
                        let t = parent.startDate + Double(a.nanosecondsSinceStart) / 1e9
                        v[0] = a.x; v[1] = a.y; v[2] = a.z
                        assemblers[k].qc.samplesRead += 1
                        assemblers[k].append(
                            time: t, values: UnsafeBufferPointer(rebasing: v[0..<3]), flags: [],
                            declaredRate: a.samplingFrequency, into: &events)
                    }
                }
            }
        case .deletionRecord:
            guard let staged = p.deletion else { return }
            guard let name = p.deletionSensor, let sensor = SensorKind(rawValue: name) else {
                throw RecordingError(
                    .outOfRange, file: path, line: place.line,
                    "unknown sensor \"\(p.deletionSensor ?? "")\" in a deletion record (expected "
                        + SensorKind.allCases.map(\.rawValue).joined(separator: ", ") + ")")
            }
            let record = DeletionRecord(
                deviceID: deviceIDs[d], sensor: sensor, startUnix: staged.startUnix,
                endUnix: staged.endUnix, startRaw: staged.startRaw, endRaw: staged.endRaw,
                reason: DeletionReason(rawInteger: staged.reason)!)
            deletions.append(record)
            events.append(.deletion(record))
        default:
            break
        }
    }

    /// Counts the samples of a rejected record in their streams (announcing a stream if needed):
    /// those parsed before the error and those after it that are complete JSON values (counted
    /// structurally by the parser); samples of no known stream go to ``rejectedWithoutStream``.
    mutating func reject(_ p: inout SensorKitRecordParser, device d: Int?) {
        rejectedRecords += 1
        guard let type = p.type, let d else {
            rejectedWithoutStream +=
                p.stagedSampleCount + p.unparsedSamples
                + p.ecgBatches.reduce(0) { $0 + $1.unparsed }
            return
        }
        func count(_ k: Int, _ n: Int) {
            assemblers[k].qc.samplesRead += n
            assemblers[k].qc.rejected += n
        }
        switch type {
        case .accelerometer, .rotationRate:
            let n = p.motion.count + p.unparsedSamples
            if n > 0 { count(motionStream(type == .rotationRate ? 1 : 0, device: d), n) }
        case .electrocardiogram:
            for (j, b) in p.ecgBatches.enumerated() {
                let end = j + 1 < p.ecgBatches.count ? p.ecgBatches[j + 1].start : p.ecgValues.count
                let n = end - b.start + b.unparsed
                guard n > 0 else { continue }
                if let id = b.session {
                    count(ecgStream(device: d, session: id, batch: b), n)
                } else {
                    rejectedWithoutStream += n
                }
            }
            rejectedWithoutStream += p.unparsedSamples
        case .photoplethysmogram:
            rejectedWithoutStream += p.unparsedSamples // their optical streams are not read
            for parent in p.ppg where parent.temperatureState != 0 { count(motionStream(3, device: d), 1) }
            for o in p.optical { count(opticalStream(device: d, o, usage: 0), 1) }
            if let a = p.ppgAccelerometer.first {
                count(
                    motionStream(2, device: d, rate: a.samplingFrequency.isNaN ? nil : a.samplingFrequency),
                    p.ppgAccelerometer.count)
            }
        default:
            break
        }
    }

    /// Flushes every stream and books the deletion records into the QC accounts.
    mutating func finish() {
        for k in assemblers.indices { assemblers[k].finish(into: &events) }
        for r in deletions {
            for (k, info) in streams.enumerated() where info.key.deviceID == r.deviceID && info.key.sensor == r.sensor {
                assemblers[k].qc.deletedSpans += 1
                assemblers[k].qc.deletedSeconds += r.durationSeconds
            }
        }
    }
}

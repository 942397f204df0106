#if canImport(Glibc)
    import Glibc
#endif

/// Writes decoded streams back to canonical SensorKit export schema v1 NDJSON (`docs/SCHEMA.md`),
/// optionally gzip-compressed (RFC 1952, zlib deflate), for `sensorpipe convert`.
///
/// Feed it the events of a decoder in order (``write(_:)``), then call ``finish()``. Output:
/// a `header` line (sensor and device of the first stream), `device` lines, data lines and
/// `deletionRecord` lines. Numbers are printed with Swift's shortest round-trip `description`,
/// so decoding the output gives bit-identical values and times:
/// - accelerometer / rotation rate: up to 100 samples per line, `startDate` = the sample's time,
///   `identifier` = a running sample number per stream (the original batch identifiers are not
///   kept by the decoder);
/// - ECG: one `SRElectrocardiogramSample` batch of up to 512 values per line, `date` = the
///   segment's grid time of its first value (so a segment's first batch starts exactly at the
///   segment start), `session.state` written as `active`;
/// - PPG: one `SRPhotoplethysmogramSample` per sample with `startDate` = its time and
///   `nanosecondsSinceStart` = 0, one optical sample, PPG-accelerometer sample or temperature
///   each, up to 64 per line; `samplingFrequency` is the stream's declared (nominal) rate.
///
/// Each stream is preceded by a `stream` line (SensorPipe's extension of the schema,
/// ``SensorKitStreamLine``, `docs/SCHEMA.md`) with its key, ``StreamInfo/timeOrigin`` and
/// attributes, so reading the output back gives the source's stream keys
/// (``StreamKey/description``), time origin and attributes: a WFDB record without a base date
/// stays `stream_start`, an ECG lead `MLII` keeps its channel. Times are written as they are
/// (seconds from the start for `stream_start`), so a reader that ignores `stream` lines sees
/// them near 1970.
///
/// Limitations: only streams of the SensorKit sensors can be written; ECG streams need a uniform
/// time base; a change of declared rate inside an explicit-time PPG stream is written with the
/// stream's nominal rate; a PPG stream from another source with several columns comes back as
/// one stream per column (keyed `<channel>/<column>`); two streams of one device and sensor
/// that SensorKit cannot tell apart (two accelerometer streams, two PPG `accelerometer`
/// channels) come back merged.
public final class SensorKitWriter {
    /// `SRElectrocardiogramSample.Lead` case names.
    static let sensorKitLeads: Set<String> = ["rightArmMinusLeftArm", "leftArmMinusRightArm"]

    /// Output path.
    public let path: String
    /// Whether the output is gzip-compressed.
    public let compressed: Bool
    /// `exporter` written in the header.
    public let exporter: String

    private let file: OutputFile
    private var headerWritten = false
    private var early: [[UInt8]] = [] // lines seen before the header could be written
    private var headerDevice: String?
    private var streams: [StreamInfo] = []
    private var sequence: [UInt64] = []
    /// Per stream: the `signalIdentifier` of its first column, for PPG streams from other sources
    /// (each column is its own optical channel, numbered across the file so none collide).
    private var opticalIdentifier: [Int] = []
    private var nextOpticalIdentifier = 1
    private var finished = false

    /// Creates (truncates) `path`.
    /// - Parameters:
    ///   - path: output file (`.ndjson` or `.ndjson.gz`).
    ///   - compress: gzip the output (default: whether `path` ends in `.gz`).
    ///   - exporter: the header's `exporter` (default `"sensorpipe"`).
    /// - Throws: ``RecordingError`` `.unreadable` if the file cannot be created.
    /// - Complexity: O(1).
    public init(path: String, compress: Bool? = nil, exporter: String = "sensorpipe") throws(RecordingError) {
        self.path = path
        file = try OutputFile(path: path, compress: compress)
        self.compressed = file.compressed
        self.exporter = exporter
    }

    // MARK: - Events

    /// Writes one decoder event.
    /// - Parameter event: the next event of a decoder (issues are ignored).
    /// - Throws: ``RecordingError`` for I/O errors, or `.inconsistent` for a stream this schema
    ///   cannot hold.
    /// - Complexity: O(samples in the event).
    public func write(_ event: RecordingEvent) throws(RecordingError) {
        precondition(!finished, "write after finish")
        switch event {
        case .device(let info):
            if headerDevice == nil { headerDevice = info.id }
            var line = Line()
            line.raw("{\"type\":\"device\",\"deviceId\":"); line.string(info.id)
            for (name, value) in [
                ("name", info.name), ("model", info.model), ("systemName", info.systemName),
                ("systemVersion", info.systemVersion), ("productType", info.productType),
            ] {
                if let value { line.raw(",\"\(name)\":"); line.string(value) }
            }
            line.raw("}\n")
            try emit(line.bytes)
        case .stream(_, let info):
            switch (info.key.sensor, info.key.channel) {
            case (.heartbeat, _), (.healthRecord, _):
                throw RecordingError(
                    .inconsistent, file: path,
                    "stream \(info.key): SensorKit NDJSON has no \(info.key.sensor) streams (Apple Health records and beat lists); not convertible"
                )
            case (.accelerometer, _), (.rotationRate, _), (.photoplethysmogram, "accelerometer"):
                guard info.columns.count == 3 else {
                    throw RecordingError(.inconsistent, file: path, "stream \(info.key) needs 3 columns (x, y, z)")
                }
            case (.photoplethysmogram, "temperature"), (.electrocardiogram, _):
                guard info.columns.count == 1 else {
                    throw RecordingError(.inconsistent, file: path, "stream \(info.key) needs 1 column")
                }
            case (.photoplethysmogram, _):
                // Streams from other sources (SPC 2015 .mat, CSV) lack the optical channel's
                // identity: each of their columns is written as its own optical channel.
                guard info.columns.count >= 1, info.nominalSampleRate != nil else {
                    throw RecordingError(
                        .inconsistent, file: path,
                        "PPG stream \(info.key) needs at least one column and a nominal rate")
                }
            }
            streams.append(info)
            sequence.append(0)
            opticalIdentifier.append(0)
            if !headerWritten { try writeHeader(sensor: info.key.sensor.rawValue, device: info.key.deviceID) }
            try writeStreamLines(streams.count - 1)
        case .block(let block):
            try writeBlock(block)
        case .deletion(let r):
            var line = Line()
            line.raw("{\"type\":\"deletionRecord\",\"deviceId\":"); line.string(r.deviceID)
            line.raw(",\"sensor\":"); line.string(r.sensor.rawValue)
            line.raw(",\"sample\":{")
            if let s = r.startRaw { line.raw("\"startTime\":"); line.number(s); line.raw(",") }
            if let e = r.endRaw { line.raw("\"endTime\":"); line.number(e); line.raw(",") }
            line.raw("\"startTimeUnix\":"); line.number(r.startUnix)
            line.raw(",\"endTimeUnix\":"); line.number(r.endUnix)
            line.raw(",\"reason\":"); line.string(r.reason.rawValue)
            line.raw("}}\n")
            try emit(line.bytes)
        case .issue, .annotation:
            break // SensorKit NDJSON has no line for either
        }
    }

    /// Writes the header (if no stream was seen), flushes and closes the file.
    /// - Throws: ``RecordingError`` for I/O errors.
    /// - Complexity: O(bytes still buffered).
    public func finish() throws(RecordingError) {
        guard !finished else { return }
        if !headerWritten { try writeHeader(sensor: streams.first?.key.sensor.rawValue ?? "unknown", device: headerDevice ?? "unknown") }
        finished = true
        try file.finish()
    }

    // MARK: - Lines

    /// The ECG `session.identifier` written for a stream: its session when its channel is the
    /// SensorKit one (`ecg`), else the whole key (unique per stream; e.g. `100/MLII` for a WFDB
    /// lead, kept as `device/channel` when there is no session).
    static func sessionIdentifier(_ key: StreamKey) -> String {
        if key.channel == "ecg", let session = key.session { return session }
        return key.session == nil ? "\(key.deviceID)/\(key.channel)" : key.description
    }

    /// Whether a PPG stream is a SensorKit optical channel (it knows its emitter and signal).
    static func isNativeOptical(_ info: StreamInfo) -> Bool {
        info.attributes["emitter"] != nil && info.attributes["signalIdentifier"] != nil
    }

    /// The `stream` line(s) of stream `k` (``SensorKitStreamLine``): its key, time origin and
    /// attributes, tied to the data lines by the reference the decoder derives from them. A PPG
    /// stream from another source with several columns becomes one optical channel per column,
    /// each keyed `<channel>/<column>` (its key cannot survive: SensorKit has one value per
    /// optical channel).
    private func writeStreamLines(_ k: Int) throws(RecordingError) {
        let info = streams[k]
        var lines: [(reference: String, key: StreamKey, attributes: [String: String])] = []
        switch (info.key.sensor, info.key.channel) {
        case (.accelerometer, _): lines = [("acceleration", info.key, info.attributes)]
        case (.rotationRate, _): lines = [("rotationRate", info.key, info.attributes)]
        case (.photoplethysmogram, "accelerometer"), (.photoplethysmogram, "temperature"):
            lines = [(info.key.channel, info.key, info.attributes)]
        case (.electrocardiogram, _): lines = [(Self.sessionIdentifier(info.key), info.key, info.attributes)]
        case (.heartbeat, _), (.healthRecord, _): lines = [] // refused when announced
        case (.photoplethysmogram, _):
            if Self.isNativeOptical(info) {
                let reference =
                    "optical/e\(info.attributes["emitter"]!)/pd\(info.attributes["activePhotodiodeIndexes"] ?? "")"
                    + "/s\(info.attributes["signalIdentifier"]!)"
                lines = [(reference, info.key, info.attributes)]
            } else {
                opticalIdentifier[k] = nextOpticalIdentifier
                nextOpticalIdentifier += info.columns.count
                for (c, column) in info.columns.enumerated() {
                    var key = info.key
                    if info.columns.count > 1 { key.channel += "/" + column.name }
                    lines.append(("optical/e0/pd/s\(opticalIdentifier[k] + c)", key, info.attributes))
                }
            }
        }
        for l in lines {
            var line = Line()
            line.raw("{\"type\":\"stream\",\"deviceId\":"); line.string(l.key.deviceID)
            line.raw(",\"sensor\":"); line.string(l.key.sensor.rawValue)
            line.raw(",\"reference\":"); line.string(l.reference)
            line.raw(",\"channel\":"); line.string(l.key.channel)
            line.raw(",\"session\":")
            if let session = l.key.session { line.string(session) } else { line.raw("null") }
            line.raw(",\"timeOrigin\":"); line.string(info.timeOrigin.rawValue)
            if let rate = info.nominalSampleRate { line.raw(",\"nominalSampleRate\":"); line.number(rate) }
            line.raw(",\"attributes\":{")
            for (n, name) in l.attributes.keys.sorted().enumerated() {
                if n > 0 { line.raw(",") }
                line.string(name); line.raw(":"); line.string(l.attributes[name]!)
            }
            line.raw("}}\n")
            try emit(line.bytes)
        }
    }

    private func writeHeader(sensor: String, device: String) throws(RecordingError) {
        var line = Line()
        line.raw("{\"type\":\"header\",\"schema\":\"sensorkit-ndjson\",\"version\":1,\"sensor\":"); line.string(sensor)
        line.raw(",\"deviceId\":"); line.string(device)
        line.raw(",\"exporter\":"); line.string(exporter)
        line.raw("}\n")
        headerWritten = true
        try file.write(line.bytes)
        for l in early { try file.write(l) }
        early = []
    }

    private func emit(_ bytes: [UInt8]) throws(RecordingError) {
        if !headerWritten { early.append(bytes); return }
        try file.write(bytes)
    }

    private func writeBlock(_ b: SampleBlock) throws(RecordingError) {
        precondition(b.stream < streams.count, "block of an unannounced stream")
        let info = streams[b.stream]
        let device = info.key.deviceID
        switch (info.key.sensor, info.key.channel) {
        case (.accelerometer, _), (.rotationRate, _):
            let rotation = info.key.sensor == .rotationRate
            var i = 0
            while i < b.count {
                let n = min(100, b.count - i)
                var line = Line()
                line.raw(rotation ? "{\"type\":\"rotationRate\",\"deviceId\":" : "{\"type\":\"accelerometer\",\"deviceId\":")
                line.string(device)
                line.raw(",\"sample\":[")
                for j in i..<i + n {
                    if j > i { line.raw(",") }
                    line.raw("{\"startDate\":"); line.number(b.time(at: j))
                    if !rotation {
                        line.raw(",\"identifier\":"); line.raw(String(sequence[b.stream]))
                        sequence[b.stream] += 1
                    }
                    line.raw(rotation ? ",\"rotationRate\":{\"x\":" : ",\"acceleration\":{\"x\":")
                    line.number(b.columns[0][j]); line.raw(",\"y\":"); line.number(b.columns[1][j])
                    line.raw(",\"z\":"); line.number(b.columns[2][j]); line.raw("}}")
                }
                line.raw("]}\n")
                try emit(line.bytes)
                i += n
            }
        case (.electrocardiogram, _):
            guard case .uniform(_, let rate) = b.time else {
                throw RecordingError(.inconsistent, file: path, "ECG stream \(info.key) has no uniform time base")
            }
            var i = 0
            while i < b.count {
                let n = min(512, b.count - i)
                var line = Line()
                line.raw("{\"type\":\"electrocardiogram\",\"deviceId\":"); line.string(device)
                line.raw(",\"sample\":[{\"date\":"); line.number(b.time(at: i))
                line.raw(",\"frequency\":"); line.number(rate)
                // Only SensorKit's lead names are valid here; other sources' lead names (WFDB "MLII")
                // live on in the session identifier, which keeps each stream distinct.
                if let lead = info.attributes["lead"], Self.sensorKitLeads.contains(lead) {
                    line.raw(",\"lead\":"); line.string(lead)
                }
                line.raw(",\"session\":{\"identifier\":")
                line.string(Self.sessionIdentifier(info.key))
                line.raw(",\"state\":\"active\"")
                if let g = info.attributes["sessionGuidance"] { line.raw(",\"sessionGuidance\":"); line.string(g) }
                line.raw("},\"data\":[")
                for j in i..<i + n {
                    if j > i { line.raw(",") }
                    line.raw("{\"value\":"); line.number(b.columns[0][j])
                    line.raw(",\"flags\":"); line.raw(String(b.flags[j] & 3)); line.raw("}")
                }
                line.raw("]}]}\n")
                try emit(line.bytes)
                i += n
            }
        case (.heartbeat, _), (.healthRecord, _):
            break // refused when announced
        case (.photoplethysmogram, let channel):
            var i = 0
            let rate = info.nominalSampleRate ?? 0
            while i < b.count {
                let n = min(64, b.count - i)
                var line = Line()
                line.raw("{\"type\":\"photoplethysmogram\",\"deviceId\":"); line.string(device)
                line.raw(",\"sample\":[")
                for j in i..<i + n {
                    if j > i { line.raw(",") }
                    line.raw("{\"startDate\":"); line.number(b.time(at: j)); line.raw(",\"nanosecondsSinceStart\":0")
                    let flags = SampleFlags(rawValue: b.flags[j])
                    if channel == "temperature" {
                        line.raw(",\"temperature\":")
                        if flags.contains(.missing) { line.raw("null") } else { line.number(b.columns[0][j]) }
                    } else if channel == "accelerometer" {
                        line.raw(",\"accelerometerSamples\":[{\"nanosecondsSinceStart\":0,\"samplingFrequency\":")
                        line.number(rate)
                        line.raw(",\"x\":"); line.number(b.columns[0][j]); line.raw(",\"y\":"); line.number(b.columns[1][j])
                        line.raw(",\"z\":"); line.number(b.columns[2][j]); line.raw("}]")
                    } else {
                        if let usage = info.attributes["usage"], !usage.isEmpty {
                            line.raw(",\"usage\":[")
                            for (k, u) in usage.split(separator: ",").enumerated() {
                                if k > 0 { line.raw(",") }
                                line.string(String(u))
                            }
                            line.raw("]")
                        }
                        line.raw(",\"opticalSamples\":[")
                        let native = Self.isNativeOptical(info)
                        for c in 0..<(native ? 1 : b.columns.count) {
                            if c > 0 { line.raw(",") }
                            line.raw("{\"emitter\":"); line.raw(native ? info.attributes["emitter"]! : "0")
                            line.raw(",\"activePhotodiodeIndexes\":[")
                            line.raw(native ? info.attributes["activePhotodiodeIndexes"] ?? "" : "")
                            line.raw("],\"signalIdentifier\":")
                            line.raw(native ? info.attributes["signalIdentifier"]! : String(opticalIdentifier[b.stream] + c))
                            if let w = info.attributes["nominalWavelength"] ?? info.attributes["wavelengthNanometres"],
                                Double(w) != nil
                            {
                                line.raw(",\"nominalWavelength\":"); line.raw(w)
                            }
                            if let w = info.attributes["effectiveWavelength"] { line.raw(",\"effectiveWavelength\":"); line.raw(w) }
                            line.raw(",\"samplingFrequency\":"); line.number(rate)
                            line.raw(",\"nanosecondsSinceStart\":0,\"normalizedReflectance\":")
                            if flags.contains(.missing) || b.columns[c][j].isNaN { line.raw("null") } else { line.number(b.columns[c][j]) }
                            if native && b.columns.count >= 5 {
                                let noise = (1...4).map { b.columns[$0][j] }
                                if noise.allSatisfy(\.isNaN) {
                                    line.raw(",\"noiseTerms\":null")
                                } else {
                                    line.raw(",\"noiseTerms\":{")
                                    for (k, name) in ["whiteNoise", "pinkNoise", "backgroundNoise", "backgroundNoiseOffset"].enumerated() {
                                        if k > 0 { line.raw(",") }
                                        line.raw("\"\(name)\":")
                                        if noise[k].isNaN { line.raw("null") } else { line.number(noise[k]) }
                                    }
                                    line.raw("}")
                                }
                            }
                            line.raw(",\"conditions\":[")
                            var first = true
                            if flags.contains(.saturated) { line.raw("\"signalSaturation\""); first = false }
                            if flags.contains(.unreliableNoise) { line.raw(first ? "\"unreliableNoise\"" : ",\"unreliableNoise\"") }
                            line.raw("]}")
                        }
                        line.raw("]")
                    }
                    line.raw("}")
                }
                line.raw("]}\n")
                try emit(line.bytes)
                i += n
            }
        }
    }
}

/// A line under construction: bytes with JSON-escaped strings and shortest round-trip numbers.
private struct Line {
    var bytes: [UInt8] = []

    mutating func raw(_ s: String) { bytes.append(contentsOf: s.utf8) }

    /// A double, shortest round-trip (`description`); `null` for non-finite values (not JSON).
    mutating func number(_ v: Double) {
        if v.isFinite { raw(v.description) } else { raw("null") }
    }

    /// A float column value, shortest round-trip for `Float` (decoded back through `Double`).
    mutating func number(_ v: Float) {
        if v.isFinite { raw(v.description) } else { raw("null") }
    }

    /// A JSON string (RFC 8259 §7 escaping).
    mutating func string(_ s: String) {
        bytes.append(UInt8(ascii: "\""))
        for c in s.utf8 {
            switch c {
            case UInt8(ascii: "\""): raw("\\\"")
            case UInt8(ascii: "\\"): raw("\\\\")
            case 0x0A: raw("\\n")
            case 0x0D: raw("\\r")
            case 0x09: raw("\\t")
            case 0..<0x20:
                let hex = String(c, radix: 16)
                raw("\\u" + String(repeating: "0", count: 4 - hex.count) + hex)
            default: bytes.append(c)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}

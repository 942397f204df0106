#if canImport(Glibc)
    import Glibc
#endif

/// The kinds of SensorKit result lines (the schema's `type`).
enum SensorKitLineType: Equatable {
    case header, device, accelerometer, rotationRate, electrocardiogram, photoplethysmogram, deletionRecord
    /// SensorPipe's `stream` line (``SensorKitStreamLine``).
    case stream
    case unknown(String)

    var name: String {
        switch self {
        case .header: "header"
        case .device: "device"
        case .accelerometer: "accelerometer"
        case .rotationRate: "rotationRate"
        case .electrocardiogram: "electrocardiogram"
        case .photoplethysmogram: "photoplethysmogram"
        case .deletionRecord: "deletionRecord"
        case .stream: "stream"
        case .unknown(let s): s
        }
    }

    var sensor: SensorKind? {
        switch self {
        case .accelerometer: .accelerometer
        case .rotationRate: .rotationRate
        case .electrocardiogram: .electrocardiogram
        case .photoplethysmogram: .photoplethysmogram
        default: nil
        }
    }
}

/// One accelerometer or rotation-rate sample staged from a line.
struct StagedMotionSample {
    var time: Double
    var identifier: UInt64
    var x: Float, y: Float, z: Float
}

/// One ECG batch (`SRElectrocardiogramSample`) staged from a line.
struct StagedECGBatch {
    var date = Double.nan
    var frequency = Double.nan
    var frequencyOffset = 0
    var lead = -1
    var session: String?
    var state = -1
    var guidance = -1
    /// Range of its values in ``SensorKitRecordParser/ecgValues``.
    var start = 0
    var count = 0
    /// Values of this batch after a parse error (counted, not staged), for the rejection count.
    var unparsed = 0
}

/// One optical sample (`SRPhotoplethysmogramOpticalSample`) staged from a line.
struct StagedOpticalSample {
    var emitter: Int64 = 0
    /// Bit set of `activePhotodiodeIndexes` (each 0…63).
    var photodiodes: UInt64 = 0
    var signalIdentifier: Int64 = 0
    var nominalWavelength = Double.nan
    var effectiveWavelength = Double.nan
    var samplingFrequency = Double.nan
    var nanosecondsSinceStart: Int64 = 0
    var normalizedReflectance = Double.nan
    var noise: (Double, Double, Double, Double) = (.nan, .nan, .nan, .nan)
    var flags: UInt8 = 0
}

/// One PPG accelerometer sample (`SRPhotoplethysmogramAccelerometerSample`) staged from a line.
struct StagedPPGAccelerometerSample {
    var nanosecondsSinceStart: Int64 = 0
    var samplingFrequency = Double.nan
    var x: Float = 0, y: Float = 0, z: Float = 0
}

/// One `SRPhotoplethysmogramSample` staged from a line; its children are ranges of the
/// parser's optical and accelerometer arrays.
struct StagedPPGSample {
    var startDate = Double.nan
    var nanosecondsSinceStart: Int64 = 0
    /// 0: `temperature` absent; 1: `null`; 2: a value.
    var temperatureState: UInt8 = 0
    var temperature = Double.nan
    var usage: UInt8 = 0
    var opticalStart = 0, opticalCount = 0
    var accelerometerStart = 0, accelerometerCount = 0
}

/// A staged deletion record.
struct StagedDeletion {
    var startRaw: Double?
    var endRaw: Double?
    var startUnix = Double.nan
    var endUnix = Double.nan
    var reason = -1
}

/// Parses one SensorKit record (an NDJSON line, or a MyDataHelps `samples` element) into
/// staging columns, validating it against the schema. Nothing reaches a stream until the whole
/// record has parsed, so a bad line is rejected as a unit.
struct SensorKitRecordParser {
    // Line-level fields.
    var type: SensorKitLineType?
    var deviceID: (start: Int, length: Int, escaped: Bool)?
    var deletionSensor: String?
    // Motion (accelerometer / rotation rate) samples.
    var motion: [StagedMotionSample] = []
    // ECG.
    var ecgBatches: [StagedECGBatch] = []
    var ecgValues: [Float] = []
    var ecgFlags: [UInt8] = []
    // PPG.
    var ppg: [StagedPPGSample] = []
    var optical: [StagedOpticalSample] = []
    var ppgAccelerometer: [StagedPPGAccelerometerSample] = []
    // Samples of a rejected record after its parse error that could be counted (complete JSON
    // values) but belong to no staged stream yet: motion samples of a motion line (their stream
    // is known), or ECG batches after the failing one (their sessions are not read).
    var unparsedSamples = 0
    // Deletion.
    var deletion: StagedDeletion?
    // Unknown fields: total and names seen for the first time in this record.
    var unknownFields = 0
    var newUnknownNames: [String] = []
    var knownUnknownNames: Set<String> = []

    /// Clears the staging of the previous record (keeping capacity).
    mutating func reset() {
        type = nil
        deviceID = nil
        deletionSensor = nil
        if !motion.isEmpty { motion.removeAll(keepingCapacity: true) }
        if !ecgBatches.isEmpty {
            ecgBatches.removeAll(keepingCapacity: true)
            ecgValues.removeAll(keepingCapacity: true)
            ecgFlags.removeAll(keepingCapacity: true)
        }
        if !ppg.isEmpty {
            ppg.removeAll(keepingCapacity: true)
            optical.removeAll(keepingCapacity: true)
            ppgAccelerometer.removeAll(keepingCapacity: true)
        }
        deletion = nil
        unparsedSamples = 0
        newUnknownNames.removeAll(keepingCapacity: true)
    }

    /// Elements of an array from `element` (the offset of an element, or of the closing `]`) to
    /// its end that are complete JSON values; counting stops at the first malformed one.
    /// - Parameter count: counts one element (default: 1 each); gets a scanner at the element.
    /// - Complexity: O(bytes scanned).
    static func countElements(
        _ s: JSONScanner, from element: Int,
        _ count: (inout JSONScanner) throws(ScanError) -> Int = { (c: inout JSONScanner) throws(ScanError) in
            try c.skipValue()
            return 1
        }
    ) -> Int {
        var c = s
        c.i = element
        c.lenient = true
        var first = true
        var n = 0
        while true {
            do {
                guard try c.nextElement(&first) else { return n }
                n += try count(&c)
            } catch {
                return n
            }
        }
    }

    /// The samples of the PPG sample object at the scanner (optical and accelerometer samples,
    /// and its temperature), skipping the object.
    static func ppgSampleCount(_ c: inout JSONScanner) throws(ScanError) -> Int {
        c.skipWhitespace()
        try c.beginObject("sample")
        var first = true
        var n = 0
        while try c.nextKey(&first) {
            if c.keyIs("opticalSamples") || c.keyIs("accelerometerSamples") {
                c.skipWhitespace()
                n += countElements(c, from: c.i + 1)
            } else if c.keyIs("temperature") {
                n += 1
            }
            try c.skipValue()
        }
        return n
    }

    /// The number of `data` elements of the ECG batch object at the scanner (skipping the object).
    static func ecgDataCount(_ c: inout JSONScanner) throws(ScanError) -> Int {
        c.skipWhitespace()
        try c.beginObject("sample")
        var first = true
        var n = 0
        while try c.nextKey(&first) {
            if c.keyIs("data") {
                c.skipWhitespace()
                n = countElements(c, from: c.i + 1) // after the '['
                try c.skipValue()
            } else {
                try c.skipValue()
            }
        }
        return n
    }

    /// Skips the value of an unknown key, counting it (and remembering its name once).
    mutating func skipUnknown(_ s: inout JSONScanner, in context: String) throws(ScanError) {
        unknownFields += 1
        let name = context + "." + s.key
        if knownUnknownNames.count < 256 && !knownUnknownNames.contains(name) {
            knownUnknownNames.insert(name)
            newUnknownNames.append(name)
        }
        try s.skipValue()
    }

    static func missing(_ field: String, in what: String, at offset: Int) -> ScanError {
        ScanError(.missingField, at: offset, "missing required field '\(field)' in \(what)")
    }

    // MARK: - Line type

    /// Reads the record's `type` wherever it is among the top-level keys, leaving the scanner
    /// at the start of the record.
    static func lineType(_ s: inout JSONScanner) throws(ScanError) -> SensorKitLineType? {
        let origin = s.i
        defer { s.i = origin }
        s.skipWhitespace()
        guard s.byte(s.i) == UInt8(ascii: "{") else {
            if s.atEnd { throw s.truncated("a JSON object") }
            throw ScanError(.syntax, at: s.i, "expected a JSON object, found \(s.found(at: s.i))")
        }
        s.i += 1
        var first = true
        while try s.nextKey(&first) {
            if s.keyIs("type") {
                let (start, n, escaped) = try s.readStringRange("type")
                if !escaped {
                    let p = UnsafeBufferPointer(start: s.base + start, count: n)
                    func eq(_ t: StaticString) -> Bool {
                        n == t.utf8CodeUnitCount && memcmp(p.baseAddress!, t.utf8Start, n) == 0
                    }
                    if eq("electrocardiogram") { return .electrocardiogram }
                    if eq("accelerometer") { return .accelerometer }
                    if eq("photoplethysmogram") { return .photoplethysmogram }
                    if eq("rotationRate") { return .rotationRate }
                    if eq("deletionRecord") { return .deletionRecord }
                    if eq("device") { return .device }
                    if eq("header") { return .header }
                    if eq("stream") { return .stream }
                }
                let name = s.decodeString(start: start, length: n, escaped: escaped)
                switch name {
                case "electrocardiogram": return .electrocardiogram
                case "accelerometer": return .accelerometer
                case "photoplethysmogram": return .photoplethysmogram
                case "rotationRate": return .rotationRate
                case "deletionRecord": return .deletionRecord
                case "device": return .device
                case "header": return .header
                case "stream": return .stream
                default: return .unknown(name)
                }
            }
            try s.skipValue()
        }
        return nil
    }

    // MARK: - Data lines

    /// Parses an NDJSON data line (`accelerometer`, `rotationRate`, `electrocardiogram`,
    /// `photoplethysmogram`, `deletionRecord`) whose type is already known.
    mutating func parseDataLine(_ s: inout JSONScanner, type t: SensorKitLineType) throws(ScanError) {
        do {
            try parseDataLineFields(&s, type: t)
        } catch {
            // An error before any sample was read (e.g. a malformed field ahead of `sample`):
            // count the line's samples structurally, so that they are rejected, not lost.
            if motion.isEmpty && ecgBatches.isEmpty && unparsedSamples == 0 {
                switch t {
                case .accelerometer, .rotationRate:
                    unparsedSamples = Self.samplesInLine(s) { (c: inout JSONScanner) throws(ScanError) in
                        try c.skipValue()
                        return 1
                    }
                case .electrocardiogram: unparsedSamples = Self.samplesInLine(s, Self.ecgDataCount)
                case .photoplethysmogram: unparsedSamples = Self.samplesInLine(s, Self.ppgSampleCount)
                default: break
                }
            }
            throw error
        }
    }

    /// The samples of a complete data line counted structurally (`perElement` counts one element
    /// of `sample`), or 0 when the line is not well-formed up to them.
    static func samplesInLine(_ s: JSONScanner, _ perElement: (inout JSONScanner) throws(ScanError) -> Int) -> Int {
        var c = s
        c.i = 0
        c.lenient = true
        do {
            try c.beginObject("line")
            var first = true
            while try c.nextKey(&first) {
                guard c.keyIs("sample") else {
                    try c.skipValue()
                    continue
                }
                c.skipWhitespace()
                guard c.i < c.count, c.base[c.i] == UInt8(ascii: "[") else { return 0 }
                return countElements(c, from: c.i + 1, perElement)
            }
        } catch {
            return 0
        }
        return 0
    }

    /// The fields of a data line (see ``parseDataLine(_:type:)``).
    private mutating func parseDataLineFields(_ s: inout JSONScanner, type t: SensorKitLineType) throws(ScanError) {
        type = t
        let context = t.name
        try s.beginObject("line")
        var first = true
        var sawSample = false
        while try s.nextKey(&first) {
            if s.keyIs("sample") {
                sawSample = true
                if t == .deletionRecord {
                    try parseDeletion(&s)
                } else {
                    try s.beginArray("sample")
                    var firstSample = true
                    // One handler for the whole array (none per element: this loop is the hot path).
                    var element = s.i
                    var batchesBefore = ecgBatches.count
                    var ppgStagedBefore = 0
                    do {
                        while try s.nextElement(&firstSample) {
                            element = s.i
                            batchesBefore = ecgBatches.count
                            ppgStagedBefore = optical.count + ppgAccelerometer.count
                            try parseSample(&s, type: t)
                        }
                    } catch {
                        // Count what follows the error, so that its samples are rejected, not lost.
                        switch t {
                        case .accelerometer, .rotationRate:
                            unparsedSamples = Self.countElements(s, from: element)
                        case .electrocardiogram:
                            // Values of the failing batch and of the complete batches after it.
                            let all = Self.countElements(s, from: element, Self.ecgDataCount)
                            var c = s
                            c.i = element
                            c.lenient = true
                            if ecgBatches.count > batchesBefore, let own = try? Self.ecgDataCount(&c) {
                                // The failing batch is staged (it has a slot): its own remainder
                                // goes to its stream, once its session is known.
                                let slot = ecgBatches.count - 1
                                ecgBatches[slot].unparsed = max(0, own - (ecgValues.count - ecgBatches[slot].start))
                                unparsedSamples = max(0, all - own)
                            } else {
                                unparsedSamples = all
                            }
                        case .photoplethysmogram:
                            // Samples of the failing PPG sample and the complete ones after it, less
                            // those of the failing one already staged (counted in their streams).
                            let all = Self.countElements(s, from: element, Self.ppgSampleCount)
                            let staged = optical.count + ppgAccelerometer.count - ppgStagedBefore
                            unparsedSamples = all > 0 ? max(0, all - staged) : 0
                        default:
                            break
                        }
                        throw error
                    }
                }
            } else if s.keyIs("deviceId") {
                deviceID = try s.readStringRange("deviceId")
            } else if s.keyIs("type") {
                _ = try s.readStringRange("type")
            } else if s.keyIs("timestamp") {
                _ = try s.readDouble("timestamp")
            } else if s.keyIs("timestampUnix") {
                _ = try s.readDouble("timestampUnix")
            } else if t == .deletionRecord && s.keyIs("sensor") {
                deletionSensor = try s.readString("sensor")
            } else {
                try skipUnknown(&s, in: context)
            }
        }
        try s.expectEnd()
        if deviceID == nil { throw Self.missing("deviceId", in: "a \(context) line", at: 0) }
        if !sawSample { throw Self.missing("sample", in: "a \(context) line", at: 0) }
        if t == .deletionRecord && deletionSensor == nil {
            throw Self.missing("sensor", in: "a deletionRecord line", at: 0)
        }
    }

    /// Parses one element of a `sample` array of type `t`.
    @inline(__always)
    mutating func parseSample(_ s: inout JSONScanner, type t: SensorKitLineType) throws(ScanError) {
        switch t {
        case .accelerometer: try parseMotionSample(&s, rotation: false)
        case .rotationRate: try parseMotionSample(&s, rotation: true)
        case .electrocardiogram: try parseECGSample(&s)
        case .photoplethysmogram: try parsePPGSample(&s)
        default: try s.skipValue()
        }
    }

    /// `CMRecordedAccelerometerData` / `CMRecordedRotationRateData`.
    mutating func parseMotionSample(_ s: inout JSONScanner, rotation: Bool) throws(ScanError) {
        s.skipWhitespace()
        let at = s.i
        if !rotation, try parseCompactAccelerometerSample(&s) { return }
        s.i = at
        try s.beginObject("sample")
        var first = true
        var t = 0.0, id: UInt64 = 0
        var haveT = false, haveID = false, haveVector = false
        var v: (Float, Float, Float) = (0, 0, 0)
        while try s.nextKey(&first) {
            if s.keyIs("startDate") {
                t = try Self.readTime(&s, "startDate"); haveT = true
            } else if !rotation && s.keyIs("acceleration") {
                v = try readXYZ(&s, "acceleration"); haveVector = true
            } else if rotation && s.keyIs("rotationRate") {
                v = try readXYZ(&s, "rotationRate"); haveVector = true
            } else if !rotation && s.keyIs("identifier") {
                id = try s.readUInt64("identifier"); haveID = true
            } else if s.keyIs("timestamp") {
                _ = try s.readDouble("timestamp")
            } else {
                try skipUnknown(&s, in: rotation ? "rotationRate sample" : "accelerometer sample")
            }
        }
        let what = rotation ? "a rotationRate sample" : "an accelerometer sample"
        guard haveT else { throw Self.missing("startDate", in: what, at: at) }
        guard haveVector else { throw Self.missing(rotation ? "rotationRate" : "acceleration", in: what, at: at) }
        guard rotation || haveID else { throw Self.missing("identifier", in: what, at: at) }
        motion.append(StagedMotionSample(time: t, identifier: id, x: v.0, y: v.1, z: v.2))
    }

    /// The accelerometer sample at the scanner when it is written exactly as SensorKit exporters
    /// write it, `{"startDate":T,"identifier":N[,"timestamp":T],"acceleration":{"x":X,"y":Y,"z":Z}}`
    /// with no whitespace: the keys are matched as literals (8-byte compares) instead of being
    /// scanned and looked up one by one. Returns `false`, the scanner anywhere inside the sample,
    /// at the first byte that differs; the caller then parses the sample from its start with the
    /// general rules. Every value is read and checked as the general path reads it, at the same
    /// offset with the same field name, so a value error throws the same error.
    /// - Complexity: O(bytes of the sample).
    @inline(__always)
    mutating func parseCompactAccelerometerSample(_ s: inout JSONScanner) throws(ScanError) -> Bool {
        guard s.consume("{\"startDate\":") else { return false }
        let t = try Self.readTime(&s, "startDate")
        guard s.consume(",\"identifier\":") else { return false }
        let id = try s.readUInt64("identifier")
        if s.consume(",\"timestamp\":") { _ = try s.readDouble("timestamp") }
        guard s.consume(",\"acceleration\":") else { return false }
        let at = s.i
        guard s.consume("{\"x\":") else { return false }
        let x = try s.readDouble("x")
        guard s.consume(",\"y\":") else { return false }
        let y = try s.readDouble("y")
        guard s.consume(",\"z\":") else { return false }
        let z = try s.readDouble("z")
        guard s.consume("}}") else { return false }
        if InputLimits.exceedsFloat(x) || InputLimits.exceedsFloat(y) || InputLimits.exceedsFloat(z) {
            throw ScanError(.outOfRange, at: at, "'acceleration' has a component beyond the single-precision range (±3.4e38)")
        }
        motion.append(StagedMotionSample(time: t, identifier: id, x: Float(x), y: Float(y), z: Float(z)))
        return true
    }

    @inline(__always)
    mutating func readXYZ(_ s: inout JSONScanner, _ field: StaticString) throws(ScanError) -> (Float, Float, Float) {
        s.skipWhitespace()
        let at = s.i
        try s.beginObject(field)
        var first = true
        var x = Double.nan, y = Double.nan, z = Double.nan
        while try s.nextKey(&first) {
            if s.keyIs("x") {
                x = try s.readDouble("x")
            } else if s.keyIs("y") {
                y = try s.readDouble("y")
            } else if s.keyIs("z") {
                z = try s.readDouble("z")
            } else {
                try skipUnknown(&s, in: "\(field)")
            }
        }
        if x.isNaN { throw Self.missing("x", in: "'\(field)'", at: at) }
        if y.isNaN { throw Self.missing("y", in: "'\(field)'", at: at) }
        if z.isNaN { throw Self.missing("z", in: "'\(field)'", at: at) }
        if InputLimits.exceedsFloat(x) || InputLimits.exceedsFloat(y) || InputLimits.exceedsFloat(z) {
            throw ScanError(.outOfRange, at: at, "'\(field)' has a component beyond the single-precision range (±3.4e38)")
        }
        return (Float(x), Float(y), Float(z))
    }

    /// Reads a sample time (Unix seconds), rejecting the record when it is no plausible clock
    /// reading (``InputLimits/timeProblem(_:absolute:)``).
    @inline(__always)
    static func readTime(_ s: inout JSONScanner, _ field: StaticString) throws(ScanError) -> Double {
        s.skipWhitespace()
        let at = s.i
        let t = try s.readDouble(field)
        if let why = InputLimits.timeProblem(t) { throw ScanError(.outOfRange, at: at, "'\(field)': \(why)") }
        return t
    }

    /// Reads a positive, finite frequency in Hz.
    @inline(__always)
    func readFrequency(_ s: inout JSONScanner, _ field: StaticString) throws(ScanError) -> Double {
        s.skipWhitespace()
        let at = s.i
        let f = try s.readDouble(field)
        guard f > 0 else {
            throw ScanError(.outOfRange, at: at, "'\(field)' must be a positive rate in Hz, found \(f)")
        }
        if let why = InputLimits.sampleRateProblem(f) {
            throw ScanError(.outOfRange, at: at, "'\(field)': \(why)")
        }
        return f
    }

    /// `SRElectrocardiogramSample`: values go straight into the staging columns.
    mutating func parseECGSample(_ s: inout JSONScanner) throws(ScanError) {
        s.skipWhitespace()
        let at = s.i
        try s.beginObject("sample")
        var b = StagedECGBatch()
        b.start = ecgValues.count
        var first = true
        var haveData = false
        ecgBatches.append(b) // visible to the rejection count while its data are parsed
        let slot = ecgBatches.count - 1
        while try s.nextKey(&first) {
            if s.keyIs("data") {
                haveData = true
                try s.beginArray("data")
                var firstValue = true
                while try s.nextElement(&firstValue) {
                    try s.beginObject("data")
                    var firstKey = true
                    var value = Double.nan
                    var valueIsNull = false
                    var flags: Int64 = 0
                    let elementAt = s.i - 1
                    while try s.nextKey(&firstKey) {
                        if s.keyIs("value") {
                            // `null` is a missing sample (NaN, flagged missing), as for PPG reflectance.
                            if let v = try s.readNullableDouble("value") { value = v } else { valueIsNull = true }
                        } else if s.keyIs("flags") {
                            s.skipWhitespace()
                            let fAt = s.i
                            flags = try s.readInt64("flags")
                            if flags < 0 {
                                throw ScanError(.outOfRange, at: fAt, "'flags' must be a non-negative bit set")
                            }
                        } else {
                            try skipUnknown(&s, in: "electrocardiogram data")
                        }
                    }
                    if value.isNaN && !valueIsNull {
                        throw Self.missing("value", in: "an electrocardiogram data element", at: elementAt)
                    }
                    // A value beyond the Float range is masked (not delivered as ±inf).
                    let beyond = InputLimits.exceedsFloat(value)
                    ecgValues.append(beyond ? .nan : Float(value))
                    ecgFlags.append(
                        UInt8(truncatingIfNeeded: flags & 3) | (valueIsNull ? SampleFlags.missing.rawValue : 0)
                            | (beyond ? SampleFlags.missing.rawValue | SampleFlags.saturated.rawValue : 0))
                }
            } else if s.keyIs("date") {
                b.date = try Self.readTime(&s, "date")
            } else if s.keyIs("frequency") {
                s.skipWhitespace()
                b.frequencyOffset = s.i
                b.frequency = try readFrequency(&s, "frequency")
            } else if s.keyIs("lead") {
                b.lead = try SensorKitEnum.lead.read(&s)
            } else if s.keyIs("session") {
                s.skipWhitespace()
                let sAt = s.i
                try s.beginObject("session")
                var firstKey = true
                while try s.nextKey(&firstKey) {
                    if s.keyIs("identifier") {
                        b.session = try s.readString("identifier")
                        ecgBatches[slot].session = b.session
                    } else if s.keyIs("state") {
                        b.state = try SensorKitEnum.sessionState.read(&s)
                    } else if s.keyIs("sessionGuidance") {
                        b.guidance = try SensorKitEnum.sessionGuidance.read(&s)
                    } else {
                        try skipUnknown(&s, in: "electrocardiogram session")
                    }
                }
                if b.session == nil { throw Self.missing("identifier", in: "'session'", at: sAt) }
            } else {
                try skipUnknown(&s, in: "electrocardiogram sample")
            }
        }
        let what = "an electrocardiogram sample"
        if b.date.isNaN { throw Self.missing("date", in: what, at: at) }
        if b.frequency.isNaN { throw Self.missing("frequency", in: what, at: at) }
        if b.session == nil { throw Self.missing("session", in: what, at: at) }
        if !haveData { throw Self.missing("data", in: what, at: at) }
        b.count = ecgValues.count - b.start
        ecgBatches[slot] = b
    }

    /// `SRPhotoplethysmogramSample`.
    mutating func parsePPGSample(_ s: inout JSONScanner) throws(ScanError) {
        s.skipWhitespace()
        let at = s.i
        try s.beginObject("sample")
        var p = StagedPPGSample()
        p.opticalStart = optical.count
        p.accelerometerStart = ppgAccelerometer.count
        var haveStart = false, haveNs = false
        var first = true
        while try s.nextKey(&first) {
            if s.keyIs("opticalSamples") {
                try s.beginArray("opticalSamples")
                var firstElement = true
                while try s.nextElement(&firstElement) { try parseOpticalSample(&s) }
            } else if s.keyIs("accelerometerSamples") {
                try s.beginArray("accelerometerSamples")
                var firstElement = true
                while try s.nextElement(&firstElement) { try parsePPGAccelerometerSample(&s) }
            } else if s.keyIs("startDate") {
                p.startDate = try Self.readTime(&s, "startDate"); haveStart = true
            } else if s.keyIs("nanosecondsSinceStart") {
                p.nanosecondsSinceStart = try s.readInt64("nanosecondsSinceStart"); haveNs = true
            } else if s.keyIs("temperature") {
                if let v = try s.readNullableDouble("temperature") {
                    p.temperature = v; p.temperatureState = 2
                } else {
                    p.temperatureState = 1
                }
            } else if s.keyIs("usage") {
                try s.beginArray("usage")
                var firstElement = true
                while try s.nextElement(&firstElement) {
                    p.usage |= UInt8(1) << UInt8(try SensorKitEnum.usage.read(&s))
                }
            } else {
                try skipUnknown(&s, in: "photoplethysmogram sample")
            }
        }
        let what = "a photoplethysmogram sample"
        if !haveStart { throw Self.missing("startDate", in: what, at: at) }
        if !haveNs { throw Self.missing("nanosecondsSinceStart", in: what, at: at) }
        p.opticalCount = optical.count - p.opticalStart
        p.accelerometerCount = ppgAccelerometer.count - p.accelerometerStart
        // Every sample's time (startDate + its nanosecondsSinceStart) must be a plausible one too.
        var lo = p.nanosecondsSinceStart, hi = p.nanosecondsSinceStart
        for o in optical[p.opticalStart...] {
            lo = min(lo, o.nanosecondsSinceStart)
            hi = max(hi, o.nanosecondsSinceStart)
        }
        for a in ppgAccelerometer[p.accelerometerStart...] {
            lo = min(lo, a.nanosecondsSinceStart)
            hi = max(hi, a.nanosecondsSinceStart)
        }
        for ns in [lo, hi] {
            if let why = InputLimits.timeProblem(p.startDate + Double(ns) / 1e9) {
                throw ScanError(.outOfRange, at: at, "'startDate' + 'nanosecondsSinceStart': \(why)")
            }
        }
        ppg.append(p)
    }

    mutating func parseOpticalSample(_ s: inout JSONScanner) throws(ScanError) {
        s.skipWhitespace()
        let at = s.i
        if try parseCompactOpticalSample(&s) { return }
        s.i = at
        try s.beginObject("opticalSamples")
        var o = StagedOpticalSample()
        var seen: UInt8 = 0 // emitter, photodiodes, signal, frequency, ns, reflectance
        var first = true
        while try s.nextKey(&first) {
            if s.keyIs("normalizedReflectance") {
                if let v = try s.readNullableDouble("normalizedReflectance") {
                    o.normalizedReflectance = v
                } else {
                    o.normalizedReflectance = .nan
                    o.flags |= SampleFlags.missing.rawValue
                }
                seen |= 32
            } else if s.keyIs("nanosecondsSinceStart") {
                o.nanosecondsSinceStart = try s.readInt64("nanosecondsSinceStart"); seen |= 16
            } else if s.keyIs("emitter") {
                o.emitter = try s.readInt64("emitter"); seen |= 1
            } else if s.keyIs("activePhotodiodeIndexes") {
                o.photodiodes = try Self.readPhotodiodes(&s)
                seen |= 2
            } else if s.keyIs("signalIdentifier") {
                o.signalIdentifier = try s.readInt64("signalIdentifier"); seen |= 4
            } else if s.keyIs("samplingFrequency") {
                o.samplingFrequency = try readFrequency(&s, "samplingFrequency"); seen |= 8
            } else if s.keyIs("nominalWavelength") {
                o.nominalWavelength = try s.readDouble("nominalWavelength")
            } else if s.keyIs("effectiveWavelength") {
                o.effectiveWavelength = try s.readDouble("effectiveWavelength")
            } else if s.keyIs("noiseTerms") {
                if !s.readNull() {
                    try s.beginObject("noiseTerms")
                    var firstKey = true
                    while try s.nextKey(&firstKey) {
                        if s.keyIs("whiteNoise") {
                            o.noise.0 = try s.readNullableDouble("whiteNoise") ?? .nan
                        } else if s.keyIs("pinkNoise") {
                            o.noise.1 = try s.readNullableDouble("pinkNoise") ?? .nan
                        } else if s.keyIs("backgroundNoise") {
                            o.noise.2 = try s.readNullableDouble("backgroundNoise") ?? .nan
                        } else if s.keyIs("backgroundNoiseOffset") {
                            o.noise.3 = try s.readNullableDouble("backgroundNoiseOffset") ?? .nan
                        } else {
                            try skipUnknown(&s, in: "noiseTerms")
                        }
                    }
                }
            } else if s.keyIs("conditions") {
                o.flags |= try Self.readConditions(&s)
            } else {
                try skipUnknown(&s, in: "optical sample")
            }
        }
        let what = "an optical sample"
        let names: [(UInt8, String)] = [
            (1, "emitter"), (2, "activePhotodiodeIndexes"), (4, "signalIdentifier"),
            (8, "samplingFrequency"), (16, "nanosecondsSinceStart"),
            (32, "normalizedReflectance"),
        ]
        if seen != 63, let m = names.first(where: { seen & $0.0 == 0 }) {
            throw Self.missing(m.1, in: what, at: at)
        }
        optical.append(o)
    }

    /// Reads an optical sample's `activePhotodiodeIndexes` array as a bit set (each index 0…63).
    @inline(__always)
    static func readPhotodiodes(_ s: inout JSONScanner) throws(ScanError) -> UInt64 {
        try s.beginArray("activePhotodiodeIndexes")
        var photodiodes: UInt64 = 0
        var firstElement = true
        while try s.nextElement(&firstElement) {
            s.skipWhitespace()
            let iAt = s.i
            let k = try s.readInt64("activePhotodiodeIndexes")
            guard k >= 0 && k < 64 else {
                throw ScanError(.outOfRange, at: iAt, "photodiode index \(k) outside 0…63")
            }
            photodiodes |= 1 << UInt64(k)
        }
        return photodiodes
    }

    /// Reads an optical sample's `conditions` array as sample flags (`signalSaturation`:
    /// saturated; `unreliableNoise`: unreliable noise).
    @inline(__always)
    static func readConditions(_ s: inout JSONScanner) throws(ScanError) -> UInt8 {
        try s.beginArray("conditions")
        var flags: UInt8 = 0
        var firstElement = true
        while try s.nextElement(&firstElement) {
            switch try SensorKitEnum.condition.read(&s) {
            case 0: flags |= SampleFlags.saturated.rawValue
            default: flags |= SampleFlags.unreliableNoise.rawValue
            }
        }
        return flags
    }

    /// The optical sample at the scanner when it is written exactly as SensorKit exporters write
    /// it, `{"emitter":…,"activePhotodiodeIndexes":[…],"signalIdentifier":…[,"nominalWavelength":…]
    /// [,"effectiveWavelength":…],"samplingFrequency":…,"nanosecondsSinceStart":…,
    /// "normalizedReflectance":…,"noiseTerms":null|{"whiteNoise":…,"pinkNoise":…,
    /// "backgroundNoise":…,"backgroundNoiseOffset":…},"conditions":[…]}` with no whitespace
    /// around the keys: keys matched as literals (the rule of
    /// ``parseCompactAccelerometerSample(_:)``; `false` at the first byte that differs, and the
    /// caller parses the sample from its start with the general rules). Values, arrays and their
    /// checks are those of ``parseOpticalSample(_:)``.
    /// - Complexity: O(bytes of the sample).
    @inline(__always)
    mutating func parseCompactOpticalSample(_ s: inout JSONScanner) throws(ScanError) -> Bool {
        var o = StagedOpticalSample()
        guard s.consume("{\"emitter\":") else { return false }
        o.emitter = try s.readInt64("emitter")
        guard s.consume(",\"activePhotodiodeIndexes\":") else { return false }
        o.photodiodes = try Self.readPhotodiodes(&s)
        guard s.consume(",\"signalIdentifier\":") else { return false }
        o.signalIdentifier = try s.readInt64("signalIdentifier")
        if s.consume(",\"nominalWavelength\":") { o.nominalWavelength = try s.readDouble("nominalWavelength") }
        if s.consume(",\"effectiveWavelength\":") { o.effectiveWavelength = try s.readDouble("effectiveWavelength") }
        guard s.consume(",\"samplingFrequency\":") else { return false }
        o.samplingFrequency = try readFrequency(&s, "samplingFrequency")
        guard s.consume(",\"nanosecondsSinceStart\":") else { return false }
        o.nanosecondsSinceStart = try s.readInt64("nanosecondsSinceStart")
        guard s.consume(",\"normalizedReflectance\":") else { return false }
        if let v = try s.readNullableDouble("normalizedReflectance") {
            o.normalizedReflectance = v
        } else {
            o.normalizedReflectance = .nan
            o.flags |= SampleFlags.missing.rawValue
        }
        guard s.consume(",\"noiseTerms\":") else { return false }
        if !s.readNull() {
            guard s.consume("{\"whiteNoise\":") else { return false }
            o.noise.0 = try s.readNullableDouble("whiteNoise") ?? .nan
            guard s.consume(",\"pinkNoise\":") else { return false }
            o.noise.1 = try s.readNullableDouble("pinkNoise") ?? .nan
            guard s.consume(",\"backgroundNoise\":") else { return false }
            o.noise.2 = try s.readNullableDouble("backgroundNoise") ?? .nan
            guard s.consume(",\"backgroundNoiseOffset\":") else { return false }
            o.noise.3 = try s.readNullableDouble("backgroundNoiseOffset") ?? .nan
            guard s.consume("}") else { return false }
        }
        guard s.consume(",\"conditions\":") else { return false }
        o.flags |= try Self.readConditions(&s)
        guard s.consume("}") else { return false }
        optical.append(o)
        return true
    }

    /// The PPG accelerometer sample at the scanner when written as exporters write it,
    /// `{"nanosecondsSinceStart":…,"samplingFrequency":…,"x":…,"y":…,"z":…}` (the rule of
    /// ``parseCompactAccelerometerSample(_:)``; values and checks of
    /// ``parsePPGAccelerometerSample(_:)``).
    /// - Complexity: O(bytes of the sample).
    @inline(__always)
    mutating func parseCompactPPGAccelerometerSample(_ s: inout JSONScanner, at: Int) throws(ScanError) -> Bool {
        var a = StagedPPGAccelerometerSample()
        guard s.consume("{\"nanosecondsSinceStart\":") else { return false }
        a.nanosecondsSinceStart = try s.readInt64("nanosecondsSinceStart")
        guard s.consume(",\"samplingFrequency\":") else { return false }
        a.samplingFrequency = try readFrequency(&s, "samplingFrequency")
        guard s.consume(",\"x\":") else { return false }
        let x = try s.readDouble("x")
        guard s.consume(",\"y\":") else { return false }
        let y = try s.readDouble("y")
        guard s.consume(",\"z\":") else { return false }
        let z = try s.readDouble("z")
        guard s.consume("}") else { return false }
        if InputLimits.exceedsFloat(x) || InputLimits.exceedsFloat(y) || InputLimits.exceedsFloat(z) {
            throw ScanError(.outOfRange, at: at, "a PPG accelerometer sample has a component beyond the single-precision range (±3.4e38)")
        }
        a.x = Float(x); a.y = Float(y); a.z = Float(z)
        ppgAccelerometer.append(a)
        return true
    }

    mutating func parsePPGAccelerometerSample(_ s: inout JSONScanner) throws(ScanError) {
        s.skipWhitespace()
        let at = s.i
        if try parseCompactPPGAccelerometerSample(&s, at: at) { return }
        s.i = at
        try s.beginObject("accelerometerSamples")
        var a = StagedPPGAccelerometerSample()
        var x = Double.nan, y = Double.nan, z = Double.nan
        var haveNs = false
        var first = true
        while try s.nextKey(&first) {
            if s.keyIs("x") {
                x = try s.readDouble("x")
            } else if s.keyIs("y") {
                y = try s.readDouble("y")
            } else if s.keyIs("z") {
                z = try s.readDouble("z")
            } else if s.keyIs("nanosecondsSinceStart") {
                a.nanosecondsSinceStart = try s.readInt64("nanosecondsSinceStart"); haveNs = true
            } else if s.keyIs("samplingFrequency") {
                a.samplingFrequency = try readFrequency(&s, "samplingFrequency")
            } else {
                try skipUnknown(&s, in: "PPG accelerometer sample")
            }
        }
        let what = "a PPG accelerometer sample"
        if !haveNs { throw Self.missing("nanosecondsSinceStart", in: what, at: at) }
        if a.samplingFrequency.isNaN { throw Self.missing("samplingFrequency", in: what, at: at) }
        if x.isNaN { throw Self.missing("x", in: what, at: at) }
        if y.isNaN { throw Self.missing("y", in: what, at: at) }
        if z.isNaN { throw Self.missing("z", in: what, at: at) }
        if InputLimits.exceedsFloat(x) || InputLimits.exceedsFloat(y) || InputLimits.exceedsFloat(z) {
            throw ScanError(.outOfRange, at: at, "\(what) has a component beyond the single-precision range (±3.4e38)")
        }
        a.x = Float(x); a.y = Float(y); a.z = Float(z)
        ppgAccelerometer.append(a)
    }

    /// `SRDeletionRecord`.
    mutating func parseDeletion(_ s: inout JSONScanner) throws(ScanError) {
        s.skipWhitespace()
        let at = s.i
        try s.beginObject("sample")
        var d = StagedDeletion()
        var first = true
        while try s.nextKey(&first) {
            if s.keyIs("startTime") {
                d.startRaw = try s.readDouble("startTime")
            } else if s.keyIs("endTime") {
                d.endRaw = try s.readDouble("endTime")
            } else if s.keyIs("startTimeUnix") {
                d.startUnix = try s.readDouble("startTimeUnix")
            } else if s.keyIs("endTimeUnix") {
                d.endUnix = try s.readDouble("endTimeUnix")
            } else if s.keyIs("reason") {
                d.reason = try SensorKitEnum.deletionReason.read(&s)
            } else {
                try skipUnknown(&s, in: "deletionRecord sample")
            }
        }
        let what = "a deletion record"
        if d.startUnix.isNaN { throw Self.missing("startTimeUnix", in: what, at: at) }
        if d.endUnix.isNaN { throw Self.missing("endTimeUnix", in: what, at: at) }
        if d.reason < 0 { throw Self.missing("reason", in: what, at: at) }
        guard d.endUnix >= d.startUnix else {
            throw ScanError(.timeOrder, at: at, "deletion record ends (\(d.endUnix)) before it starts (\(d.startUnix))")
        }
        deletion = d
    }

    /// Number of samples staged so far (for the rejection count of a bad record).
    var stagedSampleCount: Int {
        motion.count + ecgValues.count + optical.count + ppgAccelerometer.count
            + ppg.reduce(0) { $0 + ($1.temperatureState != 0 ? 1 : 0) }
    }
}

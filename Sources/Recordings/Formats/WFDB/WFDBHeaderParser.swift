/// The header(5) grammar, field by field, with errors that name the file, line and column.
struct WFDBHeaderParser {
    let path: String

    init(path: String) { self.path = path }

    /// A whitespace-separated field: byte range in its line.
    struct Token {
        var start: Int
        var end: Int
    }

    func error(_ code: RecordingError.Code, _ line: Int, _ column: Int, _ message: String) -> RecordingError {
        RecordingError(code, file: path, line: line, column: column, message)
    }

    static func isBlank(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0d || b == 0x0b || b == 0x0c }

    static func tokens(_ bytes: [UInt8]) -> [Token] {
        var out = [Token]()
        var i = 0
        while i < bytes.count {
            while i < bytes.count && isBlank(bytes[i]) { i += 1 }
            guard i < bytes.count else { break }
            let s = i
            while i < bytes.count && !isBlank(bytes[i]) { i += 1 }
            out.append(Token(start: s, end: i))
        }
        return out
    }

    static func text(_ bytes: [UInt8], _ r: Range<Int>) -> String {
        String(decoding: bytes[r], as: UTF8.self)
    }

    /// Parses an optionally signed decimal integer occupying exactly `r`.
    static func integer(_ bytes: [UInt8], _ r: Range<Int>) -> Int? {
        var i = r.lowerBound
        guard i < r.upperBound else { return nil }
        var negative = false
        if bytes[i] == 0x2d || bytes[i] == 0x2b { negative = bytes[i] == 0x2d; i += 1 }
        guard i < r.upperBound else { return nil }
        var value = 0
        while i < r.upperBound {
            let d = Int(bytes[i]) - 48
            guard d >= 0 && d <= 9 else { return nil }
            let (m, o1) = value.multipliedReportingOverflow(by: 10)
            let (a, o2) = m.addingReportingOverflow(d)
            guard !o1 && !o2 else { return nil }
            value = a
            i += 1
        }
        return negative ? -value : value
    }

    /// Parses a finite decimal floating-point number (scanf `%lf` syntax without hex, inf, nan).
    static func real(_ bytes: [UInt8], _ r: Range<Int>) -> Double? {
        guard !r.isEmpty else { return nil }
        var sawDigit = false
        for b in bytes[r] {
            switch b {
            case 0x30...0x39: sawDigit = true
            case 0x2b, 0x2d, 0x2e, 0x45, 0x65: break // + - . E e
            default: return nil
            }
        }
        guard sawDigit, let v = Double(text(bytes, r)), v.isFinite else { return nil }
        return v
    }

    /// Index of the first byte in `r` equal to one of `set`, or `r.upperBound`.
    static func first(_ bytes: [UInt8], _ r: Range<Int>, _ set: [UInt8]) -> Int {
        var i = r.lowerBound
        while i < r.upperBound && !set.contains(bytes[i]) { i += 1 }
        return i
    }

    mutating func parse(_ lines: [(Int, [UInt8])]) throws(RecordingError) -> WFDBHeader {
        var header = WFDBHeader(path: path)
        var sawRecord = false
        var lastLine = 0
        for (number, bytes) in lines {
            lastLine = number
            let toks = Self.tokens(bytes)
            guard let firstTok = toks.first else { continue }
            if bytes[firstTok.start] == 0x23 { // '#'
                var s = firstTok.start + 1
                while s < bytes.count && Self.isBlank(bytes[s]) { s += 1 }
                var e = bytes.count
                while e > s && Self.isBlank(bytes[e - 1]) { e -= 1 }
                header.comments.append(Self.text(bytes, s..<e))
                continue
            }
            if !sawRecord {
                try parseRecordLine(bytes, toks, number, into: &header)
                sawRecord = true
            } else if let n = header.segmentCount {
                if header.segments.count < n {
                    header.segments.append(try parseSegmentLine(bytes, toks, number))
                }
            } else if header.signals.count < header.signalCount {
                header.signals.append(try parseSignalLine(bytes, toks, number, signal: header.signals.count))
            } else {
                // header(5) readers ignore extra specification lines; the decoder treats them as a
                // header that contradicts itself (``WFDBHeader/extraSpecificationLines``).
                header.extraSpecificationLines.append(number)
            }
        }
        guard sawRecord else {
            throw error(
                .missingField, max(lastLine, 1), 1,
                "no record line: expected 'name signals [frequency [samples [time [date]]]]'")
        }
        if let n = header.segmentCount, header.segments.count < n {
            throw error(
                .missingField, lastLine + 1, 1,
                "expected \(n) segment specification lines after the record line (line "
                    + "\(header.recordLine)), found \(header.segments.count)")
        }
        if header.segmentCount == nil && header.signals.count < header.signalCount {
            throw error(
                .missingField, lastLine + 1, 1,
                "expected \(header.signalCount) signal specification lines after the record line (line "
                    + "\(header.recordLine)), found \(header.signals.count)")
        }
        for (k, s) in header.signals.enumerated() where s.samplesPerFrame > 1 {
            let rate = header.samplingFrequency * Double(s.samplesPerFrame)
            if let why = InputLimits.sampleRateProblem(rate) {
                throw error(
                    .outOfRange, s.line, 1,
                    "signal \(k): \(s.samplesPerFrame) samples per frame at "
                        + "\(header.samplingFrequency) Hz: \(why)")
            }
        }
        try checkGroups(header.signals)
        return header
    }

    // MARK: - Record line

    mutating func parseRecordLine(
        _ b: [UInt8], _ t: [Token], _ line: Int,
        into h: inout WFDBHeader
    ) throws(RecordingError) {
        h.recordLine = line
        // name[/segments]
        let t0 = t[0]
        let slash = Self.first(b, t0.start..<t0.end, [0x2f])
        for i in t0.start..<slash {
            let c = b[i]
            let ok =
                (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a)
                || c == 0x5f || c == 0x2d
            guard ok else {
                throw error(
                    .syntax, line, i + 1,
                    "invalid character '\(Self.text(b, i..<i + 1))' in record name "
                        + "(letters, digits and '_' only)")
            }
        }
        guard slash > t0.start else { throw error(.syntax, line, t0.start + 1, "empty record name") }
        h.recordName = Self.text(b, t0.start..<slash)
        if slash < t0.end {
            guard let n = Self.integer(b, slash + 1..<t0.end), n > 0 else {
                throw error(
                    .wrongType, line, slash + 2,
                    "number of segments '\(Self.text(b, slash + 1..<t0.end))' is not a positive integer")
            }
            h.segmentCount = n
        }
        // signals
        guard t.count > 1 else {
            throw error(.missingField, line, b.count + 1, "record line ends before the number of signals")
        }
        guard let nsig = Self.integer(b, t[1].start..<t[1].end) else {
            throw error(
                .wrongType, line, t[1].start + 1,
                "number of signals '\(Self.text(b, t[1].start..<t[1].end))' is not an integer")
        }
        guard nsig >= 0 else {
            throw error(.outOfRange, line, t[1].start + 1, "number of signals \(nsig) is negative")
        }
        guard nsig <= InputLimits.wfdbSignals else {
            throw error(
                .outOfRange, line, t[1].start + 1,
                "number of signals \(nsig) is more than \(InputLimits.wfdbSignals)")
        }
        h.signalCount = nsig
        guard t.count > 2 else { return }
        // frequency[/counter[(base)]]
        let f = t[2]
        let fEnd = Self.first(b, f.start..<f.end, [0x2f])
        guard let fs = Self.real(b, f.start..<fEnd) else {
            throw error(
                .wrongType, line, f.start + 1,
                "sampling frequency '\(Self.text(b, f.start..<fEnd))' is not a number")
        }
        guard fs > 0 else {
            throw error(.outOfRange, line, f.start + 1, "sampling frequency \(Self.text(b, f.start..<fEnd)) is not positive")
        }
        if let why = InputLimits.sampleRateProblem(fs) {
            throw error(.outOfRange, line, f.start + 1, "sampling frequency \(Self.text(b, f.start..<fEnd)): \(why)")
        }
        h.samplingFrequency = fs
        h.hasSamplingFrequency = true
        if fEnd < f.end {
            let cStart = fEnd + 1
            let paren = Self.first(b, cStart..<f.end, [0x28])
            guard let cf = Self.real(b, cStart..<paren) else {
                throw error(
                    .wrongType, line, cStart + 1,
                    "counter frequency '\(Self.text(b, cStart..<paren))' is not a number")
            }
            h.counterFrequency = cf
            if paren < f.end {
                guard b[f.end - 1] == 0x29 else {
                    throw error(.syntax, line, f.end + 1, "base counter value: expected ')'")
                }
                guard let base = Self.real(b, paren + 1..<f.end - 1) else {
                    throw error(
                        .wrongType, line, paren + 2,
                        "base counter value '\(Self.text(b, paren + 1..<f.end - 1))' is not a number")
                }
                h.baseCounterValue = base
            }
        }
        guard t.count > 3 else { return }
        guard let n = Self.integer(b, t[3].start..<t[3].end) else {
            throw error(
                .wrongType, line, t[3].start + 1,
                "number of samples per signal '\(Self.text(b, t[3].start..<t[3].end))' is not an integer")
        }
        guard n >= 0 else {
            throw error(.outOfRange, line, t[3].start + 1, "number of samples per signal \(n) is negative")
        }
        h.samplesPerSignal = n > 0 ? n : nil
        guard t.count > 4 else { return }
        h.baseTimeSeconds = try parseTime(b, t[4], line)
        guard t.count > 5 else { return }
        h.baseDate = try parseDate(b, t[5], line)
    }

    /// `[[HH:]MM:]SS[.fff]` → seconds after midnight.
    func parseTime(_ b: [UInt8], _ tok: Token, _ line: Int) throws(RecordingError) -> Double {
        let field = Self.text(b, tok.start..<tok.end)
        let bad = error(.syntax, line, tok.start + 1, "base time '\(field)' is not HH:MM:SS")
        let parts = b[tok.start..<tok.end].split(separator: 0x3a, omittingEmptySubsequences: false)
        guard parts.count >= 2 && parts.count <= 3 else { throw bad }
        var fields = [Double]()
        for (k, p) in parts.enumerated() {
            let r = p.startIndex..<p.endIndex
            if k == parts.count - 1 {
                guard let s = Self.real(b, r), s >= 0 else { throw bad }
                fields.append(s)
            } else {
                guard let v = Self.integer(b, r), v >= 0 else { throw bad }
                fields.append(Double(v))
            }
        }
        while fields.count < 3 { fields.insert(0, at: 0) }
        guard fields[0] < 24, fields[1] < 60, fields[2] < 61 else {
            throw error(.outOfRange, line, tok.start + 1, "base time '\(field)' is not a time of day")
        }
        return fields[0] * 3600 + fields[1] * 60 + fields[2]
    }

    /// `DD/MM/YYYY`; `0/0/0` (an unrecorded date) → `nil`.
    func parseDate(_ b: [UInt8], _ tok: Token, _ line: Int) throws(RecordingError) -> WFDBHeader.Date? {
        let field = Self.text(b, tok.start..<tok.end)
        let parts = b[tok.start..<tok.end].split(separator: 0x2f, omittingEmptySubsequences: false)
        var v = [Int]()
        for p in parts {
            guard let x = Self.integer(b, p.startIndex..<p.endIndex), x >= 0 else { break }
            v.append(x)
        }
        guard parts.count == 3, v.count == 3 else {
            throw error(.syntax, line, tok.start + 1, "base date '\(field)' is not DD/MM/YYYY")
        }
        if v[0] == 0 && v[1] == 0 { return nil }
        guard v[1] >= 1 && v[1] <= 12 && v[0] >= 1 && v[0] <= 31 else {
            throw error(.outOfRange, line, tok.start + 1, "base date '\(field)' is not a calendar date")
        }
        return WFDBHeader.Date(day: v[0], month: v[1], year: v[2])
    }

    // MARK: - Segment and signal lines

    func parseSegmentLine(_ b: [UInt8], _ t: [Token], _ line: Int) throws(RecordingError) -> WFDBHeader.Segment {
        guard t.count >= 2 else {
            throw error(
                .missingField, line, b.count + 1,
                "segment specification line ends before the number of samples")
        }
        guard let n = Self.integer(b, t[1].start..<t[1].end), n >= 0 else {
            throw error(
                .wrongType, line, t[1].start + 1,
                "segment length '\(Self.text(b, t[1].start..<t[1].end))' is not a non-negative integer")
        }
        return WFDBHeader.Segment(recordName: Self.text(b, t[0].start..<t[0].end), samplesPerSignal: n)
    }

    func intField(
        _ b: [UInt8], _ tok: Token, _ line: Int, _ name: String,
        min: Int = Int.min
    ) throws(RecordingError) -> Int {
        guard let v = Self.integer(b, tok.start..<tok.end) else {
            throw error(
                .wrongType, line, tok.start + 1,
                "\(name) '\(Self.text(b, tok.start..<tok.end))' is not an integer")
        }
        guard v >= min else { throw error(.outOfRange, line, tok.start + 1, "\(name) \(v) is negative") }
        return v
    }

    func parseSignalLine(_ b: [UInt8], _ t: [Token], _ line: Int, signal: Int) throws(RecordingError) -> WFDBSignalSpec {
        guard t.count >= 2 else {
            throw error(
                .missingField, line, b.count + 1,
                "signal \(signal): specification line ends before the storage format "
                    + "(expected 'file format [gain …]')")
        }
        var s = WFDBSignalSpec(fileName: Self.text(b, t[0].start..<t[0].end), format: 0, line: line)
        // format[xspf][:skew][+offset]
        let f = t[1]
        var i = f.start
        while i < f.end && b[i] >= 0x30 && b[i] <= 0x39 { i += 1 }
        guard i > f.start, let fmt = Self.integer(b, f.start..<i) else {
            throw error(
                .wrongType, line, f.start + 1,
                "signal \(signal): storage format '\(Self.text(b, f.start..<f.end))' is not an integer")
        }
        guard WFDBHeader.knownFormats.contains(fmt) else {
            throw error(
                .outOfRange, line, f.start + 1,
                "signal \(signal): storage format \(fmt) is not a WFDB format (known: "
                    + WFDBHeader.knownFormats.sorted().map(String.init).joined(separator: ", ") + ")")
        }
        s.format = fmt
        var stage = 0
        while i < f.end {
            let c = b[i]
            let next: Int
            switch c {
            case 0x78 where stage < 1: next = 1 // x
            case 0x3a where stage < 2: next = 2 // :
            case 0x2b where stage < 3: next = 3 // +
            default:
                throw error(
                    .syntax, line, i + 1,
                    "signal \(signal): unexpected '\(Self.text(b, i..<i + 1))' in the format field "
                        + "(expected format[xSamplesPerFrame][:skew][+byteOffset])")
            }
            var j = i + 1
            while j < f.end && b[j] >= 0x30 && b[j] <= 0x39 { j += 1 }
            guard j > i + 1, let v = Self.integer(b, i + 1..<j) else {
                throw error(
                    .wrongType, line, i + 2,
                    "signal \(signal): expected an unsigned integer after '\(Self.text(b, i..<i + 1))'")
            }
            switch next {
            case 1:
                guard v >= 1 && v <= InputLimits.wfdbSamplesPerFrame else {
                    throw error(
                        .outOfRange, line, i + 2,
                        "signal \(signal): samples per frame must be 1 to "
                            + "\(InputLimits.wfdbSamplesPerFrame), found \(v)")
                }
                s.samplesPerFrame = v
            case 2: s.skew = v
            default: s.byteOffset = v
            }
            stage = next
            i = j
        }
        guard t.count > 2 else { return s }
        // gain[(baseline)][/units]
        let g = t[2]
        let gEnd = Self.first(b, g.start..<g.end, [0x28, 0x2f])
        guard let gain = Self.real(b, g.start..<gEnd) else {
            throw error(
                .wrongType, line, g.start + 1,
                "signal \(signal): ADC gain '\(Self.text(b, g.start..<gEnd))' is not a number "
                    + "(expected gain[(baseline)][/units], e.g. 200(1024)/mV)")
        }
        s.adcGain = gain
        var k = gEnd
        var baselineWritten: Int?
        if k < g.end && b[k] == 0x28 {
            let close = Self.first(b, k + 1..<g.end, [0x29])
            guard close < g.end else {
                throw error(.syntax, line, g.end + 1, "signal \(signal): baseline: expected ')'")
            }
            guard let base = Self.integer(b, k + 1..<close) else {
                throw error(
                    .wrongType, line, k + 2,
                    "signal \(signal): baseline '\(Self.text(b, k + 1..<close))' is not an integer")
            }
            baselineWritten = base
            k = close + 1
        }
        if k < g.end {
            guard b[k] == 0x2f else {
                throw error(
                    .syntax, line, k + 1,
                    "signal \(signal): unexpected '\(Self.text(b, k..<k + 1))' after the ADC gain "
                        + "(expected gain[(baseline)][/units])")
            }
            guard k + 1 < g.end else {
                throw error(.syntax, line, k + 2, "signal \(signal): empty units after '/'")
            }
            s.units = Self.text(b, k + 1..<g.end)
            s.hasUnits = true
        }
        if t.count > 3 { s.adcResolution = try intField(b, t[3], line, "signal \(signal): ADC resolution", min: 0) }
        if t.count > 4 { s.adcZero = try intField(b, t[4], line, "signal \(signal): ADC zero") }
        s.baseline = baselineWritten ?? s.adcZero
        s.hasBaseline = baselineWritten != nil
        s.initialValue = s.adcZero
        if t.count > 5 {
            s.initialValue = try intField(b, t[5], line, "signal \(signal): initial value")
            s.hasInitialValue = true
        }
        if t.count > 6 { s.checksum = try intField(b, t[6], line, "signal \(signal): checksum") }
        if t.count > 7 { s.blockSize = try intField(b, t[7], line, "signal \(signal): block size") }
        if t.count > 8 {
            var e = b.count
            while e > t[8].start && Self.isBlank(b[e - 1]) { e -= 1 }
            s.description = Self.text(b, t[8].start..<e)
        }
        return s
    }

    /// Signals sharing a file must be consecutive and agree on format and byte offset.
    func checkGroups(_ signals: [WFDBSignalSpec]) throws(RecordingError) {
        var seen = [String: Int]()
        for (i, s) in signals.enumerated() where s.format != 0 {
            if i > 0 && signals[i - 1].fileName == s.fileName && signals[i - 1].format != 0 {
                let p = signals[i - 1]
                guard p.format == s.format else {
                    throw error(
                        .inconsistent, s.line, 1,
                        "signal \(i) shares \(s.fileName) with signal \(i - 1) but has format \(s.format) "
                            + "(signal \(i - 1): \(p.format))")
                }
                guard p.byteOffset == s.byteOffset else {
                    throw error(
                        .inconsistent, s.line, 1,
                        "signal \(i) shares \(s.fileName) with signal \(i - 1) but has byte offset "
                            + "\(s.byteOffset) (signal \(i - 1): \(p.byteOffset))")
                }
            } else if let j = seen[s.fileName] {
                throw error(
                    .inconsistent, s.line, 1,
                    "signal \(i) uses \(s.fileName) like signal \(j), but signals sharing a file "
                        + "must be consecutive")
            }
            seen[s.fileName] = i
        }
    }
}

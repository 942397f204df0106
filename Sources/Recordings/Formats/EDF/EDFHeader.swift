/// The header of an EDF, EDF+, BDF or BDF+ file: 256 bytes of recording fields and 256 bytes per
/// signal, all fixed-width ASCII (Kemp et al. 1992; EDF+ Kemp & Olivan 2003; BioSemi BDF).
///
/// Every number is parsed from its field and range-checked where it is read: the signal count
/// (at most ``maximumSignals``), the header size (`256 × (signals + 1)`), the record duration
/// (finite, ≥ 0), samples per record (≥ 0, and a record of at most ``maximumRecordBytes``),
/// digital minimum < maximum within the sample width, finite physical limits that differ.
/// A bad field is a ``RecordingError`` naming the file and the field's byte offset.
public struct EDFHeader: Sendable {
    /// The variant, from the version and reserved fields.
    public enum Variant: String, Sendable {
        /// EDF (Kemp et al. 1992): 16-bit samples, contiguous records.
        case edf = "EDF"
        /// EDF+ continuous (`EDF+C` in the reserved field).
        case edfPlusC = "EDF+C"
        /// EDF+ discontinuous (`EDF+D`): records start where their time-keeping TAL says.
        case edfPlusD = "EDF+D"
        /// BDF (BioSemi): 24-bit samples, version byte 0xFF + `BIOSEMI`.
        case bdf = "BDF"
        /// BDF+ continuous (`BDF+C`).
        case bdfPlusC = "BDF+C"
        /// BDF+ discontinuous (`BDF+D`).
        case bdfPlusD = "BDF+D"

        /// Bytes per sample: 2 (EDF) or 3 (BDF).
        public var bytesPerSample: Int { isBDF ? 3 : 2 }
        /// Whether samples are 24-bit (BDF, BDF+).
        public var isBDF: Bool { self == .bdf || self == .bdfPlusC || self == .bdfPlusD }
        /// Whether the file is EDF+ or BDF+ (records carry time-keeping annotations).
        public var isPlus: Bool { self != .edf && self != .bdf }
        /// Whether records may be discontinuous (`+D`).
        public var isDiscontinuous: Bool { self == .edfPlusD || self == .bdfPlusD }
    }

    /// One signal's header fields.
    public struct Signal: Sendable, Hashable {
        /// Label, trailing spaces removed (UTF-8 when valid, else Latin-1).
        public var label: String
        /// Transducer type.
        public var transducer: String
        /// Physical dimension (unit) as written, e.g. `uV`, `mV`, `degC`.
        public var physicalDimension: String
        /// Physical minimum and maximum, in ``physicalDimension``.
        public var physicalMinimum: Double
        /// Physical maximum.
        public var physicalMaximum: Double
        /// Digital minimum and maximum.
        public var digitalMinimum: Int
        /// Digital maximum.
        public var digitalMaximum: Int
        /// Prefiltering, as written.
        public var prefilter: String
        /// Samples in each data record.
        public var samplesPerRecord: Int
        /// Byte offset of this signal's label field in the file (for errors).
        public var headerOffset: Int
        /// Whether this is an `EDF Annotations` / `BDF Annotations` signal (EDF+/BDF+ only).
        public var isAnnotations: Bool

        /// Physical value per digital step and the digital offset, as EDFlib computes them
        /// (`bitvalue = (pmax − pmin) / (dmax − dmin)`, `offset = pmax / bitvalue − dmax`), so
        /// that `physical = bitvalue × (offset + digital)` equals EDFlib's and pyedflib's values.
        public var scale: (bitValue: Double, offset: Double) {
            let bitValue = (physicalMaximum - physicalMinimum) / Double(digitalMaximum - digitalMinimum)
            return (bitValue, physicalMaximum / bitValue - Double(digitalMaximum))
        }
    }

    /// The variant.
    public var variant: Variant
    /// Local patient identification (EDF+: code, sex, birthdate, name). Not stored in results.
    public var patient: String
    /// Local recording identification (EDF+: `Startdate dd-MMM-yyyy admin technician equipment`).
    public var recording: String
    /// Start of the recording, seconds since 1970 from the header's `dd.mm.yy hh.mm.ss` (years 85–99
    /// are 1985–1999, 00–84 are 2000–2084, as EDF specifies); the clock's zone is not given.
    public var startSeconds: Double
    /// Number of data records the header declares (`nil` for −1, "unknown").
    public var recordCount: Int?
    /// Duration of one data record, seconds (0 for annotation-only files).
    public var recordDurationSeconds: Double
    /// Signals, in file order (annotation signals included).
    public var signals: [Signal]
    /// Bytes of the header (`256 × (signals + 1)`), where the first data record starts.
    public var headerBytes: Int
    /// Bytes of one data record.
    public var recordBytes: Int

    /// Largest number of signals accepted (EDFlib's limit is 4,096 too).
    public static let maximumSignals = 4096
    /// Largest data record accepted, bytes (256 MiB): a record is read whole.
    public static let maximumRecordBytes = 1 << 28

    /// Whether `head` starts like an EDF or BDF file: `0` + 7 spaces or 0xFF `BIOSEMI`, then a
    /// header-size field of digits.
    static func looksLikeEDF(_ head: [UInt8]) -> Bool {
        guard head.count >= 192 else { return false }
        let edf = head[0] == 0x30 && head[1..<8].allSatisfy { $0 == 0x20 }
        let bdf = head[0] == 0xFF && head[1..<8].elementsEqual("BIOSEMI".utf8)
        guard edf || bdf else { return false }
        let size = head[184..<192].filter { $0 != 0x20 }
        return !size.isEmpty && size.allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
    }

    /// Parses a header.
    /// - Parameters:
    ///   - fixed: the first 256 bytes.
    ///   - read: reads the signal part: given a byte count, returns the bytes (fewer at the end of the file).
    ///   - file: the path, for errors.
    ///   - fileSize: the file's size when known (uncompressed), to check claims against.
    /// - Throws: ``RecordingError`` naming the field's byte offset.
    /// - Complexity: O(signals).
    static func parse(
        fixed: [UInt8], file: String, read: (Int) throws(RecordingError) -> [UInt8]
    ) throws(RecordingError) -> EDFHeader {
        guard fixed.count == 256 else {
            throw RecordingError(
                .truncated, file: file, byteOffset: fixed.count,
                "the file ends inside the 256-byte EDF header (\(fixed.count) bytes)")
        }
        func text(_ bytes: ArraySlice<UInt8>) -> String { EDFHeader.text(bytes) }
        func field(_ at: Int, _ width: Int) -> ArraySlice<UInt8> { fixed[at..<at + width] }
        let isBDF = fixed[0] == 0xFF && fixed[1..<8].elementsEqual("BIOSEMI".utf8)
        guard isBDF || (fixed[0] == 0x30 && fixed[1..<8].allSatisfy { $0 == 0x20 }) else {
            throw RecordingError(
                .unknownFormat, file: file, byteOffset: 0,
                "the version field is not '0       ' (EDF) or 0xFF 'BIOSEMI' (BDF)")
        }
        let reserved = text(field(192, 44))
        let variant: Variant
        switch (isBDF, String(reserved.prefix(5))) {
        case (false, "EDF+C"): variant = .edfPlusC
        case (false, "EDF+D"): variant = .edfPlusD
        case (true, "BDF+C"), (true, "EDF+C"): variant = .bdfPlusC
        case (true, "BDF+D"), (true, "EDF+D"): variant = .bdfPlusD
        case (true, _): variant = .bdf
        default: variant = .edf
        }
        let start = try startSeconds(date: field(168, 8), time: field(176, 8), file: file)
        let headerBytes = try integer(field(184, 8), at: 184, name: "number of bytes in header", file: file)
        let declaredRecords = try integer(field(236, 8), at: 236, name: "number of data records", file: file)
        let duration = try number(field(244, 8), at: 244, name: "duration of a data record", file: file)
        let count = try integer(field(252, 4), at: 252, name: "number of signals", file: file)
        guard declaredRecords >= -1 else {
            throw RecordingError(
                .outOfRange, file: file, byteOffset: 236,
                "number of data records \(declaredRecords) is negative (only −1, unknown, is allowed)")
        }
        guard duration >= 0, duration <= 1e9 else {
            throw RecordingError(
                .outOfRange, file: file, byteOffset: 244, "duration of a data record \(duration) s is negative or absurd")
        }
        guard (0...maximumSignals).contains(count) else {
            throw RecordingError(
                .outOfRange, file: file, byteOffset: 252,
                "number of signals \(count) is outside 0 … \(maximumSignals)")
        }
        guard headerBytes == 256 * (count + 1) else {
            throw RecordingError(
                .inconsistent, file: file, byteOffset: 184,
                "number of bytes in header \(headerBytes) is not 256 × (\(count) signals + 1) = \(256 * (count + 1))")
        }
        let part = try read(256 * count)
        guard part.count == 256 * count else {
            throw RecordingError(
                .truncated, file: file, byteOffset: 256 + part.count,
                "the file ends inside the signal header (\(count) signals need \(256 * count) bytes after byte 256)")
        }
        var signals: [Signal] = []
        signals.reserveCapacity(count)
        let width = variant.bytesPerSample
        let (digitalLow, digitalHigh) = width == 3 ? (-8_388_608, 8_388_607) : (-32768, 32767)
        var recordBytes = 0
        // Field k of signal i starts at 256 + offset(k) × count + i × width(k).
        let widths = [16, 80, 8, 8, 8, 8, 8, 80, 8, 32]
        var starts = [Int](repeating: 0, count: widths.count)
        for k in 1..<widths.count { starts[k] = starts[k - 1] + widths[k - 1] * count }
        for i in 0..<count {
            func f(_ k: Int) -> (ArraySlice<UInt8>, Int) {
                let at = starts[k] + i * widths[k]
                return (part[at..<at + widths[k]], 256 + at)
            }
            let label = text(f(0).0)
            let (pminField, pminAt) = f(3), (pmaxField, pmaxAt) = f(4)
            let (dminField, dminAt) = f(5), (dmaxField, dmaxAt) = f(6)
            let (nsField, nsAt) = f(8)
            let what = "signal \(i) (\(label.isEmpty ? "no label" : label))"
            let pmin = try number(pminField, at: pminAt, name: "\(what) physical minimum", file: file)
            let pmax = try number(pmaxField, at: pmaxAt, name: "\(what) physical maximum", file: file)
            let dmin = try integer(dminField, at: dminAt, name: "\(what) digital minimum", file: file)
            let dmax = try integer(dmaxField, at: dmaxAt, name: "\(what) digital maximum", file: file)
            let ns = try integer(nsField, at: nsAt, name: "\(what) number of samples per record", file: file)
            let isAnnotations = variant.isPlus && (label == "EDF Annotations" || label == "BDF Annotations")
            guard ns >= 0, ns <= maximumRecordBytes / width else {
                throw RecordingError(
                    .outOfRange, file: file, byteOffset: nsAt,
                    "\(what): \(ns) samples per record is negative or more than a \(maximumRecordBytes)-byte record holds")
            }
            if !isAnnotations {
                guard dmin < dmax, dmin >= digitalLow, dmax <= digitalHigh else {
                    throw RecordingError(
                        .outOfRange, file: file, byteOffset: dminAt,
                        "\(what): digital minimum \(dmin) and maximum \(dmax) must satisfy "
                            + "\(digitalLow) ≤ minimum < maximum ≤ \(digitalHigh)")
                }
                guard pmin != pmax else {
                    throw RecordingError(
                        .outOfRange, file: file, byteOffset: pminAt,
                        "\(what): physical minimum and maximum are both \(pmin); no scaling follows from them")
                }
            }
            recordBytes += ns * width
            guard recordBytes <= maximumRecordBytes else {
                throw RecordingError(
                    .outOfRange, file: file, byteOffset: nsAt,
                    "data records of more than \(maximumRecordBytes) bytes are not read (signals 0 … \(i) already need "
                        + "\(recordBytes))")
            }
            signals.append(
                Signal(
                    label: label, transducer: text(f(1).0), physicalDimension: text(f(2).0),
                    physicalMinimum: pmin, physicalMaximum: pmax, digitalMinimum: dmin, digitalMaximum: dmax,
                    prefilter: text(f(7).0), samplesPerRecord: ns, headerOffset: 256 + starts[0] + i * 16,
                    isAnnotations: isAnnotations))
        }
        if variant.isPlus && !signals.contains(where: \.isAnnotations) {
            throw RecordingError(
                .missingField, file: file, byteOffset: 256,
                "\(variant.rawValue) file without an '\(variant.isBDF ? "BDF" : "EDF") Annotations' signal")
        }
        if duration == 0 && signals.contains(where: { !$0.isAnnotations && $0.samplesPerRecord > 0 }) {
            throw RecordingError(
                .outOfRange, file: file, byteOffset: 244,
                "data records of duration 0 with ordinary signal samples (only annotation-only files may have them)")
        }
        return EDFHeader(
            variant: variant, patient: text(field(8, 80)), recording: text(field(88, 80)), startSeconds: start,
            recordCount: declaredRecords == -1 ? nil : declaredRecords, recordDurationSeconds: duration,
            signals: signals, headerBytes: headerBytes, recordBytes: recordBytes)
    }

    /// A header field as text without trailing spaces: UTF-8 when valid, else Latin-1 (EDF says
    /// ASCII; files in the wild carry both).
    static func text(_ bytes: ArraySlice<UInt8>) -> String {
        var end = bytes.endIndex
        while end > bytes.startIndex && (bytes[end - 1] == 0x20 || bytes[end - 1] == 0) { end -= 1 }
        var start = bytes.startIndex
        while start < end && bytes[start] == 0x20 { start += 1 }
        let trimmed = bytes[start..<end]
        if let s = String(validating: trimmed, as: UTF8.self) { return s }
        return String(trimmed.map { Character(Unicode.Scalar($0)) })
    }

    static func numberText(_ bytes: ArraySlice<UInt8>, at offset: Int, name: String, file: String) throws(RecordingError) -> String {
        let t = text(bytes)
        guard !t.isEmpty, t.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else {
            throw RecordingError(
                .wrongType, file: file, byteOffset: offset,
                "\(name): '\(t)' is not a number")
        }
        return t
    }

    static func integer(_ bytes: ArraySlice<UInt8>, at offset: Int, name: String, file: String) throws(RecordingError) -> Int {
        let t = try numberText(bytes, at: offset, name: name, file: file)
        // Some writers put "1.000000" or "+5"; accept an integral decimal.
        if let v = Int(t.hasPrefix("+") ? String(t.dropFirst()) : t) { return v }
        if let d = Double(t), d == d.rounded(), abs(d) < 1e15 { return Int(d) }
        throw RecordingError(.wrongType, file: file, byteOffset: offset, "\(name): '\(t)' is not an integer")
    }

    static func number(_ bytes: ArraySlice<UInt8>, at offset: Int, name: String, file: String) throws(RecordingError) -> Double {
        let t = try numberText(bytes, at: offset, name: name, file: file)
        let normalised = String(t.map { $0 == "," ? "." : $0 })
        guard let v = Double(normalised), v.isFinite else {
            throw RecordingError(.wrongType, file: file, byteOffset: offset, "\(name): '\(t)' is not a finite number")
        }
        return v
    }

    /// Seconds since 1970 of `dd.mm.yy` and `hh.mm.ss` (proleptic Gregorian, no zone).
    static func startSeconds(date: ArraySlice<UInt8>, time: ArraySlice<UInt8>, file: String) throws(RecordingError) -> Double {
        func parts(_ f: ArraySlice<UInt8>, at: Int, name: String) throws(RecordingError) -> [Int] {
            let t = text(f)
            let p = t.split(separator: ".", omittingEmptySubsequences: false).map { Int($0) }
            guard p.count == 3, p.allSatisfy({ $0 != nil }) else {
                throw RecordingError(.wrongType, file: file, byteOffset: at, "start\(name) '\(t)' is not dd.mm.yy / hh.mm.ss")
            }
            return p.map { $0! }
        }
        let d = try parts(date, at: 168, name: "date")
        let t = try parts(time, at: 176, name: "time")
        guard (1...31).contains(d[0]), (1...12).contains(d[1]), (0...99).contains(d[2]),
            (0...23).contains(t[0]), (0...59).contains(t[1]), (0...60).contains(t[2])
        else {
            throw RecordingError(
                .outOfRange, file: file, byteOffset: 168,
                "start date \(d.map(String.init).joined(separator: ".")) or time \(t.map(String.init).joined(separator: ".")) is not a valid date and time"
            )
        }
        let year = d[2] >= 85 ? 1900 + d[2] : 2000 + d[2]
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let monthDays = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][d[1] - 1]
        guard d[0] <= monthDays else {
            throw RecordingError(.outOfRange, file: file, byteOffset: 168, "start date \(text(date)): month \(d[1]) has \(monthDays) days")
        }
        return Double(AppleHealthECGValues.daysFromCivil(year: year, month: d[1], day: d[0]) * 86400 + t[0] * 3600 + t[1] * 60 + t[2])
    }
}

/// A parsed WFDB header file (`.hea`): the record line, one ``WFDBSignalSpec`` per signal (or one
/// ``Segment`` per segment of a multi-segment record), and the comment lines.
///
/// Record line grammar (header(5)):
/// ```
/// name[/segments] signals [frequency[/counterFrequency[(baseCounter)]] [samplesPerSignal
///     [baseTime [baseDate]]]]
/// ```
/// e.g. `100 2 360 650000`, `sel100 2 250/360 225000`, `rec 3 500 10000 13:05:00.25 25/4/1989`.
/// Comment lines start with `#` (after optional blanks) and may appear anywhere; empty lines
/// are skipped; lines may end in CRLF. Errors name the `.hea` file, the 1-based line and column.
///
/// Source: PhysioNet WFDB Applications Guide, header(5) (G. B. Moody); Goldberger A. L. et al.,
/// PhysioBank, PhysioToolkit, and PhysioNet, Circulation 101(23):e215–e220, 2000,
/// doi:10.1161/01.CIR.101.23.e215.
public struct WFDBHeader: Sendable, Hashable {
    /// A segment specification line of a multi-segment record.
    public struct Segment: Sendable, Hashable {
        /// Record name of the segment (`~` for a null segment).
        public var recordName: String
        /// Samples per signal in the segment.
        public var samplesPerSignal: Int

        /// Creates a segment specification.
        /// - Complexity: O(1).
        public init(recordName: String, samplesPerSignal: Int) {
            self.recordName = recordName
            self.samplesPerSignal = samplesPerSignal
        }
    }

    /// A calendar date (base date of a record).
    public struct Date: Sendable, Hashable {
        /// Day of month, 1…31.
        public var day: Int
        /// Month, 1…12.
        public var month: Int
        /// Year (four digits).
        public var year: Int

        /// Creates a date.
        /// - Complexity: O(1).
        public init(day: Int, month: Int, year: Int) {
            self.day = day
            self.month = month
            self.year = year
        }
    }

    /// Path of the header file, as given by the caller.
    public var path: String
    /// Record name.
    public var recordName: String
    /// Number of segments for a multi-segment record, `nil` for an ordinary record.
    public var segmentCount: Int?
    /// Number of signals.
    public var signalCount: Int
    /// Sampling frequency in Hz (frames per second); 250 (`DEFREQ`) when absent.
    public var samplingFrequency: Double
    /// Whether the header writes the sampling frequency.
    public var hasSamplingFrequency: Bool
    /// Counter frequency in Hz, if written.
    public var counterFrequency: Double?
    /// Counter value of sample 0, if written.
    public var baseCounterValue: Double?
    /// Number of samples (frames) per signal; `nil` when absent or 0 (unspecified: checksums are
    /// not verified).
    public var samplesPerSignal: Int?
    /// Line numbers of specification lines beyond the declared signal (or segment) count: the
    /// header contradicts itself (the record line says fewer signals than it describes).
    public var extraSpecificationLines: [Int] = []
    /// Time of day of sample 0 in seconds after midnight, if written.
    public var baseTimeSeconds: Double?
    /// Date of sample 0, if written (a `0/0/0` placeholder is treated as absent).
    public var baseDate: Date?
    /// Signal specifications, one per signal (empty for a multi-segment record).
    public var signals: [WFDBSignalSpec]
    /// Segment specifications of a multi-segment record.
    public var segments: [Segment]
    /// Text of every comment line, without the `#` and the blanks after it, in file order.
    public var comments: [String]
    /// 1-based line of the record line.
    public var recordLine: Int

    /// Start of the record in Unix seconds (UTC assumed: WFDB headers carry no time zone), when
    /// both the base date and the base time are given; `nil` otherwise.
    /// - Complexity: O(1).
    public var startUnixSeconds: Double? {
        guard let d = baseDate, let t = baseTimeSeconds else { return nil }
        return Double(Self.daysFromCivil(year: d.year, month: d.month, day: d.day)) * 86_400 + t
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (Hinnant, "chrono-Compatible Low-Level
    /// Date Algorithms", 2013, `days_from_civil`).
    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// Reads and parses a header file (plain or gzip).
    /// - Parameter path: the `.hea` file.
    /// - Returns: the parsed header.
    /// - Throws: ``RecordingError`` naming the file, line and column of the first malformed
    ///   field (`.syntax`, `.wrongType`, `.outOfRange`, `.missingField`, `.inconsistent`), or the
    ///   errors of ``ByteSource``.
    /// - Complexity: O(file size).
    public static func read(path: String) throws(RecordingError) -> WFDBHeader {
        let reader = LineReader(
            source: try ByteSource(path: path, chunkSize: 1 << 16), chunkSize: 1 << 16,
            maximumLineLength: 1 << 20)
        var lines = [(Int, [UInt8])]()
        var total = 0
        while let range = try reader.nextLine() {
            total += range.count + 1
            guard total <= InputLimits.wfdbHeaderBytes else {
                throw RecordingError(
                    .outOfRange, file: path, line: reader.lineNumber, column: 1,
                    "the header is longer than \(InputLimits.wfdbHeaderBytes >> 20) MiB; not a WFDB header")
            }
            var line = Array(reader.buffer[range])
            // A UTF-8 byte-order mark before the record line (editors on Windows write one).
            if reader.lineNumber == 1 && line.starts(with: [0xEF, 0xBB, 0xBF]) { line.removeFirst(3) }
            lines.append((reader.lineNumber, line))
        }
        var parser = WFDBHeaderParser(path: path)
        return try parser.parse(lines)
    }

    /// Parses header text already in memory.
    /// - Parameters:
    ///   - text: the header's content.
    ///   - path: the name to use in error messages and to resolve signal files against.
    /// - Throws: as ``read(path:)``.
    /// - Complexity: O(text length).
    public init(parsing text: String, path: String) throws(RecordingError) {
        var lines = [(Int, [UInt8])]()
        var number = 0
        for raw in text.utf8.split(separator: 0x0a, omittingEmptySubsequences: false) {
            number += 1
            var bytes = Array(raw)
            if bytes.last == 0x0d { bytes.removeLast() }
            if number == 1 && bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
            lines.append((number, bytes))
        }
        if lines.last?.1.isEmpty == true { lines.removeLast() }
        var parser = WFDBHeaderParser(path: path)
        self = try parser.parse(lines)
    }

    init(path: String) {
        self.path = path
        recordName = ""
        segmentCount = nil
        signalCount = 0
        samplingFrequency = 250
        hasSamplingFrequency = false
        counterFrequency = nil
        baseCounterValue = nil
        samplesPerSignal = nil
        baseTimeSeconds = nil
        baseDate = nil
        signals = []
        segments = []
        comments = []
        recordLine = 0
    }

    /// Storage formats defined by signal(5) and `<wfdb/wfdb.h>`.
    public static let knownFormats: Set<Int> = [0, 8, 16, 24, 32, 61, 80, 160, 212, 310, 311, 508, 516, 524]
}

/// A decoding error or warning that names the file, the place in it and what was wrong.
///
/// `description` reads like a compiler diagnostic: `path:line:column: message` for text formats,
/// `path: byte N: message` for binary ones, so a researcher can open the file at the spot.
public struct RecordingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of problem it is; new codes may be added.
    public struct Code: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        public var rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        /// The file could not be opened or read.
        public static let unreadable = Code(rawValue: "unreadable")
        /// The file holds no data at all.
        public static let empty = Code(rawValue: "empty")
        /// The file ends in the middle of a record, line or compressed stream.
        public static let truncated = Code(rawValue: "truncated")
        /// Bytes that are not valid UTF-8 where text is expected.
        public static let invalidUTF8 = Code(rawValue: "invalid-utf8")
        /// Malformed syntax (JSON, CSV, header grammar).
        public static let syntax = Code(rawValue: "syntax")
        /// A field has the wrong type (string where a number is expected, …).
        public static let wrongType = Code(rawValue: "wrong-type")
        /// A required field or header line is missing.
        public static let missingField = Code(rawValue: "missing-field")
        /// A value is out of its valid range (negative rate, huge number, unknown enum value).
        public static let outOfRange = Code(rawValue: "out-of-range")
        /// NaN or infinity where a finite number is required.
        public static let nonFinite = Code(rawValue: "non-finite")
        /// Schema name or version this build does not know.
        public static let unsupportedVersion = Code(rawValue: "unsupported-version")
        /// The content matches no known format.
        public static let unknownFormat = Code(rawValue: "unknown-format")
        /// Values that contradict each other (checksum mismatch, sample count mismatch, …).
        public static let inconsistent = Code(rawValue: "inconsistent")
        /// Time going backwards where the format requires order.
        public static let timeOrder = Code(rawValue: "time-order")
        /// Data read and accounted for that no SensorPipe analysis uses (an Apple Health
        /// export's record types other than the streamed ones): said once, not an error.
        public static let notAnalysed = Code(rawValue: "not-analysed")
    }

    /// The kind of problem.
    public var code: Code
    /// Path of the file, as given by the caller.
    public var file: String
    /// 1-based line number, for text formats.
    public var line: Int?
    /// 1-based column (in bytes), for text formats.
    public var column: Int?
    /// 0-based byte offset in the (decompressed) content, for binary formats.
    public var byteOffset: Int?
    /// What was wrong and what was expected.
    public var message: String

    /// Creates an error.
    public init(
        _ code: Code, file: String, line: Int? = nil, column: Int? = nil,
        byteOffset: Int? = nil, _ message: String
    ) {
        self.code = code
        self.file = file
        self.line = line
        self.column = column
        self.byteOffset = byteOffset
        self.message = message
    }

    public var description: String {
        var place = FilePathBytes.display(file)
        if let line {
            place += ":\(line)"
            if let column { place += ":\(column)" }
        } else if let byteOffset {
            place += ": byte \(byteOffset)"
        }
        return "\(place): \(code): \(message)"
    }
}

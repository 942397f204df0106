/// Why a report could not be written: a code and a message naming the file.
public struct ReportError: Error, CustomStringConvertible, Sendable {
    /// What went wrong.
    public enum Code: String, Sendable {
        /// The results database does not exist.
        case databaseMissing
        /// The file is not a readable results database.
        case databaseUnreadable
        /// A query failed.
        case query
        /// `--recording` matched no recording.
        case noSuchRecording
        /// The output folder or a file in it could not be written.
        case output
    }

    /// What went wrong.
    public var code: Code
    /// The message, naming the file.
    public var message: String

    /// Creates an error.
    public init(code: Code, message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "\(code.rawValue): \(message)" }
}

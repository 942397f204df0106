import Foundation
import Recordings
import Signals

/// A configuration that cannot be used (a file, a flag or a typed setting): a code, the dotted
/// key at fault when there is one, and a message naming the origin.
public struct ConfigurationError: Error, CustomStringConvertible, Sendable {
    /// What kind of problem it is; new codes may be added.
    public struct Code: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        public var rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }
        /// The file cannot be read.
        public static let unreadable = Code(rawValue: "unreadable")
        /// The file is not JSON, or not a JSON object.
        public static let syntax = Code(rawValue: "syntax")
        /// No family, section or option has this key.
        public static let unknownKey = Code(rawValue: "unknown-key")
        /// A value of the wrong JSON type.
        public static let wrongType = Code(rawValue: "wrong-type")
        /// A value the option does not accept.
        public static let invalidValue = Code(rawValue: "invalid-value")
    }

    /// What kind of problem.
    public var code: Code
    /// The dotted key at fault (`ecg.hrv_window_s`, `decode.preset`), or `nil`.
    public var key: String?
    /// `origin: what is wrong`.
    public var description: String

    /// Creates an error.
    /// - Parameters:
    ///   - code: the kind of problem.
    ///   - key: the dotted key at fault, or `nil`.
    ///   - description: `origin: what is wrong`.
    public init(code: Code, key: String? = nil, description: String) {
        self.code = code
        self.key = key
        self.description = description
    }

    /// The same problem, told for `origin` (a file or a flag).
    init(_ error: OptionValueError, origin: String) {
        self.init(code: Code(rawValue: error.code.rawValue), key: error.key, description: "\(origin): \(error)")
    }
}

extension AnalysisConfiguration {
    /// Reads a configuration file (`sensorpipe run --config FILE`): JSON of the same shape as
    /// ``canonicalJSON(softwareVersion:)`` (its `software_version` is ignored), every key
    /// optional, one section per registered family with the keys its options declare, read with
    /// `JSONDecoder` (``init(from:)``):
    /// ```json
    /// {"ecg": {"heart_rate_window_s": 10, "heart_rate_step_s": 10, "hrv_window_s": 300,
    ///          "quality_window_s": 10},
    ///  "decode": {"preset": "auto"}}
    /// ```
    /// Unknown keys are errors (a misspelt option must not be silently ignored).
    /// - Parameter path: the file.
    /// - Throws: ``ConfigurationError`` naming the file, the key and what is wrong with it.
    /// - Complexity: O(file size).
    public init(configurationFile path: String) throws {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ConfigurationError(code: .unreadable, description: "\(path): cannot read the configuration file")
        }
        if let e = JSONSyntax.firstError(in: [UInt8](data)) {
            throw ConfigurationError(code: .syntax, description: "\(path):\(e.line):\(e.column): not valid JSON: \(e.message)")
        }
        do {
            self = try JSONDecoder().decode(AnalysisConfiguration.self, from: data)
        } catch let error as OptionValueError {
            throw ConfigurationError(error, origin: path)
        } catch DecodingError.typeMismatch(_, let context) where context.codingPath.isEmpty {
            throw ConfigurationError(code: .syntax, description: "\(path): expected a JSON object at the top level")
        } catch {
            throw ConfigurationError(code: .syntax, description: "\(path): not valid JSON (\(error.localizedDescription))")
        }
    }
}

/// The key of one option in an options object (`heart_rate_window_s`), or of one section of a
/// configuration (`ecg`).
public struct OptionCodingKey: CodingKey, Sendable, Hashable {
    public var stringValue: String
    public var intValue: Int? { nil }

    /// A key.
    /// - Parameter stringValue: the key as written in JSON.
    public init(_ stringValue: String) { self.stringValue = stringValue }
    public init?(stringValue: String) { self.stringValue = stringValue }
    public init?(intValue: Int) { nil }
}

/// A configuration value that cannot be used: the dotted key (`ecg.hrv_window_s`) and what is
/// wrong with it. Thrown from the `Decodable` initialisers of options and configurations (a
/// decoder passes it through unchanged).
public struct OptionValueError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of problem it is; new codes may be added.
    public struct Code: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        public var rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }
        /// No option or section has this key.
        public static let unknownKey = Code(rawValue: "unknown-key")
        /// The value is of the wrong JSON type (a number where `true`/`false` is expected, …).
        public static let wrongType = Code(rawValue: "wrong-type")
        /// The value is of the right type but not accepted (out of range, not a listed word).
        public static let invalidValue = Code(rawValue: "invalid-value")
    }

    /// What kind of problem.
    public var code: Code
    /// The dotted key (`ecg.hrv_window_s`, `decode.preset`, or a section name).
    public var key: String
    /// What is wrong (`must be a number from 10 to 86400, got 5`).
    public var message: String

    /// Creates an error.
    /// - Parameters:
    ///   - code: the kind of problem.
    ///   - key: the dotted key.
    ///   - message: what is wrong with its value.
    public init(_ code: Code, key: String, _ message: String) {
        self.code = code
        self.key = key
        self.message = message
    }

    /// `unknown key 'ecg.x' (known: …)` for an unknown key, else `'key' message`.
    public var description: String { code == .unknownKey ? "unknown key '\(key)' \(message)" : "'\(key)' \(message)" }
}

extension OptionValue: Codable {
    /// Reads a JSON `true`/`false` as ``flag(_:)``, a number as ``number(_:)`` and a string as
    /// ``choice(_:)`` (the JSON type decides, never the text of a number).
    /// - Throws: `DecodingError` for anything else (an array, an object, `null`).
    public init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        if let b = try? c.decode(Bool.self) {
            self = .flag(b)
        } else if let x = try? c.decode(Double.self) {
            self = .number(x)
        } else if let s = try? c.decode(String.self) {
            self = .choice(s)
        } else {
            throw DecodingError.typeMismatch(
                OptionValue.self,
                .init(codingPath: c.codingPath, debugDescription: "expected a number, true/false or text"))
        }
    }

    /// Writes a number, `true`/`false` or a string.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        switch self {
        case .number(let x): try c.encode(x)
        case .flag(let b): try c.encode(b)
        case .choice(let s): try c.encode(s)
        }
    }
}

extension OptionKind {
    /// Decodes the value of one option of this kind and checks it.
    /// - Parameters:
    ///   - container: the options object.
    ///   - key: the option's key.
    ///   - dottedKey: `family.key`, for the error.
    /// - Returns: the checked value.
    /// - Throws: ``OptionValueError`` (`wrong-type` or `invalid-value`) naming `dottedKey`.
    public func decodeValue(
        from container: KeyedDecodingContainer<OptionCodingKey>, forKey key: OptionCodingKey, dottedKey: String
    ) throws -> OptionValue {
        let value: OptionValue
        do {
            value = try container.decode(OptionValue.self, forKey: key)
        } catch {
            throw OptionValueError(.wrongType, key: dottedKey, "must be a number, true/false or text")
        }
        if let problem = AnalysisOption<Void>.check(value, self) {
            let sameType: Bool
            switch (self, value) {
            case (.number, .number), (.flag, .flag), (.choice, .choice), (.text, .choice): sameType = true
            default: sameType = false
            }
            throw OptionValueError(sameType ? .invalidValue : .wrongType, key: dottedKey, problem)
        }
        return value
    }
}

extension AnalysisFamily {
    /// Writes `options` as a JSON object keyed by the declared option keys (``options``), the
    /// shape of the family's section in configuration files and the canonical configuration.
    /// - Parameters:
    ///   - options: the options.
    ///   - encoder: where to write.
    /// - Complexity: O(declared options).
    public static func encode(_ options: Options, to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: OptionCodingKey.self)
        for o in self.options { try c.encode(o.value(in: options), forKey: OptionCodingKey(o.key)) }
    }

    /// Reads options from a JSON object keyed by the declared option keys; keys not given keep
    /// their defaults.
    /// - Parameter decoder: where to read.
    /// - Returns: the options.
    /// - Throws: ``OptionValueError`` naming `family.key` for an unknown key, a value of the wrong
    ///   type or one the option does not accept; `DecodingError` when the section is not an object.
    /// - Complexity: O(keys × declared options).
    public static func decodeOptions(from decoder: any Decoder) throws -> Options {
        let c = try decoder.container(keyedBy: OptionCodingKey.self)
        var result = defaultOptions
        for key in c.allKeys.sorted(by: { $0.stringValue < $1.stringValue }) {
            guard let option = options.first(where: { $0.key == key.stringValue }) else {
                throw OptionValueError(
                    .unknownKey, key: "\(name).\(key.stringValue)",
                    "(known: " + options.map { "\(name).\($0.key)" }.joined(separator: ", ") + ")")
            }
            let value = try option.kind.decodeValue(from: c, forKey: key, dottedKey: "\(name).\(key.stringValue)")
            _ = option.apply(value, to: &result)
        }
        return result
    }
}

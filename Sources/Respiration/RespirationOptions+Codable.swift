import Signals

extension RespirationOptions: Codable {
    /// Reads the options from a JSON object keyed by RespirationFamily's declared option keys (its
    /// section of a configuration file); keys not given keep their defaults.
    /// - Throws: `OptionValueError` naming the key for an unknown key or a value not accepted.
    public init(from decoder: any Decoder) throws { self = try RespirationFamily.decodeOptions(from: decoder) }

    /// Writes the options as a JSON object keyed by RespirationFamily's declared option keys.
    public func encode(to encoder: any Encoder) throws { try RespirationFamily.encode(self, to: encoder) }
}

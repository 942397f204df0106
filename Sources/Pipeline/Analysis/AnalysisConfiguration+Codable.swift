import Foundation
import Recordings
import Signals

extension AnalysisConfiguration: Codable {
    /// Reads a configuration: an object with an optional `decode` section (`preset`,
    /// `verify_integrity`), one optional section per registered family keyed by its declared
    /// option keys, and an ignored `software_version`. Keys not given keep their defaults.
    /// - Throws: ``OptionValueError`` naming the dotted key for an unknown key, a value of the
    ///   wrong JSON type or one not accepted (a decoder passes it through); `DecodingError` when
    ///   the top level is not an object.
    /// - Complexity: O(keys × declared options).
    public init(from decoder: any Decoder) throws {
        self.init()
        let top = try decoder.container(keyedBy: OptionCodingKey.self)
        let sections = ["decode"] + AnalysisRegistry.families.map(\.name)
        for key in top.allKeys.map(\.stringValue).sorted() where !sections.contains(key) && key != "software_version" {
            throw OptionValueError(.unknownKey, key: key, "(known: " + sections.joined(separator: ", ") + ")")
        }
        for family in AnalysisRegistry.families where top.contains(OptionCodingKey(family.name)) {
            let section = try Self.section(family.name, of: top)
            for key in section.allKeys.sorted(by: { $0.stringValue < $1.stringValue }) {
                let dotted = "\(family.name).\(key.stringValue)"
                guard let option = family.options.first(where: { $0.key == key.stringValue }) else {
                    throw OptionValueError(
                        .unknownKey, key: dotted,
                        "(known: " + family.options.map { "\(family.name).\($0.key)" }.joined(separator: ", ") + ")")
                }
                values[family.name, default: [:]][key.stringValue] = try option.kind.decodeValue(
                    from: section, forKey: key, dottedKey: dotted)
            }
        }
        guard top.contains(OptionCodingKey("decode")) else { return }
        let section = try Self.section("decode", of: top)
        for key in section.allKeys.map(\.stringValue).sorted() where key != "preset" && key != "verify_integrity" {
            throw OptionValueError(.unknownKey, key: "decode.\(key)", "(known: decode.preset, decode.verify_integrity)")
        }
        if section.contains(OptionCodingKey("verify_integrity")) {
            let value = try OptionKind.flag.decodeValue(
                from: section, forKey: OptionCodingKey("verify_integrity"), dottedKey: "decode.verify_integrity")
            if case .flag(let b) = value { decode.verifiesIntegrity = b }
        }
        if section.contains(OptionCodingKey("preset")) {
            let words = ["auto"] + RecordingPreset.allCases.map(\.rawValue)
            let problem =
                "must be auto or one of " + RecordingPreset.allCases.map(\.rawValue).joined(separator: ", ")
            let value = try? section.decode(OptionValue.self, forKey: OptionCodingKey("preset"))
            guard case .choice(let name)? = value, words.contains(name) else {
                let got = value.map { ", got \($0)" } ?? ""
                let code: OptionValueError.Code = { if case .choice? = value { return .invalidValue } else { return .wrongType } }()
                throw OptionValueError(code, key: "decode.preset", problem + got)
            }
            decode.preset = RecordingPreset(rawValue: name)
        }
    }

    /// The section `name` of `top` as an object.
    private static func section(
        _ name: String, of top: KeyedDecodingContainer<OptionCodingKey>
    ) throws -> KeyedDecodingContainer<OptionCodingKey> {
        do {
            return try top.nestedContainer(keyedBy: OptionCodingKey.self, forKey: OptionCodingKey(name))
        } catch {
            throw OptionValueError(.wrongType, key: name, "must be an object")
        }
    }

    /// Writes the `decode` section (the preset, `auto` when none; `verify_integrity: false`
    /// only when integrity failures are only reported) and one section per registered family
    /// with every option's value.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: OptionCodingKey.self)
        var decodeSection = ["preset": OptionValue.choice(decode.preset?.rawValue ?? "auto")]
        if !decode.verifiesIntegrity { decodeSection["verify_integrity"] = .flag(false) }
        try c.encode(decodeSection, forKey: OptionCodingKey("decode"))
        for (family, options) in values { try c.encode(options, forKey: OptionCodingKey(family)) }
    }

    /// The configuration with the version of the software that runs it (what
    /// ``canonicalJSON(softwareVersion:)`` writes).
    struct Canonical: Encodable {
        let configuration: AnalysisConfiguration
        let softwareVersion: String

        func encode(to encoder: any Encoder) throws {
            try configuration.encode(to: encoder)
            var c = encoder.container(keyedBy: OptionCodingKey.self)
            try c.encode(softwareVersion, forKey: OptionCodingKey("software_version"))
        }
    }

    /// The configuration as canonical JSON (`JSONEncoder`, sorted keys, no whitespace): the
    /// software version (a new version may change results), the decoder preset (and
    /// `verify_integrity: false` when integrity failures are only reported; absent at the
    /// default, so hashes of earlier runs stay valid) and every family's option values. Its
    /// hash decides resuming; the text is the same byte for byte as the `JSONSerialization`
    /// text of releases up to 0.3.0 (tested).
    /// - Parameter softwareVersion: ``SensorPipeVersion/current``.
    /// - Returns: JSON text.
    public func canonicalJSON(softwareVersion: String) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data = (try? encoder.encode(Canonical(configuration: self, softwareVersion: softwareVersion))) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }
}

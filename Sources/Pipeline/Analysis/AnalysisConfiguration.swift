import Cardio
import Foundation
import Recordings
import Signals

/// Every option that changes results: decoding and each registered family's options
/// (``AnalysisRegistry``). Its canonical JSON (``canonicalJSON(softwareVersion:)``) is stored with
/// each run and its hash decides resuming; configuration files (`--config`), command-line flags
/// and `--help` all come from the families' declared options (``OptionDescriptor``).
public struct AnalysisConfiguration: Sendable {
    /// Decoder options (block size does not change results; the preset and mappings do).
    public var decode: DecodeOptions
    /// Option values per family name, every declared key present (defaults filled in).
    public private(set) var values: [String: [String: OptionValue]]

    /// Creates a configuration with every default (automatic decoding).
    public init(decode: DecodeOptions = DecodeOptions()) {
        self.decode = decode
        var values = [String: [String: OptionValue]]()
        for family in AnalysisRegistry.families {
            values[family.name] = Dictionary(uniqueKeysWithValues: family.options.map { ($0.key, $0.defaultValue) })
        }
        self.values = values
    }

    /// Creates a configuration with the given ECG options and defaults elsewhere.
    public init(decode: DecodeOptions = DecodeOptions(), ecg: ECGOptions) {
        self.init(decode: decode)
        self.ecg = ecg
    }

    /// The typed options of a family.
    /// - Parameter family: a registered family.
    /// - Returns: its options with this configuration's values.
    public func options<F: AnalysisFamily>(of family: F.Type) -> F.Options {
        F.options(applying: values[F.name] ?? [:])
    }

    /// Sets every option of a family from typed options.
    public mutating func setOptions<F: AnalysisFamily>(_ options: F.Options, of family: F.Type) {
        for o in F.options { values[F.name, default: [:]][o.key] = o.value(in: options) }
    }

    /// The ECG family's options.
    public var ecg: ECGOptions {
        get { options(of: ECGFamily.self) }
        set { setOptions(newValue, of: ECGFamily.self) }
    }

    /// Sets one option by family and key (configuration files and command-line flags).
    /// - Throws: ``ConfigurationError`` for an unknown family or key, or a value the option does
    ///   not accept, naming `origin` (a file or a flag).
    public mutating func set(family: String, key: String, value: OptionValue, origin: String) throws(ConfigurationError) {
        guard let entry = AnalysisRegistry.family(named: family) else {
            throw ConfigurationError(
                description: "\(origin): unknown analysis '\(family)' (known: "
                    + AnalysisRegistry.families.map(\.name).joined(separator: ", ") + ")")
        }
        guard let option = entry.options.first(where: { $0.key == key }) else {
            throw ConfigurationError(
                description: "\(origin): unknown key '\(family).\(key)' (known: "
                    + entry.options.map { "\(family).\($0.key)" }.joined(separator: ", ") + ")")
        }
        if let problem = AnalysisOption<Void>.check(value, option.kind) {
            throw ConfigurationError(description: "\(origin): '\(family).\(key)' \(problem)")
        }
        values[family, default: [:]][key] = value
    }

    /// The configuration as canonical JSON (sorted keys, no whitespace): the software version (a
    /// new version may change results), the decoder preset (and `verify_integrity: false` when
    /// integrity failures are only reported; absent at the default, so hashes of earlier runs
    /// stay valid) and every family's option values.
    /// - Parameter softwareVersion: ``SensorPipeVersion/current``.
    /// - Returns: JSON text.
    public func canonicalJSON(softwareVersion: String) -> String {
        var decodeSection: [String: Any] = ["preset": decode.preset.map { "\($0.rawValue)" } ?? "auto"]
        if !decode.verifiesIntegrity { decodeSection["verify_integrity"] = false }
        var config: [String: Any] = ["software_version": softwareVersion, "decode": decodeSection]
        for (family, options) in values {
            var section = [String: Any]()
            for (key, value) in options {
                switch value {
                case .number(let x): section[key] = x
                case .flag(let b): section[key] = b
                case .choice(let s): section[key] = s
                }
            }
            config[family] = section
        }
        let data = (try? JSONSerialization.data(withJSONObject: config, options: [.sortedKeys])) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }
}

/// The version of SensorPipe's results (stored in `runs.software_version`, part of the
/// configuration hash that decides resuming).
public enum SensorPipeVersion {
    /// This build's version.
    public static let current = "0.3.0"
}

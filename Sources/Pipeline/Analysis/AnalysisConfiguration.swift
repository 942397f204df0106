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
    public internal(set) var values: [String: [String: OptionValue]]

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
    @available(*, deprecated, message: "set configuration[ECGFamily.self] instead")
    public init(decode: DecodeOptions = DecodeOptions(), ecg: ECGOptions) {
        self.init(decode: decode)
        self[ECGFamily.self] = ecg
    }

    /// A family's typed options (`configuration[PPGFamily.self].hrvWindowSeconds = 120`).
    /// - Parameter family: a family; a family not registered gets its defaults and its values
    ///   are kept under its name.
    /// - Complexity: O(declared options of the family).
    public subscript<F: AnalysisFamily>(_ family: F.Type) -> F.Options {
        get { options(of: family) }
        set { setOptions(newValue, of: family) }
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
    @available(*, deprecated, message: "use configuration[ECGFamily.self]")
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
                code: .unknownKey, key: family,
                description: "\(origin): unknown analysis '\(family)' (known: "
                    + AnalysisRegistry.families.map(\.name).joined(separator: ", ") + ")")
        }
        guard let option = entry.options.first(where: { $0.key == key }) else {
            throw ConfigurationError(
                code: .unknownKey, key: "\(family).\(key)",
                description: "\(origin): unknown key '\(family).\(key)' (known: "
                    + entry.options.map { "\(family).\($0.key)" }.joined(separator: ", ") + ")")
        }
        if let problem = AnalysisOption<Void>.check(value, option.kind) {
            throw ConfigurationError(
                code: .invalidValue, key: "\(family).\(key)", description: "\(origin): '\(family).\(key)' \(problem)")
        }
        values[family, default: [:]][key] = value
    }
}

/// The version of SensorPipe's results (stored in `runs.software_version`, part of the
/// configuration hash that decides resuming).
public enum SensorPipeVersion {
    /// This build's version.
    public static let current = "0.3.0"
}

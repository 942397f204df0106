import Foundation
import Recordings
import Signals

/// A configuration file that cannot be used.
public struct ConfigurationError: Error, CustomStringConvertible, Sendable {
    /// `file: what is wrong`.
    public var description: String
}

extension AnalysisConfiguration {
    /// Reads a configuration file (`sensorpipe run --config FILE`): JSON of the same shape as
    /// ``canonicalJSON(softwareVersion:)`` (its `software_version` is ignored), every key
    /// optional, one section per registered family with the keys its options declare:
    /// ```json
    /// {"ecg": {"heart_rate_window_s": 10, "heart_rate_step_s": 10, "hrv_window_s": 300,
    ///          "quality_window_s": 10},
    ///  "decode": {"preset": "auto"}}
    /// ```
    /// Unknown keys are errors (a misspelt option must not be silently ignored).
    /// - Parameter path: the file.
    /// - Throws: ``ConfigurationError`` naming the file and the key.
    /// - Complexity: O(file size).
    public init(configurationFile path: String) throws {
        self.init()
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ConfigurationError(description: "\(path): cannot read the configuration file")
        }
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: data)
        } catch {
            throw ConfigurationError(description: "\(path): not valid JSON (\(error.localizedDescription))")
        }
        guard let top = object as? [String: Any] else {
            throw ConfigurationError(description: "\(path): expected a JSON object at the top level")
        }
        let sections = ["decode"] + AnalysisRegistry.families.map(\.name)
        for key in top.keys.sorted() where !sections.contains(key) && key != "software_version" {
            throw ConfigurationError(
                description: "\(path): unknown key '\(key)' (known: "
                    + sections.joined(separator: ", ") + ")")
        }
        for family in AnalysisRegistry.families {
            guard let value = top[family.name] else { continue }
            guard let dict = value as? [String: Any] else {
                throw ConfigurationError(description: "\(path): '\(family.name)' must be an object")
            }
            for key in dict.keys.sorted() {
                let raw = dict[key]!
                let option = family.options.first { $0.key == key }
                let parsed: OptionValue
                switch (option?.kind, raw) {
                case (.flag?, let b as Bool): parsed = .flag(b)
                // On Linux a JSON 0 or 1 also casts to Bool (only true/false come as __NSCFBoolean):
                // a number option takes it as a number.
                case (.number?, let n as NSNumber) where "\(type(of: raw))" == "NSNumber": parsed = .number(n.doubleValue)
                case (.choice?, let s as String): parsed = .choice(s)
                case (_, let n as NSNumber) where !(raw is Bool): parsed = .number(n.doubleValue)
                case (_, let s as String): parsed = .choice(s)
                case (_, let b as Bool): parsed = .flag(b)
                default: parsed = .choice("\(raw)")
                }
                try set(family: family.name, key: key, value: parsed, origin: path)
            }
        }
        if let d = top["decode"] {
            guard let dict = d as? [String: Any] else {
                throw ConfigurationError(description: "\(path): 'decode' must be an object")
            }
            for key in dict.keys.sorted() where key != "preset" && key != "verify_integrity" {
                throw ConfigurationError(
                    description: "\(path): unknown key 'decode.\(key)' (known: decode.preset, decode.verify_integrity)")
            }
            if let v = dict["verify_integrity"] {
                guard let b = v as? Bool else {
                    throw ConfigurationError(description: "\(path): 'decode.verify_integrity' must be true or false, got \(v)")
                }
                decode.verifiesIntegrity = b
            }
            if let v = dict["preset"] {
                guard let name = v as? String, name == "auto" || RecordingPreset(rawValue: name) != nil else {
                    throw ConfigurationError(
                        description: "\(path): 'decode.preset' must be auto or one of "
                            + RecordingPreset.allCases.map(\.rawValue).joined(separator: ", ") + ", got \(v)")
                }
                decode.preset = RecordingPreset(rawValue: name)
            }
        }
    }
}

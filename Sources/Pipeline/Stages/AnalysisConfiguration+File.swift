import Foundation
import Recordings

/// A configuration file that cannot be used.
public struct ConfigurationError: Error, CustomStringConvertible, Sendable {
    /// `file: what is wrong`.
    public var description: String
}

extension AnalysisConfiguration {
    /// Reads a configuration file (`sensorpipe run --config FILE`): JSON of the same shape as
    /// ``canonicalJSON(softwareVersion:)`` without `software_version`, every key optional:
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
        func section(_ name: String, keys: [String]) throws -> [String: Any] {
            guard let value = top[name] else { return [:] }
            guard let dict = value as? [String: Any] else {
                throw ConfigurationError(description: "\(path): '\(name)' must be an object")
            }
            for key in dict.keys.sorted() where !keys.contains(key) {
                throw ConfigurationError(description: "\(path): unknown key '\(name).\(key)' (known: "
                                         + keys.map { "\(name).\($0)" }.joined(separator: ", ") + ")")
            }
            return dict
        }
        for key in top.keys.sorted() where !["ecg", "decode", "software_version"].contains(key) {
            throw ConfigurationError(description: "\(path): unknown key '\(key)' (known: ecg, decode)")
        }
        let ecgKeys = ["heart_rate_window_s", "heart_rate_step_s", "hrv_window_s", "quality_window_s"]
        let e = try section("ecg", keys: ecgKeys)
        func seconds(_ key: String) throws -> Double? {
            guard let v = e[key] else { return nil }
            guard let n = v as? NSNumber, !(v is Bool), n.doubleValue > 0, n.doubleValue.isFinite else {
                throw ConfigurationError(description: "\(path): 'ecg.\(key)' must be a positive number of seconds, got \(v)")
            }
            return n.doubleValue
        }
        if let v = try seconds("heart_rate_window_s") { ecg.heartRateWindowSeconds = v }
        if let v = try seconds("heart_rate_step_s") { ecg.heartRateStepSeconds = v }
        if let v = try seconds("hrv_window_s") { ecg.hrvWindowSeconds = v }
        if let v = try seconds("quality_window_s") { ecg.qualityWindowSeconds = v }
        let d = try section("decode", keys: ["preset"])
        if let v = d["preset"] {
            guard let name = v as? String, name == "auto" || RecordingPreset(rawValue: name) != nil else {
                throw ConfigurationError(description: "\(path): 'decode.preset' must be auto or one of "
                                         + RecordingPreset.allCases.map(\.rawValue).joined(separator: ", ") + ", got \(v)")
            }
            decode.preset = RecordingPreset(rawValue: name)
        }
    }
}

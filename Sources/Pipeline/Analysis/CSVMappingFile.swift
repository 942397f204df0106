import Foundation
import Recordings

/// Reads a ``CSVMapping`` from a JSON file (`sensorpipe run --csv-mapping FILE`): the fields of
/// ``CSVMapping`` under their Swift names (docs/SCHEMA.md, "CSV mapping file"):
/// ```json
/// {"deviceID": "wrist-logger",
///  "time": {"column": "timestamp", "unit": "ms", "origin": "unix"},
///  "streams": [{"sensor": "accelerometer", "channel": "acceleration",
///               "columns": [{"column": "ax", "name": "x", "unit": "g"},
///                           {"column": "ay", "name": "y", "unit": "g"},
///                           {"column": "az", "name": "z", "unit": "g"}]}],
///  "hasHeaderRow": true, "delimiter": "automatic", "decimalSeparator": "point", "skipLines": 0}
/// ```
/// - `time`: `{"column": NAME or INDEX, "unit": "s|ms|us|ns", "origin": …}` with `origin`
///   `"unix"` (default), `"start"`, `"first"`, `"local"`, `{"offset": SECONDS}` or
///   `{"firstSampleAt": UNIX}` (``CSVMapping/TimeOrigin``, as `--csv-time`), or
///   `{"sampleRate": HZ, "startUnix": UNIX or null}`.
/// - `sensor`: `accelerometer`, `rotationRate`, `electrocardiogram`, `photoplethysmogram`;
///   `unit`: one of ``CSVColumnOptions/unitNames``; `column`: a header name or a 0-based index.
/// - Optional: `hasHeaderRow` (true), `delimiter` (`automatic`, `comma`, `semicolon`, `tab`),
///   `decimalSeparator` (`point`, `comma`), `skipLines` (0), a stream's `attributes` (strings).
///
/// Unknown keys are errors (a misspelt field must not be ignored).
public enum CSVMappingFile {
    /// What is wrong with a mapping file: the file, the field's path and the problem.
    public struct Error: Swift.Error, Sendable, CustomStringConvertible {
        public var description: String
    }

    /// Reads and checks the mapping in `path`.
    /// - Parameter path: the JSON file.
    /// - Returns: the mapping.
    /// - Throws: ``Error`` naming the file and line:column (JSON syntax) or the field.
    /// - Complexity: O(file size).
    public static func read(path: String) throws(Error) -> CSVMapping {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw Error(description: "\(path): cannot read the CSV mapping file")
        }
        return try parse([UInt8](data), name: path)
    }

    /// Parses a mapping from JSON bytes (``read(path:)``).
    /// - Parameters:
    ///   - bytes: the JSON text.
    ///   - name: the name errors give.
    public static func parse(_ bytes: [UInt8], name: String) throws(Error) -> CSVMapping {
        if let e = JSONSyntax.firstError(in: bytes) {
            throw Error(description: "\(name):\(e.line):\(e.column): not valid JSON: \(e.message)")
        }
        guard let object = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any] else {
            throw Error(description: "\(name): expected a JSON object at the top level")
        }
        func fail(_ key: String, _ message: String) -> Error { Error(description: "\(name): \(key): \(message)") }
        func check(_ dict: [String: Any], _ allowed: Set<String>, at path: String) throws(Error) {
            if let extra = dict.keys.sorted().first(where: { !allowed.contains($0) }) {
                throw fail(
                    path.isEmpty ? extra : "\(path).\(extra)", "unknown field (expected one of \(allowed.sorted().joined(separator: ", ")))"
                )
            }
        }
        func number(_ v: Any?) -> Double? {
            // Booleans are NSNumbers too (objCType "c"); they are not numbers here.
            guard let n = v as? NSNumber, String(cString: n.objCType) != "c" else { return nil }
            return n.doubleValue
        }
        func reference(_ v: Any?, _ key: String) throws(Error) -> CSVMapping.ColumnReference {
            if let s = v as? String, !s.trimmingCharacters(in: .whitespaces).isEmpty { return .name(s) }
            if let d = number(v), d >= 0, d == d.rounded(), d < 1e9 { return .index(Int(d)) }
            throw fail(key, "expected a header name or a 0-based column index")
        }
        try check(object, ["deviceID", "time", "streams", "hasHeaderRow", "delimiter", "decimalSeparator", "skipLines"], at: "")
        guard let deviceID = object["deviceID"] as? String, !deviceID.isEmpty else { throw fail("deviceID", "expected a non-empty string") }
        // Time.
        guard let t = object["time"] as? [String: Any] else { throw fail("time", "expected an object") }
        let time: CSVMapping.Time
        if t["sampleRate"] != nil {
            try check(t, ["sampleRate", "startUnix"], at: "time")
            guard let rate = number(t["sampleRate"]), rate > 0, rate.isFinite else {
                throw fail("time.sampleRate", "expected a rate > 0 (Hz)")
            }
            var start: Double?
            if let s = t["startUnix"], !(s is NSNull) {
                guard let v = number(s), v.isFinite else { throw fail("time.startUnix", "expected Unix seconds or null") }
                start = v
            }
            time = .sampleRate(rate, startUnix: start)
        } else {
            try check(t, ["column", "unit", "origin"], at: "time")
            let ref = try reference(t["column"], "time.column")
            let unitText = (t["unit"] as? String) ?? "s"
            var spec = "#0," + unitText
            if let o = t["origin"] {
                if let s = o as? String {
                    spec += "," + s
                } else if let d = o as? [String: Any], d.count == 1, let (k, v) = d.first, let x = number(v),
                    k == "offset" || k == "firstSampleAt"
                {
                    spec += k == "offset" ? ",offset=\(x)" : ",first=\(x)"
                } else {
                    throw fail("time.origin", "expected unix, start, first, local, {\"offset\": SECONDS} or {\"firstSampleAt\": UNIX}")
                }
            }
            switch CSVColumnOptions.parseTime(spec) {
            case .success(.column(_, let unit, let origin)): time = .column(ref, unit: unit, origin: origin)
            case .success: throw fail("time", "expected a time column")
            case .failure(let e): throw fail("time", e.description.replacingOccurrences(of: "'\(spec)': ", with: ""))
            }
        }
        // Streams.
        guard let list = object["streams"] as? [Any], !list.isEmpty else { throw fail("streams", "expected a non-empty array") }
        let hasHeader = object["hasHeaderRow"] == nil ? true : (object["hasHeaderRow"] as? Bool)
        guard let hasHeaderRow = hasHeader else { throw fail("hasHeaderRow", "expected true or false") }
        var streams: [CSVMapping.Stream] = []
        var pairs = Set<String>()
        for (i, item) in list.enumerated() {
            let at = "streams[\(i)]"
            guard let s = item as? [String: Any] else { throw fail(at, "expected an object") }
            try check(s, ["sensor", "channel", "columns", "attributes"], at: at)
            guard let sensorText = s["sensor"] as? String, let sensor = SensorKind(rawValue: sensorText),
                [.accelerometer, .rotationRate, .electrocardiogram, .photoplethysmogram].contains(sensor)
            else {
                throw fail("\(at).sensor", "expected accelerometer, rotationRate, electrocardiogram or photoplethysmogram")
            }
            guard let channel = s["channel"] as? String, !channel.isEmpty else {
                throw fail("\(at).channel", "expected a non-empty string")
            }
            guard pairs.insert("\(sensor)/\(channel)").inserted else {
                throw fail(at, "sensor \(sensor) with channel \(channel) given twice")
            }
            guard let cols = s["columns"] as? [Any], !cols.isEmpty else { throw fail("\(at).columns", "expected a non-empty array") }
            var columns: [CSVMapping.ValueColumn] = []
            for (j, c) in cols.enumerated() {
                let cat = "\(at).columns[\(j)]"
                guard let cd = c as? [String: Any] else { throw fail(cat, "expected an object") }
                try check(cd, ["column", "name", "unit"], at: cat)
                let ref = try reference(cd["column"], "\(cat).column")
                if !hasHeaderRow, case .name = ref { throw fail("\(cat).column", "a header name, but hasHeaderRow is false: use an index") }
                guard let n = cd["name"] as? String, !n.isEmpty else { throw fail("\(cat).name", "expected a non-empty string") }
                guard let u = cd["unit"] as? String, let unit = CSVColumnOptions.unit(u) else {
                    throw fail("\(cat).unit", "expected one of \(CSVColumnOptions.unitNames.joined(separator: ", "))")
                }
                columns.append(CSVMapping.ValueColumn(ref, name: n, unit: unit))
            }
            var attributes: [String: String] = [:]
            if let a = s["attributes"] {
                guard let d = a as? [String: String] else { throw fail("\(at).attributes", "expected an object of strings") }
                attributes = d
            }
            streams.append(CSVMapping.Stream(sensor: sensor, channel: channel, columns: columns, attributes: attributes))
        }
        if !hasHeaderRow, case .column(.name, _, _) = time {
            throw fail("time.column", "a header name, but hasHeaderRow is false: use an index")
        }
        let delimiter: CSVMapping.Delimiter
        switch object["delimiter"] as? String ?? (object["delimiter"] == nil ? "automatic" : "?") {
        case "automatic": delimiter = .automatic
        case "comma": delimiter = .comma
        case "semicolon": delimiter = .semicolon
        case "tab": delimiter = .tab
        default: throw fail("delimiter", "expected automatic, comma, semicolon or tab")
        }
        let decimal: CSVMapping.DecimalSeparator
        switch object["decimalSeparator"] as? String ?? (object["decimalSeparator"] == nil ? "point" : "?") {
        case "point": decimal = .point
        case "comma": decimal = .comma
        default: throw fail("decimalSeparator", "expected point or comma")
        }
        var skip = 0
        if let v = object["skipLines"] {
            guard let d = number(v), d >= 0, d == d.rounded(), d < 1e6 else { throw fail("skipLines", "expected an integer ≥ 0") }
            skip = Int(d)
        }
        return CSVMapping(
            deviceID: deviceID, time: time, streams: streams, hasHeaderRow: hasHeaderRow, delimiter: delimiter,
            decimalSeparator: decimal, skipLines: skip)
    }
}

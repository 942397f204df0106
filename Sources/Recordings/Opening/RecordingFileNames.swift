/// The file-name rules of recordings: which names a folder scan takes for recordings, and how
/// SensorKit files of one device name their sensor (so that a batch can group one export's
/// per-sensor files into one recording). Formats are still recognised from content
/// (``RecordingFormat/sniff(path:)``); these rules only decide which files are looked at.
///
/// Declared once here; the batch's discovery and the command line's messages use them.
public enum RecordingFileNames {
    /// Compression suffixes recognised after a recording extension (`.ndjson.gz`, `.hea.xz`).
    public static let compressionSuffixes = [".gz", ".xz"]
    /// Extensions of SensorKit exports (NDJSON schema v1, MyDataHelps JSON).
    public static let sensorKitExtensions = [".ndjson", ".jsonl", ".json"]
    /// Extensions of recording files: SensorKit, CSV (Apple Health ECG, BUT PPG, mapped CSV),
    /// WFDB headers (a record is opened by its `.hea`), MATLAB, ActiGraph.
    public static let recordingExtensions = sensorKitExtensions + [".csv", ".hea", ".mat", ".gt3x"]
    /// Sensor names a SensorKit file name may carry as one whole word (between `_`, `-`, `.` or
    /// the name's ends; matched case-insensitively): Apple's sensor names and their short forms.
    public static let sensorKitSensorTokens = [
        "accelerometer", "rotationRate", "electrocardiogram", "ecg", "photoplethysmogram", "ppg",
    ]

    /// Whether a file name has a recording extension, optionally followed by a compression
    /// suffix (case-insensitive).
    /// - Parameter name: a file name (or path).
    public static func hasRecordingExtension(_ name: String) -> Bool {
        hasExtension(name, recordingExtensions)
    }

    /// Companion files of a recording that are not recordings themselves: BIDMC's reference
    /// breath annotations and numerics (`NAME_Breaths.csv`, `NAME_Numerics.csv`) beside the
    /// recording `NAME_Signals.csv` (Pimentel et al. 2016, PhysioNet BIDMC layout). A folder scan
    /// skips them when the recording is in the same folder; named directly they are opened (and
    /// fail with the CSV layout error).
    /// - Parameters:
    ///   - name: a file name (no folder).
    ///   - siblings: the names in the same folder.
    /// - Returns: whether `name` is such a companion.
    /// - Complexity: O(siblings).
    public static func isCompanion(_ name: String, siblings: [String]) -> Bool {
        let plain = withoutCompression(name.lowercased())
        for suffix in ["_breaths.csv", "_numerics.csv"] where plain.hasSuffix(suffix) {
            let signals = plain.dropLast(suffix.count) + "_signals.csv"
            return siblings.contains { withoutCompression($0.lowercased()) == signals }
        }
        return false
    }

    /// Whether a file name has one of `extensions` (given in lower case), optionally followed by
    /// a compression suffix, compared case-insensitively.
    /// - Parameters:
    ///   - name: a file name (or path).
    ///   - extensions: extensions with their dot (`[".group"]`).
    public static func hasExtension(_ name: String, _ extensions: [String]) -> Bool {
        let n = withoutCompression(name.lowercased())
        return extensions.contains { n.hasSuffix($0) }
    }

    static func withoutCompression(_ name: String) -> String {
        var n = name
        for z in compressionSuffixes where n.lowercased().hasSuffix(z) { n.removeLast(z.count) }
        return n
    }

    /// A SensorKit file name with its one sensor token replaced by `*`, the compression suffix
    /// dropped: `p01_accelerometer.ndjson.gz` → `p01_*.ndjson`. Files of one folder with the same
    /// pattern are one export's sensors.
    /// - Parameter name: a file name (no folder).
    /// - Returns: the pattern, or `nil` when the name has no SensorKit extension or not exactly
    ///   one sensor token.
    /// - Complexity: O(name length).
    public static func sensorKitPattern(_ name: String) -> String? {
        let plain = withoutCompression(name)
        let lower = plain.lowercased()
        guard let ext = sensorKitExtensions.first(where: { lower.hasSuffix($0) }) else { return nil }
        let stem = String(plain.dropLast(ext.count))
        var tokens = [String]()
        var current = ""
        for ch in stem {
            if ch == "_" || ch == "-" || ch == "." {
                tokens.append(current)
                tokens.append(String(ch))
                current = ""
            } else {
                current.append(ch)
            }
        }
        tokens.append(current)
        let hits = tokens.indices.filter { lowerTokens.contains(tokens[$0].lowercased()) }
        guard hits.count == 1 else { return nil }
        tokens[hits[0]] = "*"
        return tokens.joined() + ext
    }

    static let lowerTokens = Set(sensorKitSensorTokens.map { $0.lowercased() })
}

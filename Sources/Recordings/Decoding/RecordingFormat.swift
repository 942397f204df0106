/// The input formats SensorPipe decodes, recognised from content (``sniff(path:)``), not only
/// from the file name.
public enum RecordingFormat: String, Sendable, Hashable, CaseIterable, Codable, CustomStringConvertible {
    /// SensorKit export schema v1, JSON Lines (`docs/SCHEMA.md`), plain or gzip.
    case sensorKitNDJSON = "sensorkit-ndjson"
    /// MyDataHelps-style SensorKit JSON (`{"device":…,"samples":[…]}`), plain or gzip.
    case myDataHelpsJSON = "mydatahelps-json"
    /// Apple Health app ECG export (CSV with a header block).
    case appleHealthECG = "apple-health-ecg-csv"
    /// PhysioNet WFDB record (`.hea` header with its signal files).
    case wfdb = "wfdb"
    /// MATLAB v5 MAT-file (needs a channel mapping).
    case matlab = "matlab-v5"
    /// Delimited text with a header row (needs a column mapping).
    case csv = "csv"
    /// BUT PPG export: space-separated, header `ID RefHR Location Motion Quality Signal Time`,
    /// one smartphone PPG recording per row (``BUTPPGDecoder``).
    case butPPG = "but-ppg-csv"
    /// ActiGraph `.gt3x` accelerometer file: a ZIP archive with `info.txt` and `log.bin`
    /// (``GT3XDecoder``).
    case gt3x = "actigraph-gt3x"
    /// Apple Health "Export All Health Data": `export.xml` (plain or compressed) or the export's
    /// `.zip` (``AppleHealthExportDecoder``).
    case appleHealthExport = "apple-health-export"
    /// European Data Format: EDF, EDF+ (continuous and discontinuous), BDF and BDF+
    /// (``EDFDecoder``).
    case edf = "edf"

    public var description: String { rawValue }

    /// Recognises the format of `path` from its first bytes (decompressed if gzip) and, for
    /// WFDB and ActiGraph `.gt3x`, its name.
    /// - Throws: ``RecordingError`` `.empty` for an empty file, `.unknownFormat` when nothing
    ///   matches, or the errors of ``ByteSource``.
    /// - Complexity: reads at most 4 KiB.
    public static func sniff(path: String) throws(RecordingError) -> RecordingFormat {
        let head = try ByteSource.peek(path: path, count: 4096)
        guard !head.isEmpty else {
            throw RecordingError(.empty, file: path, "the file is empty")
        }
        if head.starts(with: Array("MATLAB 5.0 MAT-file".utf8)) { return .matlab }
        if EDFHeader.looksLikeEDF(head) { return .edf }
        if path.lowercased().hasSuffix(".gt3x") || zipHeadNamesLogBin(head) { return .gt3x }
        if head.starts(with: [0x50, 0x4B, 0x03, 0x04]), let zip = try? ZipArchive(path: path),
            zip.entries.contains(where: { $0.name == "export.xml" || $0.name.hasSuffix("/export.xml") })
        {
            return .appleHealthExport
        }
        // Bytes, not Characters: "\r\n" is one Character in Swift and would hide "\n" matches.
        let text = String(decoding: head.filter { $0 != 0x0d }, as: UTF8.self)
        let trimmed = text.drop { $0 == " " || $0 == "\n" || $0 == "\r" || $0 == "\t" || $0 == "\u{FEFF}" }
        if trimmed.hasPrefix("{") {
            let firstLine = trimmed.prefix { $0 != "\n" }
            if firstLine.contains("\"sensorkit-ndjson\"") || firstLine.contains("\"type\"") {
                return .sensorKitNDJSON
            }
            if trimmed.contains("\"samples\"") || trimmed.contains("\"device\"") { return .myDataHelpsJSON }
        }
        if trimmed.hasPrefix("<") && (text.contains("<!DOCTYPE HealthData") || text.contains("<HealthData")) {
            return .appleHealthExport
        }
        let lower = path.lowercased()
        if lower.hasSuffix(".hea") || lower.hasSuffix(".hea.gz") { return .wfdb }
        if text.contains("\nSample Rate,") && (text.contains("\nLead,") || text.contains("Recorded Date,")) {
            return .appleHealthECG
        }
        // Localised Health exports: a "key,<number> hertz" line (any language's key) within a
        // short key,value header block.
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).prefix(16)
        if lines.contains(where: { line in
            guard let comma = line.firstIndex(of: ",") else { return false }
            let value = line[line.index(after: comma)...].lowercased().filter { $0 != "\"" }
            return value.hasSuffix(" hertz") && Double(String(value.dropLast(6).map { $0 == "," ? "." : $0 })) != nil
        }) {
            return .appleHealthECG
        }
        if trimmed.hasPrefix("ID RefHR Location Motion Quality Signal Time") { return .butPPG }
        if let firstLine = text.split(separator: "\n", maxSplits: 1).first,
            firstLine.contains(",") || firstLine.contains(";") || firstLine.contains("\t")
        {
            return .csv
        }
        // A one-column Empatica E4 file (BVP.csv: start row, rate row, values) has no delimiter.
        if lower.hasSuffix(".csv"), RecordingPreset.empaticaHead(path: path) != nil { return .csv }
        throw RecordingError(
            .unknownFormat, file: path, line: 1,
            "content matches no known format (SensorKit NDJSON, MyDataHelps JSON, "
                + "Apple Health ECG CSV, Apple Health export.xml/zip, WFDB .hea, MATLAB v5, CSV, BUT PPG, ActiGraph .gt3x, EDF/BDF)")
    }

    /// Whether `head` starts a ZIP archive (`PK\3\4`) one of whose first local file headers
    /// names `log.bin` (a `.gt3x` file under another name).
    static func zipHeadNamesLogBin(_ head: [UInt8]) -> Bool {
        func u16(_ i: Int) -> Int { Int(head[i]) | Int(head[i + 1]) << 8 }
        var p = 0
        while p + 30 <= head.count && head[p] == 0x50 && head[p + 1] == 0x4B && head[p + 2] == 3 && head[p + 3] == 4 {
            let nameLength = u16(p + 26), extraLength = u16(p + 28)
            guard p + 30 + nameLength <= head.count else { return false }
            if head[(p + 30)..<(p + 30 + nameLength)].elementsEqual("log.bin".utf8) { return true }
            let compressed = u16(p + 18) | u16(p + 20) << 16
            // With a data descriptor (flag bit 3) the size is unknown here.
            if u16(p + 6) & 8 != 0 { return false }
            p += 30 + nameLength + extraLength + compressed
        }
        return false
    }
}

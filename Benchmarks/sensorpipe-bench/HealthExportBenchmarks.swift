// Apple Health export.xml streaming (issue 34).
import Foundation
import Recordings

/// A generated `export.xml`: heart-rate records with a metadata child, step counts, energy records
/// (counted, not streamed) and an HRV record with 60 beats every 200 records, as the Health app
/// writes them (attributes of real exports, one element per line).
/// - Parameter records: `Record` elements to write.
/// - Returns: the document.
func generatedHealthExport(records: Int) -> [UInt8] {
    var out = [UInt8]()
    out.reserveCapacity(records * 330)
    func add(_ s: String) { out.append(contentsOf: s.utf8) }
    add("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!DOCTYPE HealthData [\n<!ELEMENT HealthData (ExportDate,Me,(Record|Workout)*)>\n]>\n")
    add("<HealthData locale=\"en_US\">\n <ExportDate value=\"2024-05-21 09:00:00 +0000\"/>\n")
    let device =
        "&lt;&lt;HKDevice: 0x283a3f4d0&gt;, name:Apple Watch, manufacturer:Apple Inc., model:Watch, hardware:Watch6,2, software:10.4&gt;"
    var t = 1_716_282_000 // 2024-05-21 09:00:00 UTC
    func date(_ s: Int) -> String {
        let day = s / 86_400, sec = s % 86_400
        return CivilDate.isoDate(daysSince1970: day) + String(format: " %02d:%02d:%02d +0000", sec / 3600, sec / 60 % 60, sec % 60)
    }
    for i in 0..<records {
        t += 5
        let d = date(t)
        switch i % 200 {
        case 199:
            add(
                " <Record type=\"HKQuantityTypeIdentifierHeartRateVariabilitySDNN\" sourceName=\"Watch\" sourceVersion=\"10.4\" device=\"\(device)\" unit=\"ms\" creationDate=\"\(d)\" startDate=\"\(d)\" endDate=\"\(d)\" value=\"41.5\">\n  <HeartRateVariabilityMetadataList>\n"
            )
            for k in 0..<60 {
                let s = (t % 86_400) + k
                add(
                    String(
                        format: "   <InstantaneousBeatsPerMinute bpm=\"%d\" time=\"%d:%02d:%02d.%02d\"/>\n", 60 + k % 7, s / 3600 % 24,
                        s / 60 % 60, s % 60, k))
            }
            add("  </HeartRateVariabilityMetadataList>\n </Record>\n")
        case let r where r % 3 == 0:
            add(
                " <Record type=\"HKQuantityTypeIdentifierHeartRate\" sourceName=\"Watch\" sourceVersion=\"10.4\" device=\"\(device)\" unit=\"count/min\" creationDate=\"\(d)\" startDate=\"\(d)\" endDate=\"\(d)\" value=\"\(60 + i % 40)\">\n  <MetadataEntry key=\"HKMetadataKeyHeartRateMotionContext\" value=\"0\"/>\n </Record>\n"
            )
        case let r where r % 3 == 1:
            add(
                " <Record type=\"HKQuantityTypeIdentifierStepCount\" sourceName=\"Phone\" sourceVersion=\"17.4\" unit=\"count\" creationDate=\"\(d)\" startDate=\"\(d)\" endDate=\"\(date(t + 60))\" value=\"\(i % 120)\"/>\n"
            )
        default:
            add(
                " <Record type=\"HKQuantityTypeIdentifierActiveEnergyBurned\" sourceName=\"Watch\" sourceVersion=\"10.4\" device=\"\(device)\" unit=\"Cal\" creationDate=\"\(d)\" startDate=\"\(d)\" endDate=\"\(date(t + 60))\" value=\"0.\(i % 1000)\"/>\n"
            )
        }
    }
    add("</HealthData>\n")
    return out
}

/// `export.xml` decoding (``AppleHealthExportDecoder``) against `read(2)` + zlib `crc32` of the
/// same file in the same run (``fileCRC32ReferenceCase``); MB/s from the file size.
func healthExportBenchmarks(_ scale: BenchmarkScale) -> [BenchmarkCase] {
    let records = scale == .full ? 1 << 19 : 1 << 15 // ≈ 160 MB / 10 MB
    let file = SharedBenchmarkFile("export.xml") { generatedHealthExport(records: records) }
    return fileDecoderCases(
        name: "decode/apple-health-export", reference: "ref/read+crc32/health-export", samples: records, file: file
    ) { path in
        let d = try! AppleHealthExportDecoder(path: path)
        var n = 0
        while let e = try! d.next() {
            if case .block(let b) = e { n += b.count }
        }
        return n
    }
}

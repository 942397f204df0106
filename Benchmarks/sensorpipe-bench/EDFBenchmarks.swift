// EDF+ decoding (issue 34).
import Foundation
import Recordings

/// A generated EDF+C file: `records` one-second data records of three ECG leads at 500 Hz (16-bit,
/// µV, a 1.2-Hz beat-like waveform plus a ramp) and an `EDF Annotations` signal (60 bytes per
/// record: the time-keeping TAL, and every 30th record an annotation with a duration), as
/// EDF+ writers lay them out (Kemp & Olivan 2003).
/// - Parameter records: data records (seconds) to write.
/// - Returns: the file's bytes.
func generatedEDF(records: Int) -> [UInt8] {
    let rate = 500, leads = 3, annotationBytes = 60
    func field(_ s: String, _ width: Int) -> String {
        String(s.prefix(width)).padding(toLength: width, withPad: " ", startingAt: 0)
    }
    let labels = ["ECG I", "ECG II", "ECG III", "EDF Annotations"]
    var h = field("0", 8) + field("X X X X", 80) + field("Startdate 21-MAY-2024 X X X", 80)
    h += "21.05.24" + "09.00.00" + field(String(256 * (labels.count + 1)), 8) + field("EDF+C", 44)
    h += field(String(records), 8) + field("1", 8) + field(String(labels.count), 4)
    h += labels.map { field($0, 16) }.joined()
    h += labels.map { field($0 == "EDF Annotations" ? "" : "AgAgCl electrode", 80) }.joined()
    h += labels.map { field($0 == "EDF Annotations" ? "" : "uV", 8) }.joined()
    h += labels.map { field($0 == "EDF Annotations" ? "-1" : "-3276.8", 8) }.joined()
    h += labels.map { field($0 == "EDF Annotations" ? "1" : "3276.7", 8) }.joined()
    h += labels.map { field($0 == "EDF Annotations" ? "-32768" : "-32768", 8) }.joined()
    h += labels.map { _ in field("32767", 8) }.joined()
    h += labels.map { field($0 == "EDF Annotations" ? "" : "HP:0.05Hz LP:150Hz", 80) }.joined()
    h += labels.map { field(String($0 == "EDF Annotations" ? annotationBytes / 2 : rate), 8) }.joined()
    h += labels.map { _ in field("", 32) }.joined()
    var out = Array(h.utf8)
    out.reserveCapacity(out.count + records * (leads * rate * 2 + annotationBytes))
    for r in 0..<records {
        for lead in 0..<leads {
            for i in 0..<rate {
                let t = Double(r * rate + i) / Double(rate)
                let v = Int16(clamping: Int((8000 * sin(2 * .pi * 1.2 * t + Double(lead)) + Double((r * rate + i) % 97)).rounded()))
                let u = UInt16(bitPattern: v)
                out.append(UInt8(u & 0xFF))
                out.append(UInt8(u >> 8))
            }
        }
        var tal = Array("+\(r)\u{14}\u{14}\u{0}".utf8)
        if r % 30 == 0 { tal += Array("+\(r).5\u{15}2\u{14}marker \(r / 30)\u{14}\u{0}".utf8) }
        out += tal + [UInt8](repeating: 0, count: annotationBytes - tal.count)
    }
    return out
}

/// EDF+ decoding (``EDFDecoder``: physical scaling of every sample, TAL parsing) against `read(2)`
/// + zlib `crc32` of the same file in the same run (``fileCRC32ReferenceCase``); MB/s from the
/// file size, samples = samples of all leads.
func edfBenchmarks(_ scale: BenchmarkScale) -> [BenchmarkCase] {
    let records = scale == .full ? 7200 : 600 // 2 h ≈ 22 MB / 10 min ≈ 1.8 MB
    let samples = records * 3 * 500
    let file = SharedBenchmarkFile("ecg3.edf") { generatedEDF(records: records) }
    return fileDecoderCases(name: "decode/edf", reference: "ref/read+crc32/edf", samples: samples, file: file) { path in
        let d = try! EDFDecoder(path: path, keepsAnnotations: false)
        var n = 0
        while let e = try! d.next() {
            if case .block(let b) = e { n += b.count }
        }
        precondition(n == samples, "decode/edf: \(n) samples, expected \(samples)")
        return n
    }
}

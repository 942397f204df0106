// Benchmarks of the Apple Health ECG, CSV and MATLAB decoders.
import CZlib
import Foundation
import Recordings

/// A temporary file that lives as long as the benchmark's closure.
private final class BenchmarkFile {
    let path: String
    init(_ name: String, _ bytes: [UInt8]) {
        path = benchmarkScratch.appendingPathComponent("\(UUID().uuidString)-\(name)").path
        _ = FileManager.default.createFile(atPath: path, contents: Data(bytes))
    }
    deinit { try? FileManager.default.removeItem(atPath: path) }
}

/// Drains a decoder, touching every block.
private func drain(_ d: some RecordingDecoder) -> Int {
    var n = 0
    while let e = try! d.next() {
        if case .block(let b) = e { n += b.count }
    }
    return n
}

/// Decoder throughput against same-run references: reading the same file with `read(2)` and
/// zlib's `crc32` over it (``fileCRC32ReferenceCase``: the file reading every decoder does, then
/// compute-bound work; independent of Recordings), and zlib-inflating the same MAT-file element.
/// Splitting the same text into lines with `LineReader` (the floor for any text decoder) is
/// reported as information; it was the reference until the guard was made independent of code
/// under test (the decoders read through `LineReader`, so a slower `LineReader` hid itself).
func healthCSVMATLABBenchmarks(_ scale: BenchmarkScale) -> [BenchmarkCase] {
    let ecgSamples = scale == .full ? 1 << 22 : 1 << 18 // 2.3 h / 8.5 min at 512.508 Hz
    let csvRows = scale == .full ? 1 << 21 : 1 << 17
    let matColumns = scale == .full ? 1 << 20 : 1 << 16 // 6 × N doubles
    var cases = [BenchmarkCase]()

    // Apple Health ECG export.
    func ecgFile() -> [UInt8] {
        var ecg =
            "Name,X\nDate of Birth,\"X\"\nRecorded Date,2024-01-24 07:04:49 +0800\nClassification,Sinus Rhythm\n"
            + "Symptoms,\nSoftware Version,1.90\nDevice,\"Watch5,1\"\nSample Rate,512.508 hertz\n\n\nLead,Lead I\nUnit,µV\n\n"
        for i in 0..<ecgSamples {
            let v = (800 * sin(Double(i) * 0.0123) + Double(i % 7)) * 1000
            ecg += "\(Int(v.rounded()) / 1000).\(String(abs(Int(v.rounded())) % 1000))\n"
        }
        return Array(ecg.utf8)
    }
    let ecgCSV = SharedBenchmarkFile("ecg.csv") { ecgFile() }
    cases.append(fileCRC32ReferenceCase(name: "ref/read+crc32/ecg-csv", samples: ecgSamples, file: ecgCSV))
    cases.append(
        BenchmarkCase(name: "linereader/lines/ecg-csv", samples: ecgSamples, reference: nil) {
            let path = ecgCSV.path // written in set-up, not in the first timed run
            return {
                let r = LineReader(source: try! ByteSource(path: path))
                var n = 0
                while try! r.nextLine() != nil { n += 1 }
                blackHole(n)
            }
        })
    cases.append(
        BenchmarkCase(
            name: "decode/apple-health-ecg", samples: ecgSamples,
            reference: "ref/read+crc32/ecg-csv", info: ["linereader/lines/ecg-csv"]
        ) {
            let path = ecgCSV.path // written in set-up, not in the first timed run
            return { blackHole(drain(try! AppleHealthECGDecoder(path: path))) }
        })

    // CSV: ns timestamps + 3 axes in m/s² (the Oxford layout).
    func csvFile() -> [UInt8] {
        var csv = ""
        var t: Int64 = 1_012_461_540_465
        for i in 0..<csvRows {
            t += 9_000_000 + Int64(i % 5) * 500_000
            csv += "\(t),\(Float(sin(Double(i) * 0.1))),\(Float(9.8 + cos(Double(i) * 0.07))),0.3,0,0,0\n"
        }
        return Array(csv.utf8)
    }
    let mapping = CSVMapping(
        deviceID: "phone", time: .column(.index(0), unit: .nanoseconds, origin: .firstSampleAt(unixSeconds: 1.5e9)),
        streams: [
            .init(
                sensor: .accelerometer, channel: "acceleration",
                columns: [
                    .init(.index(1), name: "x", unit: .metresPerSecondSquared),
                    .init(.index(2), name: "y", unit: .metresPerSecondSquared),
                    .init(.index(3), name: "z", unit: .metresPerSecondSquared),
                ])
        ],
        hasHeaderRow: false)
    let accCSV = SharedBenchmarkFile("acc.csv") { csvFile() }
    cases.append(fileCRC32ReferenceCase(name: "ref/read+crc32/acc-csv", samples: csvRows, file: accCSV))
    cases.append(
        BenchmarkCase(name: "linereader/lines/acc-csv", samples: csvRows, reference: nil) {
            let path = accCSV.path // written in set-up, not in the first timed run
            return {
                let r = LineReader(source: try! ByteSource(path: path))
                var n = 0
                while try! r.nextLine() != nil { n += 1 }
                blackHole(n)
            }
        })
    cases.append(
        BenchmarkCase(
            name: "decode/csv/acc-ns", samples: csvRows,
            reference: "ref/read+crc32/acc-csv", info: ["linereader/lines/acc-csv"]
        ) {
            let path = accCSV.path // written in set-up, not in the first timed run
            return { blackHole(drain(try! CSVDecoder(path: path, mapping: mapping))) }
        })

    // MAT-file: `sig`, 6 × N doubles in one miCOMPRESSED element (the SPC 2015 layout).
    func matFile() -> (file: [UInt8], compressed: [UInt8], elementCount: Int) {
        var element = [UInt8]()
        func u32(_ v: UInt32) { withUnsafeBytes(of: v.littleEndian) { element += $0 } }
        let dataBytes = 6 * matColumns * 8
        u32(14); u32(UInt32(48 + dataBytes))
        u32(6); u32(8); u32(6); u32(0)
        u32(5); u32(8); u32(6); u32(UInt32(matColumns))
        u32(3 << 16 | 1); element += Array("sig".utf8) + [0]
        u32(9); u32(UInt32(dataBytes))
        for k in 0..<(6 * matColumns) {
            withUnsafeBytes(of: (Double(k % 977) * 0.5 - 100).bitPattern.littleEndian) { element += $0 }
        }
        var compressedLength = compressBound(uLong(element.count))
        var compressed = [UInt8](repeating: 0, count: Int(compressedLength))
        _ = compress(&compressed, &compressedLength, element, uLong(element.count))
        compressed.removeLast(compressed.count - Int(compressedLength))
        var mat = Array("MATLAB 5.0 MAT-file, benchmark".utf8)
        mat += [UInt8](repeating: 0x20, count: 116 - mat.count) + [UInt8](repeating: 0, count: 8) + [0, 1] + Array("IM".utf8)
        withUnsafeBytes(of: UInt32(15).littleEndian) { mat += $0 }
        withUnsafeBytes(of: UInt32(compressed.count).littleEndian) { mat += $0 }
        mat += compressed
        return (mat, compressed, element.count)
    }
    let elementCount = 48 + 8 + 6 * matColumns * 8
    cases.append(
        BenchmarkCase(name: "zlib/uncompress/mat-sig", samples: matColumns, bytes: elementCount, reference: nil) {
            let compressed = matFile().compressed
            var out = [UInt8](repeating: 0, count: elementCount)
            return {
                var n = uLong(elementCount)
                _ = uncompress(&out, &n, compressed, uLong(compressed.count))
                blackHole(out)
            }
        })
    cases.append(
        BenchmarkCase(
            name: "decode/matlab/spc-layout", samples: matColumns, bytes: elementCount,
            reference: "zlib/uncompress/mat-sig"
        ) {
            let f = BenchmarkFile("sig.mat", matFile().file)
            return { blackHole(drain(try! MATLABDecoder(path: f.path, mapping: .spc2015(includesECG: true)))) }
        })
    return cases
}

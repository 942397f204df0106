import Foundation
import Testing
import _TestSupport

/// A stream has one name everywhere: `sensorpipe inspect`, the result tables' `stream` column
/// (`StreamKey.description`) and a `sensorpipe convert`ed copy read back; its time origin too.
@Suite("Stream keys and time origins agree across inspect, the tables and convert")
struct StreamKeyConsistencyTests {
    /// A 30-s, 360-Hz single-lead WFDB record (format 16, no base date: times count from the
    /// record start) with a QRS-like Gaussian pulse every 0.8 s, so `analyze` finds beats.
    static func writeRecord(in dir: TemporaryDirectory) -> String {
        let rate = 360.0, n = 10_800
        var adu = [Int16](repeating: 0, count: n)
        for k in 0..<n {
            let t = Double(k) / rate
            let phase = (t + 0.4).truncatingRemainder(dividingBy: 0.8) - 0.4 // beats at 0.4 s, 1.2 s, …
            let mV = 1.2 * exp(-phase * phase / (2 * 0.012 * 0.012)) + 0.05 * sin(2 * .pi * 0.3 * t)
            adu[k] = Int16((mV * 200).rounded())
        }
        var bytes = [UInt8]()
        for v in adu { bytes.append(UInt8(truncatingIfNeeded: v)); bytes.append(UInt8(truncatingIfNeeded: v >> 8)) }
        let checksum = adu.reduce(0) { ($0 + Int($1)) & 0xFFFF }
        _ = dir.write("rec.dat", bytes)
        return dir.write("rec.hea", "rec 1 360 \(n)\nrec.dat 16 200(0)/mV 16 0 \(adu[0]) \(checksum) 0 MLII\n")
    }

    struct InspectedStream: Decodable { var key: String; var timeOrigin: String }
    struct Inspected: Decodable { var streams: [InspectedStream] }

    static func inspect(_ path: String) throws -> [InspectedStream] {
        let r = try SensorPipeProcess.run(["inspect", "--json", path])
        #expect(r.status == 0, "inspect \(path): \(r.stderr)")
        let line = try #require(r.stdout.split(separator: "\n").first)
        return try JSONDecoder().decode(Inspected.self, from: Data(line.utf8)).streams
    }

    /// The distinct values of the `stream` column (the first) of a result CSV.
    static func streamColumn(_ url: URL) throws -> Set<String> {
        let lines = try String(contentsOf: url, encoding: .utf8).split(separator: "\n").dropFirst()
        return Set(lines.map { String($0.prefix { $0 != "," }) })
    }

    @Test("WFDB record → inspect, analyze, convert, inspect and analyze the copy")
    func wfdbThroughConvert() throws {
        let dir = TemporaryDirectory()
        let record = Self.writeRecord(in: dir)
        let original = try Self.inspect(record)
        #expect(original.map(\.key) == ["rec/electrocardiogram/MLII"])
        #expect(original.map(\.timeOrigin) == ["stream_start"])

        let converted = dir.url.appendingPathComponent("rec.ndjson.gz").path
        let c = try SensorPipeProcess.run(["convert", record, "--to", "sensorkit-ndjson", converted])
        #expect(c.status == 0, "convert: \(c.stderr)")
        #expect(c.stdout.contains("stream_start"), "convert says what it did with relative times: \(c.stdout)")
        let copy = try Self.inspect(converted)
        #expect(copy.map(\.key) == original.map(\.key))
        #expect(copy.map(\.timeOrigin) == original.map(\.timeOrigin))

        let tablesA = dir.url.appendingPathComponent("a"), tablesB = dir.url.appendingPathComponent("b")
        for (input, out) in [(record, tablesA), (converted, tablesB)] {
            let r = try SensorPipeProcess.run(["analyze", input, "--out", out.path])
            #expect(r.status == 0, "analyze \(input): \(r.stderr)")
        }
        let beats = try Self.streamColumn(tablesA.appendingPathComponent("beats.csv"))
        #expect(beats == Set(original.map(\.key)), "beats.stream: \(beats)")
        #expect(try Self.streamColumn(tablesA.appendingPathComponent("heart_rate.csv")) == beats)
        for table in ["beats", "heart_rate", "hrv", "ecg_quality"] {
            let a = try Data(contentsOf: tablesA.appendingPathComponent("\(table).csv"))
            let b = try Data(contentsOf: tablesB.appendingPathComponent("\(table).csv"))
            #expect(a == b, "\(table).csv of the converted copy differs from the original's")
        }
    }
}

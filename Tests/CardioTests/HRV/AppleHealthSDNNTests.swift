import Cardio
import Foundation
import Recordings
import Testing
import _TestSupport

/// Apple's own SDNN per HRV record against SDNN computed by SensorPipe's HRV code
/// (``HRVTimeDomain``) from the same beat list, as decoded by ``AppleHealthExportDecoder``.
///
/// Apple's value is the SDNN of the ~1-min recording's beat-to-beat intervals. The export keeps,
/// per listed beat, its time (to 10 ms) and its instantaneous rate as an integer bpm: the bpm of a
/// beat is the rate of the interval that ends at it, whose first beat may be one the list leaves
/// out (the list has gaps of several seconds). So the intervals are known only through rounded
/// numbers, three ways (`scripts/health/sdnn_reference.py` computes the same three with NumPy):
/// `60000 / bpm` for every beat, time differences of adjacent listed beats, or both combined.
/// They must equal NumPy's (to 1e-9 ms from bpm; to 1e-3 ms from times, which are Unix seconds
/// here), and the bpm-derived SDNN must lie within the bound the
/// integer rounding allows of Apple's (`sqrt(Σ e_i² / (n − 1))`, `e_i` the largest interval change
/// half a bpm makes).
/// `SENSORPIPE_HEALTH_TABLE=FILE` writes the table of docs/VALIDATION.md.
@Suite struct AppleHealthSDNNTests {
    struct Record {
        var start: Double
        var appleSDNN: Double
        var bpm: [Double] = []
        var times: [Double] = []
    }

    static func records(_ path: String) throws -> [Record] {
        let d = try AppleHealthExportDecoder(path: path)
        var streams: [StreamInfo] = []
        var records: [Record] = []
        var beats: [(time: Double, bpm: Double)] = []
        while let event = try d.next() {
            switch event {
            case .stream(_, let info): streams.append(info)
            case .block(let b):
                let key = streams[b.stream].key
                if key.channel == "HeartRateVariabilitySDNN" {
                    for i in 0..<b.count { records.append(Record(start: b.time(at: i), appleSDNN: Double(b.columns[0][i]))) }
                } else if key.sensor == .heartbeat {
                    for i in 0..<b.count { beats.append((b.time(at: i), Double(b.columns[0][i]))) }
                }
            default: break
            }
        }
        // Each beat belongs to the last record starting before it.
        records.sort { $0.start < $1.start }
        for beat in beats.sorted(by: { $0.time < $1.time }) {
            guard let k = records.lastIndex(where: { $0.start <= beat.time }) else { continue }
            records[k].bpm.append(beat.bpm)
            records[k].times.append(beat.time)
        }
        return records
    }

    /// SDNN (ms) three ways, the adjacent pairs, and the rounding bound.
    static func sdnn(_ r: Record) throws -> (bpm: Double, times: Double, hybrid: Double, pairs: Int, bound: Double) {
        let rr = r.bpm.map { 60000 / $0 }
        var diffs: [Double] = []
        var hybrid = rr
        for i in 1..<rr.count {
            let d = (r.times[i] - r.times[i - 1]) * 1000
            if abs(d - rr[i]) <= 0.3 * rr[i] {
                diffs.append(d)
                hybrid[i] = d
            }
        }
        func sd(_ x: [Double]) throws -> Double { try HRVTimeDomain(NNIntervalSeries(intervalsMilliseconds: x)).sdnn }
        let e = r.bpm.map { 60000 / ($0 - 0.5) - 60000 / $0 }
        let bound = (e.map { $0 * $0 }.reduce(0, +) / Double(e.count - 1)).squareRoot()
        return (try sd(rr), try sd(diffs), try sd(hybrid), diffs.count, bound)
    }

    @Test func appleSDNNAgreesWithinRounding() throws {
        let root = Fixtures.repositoryRoot.appendingPathComponent("Datasets/apple-health")
        let records = try Self.records(root.appendingPathComponent("export-excerpt.xml").path)
        let text = try String(contentsOf: root.appendingPathComponent("sdnn_reference.tsv"), encoding: .utf8)
        let rows = text.split(separator: "\n").filter { !$0.hasPrefix("#") }.map { $0.split(separator: "\t").map(String.init) }
        let header = try #require(rows.first)
        let reference = rows.dropFirst().map { Dictionary(uniqueKeysWithValues: zip(header, $0)) }
        #expect(records.count == reference.count && records.count == 1)
        var table = [
            "| record (startDate) | beats | Apple SDNN (ms) | 60000/bpm | adjacent-beat times (pairs) | combined | NumPy (same three) | rounding bound | Apple − 60000/bpm |",
            "|---|---|---|---|---|---|---|---|---|",
        ]
        for (r, ref) in zip(records, reference) {
            let ours = try Self.sdnn(r)
            #expect(r.bpm.count == Int(ref["beats"]!))
            #expect(abs(r.appleSDNN - Double(ref["apple_sdnn_ms"]!)!) < 1e-4) // Float column
            #expect(abs(ours.bpm - Double(ref["sdnn_bpm_ms"]!)!) < 1e-9)
            // Beat times are Unix seconds here (ulp 2.4e-7 s at 1.6e9) and seconds of the day in
            // NumPy: intervals from times agree to 1e-3 ms, not to the last bit.
            #expect(abs(ours.times - Double(ref["sdnn_times_ms"]!)!) < 1e-3)
            #expect(abs(ours.hybrid - Double(ref["sdnn_hybrid_ms"]!)!) < 1e-3)
            #expect(ours.pairs == Int(ref["adjacent_pairs"]!))
            #expect(abs(r.appleSDNN - ours.bpm) <= ours.bound)
            func f(_ x: Double) -> String { String(format: "%.2f", x) }
            table.append(
                "| \(ref["startDate"]!) | \(r.bpm.count) | \(f(r.appleSDNN)) | \(f(ours.bpm)) | \(f(ours.times)) (\(ours.pairs)) | "
                    + "\(f(ours.hybrid)) | \(f(Double(ref["sdnn_bpm_ms"]!)!)) / \(f(Double(ref["sdnn_times_ms"]!)!)) / "
                    + "\(f(Double(ref["sdnn_hybrid_ms"]!)!)) | ±\(f(ours.bound)) | \(f(r.appleSDNN - ours.bpm)) |")
        }
        if let out = ProcessInfo.processInfo.environment["SENSORPIPE_HEALTH_TABLE"], !out.isEmpty {
            try (table.joined(separator: "\n") + "\n").write(toFile: out, atomically: true, encoding: .utf8)
        }
    }
}

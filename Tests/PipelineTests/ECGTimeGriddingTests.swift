import Foundation
import Recordings
import Signals
import Testing
import _TestSupport

@testable import Pipeline

/// ECG read with explicit sample times (a CSV time column) is put on a uniform grid before the ECG
/// analyses (``ECGTimeGridding``). Before: "irregular timestamps; regularise ECG before R-peak
/// detection" and no beat at all, while `recording_summary` counted the stream as analysed.
@Suite("ECG with explicit sample times: gridded before the analyses")
struct ECGTimeGriddingTests {
    /// The demo ECG session (Datasets/ecg, MIT-BIH 100 at 512 Hz, µV) as decoded.
    static func demo() throws -> (samples: [Float], rate: Double) {
        let path = Fixtures.repositoryRoot.appendingPathComponent("Datasets/ecg/\(RecordingAnalysisTests.files[0]).ndjson.gz").path
        let opened = try RecordingOpener.open(path: path)
        var samples = [Float](), rate = 0.0
        while let e = try opened.decoder.next() {
            guard case .block(let b) = e else { continue }
            if case .uniform(_, let r) = b.time { rate = r }
            samples += b.columns[0]
        }
        return (samples, rate)
    }

    /// Writes `time,ecg` rows, the times `start + k / rate` printed with `digits` decimals.
    static func csv(_ samples: [Float], rate: Double, digits: Int, in dir: TemporaryDirectory, name: String) -> String {
        var text = "time,ecg\n"
        let start = 1_716_282_000.0
        for (k, v) in samples.enumerated() {
            text += String(format: "%.\(digits)f,%.3f\n", start + Double(k) / rate, v)
        }
        return dir.write(name, Array(text.utf8))
    }

    static func run(_ path: String, time: CSVMapping.Time) throws -> (beats: [Double], issues: [String]) {
        var analysis = AnalysisConfiguration()
        analysis.decode.csvMapping = CSVMapping(
            deviceID: "chest", time: time,
            streams: [.init(sensor: .electrocardiogram, channel: "ecg", columns: [.init(.name("ecg"), name: "ecg", unit: .microvolts)])])
        let sink = MemorySink()
        let summary = try RecordingAnalysis.run(path: path, analysis: analysis, sink: sink)
        let beats = sink.named("beats").compactMap { row -> Double? in
            if case .real(let t)? = row["time"] { return t }
            return nil
        }
        return (beats, summary.analysisIssues.map(\.message))
    }

    @Test("a time column in µs or whole ms gives the beats of the same samples read at their rate")
    func timeColumnMatchesRate() throws {
        let (samples, rate) = try Self.demo()
        #expect(rate == 512)
        let dir = TemporaryDirectory()
        let micro = Self.csv(samples, rate: rate, digits: 6, in: dir, name: "micro.csv")
        let milli = Self.csv(samples, rate: rate, digits: 3, in: dir, name: "milli.csv")
        let reference = try Self.run(micro, time: .sampleRate(rate, startUnix: 1_716_282_000))
        #expect(reference.beats.count > 60)
        let fromMicro = try Self.run(micro, time: .column(.name("time"), unit: .seconds, origin: .unixEpoch))
        let fromMilli = try Self.run(milli, time: .column(.name("time"), unit: .seconds, origin: .unixEpoch))
        #expect(fromMicro.issues.contains { $0.contains("put on a uniform grid") && $0.contains("512.0 Hz") }, "\(fromMicro.issues)")
        #expect(!fromMicro.issues.contains { $0.contains("irregular timestamps") })
        // µs times are the grid to within 0.5 µs: the same samples, the same beats.
        #expect(fromMicro.beats.count == reference.beats.count)
        for (a, b) in zip(fromMicro.beats, reference.beats) { #expect(abs(a - b) < 1e-4, "\(a) vs \(b)") }
        // Whole milliseconds at 512 Hz move each time by up to 0.5 ms (a quarter of a period);
        // interpolation between the rounded times shifts a beat by at most that.
        #expect(fromMilli.beats.count == reference.beats.count)
        for (a, b) in zip(fromMilli.beats, reference.beats) { #expect(abs(a - b) <= 0.002, "\(a) vs \(b)") }
    }

    /// One segment's explicit-time blocks, cut at the given sizes (cycled).
    static func blocks(times: [Double], sizes: [Int]) -> [SampleBlock] {
        var out = [SampleBlock](), k = 0, s = 0
        while k < times.count {
            let n = min(sizes[s % sizes.count], times.count - k)
            let t = Array(times[k..<(k + n)])
            out.append(
                SampleBlock(
                    stream: 0, segment: 0, firstSample: k, time: .explicit(t), columns: [t.map { Float(sin($0 * 7)) }],
                    flags: [UInt8](repeating: 0, count: n), endsSegment: k + n == times.count))
            k += n
            s += 1
        }
        return out
    }

    static func grid(_ input: [SampleBlock]) -> (values: [Float], rates: [Double], notes: [String]) {
        var g = ECGTimeGridding(), out = [SampleBlock]()
        for b in input { g.process(b, into: &out) }
        g.finish(into: &out)
        return (out.flatMap { $0.columns[0] }, g.rates, g.notes)
    }

    @Test("chunked = whole: the grid does not depend on how the input is cut")
    func chunkedEqualsWhole() {
        // 250 Hz written in whole milliseconds (intervals of 4 ms exactly) with a 130 Hz clock's
        // nanosecond jitter on top: the mean rate is 250 within 0.1 %.
        let times = (0..<10_000).map { (k: Int) -> Double in
            let ms = ((1_000 + Double(k) / 250) * 1_000).rounded() / 1_000
            return ms + Double(k % 3) * 1e-7
        }
        let whole = Self.grid(Self.blocks(times: times, sizes: [10_000]))
        #expect(whole.rates == [250])
        #expect(whole.values.count > 9_990)
        for sizes in [[1], [7, 1_999], [2_047, 2, 5_000], [2_048]] {
            let cut = Self.grid(Self.blocks(times: times, sizes: sizes))
            #expect(cut.values == whole.values, "sizes \(sizes)")
            #expect(cut.rates == whole.rates)
        }
    }

    @Test("the rate is the mean over the look-ahead (the median of whole-ms intervals would say 333 Hz)")
    func meanRateOfRoundedTimes() {
        let times = (0..<3_000).map { k in (Double(k) / 360 * 1_000).rounded() / 1_000 }
        let r = Self.grid(Self.blocks(times: times, sizes: [500]))
        #expect(r.rates == [360])
        // A rate that is not near a whole number stays as measured.
        let odd = (0..<3_000).map { k in Double(k) / 130.37 }
        let o = Self.grid(Self.blocks(times: odd, sizes: [500]))
        #expect(o.rates.count == 1 && abs(o.rates[0] - 130.37) < 1e-6)
    }

    @Test("intervals that grow far past the grid period stop the gridding with a note (no allocation from claimed times)")
    func growingIntervalsStop() {
        // 2,048 samples at 500 Hz, then intervals doubling every 16 samples (each within twice
        // the recent median, so the decoder keeps one segment): hours of grid at 500 Hz.
        var times = (0..<2_048).map { Double($0) / 500 }
        var dt = 0.002
        for k in 0..<400 {
            if k % 16 == 15 { dt *= 2 }
            times.append(times[times.count - 1] + dt)
        }
        let r = Self.grid(Self.blocks(times: times, sizes: [256]))
        #expect(r.rates == [500])
        #expect(r.notes.count == 1 && r.notes[0].contains("grew far past"), "\(r.notes)")
        #expect(r.values.count < 2 * times.count + ECGTimeGridding.lookAhead)
    }

    @Test("a segment of one sample, and uniform blocks, pass unchanged")
    func passThrough() {
        let one = Self.blocks(times: [5], sizes: [1])
        let r = Self.grid(one)
        #expect(r.rates.isEmpty && r.values.count == 1)
        var g = ECGTimeGridding(), out = [SampleBlock]()
        let u = SampleBlock(
            stream: 0, segment: 0, firstSample: 0, time: .uniform(segmentStart: 0, sampleRate: 250), columns: [[1, 2, 3]],
            flags: [0, 0, 0], endsSegment: true)
        g.process(u, into: &out)
        #expect(out.count == 1 && out[0].columns == u.columns && out[0].segment == 0)
        if case .uniform(let start, let rate)? = out.first?.time { #expect(start == 0 && rate == 250) } else { Issue.record("not uniform") }
    }
}

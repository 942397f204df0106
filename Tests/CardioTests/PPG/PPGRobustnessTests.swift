import Foundation
import Signals
import Testing

@testable import Cardio

/// Runs the PPG family over one optical channel (64-Hz style uniform samples, green) and, when
/// given, its own accelerometer, cut into blocks of `blockSize` samples.
func analyzeCraftedPPG(
    _ ppg: [Float], sampleRate: Double, flags: [UInt8]? = nil, acceleration: [[Float]]? = nil, blockSize: Int = 4096
) throws -> PPGRowCollector {
    var analyzer = PPGFamily.makeAnalyzer(options: PPGFamily.defaultOptions)
    let optical = StreamInfo(
        key: StreamKey(deviceID: "watch", sensor: .photoplethysmogram, channel: "optical/e1/pd0/s1"),
        columns: [ColumnInfo(name: "normalizedReflectance", unit: .dimensionless)], nominalSampleRate: sampleRate,
        attributes: ["nominalWavelength": "525"])
    _ = analyzer.claim(AnnouncedStream(index: 0, info: optical, file: "crafted"))
    if acceleration != nil {
        let acc = StreamInfo(
            key: StreamKey(deviceID: "watch", sensor: .photoplethysmogram, channel: "accelerometer"),
            columns: ["x", "y", "z"].map { ColumnInfo(name: $0, unit: .standardGravity) }, nominalSampleRate: sampleRate)
        _ = analyzer.claim(AnnouncedStream(index: 1, info: acc, file: "crafted"))
    }
    let flags = flags ?? [UInt8](repeating: 0, count: ppg.count)
    let out = PPGRowCollector()
    let time = TimeBase.uniform(segmentStart: 0, sampleRate: sampleRate)
    var start = 0
    while start < ppg.count {
        let end = min(ppg.count, start + blockSize)
        try analyzer.consume(
            SampleBlock(
                stream: 0, segment: 0, firstSample: start, time: time, columns: [Array(ppg[start..<end])],
                flags: Array(flags[start..<end]), endsSegment: end == ppg.count), output: out)
        if let acceleration {
            try analyzer.consume(
                SampleBlock(
                    stream: 1, segment: 0, firstSample: start, time: time, columns: acceleration.map { Array($0[start..<end]) },
                    flags: [UInt8](repeating: 0, count: end - start), endsSegment: end == ppg.count), output: out)
        }
        start = end
    }
    try analyzer.finish(output: out)
    return out
}

/// Every real value of every table is finite (the tables write NaN as empty).
func allFinite(_ out: PPGRowCollector) -> Bool {
    out.rows.values.allSatisfy { rows in
        rows.allSatisfy { row in row.values.allSatisfy { if case .real(let x) = $0 { return x.isFinite } else { return true } } }
    }
}

/// Crafted inputs of the PPG analysis (issue 11, hardening): a metric without data is empty, not
/// a number; no NaN or infinity in a table.
@Suite("PPG analysis on crafted inputs")
struct PPGRobustnessTests {
    static let still: [[Float]] = {
        let n = 64 * 30
        return [[Float](repeating: 0, count: n), [Float](repeating: 0, count: n), [Float](repeating: 1, count: n)]
    }()

    @Test("a flat line gives no heart rate and no skewness; its perfusion index is 0")
    func flatLine() throws {
        // Before: 40–49 bpm with confidence up to 0.76 from the band-pass's rounding residue.
        let out = try analyzeCraftedPPG([Float](repeating: 100, count: 64 * 30), sampleRate: 64, acceleration: Self.still)
        let spectral = out.table("heart_rate").filter { $0["method"] != .text("beats") }
        #expect(spectral.count == 2 * 12)
        #expect(spectral.allSatisfy { $0["bpm"] == .null && $0["confidence"] == .null })
        let quality = out.table("ppg_quality")
        #expect(quality.count == 12)
        #expect(quality.allSatisfy { $0["skewness"] == .null && real($0["perfusion_index"]) == 0 })
        #expect(quality.allSatisfy { $0["label"] == .text("unacceptable") && $0["in_band_power"] == .null })
        #expect(out.table("beats").isEmpty)
        #expect(allFinite(out))
    }

    @Test("a pulse train scaled by 1e30 or into denormals gives the same spectral rate", arguments: [1e30, 1e-41])
    func extremeScale(scale: Double) throws {
        let s = SyntheticPPG(sampleRate: 64, seconds: 30, heartRateBPM: 72, motionHz: nil)
        let x = s.ppg
        let reference = try analyzeCraftedPPG(x, sampleRate: 64, acceleration: Self.still).table("heart_rate")
        let scaled = try analyzeCraftedPPG(x.map { Float(Double($0) * scale) }, sampleRate: 64, acceleration: Self.still)
        let rows = scaled.table("heart_rate")
        #expect(rows.count == reference.count)
        // Before: every spectral window said 40.3 bpm (the power overflowed or underflowed).
        for (a, b) in zip(rows, reference) where a["method"] != .text("beats") {
            let bpm = try #require(real(a["bpm"])), expected = try #require(real(b["bpm"]))
            #expect(abs(bpm - expected) <= 0.75, "\(a["method"]!) \(bpm) vs \(expected)")
        }
        #expect(allFinite(scaled))
    }

    @Test("a band-passed value beyond Float's range is masked, not stored as infinity")
    func gridOverflow() {
        // ±3.4e38 alternating every half second: the band-pass overshoots past Float's range.
        var grid = PPGGridChannel()
        grid.origin = 0
        let n = 64 * 20
        let x = (0..<n).map { i -> Float in (i / 32) % 2 == 0 ? 3.4e38 : -3.4e38 }
        grid.consume(
            x, flags: [UInt8](repeating: 0, count: n),
            block: SampleBlock(
                stream: 0, segment: 0, firstSample: 0, time: .uniform(segmentStart: 0, sampleRate: 64), columns: [x],
                flags: [UInt8](repeating: 0, count: n), endsSegment: true), sampleRate: 64)
        #expect(grid.values.count > 400)
        let unmaskedInfinite = zip(grid.values, grid.masked).filter { !$0.0.isFinite && !$0.1 }.count
        #expect(unmaskedInfinite == 0)
        #expect(grid.masked.contains(true))
    }

    @Test("PPG quality windows count once each in the summary, over their central step")
    func summaryAssessedTime() throws {
        // Before: ppg_quality rows gave the summary nothing (assessed_hours 0, usable_share
        // empty, though every window was assessed).
        final class FactCollector: ResultOutput {
            var facts: [SummaryFact] = []
            func emit<Row>(_ schema: TableSchema<Row>, _ row: Row) throws {
                if let c = row as? any SummaryContributing, let f = c.summaryFact { facts.append(f) }
            }
        }
        let s = SyntheticPPG(sampleRate: 64, seconds: 30, heartRateBPM: 72, motionHz: nil)
        var analyzer = PPGFamily.makeAnalyzer(options: PPGFamily.defaultOptions)
        let optical = StreamInfo(
            key: StreamKey(deviceID: "watch", sensor: .photoplethysmogram, channel: "optical/e1/pd0/s1"),
            columns: [ColumnInfo(name: "normalizedReflectance", unit: .dimensionless)], nominalSampleRate: 64)
        _ = analyzer.claim(AnnouncedStream(index: 0, info: optical, file: "crafted"))
        let x = s.ppg
        let out = FactCollector()
        try analyzer.consume(
            SampleBlock(
                stream: 0, segment: 0, firstSample: 0, time: .uniform(segmentStart: 0, sampleRate: 64), columns: [x],
                flags: [UInt8](repeating: 0, count: x.count), endsSegment: true), output: out)
        try analyzer.finish(output: out)
        var spans: [(Double, Double, Bool)] = []
        for f in out.facts {
            if case .quality(let usable) = f.measure { spans.append((f.startSeconds, f.endSeconds, usable)) }
        }
        // 12 windows of 8 s every 2 s over 30 s: central steps [3, 5), [5, 7), …, [25, 27).
        #expect(spans.count == 12)
        #expect(spans.enumerated().allSatisfy { k, s in s.0 == 3 + 2 * Double(k) && s.1 == s.0 + 2 && s.2 })
        #expect(out.facts.allSatisfy { $0.family == "ppg" })
    }

    @Test("pulse intervals outside 300–2000 ms are left out of PRV (range)", arguments: [0.8, 2.5])
    func prvRange(intervalSeconds: Double) {
        // Before: an unclassified series used every interval, so 2.5-s pulse intervals (24 bpm)
        // and a crafted spike every 7.8 s went into PRV.
        var series = BeatSeries(options: PPGFamily.defaultOptions.series)
        let n = 60
        series.cover(from: 0, to: Double(n) * intervalSeconds)
        for k in 0..<n { series.append(segment: 0, sampleIndex: k * 64, timeSeconds: 0.3 + Double(k) * intervalSeconds) }
        var beats: [SeriesBeat] = [], hrv: [HRVResult] = []
        series.finish(beat: { beats.append($0) }, heartRate: { _ in }, hrv: { hrv.append($0) })
        let intervals = beats.filter { $0.nnMilliseconds != nil }
        #expect(intervals.count == n - 1)
        if intervalSeconds * 1000 > 2000 {
            #expect(intervals.allSatisfy { $0.nnExclusion == .range })
            #expect(hrv.allSatisfy { $0.coverage.nnCount == 0 })
        } else {
            #expect(intervals.allSatisfy { $0.nnExclusion == nil })
            #expect(hrv.contains { $0.coverage.nnCount == n - 1 })
        }
    }
}

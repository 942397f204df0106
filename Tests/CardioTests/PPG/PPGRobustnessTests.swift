import Foundation
import Signals
import Testing
import _TestSupport

@testable import Cardio

/// The PPG family with one green optical stream (index 0) and, when `accelerometer`, the
/// device's accelerometer (index 1) announced at `rate`.
func craftedAnalyzer(rate: Double, accelerometer: Bool) -> PPGFamily.Analyzer {
    var analyzer = PPGFamily.makeAnalyzer(options: PPGFamily.defaultOptions)
    let optical = StreamInfo(
        key: StreamKey(deviceID: "watch", sensor: .photoplethysmogram, channel: "optical/e1/pd0/s1"),
        columns: [ColumnInfo(name: "normalizedReflectance", unit: .dimensionless)], nominalSampleRate: rate,
        attributes: ["nominalWavelength": "525"])
    _ = analyzer.claim(AnnouncedStream(index: 0, info: optical, file: "crafted"))
    if accelerometer {
        let acc = StreamInfo(
            key: StreamKey(deviceID: "watch", sensor: .photoplethysmogram, channel: "accelerometer"),
            columns: ["x", "y", "z"].map { ColumnInfo(name: $0, unit: .standardGravity) }, nominalSampleRate: rate,
            role: .embeddedAccelerometer)
        _ = analyzer.claim(AnnouncedStream(index: 1, info: acc, file: "crafted"))
    }
    return analyzer
}

/// Runs the PPG family over one optical channel (64-Hz style uniform samples, green) and, when
/// given, its own accelerometer, cut into blocks of `blockSize` samples.
func analyzeCraftedPPG(
    _ ppg: [Float], sampleRate: Double, flags: [UInt8]? = nil, acceleration: [[Float]]? = nil, blockSize: Int = 4096
) throws -> PPGRowCollector {
    var analyzer = craftedAnalyzer(rate: sampleRate, accelerometer: acceleration != nil)
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
                if let c = row as? any SummaryContributing { facts += c.summaryFacts }
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
        for f in out.facts where f.figure == "usable_share" {
            spans.append((f.startSeconds, f.endSeconds, f.value == 1))
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

    /// A crafted case: a 72-bpm pulse train (``SyntheticPPG``) with one defect.
    struct Case: CustomStringConvertible, Sendable {
        var name: String
        var sampleRate = 64.0
        var seconds = 30.0
        var accelerometerSeconds: Double? = 30
        var masked = false
        var jitter = 0.0
        var gapSeconds = 0.0
        var description: String { name }
    }

    static let cases: [Case] = [
        Case(name: "shorter than one window", seconds: 5, accelerometerSeconds: 5),
        Case(name: "exactly one window", seconds: 8, accelerometerSeconds: 8),
        Case(name: "one sample", seconds: 1 / 64, accelerometerSeconds: 1 / 64),
        Case(name: "every sample masked", masked: true),
        Case(name: "no accelerometer", accelerometerSeconds: nil),
        Case(name: "accelerometer over the first half", accelerometerSeconds: 15),
        Case(name: "500 Hz", sampleRate: 500, seconds: 20, accelerometerSeconds: 20),
        Case(name: "1000 Hz", sampleRate: 1000, seconds: 20, accelerometerSeconds: 20),
        Case(name: "timestamps with ±20 % jitter", jitter: 0.2),
        Case(name: "a 1-hour gap in the middle", gapSeconds: 3600),
    ]

    @Test("crafted cases: finite tables, a rate only with data, chunked = whole", arguments: cases)
    func craftedCase(_ c: Case) throws {
        let s = SyntheticPPG(sampleRate: c.sampleRate, seconds: c.seconds, heartRateBPM: 72, motionHz: nil)
        let x = s.ppg
        let n = x.count
        var times = (0..<n).map { Double($0) / c.sampleRate }
        var rng = SeededGenerator(seed: 20)
        if c.jitter > 0 { for i in 1..<n { times[i] += Double.random(in: -c.jitter...c.jitter, using: &rng) / c.sampleRate } }
        if c.gapSeconds > 0 { for i in n / 2..<n { times[i] += c.gapSeconds } }
        let flags = [UInt8](repeating: c.masked ? SampleFlags.saturated.rawValue : 0, count: n)
        let accCount = c.accelerometerSeconds.map { min(n, Int(($0 * c.sampleRate).rounded())) }
        func run(_ blockSize: Int) throws -> PPGRowCollector {
            try analyzeExplicit(x, times: times, flags: flags, accelerometerCount: accCount, rate: c.sampleRate, blockSize: blockSize)
        }
        let out = try run(1 << 20)
        #expect(allFinite(out))
        let spectral = out.table("heart_rate").filter { $0["method"] != .text("beats") }
        let quality = out.table("ppg_quality")
        // Complete 8-s windows every 2 s of the data actually present (both halves of the gap case
        // lie on one grid: the windows over the gap are written without a rate).
        // A window is rated when at most 20 % of it lacks data (the documented rule), here
        // counted from the sample times: window k covers [2k, 2k + 8) s from the first sample.
        var withData = 0
        if !c.masked && n > 1 {
            let last = times[n - 1]
            var k = 0
            while 2 * Double(k) + 8 <= last + 1 / c.sampleRate {
                let lo = 2 * Double(k), hi = lo + 8
                let covered = times.filter { $0 >= lo && $0 < hi }.count
                if Double(covered) >= 0.8 * 8 * c.sampleRate { withData += 1 }
                k += 1
            }
        }
        let rated = spectral.compactMap { real($0["bpm"]) }
        #expect(rated.count == 2 * withData, "\(rated.count) rated windows")
        // The synthetic rate wanders ±3 % (±2.2 bpm) around 72; a bin is 0.73 bpm.
        #expect(rated.allSatisfy { abs($0 - 72) < 3 }, "\(rated)")
        #expect(quality.count == withData || (c.gapSeconds > 0 && quality.count >= withData))
        if c.masked || n < 2 { #expect(out.table("beats").isEmpty) }
        if c.accelerometerSeconds == nil { #expect(quality.allSatisfy { $0["acceleration_rms"] == .null }) }
        for row in out.table("hrv") {
            // A metric left empty says why.
            let empty = row.filter { $0.value == .null }.count
            if empty > 0 { #expect(row["null_reason"] != .text(""), "\(row)") }
        }
        let parts = try run(97)
        for table in ["heart_rate", "beats", "hrv", "ppg_quality"] { #expect(parts.rows[table] == out.rows[table], "\(table)") }
    }
}

/// ``analyzeCraftedPPG`` with explicit times (a new segment where two samples lie more than 2
/// periods apart, as the decoders split) and an accelerometer over the first `accelerometerCount`
/// samples.
func analyzeExplicit(
    _ ppg: [Float], times: [Double], flags: [UInt8], accelerometerCount: Int?, rate: Double, blockSize: Int
) throws -> PPGRowCollector {
    var analyzer = craftedAnalyzer(rate: rate, accelerometer: accelerometerCount != nil)
    // Segment boundaries.
    var bounds = [0]
    for i in 1..<max(1, times.count) where times[i] - times[i - 1] > 2 / rate { bounds.append(i) }
    bounds.append(times.count)
    let out = PPGRowCollector()
    for (segment, (lo, hi)) in zip(bounds, bounds.dropFirst()).enumerated() {
        var start = lo
        while start < hi {
            let end = min(hi, start + blockSize)
            try analyzer.consume(
                SampleBlock(
                    stream: 0, segment: segment, firstSample: start - lo, time: .explicit(Array(times[start..<end])),
                    columns: [Array(ppg[start..<end])], flags: Array(flags[start..<end]), endsSegment: end == hi), output: out)
            if let m = accelerometerCount, start < m {
                let e = min(end, m)
                let z = [Float](repeating: 0, count: e - start)
                try analyzer.consume(
                    SampleBlock(
                        stream: 1, segment: segment, firstSample: start - lo, time: .explicit(Array(times[start..<e])),
                        columns: [z, z, [Float](repeating: 1, count: e - start)], flags: [UInt8](repeating: 0, count: e - start),
                        endsSegment: e == hi || e == m), output: out)
            }
            start = end
        }
    }
    try analyzer.finish(output: out)
    return out
}

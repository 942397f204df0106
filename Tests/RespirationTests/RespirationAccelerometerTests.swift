import Foundation
import Signals
import Testing

@testable import Respiration

/// A wrist accelerometer whose truth is known by construction: gravity along a fixed tilt, a
/// breathing movement along another axis (or none), white sensor noise, and optionally the arm
/// turning (a change of tilt) — 50 Hz, in g.
struct SyntheticAccelerometer {
    var seconds = 160.0
    var rate = 50.0
    var breathsPerMinute: Double? = 15
    /// Breathing amplitude along the breathing axis, g.
    var amplitude = 0.004
    /// White noise per axis (uniform ±), g.
    var noise = 0.002
    /// The arm's tilt change over each 32 s, degrees (0: still).
    var turnDegreesPer32s = 0.0

    func samples() -> (times: [Double], x: [Float], y: [Float], z: [Float]) {
        var rng = SplitMix(seed: 5)
        let n = Int(seconds * rate)
        var t = [Double](), x = [Float](), y = [Float](), z = [Float]()
        for i in 0..<n {
            let s = Double(i) / rate
            let tilt = (20 + turnDegreesPer32s * sin(2 * Double.pi * s / 64)) * Double.pi / 180
            let b = breathsPerMinute.map { amplitude * sin(2 * Double.pi * $0 / 60 * s) } ?? 0
            func e() -> Double { noise * (rng.uniform() * 2 - 1) }
            // Gravity in the x–z plane at `tilt`; breathing along (0.3, 0.9, 0.3) normalised.
            t.append(s)
            x.append(Float(sin(tilt) + 0.3 / 0.995 * b + e()))
            y.append(Float(0.9 / 0.995 * b + e()))
            z.append(Float(cos(tilt) + 0.3 / 0.995 * b + e()))
        }
        return (t, x, y, z)
    }
}

/// Runs the respiration family with the accelerometer option over the samples in blocks of
/// `block` samples.
func runAccelerometer(
    _ s: (times: [Double], x: [Float], y: [Float], z: [Float]), block: Int, usesAccelerometer: Bool = true, rate: Double = 50
) throws -> [Streamed<RespirationWindow>] {
    var o = RespirationOptions()
    o.usesAccelerometer = usesAccelerometer
    var a = RespirationFamily.makeAnalyzer(options: o)
    let info = StreamInfo(
        key: StreamKey(deviceID: "watch", sensor: .accelerometer, channel: "acceleration"),
        columns: ["x", "y", "z"].map { ColumnInfo(name: $0, unit: .standardGravity) }, nominalSampleRate: rate)
    let out = RespirationRowCollector()
    guard a.claim(AnnouncedStream(index: 0, info: info, file: "watch")) else { return [] }
    var start = 0
    while start < s.times.count {
        let end = min(s.times.count, start + block)
        try a.consume(
            SampleBlock(
                stream: 0, segment: 0, firstSample: start, time: .uniform(segmentStart: 0, sampleRate: rate),
                columns: [Array(s.x[start..<end]), Array(s.y[start..<end]), Array(s.z[start..<end])],
                flags: [UInt8](repeating: 0, count: end - start), endsSegment: end == s.times.count), output: out)
        start = end
    }
    try a.finish(output: out)
    return out.rows
}

@Suite struct RespirationAccelerometerTests {
    @Test func stillWristBreathingIsFound() throws {
        let rows = try runAccelerometer(SyntheticAccelerometer().samples(), block: 4096)
        #expect(rows.count == 5)
        for r in rows {
            #expect(r.value.source == .accelerometer)
            let rate = try #require(r.value.breathsPerMinute, "\(r.value.startSeconds): \(r.value.nullReason ?? "")")
            #expect(abs(rate - 15) < 0.5, "\(r.value.startSeconds): \(rate)")
        }
        for bpm in [8.0, 24.0] {
            let rows = try runAccelerometer(SyntheticAccelerometer(breathsPerMinute: bpm).samples(), block: 4096)
            for r in rows {
                let rate = try #require(r.value.breathsPerMinute, "\(bpm) \(r.value.startSeconds): \(r.value.nullReason ?? "")")
                #expect(abs(rate - bpm) < 1, "\(bpm) \(r.value.startSeconds): \(rate)")
            }
        }
    }

    /// The arm turning (the wearer not still) gives no rate, breathing or not.
    @Test func movingArmGivesNoRate() throws {
        let rows = try runAccelerometer(SyntheticAccelerometer(turnDegreesPer32s: 15).samples(), block: 4096)
        #expect(rows.count == 5)
        for r in rows {
            #expect(r.value.breathsPerMinute == nil, "\(r.value.startSeconds)")
            #expect(r.value.nullReason?.hasPrefix("not still") == true, "\(r.value.nullReason ?? "")")
        }
    }

    /// A still sensor with noise and no breathing gives no rate.
    @Test func stillWithoutBreathingGivesNoRate() throws {
        let rows = try runAccelerometer(SyntheticAccelerometer(seconds: 640, breathsPerMinute: nil).samples(), block: 4096)
        #expect(rows.count == 20)
        for r in rows { #expect(r.value.breathsPerMinute == nil, "\(r.value.startSeconds)") }
    }

    /// Chunked = whole.
    @Test func blockSizeDoesNotChangeRows() throws {
        let s = SyntheticAccelerometer(seconds: 200).samples()
        let whole = describe(try runAccelerometer(s, block: s.times.count))
        #expect(!whole.isEmpty)
        for block in [1, 97, 4096] { #expect(describe(try runAccelerometer(s, block: block)) == whole, "block \(block)") }
    }

    /// Off by default: the accelerometer is not claimed.
    @Test func offByDefault() throws {
        #expect(RespirationOptions().usesAccelerometer == false)
        #expect(try runAccelerometer(SyntheticAccelerometer().samples(), block: 4096, usesAccelerometer: false).isEmpty)
    }
}

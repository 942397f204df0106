import Foundation
import Signals
import Testing

@testable import Cardio

/// Sparse background PPG (issue 35): short sessions hours apart, as a watch records them. The
/// spectral heart-rate windows follow the data, never the time span (docs/HARDENING.md, "Gaps").
@Suite("PPG sessions hours apart")
struct PPGSessionGapTests {
    static let rate = 64.0
    /// Sessions as (start, seconds): a 2-h gap (stepped over), then a 3-min gap (shorter than
    /// the tracker's memory: its windows are stepped through, not stored).
    static let sessions: [(start: Double, seconds: Double)] = [(0, 120), (7200, 120), (7500, 120)]

    /// Three optical streams of one watch (two green, one infrared) and its accelerometer, fed in
    /// the order a SensorKit file delivers them: per session, blocks of `blockSize` samples of
    /// each stream in turn, the last of each stream's session marked as ending its segment.
    static func run(blockSize: Int) throws -> PPGRowCollector {
        var analyzer = PPGFamily.makeAnalyzer(options: PPGFamily.defaultOptions)
        for (k, wavelength) in ["525", "525", "850"].enumerated() {
            let info = StreamInfo(
                key: StreamKey(deviceID: "watch", sensor: .photoplethysmogram, channel: "optical/e\(k)/pd0/s\(k)"),
                columns: [ColumnInfo(name: "normalizedReflectance", unit: .dimensionless)], nominalSampleRate: rate,
                attributes: ["nominalWavelength": wavelength])
            _ = analyzer.claim(AnnouncedStream(index: k, info: info, file: "crafted"))
        }
        let acc = StreamInfo(
            key: StreamKey(deviceID: "watch", sensor: .photoplethysmogram, channel: "accelerometer"),
            columns: ["x", "y", "z"].map { ColumnInfo(name: $0, unit: .standardGravity) }, nominalSampleRate: rate,
            role: .embeddedAccelerometer)
        _ = analyzer.claim(AnnouncedStream(index: 3, info: acc, file: "crafted"))
        let out = PPGRowCollector()
        for (segment, session) in sessions.enumerated() {
            let x = SyntheticPPG(sampleRate: rate, seconds: session.seconds, heartRateBPM: 66 + 6 * Double(segment), motionHz: nil)
            let ppg = x.ppg, a = x.acceleration
            let n = ppg.count
            var lo = 0
            while lo < n {
                let hi = min(n, lo + blockSize)
                let time = TimeBase.explicit((lo..<hi).map { session.start + Double($0) / rate })
                let flags = [UInt8](repeating: 0, count: hi - lo)
                for stream in 0..<3 {
                    // The channels differ by scale: the same pulse seen by three photodiodes.
                    let column = ppg[lo..<hi].map { $0 * Float(1 + stream) }
                    try analyzer.consume(
                        SampleBlock(
                            stream: stream, segment: segment, firstSample: lo, time: time, columns: [column], flags: flags,
                            endsSegment: hi == n), output: out)
                }
                try analyzer.consume(
                    SampleBlock(
                        stream: 3, segment: segment, firstSample: lo, time: time, columns: a.map { Array($0[lo..<hi]) },
                        flags: flags, endsSegment: hi == n), output: out)
                lo = hi
            }
        }
        try analyzer.finish(output: out)
        return out
    }

    @Test("spectral windows only around the sessions; chunked = whole")
    func windowsFollowTheSessions() throws {
        let whole = try Self.run(blockSize: 1 << 20)
        let spectral = whole.table("heart_rate").filter { $0["method"] != .text("beats") }
        // Window k covers [2k, 2k + 8) s from the first sample (t = 0). From the sample times:
        // every window wholly inside a session must be stored; no window without a sample may be.
        func sampleIn(_ lo: Double, _ hi: Double) -> Bool {
            Self.sessions.contains { s in
                let first = (max(lo, s.start) - s.start) * Self.rate
                let i = first.rounded(.up)
                return i < s.seconds * Self.rate && s.start + i / Self.rate < hi
            }
        }
        let inside = Set(
            Self.sessions.flatMap { s in
                stride(from: s.start, through: s.start + s.seconds - 8, by: 2).map { Int($0 / 2) }
            })
        for method in ["spectral_online", "spectral_offline"] {
            let starts = spectral.filter { $0["method"] == .text(method) }.compactMap { real($0["window_start"]) }
            let windows = Set(starts.map { Int(($0 / 2).rounded()) })
            #expect(windows.count == starts.count, "\(method): one row per window")
            #expect(inside.isSubset(of: windows), "\(method): \(inside.subtracting(windows).sorted()) missing")
            let empty = windows.filter { !sampleIn(2 * Double($0), 2 * Double($0) + 8) }
            #expect(empty.isEmpty, "\(method): windows without a sample \(empty.sorted())")
            // Storing the gaps' windows would give about 3,800 per method (7,620 s in 2-s steps).
            #expect(starts.count < 3 * 64, "\(method): \(starts.count) rows")
            // Each session's windows wholly inside it carry a rate.
            let rated = spectral.filter { $0["method"] == .text(method) && real($0["bpm"]) != nil }
            #expect(rated.count >= inside.count, "\(method): \(rated.count) rated of \(inside.count)")
        }
        for blockSize in [97, 4096] {
            let parts = try Self.run(blockSize: blockSize)
            for table in ["heart_rate", "beats", "hrv", "ppg_quality"] {
                #expect(parts.rows[table] == whole.rows[table], "\(table), blocks of \(blockSize)")
            }
        }
    }
}

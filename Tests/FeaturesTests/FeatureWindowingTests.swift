import DSP
import Features
import Foundation
import Recordings
import Testing
import _TestSupport

/// Windowing: clock alignment, gaps, masked samples, rates, and chunked = whole.
@Suite struct FeatureWindowingTests {
    static func accelerometer(rate: Double?) -> StreamInfo {
        StreamInfo(
            key: StreamKey(deviceID: "watch", sensor: .accelerometer, channel: "acceleration"),
            columns: ["x", "y", "z"].map { ColumnInfo(name: $0, unit: .standardGravity) }, nominalSampleRate: rate)
    }

    /// A jittered 50-Hz tri-axial stream: 35 s, a 100-s gap (new segment), 47 s more, with a masked
    /// run and a missing (NaN) sample.
    static func jitteredStream() -> SyntheticStream {
        var rng = SeededGenerator(seed: 13)
        var times = [Double](), x = [Float](), y = [Float](), z = [Float](), flags = [UInt8]()
        var t = 1_700_000_003.3
        var segmentStarts = [Int]()
        for i in 0..<(82 * 50) {
            if i == 35 * 50 {
                t += 100
                segmentStarts.append(i)
            }
            times.append(t)
            t += 0.02 + Double.random(in: -0.002...0.002, using: &rng)
            let phase = Double(i) * 0.02 * 2 * .pi * 1.7
            x.append(Float(0.3 * sin(phase) + Double.random(in: -0.05...0.05, using: &rng)))
            y.append(Float(0.2 * cos(phase) + Double.random(in: -0.05...0.05, using: &rng)))
            z.append(Float(-1 + 0.1 * sin(2 * phase) + Double.random(in: -0.05...0.05, using: &rng)))
            flags.append(0)
        }
        for i in 600..<700 { flags[i] = SampleFlags.signalInvalid.rawValue }
        x[2500] = .nan
        flags[2500] = SampleFlags.missing.rawValue
        return SyntheticStream(
            info: accelerometer(rate: nil), times: times, columns: [x, y, z], flags: flags, segmentStarts: segmentStarts)
    }

    /// Default catalog, and with catch22 (`all`).
    @Test(arguments: ["default", "all"])
    func chunkedEqualsWhole(_ catalog: String) throws {
        let stream = Self.jitteredStream()
        var options = FeaturesOptions()
        options.catalog = catalog
        options.windowing.stepSeconds = 5 // overlapping windows too
        let whole = try stream.run(options: options, capacity: stream.times.count)
        #expect(whole.table("features").count > 1000)
        for capacity in [1, 7, 100, 4096] {
            let chunked = try stream.run(options: options, capacity: capacity)
            #expect(chunked.rows == whole.rows, "block capacity \(capacity) changed the rows")
        }
    }

    @Test func windowsAlignToClockAndSkipGaps() throws {
        let stream = Self.jitteredStream()
        let out = try stream.run(capacity: 256)
        let windows = out.table("feature_windows")
        let starts = windows.map { ($0[1].double ?? .nan) - 1_700_000_000 }
        // First part: 3.3 s … 38.3 s; gap of 100 s; second part from about 138.3 s to 185.3 s.
        #expect(starts == [0, 10, 20, 30, 130, 140, 150, 160, 170, 180])
        // The first window holds 6.7 s of data: below 0.8, so no features and a reason.
        let first = windows[0]
        #expect(abs((first[5].double ?? 0) - 0.67) < 0.02)
        #expect(first[8].string?.hasPrefix("valid fraction 0.6") == true)
        // Window 10–20 s holds samples 335…834 or so, 100 of them masked: valid fraction ≈ 0.8.
        let second = windows[1]
        #expect((second[3].double ?? 0) - (second[4].double ?? 0) == 100)
        // Rate estimated from the median interval (no nominal rate): about 50 Hz.
        #expect(abs((windows[2][6].double ?? 0) - 50) < 1)
        // Computed windows have every feature; others none.
        let computed = windows.filter { $0[8] == .null }
        let perWindow = 4 * FeatureExtractor().features.count + 1
        #expect(out.table("features").count == computed.count * perWindow)
        for row in out.table("features") {
            let start = row[1].double ?? .nan
            #expect(computed.contains { $0[1].double == start })
        }
    }

    @Test func unalignedGridStartsAtFirstSample() throws {
        let stream = Self.jitteredStream()
        var options = FeaturesOptions()
        options.windowing.alignsToClock = false
        let out = try stream.run(options: options, capacity: 333)
        let windows = out.table("feature_windows")
        #expect(windows.first?[1].double == stream.times[0])
        #expect(abs((windows[0][5].double ?? 0) - 1) < 0.02)
    }

    @Test func windowsNeverUseMaskedValues() throws {
        // Masked samples hold a huge value: no feature may see it.
        var stream = Self.jitteredStream()
        for i in 600..<700 { stream.columns[0][i] = 1e6 }
        let out = try stream.run(capacity: 500)
        for row in out.table("features") where row[3].string == "acc_x_max" {
            #expect((row[4].double ?? 0) < 1)
        }
    }

    @Test func nominalRateGivesExpectedCount() throws {
        // Uniform 25 Hz, 30 s, samples 250..<500 masked: window 10–20 has fraction 0.
        let n = 750
        let info = StreamInfo(
            key: StreamKey(deviceID: "d", sensor: .electrocardiogram, channel: "ecg"),
            columns: [ColumnInfo(name: "value", unit: .microvolts)], nominalSampleRate: 25)
        var flags = [UInt8](repeating: 0, count: n)
        for i in 250..<500 { flags[i] = SampleFlags.signalInvalid.rawValue }
        let stream = SyntheticStream(
            info: info, times: (0..<n).map { 1_000_000.0 + Double($0) / 25 },
            columns: [(0..<n).map { Float(sin(Double($0) * 0.3)) }], flags: flags, uniformRate: 25)
        let out = try stream.run(capacity: 64)
        let windows = out.table("feature_windows")
        #expect(windows.map { $0[5].double ?? -1 } == [1, 0, 1])
        #expect(windows[1][8].string == "fewer than 2 valid samples")
        #expect(Set(out.table("features").compactMap { $0[3].string }.map { $0.hasPrefix("ecg_value_") }) == [true])
    }
}

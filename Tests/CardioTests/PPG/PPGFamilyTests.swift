import Cardio
import Foundation
import Signals
import Testing

/// Collects emitted rows as column name → value.
final class PPGRowCollector: ResultOutput {
    var rows: [String: [[String: ResultValue]]] = [:]
    func emit<Row>(_ schema: TableSchema<Row>, _ row: Row) throws {
        let names = schema.table.columns.map(\.name)
        rows[schema.table.name, default: []].append(Dictionary(uniqueKeysWithValues: zip(names, schema.values(of: row))))
    }
    func table(_ name: String) -> [[String: ResultValue]] { rows[name] ?? [] }
}

/// A synthetic wrist recording whose truth is known by construction: pulses at known times
/// (a systolic Gaussian bump and a smaller diastolic one), optionally a sinusoidal motion
/// artefact at a known frequency that the accelerometer sees too.
struct SyntheticPPG {
    var sampleRate: Double
    var seconds: Double
    var heartRateBPM: Double
    var motionHz: Double?
    var motionAmplitude: Double = 3
    /// When the motion starts, seconds.
    var motionStart: Double = 0

    /// Pulse (systolic peak) times, seconds: a slowly varying rate around `heartRateBPM`.
    var pulseTimes: [Double] {
        var out = [Double]()
        var t = 0.3
        var k = 0
        while t < seconds {
            out.append(t)
            let rate = heartRateBPM * (1 + 0.03 * sin(2 * Double.pi * Double(k) / 17))
            t += 60 / rate
            k += 1
        }
        return out
    }

    var ppg: [Float] {
        let n = Int(seconds * sampleRate)
        var x = [Double](repeating: 100, count: n)
        for p in pulseTimes {
            let lo = max(0, Int((p - 0.5) * sampleRate)), hi = min(n - 1, Int((p + 0.8) * sampleRate))
            if lo > hi { continue }
            for i in lo...hi {
                let t = Double(i) / sampleRate - p
                x[i] += exp(-0.5 * (t / 0.07) * (t / 0.07)) + 0.4 * exp(-0.5 * ((t - 0.3) / 0.09) * ((t - 0.3) / 0.09))
            }
        }
        if let f = motionHz {
            for i in Int(motionStart * sampleRate)..<n { x[i] += motionAmplitude * sin(2 * Double.pi * f * Double(i) / sampleRate) }
        }
        var seed: UInt64 = 12345
        for i in 0..<n {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            x[i] += 0.02 * (Double(seed >> 11) / Double(1 << 53) - 0.5)
        }
        return x.map(Float.init)
    }

    var acceleration: [[Float]] {
        let n = Int(seconds * sampleRate)
        var ax = [Float](repeating: 0, count: n), ay = ax, az = [Float](repeating: 1, count: n)
        if let f = motionHz {
            for i in Int(motionStart * sampleRate)..<n {
                ax[i] = Float(0.5 * sin(2 * Double.pi * f * Double(i) / sampleRate))
                ay[i] = Float(0.2 * sin(2 * Double.pi * f * Double(i) / sampleRate + 1))
            }
        }
        az[0] = 1
        return [ax, ay, az]
    }

    /// Runs the PPG family over the recording cut into blocks of `blockSize` samples.
    func analyze(blockSize: Int, withAccelerometer: Bool = true, masked: Range<Int>? = nil) throws -> PPGRowCollector {
        var analyzer = PPGFamily.makeAnalyzer(options: PPGFamily.defaultOptions)
        let optical = StreamInfo(
            key: StreamKey(deviceID: "watch", sensor: .photoplethysmogram, channel: "optical/e1/pd0/s1"),
            columns: [ColumnInfo(name: "normalizedReflectance", unit: .dimensionless)], nominalSampleRate: sampleRate,
            attributes: ["nominalWavelength": "525"])
        let acc = StreamInfo(
            key: StreamKey(deviceID: "watch", sensor: .photoplethysmogram, channel: "accelerometer"),
            columns: ["x", "y", "z"].map { ColumnInfo(name: $0, unit: .standardGravity) }, nominalSampleRate: sampleRate,
            role: .embeddedAccelerometer)
        let claimedOptical = analyzer.claim(AnnouncedStream(index: 0, info: optical, file: "synthetic"))
        #expect(claimedOptical)
        if withAccelerometer {
            let claimedAcceleration = analyzer.claim(AnnouncedStream(index: 1, info: acc, file: "synthetic"))
            #expect(claimedAcceleration)
        }
        let x = ppg, a = acceleration
        var flags = [UInt8](repeating: 0, count: x.count)
        if let masked { for i in masked { flags[i] = SampleFlags.saturated.rawValue } }
        let out = PPGRowCollector()
        var start = 0
        while start < x.count {
            let end = min(x.count, start + blockSize)
            let time = TimeBase.uniform(segmentStart: 0, sampleRate: sampleRate)
            try analyzer.consume(
                SampleBlock(
                    stream: 0, segment: 0, firstSample: start, time: time, columns: [Array(x[start..<end])],
                    flags: Array(flags[start..<end]), endsSegment: end == x.count), output: out)
            if withAccelerometer {
                try analyzer.consume(
                    SampleBlock(
                        stream: 1, segment: 0, firstSample: start, time: time, columns: a.map { Array($0[start..<end]) },
                        flags: [UInt8](repeating: 0, count: end - start), endsSegment: end == x.count), output: out)
            }
            start = end
        }
        try analyzer.finish(output: out)
        return out
    }
}

func real(_ v: ResultValue?) -> Double? {
    if case .real(let x)? = v { return x }
    return nil
}

@Suite("PPG family on synthetic wrist recordings with known pulses and motion")
struct PPGFamilyTests {
    @Test("spectral heart rate ignores a motion artefact the accelerometer sees", arguments: ["spectral_online", "spectral_offline"])
    func motionRobustHeartRate(method: String) throws {
        // 72 bpm pulses; from 20 s on (after rest, as in SPC 2015) an artefact at 2.2 Hz
        // (132 /min) with more power than the pulses' fundamental.
        let s = SyntheticPPG(sampleRate: 64, seconds: 120, heartRateBPM: 72, motionHz: 2.2, motionAmplitude: 0.6, motionStart: 20)
        let rows = try s.analyze(blockSize: 4096).table("heart_rate").filter { $0["method"] == .text(method) }
        // 8-s windows every 2 s over 120 s: 57 complete windows.
        #expect(rows.count == 57)
        #expect(rows.allSatisfy { $0["source"] == .text("ppg") })
        let errors = rows.compactMap { real($0["bpm"]) }.map { abs($0 - 72) }
        #expect(errors.count == rows.count)
        let mae = errors.reduce(0, +) / Double(max(1, errors.count))
        #expect(mae < 3, "MAE \(mae)")
        // Window k covers [2k, 2k + 8).
        #expect(real(rows[5]["window_start"]) == 10)
        #expect(real(rows[5]["window_end"]) == 18)
    }

    @Test("without the accelerometer the same artefact wins (the reference matters)")
    func artefactWithoutAccelerometer() throws {
        let s = SyntheticPPG(sampleRate: 64, seconds: 120, heartRateBPM: 72, motionHz: 2.2, motionAmplitude: 0.6)
        let rows = try s.analyze(blockSize: 4096, withAccelerometer: false).table("heart_rate")
            .filter { $0["method"] == .text("spectral_offline") }
        let nearMotion = rows.compactMap { real($0["bpm"]) }.filter { abs($0 - 132) < 3 }.count
        #expect(nearMotion > rows.count / 2)
    }

    @Test("systolic peaks at the known pulse times", arguments: [25.0, 64.0, 128.0, 256.0])
    func pulses(rate: Double) throws {
        let s = SyntheticPPG(sampleRate: rate, seconds: 60, heartRateBPM: 75, motionHz: nil)
        let rows = try s.analyze(blockSize: 1000).table("beats")
        #expect(rows.allSatisfy { $0["source"] == .text("ppg") })
        let detected = rows.compactMap { real($0["time"]) }
        let truth = s.pulseTimes
        var matched = 0
        for t in truth where detected.contains(where: { abs($0 - t) <= 0.05 }) { matched += 1 }
        print("pulses at \(rate) Hz: detected \(detected.prefix(6)), truth \(truth.prefix(6))")
        // The first pulse can fall in the detector's start-up (the filter's first second).
        #expect(matched >= truth.count - 2, "\(matched) of \(truth.count) at \(rate) Hz")
        #expect(detected.count <= truth.count + 1)
        let hrv = try s.analyze(blockSize: 1000).table("hrv")
        #expect(hrv.contains { $0["scope"] == .text("recording") && $0["source"] == .text("ppg") })
    }

    @Test("chunked equals whole", arguments: [1, 97, 4096])
    func chunkedEqualsWhole(blockSize: Int) throws {
        let s = SyntheticPPG(sampleRate: 50, seconds: 40, heartRateBPM: 80, motionHz: 1.7)
        let whole = try s.analyze(blockSize: 1 << 20).rows
        let parts = try s.analyze(blockSize: blockSize).rows
        for table in ["heart_rate", "beats", "hrv", "ppg_quality"] {
            #expect((parts[table]?.count ?? 0) > 0, "\(table)")
            #expect(parts[table] == whole[table], "\(table) with blocks of \(blockSize)")
        }
    }

    @Test("claims optical channels and the device's accelerometer, not temperature or another device's accelerometer")
    func claims() {
        var analyzer = PPGFamily.makeAnalyzer(options: PPGFamily.defaultOptions)
        func stream(
            _ index: Int, _ device: String, _ sensor: SensorKind, _ channel: String, _ unit: PhysicalUnit, role: StreamRole? = nil
        ) -> AnnouncedStream {
            AnnouncedStream(
                index: index,
                info: StreamInfo(
                    key: StreamKey(deviceID: device, sensor: sensor, channel: channel), columns: [ColumnInfo(name: "v", unit: unit)],
                    role: role),
                file: "f")
        }
        let otherAccelerometer = analyzer.claim(stream(0, "phone", .accelerometer, "acceleration", .standardGravity))
        let optical = analyzer.claim(stream(1, "watch", .photoplethysmogram, "optical/e1/pd0/s1", .dimensionless))
        // The decoder gives a PPG sample's temperature its role (SensorKit: ``StreamRole/temperature``).
        let temperature = analyzer.claim(stream(2, "watch", .photoplethysmogram, "temperature", .degreesCelsius, role: .temperature))
        let accelerometer = analyzer.claim(stream(3, "watch", .accelerometer, "acceleration", .standardGravity))
        let ecg = analyzer.claim(stream(4, "watch", .electrocardiogram, "ecg", .microvolts))
        #expect(!otherAccelerometer && optical && !temperature && accelerometer && !ecg)
    }

    @Test("quality: clean pulses are good, masked samples count, motion lowers the label")
    func quality() throws {
        let clean = try SyntheticPPG(sampleRate: 64, seconds: 30, heartRateBPM: 70, motionHz: nil).analyze(blockSize: 512)
            .table("ppg_quality")
        #expect(clean.count == 12)
        #expect(clean.allSatisfy { $0["label"] == .text("good") }, "\(clean.map { $0["label"] })")
        let masked = try SyntheticPPG(sampleRate: 64, seconds: 30, heartRateBPM: 70, motionHz: nil)
            .analyze(blockSize: 512, masked: 640..<1280).table("ppg_quality")
        // Samples 10–20 s are saturated: windows wholly inside ([10, 18), [12, 20)) have no
        // unmasked sample and are not written; [8, 16) is 75 % masked and unacceptable; windows
        // that end by 10 s have no masked sample.
        let starts = masked.compactMap { real($0["window_start"]) }
        #expect(starts.count == 10 && !starts.contains(10) && !starts.contains(12))
        let w8 = try #require(masked.first { real($0["window_start"]) == 8 })
        #expect(real(w8["masked_fraction"]).map { abs($0 - 0.75) < 0.01 } == true)
        #expect(w8["label"] == .text("unacceptable"))
        #expect(real(masked[0]["masked_fraction"]) == 0)
        let noisy = try SyntheticPPG(sampleRate: 64, seconds: 30, heartRateBPM: 70, motionHz: 2.2, motionAmplitude: 3)
            .analyze(blockSize: 512).table("ppg_quality")
        #expect(noisy.allSatisfy { $0["label"] != .text("good") })
        #expect(noisy.allSatisfy { (real($0["acceleration_rms"]) ?? 0) > 0.3 })
    }
}

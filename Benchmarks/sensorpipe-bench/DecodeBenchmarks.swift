// Needs "Recordings" in the sensorpipe-bench target's dependencies (Package.swift) and
// `decodeBenchmarks(scale)` in Registry.swift; until then this file compiles to nothing.
#if canImport(Recordings) && canImport(CZlib)
    import Foundation
    import Recordings

    // SensorKit NDJSON decoding: SensorKitDecoder (hand-written streaming scanner, numbers parsed
    // straight into column buffers) against Foundation's JSONDecoder with Codable structs decoding
    // the same file into the same column arrays, measured in the same run.
    //
    // The files are synthesised once per process, when a decode case is first set up (not for
    // `--list` or other cases), into the scratch folder (about 64 MB each at full scale, 1 MB
    // quick): ECG (one 256-value batch at 512 Hz per line), accelerometer (100 jittery ~50 Hz
    // samples per line, full-precision timestamps, identifiers above 2^53) and PPG (two optical
    // channels and the embedded accelerometer, 32 samples each per line).

    private enum BenchmarkFiles {
        static let directory: URL = {
            let u = benchmarkScratch.appendingPathComponent("decode")
            try? FileManager.default.createDirectory(at: u, withIntermediateDirectories: true)
            return u
        }()

        /// Deterministic uniform values in [−1, 1) (SplitMix64).
        struct Noise {
            var state: UInt64
            mutating func next() -> Double {
                state &+= 0x9E37_79B9_7F4A_7C15
                var z = state
                z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
                z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
                z ^= z >> 31
                return Double(z >> 11) / 9_007_199_254_740_992.0 * 2 - 1
            }
        }

        static func rounded(_ v: Double, _ decimals: Double) -> Double { (v * decimals).rounded() / decimals }

        /// Writes the file once per process and scale; returns (path, bytes, samples).
        static func make(_ kind: String, targetBytes: Int) -> (path: String, bytes: Int, samples: Int) {
            let url = directory.appendingPathComponent("\(kind)-\(targetBytes)-v1.ndjson")
            let perLine = kind == "electrocardiogram" ? 256 : kind == "accelerometer" ? 100 : 64 + 32 + 1
            if let existing = FileManager.default.contents(atPath: url.path) {
                // Written by an earlier run (the content is deterministic): reuse it.
                let lines = existing.reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
                return (url.path, existing.count, (lines - 2) * perLine)
            }
            var out = [UInt8]()
            out.reserveCapacity(targetBytes + (1 << 20))
            func line(_ s: String) { out.append(contentsOf: s.utf8); out.append(0x0A) }
            let t0 = 1_716_307_300.0
            var noise = Noise(state: 42)
            var samples = 0
            let device = kind == "accelerometer" ? "iphone-1" : "watch-1"
            line(
                "{\"type\":\"header\",\"schema\":\"sensorkit-ndjson\",\"version\":1,\"sensor\":\"\(kind)\",\"deviceId\":\"\(device)\",\"exporter\":\"sensorpipe-bench\"}"
            )
            line(
                "{\"type\":\"device\",\"deviceId\":\"\(device)\",\"name\":\"Device\",\"model\":\"Watch\",\"systemName\":\"watchOS\",\"systemVersion\":\"10.4\",\"productType\":\"Watch6,1\"}"
            )
            var k = 0
            var t = t0
            while out.count < targetBytes {
                switch kind {
                case "electrocardiogram":
                    let date = t0 + Double(k) * 0.5
                    var s =
                        "{\"type\":\"electrocardiogram\",\"deviceId\":\"watch-1\",\"timestamp\":\(date - 978_307_200 + 1),\"timestampUnix\":\(date + 1),\"sample\":[{\"date\":\(date),\"frequency\":512.0,\"lead\":\"rightArmMinusLeftArm\",\"session\":{\"identifier\":\"6F1C2A-\(k / 60)\",\"state\":\"active\",\"sessionGuidance\":\"guided\"},\"data\":["
                    for j in 0..<256 {
                        let v = rounded(300 * sin(Double(k * 256 + j) * 0.0307) + 40 * noise.next(), 1000)
                        s += (j == 0 ? "" : ",") + "{\"value\":\(v),\"flags\":\(j % 97 == 0 ? 1 : 0)}"
                    }
                    line(s + "]}]}")
                    samples += 256
                case "accelerometer":
                    var s =
                        "{\"type\":\"accelerometer\",\"deviceId\":\"iphone-1\",\"timestamp\":\(t - 978_307_200 + 1),\"timestampUnix\":\(t + 1),\"sample\":["
                    let id = UInt64.max - UInt64(k)
                    for j in 0..<100 {
                        t += 0.02 + 0.003 * noise.next()
                        let x = rounded(0.012 + 0.05 * noise.next(), 1e6), y = rounded(-0.981 + 0.05 * noise.next(), 1e6)
                        let z = rounded(0.047 + 0.05 * noise.next(), 1e6)
                        s +=
                            (j == 0 ? "" : ",")
                            + "{\"startDate\":\(t),\"identifier\":\(id),\"timestamp\":\(rounded(t - t0 + 8123.4, 1e6)),\"acceleration\":{\"x\":\(x),\"y\":\(y),\"z\":\(z)}}"
                    }
                    line(s + "]}")
                    samples += 100
                default: // photoplethysmogram
                    let start = t0 + Double(k) * 0.5
                    var s =
                        "{\"type\":\"photoplethysmogram\",\"deviceId\":\"watch-1\",\"timestamp\":\(start - 978_307_200 + 1),\"timestampUnix\":\(start + 1),\"sample\":[{\"startDate\":\(start),\"nanosecondsSinceStart\":0,\"usage\":[\"backgroundSystem\"],\"temperature\":31.2,\"opticalSamples\":["
                    var first = true
                    for (emitter, pd, sig, nm) in [(9, "0,1", 1, 525.0), (10, "2,3", 3, 940.0)] {
                        for j in 0..<32 {
                            let r = rounded(0.0123 + 0.001 * noise.next(), 1e7)
                            s +=
                                (first ? "" : ",")
                                + "{\"emitter\":\(emitter),\"activePhotodiodeIndexes\":[\(pd)],\"signalIdentifier\":\(sig),\"nominalWavelength\":\(nm),\"effectiveWavelength\":\(nm + 2.3),\"samplingFrequency\":64.0,\"nanosecondsSinceStart\":\(j * 15_625_000),\"normalizedReflectance\":\(r),\"noiseTerms\":{\"whiteNoise\":1.1e-06,\"pinkNoise\":2e-07,\"backgroundNoise\":0.0003,\"backgroundNoiseOffset\":0.0001},\"conditions\":[]}"
                            first = false
                        }
                    }
                    s += "],\"accelerometerSamples\":["
                    for j in 0..<32 {
                        s +=
                            (j == 0 ? "" : ",")
                            + "{\"nanosecondsSinceStart\":\(j * 15_625_000),\"samplingFrequency\":64.0,\"x\":\(rounded(0.01 + 0.01 * noise.next(), 1e5)),\"y\":\(rounded(-0.99 + 0.01 * noise.next(), 1e5)),\"z\":\(rounded(0.03 + 0.01 * noise.next(), 1e5))}"
                    }
                    line(s + "]}]}")
                    samples += 64 + 32 + 1
                }
                k += 1
            }
            try! Data(out).write(to: url, options: .atomic)
            return (url.path, out.count, samples)
        }
    }

    // MARK: - JSONDecoder reference (Codable mirrors of the schema)

    private struct XYZ: Decodable { let x: Double; let y: Double; let z: Double }
    private struct ECGDatum: Decodable { let value: Double; let flags: Int }
    private struct ECGSession: Decodable { let identifier: String; let state: String?; let sessionGuidance: String? }
    private struct ECGSample: Decodable {
        let date: Double; let frequency: Double; let lead: String?; let session: ECGSession; let data: [ECGDatum]
    }
    private struct ECGLine: Decodable {
        let type: String; let deviceId: String; let timestamp: Double?; let timestampUnix: Double?; let sample: [ECGSample]
    }
    private struct AccSample: Decodable { let startDate: Double; let identifier: UInt64; let timestamp: Double?; let acceleration: XYZ }
    private struct AccLine: Decodable {
        let type: String; let deviceId: String; let timestamp: Double?; let timestampUnix: Double?; let sample: [AccSample]
    }
    private struct NoiseTerms: Decodable {
        let whiteNoise: Double?; let pinkNoise: Double?; let backgroundNoise: Double?; let backgroundNoiseOffset: Double?
    }
    private struct Optical: Decodable {
        let emitter: Int; let activePhotodiodeIndexes: [Int]; let signalIdentifier: Int; let nominalWavelength: Double?
        let effectiveWavelength: Double?; let samplingFrequency: Double; let nanosecondsSinceStart: Int64
        let normalizedReflectance: Double?; let noiseTerms: NoiseTerms?; let conditions: [String]
    }
    private struct PPGAcc: Decodable {
        let nanosecondsSinceStart: Int64; let samplingFrequency: Double; let x: Double; let y: Double; let z: Double
    }
    private struct PPGSample: Decodable {
        let startDate: Double; let nanosecondsSinceStart: Int64; let usage: [String]?; let temperature: Double?
        let opticalSamples: [Optical]; let accelerometerSamples: [PPGAcc]
    }
    private struct PPGLine: Decodable {
        let type: String; let deviceId: String; let timestamp: Double?; let timestampUnix: Double?; let sample: [PPGSample]
    }

    /// Decodes the benchmark file with JSONDecoder, line by line, into column arrays.
    private func jsonDecoderDecode(path: String, kind: String) -> Int {
        let data = FileManager.default.contents(atPath: path)!
        let decoder = JSONDecoder()
        var times = [Double](), a = [Float](), b = [Float](), c = [Float](), flags = [UInt8]()
        var lineNumber = 0
        data.withUnsafeBytes { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            var start = 0
            while start < bytes.count {
                var end = start
                while end < bytes.count && bytes[end] != 0x0A { end += 1 }
                lineNumber += 1
                if lineNumber > 2 && end > start {
                    let line = Data(bytes: bytes.baseAddress! + start, count: end - start)
                    switch kind {
                    case "electrocardiogram":
                        let l = try! decoder.decode(ECGLine.self, from: line)
                        for s in l.sample {
                            for (j, d) in s.data.enumerated() {
                                times.append(s.date + Double(j) / s.frequency)
                                a.append(Float(d.value))
                                flags.append(UInt8(d.flags & 3))
                            }
                        }
                    case "accelerometer":
                        let l = try! decoder.decode(AccLine.self, from: line)
                        for s in l.sample {
                            times.append(s.startDate)
                            a.append(Float(s.acceleration.x)); b.append(Float(s.acceleration.y)); c.append(Float(s.acceleration.z))
                        }
                    default:
                        let l = try! decoder.decode(PPGLine.self, from: line)
                        for s in l.sample {
                            for o in s.opticalSamples {
                                times.append(s.startDate + Double(o.nanosecondsSinceStart) / 1e9)
                                a.append(Float(o.normalizedReflectance ?? .nan))
                                flags.append(o.conditions.isEmpty ? 0 : 4)
                            }
                            for x in s.accelerometerSamples {
                                b.append(Float(x.x)); c.append(Float(x.y));
                                times.append(s.startDate + Double(x.nanosecondsSinceStart) / 1e9)
                            }
                        }
                    }
                }
                start = end + 1
            }
        }
        return times.count + a.count + b.count + c.count + flags.count
    }

    /// Decodes the file with SensorKitDecoder, touching every block.
    private func sensorKitDecode(path: String) -> Int {
        let decoder = try! SensorKitDecoder(path: path)
        var n = 0
        while let e = try! decoder.next() {
            if case .block(let b) = e { n += b.count }
        }
        return n
    }

    /// One benchmark file, written (or found) when a case that reads it is first set up, so that
    /// `--list` and runs of other cases do not synthesise three 64-MB files.
    private final class LazyBenchmarkFile {
        let kind: String
        let targetBytes: Int
        lazy var file: (path: String, bytes: Int, samples: Int) = BenchmarkFiles.make(kind, targetBytes: targetBytes)
        init(kind: String, targetBytes: Int) {
            self.kind = kind
            self.targetBytes = targetBytes
        }
    }

    /// NDJSON decoding of ECG, accelerometer and PPG files: SensorKitDecoder against JSONDecoder.
    func decodeBenchmarks(_ scale: BenchmarkScale) -> [BenchmarkCase] {
        let target = scale == .full ? 64 << 20 : 1 << 20
        var cases = [BenchmarkCase]()
        for (kind, short) in [("electrocardiogram", "ecg"), ("accelerometer", "accelerometer"), ("photoplethysmogram", "ppg")] {
            let lazy = LazyBenchmarkFile(kind: kind, targetBytes: target)
            let sizes = { (samples: lazy.file.samples, bytes: lazy.file.bytes) }
            let reference = "decode/jsondecoder/\(short)"
            cases.append(
                BenchmarkCase(
                    name: reference, samples: 0, reference: nil,
                    setUp: {
                        let path = lazy.file.path
                        return { blackHole(jsonDecoderDecode(path: path, kind: kind)) }
                    }, sizesAfterSetUp: sizes))
            cases.append(
                BenchmarkCase(
                    name: "decode/sensorkit-ndjson/\(short)", samples: 0, reference: reference,
                    setUp: {
                        let path = lazy.file.path
                        return { blackHole(sensorKitDecode(path: path)) }
                    }, sizesAfterSetUp: sizes))
        }
        return cases
    }
#endif

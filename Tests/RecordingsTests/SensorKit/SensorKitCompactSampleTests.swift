import Foundation
import Recordings
import Testing
import _TestSupport

/// The accelerometer sample's literal fast path (`parseCompactAccelerometerSample`, issue 35):
/// a sample written exactly as exporters write it is read by matching its keys as literals; any
/// other spelling takes the general path. Both must give the same samples, accounts and errors:
/// each line is decoded compact and again with a space after every `:` and `,` (which only the
/// general path reads), and the values are checked against `Double(String)`.
@Suite("SensorKit accelerometer samples: literal fast path = general path")
struct SensorKitCompactSampleTests {
    /// Sample objects as exporters write them, valid and not.
    static let samples: [String] = [
        #"{"startDate":1716188400.020128,"identifier":1000000,"timestamp":81234.020128,"acceleration":{"x":0.00540782852,"y":-0.988314136,"z":-0.00544651177}}"#,
        #"{"startDate":1686663240.01,"identifier":1,"acceleration":{"x":0.0,"y":0.00390625,"z":1.0351562}}"#,
        #"{"startDate":1686663240.02,"identifier":2,"acceleration":{"x":12345678901234567890.5,"y":-1e-3,"z":1E2}}"#,
        #"{"startDate":1686663240.03,"identifier":3,"acceleration":{"x":0.1,"y":0.2,"z":0.3},"extra":true}"#,
        #"{"identifier":4,"startDate":1686663240.04,"acceleration":{"x":0.1,"y":0.2,"z":0.3}}"#,
        #"{"startDate":1686663240.05,"identifier":5,"acceleration":{"z":0.3,"y":0.2,"x":0.1}}"#,
        #"{"startDate":1686663240.06,"identifier":6,"acceleration":{"x":1e39,"y":0.2,"z":0.3}}"#,
        #"{"startDate":1686663240.07,"identifier":7,"acceleration":{"x":01,"y":0.2,"z":0.3}}"#,
        #"{"startDate":1686663240.08,"identifier":-8,"acceleration":{"x":0.1,"y":0.2,"z":0.3}}"#,
        #"{"startDate":1686663240.09,"identifier":9,"acceleration":{"x":0.1,"y":0.2}}"#,
        #"{"startDate":1e30,"identifier":10,"acceleration":{"x":0.1,"y":0.2,"z":0.3}}"#,
        #"{"startDate":1686663240.11,"identifier":11,"timestamp":NaN,"acceleration":{"x":0.1,"y":0.2,"z":0.3}}"#,
        #"{"startDate":1686663240.12,"identifier":12,"acceleration":{"x":0.123456789012345678901,"y":0.000000001234,"z":-7}}"#,
    ]

    /// The header and device lines of a file of `sensor` from `device` (lines 1 and 2).
    static func header(sensor: String, device: String) -> String {
        #"{"type":"header","schema":"sensorkit-ndjson","version":1,"sensor":""# + sensor + #"","deviceId":""# + device
            + #"","exporter":"tests"}"# + "\n" + #"{"type":"device","deviceId":""# + device
            + #"","name":"Device","model":"Watch","systemName":"watchOS","systemVersion":"10.4","productType":"Watch6,1"}"# + "\n"
    }

    /// The same samples, accounts and errors line by line (their columns differ with the spaces).
    static func expectSame(_ compact: DecodedFile, _ spaced: DecodedFile) {
        #expect(differences(compact, spaced).isEmpty, "\(differences(compact, spaced))")
        #expect(compact.accounts.map(\.samplesRead) == spaced.accounts.map(\.samplesRead))
        #expect(compact.accounts.map(\.rejected) == spaced.accounts.map(\.rejected))
        #expect(compact.issues.map(\.code) == spaced.issues.map(\.code))
        #expect(compact.issues.map(\.message) == spaced.issues.map(\.message))
        #expect(compact.issues.map(\.line) == spaced.issues.map(\.line))
    }

    static func decode(_ lines: [String], in folder: TemporaryDirectory, name: String) throws -> DecodedFile {
        let text = lines.map { #"{"type":"accelerometer","deviceId":"d","sample":["# + $0 + "]}\n" }.joined()
        return try decodeAll(folder.write(name, header(sensor: "accelerometer", device: "d") + text))
    }

    @Test("every sample: the same values, accounts and errors with and without spaces")
    func compactEqualsGeneral() throws {
        let folder = TemporaryDirectory()
        let compact = try Self.decode(Self.samples, in: folder, name: "compact.ndjson")
        let spaced = try Self.decode(
            Self.samples.map { $0.replacingOccurrences(of: ":", with: ": ").replacingOccurrences(of: ",", with: ", ") }, in: folder,
            name: "spaced.ndjson")
        Self.expectSame(compact, spaced)
        // Valid samples 1–6 and 13 (order and extra keys do not matter); the others are rejected,
        // and the unknown key of sample 4 is reported once on its line (sample k, counted from 1,
        // on line k + 2, after the header and device lines).
        let valid = [0, 1, 2, 3, 4, 5, 12]
        let rejected = Array(0..<Self.samples.count).filter { !valid.contains($0) }.map { $0 + 3 }
        #expect(compact.issues.compactMap(\.line).sorted() == ([4 + 2] + rejected).sorted())
        let stream = try #require(compact.streams.first)
        #expect(stream.times.count == valid.count)
        // The values against Double(String), rounded to Float, in file order.
        let x = ["0.00540782852", "0.0", "12345678901234567890.5", "0.1", "0.1", "0.1", "0.123456789012345678901"]
        let z = ["-0.00544651177", "1.0351562", "1E2", "0.3", "0.3", "0.3", "-7"]
        #expect(stream.columns[0] == x.map { Float(Double($0)!) })
        #expect(stream.columns[2] == z.map { Float(Double($0)!) })
        #expect(stream.times[0] == Double("1716188400.020128")!)
    }

    /// Optical samples as exporters write them, valid and not.
    static let optical: [String] = [
        #"{"emitter":9,"activePhotodiodeIndexes":[0,1],"signalIdentifier":1,"nominalWavelength":525.0,"effectiveWavelength":527.3,"samplingFrequency":64.0,"nanosecondsSinceStart":0,"normalizedReflectance":0.0121823626,"noiseTerms":{"whiteNoise":1.1e-06,"pinkNoise":2e-07,"backgroundNoise":0.0003,"backgroundNoiseOffset":0.0001},"conditions":[]}"#,
        #"{"emitter":1,"activePhotodiodeIndexes":[0],"signalIdentifier":100001,"samplingFrequency":30.0,"nanosecondsSinceStart":33445000,"normalizedReflectance":-254.418,"noiseTerms":null,"conditions":["signalSaturation"]}"#,
        #"{"emitter":1,"activePhotodiodeIndexes":[],"signalIdentifier":2,"samplingFrequency":30.0,"nanosecondsSinceStart":66890000,"normalizedReflectance":null,"noiseTerms":{"whiteNoise":null,"pinkNoise":1,"backgroundNoise":2,"backgroundNoiseOffset":3},"conditions":["unreliableNoise","signalSaturation"]}"#,
        #"{"emitter":1,"activePhotodiodeIndexes":[64],"signalIdentifier":2,"samplingFrequency":30.0,"nanosecondsSinceStart":0,"normalizedReflectance":1,"noiseTerms":null,"conditions":[]}"#,
        #"{"emitter":1,"activePhotodiodeIndexes":[0],"signalIdentifier":2,"samplingFrequency":0,"nanosecondsSinceStart":0,"normalizedReflectance":1,"noiseTerms":null,"conditions":[]}"#,
        #"{"emitter":1,"activePhotodiodeIndexes":[0],"signalIdentifier":2,"samplingFrequency":30.0,"nanosecondsSinceStart":0,"normalizedReflectance":NaN,"noiseTerms":null,"conditions":[]}"#,
        #"{"emitter":1,"activePhotodiodeIndexes":[0],"signalIdentifier":2,"samplingFrequency":30.0,"nanosecondsSinceStart":0,"normalizedReflectance":1,"noiseTerms":null}"#,
        #"{"emitter":1,"activePhotodiodeIndexes":[0],"signalIdentifier":2,"samplingFrequency":30.0,"nanosecondsSinceStart":0,"normalizedReflectance":1,"noiseTerms":null,"conditions":["other"]}"#,
        #"{"emitter":1,"activePhotodiodeIndexes":[0],"samplingFrequency":30.0,"nanosecondsSinceStart":0,"normalizedReflectance":1,"noiseTerms":null,"conditions":[]}"#,
        #"{"emitter":1,"activePhotodiodeIndexes":[0],"signalIdentifier":2,"samplingFrequency":30.0,"nanosecondsSinceStart":0,"normalizedReflectance":1,"noiseTerms":{"pinkNoise":1},"conditions":[],"extra":0}"#,
    ]

    /// PPG accelerometer samples, valid and not.
    static let ppgAccelerometer: [String] = [
        #"{"nanosecondsSinceStart":0,"samplingFrequency":64.0,"x":0.0184031698,"y":-0.983850167,"z":0.00893477388}"#,
        #"{"nanosecondsSinceStart":15625000,"samplingFrequency":64.0,"x":1e39,"y":0,"z":0}"#,
        #"{"nanosecondsSinceStart":31250000,"samplingFrequency":64.0,"x":0.1,"y":0.2}"#,
        #"{"samplingFrequency":64.0,"nanosecondsSinceStart":46875000,"x":0.1,"y":0.2,"z":0.3}"#,
    ]

    @Test("PPG optical and accelerometer samples: the same values, accounts and errors with and without spaces")
    func compactPPGEqualsGeneral() throws {
        // One line per optical sample and per accelerometer sample (each with the valid first
        // sample of the other kind), a second apart.
        var lines: [String] = []
        for (k, o) in Self.optical.enumerated() {
            lines.append(Self.ppgLine(second: k, optical: o, accelerometer: Self.ppgAccelerometer[0]))
        }
        for (k, a) in Self.ppgAccelerometer.enumerated() {
            lines.append(Self.ppgLine(second: 100 + k, optical: Self.optical[0], accelerometer: a))
        }
        let folder = TemporaryDirectory()
        func write(_ name: String, _ lines: [String]) throws -> DecodedFile {
            try decodeAll(folder.write(name, Self.header(sensor: "photoplethysmogram", device: "w") + lines.joined(separator: "\n") + "\n"))
        }
        let compact = try write("compact.ndjson", lines)
        let spaced = try write(
            "spaced.ndjson", lines.map { $0.replacingOccurrences(of: ":", with: ": ").replacingOccurrences(of: ",", with: ", ") })
        #expect(!compact.streams.isEmpty)
        Self.expectSame(compact, spaced)
        // Rejected: optical samples 4, 5, 6, 8, 9 (photodiode 64, rate 0, NaN, unknown condition, no
        // signalIdentifier) and accelerometer samples 2, 3 (beyond Float, no z), counted from 1;
        // reported, not rejected: the unknown key of optical sample 10; line = 2 + sample.
        let rejected = Set(compact.issues.compactMap(\.line))
        let expected = [4, 5, 6, 8, 9, 10, Self.optical.count + 2, Self.optical.count + 3].map { $0 + 2 }
        #expect(rejected == Set(expected), "\(compact.issues)")
    }

    static func ppgLine(second: Int, optical: String, accelerometer: String) -> String {
        let t = 1_716_195_600 + second
        return #"{"type":"photoplethysmogram","deviceId":"w","sample":[{"startDate":"# + "\(t)"
            + #","nanosecondsSinceStart":0,"usage":["backgroundSystem"],"temperature":31.0,"opticalSamples":["# + optical
            + #"],"accelerometerSamples":["# + accelerometer + "]}]}"
    }
}

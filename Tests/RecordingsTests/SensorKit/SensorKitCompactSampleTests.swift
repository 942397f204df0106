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

    static func decode(_ lines: [String], in folder: TemporaryDirectory, name: String) throws -> DecodedFile {
        let text = lines.map { #"{"type":"accelerometer","deviceId":"d","sample":["# + $0 + "]}\n" }.joined()
        return try decodeAll(folder.write(name, text))
    }

    @Test("every sample: the same values, accounts and errors with and without spaces")
    func compactEqualsGeneral() throws {
        let folder = TemporaryDirectory()
        let compact = try Self.decode(Self.samples, in: folder, name: "compact.ndjson")
        let spaced = try Self.decode(
            Self.samples.map { $0.replacingOccurrences(of: ":", with: ": ").replacingOccurrences(of: ",", with: ", ") }, in: folder,
            name: "spaced.ndjson")
        #expect(differences(compact, spaced).isEmpty, "\(differences(compact, spaced))")
        #expect(compact.accounts.map(\.samplesRead) == spaced.accounts.map(\.samplesRead))
        #expect(compact.accounts.map(\.rejected) == spaced.accounts.map(\.rejected))
        // The same errors, line by line (their columns differ with the spaces).
        #expect(compact.issues.map(\.code) == spaced.issues.map(\.code))
        #expect(compact.issues.map(\.message) == spaced.issues.map(\.message))
        #expect(compact.issues.map(\.line) == spaced.issues.map(\.line))
        // Valid lines 1–6 and 13 (order and extra keys do not matter); the others are rejected.
        let valid = [0, 1, 2, 3, 4, 5, 12]
        #expect(compact.issues.compactMap(\.line).sorted() == Array(1...Self.samples.count).filter { !valid.contains($0 - 1) })
        let stream = try #require(compact.streams.first)
        #expect(stream.times.count == valid.count)
        // The values against Double(String), rounded to Float, in file order.
        let x = ["0.00540782852", "0.0", "12345678901234567890.5", "0.1", "0.1", "0.1", "0.123456789012345678901"]
        let z = ["-0.00544651177", "1.0351562", "1E2", "0.3", "0.3", "0.3", "-7"]
        #expect(stream.columns[0] == x.map { Float(Double($0)!) })
        #expect(stream.columns[2] == z.map { Float(Double($0)!) })
        #expect(stream.times[0] == Double("1716188400.020128")!)
    }
}

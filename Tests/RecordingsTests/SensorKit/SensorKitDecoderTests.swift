import Foundation
import Recordings
import Testing
import _TestSupport

@Suite("SensorKitDecoder: schema v1 NDJSON and MyDataHelps JSON")
struct SensorKitDecoderTests {
    static let files = [
        "ecg.ndjson", "accelerometer.ndjson.gz", "mydatahelps-accelerometer.json.gz",
        "rotation.ndjson", "ppg.ndjson",
    ]

    @Test("QC accounts, values, times and attributes match how the files were made", arguments: files)
    func fixture(name: String) throws {
        let all = try SensorKitFixtures.expected("sensorkit/expected.json")
        let expected = try #require(all[name] as? [String: Any])
        let decoded = try decodeAll(SensorKitFixtures.path(name))
        #expect(decoded.protocolViolations.isEmpty, "\(decoded.protocolViolations)")
        let streams = try #require(expected["streams"] as? [String: [String: Any]])
        #expect(Set(decoded.streams.map(\.info.key.description)) == Set(streams.keys))
        for (key, e) in streams {
            let s = try #require(decoded.stream(key), "missing stream \(key)")
            let qc = try #require(decoded.account(key))
            #expect(qc.isBalanced, "\(key): accounting invariant")
            #expect(qc.samplesEmitted == s.flags.count)
            func int(_ k: String) -> Int? { (e[k] as? NSNumber)?.intValue }
            let checks: [(String, Int)] = [
                ("samplesRead", qc.samplesRead), ("samplesEmitted", qc.samplesEmitted),
                ("duplicatesDropped", qc.duplicatesDropped), ("rejected", qc.rejected), ("masked", qc.masked),
                ("segments", qc.segments), ("gaps", qc.gaps), ("backwardSteps", qc.backwardSteps),
                ("deletedSpans", qc.deletedSpans),
            ]
            for (field, actual) in checks {
                if let want = int(field) { #expect(actual == want, "\(key).\(field)") }
            }
            if let seconds = (e["deletedSeconds"] as? NSNumber)?.doubleValue { #expect(qc.deletedSeconds == seconds) }
            if let first = (e["firstTime"] as? NSNumber)?.doubleValue {
                #expect(abs((s.times.first ?? .nan) - first) < 1e-6, "\(key).firstTime")
            }
            if let last = (e["lastTime"] as? NSNumber)?.doubleValue {
                #expect(abs((s.times.last ?? .nan) - last) < 1e-6, "\(key).lastTime")
            }
            if let values = e["firstValues"] as? [NSNumber] {
                #expect(Array(s.columns[0].prefix(values.count)) == values.map { Float($0.doubleValue) }, "\(key).firstValues")
            }
            let flags = s.flags.map { SampleFlags(rawValue: $0) }
            let flagChecks: [(String, SampleFlags)] = [
                ("missing", .missing), ("saturated", .saturated),
                ("unreliableNoise", .unreliableNoise),
                ("crownTouched", .crownTouched), ("signalInvalid", .signalInvalid),
            ]
            for (field, flag) in flagChecks {
                if let want = int(field) { #expect(flags.filter { $0.contains(flag) }.count == want, "\(key).\(field)") }
            }
            if let want = int("missing") {
                #expect(s.columns[0].filter(\.isNaN).count == want, "\(key): missing values are NaN")
            }
            if let want = int("nanNoiseSamples") {
                #expect(s.columns[1].filter(\.isNaN).count == want, "\(key): null noiseTerms are NaN")
            }
            if let rate = (e["nominalSampleRate"] as? NSNumber)?.doubleValue {
                #expect(s.info.nominalSampleRate == rate, "\(key).nominalSampleRate")
            }
            if let attributes = e["attributes"] as? [String: String] {
                for (k, v) in attributes { #expect(s.info.attributes[k] == v, "\(key).attributes[\(k)]") }
            }
            // Times never decrease within a segment; segments are numbered 0, 1, ….
            var badOrder = 0
            for i in 1..<max(1, s.times.count) where s.segments[i] == s.segments[i - 1] && !(s.times[i] > s.times[i - 1]) {
                badOrder += 1
            }
            #expect(badOrder == 0)
            #expect(s.segments.last.map { $0 + 1 } == qc.segments)
        }
        let decoder = try SensorKitDecoder(path: SensorKitFixtures.path(name))
        while try decoder.next() != nil {}
        if let n = (expected["unknownFields"] as? NSNumber)?.intValue { #expect(decoder.unknownFieldCount == n) }
        if let n = (expected["unknownLineTypes"] as? NSNumber)?.intValue { #expect(decoder.unknownLineTypeCount == n) }
        if let n = (expected["blankLines"] as? NSNumber)?.intValue { #expect(decoder.blankLineCount == n) }
        if let n = (expected["deletions"] as? NSNumber)?.intValue { #expect(decoded.deletions.count == n) }
        #expect(decoder.rejectedRecordCount == 0)
        #expect(
            decoded.issues.allSatisfy { [.unknownField, .unknownLineType, .duplicate].contains($0.code) },
            "\(decoded.issues)")
    }

    @Test("decode-chunked equals decode-whole for block capacities 1, 7, 1000, 65536", arguments: files)
    func chunked(name: String) throws {
        let whole = try decodeAll(SensorKitFixtures.path(name))
        for capacity in [1, 7, 1000] {
            let part = try decodeAll(SensorKitFixtures.path(name), blockCapacity: capacity)
            #expect(part.protocolViolations.isEmpty)
            #expect(differences(whole, part).isEmpty, "capacity \(capacity): \(differences(whole, part))")
            #expect(part.accounts.map(\.samplesEmitted) == whole.accounts.map(\.samplesEmitted))
            #expect(part.accounts.map(\.segments) == whole.accounts.map(\.segments))
        }
    }

    @Test("the MyDataHelps export decodes to exactly the samples of the same NDJSON results")
    func myDataHelpsMatchesNDJSON() throws {
        let ndjson = try decodeAll(SensorKitFixtures.path("accelerometer.ndjson.gz"))
        let mdh = try decodeAll(SensorKitFixtures.path("mydatahelps-accelerometer.json.gz"))
        #expect(differences(ndjson, mdh, compareKeys: false).isEmpty)
        #expect(mdh.devices.first?.systemVersion == "17.5")
        #expect(try SensorKitDecoder(path: SensorKitFixtures.path("mydatahelps-accelerometer.json.gz")).format == .myDataHelpsJSON)
    }

    @Test("the ECG deletion record is delivered as an event with raw and Unix times")
    func deletionEvent() throws {
        let d = try decodeAll(SensorKitFixtures.path("ecg.ndjson"))
        let r = try #require(d.deletions.first)
        #expect(r.sensor == .electrocardiogram && r.deviceID == "watch-1" && r.reason == .ageLimit)
        #expect(r.durationSeconds == 3600 && r.startRaw != nil)
        #expect(d.devices.first?.productType == "Watch6,1")
    }

    @Test("a file without a device line announces a bare device before its stream")
    func bareDevice() throws {
        let d = try decodeAll(SensorKitFixtures.path("rotation.ndjson"))
        #expect(d.devices.map(\.id) == ["iphone-1"])
        #expect(d.protocolViolations.isEmpty)
    }

    @Test("a small duplicate window forgets old keys: the late twin becomes a backward step")
    func boundedDuplicateWindow() throws {
        // accelerometer.ndjson.gz repeats result 7 after result 8: 100–200 samples back.
        let small = try decodeAll(SensorKitFixtures.path("accelerometer.ndjson.gz"), duplicateWindow: 50)
        let qc = try #require(small.accounts.first)
        #expect(qc.duplicatesDropped == 0 && qc.backwardSteps == 1 && qc.isBalanced)
        let big = try decodeAll(SensorKitFixtures.path("accelerometer.ndjson.gz"), duplicateWindow: 1000)
        #expect(big.accounts.first?.duplicatesDropped == 100)
    }

    @Test("fields may come in any order; escaped keys and unknown nested values are handled")
    func keyOrderAndEscapes() throws {
        let dir = TemporaryDirectory()
        let text = """
            {"version":1,"schema":"sensorkit-ndjson","type":"header","generator":{"name":"x"}}
            {"sample":[{"acceleration":{"z":0.3,"y":0.2,"x":0.1},"identifier":1,"startDate":1716307300.5,"extra":{"a":[1,{"b":null}],"c":"\\u00e9\\ud83d\\ude00"}}],"deviceId":"d\\u0031","type":"accelerometer"}
            {"type":"accelerometer","deviceId":"d1","sample":[{"st\\u0061rtDate":1716307300.52,"identifier":2,"acceleration":{"x":1e-1,"y":2E-1,"z":-0.0}}]}
            """
        let path = dir.write("order.ndjson", text)
        let d = try decodeAll(path)
        let s = try #require(d.stream("d1/accelerometer/acceleration"))
        #expect(s.columns[0] == [0.1, 0.1] && s.columns[1] == [0.2, 0.2])
        #expect(s.columns[2][1].sign == .minus)
        #expect(s.times == [1716307300.5, 1716307300.52])
        #expect(d.issues.map(\.code) == [.unknownField, .unknownField])
        #expect(
            d.issues.first?.description.hasSuffix("unknown field 'header.generator' skipped (further occurrences are only counted)") == true
        )
    }

    @Test("MyDataHelps: single-object samples, sensor recognised from fields, device after samples")
    func myDataHelpsVariants() throws {
        let dir = TemporaryDirectory()
        let batch = { (date: Double) in
            "{\"date\":\(date),\"frequency\":512.0,\"lead\":2,\"session\":{\"identifier\":\"S9\",\"state\":\"active\"},"
                + "\"data\":[{\"value\":1.5,\"flags\":0},{\"value\":-2.25,\"flags\":1}]}"
        }
        let text =
            "{\n \"samples\": [\n  {\"timestamp\": \"2024-05-21T16:02:03Z\", \"sample\": \(batch(1716307310.0))},\n"
            + "  {\"timestamp\": 1.0, \"sample\": \(batch(1716307310.0 + 2 / 512.0))}\n ],\n"
            + " \"device\": {\"name\": \"Apple Watch\", \"model\": \"Watch\"},\n \"exportVersion\": 3\n}\n"
        let path = dir.write("mdh-ecg.json", text)
        let d = try decodeAll(path)
        let s = try #require(d.streams.first)
        #expect(s.info.key.session == "S9" && s.info.attributes["lead"] == "leftArmMinusRightArm")
        #expect(s.columns[0] == [1.5, -2.25, 1.5, -2.25])
        #expect(s.flags == [0, 1, 0, 1])
        #expect(d.accounts.first?.segments == 1 && d.accounts.first?.masked == 2)
        #expect(d.issues.map(\.code) == [.unknownField])
        #expect(d.devices.last?.name == "Apple Watch")
        #expect(d.protocolViolations.isEmpty)
    }
}

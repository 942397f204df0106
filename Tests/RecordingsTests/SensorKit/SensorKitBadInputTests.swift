import Foundation
import Recordings
import Testing
import _TestSupport

@Suite("SensorKitDecoder: malformed inputs give the expected errors")
struct SensorKitBadInputTests {
    static var names: [String] {
        let dir = Fixtures.url("RecordingsTests", "bad/sensorkit").path
        return ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? [])
            .filter { $0 != "expected.json" }.sorted()
    }

    @Test("every file of the bad-input corpus has an expectation") func corpusComplete() throws {
        let expected = try SensorKitFixtures.expected("bad/sensorkit/expected.json")
        #expect(Set(expected.keys) == Set(Self.names))
        #expect(Self.names.count >= 15)
    }

    @Test("error descriptions, issues and QC counts", arguments: names)
    func badInput(name: String) throws {
        let all = try SensorKitFixtures.expected("bad/sensorkit/expected.json")
        let e = try #require(all[name] as? [String: Any])
        let path = SensorKitFixtures.badPath(name)
        let directory = path.dropLast(name.count)
        func local(_ error: RecordingError) -> String {
            error.description.replacingOccurrences(of: String(directory), with: "")
        }
        if let fatal = e["fatal"] as? String {
            do {
                let d = try decodeAll(path)
                Issue.record("expected a fatal error, got \(d.streams.count) streams, issues \(d.issues)")
            } catch let error as RecordingError {
                #expect(local(error) == fatal)
            }
            return
        }
        let decoded = try decodeAll(path)
        let issues = decoded.issues.map(local)
        #expect(issues == (e["issues"] as? [String] ?? []))
        let key = try #require(e["stream"] as? String)
        let qc = try #require(decoded.account(key), "stream \(key)")
        #expect(qc.samplesEmitted == (e["samplesEmitted"] as? NSNumber)?.intValue)
        #expect(qc.rejected == (e["rejected"] as? NSNumber)?.intValue)
        #expect(decoded.accounts.allSatisfy { $0.isBalanced })
        if let masked = (e["masked"] as? NSNumber)?.intValue { #expect(qc.masked == masked) }
        let decoder = try SensorKitDecoder(path: path)
        while try decoder.next() != nil {}
        #expect(decoder.rejectedRecordCount == (e["rejectedRecords"] as? NSNumber)?.intValue)
        // Every sample is accounted for: in a stream, or rejected without one.
        #expect(decoder.rejectedSamplesWithoutStream == ((e["rejectedWithoutStream"] as? NSNumber)?.intValue ?? 0))
    }
}

/// Found by libFuzzer (FuzzMyDataHelps, `crash-5e542f2e…`: the two bytes EF 0A): the byte order
/// mark was skipped as three bytes without looking at them, so a file ending inside it moved the
/// reader past its data (a negative-size move under AddressSanitizer). Each byte is now checked.
@Suite("MyDataHelps: a byte order mark is read byte by byte")
struct MyDataHelpsByteOrderMarkTests {
    static let cases: [(bytes: [UInt8], expected: String?)] = [
        ([0xEF, 0x0A], "bom.json:1:2: syntax: a byte order mark must be EF BB BF"),
        ([0xEF, 0xBB], "bom.json:1:3: truncated: the file ends inside its byte order mark"),
        ([0xEF], "bom.json:1:2: truncated: the file ends inside its byte order mark"),
        ([0xEF, 0xBB, 0xBF] + Array("{\"samples\":[]}".utf8), nil),
    ]

    @Test("EF 0A, EF BB, EF: located errors; a whole mark: read", arguments: 0..<4)
    func byteOrderMark(index: Int) throws {
        let (bytes, expected) = Self.cases[index]
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sensorpipe-bom-\(getpid())-\(index)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("bom.json").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        do throws(RecordingError) {
            let decoder = try SensorKitDecoder(path: path, format: .myDataHelpsJSON)
            while try decoder.next() != nil {}
            #expect(expected == nil, "expected an error")
        } catch {
            #expect(error.description.replacingOccurrences(of: folder.path + "/", with: "") == expected)
        }
    }
}

import Foundation
import Recordings
import Testing
import _TestSupport

@Suite("WFDB bad-input corpus (Fixtures/bad/wfdb)")
struct WFDBBadInputTests {
    static let folder = Fixtures.url("RecordingsTests", "bad/wfdb")

    static var cases: [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix(".hea") }.sorted()
    }

    @Test("every malformed record fails or reports exactly as expected.json says", arguments: cases)
    func corpus(name: String) throws {
        let all = try Fixtures.json("RecordingsTests", "bad/wfdb/expected.json")
        let expected = try #require(all[name] as? [String: Any], "\(name) has no entry in expected.json")
        let dir = Self.folder.path
        func fill(_ s: String) -> String { s.replacingOccurrences(of: "{dir}", with: dir) }
        let path = dir + "/" + name
        var result: DecodedRecord?
        var openError: RecordingError?
        do {
            result = try WFDBTest.decode(path, sensor: WFDBDecoder.defaultSensor)
        } catch let e as RecordingError {
            openError = e
        }
        let error = openError ?? result?.error
        #expect(error?.description == (expected["error"] as? String).map(fill))
        if let issues = expected["issues"] as? [String] {
            let r = try #require(result)
            #expect(r.issues.map(\.description) == issues.map(fill))
        }
        if let qc = expected["qc"] as? [[String: Int]] {
            let r = try #require(result)
            #expect(r.accounts.count == qc.count)
            for (a, e) in zip(r.accounts, qc) {
                #expect(a.samplesRead == e["samplesRead"] && a.samplesEmitted == e["samplesEmitted"])
                #expect(a.masked == e["masked"] && a.rejected == e["rejected"])
                #expect(a.samplesRead == a.samplesEmitted + a.duplicatesDropped + a.rejected)
            }
        }
    }

    @Test("the corpus has at least six cases and expected.json covers exactly them")
    func coverage() throws {
        let all = try Fixtures.json("RecordingsTests", "bad/wfdb/expected.json")
        #expect(Self.cases.count >= 6)
        #expect(Set(all.keys) == Set(Self.cases))
    }
}

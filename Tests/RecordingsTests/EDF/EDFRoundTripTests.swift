import Foundation
import Recordings
import Testing
import _TestSupport

/// `convert --to edf|bdf` (``EDFWriter``) read back: digital values bit-identical to the input's
/// integers (WFDB adu from wfdb-python's reference, EDF/BDF digital values from pyedflib's), and
/// annotations kept.
@Suite("EDF/BDF writer round trip")
struct EDFRoundTripTests {
    /// Writes every event of `decoder` (and its EDF annotations) to `path`.
    static func write(_ decoder: any RecordingDecoder, to path: String, bdf: Bool) throws -> EDFWriter {
        let w = EDFWriter(path: path, bdf: bdf)
        while let e = try decoder.next() { try w.write(e) }
        var annotations: [(time: Double, duration: Double?, text: String)] = []
        if let edf = decoder as? EDFDecoder {
            annotations = edf.annotations.map { (edf.header.startSeconds + $0.onsetSeconds, $0.durationSeconds, $0.text) }
        }
        try w.finish(annotations: annotations)
        return w
    }

    @Test("WFDB formats 16 (EDF) and 24 (BDF) → read back: digital values = wfdb-python's adu", arguments: [("fmt16", false), ("fmt24", true)])
    func wfdb(_ record: String, _ bdf: Bool) throws {
        let tmp = TemporaryDirectory()
        let hea = Fixtures.url("RecordingsTests", "wfdb/records/\(record).hea").path
        let out = tmp.url.appendingPathComponent("\(record).\(bdf ? "bdf" : "edf")").path
        _ = try Self.write(try WFDBDecoder(path: hea, sensor: { _ in .electrocardiogram }), to: out, bdf: bdf)
        let back = try EDFTest.decodeAll(out, digital: true).0
        let facts = try #require(Fixtures.json("RecordingsTests", "wfdb/expected/records.json")[record] as? [String: Any])
        let gains = try #require(facts["adc_gain"] as? [Any]).map { ($0 as? Double) ?? Double($0 as? Int ?? 0) }
        let baselines = try #require(facts["baseline"] as? [Int])
        #expect(back.streams.count == gains.count)
        for k in gains.indices {
            let physical = try Fixtures.doubles("RecordingsTests", "wfdb/expected/\(record)_s\(k).npy")
            let invalid = Float(bdf ? -8_388_608 : -32768)
            let expected = physical.map { $0.isNaN ? invalid : Float(($0 * gains[k]).rounded() + Double(baselines[k])) }
            #expect(back.streams[k].columns[0] == expected, "\(record) signal \(k)")
        }
    }

    @Test("EDF+ and BDF+ excerpts → read back: digital values and annotations equal to pyedflib's")
    func edf() throws {
        let tmp = TemporaryDirectory()
        let root = Fixtures.repositoryRoot.appendingPathComponent("Datasets/edf")
        for ref in try EDFTest.references("pyedflib-excerpt.json") {
            let name = try #require(ref["file"] as? String)
            var input = root.appendingPathComponent(name).path
            if !FileManager.default.fileExists(atPath: input) { input = input + ".xz" }
            let bdf = name.hasSuffix(".bdf")
            let out = tmp.url.appendingPathComponent("rt-" + name).path
            let original = try EDFDecoder(path: input, sensor: { _ in .photoplethysmogram })
            _ = try Self.write(original, to: out, bdf: bdf)
            let p = try EDFTest.compare(path: out, reference: ref)
            // Physical values are rewritten from the kept header limits, so they are equal too.
            #expect(p.problems.isEmpty, "\(name) read back: \(p.problems)")
        }
    }
}

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
        var subsecond: Double?
        if let edf = decoder as? EDFDecoder {
            annotations = edf.annotations.map { (edf.header.startSeconds + $0.onsetSeconds, $0.durationSeconds, $0.text) }
            subsecond = edf.firstRecordOnsetSeconds.map { $0 - $0.rounded(.down) }
        }
        try w.finish(annotations: annotations, subsecondStart: subsecond)
        return w
    }

    @Test(
        "WFDB formats 16 (EDF) and 24 (BDF) → read back: digital values = wfdb-python's adu",
        arguments: [("fmt16", false), ("fmt24", true)])
    func wfdb(_ record: String, _ bdf: Bool) throws {
        let tmp = TemporaryDirectory()
        let hea = Fixtures.url("RecordingsTests", "wfdb/records/\(record).hea").path
        let out = tmp.url.appendingPathComponent("\(record).\(bdf ? "bdf" : "edf")").path
        _ = try Self.write(try WFDBDecoder(path: hea, sensor: { _ in .electrocardiogram }), to: out, bdf: bdf)
        let (back, decoder) = try EDFTest.decodeAll(out, digital: true)
        let facts = try #require(Fixtures.json("RecordingsTests", "wfdb/expected/records.json")[record] as? [String: Any])
        let gains = try #require(facts["adc_gain"] as? [Any]).map { ($0 as? Double) ?? Double($0 as? Int ?? 0) }
        let baselines = try #require(facts["baseline"] as? [Int])
        #expect(back.streams.count == gains.count)
        for k in gains.indices {
            let physical = try Fixtures.doubles("RecordingsTests", "wfdb/expected/\(record)_s\(k).npy")
            let invalid = Float(bdf ? -8_388_608 : -32768)
            let expected = physical.map { $0.isNaN ? invalid : Float(($0 * gains[k]).rounded() + Double(baselines[k])) }
            let values = back.streams[k].columns[0]
            // The last record is filled up with the digital minimum, and annotated so.
            #expect(Array(values.prefix(expected.count)) == expected, "\(record) signal \(k)")
            #expect(values.count == 1080 && values.dropFirst(expected.count).allSatisfy { $0 == invalid })
        }
        #expect(decoder.annotations.filter { $0.text.hasPrefix("SensorPipe: no data in") }.count == gains.count)
        #expect(decoder.annotations.allSatisfy { $0.onsetSeconds == 2 && $0.durationSeconds == 1 })
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

import Foundation
import Recordings
import Testing
import _TestSupport

/// The EDF reader on fixtures whose expected values are stated from their bytes
/// (`scripts/edf/make-edf-fixtures.py`), and the malformed corpus (`Fixtures/bad/edf`).
@Suite("EDF/BDF decoder")
struct EDFDecoderTests {
    static func fixture(_ name: String) -> String { Fixtures.url("RecordingsTests", "edf/\(name)").path }
    static func bad(_ name: String) -> String { Fixtures.url("RecordingsTests", "bad/edf/\(name)").path }

    @Test("EDF+D: sub-second start, a gap as a segment boundary, annotations with durations and UTF-8")
    func discontinuous() throws {
        let path = Self.fixture("discontinuous.edf")
        #expect(try RecordingFormat.sniff(path: path) == .edf)
        let d = try EDFDecoder(path: path, digital: true)
        let c = try CollectedDecode.decode(d)
        #expect(c.problems.isEmpty, "\(c.problems)")
        #expect(d.header.variant == .edfPlusD)
        let s = try #require(c.streams.first)
        #expect(c.streams.count == 1 && s.info.key.sensor == .electrocardiogram && s.info.timeOrigin == .deviceLocal)
        let expected: [Float] = (0..<10).map { Float($0) } + (100..<110).map { Float($0) } + (200..<210).map { Float($0) }
        #expect(s.columns[0] == expected)
        // 2024-03-02 10:20:30 = 1709374830 s; records at +0.25, +1.25, +5.25 s.
        #expect(s.times.first == 1_709_374_830.25)
        #expect(s.times[20] == 1_709_374_835.25)
        #expect(s.segments == Array(repeating: 0, count: 20) + Array(repeating: 1, count: 10))
        #expect(d.accounts[0].gaps == 1 && d.discontinuities == 1 && d.firstRecordOnsetSeconds == 0.25)
        #expect(
            d.annotations == [
                EDFAnnotation(onsetSeconds: 0.75, durationSeconds: nil, text: "beat N", record: 0),
                EDFAnnotation(onsetSeconds: 1.75, durationSeconds: 2, text: "Ünïcødé episode", record: 1),
                EDFAnnotation(onsetSeconds: 5.75, durationSeconds: nil, text: "beat N", record: 2),
            ])
        // The same annotations as events, on the streams' clock (header start + TAL onset).
        #expect(
            c.annotations == [
                RecordingAnnotation(
                    deviceID: "discontinuous", onsetSeconds: 1_709_374_830.75, durationSeconds: nil, text: "beat N", source: "edf",
                    timeOrigin: .deviceLocal),
                RecordingAnnotation(
                    deviceID: "discontinuous", onsetSeconds: 1_709_374_831.75, durationSeconds: 2, text: "Ünïcødé episode",
                    source: "edf", timeOrigin: .deviceLocal),
                RecordingAnnotation(
                    deviceID: "discontinuous", onsetSeconds: 1_709_374_835.75, durationSeconds: nil, text: "beat N", source: "edf",
                    timeOrigin: .deviceLocal),
            ])
        // Opened for the pipeline: delivered as events, not held.
        let streamed = try RecordingOpener.open(path: path, options: DecodeOptions()).decoder
        #expect(try CollectedDecode.decode(streamed).annotations.count == 3)
        #expect((streamed as? EDFDecoder)?.annotations.isEmpty == true && (streamed as? EDFDecoder)?.annotationsDelivered == 3)
        // Physical: 0.0001 mV per step = 0.1 µV.
        let physical = try CollectedDecode.decode(try EDFDecoder(path: path))
        #expect(abs(physical.streams[0].columns[0][5] - 0.5) < 1e-5)
        #expect(physical.streams[0].info.columns[0].unit == .microvolts)
    }

    @Test("annotations are bounded: 2^20 delivered as events, the rest counted and named in an issue")
    func annotationBound() throws {
        // One EDF+C record whose annotation signal holds the time-keeping TAL and one TAL with
        // 2^20 + 5 one-letter annotations (2 bytes each).
        let extra = 5, n = EDFDecoder.maximumAnnotations + extra
        var tal = Array("+0\u{14}\u{14}\u{0}+0.5\u{14}".utf8)
        for _ in 0..<n { tal += [0x61, 0x14] }
        tal += [0, 0]
        if tal.count % 2 == 1 { tal.append(0) }
        func field(_ s: String, _ w: Int) -> String { s.padding(toLength: w, withPad: " ", startingAt: 0) }
        var header = field("0", 8) + field("X X X X", 80) + field("Startdate 02-MAR-2024 X X X", 80) + "02.03.2410.20.30"
        header += field("512", 8) + field("EDF+C", 44) + field("1", 8) + field("1", 8) + field("1", 4)
        header += field("EDF Annotations", 16) + field("", 80) + field("", 8) + field("-1", 8) + field("1", 8)
        header += field("-32768", 8) + field("32767", 8) + field("", 80) + field(String(tal.count / 2), 8) + field("", 32)
        let tmp = TemporaryDirectory()
        let path = tmp.write("many.edf", Array(header.utf8) + tal)
        let d = try EDFDecoder(path: path, keepsAnnotations: false)
        var delivered = 0, last: RecordingAnnotation?
        var issues: [RecordingError] = []
        while let e = try d.next() {
            switch e {
            case .annotation(let a):
                delivered += 1
                last = a
            case .issue(let i): issues.append(i)
            default: break
            }
        }
        #expect(delivered == EDFDecoder.maximumAnnotations && d.annotationsDelivered == delivered)
        #expect(d.annotationsNotKept == extra && d.annotations.isEmpty)
        #expect(last?.text == "a" && last?.onsetSeconds == 1_709_374_830.5)
        #expect(issues.contains { $0.message.contains("\(n) EDF+ annotations") && $0.message.contains("\(extra) are counted only") })
    }

    @Test("label rules: ECG in µV, Pleth as PPG, Acc X/Y/Z as one stream in g; the rest named in issues, not dropped silently")
    func sensorRules() throws {
        let path = Self.fixture("mixed-sensors.edf")
        let c = try CollectedDecode.decode(try EDFDecoder(path: path))
        #expect(c.problems.isEmpty)
        let kinds = c.streams.map { "\($0.info.key.sensor)/\($0.info.key.channel)" }
        #expect(kinds == ["electrocardiogram/ECG II", "photoplethysmogram/Pleth", "accelerometer/Acc"])
        #expect(c.streams[2].info.columns.map(\.name) == ["x", "y", "z"] && c.streams[2].columns[0].count == 64)
        #expect(c.streams[0].info.nominalSampleRate == 256 && c.streams[0].columns[0].count == 512)
        let skipped = c.issues.filter { $0.message.contains("not delivered (not analysed)") }
        #expect(skipped.count == 4, "\(c.issues.map(\.message))")
        #expect(skipped.contains { $0.message.contains("Resp chest") && $0.message.contains("respiration") })
        #expect(skipped.contains { $0.message.contains("Temp") && $0.message.contains("temperature") })
        #expect(c.annotations.map(\.text) == ["Recording starts"])
        // Override: every signal delivered; duplicate labels get their index.
        var options = DecodeOptions()
        let notDelivered: SensorKind? = nil
        options.edfSignalSensors = ["Resp chest": .photoplethysmogram, "ECG II": notDelivered]
        let o = try CollectedDecode.decode(try RecordingOpener.open(path: path, options: options).decoder)
        #expect(o.streams.map(\.info.key.channel) == ["Pleth", "Resp chest", "Acc"])
        let all = try EDFTest.decodeAll(path).0
        #expect(all.streams.map(\.info.key.channel).suffix(2) == ["EEG #7", "EEG #8"])
    }

    @Test("chunked = whole: block capacity 1 … 4096 gives the same samples and times")
    func chunking() throws {
        let path = Self.fixture("mixed-sensors.edf")
        let whole = try EDFTest.decodeAll(path).0
        for capacity in [1, 7, 64, 4096] {
            let part = try EDFTest.decodeAll(path, blockCapacity: capacity).0
            #expect(part.problems.isEmpty)
            #expect(zip(whole.streams, part.streams).allSatisfy { $0.columns == $1.columns && $0.times == $1.times })
        }
    }

    /// Decodes `path` completely; returns the error thrown, samples delivered and issues.
    static func failure(_ path: String) -> (error: RecordingError?, samples: Int, issues: [RecordingError], rssGrowthMB: Int) {
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        let before = usage.ru_maxrss
        var samples = 0
        var issues: [RecordingError] = []
        do {
            let d = try EDFDecoder(path: path, sensor: { _ in .photoplethysmogram })
            while let e = try d.next() {
                if case .block(let b) = e { samples += b.count }
                if case .issue(let i) = e { issues.append(i) }
            }
        } catch {
            getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
            return (error, samples, issues, (usage.ru_maxrss - before) / 1024)
        }
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        return (nil, samples, issues, (usage.ru_maxrss - before) / 1024)
    }

    @Test(
        "malformed corpus: a clear error naming the file and byte offset, in bounded memory",
        arguments: [
            ("truncated-header.edf", RecordingError.Code.truncated, 200, 0),
            ("claims-1e8-records.edf", .truncated, 928, 20),
            ("negative-samples.edf", .outOfRange, 688, 0),
            ("bad-number.edf", .wrongType, 464, 0),
            ("bad-tal.edf", .missingField, 848, 20),
            ("header-size.edf", .inconsistent, 184, 0),
            ("digital-range.edf", .outOfRange, 496, 0),
            ("huge-record.edf", .truncated, 768, 0),
            ("truncated-record.edf", .truncated, 921, 10),
            ("bad-date.edf", .outOfRange, 168, 0),
        ])
    func malformed(_ name: String, _ code: RecordingError.Code, _ offset: Int, _ delivered: Int) throws {
        let path = Self.bad(name)
        let r = Self.failure(path)
        let e = try #require(r.error, "\(name) decoded without an error")
        #expect(e.code == code && e.byteOffset == offset && e.file == path, "\(name): \(e)")
        #expect(r.samples == delivered, "\(name)")
        #expect(r.rssGrowthMB < 64, "\(name): peak RSS grew \(r.rssGrowthMB) MB")
        if name == "bad-tal.edf" {
            #expect(r.issues.contains { $0.code == .syntax && $0.byteOffset == 868 }, "\(r.issues)")
        }
    }
}

import Foundation
import Testing
import _TestSupport

@testable import Recordings

/// `export.xml` decoding: record counts against `xml.etree.iterparse` (committed script
/// `scripts/health/count_records.py`), streams per type and source, units, beat lists, and the
/// malformed-file corpus (each a located error in bounded memory).
@Suite struct AppleHealthExportTests {
    static let excerpt = Fixtures.repositoryRoot.appendingPathComponent("Datasets/apple-health/export-excerpt.xml").path
    static let excerptZip = Fixtures.repositoryRoot.appendingPathComponent("Datasets/apple-health/export.zip").path

    /// `type<TAB>count` lines of a counts file (comments skipped).
    static func referenceCounts(_ path: String) throws -> [String: Int] {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        var out: [String: Int] = [:]
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            let f = line.split(separator: "\t")
            if f.count == 2, let n = Int(f[1]) { out[String(f[0])] = n }
        }
        return out
    }

    /// SensorPipe's counts in the script's keys: record types, `Workout`, `InstantaneousBeatsPerMinute`.
    static func counts(_ d: AppleHealthExportDecoder) -> [String: Int] {
        var c = d.recordCounts
        if d.beatCount > 0 { c["InstantaneousBeatsPerMinute"] = d.beatCount }
        return c
    }

    @Test func excerptCountsEqualIterparse() throws {
        let reference = try Self.referenceCounts(
            Fixtures.repositoryRoot.appendingPathComponent("Datasets/apple-health/counts.tsv").path)
        #expect(reference["HKQuantityTypeIdentifierHeartRate"] == 20) // the file is what it says
        for path in [Self.excerpt, Self.excerptZip] {
            let d = try AppleHealthExportDecoder(path: path)
            let c = try CollectedDecode.decode(d)
            #expect(c.problems.isEmpty, "\(c.problems)")
            #expect(Self.counts(d) == reference, "\(path)")
        }
    }

    @Test func excerptStreams() throws {
        let opened = try RecordingOpener.open(path: Self.excerpt)
        #expect(opened.format == .appleHealthExport)
        let c = try CollectedDecode.decode(opened.decoder)
        let source = "User\u{2019}s Apple\u{A0}Watch" // &#8217; and &#160; decoded
        let hr = try #require(c.streams.first { $0.info.key == StreamKey(deviceID: source, sensor: .healthRecord, channel: "HeartRate") })
        #expect(hr.columns[0].count == 20)
        #expect(hr.info.columns.map(\.unit) == [.perMinute, .seconds])
        #expect(hr.info.attributes[StreamAttribute.deviceModel] == "Watch5,3")
        // First record: value 60 at 2020-04-10 03:33:34 +0200 = 2020-04-10 01:33:34 UTC.
        #expect(hr.columns[0][0] == 60)
        #expect(hr.times[0] == 1_586_482_414)
        let beats = try #require(c.streams.first { $0.info.key.sensor == .heartbeat })
        #expect(beats.info.key.deviceID == source)
        #expect(beats.columns[0].count == 46)
        #expect(beats.columns[0].prefix(3) == [65, 63, 69])
        // 23:47:49,20 local (+0200) on 2020-04-11 = 21:47:49.20 UTC.
        #expect(abs(beats.times[0] - 1_586_641_669.20) < 1e-6)
        #expect(abs(beats.times[45] - (1_586_641_669.20 + (48 * 60 + 45.66 - (47 * 60 + 49.20)))) < 1e-6)
        // The device's list has gaps (4.7 s after the 4th beat): new segments there.
        #expect(Set(beats.segments).count > 1)
        let workouts = try #require(c.streams.first { $0.info.key.channel == "Workout" })
        #expect(workouts.columns[0].count == 2)
        #expect(abs(Double(workouts.columns[0][0]) - 55.46542123357455 * 60) < 1e-3) // min → s
        // Types SensorPipe does not stream are counted and said to be not analysed.
        #expect(
            c.issues.contains {
                $0.code == .notAnalysed && $0.message.contains("not analysed") && $0.message.contains("ActiveEnergyBurned 3")
            })
        // Only that issue says so, and no issue of the excerpt claims an unsupported version.
        #expect(c.issues.filter { $0.code == .notAnalysed }.count == 1)
        #expect(!c.issues.contains { $0.code == .unsupportedVersion })
        for qc in c.accounts { #expect(qc.isBalanced) }
    }

    /// A synthetic export covering every streamed type, a DTD internal subset, entities, free
    /// attribute order, two sources of one type, and rejected records.
    static let synthetic = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE HealthData [
        <!-- HealthKit Export Version: 11 -->
        <!ELEMENT HealthData (ExportDate,Me,(Record|Workout)*)>
        <!ATTLIST Record type CDATA #REQUIRED note CDATA "a > in a literal ]">
        <!ENTITY lol "lol">
        ]>
        <HealthData locale="en_US">
         <ExportDate value="2024-05-21 09:00:00 +0000"/>
         <Record value="0.97" unit="%" type="HKQuantityTypeIdentifierOxygenSaturation" sourceName="Watch &amp; Co" startDate="2024-05-21 09:00:00 +0000" endDate="2024-05-21 09:00:00 +0000"/>
         <Record type="HKQuantityTypeIdentifierOxygenSaturation" sourceName="Phone" unit="%" value="0.95" startDate="2024-05-21 09:00:00 +0000" endDate="2024-05-21 09:00:00 +0000"/>
         <Record type='HKQuantityTypeIdentifierAppleSleepingWristTemperature' sourceName="Watch &amp; Co" unit="degF" value="98.6" startDate="2024-05-21 02:00:00 +0000" endDate="2024-05-21 06:00:00 +0000"/>
         <Record type="HKQuantityTypeIdentifierRespiratoryRate" sourceName="Watch &amp; Co" unit="count/min" value="14.5" startDate="2024-05-21 03:00:00 +0000" endDate="2024-05-21 03:00:00 +0000"/>
         <Record type="HKCategoryTypeIdentifierSleepAnalysis" sourceName="Watch &amp; Co" value="HKCategoryValueSleepAnalysisAsleepDeep" startDate="2024-05-21 03:00:00 +0000" endDate="2024-05-21 03:30:00 +0000"/>
         <Record type="HKQuantityTypeIdentifierRestingHeartRate" sourceName="Watch &amp; Co" unit="count/min" value="55" startDate="2024-05-21 00:00:00 +0000" endDate="2024-05-21 23:59:59 +0000"/>
         <Record type="HKQuantityTypeIdentifierWalkingHeartRateAverage" sourceName="Watch &amp; Co" unit="count/min" value="98" startDate="2024-05-21 00:00:00 +0000" endDate="2024-05-21 23:59:59 +0000"/>
         <Record type="HKQuantityTypeIdentifierStepCount" sourceName="Phone" unit="count" value="120" startDate="2024-05-21 10:00:00 +0000" endDate="2024-05-21 10:05:00 +0000"/>
         <Record type="HKQuantityTypeIdentifierHeartRate" sourceName="Watch &amp; Co" unit="count/min" value="70" startDate="21/05/2024 10:00" endDate="2024-05-21 10:00:00 +0000"/>
         <Record type="HKQuantityTypeIdentifierHeartRate" sourceName="Watch &amp; Co" unit="count/s" value="1.2" startDate="2024-05-21 10:00:00 +0000" endDate="2024-05-21 10:00:00 +0000"/>
         <Record type="HKQuantityTypeIdentifierHeartRateVariabilitySDNN" sourceName="Watch &amp; Co" unit="ms" value="40" startDate="2024-05-21 23:59:58 +0200" endDate="2024-05-22 00:00:58 +0200">
          <HeartRateVariabilityMetadataList>
           <InstantaneousBeatsPerMinute bpm="60" time="11:59:59.00 PM"/>
           <InstantaneousBeatsPerMinute bpm="60" time="12:00:00.00 AM"/>
           <InstantaneousBeatsPerMinute bpm="x" time="12:00:01.00 AM"/>
          </HeartRateVariabilityMetadataList>
         </Record>
         <Workout workoutActivityType="HKWorkoutActivityTypeRunning" duration="1.5" durationUnit="hr" sourceName="Watch &amp; Co" startDate="2024-05-21 18:00:00 +0000" endDate="2024-05-21 19:30:00 +0000"><WorkoutEvent type="x"/></Workout>
        </HealthData>
        """

    @Test(arguments: [1, 7, 64, 1 << 16])
    func syntheticExportAtEveryChunkSize(chunk: Int) throws {
        let d = AppleHealthExportDecoder(bytes: Array(Self.synthetic.utf8), chunkSize: chunk)
        let c = try CollectedDecode.decode(d)
        #expect(c.problems.isEmpty, "\(c.problems)")
        func stream(_ source: String, _ channel: String, _ sensor: SensorKind = .healthRecord) -> CollectedDecode.Stream? {
            c.streams.first { $0.info.key == StreamKey(deviceID: source, sensor: sensor, channel: channel) }
        }
        let w = "Watch & Co"
        #expect(stream(w, "OxygenSaturation")?.columns[0] == [97]) // fraction → %
        #expect(stream("Phone", "OxygenSaturation")?.columns[0] == [95]) // sources kept apart
        #expect(stream(w, "OxygenSaturation")?.info.columns[0].unit == .percent)
        #expect(abs(Double(stream(w, "AppleSleepingWristTemperature")?.columns[0].first ?? 0) - 37) < 1e-5) // °F → °C
        #expect(stream(w, "AppleSleepingWristTemperature")?.columns[1] == [4 * 3600])
        #expect(stream(w, "RespiratoryRate")?.columns[0] == [14.5])
        #expect(stream(w, "SleepAnalysis")?.columns[0] == [4]) // asleepDeep
        #expect(stream(w, "RestingHeartRate")?.columns[0] == [55])
        #expect(stream(w, "WalkingHeartRateAverage")?.columns[0] == [98])
        #expect(stream("Phone", "StepCount")?.columns == [[120], [300]])
        #expect(stream(w, "Workout")?.columns[0] == [5400]) // 1.5 hr → s
        // Two heart-rate records rejected (a bad date, a unit that is not count/min), one beat.
        let hr = try #require(c.streams.firstIndex { $0.info.key.channel == "HeartRate" })
        #expect(c.accounts[hr].samplesRead == 2 && c.accounts[hr].rejected == 2 && c.accounts[hr].samplesEmitted == 0)
        #expect(c.issues.contains { $0.message.contains("startDate") && $0.byteOffset != nil })
        #expect(c.issues.contains { $0.message.contains("count/s") })
        // Beats across midnight: 23:59:59 on the record's day, 00:00:00 on the next (+0200).
        let beats = try #require(stream(w, "beats", .heartbeat))
        let midnight = 1_716_328_800.0 // 2024-05-22 00:00:00 +0200
        #expect(beats.times == [midnight - 1, midnight])
        let b = try #require(c.streams.firstIndex { $0.info.key.sensor == .heartbeat })
        #expect(c.accounts[b].samplesRead == 3 && c.accounts[b].rejected == 1)
        for qc in c.accounts { #expect(qc.isBalanced) }
    }

    /// The malformed corpus (`Fixtures/bad/health-export`, written by
    /// `scripts/health/make-bad-corpus.py` with the byte offsets it expects): unterminated tag,
    /// element, comment and DTD, a billion-laughs DTD, nesting 100 deep, a wrong end tag, bad
    /// UTF-8, an unquoted attribute, an empty file, a root that is not `HealthData`, and bad dates
    /// and values (rejected records, not fatal).
    @Test func malformedCorpus() throws {
        try BadInputCorpus.check(folder: "health-export") { try AppleHealthExportDecoder(path: $0) }
    }

    /// A tag over 1 MiB (a huge attribute) is refused: the tokenizer's buffer grows for a long
    /// tag up to 1 MiB + one read, never beyond.
    @Test func hugeAttributeIsRefused() throws {
        let bytes =
            Array("<HealthData><Record type=\"".utf8) + Array(repeating: 0x41, count: (1 << 20) + 10) + Array("\"/></HealthData>".utf8)
        let d = AppleHealthExportDecoder(bytes: bytes, name: "huge.xml")
        var caught: RecordingError?
        do {
            while try d.next() != nil {}
        } catch {
            caught = error
        }
        #expect(
            caught?.description == "huge.xml: byte 12: out-of-range: tag longer than 1048576 bytes (huge attribute or unterminated tag)")
        #expect(d.bufferBytes <= (1 << 20) + (1 << 16) + 16)
    }

    @Test func badDatesAreRejectedRecordsNotFatal() throws {
        let xml = """
            <HealthData><Record type="HKQuantityTypeIdentifierHeartRate" sourceName="w" unit="count/min" value="60" startDate="2024-13-40 25:61:00 +0000" endDate="x"/>
            <Record type="HKQuantityTypeIdentifierHeartRate" sourceName="w" unit="count/min" value="61" startDate="2024-05-21 09:00:00 +0000" endDate="2024-05-21 09:00:00 +0000"/></HealthData>
            """
        let c = try CollectedDecode.decode(AppleHealthExportDecoder(bytes: Array(xml.utf8)))
        #expect(c.streams.first?.columns[0] == [61])
        #expect(c.accounts.first?.rejected == 1 && c.accounts.first?.isBalanced == true)
    }

    /// Chunked = whole: block sizes do not change what is delivered.
    @Test func blockSizeDoesNotChangeSamples() throws {
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: Self.excerpt)))
        let whole = try CollectedDecode.decode(AppleHealthExportDecoder(bytes: bytes))
        let small = try CollectedDecode.decode(AppleHealthExportDecoder(bytes: bytes, blockCapacity: 3, chunkSize: 100), blockCapacity: 3)
        #expect(small.problems.isEmpty)
        #expect(whole.streams.map(\.columns) == small.streams.map(\.columns))
        #expect(whole.streams.map(\.times) == small.streams.map(\.times))
    }

    /// Counts of the staged exports (`../shared/datasets/interchange/apple-health-*`) equal
    /// `scripts/health/count_records.py --staged` (committed as `scripts/health/staged_counts.json`).
    @Test(.enabled(if: Fixtures.sharedDatasets != nil, "../shared/datasets is absent: staged Apple Health exports skipped"))
    func stagedExportCountsEqualIterparse() throws {
        let root = try #require(Fixtures.sharedDatasets).appendingPathComponent("interchange")
        let data = try Data(contentsOf: Fixtures.repositoryRoot.appendingPathComponent("scripts/health/staged_counts.json"))
        let reference = try #require(try JSONSerialization.jsonObject(with: data) as? [String: [String: Int]])
        #expect(reference.count == 4)
        for (file, counts) in reference.sorted(by: { $0.key < $1.key }) {
            let d = try AppleHealthExportDecoder(path: root.appendingPathComponent(file).path)
            let c = try CollectedDecode.decode(d)
            #expect(c.problems.isEmpty, "\(file): \(c.problems)")
            #expect(Self.counts(d) == counts, "\(file)")
        }
    }
}

/// The export's ZIP with its ECG CSVs, the tokenizer's buffer sized by the input, and the beat
/// times read from bytes agreeing with the text parser.
@Suite struct AppleHealthExportZipTests {
    static let health = Fixtures.repositoryRoot.appendingPathComponent("Tests/RecordingsTests/Fixtures/health")

    /// `export.zip` holds the excerpt and two ECG CSVs (`scripts/health/make_excerpt_zip.py`:
    /// the synthetic fixtures as `electrocardiograms/ecg_<date>.csv`). The ZIP gives the records'
    /// streams of `export.xml`, then each CSV's ECG stream exactly as the CSV file read on its own
    /// (the unpacked folder's recording) gives it: key, attributes, times and values.
    @Test func zipECGsAreReadAsTheFolderReadsThem() throws {
        let zip = try CollectedDecode.decode(AppleHealthExportDecoder(path: AppleHealthExportTests.excerptZip))
        #expect(zip.problems.isEmpty, "\(zip.problems)")
        let xml = try CollectedDecode.decode(AppleHealthExportDecoder(path: AppleHealthExportTests.excerpt))
        let n = xml.streams.count
        #expect(zip.streams.count == n + 2)
        #expect(zip.streams.prefix(n).map(\.info) == xml.streams.map(\.info))
        #expect(zip.streams.prefix(n).map(\.columns) == xml.streams.map(\.columns))
        #expect(zip.accounts.count == zip.streams.count)
        // Entries in name order: ecg_2023-11-20 (decimal comma), ecg_2024-03-05 (quoted English).
        for (k, file) in ["synthetic-decimal-comma.csv", "synthetic-english-quoted.csv"].enumerated() {
            let alone = try CollectedDecode.decode(AppleHealthECGDecoder(path: Self.health.appendingPathComponent(file).path))
            let s = zip.streams[n + k]
            #expect(s.info == alone.streams[0].info, "\(file)")
            #expect(s.info.key.sensor == .electrocardiogram)
            #expect(s.columns == alone.streams[0].columns && s.times == alone.streams[0].times, "\(file)")
            #expect(zip.accounts[n + k] == alone.accounts[0], "\(file)")
            #expect(!alone.streams[0].times.isEmpty)
        }
        #expect(zip.devices.filter { $0.id == "apple-watch" }.count == 1)
        for qc in zip.accounts { #expect(qc.isBalanced) }
    }

    /// A small input gets a small buffer (4 KiB, not 1 MiB + one read); a tag longer than it grows
    /// the buffer, with the same tokens as a large buffer.
    @Test func bufferIsSizedByTheInput() throws {
        let tiny = Array(
            #"<HealthData><Record type="HKQuantityTypeIdentifierHeartRate" sourceName="w" unit="count/min" value="60" startDate="2024-05-21 09:00:00 +0000" endDate="2024-05-21 09:00:00 +0000"/></HealthData>"#
                .utf8)
        let d = AppleHealthExportDecoder(bytes: tiny)
        _ = try CollectedDecode.decode(d)
        #expect(d.bufferBytes == 4096)
        let file = try AppleHealthExportDecoder(path: AppleHealthExportTests.excerpt)
        #expect(file.bufferBytes == 17_844 + 16) // the file's size
        // A 100 kB attribute: the buffer doubles until the tag fits; decoded as with a 1 MiB read.
        let long = "<HealthData><Me note=\"" + String(repeating: "x", count: 100_000) + "\"/>"
        let body = Array((long + String(decoding: tiny.dropFirst(12), as: UTF8.self)).utf8)
        let grown = AppleHealthExportDecoder(bytes: body, chunkSize: 512)
        let g = try CollectedDecode.decode(grown)
        #expect(grown.bufferBytes >= 100_000 && grown.bufferBytes <= 2 * 100_000 + 4096)
        let w = try CollectedDecode.decode(AppleHealthExportDecoder(bytes: body, chunkSize: 1 << 20))
        #expect(g.streams.map(\.columns) == w.streams.map(\.columns) && g.streams.map(\.times) == w.streams.map(\.times))
        #expect(g.streams.first?.columns[0] == [60])
    }

    /// Beat times: the byte parser the decoder tries first agrees with the text parser on every
    /// shape (it declines what it does not read, and the text parser then decides).
    @Test func beatTimesFromBytesAgreeWithText() {
        var texts = [
            "23:47:49,20", "0:00:00.00", "9:05:07.5", "23:59:59.99", "24:00:00", "23:60:00", "12:00:61", "12:00:60.9",
            "7:5:3", "007:00:00", "11:47:49.20 PM", " 1:02:03", "1:02:03.", "1:02:03.1234567891", "1:02:03.123456789", "+1:02:03",
            "1:02:3e1", "", "::", "1:02", "1:02:03:04", "1:02:03,5.1", "١:٠٢:٠٣",
        ]
        var g = SystemRandomNumberGenerator()
        for _ in 0..<2000 {
            let h = Int.random(in: 0...30, using: &g), m = Int.random(in: 0...70, using: &g), s = Int.random(in: 0...70, using: &g)
            let frac = String(Int.random(in: 0...999_999, using: &g)).prefix(Int.random(in: 0...6, using: &g))
            let sep = [".", ",", ""].randomElement(using: &g)!
            texts.append("\(h):\(m < 10 && Bool.random(using: &g) ? "0" : "")\(m):\(s < 10 ? "0" : "")\(s)\(sep.isEmpty ? "" : sep + frac)")
        }
        for t in texts {
            let fast = Array(t.utf8).withUnsafeBufferPointer { AppleHealthExportTypes.timeOfDay(bytes: $0) }
            if let fast { #expect(fast == AppleHealthExportTypes.timeOfDay(t), "\(t)") }
        }
    }
}

import Cardio
import Foundation
import Recordings
import Signals
import Testing
import _TestSupport

@testable import Pipeline

/// `recording_summary` and `daily_summary` (``SummaryTables``): figures added up from the rows the
/// families emit, days counted in local time when the recording gives its UTC offset.
@Suite("Summary tables")
struct SummaryTablesTests {
    static let demo = Fixtures.repositoryRoot.appendingPathComponent("Datasets/ecg/watch-1_mitdb100_1716282000.ndjson.gz").path
    static let health = Fixtures.repositoryRoot
        .appendingPathComponent("Tests/RecordingsTests/Fixtures/health/synthetic-english-quoted.csv").path

    func results(_ path: String, blockCapacity: Int? = nil) throws -> RecordingResults {
        var analysis = AnalysisConfiguration()
        if let blockCapacity { analysis.decode.blockCapacity = blockCapacity }
        return try RecordingAnalysis.results(of: RecordingInput(path: path), analysis: analysis)
    }

    /// The ECG summary equals the figures recomputed here from the emitted rows (mean, min, max
    /// of the windows' bpm; beats whose correction column is not empty), and the demo's known
    /// facts: one 60-s stream at 512 Hz starting 2024-05-21 09:00:00 UTC (the file name's Unix
    /// time 1716282000), no UTC offset in a SensorKit export, so UTC days.
    @Test func ecgFiguresMatchTheRows() throws {
        let r = try results(Self.demo)
        // One row per family that analysed the stream: the ECG family's (the features family
        // analyses raw streams only with `--features-raw true`, issue 35).
        let all = r.rows(SummaryTables.recording)
        #expect(Set(all.map(\.family)).contains("ecg"), "\(all.map(\.family))")
        let rows = all.filter { $0.family == "ecg" }
        try #require(rows.count == 1)
        let s = rows[0]
        #expect(s.family == "ecg" && s.device == "watch-1" && s.streams == 1)
        #expect(s.timeBasis == .utc && s.utcOffsetSeconds == nil)
        #expect(s.firstTime == 1_716_282_000)
        // 30 720 samples at 512 Hz: the last one 30 719 / 512 s after the first.
        #expect(abs((s.lastTime ?? 0) - (1_716_282_000 + 30_719.0 / 512)) < 1e-6)
        #expect(abs(s.figures.decodedSeconds - 30_719.0 / 512) < 1e-6)
        #expect(s.figures.analysedSeconds == s.figures.decodedSeconds)
        let hr = r.rows(BeatSeriesTables.heartRate)
        // One lead, no fusion: every ECG rate is the recommended series.
        #expect(hr.allSatisfy { $0.value.isRecommended })
        let bpm = hr.compactMap(\.value.heartRateBPM)
        #expect(s.figures.value("hr_windows", .sum) == Double(bpm.count) && bpm.count == 6)
        #expect(abs((s.figures.value("hr_mean_bpm", .mean) ?? 0) - bpm.reduce(0, +) / Double(bpm.count)) < 1e-9)
        #expect(s.figures.value("hr_min_bpm", .min) == bpm.min() && s.figures.value("hr_max_bpm", .max) == bpm.max())
        let beats = r.rows(BeatSeriesTables.beats)
        #expect(s.figures.value("beats", .sum) == Double(beats.count))
        let corrected = beats.filter { !$0.value.beat.correctionDescription.isEmpty }.count
        #expect(abs((s.figures.value("corrected_share", .share) ?? -1) - Double(corrected) / Double(beats.count)) < 1e-12)
        let quality = r.rows(ECGTables.quality)
        #expect(abs((s.figures.value("assessed_hours", .sum) ?? 0) * 3600 - 10 * Double(quality.count)) < 1e-9)
        let usable = quality.filter { $0.value.label != .unacceptable }.count
        #expect(abs((s.figures.value("usable_share", .share) ?? -1) - Double(usable) / Double(quality.count)) < 1e-12)
        let days = r.rows(SummaryTables.daily).filter { $0.family == "ecg" }
        #expect(days.count == 1)
        #expect(days.first?.date == "2024-05-21" && days.first?.dayNumber == 1)
        #expect(days.first?.dayStart == 1_716_249_600) // 2024-05-21T00:00:00Z
        #expect(days.first?.figures.value("hr_windows", .sum) == 6)
    }

    /// An Apple Health ECG recorded at 2024-03-05 23:59:30 −07:30 is counted on its local day
    /// 2024-03-05 (in UTC it is already 2024-03-06 07:29:30), and says so.
    @Test func localDayFromTheUTCOffset() throws {
        let r = try results(Self.health)
        let day = try #require(r.rows(SummaryTables.daily).first)
        #expect(day.timeBasis == .local && day.utcOffsetSeconds == -27_000)
        #expect(day.date == "2024-03-05")
        #expect(day.dayStart == 1_709_596_800 + 27_000) // local midnight 2024-03-05 = 07:30 UTC
        let values = SummaryTables.daily.values(of: day)
        let names = SummaryTables.daily.table.columns.map(\.name)
        #expect(values[names.firstIndex(of: "time_basis")!] == .text("local"))
        #expect(values[names.firstIndex(of: "utc_offset_s")!] == .integer(-27_000))
    }

    /// Summary rows do not depend on the block size the decoder delivers.
    @Test(arguments: [1, 333, 4_096])
    func independentOfBlockSize(_ capacity: Int) throws {
        let whole = try results(Self.demo)
        let chunked = try results(Self.demo, blockCapacity: capacity)
        #expect(chunked.rows(SummaryTables.recording) == whole.rows(SummaryTables.recording))
        #expect(chunked.rows(SummaryTables.daily) == whole.rows(SummaryTables.daily))
    }

    /// Signal crossing local midnight is split between the two days: a stream at UTC+01:00 from
    /// 22:30 to 01:00 local time with a 30-minute gap (23:30–00:00) holds 1 h on the first day and
    /// 1 h on the second; facts go to the day they start in.
    @Test func midnightSplitWithOffset() {
        var a = SummaryAccumulator()
        let key = StreamKey(deviceID: "d", sensor: .electrocardiogram, channel: "ecg")
        a.announce(
            index: 0,
            info: StreamInfo(
                key: key, columns: [ColumnInfo(name: "value", unit: .microvolts)],
                attributes: [StreamAttribute.utcOffsetSeconds: "3600"]))
        let localMidnight = 1_700_006_400.0 - 3600 // 2023-11-15T00:00 at UTC+01:00 (1700006400 is 00:00Z)
        func block(_ segment: Int, from: Double, seconds: Double) -> SampleBlock {
            let n = Int(seconds) + 1
            return SampleBlock(
                stream: 0, segment: segment, firstSample: 0, time: .uniform(segmentStart: from, sampleRate: 1),
                columns: [[Float](repeating: 0, count: n)], flags: [UInt8](repeating: 0, count: n), endsSegment: true)
        }
        a.add(block(0, from: localMidnight - 5400, seconds: 3600)) // 22:30–23:30
        a.add(block(1, from: localMidnight, seconds: 3600)) // 00:00–01:00
        a.add(
            SummaryFact(
                family: "ecg", stream: key.description, startSeconds: localMidnight - 10, endSeconds: localMidnight + 20,
                figure: "hr_mean_bpm", value: 60))
        a.add(
            SummaryFact(
                family: "ecg", stream: key.description, startSeconds: localMidnight + 20, endSeconds: localMidnight + 30,
                figure: "hr_mean_bpm", value: 90))
        let (recording, daily) = a.rows(analyses: [["ecg"]])
        #expect(daily.map(\.date) == ["2023-11-14", "2023-11-15"])
        #expect(daily.map(\.dayNumber) == [1, 2])
        #expect(daily.map(\.figures.decodedSeconds) == [3600, 3600])
        #expect(daily.map { $0.figures.value("hr_mean_bpm", .mean) } == [60, 90])
        #expect(daily[1].dayStart == localMidnight)
        #expect(recording.count == 1 && recording[0].figures.decodedSeconds == 7200)
        #expect(recording[0].figures.value("hr_mean_bpm", .mean) == 75 && recording[0].timeBasis == .local)
    }

    /// The weighted median against values worked by hand: odd and even counts, weights, no weight.
    @Test func weightedMedianByHand() {
        func median(_ values: [Double], _ weights: [Double]? = nil) -> Double? {
            var a = SummaryAggregate()
            for (i, v) in values.enumerated() { a.add(value: v, weight: weights?[i] ?? 1, keep: true) }
            return a.value(.median)
        }
        #expect(median([3, 1, 2]) == 2)
        #expect(median([4, 1, 3, 2]) == 2.5) // the two middle values' mean
        #expect(median([1, 2, 3, 4], [1, 1, 1, 5]) == 4) // 4 carries 5 of 8
        #expect(median([1, 2, 3, 4], [2, 1, 1, 0]) == 1.5) // weight 2 of 4 reaches exactly half at 1
        #expect(median([]) == nil)
        #expect(median([5], [0]) == nil)
        // A day's kept values add into the recording's.
        var day1 = SummaryAggregate(), day2 = SummaryAggregate()
        for v in [10.0, 30] { day1.add(value: v, weight: 1, keep: true) }
        for v in [20.0, 40, 50] { day2.add(value: v, weight: 1, keep: true) }
        day1.add(day2)
        #expect(day1.value(.median) == 30 && day1.values.count == 5)
    }

    /// A sum without facts is 0 only in a row that analysed some time: an accelerometer file whose
    /// only sample record is rejected (a NaN component, reported) gives a motion row with 0
    /// analysed hours, whose counts (steps) and times (wear, sedentary) are empty, not 0; the same
    /// file with the record intact gives 0 where nothing was counted. Before: steps 0, wear_hours
    /// 0.0 and the intensity minutes 0.0 for a recording of which nothing was analysed.
    @Test func sumsWithoutAnalysedTimeAreEmpty() throws {
        let dir = TemporaryDirectory()
        let header =
            #"{"type":"header","schema":"sensorkit-ndjson","version":1,"sensor":"accelerometer","deviceId":"w","exporter":"test"}"#
        let samples = (0..<200).map { i in
            #"{"startDate":\#(1_700_000_000 + Double(i) / 50),"identifier":\#(i),"acceleration":{"x":"#
                + (i == 7 ? "NaN" : "0.0") + #","y":0.0,"z":1.0}}"#
        }
        let record = #"{"type":"accelerometer","deviceId":"w","sample":["# + samples.joined(separator: ",") + "]}"
        func motionRow(_ text: String, _ name: String) throws -> [String: ResultValue] {
            let path = dir.url.appendingPathComponent(name).path
            try (header + "\n" + text + "\n").write(toFile: path, atomically: true, encoding: .utf8)
            let sink = MemorySink()
            _ = try RecordingAnalysis.run(path: path, analysis: AnalysisConfiguration(), sink: sink)
            return try #require(sink.named("recording_summary").first { $0["family"] == .text("motion") })
        }
        let rejected = try motionRow(record, "rejected.ndjson")
        #expect(rejected["analysed_hours"] == .real(0))
        for name in ["steps", "wear_hours", "non_wear_hours", "sedentary_min", "light_min", "mvpa_min"] {
            #expect(rejected[name] == .null, "\(name): \(String(describing: rejected[name]))")
        }
        let intact = try motionRow(record.replacingOccurrences(of: "NaN", with: "0.0"), "intact.ndjson")
        guard case .real(let hours)? = intact["analysed_hours"] else {
            Issue.record("no analysed hours")
            return
        }
        #expect(hours > 0)
        #expect(intact["steps"] == .integer(0))
    }

    /// A figure with local hours counts facts starting in those hours of the local clock only, and
    /// none on a clock that is not local; a median figure is exact per day and per recording.
    @Test func localHoursAndMedian() {
        let night = SummaryFigure(
            family: "f", name: "night", meaning: "m", aggregation: .median, sourceTable: "t", sourceColumn: "c", localHours: 0..<6)
        let all = SummaryFigure(family: "f", name: "all", meaning: "m", aggregation: .median, sourceTable: "t", sourceColumn: "c")
        let vocabulary = SummaryVocabulary([night, all])
        func run(offset: String?) -> (recording: [RecordingSummaryRow], daily: [DailySummaryRow]) {
            var a = SummaryAccumulator(vocabulary: vocabulary)
            let key = StreamKey(deviceID: "d", sensor: .electrocardiogram, channel: "ecg")
            a.announce(
                index: 0,
                info: StreamInfo(
                    key: key, columns: [ColumnInfo(name: "value", unit: .microvolts)],
                    attributes: offset.map { [StreamAttribute.utcOffsetSeconds: $0] } ?? [:]))
            let localMidnight = 1_700_006_400.0 - 3600 // 2023-11-15T00:00 at UTC+01:00
            // Local 01:00, 05:59, 06:00 and 23:00 of the 15th; 02:00 of the 16th.
            for (hours, value) in [(1.0, 12.0), (5.99, 14), (6, 30), (23, 40), (26, 16)] {
                let t = localMidnight + hours * 3600
                a.add(SummaryFact(family: "f", stream: key.description, startSeconds: t, endSeconds: t + 32, figure: "night", value: value))
                a.add(SummaryFact(family: "f", stream: key.description, startSeconds: t, endSeconds: t + 32, figure: "all", value: value))
            }
            return a.rows(analyses: [["f"]])
        }
        let local = run(offset: "3600")
        #expect(local.daily.map { $0.figures.value("night", .median) } == [13, 16])
        #expect(local.daily.map { $0.figures.value("all", .median) } == [22, 16])
        #expect(local.recording[0].figures.value("night", .median) == 14)
        #expect(local.recording[0].figures.value("all", .median) == 16)
        let utc = run(offset: nil) // Unix times, offset unknown: UTC hours are not local hours
        #expect(utc.recording[0].figures.value("night", .median) == nil)
        #expect(utc.recording[0].figures.value("all", .median) == 16)
    }
}

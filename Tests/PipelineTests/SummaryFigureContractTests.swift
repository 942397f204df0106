import Foundation
import Recordings
import Signals
import Testing
import _TestSupport

@testable import Pipeline

/// The summary figures' contract (issue 28): every registered family runs on fixtures that give
/// each of its tables data — the `Datasets/` recordings (ECG, PPG, accelerometer), a two-lead
/// WFDB record (the fused series) and a simulated wrist over two nights (sleep) — and a declared
/// figure (``AnalysisRegistry/summaryVocabulary``) must not stay empty where the column it
/// summarises (``SummaryFigure/sourceColumn``) holds data. The loop is over the registry, so a
/// family added later is covered by its declarations: a figure without a source column, or one
/// no fixture gives data, fails the test.
@Suite("Summary figures: every declared figure is filled where its table has data")
struct SummaryFigureContractTests {
    static let datasets = [
        "ecg/watch-1_mitdb100_1716282000.ndjson.gz", "ecg/watch-1_mitdb105_1716285600.ndjson.gz",
        "ppg/phone-1_butppg_1716296400.ndjson.gz", "accelerometer/oxford_user1_hand_1506421989895.ndjson.gz",
        "accelerometer/actigraph_example_wrist_100hz.ndjson.gz", "apple-health/export-excerpt.xml",
    ]

    /// A named run's tables.
    struct Run {
        var name: String
        var sink: MemorySink
    }

    static func runs() throws -> [Run] {
        var out = [Run]()
        for file in datasets {
            let path = Fixtures.repositoryRoot.appendingPathComponent("Datasets/\(file)").path
            let sink = MemorySink()
            _ = try RecordingAnalysis.run(path: path, analysis: AnalysisConfiguration(), sink: sink)
            out.append(Run(name: file, sink: sink))
        }
        out.append(Run(name: "two-lead WFDB", sink: try twoLeads()))
        out.append(Run(name: "two simulated nights", sink: try simulatedNights()))
        out.append(Run(name: "CinC 2017 AF strip A00004", sink: try cincAF()))
        out.append(Run(name: "BIDMC excerpt (respiration)", sink: try bidmcExcerpt()))
        out.append(Run(name: "BIDMC excerpt on a device-local clock at 00:00 (night figures)", sink: try bidmcExcerpt(nightClock: true)))
        out.append(Run(name: "device beat list with a premature beat", sink: try deviceListWithPrematureBeat()))
        return out
    }

    /// The committed BIDMC excerpt (Datasets/respiration, 160 s of bidmc_01, lead II and PLETH by
    /// `--preset bidmc`): breathing visible in the ECG and PPG. With the default respiratory
    /// quality indices none of its 5 fused windows has a rate (issue 31's coverage miss,
    /// docs/VALIDATION.md), so this plumbing check runs the respiration family with the
    /// autocorrelation and breath-count indices off (options, not thresholds of an accuracy test)
    /// so that its figures have rows to fill from.
    /// With `nightClock`, its `Time [s]` column (0 … 160 s) read as the device's local clock
    /// (1970-01-01 00:00 local onwards), so its windows fall in the night's hours.
    static func bidmcExcerpt(nightClock: Bool = false) throws -> MemorySink {
        let path = Fixtures.repositoryRoot.appendingPathComponent("Datasets/respiration/bidmc_01_excerpt_Signals.csv.xz").path
        let sink = MemorySink()
        var analysis = try JSONDecoder().decode(
            AnalysisConfiguration.self,
            from: Data(#"{"respiration": {"min_autocorrelation": 0, "count_agreement_bpm": 20}}"#.utf8))
        analysis.decode = DecodeOptions(preset: .bidmc)
        if nightClock, var mapping = RecordingPreset.bidmc.csvMapping(path: path) {
            mapping.time = .column(.name("Time [s]"), unit: .seconds, origin: .deviceLocalClock)
            analysis.decode.csvMapping = mapping
        }
        _ = try RecordingAnalysis.run(path: path, analysis: analysis, sink: sink)
        return sink
    }

    /// The demo ECG as a two-lead WFDB record (``RecordingAnalysisTests/twoLeadRecord(in:)``): the
    /// ECG family fuses the leads.
    /// The Apple Health excerpt with its beat list replaced by 80 beats 0.8 s apart, the 41st
    /// 0.3 s early (intervals 0.5 s then 1.1 s: a premature beat the correction marks).
    static func deviceListWithPrematureBeat() throws -> MemorySink {
        let dir = TemporaryDirectory()
        let times = (0..<80).map { Double($0) * 0.8 - ($0 == 40 ? 0.3 : 0) }
        let path = try AppleHealthDeviceRhythmTests.export(beatsAt: times, in: dir)
        let sink = MemorySink()
        _ = try RecordingAnalysis.run(path: path, analysis: AnalysisConfiguration(), sink: sink)
        return sink
    }

    static func twoLeads() throws -> MemorySink {
        let dir = TemporaryDirectory()
        let hea = try RecordingAnalysisTests.twoLeadRecord(in: dir)
        let sink = MemorySink()
        _ = try RecordingAnalysis.run(path: hea, analysis: AnalysisConfiguration(), sink: sink)
        return sink
    }

    /// A wrist at 10 Hz from 11:00 UTC over two nights: orientation wandering while awake (a
    /// 20-min brisk walk at 10:00 each day, a 1-h nap at 14:00, off the wrist 16:00–18:30 on the
    /// first day, awake 03:00–03:15 each night), lying
    /// still from 23:00 to 07:00 with a 30° turn every two hours (the shape of MotionTests'
    /// `SimulatedNights`), through every registered family's analyzer and the summary
    /// accumulator, as `RecordingAnalysis` runs them.
    /// A 30-s single-lead strip in atrial fibrillation (CinC 2017 A00004, Tests/RhythmTests/Fixtures):
    /// one rhythm window labelled af, one 30-s AF episode.
    static func cincAF() throws -> MemorySink {
        let hea = Fixtures.url("RhythmTests", "cinc2017/A00004.hea").path
        var decode = DecodeOptions()
        decode.verifiesIntegrity = false // the CinC headers' checksum field is 0
        let sink = MemorySink()
        _ = try RecordingAnalysis.run(path: hea, analysis: AnalysisConfiguration(decode: decode), sink: sink)
        return sink
    }

    static func simulatedNights() throws -> MemorySink {
        let rate = 10.0, start = 1_700_046_000.0 // 2023-11-15T11:00:00Z
        let count = Int((2 * 86_400 + 7200) * rate)
        let info = StreamInfo(
            key: StreamKey(deviceID: "sim", sensor: .accelerometer, channel: "acceleration"),
            columns: ["x", "y", "z"].map { ColumnInfo(name: $0, unit: .standardGravity) }, nominalSampleRate: rate)
        // The same device's gyroscope (the nights' rotation rate).
        let gyro = StreamInfo(
            key: StreamKey(deviceID: "sim", sensor: .rotationRate, channel: "rotation_rate"),
            columns: ["x", "y", "z"].map { ColumnInfo(name: $0, unit: .radiansPerSecond) }, nominalSampleRate: rate)
        let sink = MemorySink()
        try sink.begin(recording: "sim")
        let out = CountingOutput(sink)
        out.figures.announce(index: 0, info: info)
        out.figures.announce(index: 1, info: gyro)
        var claimed = [(String, any RecordingAnalyzer)]()
        // A diary's time in bed and nap detection, so the latency and nap figures fill.
        let motion: [String: OptionValue] = ["time_in_bed": .choice("22:30-07:30"), "naps": .flag(true)]
        for entry in AnalysisRegistry.families {
            var a = entry.makeAnalyzer(values: entry.name == "motion" ? motion : [:])
            let takesAccelerometer = a.claim(AnnouncedStream(index: 0, info: info, file: "sim"))
            let takesGyroscope = a.claim(AnnouncedStream(index: 1, info: gyro, file: "sim"))
            if takesAccelerometer || takesGyroscope { claimed.append((entry.name, a)) }
        }
        let block = 36_000
        var k = 0
        while k < count {
            let n = min(block, count - k)
            var x = [Float](), y = [Float](), z = [Float]()
            x.reserveCapacity(n)
            for i in k..<(k + n) {
                let v = sample(i, rate: rate, start: start)
                x.append(v.x)
                y.append(v.y)
                z.append(v.z)
            }
            let b = SampleBlock(
                stream: 0, segment: 0, firstSample: k, time: .uniform(segmentStart: start, sampleRate: rate), columns: [x, y, z],
                flags: [UInt8](repeating: 0, count: n), endsSegment: k + n == count)
            var gx = [Float](), gy = [Float](), gz = [Float]()
            for i in k..<(k + n) {
                let w = rotation(i, rate: rate, start: start)
                gx.append(w.x)
                gy.append(w.y)
                gz.append(w.z)
            }
            let g = SampleBlock(
                stream: 1, segment: 0, firstSample: k, time: .uniform(segmentStart: start, sampleRate: rate), columns: [gx, gy, gz],
                flags: [UInt8](repeating: 0, count: n), endsSegment: k + n == count)
            out.figures.add(b)
            out.figures.add(g)
            for i in claimed.indices {
                try claimed[i].1.consume(g, output: out)
                try claimed[i].1.consume(b, output: out)
            }
            k += n
        }
        for i in claimed.indices { try claimed[i].1.finish(output: out) }
        try out.emitSummary(analyses: [claimed.map(\.0)])
        try sink.commit()
        return sink
    }

    static func sample(_ i: Int, rate: Double, start: Double) -> SIMD3<Float> {
        let s = Double(i) / rate
        let clock = (start + s).truncatingRemainder(dividingBy: 86_400)
        let jitter = Float(0.002 * sin(Double(i) * 12.9898).truncatingRemainder(dividingBy: 1))
        // Awake 03:00–03:15 (an awakening) and a 1-h nap lying still from 14:00 (nap detection).
        let awakeAtNight = clock >= 3 * 3600 && clock < 3 * 3600 + 900
        let nap = clock >= 14 * 3600 && clock < 15 * 3600
        // Lying still, a 1-s twitch every 4 min (so the stillness is not taken for non-wear).
        func twitch(_ since: Double) -> SIMD3<Float> {
            SIMD3<Float>(repeating: since.truncatingRemainder(dividingBy: 240) < 1 ? Float(0.08 * sin(2 * .pi * 2.5 * s)) : 0)
        }
        // Off the wrist on a table 16:00–18:30 of the first afternoon (non-wear).
        if s >= 5 * 3600 && s < 7.5 * 3600 { return SIMD3<Float>(0.01 + jitter / 2, -0.02, 1 + jitter / 2) }
        if nap { return SIMD3(Float(sin(0.5)), 0, Float(cos(0.5))) + SIMD3<Float>(repeating: jitter) + twitch(clock) }
        let asleep = (clock >= 23 * 3600 || clock < 7 * 3600) && !awakeAtNight
        if !asleep {
            let theta = 1.0 + 0.5 * sin(2 * .pi * s / 7) + 0.3 * sin(2 * .pi * s / 2.3)
            let phi = 2 * .pi * s / 40
            // A 20-min brisk walk from 10:00: the magnitude swings by 0.6 g at 2 Hz (MVPA, steps:
            // the day outcomes' figures).
            let walk = clock >= 10 * 3600 && clock < 10 * 3600 + 1200
            let m = walk ? 1 + 0.6 * sin(2 * .pi * 2 * s) : 1
            return SIMD3(
                Float(m * sin(theta) * cos(phi)) + jitter, Float(m * sin(theta) * sin(phi)) + jitter, Float(m * cos(theta)) + jitter)
        }
        let sinceBed = clock >= 23 * 3600 ? clock - 23 * 3600 : clock + 3600
        let theta = (40.0 + 30 * Double(Int(sinceBed / 7200) % 2)) * .pi / 180
        return SIMD3(Float(sin(theta)), 0, Float(cos(theta))) + SIMD3<Float>(repeating: jitter) + twitch(sinceBed)
    }

    /// The gyroscope of ``sample(_:rate:start:)``: 0.02 rad/s about z asleep, 0.5 rad/s awake.
    static func rotation(_ i: Int, rate: Double, start: Double) -> SIMD3<Float> {
        let clock = (start + Double(i) / rate).truncatingRemainder(dividingBy: 86_400)
        let asleep = clock >= 23 * 3600 || clock < 7 * 3600
        return SIMD3(0, 0, asleep ? 0.02 : 0.5)
    }

    /// A numeric value, or `nil`.
    static func number(_ v: ResultValue?) -> Double? {
        switch v {
        case .real(let x)?: return x
        case .integer(let x)?: return Double(x)
        default: return nil
        }
    }

    /// Whether a value is data: a non-zero number or non-empty text.
    static func isData(_ v: ResultValue?) -> Bool {
        switch v {
        case .real(let x)?: return x != 0 && x.isFinite
        case .integer(let x)?: return x != 0
        case .text(let s)?: return !s.isEmpty
        default: return false
        }
    }

    @Test("every registered family's declared figures are filled where their columns hold data, and every figure is exercised")
    func everyDeclaredFigureFilled() throws {
        let vocabulary = AnalysisRegistry.summaryVocabulary
        #expect(!vocabulary.figures.isEmpty)
        var exercised = Set<String>()
        for run in try Self.runs() {
            let summaries = run.sink.named("recording_summary")
            for figure in vocabulary.figures {
                let id = "\(figure.family)/\(figure.name)"
                guard let table = figure.sourceTable, let column = figure.sourceColumn else {
                    Issue.record("\(id) names no source table and column")
                    continue
                }
                // The family's rows of the table (a `source` column names the beat source); a
                // `recommended` column keeps the recommended rows only (heart_rate: the figures
                // use those).
                // A table only the figure's family declares is all its own (rhythm's `source`
                // column names where its beats come from, not a family).
                let declaring = AnalysisRegistry.families.filter { $0.tables.contains { $0.name == table } }.map(\.name)
                let bySource = declaring != [figure.family]
                let rows = run.sink.named(table).filter { row in
                    (!bySource || row["source"] == nil || row["source"] == .text(figure.family))
                        && (row["recommended"] == nil || row["recommended"] == .integer(1))
                }
                guard rows.contains(where: { Self.isData($0[column]) }) else { continue }
                var mine = summaries.filter { $0["family"] == .text(figure.family) }
                if let hours = figure.localHours {
                    // Counted only for rows starting within the hours on a local clock.
                    mine = mine.filter { summary in
                        guard summary["time_basis"] == .text("local") || summary["time_basis"] == .text("device_local") else {
                            return false
                        }
                        let offset = Self.number(summary["utc_offset_s"]) ?? 0
                        return rows.contains { row in
                            guard Self.isData(row[column]), let start = Self.number(row["window_start"]) else { return false }
                            let hour = (start + offset).truncatingRemainder(dividingBy: 86_400) / 3_600
                            return hour >= Double(hours.lowerBound) && hour < Double(hours.upperBound)
                        }
                    }
                    guard !mine.isEmpty else { continue }
                }
                exercised.insert(id)
                #expect(!mine.isEmpty, "\(run.name): \(table).\(column) has data but no recording_summary row of \(figure.family)")
                for row in mine {
                    let v = row[figure.name]
                    // A zero count or share is a value when the family's facts reached the row
                    // (another of its figures is data): AF burden 0 and no AF episode on a sinus
                    // recording.
                    let reached = vocabulary.figures.contains {
                        $0.family == figure.family && $0.name != figure.name && Self.isData(row[$0.name])
                    }
                    let zero = v == .real(0) || v == .integer(0)
                    let filled =
                        figure.aggregation == .sum || figure.aggregation == .share
                        ? Self.isData(v) || (zero && reached) : v != .null && v != nil
                    #expect(filled, "\(run.name): \(id) is \(String(describing: v)) although \(table).\(column) holds data")
                }
            }
        }
        let missing = vocabulary.figures.map { "\($0.family)/\($0.name)" }.filter { !exercised.contains($0) }
        #expect(missing.isEmpty, "declared figures no fixture gave data: \(missing)")
    }

    /// The converse of ``everyDeclaredFigureFilled()``: where every row a figure summarises has
    /// its source column empty (a 3-min accelerometer recording has `motion_daily` rows but no
    /// valid day, so no bout minutes), the figure is empty too, never 0. Counts (integer sums:
    /// beats, windows with a rate, episodes, steps) and shares (the share of assessed windows
    /// with a rate) are exempt: a count of nothing is 0, and so is a share of none.
    /// Before: the per-valid-day bout, sedentary-bout and cadence minutes were summed figures,
    /// written as 0.0 without a valid day although declared "empty without a valid day".
    @Test("a figure is empty where the rows it summarises hold no value (counts excepted)")
    func emptyWhereTheSourceIsEmpty() throws {
        let vocabulary = AnalysisRegistry.summaryVocabulary
        var checked = Set<String>()
        for run in try Self.runs() {
            let summaries = run.sink.named("recording_summary") + run.sink.named("daily_summary")
            for figure in vocabulary.figures where !(figure.aggregation == .sum && figure.type == .integer) && figure.aggregation != .share
            {
                guard let table = figure.sourceTable, let column = figure.sourceColumn else { continue }
                let declaring = AnalysisRegistry.families.filter { $0.tables.contains { $0.name == table } }.map(\.name)
                let bySource = declaring != [figure.family]
                let rows = run.sink.named(table).filter { row in
                    (!bySource || row["source"] == nil || row["source"] == .text(figure.family))
                        && (row["recommended"] == nil || row["recommended"] == .integer(1))
                }
                guard !rows.isEmpty, rows.allSatisfy({ $0[column] == nil || $0[column] == .null }) else { continue }
                checked.insert("\(figure.family)/\(figure.name)")
                for row in summaries where row["family"] == .text(figure.family) {
                    let v = row[figure.name]
                    #expect(
                        v == nil || v == .null,
                        "\(run.name): \(figure.family)/\(figure.name) is \(String(describing: v)) although every \(table).\(column) is empty"
                    )
                }
            }
        }
        // The 3-min Datasets accelerometer recordings have no valid day.
        #expect(checked.contains("motion/mvpa_bout10_min"), "checked: \(checked.sorted())")
    }

    @Test("motion's steps and wear hours equal motion_daily's sums")
    func motionMatchesDaily() throws {
        let path = Fixtures.repositoryRoot.appendingPathComponent("Datasets/\(Self.datasets[3])").path
        let sink = MemorySink()
        _ = try RecordingAnalysis.run(path: path, analysis: AnalysisConfiguration(), sink: sink)
        let motion = try #require(sink.named("recording_summary").first { $0["family"] == .text("motion") })
        var steps = 0, wear = 0.0
        for d in sink.named("motion_daily") {
            if case .integer(let n)? = d["steps"] { steps += n }
            if case .real(let w)? = d["wear_s"] { wear += w }
        }
        // Before: steps and wear_hours were empty for every accelerometer recording.
        #expect(steps > 0)
        #expect(motion["steps"] == .integer(steps), "\(String(describing: motion["steps"])) vs motion_daily \(steps)")
        guard case .real(let hours)? = motion["wear_hours"] else {
            Issue.record("wear_hours empty")
            return
        }
        #expect(abs(hours * 3600 - wear) < 1e-6, "wear \(hours * 3600) s vs motion_daily \(wear) s")
    }
}

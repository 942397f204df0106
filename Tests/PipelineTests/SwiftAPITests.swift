import Cardio
import Features
import Foundation
import Motion
import Recordings
import Synchronization
import Testing
import _TestSupport

@testable import Pipeline

/// The canonical configuration JSON as releases up to 0.3.0 wrote it (`JSONSerialization` of a
/// `[String: Any]`), kept verbatim as the reference the `JSONEncoder` form must equal byte for byte
/// (its hash decides resuming).
func legacyCanonicalJSON(_ c: AnalysisConfiguration, softwareVersion: String) -> String {
    var decodeSection: [String: Any] = ["preset": c.decode.preset.map { "\($0.rawValue)" } ?? "auto"]
    if !c.decode.verifiesIntegrity { decodeSection["verify_integrity"] = false }
    var config: [String: Any] = ["software_version": softwareVersion, "decode": decodeSection]
    for (family, options) in c.values {
        var section = [String: Any]()
        for (key, value) in options {
            switch value {
            case .number(let x): section[key] = x
            case .flag(let b): section[key] = b
            case .choice(let s): section[key] = s
            }
        }
        config[family] = section
    }
    let data = (try? JSONSerialization.data(withJSONObject: config, options: [.sortedKeys])) ?? Data()
    return String(decoding: data, as: UTF8.self)
}

/// `sensorpipe run --json` as the `JSONSerialization` writer wrote it (releases up to 0.3.0, plus
/// the `figures` list of the declared summary figures, issue 28), verbatim.
func legacyBatchJSON(_ s: BatchSummary) -> String {
    var hours = [String: Double]()
    for (k, v) in s.signalSecondsBySensor { hours[k.rawValue] = v / 3600 }
    var analysed = [String: Double]()
    for (k, v) in s.analysedSecondsBySensor { analysed[k.rawValue] = v / 3600 }
    let object: [String: Any] = [
        "recordings": ["total": s.total, "ok": s.ok, "failed": s.failed, "skipped": s.skipped],
        "bytes_total": s.bytesTotal, "bytes_analysed": s.bytesAnalysed, "samples_read": s.samplesRead,
        "beats": s.beats,
        "figures": s.figureTotals.filter { $0.recordingMedians == nil }.map { ["family": $0.family, "name": $0.name, "value": $0.value] },
        "signal_hours": hours, "analysed_hours": analysed, "unanalysed_streams": s.unanalysedStreams,
        "elapsed_s": s.elapsedSeconds,
        "mb_per_s": s.elapsedSeconds > 0 ? Double(s.bytesAnalysed) / 1e6 / s.elapsedSeconds : 0,
        "failures": s.failures.map { ["path": $0.path, "error": $0.error] },
        // Added after 0.3.0 (issue 33, same-content inputs): the one new key.
        "duplicates": s.duplicates.map { ["path": $0.path, "duplicate_of": $0.duplicateOf] },
    ]
    let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
    return String(decoding: data, as: UTF8.self)
}

/// The running batch, for the batch's own hook to cancel it.
final class RunHolder: Sendable {
    let run = Mutex<BatchRun?>(nil)
}

/// Compiles only when `T` is `Sendable` (checked, not `@unchecked`).
func requireSendable<T: Sendable>(_: T.Type) {}

@Suite("Swift API: Codable configuration and output")
struct CodableConfigurationTests {
    /// Every option of every registered family set away from its default: `pick` chooses a
    /// number in the option's range; flags flip; choices take another word; text takes `text`.
    static func everyOptionChanged(pick: (ClosedRange<Double>, Double) -> Double, text: String) throws -> AnalysisConfiguration {
        var c = AnalysisConfiguration()
        for family in AnalysisRegistry.families {
            for o in family.options {
                let value: OptionValue
                switch (o.kind, o.defaultValue) {
                case (.number(let r), .number(let d)): value = .number(pick(r, d))
                case (.flag, .flag(let b)): value = .flag(!b)
                case (.choice(let words), .choice(let d)): value = .choice(words.first { $0 != d } ?? d)
                case (.text, _): value = .choice(text)
                default: Issue.record("\(o.flag): default \(o.defaultValue) does not match its kind"); continue
                }
                try c.set(family: family.name, key: o.key, value: value, origin: "test")
            }
        }
        c.decode.preset = .spc2015
        c.decode.verifiesIntegrity = false
        return c
    }

    static func configurations() throws -> [(String, AnalysisConfiguration)] {
        [
            ("defaults", AnalysisConfiguration()),
            ("a preset only", AnalysisConfiguration(decode: DecodeOptions(preset: .oxfordSteps))),
            (
                "every option at a range end",
                try everyOptionChanged(pick: { r, d in d == r.lowerBound ? r.upperBound : r.lowerBound }, text: "II")
            ),
            (
                "every option at a fraction of its range",
                try everyOptionChanged(
                    pick: { r, _ in r.lowerBound + (r.upperBound - r.lowerBound) / 3 }, text: "lead/II é \"x\"")
            ),
        ]
    }

    @Test("the canonical JSON (JSONEncoder) is byte-identical to 0.3.0's JSONSerialization text")
    func canonicalJSONUnchanged() throws {
        for (name, c) in try Self.configurations() {
            let new = c.canonicalJSON(softwareVersion: SensorPipeVersion.current)
            let old = legacyCanonicalJSON(c, softwareVersion: SensorPipeVersion.current)
            #expect(new == old, "\(name):\n\(new)\n\(old)")
        }
        // The configurations differ from each other (the test would not notice a constant output).
        let texts = try Self.configurations().map { $0.1.canonicalJSON(softwareVersion: "1") }
        #expect(Set(texts).count == texts.count)
    }

    @Test("JSONDecoder reads the canonical JSON back to the same configuration")
    func decodeRoundTrip() throws {
        for (name, c) in try Self.configurations() {
            let json = c.canonicalJSON(softwareVersion: "9")
            let back = try JSONDecoder().decode(AnalysisConfiguration.self, from: Data(json.utf8))
            #expect(back.canonicalJSON(softwareVersion: "9") == json, "\(name)")
            // And through the configuration's own Encodable form.
            let again = try JSONDecoder().decode(AnalysisConfiguration.self, from: JSONEncoder().encode(c))
            #expect(again.canonicalJSON(softwareVersion: "9") == json, "\(name)")
        }
    }

    @Test("numbers and booleans are told apart by their JSON type (0 and 1 are numbers, never flags)")
    func numbersAndBooleans() throws {
        let dir = TemporaryDirectory()
        func load(_ text: String) throws -> AnalysisConfiguration {
            try AnalysisConfiguration(configurationFile: dir.write("c.json", text))
        }
        #expect(try load(#"{"motion": {"epoch_s": 1}}"#)[MotionFamily.self].epochSeconds == 1)
        #expect(try load(#"{"motion": {"calibrate": false}}"#)[MotionFamily.self].autoCalibrate == false)
        for (text, key, got) in [
            (#"{"motion": {"calibrate": 1}}"#, "motion.calibrate", "must be true or false, got 1"),
            (#"{"motion": {"calibrate": 0}}"#, "motion.calibrate", "must be true or false, got 0"),
            (#"{"motion": {"epoch_s": true}}"#, "motion.epoch_s", "must be a number, got true"),
            (#"{"motion": {"epoch_s": "5"}}"#, "motion.epoch_s", "must be a number, got 5"),
            (#"{"ecg": {"channel": [1]}}"#, "ecg.channel", "must be a number, true/false or text"),
            (#"{"decode": {"verify_integrity": 1}}"#, "decode.verify_integrity", "must be true or false, got 1"),
        ] {
            do {
                _ = try load(text)
                Issue.record("accepted \(text)")
            } catch let e as ConfigurationError {
                #expect(e.code == .wrongType, "\(text): \(e.code)")
                #expect(e.key == key, "\(text): \(e.key ?? "nil")")
                #expect(e.description.contains("'\(key)' \(got)"), "\(e)")
            }
        }
    }

    @Test("a bad configuration names the key, the code says what kind of problem")
    func errorCodes() throws {
        let dir = TemporaryDirectory()
        for (text, code, key) in [
            (#"{"ecg": {"hr_window": 3}}"#, ConfigurationError.Code.unknownKey, "ecg.hr_window"),
            (#"{"ecgs": {}}"#, .unknownKey, "ecgs"),
            (#"{"decode": {"x": 1}}"#, .unknownKey, "decode.x"),
            (#"{"ecg": {"heart_rate_window_s": -1}}"#, .invalidValue, "ecg.heart_rate_window_s"),
            (#"{"decode": {"preset": "nope"}}"#, .invalidValue, "decode.preset"),
            (#"{"ecg": [1]}"#, .wrongType, "ecg"),
        ] {
            do {
                _ = try AnalysisConfiguration(configurationFile: dir.write("c.json", text))
                Issue.record("accepted \(text)")
            } catch let e as ConfigurationError {
                #expect(e.code == code && e.key == key, "\(text): \(e.code) \(e.key ?? "nil") \(e)")
            }
        }
        do {
            _ = try AnalysisConfiguration(configurationFile: dir.write("c.json", "{\"ecg\": "))
        } catch let e as ConfigurationError {
            #expect(e.code == .syntax && e.key == nil)
        }
    }

    @Test("every family's options are Codable, keyed by their declared option keys")
    func familyOptionsCodable() throws {
        func roundTrip<F: AnalysisFamily>(_ family: F.Type, _ options: F.Options) throws where F.Options: Codable & Equatable {
            let data = try JSONEncoder().encode(options)
            let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
            #expect(object.keys.sorted() == F.options.map(\.key).sorted(), "\(F.name)")
            #expect(try JSONDecoder().decode(F.Options.self, from: data) == options, "\(F.name)")
            do {
                _ = try JSONDecoder().decode(F.Options.self, from: Data(#"{"no_such_option": 1}"#.utf8))
                Issue.record("\(F.name) accepted an unknown key")
            } catch let e as OptionValueError {
                #expect(e.code == .unknownKey && e.key == "\(F.name).no_such_option", "\(e)")
            }
        }
        let changed = try Self.everyOptionChanged(pick: { r, d in d == r.lowerBound ? r.upperBound : r.lowerBound }, text: "II")
        try roundTrip(ECGFamily.self, changed[ECGFamily.self])
        try roundTrip(PPGFamily.self, changed[PPGFamily.self])
        try roundTrip(MotionFamily.self, changed[MotionFamily.self])
        try roundTrip(FeaturesFamily.self, changed[FeaturesFamily.self])
        #expect(changed[ECGFamily.self] != ECGOptions() && changed[PPGFamily.self] != PPGOptions())
        #expect(changed[MotionFamily.self] != MotionOptions() && changed[FeaturesFamily.self] != FeaturesOptions())
    }

    @Test("configuration[Family.self] reads and writes every family's typed options")
    func typedConfiguration() {
        var c = AnalysisConfiguration()
        c[PPGFamily.self].hrvWindowSeconds = 120
        c[MotionFamily.self].autoCalibrate = false
        c[ECGFamily.self].channels = ["II"]
        c[FeaturesFamily.self].catalog = "none"
        #expect(c.values["ppg"]?["hrv_window_s"] == .number(120))
        #expect(c.values["motion"]?["calibrate"] == .flag(false))
        #expect(c.values["ecg"]?["channel"] == .choice("II"))
        #expect(c.values["features"]?["catalog"] == .choice("none"))
        #expect(c[PPGFamily.self].hrvWindowSeconds == 120 && c[ECGFamily.self].channels == ["II"])
    }

    @Test("runs.ndjson lines (JSONEncoder) are byte-identical to the JSONSerialization text of 0.3.0")
    func runLinesUnchanged() throws {
        func legacy(_ o: [String: Any]) throws -> String {
            String(decoding: try JSONSerialization.data(withJSONObject: o, options: [.sortedKeys]), as: UTF8.self)
        }
        func encoded(_ l: CSVBatchFolder.RunLine) throws -> String { String(decoding: try l.json(), as: UTF8.self) }
        let config = "{\"decode\":{\"preset\":\"auto\"},\"ecg\":{\"heart_rate_window_s\":10},\"software_version\":\"0.4.0\"}"
        for t in [1_765_012_345.678901, 1_765_012_345, 0.1, 1e-7] {
            let start = CSVBatchFolder.RunLine(
                event: "start", run: 3, time: t, software_version: "0.4.0", config_hash: "00ab12", config: config, label: "é / \"x\"")
            #expect(
                try encoded(start)
                    == legacy([
                        "event": "start", "run": Int64(3), "software_version": "0.4.0", "config_hash": "00ab12", "config": config,
                        "time": t, "label": "é / \"x\"",
                    ]))
            var unlabelled = start
            unlabelled.label = nil
            #expect(
                try encoded(unlabelled)
                    == legacy([
                        "event": "start", "run": Int64(3), "software_version": "0.4.0", "config_hash": "00ab12", "config": config,
                        "time": t,
                    ]))
            let end = CSVBatchFolder.RunLine(event: "end", run: 3, time: t, recordings_ok: 5, recordings_failed: 1, recordings_skipped: 0)
            #expect(
                try encoded(end)
                    == legacy([
                        "event": "end", "run": Int64(3), "recordings_ok": 5, "recordings_failed": 1, "recordings_skipped": 0, "time": t,
                    ]))
        }
    }

    @Test("RecordingAnalysis.Summary is Codable: a real run's summary survives JSON, and a newer schema is refused")
    func summaryCodable() throws {
        let path = Fixtures.repositoryRoot.appendingPathComponent("Datasets/ppg/phone-1_butppg_1716296400.ndjson.gz").path
        let summary = try RecordingAnalysis.run(path: path, analysis: AnalysisConfiguration(), sink: MemorySink())
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data = try encoder.encode(summary)
        let back = try JSONDecoder().decode(RecordingAnalysis.Summary.self, from: data)
        #expect(try encoder.encode(back) == data)
        #expect(back.streamKeys == summary.streamKeys && back.accounts == summary.accounts)
        #expect(back.rowsByTable == summary.rowsByTable && back.tables == summary.tables && back.files == summary.files)
        #expect(back.analysisIssues == summary.analysisIssues && back.recordingSummaries == summary.recordingSummaries)
        #expect(back.analysisRows.map(\.table) == summary.analysisRows.map(\.table))
        #expect(back.analysisRows.map(\.rows) == summary.analysisRows.map(\.rows))
        #expect(!summary.recordingSummaries.isEmpty && !summary.analysisRows.isEmpty)
        var object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(object["schemaVersion"] as? Int == RecordingAnalysis.Summary.schemaVersion)
        object["schemaVersion"] = RecordingAnalysis.Summary.schemaVersion + 1
        let newer = try JSONSerialization.data(withJSONObject: object)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(RecordingAnalysis.Summary.self, from: newer) }
    }

    @Test("run --json (JSONEncoder) is byte-identical to 0.3.0's JSONSerialization text (plus the later duplicates key)")
    func batchJSONUnchanged() {
        var s = BatchSummary()
        #expect(s.json == legacyBatchJSON(s))
        s.total = 7
        s.ok = 4
        s.failed = 2
        s.skipped = 1
        s.bytesTotal = 123_456_789
        s.bytesAnalysed = 98_765_432
        s.samplesRead = 1 << 40
        s.beats = 31_337
        s.signalSecondsBySensor = [.accelerometer: 21_600.123, .electrocardiogram: 90, .photoplethysmogram: 1e-3]
        s.analysedSecondsBySensor = [.electrocardiogram: 1.0 / 3.0]
        s.unanalysedStreams = 3
        s.elapsedSeconds = 12.345678901234
        s.failures = [("/data/p01/a.ndjson.gz", "/data/p01/a.ndjson.gz:3:7: syntax: \"bad\" é"), ("b", "x")]
        s.duplicates = [("/data/p02/copy.ndjson.gz", "/data/p01/a.ndjson.gz")]
        #expect(s.json == legacyBatchJSON(s), "\(s.json)\n\(legacyBatchJSON(s))")
    }
}

@Suite("Swift API: typed results, async decoding and batches")
struct TypedAccessTests {
    static func dataset(_ relative: String) -> String {
        Fixtures.repositoryRoot.appendingPathComponent("Datasets/\(relative)").path
    }

    @Test("results[Family.self] gives every family's rows typed; storage is Sendable without @unchecked")
    func typedResults() throws {
        requireSendable(RecordingResults.self)
        requireSendable(ResultRows.self)
        let ppg = try RecordingAnalysis.results(of: RecordingInput(path: Self.dataset("ppg/phone-1_butppg_1716296400.ndjson.gz")))
        let p = ppg[PPGFamily.self]
        #expect(!p.pulses.isEmpty && !p.quality.isEmpty && !p.streams.isEmpty)
        #expect(p.pulses.allSatisfy { $0.source == .ppg })
        // Every beats row the run counted is kept, typed: the pulses plus the other sources' beats.
        #expect(p.pulses.count + ppg.rows(BeatSeriesTables.beats).filter { $0.source != .ppg }.count == ppg.summary.beats)
        #expect(p.quality.count == ppg.summary.rowsByTable[PPGTables.quality.table.name])
        let f = ppg[FeaturesFamily.self]
        #expect(f.values.count == ppg.summary.rowsByTable[FeatureTables.features.table.name] ?? 0)
        #expect(f.windows.count == ppg.summary.rowsByTable[FeatureTables.windows.table.name] ?? 0)

        let acc = try RecordingAnalysis.results(
            of: RecordingInput(path: Self.dataset("accelerometer/oxford_user1_hand_1506421989895.ndjson.gz")))
        let m = acc[MotionFamily.self]
        #expect(!m.epochs.isEmpty)
        #expect(m.epochs.count == acc.summary.rowsByTable[MotionTables.epochs.table.name])
        #expect(m.streamSummaries.count == acc.summary.rowsByTable[MotionTables.streams.table.name])
        #expect(m.streams == acc.summary.streamSummaries.filter { $0.analyses.contains("motion") }.map(\.key.description))
        #expect(acc[ECGFamily.self].isEmpty && acc[PPGFamily.self].pulses.isEmpty)
    }

    @Test("issues carry their family and stream (no prefix matching)")
    func typedIssues() throws {
        var c = AnalysisConfiguration()
        c[ECGFamily.self].channels = ["no-such-lead"]
        let r = try RecordingAnalysis.results(
            of: RecordingInput(path: Self.dataset("ecg/watch-1_mitdb100_1716282000.ndjson.gz")), analysis: c)
        let issue = r.rows.issues.first { $0.family == ECGFamily.name }
        #expect(issue?.stream == nil)
        #expect(issue?.message.contains("'no-such-lead' matches no ECG stream") == true, "\(r.rows.issues)")
        #expect(r.summary.issues == r.rows.issues.map(\.description))
        #expect(r[ECGFamily.self].isEmpty)
    }

    @Test("RecordingEvents yields the decoder's events in order")
    func asyncEvents() async throws {
        let path = Self.dataset("ecg/watch-1_mitdb105_1716285600.ndjson.gz")
        var expected = [String]()
        let options = DecodeOptions(blockCapacity: 500) // many blocks
        let decoder = try RecordingOpener.open(path: path, options: options).decoder
        while let e = try decoder.next() { expected.append(Self.describe(e)) }
        var got = [String]()
        for try await e in RecordingEvents(path: path, options: options) { got.append(Self.describe(e)) }
        #expect(got == expected)
        #expect(expected.count > 20)
        // A second iteration of the same value reads the file again.
        var again = 0
        for try await _ in RecordingEvents(path: path, options: options) { again += 1 }
        #expect(again == expected.count)
        await #expect(throws: RecordingError.self) {
            for try await _ in RecordingEvents(path: "/nonexistent/x.ndjson") {}
        }
    }

    static func describe(_ e: RecordingEvent) -> String {
        switch e {
        case .device(let d): return "device \(d.id)"
        case .stream(let i, let info): return "stream \(i) \(info.key)"
        case .block(let b): return "block \(b.stream) \(b.count) \(b.count > 0 ? b.time(at: 0) : .nan)"
        case .deletion(let d): return "deletion \(d)"
        case .issue(let e): return "issue \(e)"
        case .annotation(let a): return "annotation \(a.onsetSeconds) \(a.text)"
        }
    }

    @Test("a cancelled task's RecordingEvents ends with CancellationError, not a short recording")
    func asyncEventsCancellation() async throws {
        let path = Self.dataset("ecg/watch-1_mitdb105_1716285600.ndjson.gz")
        let task = Task { () async throws -> Int in
            var n = 0
            for try await _ in RecordingEvents(path: path, options: DecodeOptions(blockCapacity: 500)) {
                n += 1
                if n == 3 { withUnsafeCurrentTask { $0?.cancel() } }
            }
            return n
        }
        let result = await task.result
        #expect(throws: CancellationError.self) { try result.get() }
    }

    static func ecgInputs() -> [RecordingInput] {
        ["watch-1_mitdb100_1716282000", "watch-1_mitdb105_1716285600", "watch-1_mitdb119_1716289200"].map {
            RecordingInput(path: dataset("ecg/\($0).ndjson.gz"))
        }
    }

    @Test("BatchRunner.start: progress as an AsyncStream, the summary awaited, the same store as the blocking run")
    func asyncBatch() async throws {
        let dir = TemporaryDirectory()
        let run = BatchRunner.start(
            inputs: Self.ecgInputs(), store: try BatchDatabase(path: dir.url.appendingPathComponent("a.sqlite").path),
            options: BatchOptions(jobs: 2))
        var done = [Int]()
        for await p in run.progress { done.append(p.done) }
        let summary = try await run.summary
        #expect(done == [1, 2, 3])
        #expect(summary.ok == 3 && summary.failed == 0)
        let blocking = try BatchRunner.run(
            inputs: Self.ecgInputs(), store: try BatchDatabase(path: dir.url.appendingPathComponent("b.sqlite").path),
            options: BatchOptions(jobs: 1))
        #expect(blocking.beats == summary.beats && blocking.samplesRead == summary.samplesRead)
    }

    @Test("a cancelled batch stops after the recording being stored, finishes cleanly and resumes")
    func asyncBatchCancellation() async throws {
        let dir = TemporaryDirectory()
        let path = dir.url.appendingPathComponent("c.sqlite").path
        let holder = RunHolder()
        let ready = DispatchSemaphore(value: 0)
        var options = BatchOptions(jobs: 1)
        // Inside the first recording's transaction: stop the batch (deterministically, before the
        // second recording is stored).
        options.beforeCommit = { _ in
            ready.wait()
            ready.signal()
            holder.run.withLock { $0?.cancel() }
        }
        let run = BatchRunner.start(inputs: Self.ecgInputs(), store: try BatchDatabase(path: path), options: options)
        holder.run.withLock { $0 = run }
        ready.signal()
        var progress = [Int]()
        for await p in run.progress { progress.append(p.done) }
        await #expect(throws: CancellationError.self) { _ = try await run.summary }
        #expect(progress == [1])
        // The stored recording stays stored; a rerun resumes from it.
        let rerun = try BatchRunner.run(inputs: Self.ecgInputs(), store: try BatchDatabase(path: path), options: BatchOptions(jobs: 1))
        #expect(rerun.skipped == 1 && rerun.ok == 2, "\(rerun.skipped) \(rerun.ok)")
    }

    @Test("cancelling the task that awaits the summary stops the batch")
    func awaitingTaskCancellation() async throws {
        let dir = TemporaryDirectory()
        let path = dir.url.appendingPathComponent("d.sqlite").path
        let inputs = Self.ecgInputs()
        let task = Task { () async throws -> BatchSummary in
            let run = BatchRunner.start(inputs: inputs, store: try BatchDatabase(path: path), options: BatchOptions(jobs: 1))
            withUnsafeCurrentTask { $0?.cancel() }
            return try await run.summary
        }
        let result = await task.result
        #expect(throws: CancellationError.self) { try result.get() }
        let rerun = try BatchRunner.run(inputs: inputs, store: try BatchDatabase(path: path), options: BatchOptions(jobs: 1))
        #expect(rerun.skipped + rerun.ok == 3 && rerun.skipped < 3)
    }
}

@Suite("Public error types")
struct PublicErrorTests {
    @Test("every public error type of the library modules has a code")
    func everyErrorHasACode() throws {
        let root = Fixtures.repositoryRoot.appendingPathComponent("Sources")
        let modules = ["DSP", "Signals", "Recordings", "Cardio", "Motion", "Features", "Pipeline", "Report", "SensorPipe"]
        var found = [String]()
        for module in modules {
            let base = root.appendingPathComponent(module)
            let files = FileManager.default.enumerator(atPath: base.path)?.allObjects as? [String] ?? []
            for file in files where file.hasSuffix(".swift") {
                let text = try String(contentsOf: base.appendingPathComponent(file), encoding: .utf8)
                let lines = text.components(separatedBy: "\n")
                for (i, line) in lines.enumerated() {
                    let t = line.trimmingCharacters(in: .whitespaces)
                    guard t.hasPrefix("public struct ") || t.hasPrefix("public enum ") || t.hasPrefix("public final class "),
                        let colon = t.firstIndex(of: ":"),
                        t[colon...].components(separatedBy: CharacterSet(charactersIn: ",{ ")).contains("Error")
                    else { continue }
                    let name = t.components(separatedBy: " ")[2].trimmingCharacters(in: CharacterSet(charactersIn: ":"))
                    found.append(name)
                    // The type's own members: lines indented one level deeper than its declaration.
                    let indent = String(line.prefix { $0 == " " }) + "    "
                    var hasCode = false
                    for member in lines[(i + 1)...] {
                        if member.hasPrefix(String(indent.dropLast(4)) + "}") { break }
                        let m = member.trimmingCharacters(in: .whitespaces)
                        if member.hasPrefix(indent) && !member.hasPrefix(indent + " ")
                            && (m.hasPrefix("public var code:") || m.hasPrefix("public let code:"))
                        {
                            hasCode = true
                        }
                    }
                    #expect(hasCode, "\(module)/\(file): \(name) has no public code")
                }
            }
        }
        // The enumeration sees the error types (it would pass vacuously otherwise).
        for name in [
            "RecordingError", "ConfigurationError", "OptionValueError", "BatchStoreError", "ManifestError",
            "LongTableError", "SpectralError", "HRVError", "ReportError", "SQLiteError", "IIRError",
        ] {
            #expect(found.contains(name), "\(name) not found by the scan: \(found)")
        }
    }
}

@Suite("Swift API: rows as JSON through their schema")
struct EncodableRowsTests {
    @Test("rows encode as objects keyed by column, with the values the table holds")
    func rowsAsJSON() throws {
        let schema = TableSchema<Streamed<Double?>>(
            name: "demo", summary: "demo",
            columns: [
                .init("stream", .text, "stream key") { .text($0.stream) },
                .init("value", .real, unit: "s", "value") { .finite($0.value) },
                .init("n", .integer, "count") { _ in .integer(3) },
            ])
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data = try encoder.encode(schema.encodable([Streamed(stream: "a", value: 1.5), Streamed(stream: "b", value: .nan)]))
        #expect(String(decoding: data, as: UTF8.self) == #"[{"n":3,"stream":"a","value":1.5},{"n":3,"stream":"b","value":null}]"#)
    }
}

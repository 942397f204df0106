import Foundation
import SensorPipe
import Testing
import _TestSupport

// The README's Swift snippets, verbatim (between the snippet markers): this file must compile,
// and a test checks that the README still holds exactly this code.

func readmeSnippet1() throws {
    // snippet:begin
    let results = try SensorPipe.analyze(path: "Datasets/ecg/watch-1_mitdb100_1716282000.ndjson.gz")
    for ecg in results[ECGFamily.self] { // one per ECG stream
        print(ecg.streamName, ecg.beats.count, ecg.meanHeartRateBPM ?? .nan, ecg.recordingHRV?.metrics[.rmssd] ?? .nan)
    }
    print(results[MotionFamily.self].epochs.count, results[PPGFamily.self].heartRate.count) // every family, typed
    for stream in results.summary.streamSummaries { // what analysed each stream
        print(stream.key, stream.timeOrigin, stream.analysisDescription)
    }
    let beats = results.rows(BeatSeriesTables.beats) // any table, typed by its schema
    print(beats.filter { $0.value.beat.isRemovedExtra }.count, "beats removed as extra")
    // snippet:end
}

func readmeSnippet2() throws {
    // snippet:begin
    let opened = try RecordingOpener.open(path: "Datasets/ecg/watch-1_mitdb105_1716285600.ndjson.gz")
    var ecg: [Int: ECGAnalyzer] = [:] // by stream index
    while let event = try opened.decoder.next() {
        switch event {
        case .stream(let index, let info) where info.key.sensor == .electrocardiogram:
            ecg[index] = ECGAnalyzer(streamName: info.key.description)
        case .block(let block): ecg[block.stream]?.consume(block)
        default: break
        }
    }
    for k in ecg.keys.sorted() {
        var analyzer = ecg[k]!
        let r = analyzer.finishResults() // beats, heartRate, hrv, quality
        print(r.beats.count, r.recordingHRV?.metrics[.sdnn] ?? .nan)
    }
    // snippet:end
}

func readmeSnippet3() throws {
    // snippet:begin
    let recordings = try RecordingDiscovery.recordings(["Datasets"]) // files, folders, manifests, groups
    let summary = try BatchRunner.run(
        inputs: recordings, store: try BatchDatabase(path: "results.sqlite"),
        options: BatchOptions(jobs: 2, label: "my-study-1"))
    print(summary.ok, summary.failed, summary.analysedSecondsBySensor) // also summary.json
    // snippet:end
}

func readmeSnippet4() async throws {
    // snippet:begin
    var configuration = try JSONDecoder().decode(AnalysisConfiguration.self, from: Data(#"{"ppg": {"hrv_window_s": 120}}"#.utf8))
    configuration[ECGFamily.self].qualityWindowSeconds = 5 // every family the same way
    var blocks = 0
    for try await event in RecordingEvents(path: "Datasets/ecg/watch-1_mitdb100_1716282000.ndjson.gz") {
        if case .block = event { blocks += 1 }
    }
    let run = BatchRunner.start(
        inputs: try RecordingDiscovery.recordings(["Datasets/ecg"]), store: try BatchDatabase(path: "ecg.sqlite"),
        options: BatchOptions(jobs: 2, analysis: configuration))
    for await progress in run.progress { print("\(progress.done)/\(progress.total)", progress.latest.path) }
    print(blocks, try await run.summary.ok) // cancelling the task stops the batch; stored recordings stay
    // snippet:end
}

@Suite("README snippets")
struct ReadmeSnippetTests {
    /// The snippets of a test file (this one by default), dedented by one level.
    static func snippets(in file: String = #filePath) throws -> [String] {
        let text = try String(contentsOf: URL(fileURLWithPath: file), encoding: .utf8)
        var out = [String]()
        var current: [String]?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasSuffix("// snippet:begin") { current = []; continue }
            if line.hasSuffix("// snippet:end"), let c = current { out.append(c.joined(separator: "\n")); current = nil; continue }
            current?.append(String(line.dropFirst(4)))
        }
        return out
    }

    @Test("the README's Swift code is the code compiled here")
    func readmeHoldsTheSnippets() throws {
        let readme = try String(contentsOf: Fixtures.repositoryRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let snippets = try Self.snippets()
        #expect(snippets.count == 4)
        for s in snippets { #expect(readme.contains(s), "README.md does not hold:\n\(s)") }
        // Every swift block of the README is one of them (after its `import SensorPipe` line).
        let blocks = readme.components(separatedBy: "```swift\n").dropFirst().map { $0.components(separatedBy: "\n```")[0] }
        for b in blocks {
            let code = b.replacingOccurrences(of: "import SensorPipe\n\n", with: "")
            #expect(snippets.contains(code), "README block not compiled by a test:\n\(code)")
        }
    }

    @Test("SensorPipe.analyze gives the ECG family's typed results for the demo session")
    func analyzeOneCall() throws {
        let path = Fixtures.repositoryRoot.appendingPathComponent("Datasets/ecg/watch-1_mitdb100_1716282000.ndjson.gz").path
        let results = try SensorPipe.analyze(path: path)
        #expect(results[ECGFamily.self].count == 1)
        #expect(results[ECGFamily.self][0].beats.count == 74) // demo-beats.json: 74 annotated beats in the first minute
        #expect(results.summary.streamSummaries.allSatisfy { $0.analyses == ["ecg", "waves", "rhythm"] })
        #expect(results.rows(BeatSeriesTables.beats).count == 74)
    }
}

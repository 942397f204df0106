import Foundation
import SensorPipe
import Testing
import _TestSupport

// docs/QUICKSTART.md's Swift snippets, verbatim (between the snippet markers): this file must
// compile, and a test checks that the page still holds exactly this code.

func quickstartECG() throws {
    // snippet:begin
    let ecgResults = try SensorPipe.analyze(path: "Datasets/ecg/watch-1_mitdb100_1716282000.ndjson.gz")
    for ecg in ecgResults.ecg {
        print(ecg.streamName, ecg.meanHeartRateBPM ?? .nan, ecg.recordingHRV?.metrics[.rmssd] ?? .nan)
    }
    // snippet:end
}

func quickstartPPG() throws {
    // snippet:begin
    let ppgResults = try SensorPipe.analyze(path: "Datasets/ppg/phone-1_butppg_1716296400.ndjson.gz")
    for row in ppgResults.rows(BeatSeriesTables.heartRate) where row.source == .ppg {
        print(row.stream, row.value.method.rawValue, row.value.startSeconds, row.value.heartRateBPM ?? .nan)
    }
    let unacceptable = ppgResults.rows(PPGTables.quality).filter { $0.value.label == .unacceptable }.count
    print(unacceptable, "PPG windows labelled unacceptable")
    // snippet:end
}

func quickstartMotion() throws {
    // snippet:begin
    let motionResults = try SensorPipe.analyze(path: "Datasets/accelerometer/oxford_user1_hand_1506421989895.ndjson.gz")
    for day in motionResults.rows(MotionTables.daily) {
        let active = (day.value.moderateSeconds + day.value.vigorousSeconds) / 60
        print(day.stream, day.value.day, day.value.steps, day.value.wearSeconds / 3600, active)
    }
    for night in motionResults.rows(MotionTables.nights) {
        print(night.stream, night.value.night, night.value.sptSeconds ?? .nan, night.value.note ?? "")
    }
    // snippet:end
}

@Suite("QUICKSTART snippets")
struct QuickstartSnippetTests {
    /// The `Package.swift` of docs/QUICKSTART.md, verbatim; resolved against this checkout below.
    static let manifest = """
        // swift-tools-version:6.0
        import PackageDescription

        let package = Package(
            name: "MyStudy",
            dependencies: [.package(path: "../SensorPipe")],
            targets: [.executableTarget(name: "MyStudy", dependencies: [.product(name: "SensorPipe", package: "SensorPipe")])]
        )
        """

    static let page = Fixtures.repositoryRoot.appendingPathComponent("docs/QUICKSTART.md")

    @Test("docs/QUICKSTART.md's Swift code is the code compiled here, and every Swift block is one of them")
    func pageHoldsTheSnippets() throws {
        let text = try String(contentsOf: Self.page, encoding: .utf8)
        let snippets = try ReadmeSnippetTests.snippets(in: #filePath)
        #expect(snippets.count == 3)
        for s in snippets { #expect(text.contains("```swift\n\(s)\n```"), "QUICKSTART.md does not hold:\n\(s)") }
        let blocks = text.components(separatedBy: "```swift\n").dropFirst().map { $0.components(separatedBy: "\n```")[0] }
        #expect(blocks.count == 4)
        for b in blocks { #expect(snippets.contains(b) || b == Self.manifest, "QUICKSTART block not checked by a test:\n\(b)") }
    }

    @Test(
        "the Package.swift lines resolve against this checkout and name its SensorPipe product",
        .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/env"), "no /usr/bin/env to find swift"))
    func manifestResolves() throws {
        let dir = TemporaryDirectory()
        let app = dir.url.appendingPathComponent("MyStudy")
        try FileManager.default.createDirectory(at: app.appendingPathComponent("Sources/MyStudy"), withIntermediateDirectories: true)
        try Self.manifest.write(to: app.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)
        try "import SensorPipe\n".write(to: app.appendingPathComponent("Sources/MyStudy/main.swift"), atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(
            at: dir.url.appendingPathComponent("SensorPipe"), withDestinationURL: Fixtures.repositoryRoot)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["swift", "package", "--package-path", app.path, "show-dependencies", "--format", "json"]
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        let message = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        #expect(p.terminationStatus == 0, "\(message)")
        let graph = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        let names = (graph?["dependencies"] as? [[String: Any]])?.compactMap { $0["name"] as? String }
        #expect(names == ["SensorPipe"], "\(String(decoding: data, as: UTF8.self))")
    }
}

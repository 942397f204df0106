import Foundation
import Testing
import _TestSupport

/// The line `analyze` and `run` print per recording names the rows each analysis wrote, so a
/// motion recording does not read as "0 beats" (nothing analysed) when its epochs were written.
@Suite struct ResultLineTests {
    @Test func accelerometerRecordingNamesItsMotionRows() throws {
        let dir = TemporaryDirectory()
        let input = Fixtures.repositoryRoot
            .appendingPathComponent("Datasets/accelerometer/oxford_user1_hand_1506421989895.ndjson.gz").path
        let a = try SensorPipeProcess.run(["analyze", input, "--out", dir.url.appendingPathComponent("a").path])
        #expect(a.status == 0, "\(a.stderr)")
        #expect(a.stdout.contains("stream(s); "), "\(a.stdout)")
        #expect(a.stdout.contains("motion_epochs "), "\(a.stdout)")
        #expect(!a.stdout.contains("beats"), "an accelerometer recording has no beat rows: \(a.stdout)")

        let folder = dir.url.appendingPathComponent("in")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: input, toPath: folder.appendingPathComponent("walk.ndjson.gz").path)
        // Not on a terminal: one line per recording on stderr.
        let r = try SensorPipeProcess.run(["run", folder.path, "--out", dir.url.appendingPathComponent("r.sqlite").path])
        #expect(r.status == 0, "\(r.stderr)")
        let line = r.stderr.split(separator: "\n").first { $0.hasPrefix("ok ") }
        #expect(line?.contains("motion_epochs ") == true, "\(r.stderr)")
        // The run summary's figures come from the families' declarations: motion's steps and wear.
        #expect(r.stdout.contains("motion: steps "), "\(r.stdout)")
        #expect(r.stdout.contains("wear_hours "), "\(r.stdout)")
    }
}

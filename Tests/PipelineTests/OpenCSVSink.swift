import Foundation
import Pipeline
import _TestSupport

/// A ``CSVResultSink`` writing into a folder not yet created inside a fresh temporary folder
/// (removed with this value: keep it alive to the end of the test), with recording `r` begun.
final class OpenCSVSink {
    let temporary = TemporaryDirectory()
    let directory: URL
    let sink: CSVResultSink

    init() throws {
        directory = temporary.url.appendingPathComponent("out")
        sink = try CSVResultSink(directory: directory)
        try sink.begin(recording: "r")
    }
}

// heart-rate-report: SensorPipe as a library. Opens a recording, lists its streams, runs the ECG
// analysis on every ECG stream and prints beats, mean heart rate, SDNN/RMSSD and the signal
// quality from the typed results.
//
//     swift run -c release heart-rate-report [RECORDING]
//
// RECORDING defaults to the demo ECG excerpt (MIT-BIH record 100, first minute); run from the
// repository root. Exit codes: 0 ok, 1 the recording could not be read, 64 usage error.

import Foundation
import SensorPipe

let usage = "USAGE: heart-rate-report [RECORDING]   (default: Datasets/ecg/watch-1_mitdb100_1716282000.ndjson.gz)"

func fail(_ message: String, code: Int32) -> Never {
    FileHandle.standardError.write(Data("heart-rate-report: \(message)\n".utf8))
    exit(code)
}

func format(_ x: Double?, _ digits: Int = 1) -> String {
    guard let x, x.isFinite else { return "n/a" }
    return String(format: "%.\(digits)f", x)
}

let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.contains("-h") || arguments.contains("--help") {
    print(usage)
    exit(0)
}
if arguments.count > 1 || arguments.first?.hasPrefix("-") == true { fail("usage error\n\(usage)", code: 64) }
let path = arguments.first ?? "Datasets/ecg/watch-1_mitdb100_1716282000.ndjson.gz"

// 1. Open the recording (format and layout detected from the content) and read its events.
let opened: RecordingOpener.Opened
do {
    opened = try RecordingOpener.open(path: path)
} catch {
    fail("\(error)", code: 1)
}
print("\(path) (\(opened.format))")

var analyzers: [Int: ECGAnalyzer] = [:] // ECG analyses by stream index
do {
    while let event = try opened.decoder.next() {
        switch event {
        case .stream(let index, let info): // the index every block of the stream carries
            let rate = info.nominalSampleRate.map { "\(format($0, $0 == $0.rounded() ? 0 : 3)) Hz" } ?? "irregular timestamps"
            print("  stream \(index): \(info.key.sensor), \(rate), \(info.key)")
            if info.key.sensor == .electrocardiogram {
                analyzers[index] = ECGAnalyzer(streamName: info.key.description)
            }
        case .block(let block):
            analyzers[block.stream]?.consume(block) // blocks of other sensors are skipped here
        case .issue(let issue):
            print("  warning: \(issue)")
        case .device, .deletion, .annotation:
            break
        }
    }
} catch {
    fail("\(error)", code: 1)
}
if analyzers.isEmpty { print("no ECG stream") }

// 2. Finish each ECG analysis and report from its typed results.
for index in analyzers.keys.sorted() {
    var analyzer = analyzers[index]!
    let results = analyzer.finishResults()
    let flagged = results.beats.count { $0.artefact != nil }
    let inserted = results.beats.count { $0.corrections.contains(.inserted) }
    let removed = results.beats.count { $0.isRemovedExtra }
    print("ECG \(results.streamName)")
    print(
        "  beats: \(results.beats.count - removed) (artefacts found at \(flagged); "
            + "correction inserted \(inserted), removed \(removed) detected as extra)")
    print("  mean heart rate: \(format(results.meanHeartRateBPM)) bpm")
    if let hrv = results.recordingHRV {
        print(
            "  HRV over \(hrv.intervalCount) NN intervals: SDNN \(format(hrv.metrics[.sdnn])) ms, "
                + "RMSSD \(format(hrv.metrics[.rmssd])) ms")
    } else {
        print("  HRV: fewer than two NN intervals")
    }
    let labels = ECGQualityLabel.allCases.map { label in
        "\(label) \(results.quality.count { $0.label == label })"
    }
    print("  quality (\(results.quality.count) windows): " + labels.joined(separator: ", "))
    for issue in results.issues { print("  issue: \(issue)") }
}

import Foundation
import Recordings
import _TestSupport

/// Everything a WFDB decode produced, concatenated per stream.
struct DecodedRecord {
    var streams: [StreamInfo] = []
    var values: [[Float]] = []
    var flags: [[UInt8]] = []
    /// (segment, firstSample, count, time of first sample, endsSegment) per block.
    var blocks: [[(segment: Int, first: Int, count: Int, start: Double, ends: Bool)]] = []
    var issues: [RecordingError] = []
    var devices: [DeviceInfo] = []
    var accounts: [StreamQC] = []
    var stats: [WFDBSignalStats] = []
    var error: RecordingError?
}

enum WFDBTest {
    static func fixture(_ name: String) -> String {
        Fixtures.url("RecordingsTests", "wfdb/records/\(name)").path
    }

    static func decode(
        _ path: String, blockCapacity: Int = 65_536, framesPerRead: Int = 16_380,
        sensor: @escaping (WFDBSignalSpec) -> SensorKind? = { _ in .electrocardiogram }
    )
        throws -> DecodedRecord
    {
        let d = try WFDBDecoder(
            path: path, blockCapacity: blockCapacity, framesPerRead: framesPerRead,
            sensor: sensor)
        var r = DecodedRecord()
        do {
            while let e = try d.next() {
                switch e {
                case .device(let dev): r.devices.append(dev)
                case .stream(_, let info):
                    r.streams.append(info)
                    r.values.append([])
                    r.flags.append([])
                    r.blocks.append([])
                case .block(let b):
                    r.values[b.stream] += b.columns[0]
                    r.flags[b.stream] += b.flags
                    r.blocks[b.stream].append((b.segment, b.firstSample, b.count, b.time(at: 0), b.endsSegment))
                case .issue(let i): r.issues.append(i)
                case .deletion, .annotation: break
                }
            }
        } catch {
            r.error = error
        }
        r.accounts = d.accounts
        r.stats = d.signalStats
        return r
    }

    /// Samples that differ (NaN equals NaN; otherwise bitwise-equal Floats).
    static func mismatches(_ a: [Float], _ b: [Float]) -> Int {
        guard a.count == b.count else { return max(a.count, b.count) }
        var n = 0
        for i in a.indices where !(a[i] == b[i] || (a[i].isNaN && b[i].isNaN)) { n += 1 }
        return n
    }

    /// Runs `xz -dk` on `source` copied into `directory`; `nil` when xz is unavailable.
    static func unxz(_ source: URL, into directory: URL) -> URL? {
        let target = directory.appendingPathComponent(source.lastPathComponent)
        try? FileManager.default.removeItem(at: target)
        try? FileManager.default.copyItem(at: source, to: target)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["xz", "-dk", "-f", target.path]
        do { try p.run() } catch { return nil }
        p.waitUntilExit()
        guard p.terminationStatus == 0 else { return nil }
        try? FileManager.default.removeItem(at: target)
        return target.deletingPathExtension()
    }

    static var xzAvailable: Bool {
        ["/usr/bin/xz", "/bin/xz", "/usr/local/bin/xz"].contains { FileManager.default.isExecutableFile(atPath: $0) }
    }
}

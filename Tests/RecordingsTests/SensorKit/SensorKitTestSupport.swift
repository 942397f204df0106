import Foundation
import Recordings
import Testing
import _TestSupport

/// One stream of a decoded file, its blocks concatenated.
struct DecodedStream {
    var info: StreamInfo
    var columns: [[Float]]
    var times: [Double] = []
    var flags: [UInt8] = []
    /// Segment number of each sample.
    var segments: [Int] = []
    var blocks = 0
}

/// Everything a decoder delivered for one file.
struct DecodedFile {
    var streams: [DecodedStream] = []
    var accounts: [StreamQC] = []
    var issues: [RecordingError] = []
    var deletions: [DeletionRecord] = []
    var devices: [DeviceInfo] = []
    var annotations: [RecordingAnnotation] = []
    /// Problems with the event protocol itself (blocks before announcements, bad block shapes).
    var protocolViolations: [String] = []

    func stream(_ key: String) -> DecodedStream? { streams.first { $0.info.key.description == key } }
    func account(_ key: String) -> StreamQC? {
        streams.firstIndex { $0.info.key.description == key }.map { accounts[$0] }
    }
}

enum SensorKitFixtures {
    static func path(_ name: String) -> String { Fixtures.url("RecordingsTests", "sensorkit/\(name)").path }
    static func badPath(_ name: String) -> String { Fixtures.url("RecordingsTests", "bad/sensorkit/\(name)").path }

    static func expected(_ relative: String) throws -> [String: Any] {
        try Fixtures.json("RecordingsTests", relative)
    }
}

/// Decodes `path` completely, checking the event protocol on the way.
func decodeAll(_ path: String, blockCapacity: Int = 65_536, duplicateWindow: Int = 131_072) throws -> DecodedFile {
    let decoder = try SensorKitDecoder(path: path, blockCapacity: blockCapacity, duplicateWindow: duplicateWindow)
    var out = DecodedFile()
    var announcedDevices = Set<String>()
    var lastFirstSample: [Int: (segment: Int, next: Int, ended: Bool)] = [:]
    while let event = try decoder.next() {
        switch event {
        case .device(let d):
            out.devices.append(d)
            announcedDevices.insert(d.id)
        case .stream(_, let info):
            if !announcedDevices.contains(info.key.deviceID) {
                out.protocolViolations.append("stream \(info.key) before its device")
            }
            out.streams.append(DecodedStream(info: info, columns: Array(repeating: [], count: info.columns.count)))
        case .block(let b):
            guard b.stream < out.streams.count else {
                out.protocolViolations.append("block of unannounced stream \(b.stream)")
                continue
            }
            if b.count == 0 || b.count > blockCapacity { out.protocolViolations.append("block size \(b.count)") }
            let prev = lastFirstSample[b.stream]
            if let prev, prev.segment == b.segment {
                if b.firstSample != prev.next || prev.ended { out.protocolViolations.append("block sequence in segment") }
            } else if b.firstSample != 0 || (prev != nil && (!prev!.ended || b.segment != prev!.segment + 1)) {
                out.protocolViolations.append("segment start")
            }
            lastFirstSample[b.stream] = (b.segment, b.firstSample + b.count, b.endsSegment)
            for c in 0..<b.columns.count { out.streams[b.stream].columns[c] += b.columns[c] }
            out.streams[b.stream].times += (0..<b.count).map { b.time(at: $0) }
            out.streams[b.stream].flags += b.flags
            out.streams[b.stream].segments += Array(repeating: b.segment, count: b.count)
            out.streams[b.stream].blocks += 1
        case .deletion(let r):
            out.deletions.append(r)
        case .issue(let e):
            out.issues.append(e)
        case .annotation(let a):
            out.annotations.append(a)
        }
    }
    for (k, s) in lastFirstSample where !s.ended { out.protocolViolations.append("stream \(k) last block not ending its segment") }
    out.accounts = decoder.accounts
    return out
}

/// Number of positions where two float arrays differ bitwise (NaN-safe), or −1 for a length mismatch.
func bitwiseMismatches(_ a: [Float], _ b: [Float]) -> Int {
    guard a.count == b.count else { return -1 }
    var n = 0
    for i in a.indices where a[i].bitPattern != b[i].bitPattern { n += 1 }
    return n
}

func bitwiseMismatches(_ a: [Double], _ b: [Double]) -> Int {
    guard a.count == b.count else { return -1 }
    var n = 0
    for i in a.indices where a[i].bitPattern != b[i].bitPattern { n += 1 }
    return n
}

func mismatches<T: Equatable>(_ a: [T], _ b: [T]) -> Int {
    guard a.count == b.count else { return -1 }
    var n = 0
    for i in a.indices where a[i] != b[i] { n += 1 }
    return n
}

/// Compares two decodings stream by stream: -> list of differences (empty when identical).
func differences(_ a: DecodedFile, _ b: DecodedFile, compareKeys: Bool = true) -> [String] {
    var out = [String]()
    guard a.streams.count == b.streams.count else { return ["stream count \(a.streams.count) vs \(b.streams.count)"] }
    for (x, y) in zip(a.streams, b.streams) {
        let name = x.info.key.description
        if compareKeys && x.info != y.info { out.append("\(name): stream info differs: \(x.info) vs \(y.info)") }
        for c in x.columns.indices where bitwiseMismatches(x.columns[c], y.columns[c]) != 0 {
            out.append("\(name): column \(c) differs in \(bitwiseMismatches(x.columns[c], y.columns[c])) samples")
        }
        if bitwiseMismatches(x.times, y.times) != 0 { out.append("\(name): times differ in \(bitwiseMismatches(x.times, y.times))") }
        if mismatches(x.flags, y.flags) != 0 { out.append("\(name): flags differ") }
        if mismatches(x.segments, y.segments) != 0 { out.append("\(name): segments differ") }
    }
    return out
}

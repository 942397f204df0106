import Foundation
import Recordings
import _TestSupport

/// One PhysioNet record's first channel and its reference beats, read with the Swift WFDB
/// decoder (`Recordings.WFDBDecoder`, `WFDBAnnotations`).
struct ECGRecord {
    var name: String
    var sampleRate: Double
    /// First channel, µV (NaN where missing).
    var samples: [Float]
    var flags: [UInt8]
    /// Decoder blocks' sizes (the natural chunking of a streaming run).
    var blockSizes: [Int]
    /// EC57 beat annotations (sample indices).
    var beats: [Int]
    /// Ventricular flutter/fibrillation episodes (`[` … `]`).
    var flutter: [ClosedRange<Int>]

    struct Failure: Error, CustomStringConvertible { var description: String }

    /// Where decompressed signal files are cached between runs.
    static let cache: URL = {
        let u = FileManager.default.temporaryDirectory.appendingPathComponent("sensorpipe-cardio-wfdb")
        try? FileManager.default.createDirectory(at: u, withIntermediateDirectories: true)
        return u
    }()

    static var xzAvailable: Bool { XZ.isAvailable }

    /// Reads `set/name` (e.g. `mitdb`, `100`) from `../shared/datasets`, signal `channel` (default 0;
    /// the decoder gives one stream per signal).
    static func load(set: String, name: String, channel: Int = 0) throws -> ECGRecord {
        guard let root = Fixtures.sharedDatasets else { throw Failure(description: "no ../shared/datasets") }
        let src = root.appendingPathComponent(set)
        let dir = cache.appendingPathComponent(set)
        try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let hea = dir.appendingPathComponent("\(name).hea")
        if !FileManager.default.fileExists(atPath: hea.path) {
            try FileManager.default.copyItem(at: src.appendingPathComponent("\(name).hea"), to: hea)
        }
        try XZ.unpack(src.appendingPathComponent("\(name).dat.xz"), to: dir.appendingPathComponent("\(name).dat"))
        let decoder = try WFDBDecoder(path: hea.path, sensor: { _ in .electrocardiogram })
        var samples = [Float](), flags = [UInt8](), sizes = [Int]()
        var rate = 0.0
        while let e = try decoder.next() {
            switch e {
            case .stream(_, let info):
                if rate == 0 { rate = info.nominalSampleRate ?? 0 }
            case .block(let b) where b.stream == channel: // one stream per signal
                samples += b.columns[0]
                flags += b.flags
                sizes.append(b.count)
            default: break
            }
        }
        let ann = try WFDBAnnotations(path: src.appendingPathComponent("\(name).atr").path)
        let beats = ann.annotations.filter { $0.code.isBeat }.map(\.sample)
        var episodes = [ClosedRange<Int>]()
        var open: Int?
        for a in ann.annotations {
            if a.code == .ventricularFlutterOnset { open = a.sample }
            if a.code == .ventricularFlutterEnd, let o = open { episodes.append(o...a.sample); open = nil }
        }
        if let o = open { episodes.append(o...samples.count) }
        return ECGRecord(
            name: name, sampleRate: rate, samples: samples, flags: flags, blockSizes: sizes,
            beats: beats, flutter: episodes)
    }
}

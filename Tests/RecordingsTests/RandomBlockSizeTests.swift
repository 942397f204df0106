import Foundation
import Recordings
import Testing
import _TestSupport

/// Decode-chunked equals decode-whole, for random block capacities, on a fixture of every format.
@Suite("Every decoder: random block capacities give the same samples, times, flags and segments")
struct RandomBlockSizeTests {
    struct Flat: Equatable {
        var bits: [[[UInt32]]] = [] // per stream, per column: Float bit patterns
        var times: [[UInt64]] = [] // per stream: Double bit patterns
        var flags: [[UInt8]] = []
        var segments: [[Int]] = [] // per stream: segment number of each sample
    }

    static func decode(_ path: String, capacity: Int, options: DecodeOptions = DecodeOptions()) throws -> Flat {
        var o = options
        o.blockCapacity = capacity
        let opened = try RecordingOpener.open(path: path, options: o)
        var f = Flat()
        while let e = try opened.decoder.next() {
            switch e {
            case .stream(_, let info):
                f.bits.append(Array(repeating: [], count: info.columns.count))
                f.times.append([])
                f.flags.append([])
                f.segments.append([])
            case .block(let b):
                #expect(b.count <= capacity)
                for c in b.columns.indices { f.bits[b.stream][c] += b.columns[c].map(\.bitPattern) }
                f.times[b.stream] += (0..<b.count).map { b.time(at: $0).bitPattern }
                f.flags[b.stream] += b.flags
                f.segments[b.stream] += Array(repeating: b.segment, count: b.count)
            default: break
            }
        }
        return f
    }

    static let root = Fixtures.repositoryRoot.appendingPathComponent("Tests/RecordingsTests/Fixtures")
    static let cases: [(String, DecodeOptions)] = [
        ("sensorkit/ecg.ndjson", DecodeOptions()),
        ("sensorkit/accelerometer.ndjson.gz", DecodeOptions()),
        ("sensorkit/ppg.ndjson", DecodeOptions()),
        ("sensorkit/mydatahelps-accelerometer.json.gz", DecodeOptions()),
        ("health/synthetic-english-quoted.csv", DecodeOptions()),
        ("wfdb/records/fmt212.hea", DecodeOptions()),
        ("wfdb/records/fmt16.hea", DecodeOptions()),
        ("csv/oxford-user1-neckpouch-first2000.csv", DecodeOptions(preset: .oxfordSteps)),
        ("matlab/scipy-compressed.mat", DecodeOptions(matlabMapping: ConvertRoundTripTests.fourRowMapping)),
        ("gt3x/example.gt3x", DecodeOptions()),
        ("butppg/myData-excerpt.csv", DecodeOptions()),
    ]

    @Test("random capacities (seeded)", arguments: cases.indices)
    func randomCapacities(index: Int) throws {
        let (file, options) = Self.cases[index]
        let path = Self.root.appendingPathComponent(file).path
        let whole = try Self.decode(path, capacity: 1 << 22, options: options)
        #expect(!whole.flags.isEmpty && whole.flags.allSatisfy { !$0.isEmpty }, "\(file) decoded no samples")
        var rng = SeededGenerator(seed: UInt64(1000 + index))
        for _ in 0..<4 {
            let capacity = Int.random(in: 1...5000, using: &rng)
            let parts = try Self.decode(path, capacity: capacity, options: options)
            let same = parts == whole
            #expect(same, "\(file): block capacity \(capacity) differs from whole-file decoding")
        }
    }
}

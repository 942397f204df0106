import Foundation
import Recordings
import Testing
import _TestSupport

/// `sensorpipe convert` rests on this: any readable input, written by `SensorKitWriter` and read
/// back, gives the same buffers (columns, times, flags, segments) stream by stream.
@Suite("Convert round trip: decode → SensorKit NDJSON → decode")
struct ConvertRoundTripTests {
    struct Decoded {
        var streams: [StreamInfo] = []
        var columns: [[[Float]]] = []
        var times: [[Double]] = []
        var flags: [[UInt8]] = []
        var segmentStarts: [[Int]] = []
        var deletions: [DeletionRecord] = []
    }

    func decode(
        _ path: String, options: DecodeOptions = DecodeOptions(),
        writeTo output: String? = nil
    ) throws -> Decoded {
        let opened = try RecordingOpener.open(path: path, options: options)
        let writer = try output.map { try SensorKitWriter(path: $0) }
        var d = Decoded()
        while let event = try opened.decoder.next() {
            try writer?.write(event)
            switch event {
            case .stream(_, let info):
                d.streams.append(info)
                d.columns.append(Array(repeating: [], count: info.columns.count))
                d.times.append([])
                d.flags.append([])
                d.segmentStarts.append([])
            case .block(let b):
                if b.firstSample == 0 { d.segmentStarts[b.stream].append(d.flags[b.stream].count) }
                for c in b.columns.indices { d.columns[b.stream][c] += b.columns[c] }
                d.times[b.stream] += (0..<b.count).map { b.time(at: $0) }
                d.flags[b.stream] += b.flags
            case .deletion(let r): d.deletions.append(r)
            case .device, .issue, .annotation: break
            }
        }
        try writer?.finish()
        return d
    }

    func roundTrip(_ path: String, options: DecodeOptions = DecodeOptions()) throws {
        let dir = TemporaryDirectory()
        let out = dir.url.appendingPathComponent("converted.ndjson.gz").path
        let a = try decode(path, options: options, writeTo: out)
        let b = try decode(out)
        #expect(a.streams.count == b.streams.count, "stream count for \(path)")
        guard a.streams.count == b.streams.count else { return }
        // Match streams by sensor and order of appearance within the sensor.
        for sensor in SensorKind.allCases {
            let ia = a.streams.indices.filter { a.streams[$0].key.sensor == sensor && !a.flags[$0].isEmpty }
            let ib = b.streams.indices.filter { b.streams[$0].key.sensor == sensor && !b.flags[$0].isEmpty }
            #expect(ia.count == ib.count, "\(sensor) streams in \(path)")
            for (x, y) in zip(ia, ib) {
                // Identity and metadata come back through the writer's stream lines.
                let (sa, sb) = (a.streams[x], b.streams[y])
                #expect(sb.key == sa.key, "\(path): stream \(sa.key) reads back as \(sb.key)")
                #expect(sb.timeOrigin == sa.timeOrigin, "\(path): time origin of \(sa.key)")
                #expect(sb.attributes == sa.attributes, "\(path): attributes of \(sa.key)")
                #expect(sb.nominalSampleRate == sa.nominalSampleRate, "\(path): nominal rate of \(sa.key)")
                // Bit patterns, so NaN (missing) samples compare equal to themselves.
                // A PPG column from another source comes back as a SensorKit optical channel, whose
                // four extra noise-term columns are then empty (NaN).
                let shared = min(a.columns[x].count, b.columns[y].count)
                let bitsA = a.columns[x].prefix(shared).map { $0.map(\.bitPattern) }
                let bitsB = b.columns[y].prefix(shared).map { $0.map(\.bitPattern) }
                #expect(b.columns[y].dropFirst(shared).allSatisfy { $0.allSatisfy(\.isNaN) })
                let differing = zip(bitsA, bitsB).reduce(0) { n, p in n + zip(p.0, p.1).filter { $0 != $1 }.count }
                #expect(
                    bitsA.map(\.count) == bitsB.map(\.count) && differing == 0,
                    "columns of \(a.streams[x].key) in \(path): \(differing) values differ")
                let flagDiffs = zip(a.flags[x], b.flags[y]).filter { $0 != $1 }.count
                #expect(
                    a.flags[x].count == b.flags[y].count && flagDiffs == 0,
                    "flags of \(a.streams[x].key): \(flagDiffs) differ")
                #expect(a.segmentStarts[x] == b.segmentStarts[y], "segments of \(a.streams[x].key)")
                let worst = zip(a.times[x], b.times[y]).map { abs($0 - $1) }.max() ?? 0
                #expect(
                    a.times[x].count == b.times[y].count && worst <= 1e-6,
                    "times of \(a.streams[x].key): worst difference \(worst) s")
            }
        }
        #expect(a.deletions == b.deletions)
    }

    /// `sig` (4 × 300) of the synthetic MAT fixture as one PPG row and a 3-axis accelerometer.
    static let fourRowMapping = MATLABChannelMapping(
        deviceID: "mat",
        streams: [
            .init(
                sensor: .photoplethysmogram, channel: "ppg",
                columns: [.init(.row(variable: "sig", index: 0), name: "ppg", unit: .adcUnits)], sampleRate: 125),
            .init(
                sensor: .accelerometer, channel: "acceleration",
                columns: (1...3).map {
                    .init(
                        .row(variable: "sig", index: $0), name: "xyz".map(String.init)[$0 - 1],
                        unit: .standardGravity)
                },
                sampleRate: 125),
        ])

    static let root = Fixtures.repositoryRoot.appendingPathComponent("Tests/RecordingsTests/Fixtures")

    @Test("demo recordings in Datasets/")
    func demoDatasets() throws {
        let dir = Fixtures.repositoryRoot.appendingPathComponent("Datasets")
        let files = FileManager.default.enumerator(atPath: dir.path)!.compactMap { $0 as? String }
            .filter { $0.hasSuffix(".ndjson.gz") }.sorted()
        #expect(files.count == 7)
        for f in files { try roundTrip(dir.appendingPathComponent(f).path) }
    }

    @Test("WFDB records")
    func wfdb() throws {
        let dir = Self.root.appendingPathComponent("wfdb/records")
        let heads = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasSuffix(".hea") }.sorted()
        #expect(heads.count >= 5)
        for h in heads { try roundTrip(dir.appendingPathComponent(h).path) }
    }

    @Test("Apple Health ECG, MATLAB and CSV fixtures")
    func others() throws {
        try roundTrip(Self.root.appendingPathComponent("health/synthetic-english-quoted.csv").path)
        try roundTrip(Self.root.appendingPathComponent("health/synthetic-unknown-keys.csv").path)
        try roundTrip(
            Self.root.appendingPathComponent("matlab/scipy-compressed.mat").path,
            options: DecodeOptions(matlabMapping: Self.fourRowMapping))
        try roundTrip(
            Self.root.appendingPathComponent("csv/oxford-user1-neckpouch-first2000.csv").path,
            options: DecodeOptions(preset: .oxfordSteps))
        try roundTrip(Self.root.appendingPathComponent("gt3x/example.gt3x").path)
        try roundTrip(Self.root.appendingPathComponent("gt3x/synthetic-zip64.gt3x").path)
    }

    @Test("BUT PPG: every record stays its own stream (session = record ID), counting from its start")
    func butPPG() throws {
        let path = Self.root.appendingPathComponent("butppg/myData-excerpt.csv").path
        try roundTrip(path)
        let dir = TemporaryDirectory()
        let out = dir.url.appendingPathComponent("b.ndjson").path
        let a = try decode(path, writeTo: out)
        let b = try decode(out)
        #expect(a.streams.count > 1 && b.streams.map(\.key) == a.streams.map(\.key))
        #expect(b.streams.allSatisfy { $0.timeOrigin == .streamStart })
    }

    @Test("a PPG stream with several columns from another source comes back as one stream per column, keyed channel/column")
    func multiColumnPPG() throws {
        let mapping = MATLABChannelMapping(
            deviceID: "mat",
            streams: [
                .init(
                    sensor: .photoplethysmogram, channel: "ppg",
                    columns: [
                        .init(.row(variable: "sig", index: 0), name: "ppg1", unit: .adcUnits),
                        .init(.row(variable: "sig", index: 1), name: "ppg2", unit: .adcUnits),
                    ], sampleRate: 125)
            ])
        let dir = TemporaryDirectory()
        let out = dir.url.appendingPathComponent("m.ndjson").path
        let a = try decode(
            Self.root.appendingPathComponent("matlab/scipy-plain.mat").path,
            options: DecodeOptions(matlabMapping: mapping), writeTo: out)
        let b = try decode(out)
        #expect(a.streams.map(\.key.description) == ["mat/photoplethysmogram/ppg"])
        #expect(b.streams.map(\.key.description) == ["mat/photoplethysmogram/ppg/ppg1", "mat/photoplethysmogram/ppg/ppg2"])
        #expect(b.streams.allSatisfy { $0.timeOrigin == .streamStart && $0.nominalSampleRate == 125 })
        #expect(b.columns.map { $0[0].map(\.bitPattern) } == a.columns[0].map { $0.map(\.bitPattern) })
    }
}

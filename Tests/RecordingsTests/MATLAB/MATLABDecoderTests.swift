import Foundation
import Recordings
import Testing
import _TestSupport

@Suite("MATLABDecoder: MAT-file Level 5")
struct MATLABDecoderTests {
    typealias Mapping = MATLABChannelMapping

    /// One stream per variable and orientation: every row as a column, and every column as a
    /// column, so both layouts and shared readers are exercised.
    static func fullMapping(_ variables: [String: [String: Any]]) -> Mapping {
        var streams = [Mapping.Stream]()
        for name in variables.keys.sorted() {
            let shape = variables[name]!["shape"] as! [Int]
            if shape.contains(0) { continue }
            streams.append(
                Mapping.Stream(
                    sensor: .accelerometer, channel: name + "/rows",
                    columns: (0..<shape[0]).map { Mapping.Column(.row(variable: name, index: $0), name: "r\($0)", unit: .dimensionless) },
                    sampleRate: 50, startUnix: 1_700_000_000))
            streams.append(
                Mapping.Stream(
                    sensor: .accelerometer, channel: name + "/columns",
                    columns: (0..<shape[1]).map {
                        Mapping.Column(.column(variable: name, index: $0), name: "c\($0)", unit: .dimensionless)
                    },
                    sampleRate: 7.5))
        }
        return Mapping(deviceID: "synthetic", streams: streams)
    }

    static func synthetic() throws -> [String: [String: [String: Any]]] {
        try Fixtures.json("RecordingsTests", "matlab/synthetic-expected.json") as! [String: [String: [String: Any]]]
    }

    static let syntheticFiles = [
        "scipy-plain.mat", "scipy-compressed.mat", "handmade-little-endian.mat",
        "handmade-big-endian.mat",
    ]

    @Test(
        "synthetic files: every numeric variable, by rows and by columns, equals scipy.io.loadmat",
        arguments: syntheticFiles)
    func synthetic(file: String) throws {
        let variables = try #require(try Self.synthetic()[file])
        let path = Fixtures.url("RecordingsTests", "matlab/\(file)").path
        let decoder = try MATLABDecoder(path: path, mapping: Self.fullMapping(variables))
        let c = try CollectedDecode.decode(decoder)
        #expect(c.problems.isEmpty, "\(c.problems)")
        #expect(c.devices.map(\.id) == ["synthetic"])
        var mismatches = 0, compared = 0, nanFlagged = 0
        for stream in c.streams {
            let name = String(stream.info.key.channel.split(separator: "/")[0])
            let byRows = stream.info.key.channel.hasSuffix("/rows")
            let shape = variables[name]!["shape"] as! [Int]
            let values = CollectedDecode.numbers(variables[name]!["columnMajor"])
            let (channels, samples) = byRows ? (shape[0], shape[1]) : (shape[1], shape[0])
            #expect(stream.columns.count == channels && stream.times.count == samples, "\(file) \(name)")
            guard stream.columns.count == channels && stream.times.count == samples else { continue }
            for ch in 0..<channels {
                for k in 0..<samples {
                    let want = byRows ? values[k * shape[0] + ch] : values[ch * shape[0] + k]
                    let got = stream.columns[ch][k]
                    compared += 1
                    if want.isNaN {
                        if !got.isNaN || stream.flags[k] & SampleFlags.missing.rawValue == 0 { mismatches += 1 }
                        nanFlagged += 1
                    } else if got != Float(want) {
                        mismatches += 1
                    }
                }
            }
            let rate = byRows ? 50.0 : 7.5
            let start = byRows ? 1_700_000_000.0 : 0
            #expect(abs(stream.times[samples - 1] - (start + Double(samples - 1) / rate)) < 1e-6)
        }
        #expect(compared > 0 && mismatches == 0, "\(file): \(mismatches) of \(compared) values differ")
        if file.hasPrefix("scipy") { #expect(nanFlagged == 6) } // 3 NaNs, seen by rows and by columns
    }

    @Test("big- and little-endian hand-made files decode to the same values")
    func byteOrders() throws {
        let mapping = Mapping(
            deviceID: "d",
            streams: [
                Mapping.Stream(
                    sensor: .accelerometer, channel: "x",
                    columns: (0..<3).map { Mapping.Column(.row(variable: "x", index: $0), name: "r\($0)", unit: .dimensionless) },
                    sampleRate: 1),
                Mapping.Stream(
                    sensor: .rotationRate, channel: "tiny",
                    columns: [Mapping.Column(.row(variable: "tiny", index: 0), name: "v", unit: .adcUnits)], sampleRate: 1),
            ])
        let le = try CollectedDecode.decode(
            try MATLABDecoder(
                path: Fixtures.url("RecordingsTests", "matlab/handmade-little-endian.mat").path, mapping: mapping))
        let be = try CollectedDecode.decode(
            try MATLABDecoder(
                path: Fixtures.url("RecordingsTests", "matlab/handmade-big-endian.mat").path, mapping: mapping))
        #expect(le.streams[0].columns[0] == [1, -2, 300, -4000, 5])
        #expect(le.streams[0].columns[2] == [-11, 12, 13, 14, -32768])
        #expect(le.streams[1].columns[0] == [3, 200, 17])
        #expect(be.streams.map(\.columns) == le.streams.map(\.columns))
    }

    @Test("decode-chunked equals decode-whole", arguments: ["scipy-compressed.mat", "handmade-big-endian.mat"])
    func chunked(file: String) throws {
        let variables = try #require(try Self.synthetic()[file])
        let path = Fixtures.url("RecordingsTests", "matlab/\(file)").path
        let mapping = Self.fullMapping(variables)
        let whole = try CollectedDecode.decode(try MATLABDecoder(path: path, mapping: mapping, blockCapacity: 65_536))
        for capacity in [1, 7, 1000] {
            let part = try CollectedDecode.decode(
                try MATLABDecoder(path: path, mapping: mapping, blockCapacity: capacity),
                blockCapacity: capacity)
            #expect(part.problems.isEmpty)
            #expect(CollectedDecode.differences(whole, part) == 0, "capacity \(capacity)")
        }
    }

    func error(_ file: String, _ source: Mapping.Source) -> RecordingError? {
        let mapping = Mapping(
            deviceID: "d",
            streams: [
                Mapping.Stream(
                    sensor: .accelerometer, channel: "a",
                    columns: [Mapping.Column(source, name: "v", unit: .dimensionless)], sampleRate: 1)
            ])
        do {
            _ = try CollectedDecode.decode(
                try MATLABDecoder(
                    path: Fixtures.url("RecordingsTests", "matlab/\(file)").path, mapping: mapping))
            return nil
        } catch {
            return error as? RecordingError
        }
    }

    @Test("unsupported or absent variables are clear errors")
    func unsupported() throws {
        let f = "scipy-compressed.mat"
        #expect(error(f, .row(variable: "text", index: 0))?.code == .wrongType)
        #expect(error(f, .row(variable: "text", index: 0))?.message.contains("'text' is a char array") == true)
        #expect(error(f, .row(variable: "st", index: 0))?.message.contains("struct") == true)
        #expect(error(f, .row(variable: "cplx", index: 0))?.message.contains("complex") == true)
        #expect(error(f, .row(variable: "cube", index: 0))?.message.contains("2×3×4") == true)
        #expect(error(f, .row(variable: "empty", index: 0))?.description.hasSuffix("empty: variable 'empty' is empty (3×0)") == true)
        let absent = error(f, .row(variable: "nope", index: 0))
        #expect(absent?.code == .missingField)
        #expect(absent?.message.contains("'sig' (4×300)") == true)
        let beyond = error(f, .row(variable: "sig", index: 4))
        #expect(beyond?.code == .outOfRange)
        #expect(beyond?.message == "row 5 of 'sig' requested, but 'sig' is 4×300")
        #expect(error(f, .column(variable: "sig", index: 299)) == nil)
        #expect(error(f, .column(variable: "sig", index: 300))?.code == .outOfRange)
    }

    @Test("columns of different lengths in one stream are inconsistent")
    func differentLengths() throws {
        let mapping = Mapping(
            deviceID: "d",
            streams: [
                Mapping.Stream(
                    sensor: .accelerometer, channel: "a",
                    columns: [
                        Mapping.Column(.row(variable: "sig", index: 0), name: "a", unit: .dimensionless),
                        Mapping.Column(.column(variable: "acc", index: 0), name: "b", unit: .dimensionless),
                    ],
                    sampleRate: 1)
            ])
        #expect(throws: RecordingError.self) {
            _ = try MATLABDecoder(path: Fixtures.url("RecordingsTests", "matlab/scipy-plain.mat").path, mapping: mapping)
        }
    }

    @Test("the bad-input corpus gives the expected errors")
    func badInputs() throws {
        let mapping = Mapping(
            deviceID: "d",
            streams: [
                Mapping.Stream(
                    sensor: .photoplethysmogram, channel: "ppg",
                    columns: [
                        Mapping.Column(.row(variable: "sig", index: 0), name: "a", unit: .adcUnits),
                        Mapping.Column(.row(variable: "sig", index: 1), name: "b", unit: .adcUnits),
                    ],
                    sampleRate: 125)
            ])
        try BadInputCorpus.check(folder: "matlab") { path in try MATLABDecoder(path: path, mapping: mapping) }
    }

    // MARK: - Real data (skipped when ../shared/datasets is absent)

    @Test(
        "IEEE SPC 2015: every file decodes as [ECG,] 2 PPG + 3-axis acc at 125 Hz, values as scipy",
        .enabled(if: Fixtures.sharedDatasets != nil))
    func spc2015() throws {
        let root = try #require(Fixtures.sharedDatasets).appendingPathComponent("spc2015")
        let expected = try Fixtures.json("RecordingsTests", "matlab/spc2015-expected.json")
        #expect(expected.count == 23)
        var checked = 0
        for (file, value) in expected.sorted(by: { $0.key < $1.key }) {
            let e = value as! [String: Any]
            let shape = e["shape"] as! [Int]
            let crc = (e["crc32"] as! [NSNumber]).map(\.uintValue)
            let first = CollectedDecode.numbers(e["first"]).map { Float($0) }
            let last = CollectedDecode.numbers(e["last"]).map { Float($0) }
            let withECG = shape[0] == 6
            let decoder = try MATLABDecoder(
                path: root.appendingPathComponent(file).path,
                mapping: .spc2015(includesECG: withECG))
            let c = try CollectedDecode.decode(decoder)
            #expect(c.problems.isEmpty, "\(file): \(c.problems)")
            let rows = c.streams.flatMap(\.columns) // in mapping order = row order
            #expect(rows.count == shape[0], "\(file)")
            #expect(c.streams.map(\.info.key.channel) == (withECG ? ["ecg", "ppg", "acceleration"] : ["ppg", "acceleration"]))
            #expect(c.streams.allSatisfy { $0.info.nominalSampleRate == 125 && $0.times.count == shape[1] }, "\(file)")
            #expect(c.streams.allSatisfy { $0.segments.last == 0 && $0.flags.allSatisfy { $0 == 0 } })
            #expect(c.accounts.allSatisfy { $0.samplesRead == shape[1] && $0.segments == 1 })
            for (r, row) in rows.enumerated() {
                #expect(row.first == first[r] && row.last == last[r], "\(file) row \(r + 1)")
                #expect(CollectedDecode.crc32(row) == crc[r], "\(file) row \(r + 1) checksum")
            }
            let acc = try #require(c.streams.last)
            #expect(acc.info.columns.map(\.unit) == [.standardGravity, .standardGravity, .standardGravity])
            #expect(abs(acc.times[shape[1] - 1] - Double(shape[1] - 1) / 125) < 1e-9)
            checked += 1
        }
        #expect(checked == 23)
    }

    @Test(
        "CPSC 2019: 10 records of 5000 samples at 500 Hz, values as scipy",
        .enabled(if: Fixtures.sharedDatasets != nil))
    func cpsc2019() throws {
        let root = try #require(Fixtures.sharedDatasets).appendingPathComponent("cpsc2019-sample")
        let expected = try Fixtures.json("RecordingsTests", "matlab/cpsc2019-expected.json")
        #expect(expected.count == 10)
        for (file, value) in expected {
            let e = value as! [String: Any]
            let decoder = try MATLABDecoder(path: root.appendingPathComponent(file).path, mapping: .cpsc2019())
            #expect(decoder.variableSummaries == ["ecg: double 5000×1"])
            let c = try CollectedDecode.decode(decoder)
            #expect(c.problems.isEmpty)
            let ecg = try #require(c.streams.first?.columns.first)
            #expect(ecg.count == 5000)
            #expect(ecg.first == Float(CollectedDecode.number(e["first"])) && ecg.last == Float(CollectedDecode.number(e["last"])))
            #expect(CollectedDecode.crc32(ecg) == (e["crc32"] as! NSNumber).uintValue, "\(file)")
            #expect(c.streams[0].info.columns[0].unit == .millivolts)
            #expect(c.streams[0].info.attributes["matlab.value"] == "ecg(:,1)")
        }
    }
}

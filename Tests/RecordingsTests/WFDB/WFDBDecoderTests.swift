import Foundation
import Recordings
import Testing
import _TestSupport

@Suite("WFDB decoder against wfdb-python")
struct WFDBDecoderTests {
    static let records = [
        "fmt8", "fmt16", "fmt24", "fmt32", "fmt61", "fmt80", "fmt160", "fmt212", "fmt310",
        "fmt311", "fmt310_tail2", "fmt311_tail1", "fmt212_single", "twofiles", "multifreq",
        "offsetskew",
    ]

    static func facts(_ name: String) throws -> [String: Any] {
        let all = try Fixtures.json("RecordingsTests", "wfdb/expected/records.json")
        return try #require(all[name] as? [String: Any])
    }

    @Test(
        "every format and layout decodes to wfdb-python's rdrecord values, sample for sample",
        arguments: records)
    func matchesReference(name: String) throws {
        let facts = try Self.facts(name)
        let r = try WFDBTest.decode(WFDBTest.fixture(name + ".hea"))
        #expect(r.error == nil)
        let units = try #require(facts["units"] as? [String])
        let spf = try #require(facts["samps_per_frame"] as? [Int])
        let fs = try #require(facts["fs"] as? Double)
        let length = try #require(facts["sig_len"] as? Int)
        let invalid = try #require(facts["invalid_count"] as? [Int])
        let start = facts["start_unix"] as? Double ?? 0
        #expect(r.streams.count == units.count)
        for k in units.indices {
            let reference = try Fixtures.doubles("RecordingsTests", "wfdb/expected/\(name)_s\(k).npy")
            let scale = units[k] == "mV" ? 1000.0 : 1.0
            let expected = reference.map { Float($0 * scale) }
            #expect(r.values[k].count == length * spf[k])
            #expect(WFDBTest.mismatches(r.values[k], expected) == 0, "signal \(k)")
            let flagged = r.flags[k].filter { $0 == SampleFlags.missing.rawValue }.count
            #expect(flagged == invalid[k])
            #expect(r.streams[k].columns[0].unit == .microvolts)
            #expect(r.streams[k].nominalSampleRate == fs * Double(spf[k]))
            let first = try #require(r.blocks[k].first)
            #expect(first.start == start)
            #expect(r.blocks[k].allSatisfy { $0.segment == 0 })
            let qc = r.accounts[k]
            #expect(qc.samplesRead == qc.samplesEmitted + qc.duplicatesDropped + qc.rejected)
            #expect(qc.samplesEmitted == length * spf[k] && qc.masked == invalid[k])
        }
        // Checksums and first values against the header wfdb-python wrote.
        let checksums = try #require(facts["checksum"] as? [Int])
        let initial = try #require(facts["init_value"] as? [Int])
        let fmt = try #require(facts["fmt"] as? [String])
        for (k, s) in r.stats.enumerated() {
            #expect(Int16(truncatingIfNeeded: s.checksum) == Int16(truncatingIfNeeded: checksums[k]))
            #expect(s.checksumMatches == true)
            if fmt[k] != "8" {
                #expect(s.firstValue == initial[k])
                #expect(s.firstValueMatches == true)
            }
        }
        #expect(r.issues.isEmpty, "\(r.issues)")
    }

    @Test(
        "decode-chunked equals decode-whole for every block capacity and read size",
        arguments: ["fmt212", "fmt310", "fmt311_tail1", "multifreq", "offsetskew", "twofiles", "fmt8"])
    func chunking(name: String) throws {
        let path = WFDBTest.fixture(name + ".hea")
        let whole = try WFDBTest.decode(path, blockCapacity: 65_536, framesPerRead: 1 << 20)
        for capacity in [1, 7, 1000, 65_536] {
            for perRead in [6, 30, 16_380] {
                let r = try WFDBTest.decode(path, blockCapacity: capacity, framesPerRead: perRead)
                for k in whole.values.indices {
                    #expect(WFDBTest.mismatches(r.values[k], whole.values[k]) == 0)
                    #expect(r.flags[k] == whole.flags[k])
                    #expect(r.blocks[k].allSatisfy { $0.count <= capacity && $0.segment == 0 })
                    #expect(r.blocks[k].last?.ends == true)
                    // Block start times are the grid times of their first samples.
                    let rate = try #require(whole.streams[k].nominalSampleRate)
                    let t0 = whole.blocks[k][0].start
                    #expect(r.blocks[k].allSatisfy { abs($0.start - (t0 + Double($0.first) / rate)) < 1e-9 })
                }
                #expect(r.stats == whole.stats)
            }
        }
    }

    @Test("a gzip-compressed signal file (X.dat.gz) decodes like the plain one")
    func gzipSignalFile() throws {
        let dir = TemporaryDirectory()
        let hea = try String(contentsOfFile: WFDBTest.fixture("fmt212.hea"), encoding: .utf8)
        let dat = try [UInt8](Data(contentsOf: URL(fileURLWithPath: WFDBTest.fixture("fmt212.dat"))))
        let path = dir.write("fmt212.hea", hea)
        _ = dir.write("fmt212.dat.gz", gzip(dat))
        let r = try WFDBTest.decode(path)
        let plain = try WFDBTest.decode(WFDBTest.fixture("fmt212.hea"))
        for k in plain.values.indices { #expect(WFDBTest.mismatches(r.values[k], plain.values[k]) == 0) }
        #expect(r.stats.allSatisfy { $0.checksumMatches == true })
    }

    @Test("the default classifier delivers ECG and PPG signals and reports the others")
    func defaultSensor() throws {
        let dir = TemporaryDirectory()
        let path = dir.write(
            "mixed.hea",
            """
            mixed 4 125 4 12:00:00 1/1/2000
            mixed.dat 16 200/mV 16 0 0 0 0 II
            mixed.dat 16 100/mmHg 16 0 0 0 0 ABP
            mixed.dat 16 1000/NU 16 0 0 0 0 PLETH
            mixed.dat 16 200/uV 16 0 0 0 0 EEG Fpz-Cz

            """)
        _ = dir.write("mixed.dat", [UInt8](repeating: 0, count: 4 * 4 * 2))
        let r = try WFDBTest.decode(path, sensor: WFDBDecoder.defaultSensor)
        #expect(r.streams.map(\.key.sensor) == [.electrocardiogram, .photoplethysmogram])
        #expect(r.streams.map(\.key.channel) == ["II", "PLETH"])
        #expect(r.streams.map { $0.columns[0].unit } == [.microvolts, .dimensionless])
        #expect(r.issues.count == 2)
        #expect(r.issues.allSatisfy { $0.code == .unsupported })
        #expect(r.devices.map(\.id) == ["mixed"])
        // 2000-01-01 12:00:00 UTC
        #expect(r.blocks[0].first?.start == 946_728_000)
        #expect(r.stats.map(\.samplesDecoded) == [4, 4, 4, 4])
    }

    @Test("WFDBFrameDecoder fed in pieces equals one call (format 212, three signals)")
    func frameDecoderPieces() throws {
        let header = try WFDBHeader.read(path: WFDBTest.fixture("fmt212.hea"))
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: WFDBTest.fixture("fmt212.dat"))))
        let frames = try #require(header.samplesPerSignal)
        func run(_ pieces: [Int]) -> [[Float]] {
            var d = WFDBFrameDecoder(signals: header.signals, checksumFrames: frames)
            var out = [[Float]](repeating: [], count: 3)
            var at = 0, byte = 0
            for n in pieces {
                let cols = (0..<3).map { _ in UnsafeMutableBufferPointer<Float>.allocate(capacity: n) }
                let fl = (0..<3).map { _ in UnsafeMutableBufferPointer<UInt8>.allocate(capacity: n) }
                defer { cols.forEach { $0.deallocate() }; fl.forEach { $0.deallocate() } }
                let count = d.byteCount(frames: n)
                bytes[byte..<byte + count].withUnsafeBytes { raw in
                    d.decode(raw, frames: n, into: cols, flags: fl)
                }
                for k in 0..<3 { out[k] += Array(cols[k]) }
                at += n
                byte += count
            }
            #expect(at == frames)
            #expect(
                d.checksums.map { Int16(truncatingIfNeeded: $0) }
                    == header.signals.map { Int16(truncatingIfNeeded: $0.checksum ?? 0) })
            return out
        }
        #expect(WFDBFrameDecoder(signals: header.signals).framesPerPacket == 2)
        let whole = run([frames])
        var rng = SeededGenerator(seed: 11)
        var pieces = rng.blockSizes(total: frames / 2, maxBlock: 40).map { $0 * 2 }
        pieces[pieces.count - 1] += frames - pieces.reduce(0, +)
        let split = run(pieces)
        for k in 0..<3 { #expect(WFDBTest.mismatches(split[k], whole[k]) == 0) }
    }
}

import Foundation
import Recordings
import Testing
import _TestSupport

/// Issue 15: crafted or corrupt files are clean, located errors; opt-outs and limits behave as
/// documented. (The per-format corpora in Fixtures/bad hold the reproducers; these are the cases
/// that need a temporary file or a non-default option.)
@Suite("Hardening: integrity opt-out, opener messages, record caps, Float range")
struct HardeningTests {
    static let bad = Fixtures.url("RecordingsTests", "bad")

    @Test("verifiesIntegrity = false turns a WFDB checksum, size or extra-line mismatch into an issue")
    func wfdbOptOut() throws {
        for name in ["bad-checksum.hea", "sample-count.hea", "extra-signal-lines.hea"] {
            let path = Self.bad.appendingPathComponent("wfdb/\(name)").path
            var options = DecodeOptions()
            options.verifiesIntegrity = false
            let opened = try RecordingOpener.open(path: path, options: options)
            let c = try CollectedDecode.decode(opened.decoder)
            #expect(c.issues.contains { $0.code == .inconsistent }, "\(name): \(c.issues)")
            #expect(c.accounts.first?.samplesRead == 100, "\(name)")
            // And by default the same record fails.
            #expect(throws: RecordingError.self, "\(name)") {
                _ = try CollectedDecode.decode(try RecordingOpener.open(path: path).decoder)
            }
        }
    }

    @Test("a WFDB checksum field of 0 (a writer that computed none, as CinC 2017) reads by default, with issues")
    func wfdbZeroChecksum() throws {
        let dir = TemporaryDirectory()
        // 100 samples 0…99 in format 16: they sum to 4950, the header says 0.
        var bytes = [UInt8]()
        for v in 0..<100 { bytes += [UInt8(v), 0] }
        _ = dir.write("z.dat", bytes)
        // (checksum, initial value, reads by default); the first sample is 0.
        for (checksum, initial, reads) in [(0, 0, true), (0, 7, true), (4951, 0, false), (4950, 0, true), (4950, 7, false)] {
            let name = "z\(checksum)_\(initial)"
            let path = dir.write("\(name).hea", "\(name) 1 100 100\nz.dat 16 200/mV 16 0 \(initial) \(checksum) 0 II\n")
            if reads {
                let c = try CollectedDecode.decode(try RecordingOpener.open(path: path).decoder)
                #expect(c.accounts.first?.samplesRead == 100)
                #expect(c.issues.contains { $0.description.contains("checksum of 0") } == (checksum == 0), "\(c.issues)")
                #expect(c.issues.contains { $0.description.contains("initial value") } == (initial != 0), "\(c.issues)")
            } else {
                // A real mismatch still fails by default.
                #expect(throws: RecordingError.self) { _ = try CollectedDecode.decode(try RecordingOpener.open(path: path).decoder) }
            }
        }
    }

    @Test("verifiesIntegrity = false turns a GT3X CRC-32 mismatch into an issue")
    func gt3xOptOut() throws {
        for name in ["crc-mismatch.gt3x", "info-crc-mismatch.gt3x"] {
            let path = Self.bad.appendingPathComponent("gt3x/\(name)").path
            let c = try CollectedDecode.decode(try GT3XDecoder(path: path, verifiesIntegrity: false))
            #expect(c.issues.contains { $0.description.contains("CRC-32") }, "\(name): \(c.issues)")
            #expect((c.accounts.first?.samplesEmitted ?? 0) > 0, "\(name)")
        }
    }

    @Test("a truncated MAT-file opened without a mapping says truncated, not 'unknown layout'")
    func truncatedMATWithoutMapping() throws {
        let path = Self.bad.appendingPathComponent("matlab/truncated-plain.mat").path
        #expect {
            _ = try RecordingOpener.open(path: path)
        } throws: { error in
            (error as? RecordingError)?.description == "\(path): byte 128: truncated: data element (miMATRIX) declares "
                + "208 bytes, but the file ends 64 bytes after its tag"
        }
    }

    @Test("Oxford step-counter CSVs with a BOM and CRLF are recognised (preset oxford-steps)")
    func oxfordCRLF() throws {
        let dir = TemporaryDirectory()
        let rows = (0..<5).map { "\(1_000_000_000 + $0 * 10_000_000),0.1,0.2,9.8,0,0,0" }
        let path = dir.write("walk_1_1520000000000.csv", Array("\u{FEFF}".utf8) + Array(rows.joined(separator: "\r\n").utf8))
        let opened = try RecordingOpener.open(path: path)
        #expect(opened.preset == .oxfordSteps)
        let c = try CollectedDecode.decode(opened.decoder)
        #expect(c.accounts.first?.samplesEmitted == 5 && c.issues.isEmpty, "\(c.issues)")
    }

    @Test("a quoted CSV field spanning lines is capped by the record's total size (64 MiB)")
    func csvRecordCap() throws {
        let dir = TemporaryDirectory()
        let line = String(repeating: "a", count: 40 << 20)
        let path = dir.write("long.csv", "time,x\n0,\"" + line + "\n" + line + "\n" + line + "\"\n")
        let mapping = CSVMapping(
            deviceID: "d", time: .column(.name("time"), unit: .seconds, origin: .unixEpoch),
            streams: [
                .init(
                    sensor: .accelerometer, channel: "a",
                    columns: [.init(.name("x"), name: "x", unit: .standardGravity)])
            ])
        #expect {
            _ = try CollectedDecode.decode(try CSVDecoder(path: path, mapping: mapping))
        } throws: { error in
            (error as? RecordingError)?.description
                == "\(path):2:3: syntax: quoted field makes the record longer than 64 MiB (lines 2–3; RFC 4180 §2.5)"
        }
    }

    @Test("an Apple Health ECG value beyond the Float range is rejected and counted, not ±inf")
    func healthBeyondFloat() throws {
        let dir = TemporaryDirectory()
        let path = dir.write(
            "ecg.csv",
            "Name,x\nDate of Birth,1980-01-01\nRecorded Date,2021-12-17 12:58:58 +0800\n"
                + "Classification,Sinus Rhythm\nSymptoms,\nSoftware Version,1.90\nDevice,Watch6\n"
                + "Sample Rate,512 hertz\n\nLead,Lead I\nUnit,µV\n\n1.5\n1e39\n2.5\n")
        let c = try CollectedDecode.decode(try AppleHealthECGDecoder(path: path))
        let qc = try #require(c.accounts.first)
        #expect(qc.samplesRead == 3 && qc.rejected == 1 && qc.samplesEmitted == 2)
        #expect(c.streams.first?.columns[0].allSatisfy(\.isFinite) == true)
    }

    @Test("sample rates outside 0.001 … 100000 Hz are refused where they are read")
    func rateRange() {
        #expect(InputLimits.sampleRateProblem(512) == nil)
        #expect(InputLimits.sampleRateProblem(1e-3) == nil && InputLimits.sampleRateProblem(1e5) == nil)
        #expect(InputLimits.sampleRateProblem(1e-300) == "1e-300 Hz is outside the accepted range 0.001 … 100000 Hz")
        #expect(InputLimits.sampleRateProblem(.nan) != nil && InputLimits.sampleRateProblem(.infinity) != nil)
        #expect(InputLimits.checkedInt(1e300) == nil && InputLimits.checkedInt(.nan) == nil)
        #expect(InputLimits.checkedInt(-12.7) == -12)
    }
}

@Suite("Hardening: ECG values beyond the Float range through convert")
struct FloatRangeConvertTests {
    @Test("masked on decoding, written as null by SensorKitWriter, masked again on re-reading")
    func roundTrip() throws {
        let input = Fixtures.url("RecordingsTests", "bad/sensorkit/ecg-beyond-float.ndjson").path
        func decode(_ path: String) throws -> (StreamQC, [Float]) {
            let c = try CollectedDecode.decode(try SensorKitDecoder(path: path))
            return (try #require(c.accounts.first), try #require(c.streams.first).columns[0])
        }
        let (first, values) = try decode(input)
        #expect(first.samplesEmitted == 4 && first.masked == 2 && first.rejected == 0)
        #expect(values.filter(\.isNaN).count == 2 && !values.contains { $0.isInfinite })
        let dir = TemporaryDirectory()
        let output = dir.url.appendingPathComponent("out.ndjson").path
        let writer = try SensorKitWriter(path: output, compress: false)
        let d = try SensorKitDecoder(path: input)
        while let e = try d.next() { try writer.write(e) }
        try writer.finish()
        let (second, again) = try decode(output)
        #expect(second.samplesEmitted == 4 && second.masked == 2)
        #expect(again.filter(\.isNaN).count == 2 && !again.contains { $0.isInfinite })
    }
}

/// Issue 33, class 1: times that are no clock reading are rejected where they are read, the
/// line named (``InputLimits/timeProblem(_:absolute:)``).
@Suite("Hardening round 3: time plausibility at decode")
struct TimePlausibilityTests {
    @Test("a sample dated 1e20 s is rejected at decode, its line named; the recording is analysed")
    func farTimeRejected() throws {
        let c = try CollectedDecode.decode(
            try SensorKitDecoder(path: Fixtures.url("PipelineTests", "hardening/acc-time-1e20.ndjson.gz").path))
        let qc = try #require(c.accounts.first)
        #expect(qc.rejected == 1 && qc.samplesEmitted == 6005, "\(qc)")
        // Line 62 is the one-sample line the generator writes after 60 lines of 50 samples (and the header).
        #expect(
            c.issues.map(\.description).contains {
                $0.contains("acc-time-1e20.ndjson.gz:62:") && $0.contains("outside 1970-01-01 … 2106-02-07")
            }, "\(c.issues)")
    }

    @Test("a CSV time outside the plausible range skips its row, naming line and column")
    func csvFarTime() throws {
        let dir = TemporaryDirectory()
        let path = dir.write("acc.csv", "time,x,y,z\n1716307300,0,0,1\n1e20,0,0,1\n1716307300.02,0,0,1\n-5,0,0,1\n")
        let mapping = CSVMapping(
            deviceID: "d", time: .column(.name("time"), unit: .seconds, origin: .unixEpoch),
            streams: [
                .init(
                    sensor: .accelerometer, channel: "a",
                    columns: [
                        .init(.name("x"), name: "x", unit: .standardGravity), .init(.name("y"), name: "y", unit: .standardGravity),
                        .init(.name("z"), name: "z", unit: .standardGravity),
                    ])
            ])
        let c = try CollectedDecode.decode(try CSVDecoder(path: path, mapping: mapping))
        #expect(c.accounts.first?.samplesEmitted == 2 && c.accounts.first?.rejected == 2, "\(c.accounts)")
        let text = c.issues.map(\.description)
        #expect(text.contains { $0.contains("acc.csv:3:1:") && $0.contains("time 1e+20 s is outside") }, "\(text)")
        #expect(text.contains { $0.contains("acc.csv:5:1:") && $0.contains("time -5.0 s is outside") }, "\(text)")
    }

    @Test("the plausible ranges: absolute 0 … 2^32 s, relative ±2^32 s; NaN and infinities never")
    func ranges() {
        #expect(InputLimits.timeProblem(1_716_307_300) == nil && InputLimits.timeProblem(0) == nil)
        #expect(InputLimits.timeProblem(-1) != nil && InputLimits.timeProblem(4_294_967_297) != nil)
        #expect(InputLimits.timeProblem(-1, absolute: false) == nil && InputLimits.timeProblem(-4_294_967_297, absolute: false) != nil)
        #expect(InputLimits.timeProblem(.nan) == "time is not a number" && InputLimits.timeProblem(.infinity) != nil)
    }
}

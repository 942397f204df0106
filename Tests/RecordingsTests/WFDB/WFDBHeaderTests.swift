import Recordings
import Testing
import _TestSupport

@Suite("WFDB header grammar (header(5))")
struct WFDBHeaderTests {
    func parse(_ text: String) throws -> WFDBHeader { try WFDBHeader(parsing: text, path: "t.hea") }

    func failure(_ text: String) -> String? {
        do {
            _ = try parse(text)
            return nil
        } catch {
            return String(describing: error)
        }
    }

    @Test("MIT-BIH record 100 with CRLF line endings and info comments")
    func mitdb100() throws {
        let h = try parse(
            "100 2 360 650000\r\n100.dat 212 200 11 1024 995 -22131 0 MLII\r\n"
                + "100.dat 212 200 11 1024 1011 20052 0 V5\r\n# 69 M 1085 1629 x1\r\n# Aldomet, Inderal\r\n")
        #expect(h.recordName == "100" && h.signalCount == 2 && h.samplingFrequency == 360)
        #expect(h.samplesPerSignal == 650_000 && h.segmentCount == nil && h.baseTimeSeconds == nil)
        let s = h.signals[0]
        #expect(s.fileName == "100.dat" && s.format == 212 && s.samplesPerFrame == 1 && s.skew == 0)
        #expect(s.adcGain == 200 && s.baseline == 1024 && !s.hasBaseline && s.units == "mV" && !s.hasUnits)
        #expect(s.adcResolution == 11 && s.adcZero == 1024 && s.initialValue == 995 && s.checksum == -22131)
        #expect(s.blockSize == 0 && s.description == "MLII" && s.line == 2)
        #expect(h.signals[1].description == "V5" && h.signals[1].checksum == 20052)
        #expect(h.comments == ["69 M 1085 1629 x1", "Aldomet, Inderal"])
        #expect(h.startUnixSeconds == nil)
    }

    @Test("counter frequency, base counter, base time with fraction, base date")
    func recordLineFields() throws {
        let h = try parse("rec 1 500/100(50) 1000 13:5:0.25 25/4/1989\nrec.dat 16\n")
        #expect(h.samplingFrequency == 500 && h.counterFrequency == 100 && h.baseCounterValue == 50)
        #expect(h.baseTimeSeconds == 47_100.25)
        #expect(h.baseDate == WFDBHeader.Date(day: 25, month: 4, year: 1989))
        // 1989-04-25T13:05:00.25Z
        #expect(h.startUnixSeconds == 609_512_700.25)
        let q = try parse(
            "sel100 2 250/360 225000\nsel100.dat 212 200(0) 11 1024 945 -13873 0 MLII\n"
                + "sel100.dat 212 200(0) 11 1024 955 14507 0 V5\n")
        #expect(q.samplingFrequency == 250 && q.counterFrequency == 360 && q.baseCounterValue == nil)
        #expect(q.signals[0].baseline == 0 && q.signals[0].hasBaseline && q.signals[0].adcZero == 1024)
        let z = try parse("x 1 360 10 0:0:0 0/0/0\nx.dat 16\n")
        #expect(z.baseTimeSeconds == 0 && z.baseDate == nil)
        let e = try parse("x 1 3.6e2\nx.dat 16\n")
        #expect(e.samplingFrequency == 360 && e.samplesPerSignal == nil)
    }

    @Test("defaults: no frequency → 250 Hz; no gain → uncalibrated, 200 adu/mV; no baseline → ADC zero")
    func defaults() throws {
        let h = try parse("bare 2\nbare.dat 16\n\n  # a comment between lines\nbare.dat 16 0 12 7\n")
        #expect(h.samplingFrequency == 250 && !h.hasSamplingFrequency)
        #expect(h.signals[0].adcGain == 0 && !h.signals[0].isCalibrated && h.signals[0].effectiveGain == 200)
        #expect(h.signals[0].units == "mV" && h.signals[0].baseline == 0 && h.signals[0].checksum == nil)
        #expect(h.signals[1].adcZero == 7 && h.signals[1].baseline == 7 && h.signals[1].initialValue == 7)
        #expect(!h.signals[1].hasInitialValue && h.signals[1].description == "")
        #expect(h.comments == ["a comment between lines"])
        #expect(try parse("empty 0\n").signals.isEmpty)
    }

    @Test("format modifiers, gain forms, tabs and a description with spaces")
    func signalLineFields() throws {
        let h = try parse(
            "r 3 1000\nr.dat\t16x4:3+512\t200(1024)/uV 12 0 -5 123 0 ECG lead  II \n"
                + "r.dat 16x2+512 400/mmHg 12\nq.dat 212 12.5(-3)\n")
        let a = h.signals[0]
        #expect(a.format == 16 && a.samplesPerFrame == 4 && a.skew == 3 && a.byteOffset == 512)
        #expect(a.adcGain == 200 && a.baseline == 1024 && a.units == "uV" && a.initialValue == -5)
        #expect(a.checksum == 123 && a.description == "ECG lead  II")
        #expect(h.signals[1].samplesPerFrame == 2 && h.signals[1].skew == 0 && h.signals[1].units == "mmHg")
        #expect(h.signals[2].adcGain == 12.5 && h.signals[2].baseline == -3)
        #expect(a.physicalValue(1224) == 1.0)
    }

    @Test("multi-segment headers are parsed (segments) and the decoder reports them unsupported")
    func multiSegment() throws {
        let h = try parse("multi/3 2 125 3000\nseg_0 0\nseg_1 1000\n~ 2000\n")
        #expect(h.segmentCount == 3 && h.signals.isEmpty)
        #expect(h.segments.map(\.recordName) == ["seg_0", "seg_1", "~"])
        #expect(h.segments.map(\.samplesPerSignal) == [0, 1000, 2000])
        let dir = TemporaryDirectory()
        let path = dir.write("multi.hea", "multi/3 2 125 3000\nseg_0 0\nseg_1 1000\n~ 2000\n")
        #expect(throws: RecordingError.self) { try WFDBDecoder(path: path) }
        do {
            _ = try WFDBDecoder(path: path)
        } catch {
            #expect(error.code == .unsupported && error.line == 1)
        }
    }

    @Test("malformed headers name the file, line and column")
    func errors() {
        #expect(failure("100 2 abc 650000\n") == "t.hea:1:7: wrong-type: sampling frequency 'abc' is not a number")
        #expect(failure("100 2 -360\n") == "t.hea:1:7: out-of-range: sampling frequency -360 is not positive")
        #expect(failure("100 x 360\n") == "t.hea:1:5: wrong-type: number of signals 'x' is not an integer")
        #expect(failure("10.0 1\n") == "t.hea:1:3: syntax: invalid character '.' in record name (letters, digits and '_' only)")
        #expect(
            failure("# only a comment\n")
                == "t.hea:1:1: missing-field: no record line: expected 'name signals [frequency [samples [time [date]]]]'")
        #expect(
            failure("r 2 360 10\nr.dat 16\n")
                == "t.hea:3:1: missing-field: expected 2 signal specification lines after the record line (line 1), found 1")
        #expect(failure("r 1\nr.dat 16 200(1024/mV\n") == "t.hea:2:21: syntax: signal 0: baseline: expected ')'")
        #expect(
            failure("r 1\nr.dat 16 2x0\n")
                == "t.hea:2:10: wrong-type: signal 0: ADC gain '2x0' is not a number (expected gain[(baseline)][/units], e.g. 200(1024)/mV)"
        )
        #expect(failure("r 1\nr.dat 16 200(x)\n") == "t.hea:2:14: wrong-type: signal 0: baseline 'x' is not an integer")
        #expect(
            failure("r 1\nr.dat 16 200(0)mV\n")
                == "t.hea:2:16: syntax: signal 0: unexpected 'm' after the ADC gain (expected gain[(baseline)][/units])")
        #expect(
            failure("r 1\nr.dat 999\n")
                == "t.hea:2:7: out-of-range: signal 0: storage format 999 is not a WFDB format (known: 0, 8, 16, 24, 32, 61, 80, 160, 212, 310, 311, 508, 516, 524)"
        )
        #expect(
            failure("r 1\nr.dat 16+4x2\n")
                == "t.hea:2:11: syntax: signal 0: unexpected 'x' in the format field (expected format[xSamplesPerFrame][:skew][+byteOffset])"
        )
        #expect(failure("r 1\nr.dat 16x0\n") == "t.hea:2:10: out-of-range: signal 0: samples per frame must be 1 to 100000, found 0")
        #expect(
            failure("r 1\nr.dat\n")
                == "t.hea:2:6: missing-field: signal 0: specification line ends before the storage format (expected 'file format [gain …]')"
        )
        #expect(failure("r 1\nr.dat 16 200 12 0 1.5\n") == "t.hea:2:19: wrong-type: signal 0: initial value '1.5' is not an integer")
        #expect(failure("r 1 360 10 25:00:00\nr.dat 16\n") == "t.hea:1:12: out-of-range: base time '25:00:00' is not a time of day")
        #expect(
            failure("r 1 360 10 1:00:00 2/13/2000\nr.dat 16\n") == "t.hea:1:20: out-of-range: base date '2/13/2000' is not a calendar date")
        #expect(failure("r 2\na.dat 16\nb.dat 212\n") == nil)
        #expect(
            failure("r 3\na.dat 16\nb.dat 16\na.dat 16\n")
                == "t.hea:4:1: inconsistent: signal 2 uses a.dat like signal 0, but signals sharing a file must be consecutive")
        #expect(
            failure("r 2\na.dat 16\na.dat 212\n")
                == "t.hea:3:1: inconsistent: signal 1 shares a.dat with signal 0 but has format 212 (signal 0: 16)")
    }

    @Test("a header read from disk (plain and gzip) equals the parsed text")
    func readFromDisk() throws {
        let dir = TemporaryDirectory()
        let text = "100 2 360 650000\r\n100.dat 212 200 11 1024 995 -22131 0 MLII\r\n100.dat 212 200 11 1024 1011 20052 0 V5\r\n"
        let plain = dir.write("100.hea", text)
        let gz = dir.write("101.hea.gz", gzip(Array(text.utf8)))
        var a = try WFDBHeader.read(path: plain)
        var b = try WFDBHeader.read(path: gz)
        let c = try WFDBHeader(parsing: text, path: plain)
        #expect(a == c)
        a.path = ""
        b.path = ""
        #expect(a == b)
    }
}

import Foundation
import Recordings
import Testing
import _TestSupport

/// What each format's streams say their times count from (``StreamInfo/timeOrigin``) and the
/// recording metadata each keeps under the shared ``StreamAttribute`` keys. Expected values are
/// read off the fixtures' headers (or computed with Python's `datetime`, as noted), never from
/// the decoders.
@Suite("Time origin and recording metadata, format by format")
struct TimeOriginAndMetadataTests {
    static func fixture(_ path: String) -> String { Fixtures.url("RecordingsTests", path).path }

    static func decode(_ path: String, _ options: DecodeOptions = DecodeOptions()) throws -> CollectedDecode {
        let opened = try RecordingOpener.open(path: path, options: options)
        let c = try CollectedDecode.decode(opened.decoder)
        // Deletion records (ecg.ndjson has one) are fine here; CollectedDecode only flags them.
        let problems = c.problems.filter { $0 != "unexpected deletion record" }
        #expect(problems.isEmpty, "\(path): \(problems)")
        return c
    }

    @Test("WFDB: stream_start without a base date, unix with base time and date")
    func wfdb() throws {
        let relative = try Self.decode(Self.fixture("wfdb/records/fmt16.hea")) // "fmt16 3 360 1001"
        #expect(relative.streams.count == 3)
        for s in relative.streams {
            #expect(s.info.timeOrigin == .streamStart, "\(s.info.key)")
            #expect(s.times.first == 0)
        }
        // "multifreq 3 360 600 13:05:00.25 25/04/1989"; Python:
        // datetime(1989, 4, 25, 13, 5, 0, 250000, tzinfo=timezone.utc).timestamp() == 609512700.25
        let absolute = try Self.decode(Self.fixture("wfdb/records/multifreq.hea"))
        #expect(!absolute.streams.isEmpty)
        for s in absolute.streams {
            #expect(s.info.timeOrigin == .unix, "\(s.info.key)")
            #expect(s.times.first == 609_512_700.25)
        }
    }

    @Test("SensorKit NDJSON and MyDataHelps: unix, device line → device_name, device_model, device_system")
    func sensorKit() throws {
        // ecg.ndjson line 2: {"type":"device",…,"name":"Apple Watch","model":"Watch","systemName":"watchOS",
        // "systemVersion":"10.4","productType":"Watch6,1"}
        let ndjson = try Self.decode(Self.fixture("sensorkit/ecg.ndjson"))
        #expect(!ndjson.streams.isEmpty)
        for s in ndjson.streams {
            #expect(s.info.timeOrigin == .unix)
            #expect(s.info.attributes[StreamAttribute.deviceName] == "Apple Watch")
            #expect(s.info.attributes[StreamAttribute.deviceModel] == "Watch6,1")
            #expect(s.info.attributes[StreamAttribute.deviceSystem] == "watchOS 10.4")
        }
        // MyDataHelps device object: "name": "iPhone", "model": "iPhone", "systemName": "iOS", "systemVersion": "17.5"
        let mdh = try Self.decode(Self.fixture("sensorkit/mydatahelps-accelerometer.json.gz"))
        let s = try #require(mdh.streams.first)
        #expect(s.info.timeOrigin == .unix)
        #expect(s.info.attributes[StreamAttribute.deviceModel] == "iPhone")
        #expect(s.info.attributes[StreamAttribute.deviceSystem] == "iOS 17.5")
    }

    @Test("Apple Health ECG CSV: unix; classification, symptoms, device, software version and UTC offset kept")
    func appleHealth() throws {
        let c = try Self.decode(Self.fixture("health/synthetic-english-quoted.csv"))
        let s = try #require(c.streams.first)
        #expect(s.info.timeOrigin == .unix)
        let a = s.info.attributes
        #expect(a[StreamAttribute.classification] == "Inconclusive")
        #expect(a[StreamAttribute.symptoms] == "Dizziness, \"light\" headache")
        #expect(a[StreamAttribute.deviceModel] == "Watch7,3")
        #expect(a[StreamAttribute.deviceSoftware] == "2.0")
        #expect(a[StreamAttribute.utcOffsetSeconds] == "-27000") // -0730
    }

    @Test(
        "Apple Health real exports (../shared/datasets/apple-watch-ecg): Apple's classification and +0800 kept",
        .enabled(if: Fixtures.sharedDatasets != nil, "../shared/datasets is absent: real Apple Health exports skipped"))
    func appleHealthReal() throws {
        let dir = try #require(Fixtures.sharedDatasets).appendingPathComponent("apple-watch-ecg")
        // Header lines of the six files ("Classification,…", "Recorded Date,… +0800").
        let expected = [
            "ecg_2021-12-17.csv": "Sinus Rhythm", "ecg_2023-07-04.csv": "Sinus Rhythm",
            "ecg_2023-09-26.csv": "Sinus Rhythm", "ecg_2023-09-28.csv": "Sinus Rhythm",
            "ecg_2023-10-03.csv": "Sinus Rhythm", "ecg_2024-01-24.csv": "Heart Rate Below 50",
        ]
        for (file, classification) in expected.sorted(by: { $0.key < $1.key }) {
            let c = try Self.decode(dir.appendingPathComponent(file).path)
            let a = try #require(c.streams.first).info.attributes
            #expect(a[StreamAttribute.classification] == classification, "\(file)")
            #expect(a[StreamAttribute.utcOffsetSeconds] == "28800", "\(file)")
            #expect(a[StreamAttribute.deviceModel] == "Watch5,1", "\(file)")
        }
    }

    @Test("GT3X: unix with TimeZone (offset kept), device_local without; serial, model, firmware kept")
    func gt3x() throws {
        // example.gt3x info.txt: Serial Number TAS1H52220588, Device Type Link, Firmware 1.7.2, TimeZone -05:00:00
        let withZone = try Self.decode(Self.fixture("gt3x/example.gt3x"))
        let s = try #require(withZone.streams.first)
        #expect(s.info.timeOrigin == .unix)
        #expect(s.info.attributes[StreamAttribute.utcOffsetSeconds] == "-18000")
        #expect(s.info.attributes[StreamAttribute.deviceSerial] == "TAS1H52220588")
        #expect(s.info.attributes[StreamAttribute.deviceModel] == "Link")
        #expect(s.info.attributes[StreamAttribute.deviceSoftware] == "1.7.2")
        // synthetic-zip64.gt3x: info.txt without a TimeZone line.
        let local = try Self.decode(Self.fixture("gt3x/synthetic-zip64.gt3x"))
        let l = try #require(local.streams.first)
        #expect(l.info.timeOrigin == .deviceLocal)
        #expect(l.info.attributes[StreamAttribute.utcOffsetSeconds] == nil)
    }

    @Test("MATLAB: stream_start unless the mapping gives a start time")
    func matlab() throws {
        func mapping(start: Double?) -> MATLABChannelMapping {
            MATLABChannelMapping(
                deviceID: "mat",
                streams: [
                    .init(
                        sensor: .accelerometer, channel: "acceleration",
                        columns: (0..<3).map {
                            .init(
                                .row(variable: "sig", index: $0), name: "xyz".map(String.init)[$0],
                                unit: .standardGravity)
                        },
                        sampleRate: 125, startUnix: start)
                ])
        }
        let path = Self.fixture("matlab/scipy-plain.mat")
        let relative = try Self.decode(path, DecodeOptions(matlabMapping: mapping(start: nil)))
        let r = try #require(relative.streams.first)
        #expect(r.info.timeOrigin == .streamStart && r.times.first == 0 && r.times[1] == 1 / 125.0)
        let absolute = try Self.decode(path, DecodeOptions(matlabMapping: mapping(start: 1_700_000_000)))
        let a = try #require(absolute.streams.first)
        #expect(a.info.timeOrigin == .unix && a.times.first == 1_700_000_000)
        // The CPSC 2019 preset: no clock in the file.
        #expect(RecordingPreset.cpsc2019.matlabMapping!.streams.allSatisfy { $0.startUnix == nil })
    }

    @Test(
        "CSV: unix for Unix and anchored clocks, stream_start for relative columns and rates without a start, device_local for local clocks"
    )
    func csv() throws {
        let dir = TemporaryDirectory()
        let uniformFile = Self.fixture("csv/synthetic-tab-uniform.csv")
        func uniform(_ start: Double?) -> CSVMapping {
            CSVMapping(
                deviceID: "phone", time: .sampleRate(30, startUnix: start),
                streams: [
                    .init(
                        sensor: .photoplethysmogram, channel: "ppg",
                        columns: [.init(.name("red"), name: "red", unit: .dimensionless)])
                ])
        }
        let noStart = try Self.decode(uniformFile, DecodeOptions(csvMapping: uniform(nil)))
        #expect(noStart.streams[0].info.timeOrigin == .streamStart && noStart.streams[0].times.first == 0)
        let withStart = try Self.decode(uniformFile, DecodeOptions(csvMapping: uniform(1_600_000_000)))
        #expect(withStart.streams[0].info.timeOrigin == .unix && withStart.streams[0].times.first == 1_600_000_000)

        let relativeFile = dir.write("relative.csv", "t,v\n0.5,1\n1.0,2\n1.5,3\n")
        func column(_ origin: CSVMapping.TimeOrigin) -> CSVMapping {
            CSVMapping(
                deviceID: "d", time: .column(.name("t"), unit: .seconds, origin: origin),
                streams: [
                    .init(
                        sensor: .accelerometer, channel: "acceleration",
                        columns: [.init(.name("v"), name: "x", unit: .standardGravity)])
                ])
        }
        let cases: [(CSVMapping.TimeOrigin, TimeOrigin, [Double])] = [
            (.recordingStart, .streamStart, [0.5, 1.0, 1.5]),
            (.sinceFirstSample, .streamStart, [0, 0.5, 1.0]),
            (.deviceLocalClock, .deviceLocal, [0.5, 1.0, 1.5]),
            (.unixEpoch, .unix, [0.5, 1.0, 1.5]),
            (.firstSampleAt(unixSeconds: 1_000), .unix, [1_000, 1_000.5, 1_001]),
        ]
        for (origin, want, times) in cases {
            let c = try Self.decode(relativeFile, DecodeOptions(csvMapping: column(origin)))
            #expect(c.streams[0].info.timeOrigin == want, "\(origin)")
            #expect(c.streams[0].times == times, "\(origin)")
        }

        // Presets: Oxford walks are anchored by the file name's Unix-ms stamp, else relative.
        let oxford = try String(contentsOfFile: Self.fixture("csv/oxford-user1-neckpouch-first2000.csv"), encoding: .utf8)
        let unstamped = try Self.decode(dir.write("walk.csv", oxford), DecodeOptions(preset: .oxfordSteps))
        #expect(unstamped.streams[0].info.timeOrigin == .streamStart && unstamped.streams[0].times.first == 0)
        let stamped = try Self.decode(dir.write("user1_1506421989895.csv", oxford), DecodeOptions(preset: .oxfordSteps))
        #expect(stamped.streams[0].info.timeOrigin == .unix && stamped.streams[0].times.first == 1_506_421_989.895)
        // ActiGraph raw CSV: "unix_time_s" on the device's local clock (../shared SOURCE.md: "Same
        // local-time convention" as the .gt3x).
        let raw = dir.write("raw.csv", "unix_time_s,x,y,z\n1686645240.00,0,0,256\n1686645240.01,0,0,256\n")
        let actigraph = try Self.decode(raw)
        #expect(actigraph.streams[0].info.timeOrigin == .deviceLocal && actigraph.streams[0].times.first == 1_686_645_240)
    }

    @Test("BUT PPG: every record counts from its start")
    func butPPG() throws {
        let c = try Self.decode(Self.fixture("butppg/myData-excerpt.csv"))
        #expect(!c.streams.isEmpty)
        for s in c.streams {
            #expect(s.info.timeOrigin == .streamStart, "\(s.info.key)")
            #expect(s.times.first == 0)
        }
    }

    @Test("StreamAttribute keys are unique snake_case names")
    func attributeKeys() {
        #expect(Set(StreamAttribute.allKeys).count == StreamAttribute.allKeys.count)
        #expect(StreamAttribute.allKeys.allSatisfy { $0.allSatisfy { $0.isLowercase || $0 == "_" } })
    }
}

import FuzzSupport
import Recordings

let mapping = CSVMapping(
    deviceID: "d", time: .column(.name("time"), unit: .seconds, origin: .unixEpoch),
    streams: [
        .init(
            sensor: .accelerometer, channel: "acceleration",
            columns: [
                .init(.name("x"), name: "x", unit: .standardGravity),
                .init(.name("y"), name: "y", unit: .standardGravity),
                .init(.name("z"), name: "z", unit: .standardGravity),
            ])
    ])

func fuzzCSV(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let path = FuzzSupport.write(FuzzSupport.buffer(data, size), name: "input.csv")
    FuzzSupport.drain { () throws(RecordingError) in try CSVDecoder(path: path, mapping: mapping, blockCapacity: 4096) }
    // Presets detected from content (Oxford steps, ActiGraph raw CSV).
    FuzzSupport.drain { () throws(RecordingError) in
        try RecordingOpener.open(path: path, options: DecodeOptions(blockCapacity: 4096, format: .csv)).decoder
    }
    return 0
}

@main
struct Main {
    static func main() { FuzzSupport.run(fuzzCSV) }
}

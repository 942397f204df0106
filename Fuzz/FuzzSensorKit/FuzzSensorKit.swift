import FuzzSupport
import Recordings

func fuzzSensorKit(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let path = FuzzSupport.write(FuzzSupport.buffer(data, size), name: "input.ndjson")
    FuzzSupport.drain { () throws(RecordingError) in
        try SensorKitDecoder(path: path, blockCapacity: 4096, duplicateWindow: 4096, format: .sensorKitNDJSON)
    }
    return 0
}

@main
struct Main {
    static func main() { FuzzSupport.run(fuzzSensorKit) }
}

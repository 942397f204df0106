import FuzzSupport
import Recordings

func fuzzMyDataHelps(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let path = FuzzSupport.write(FuzzSupport.buffer(data, size), name: "input.json")
    FuzzSupport.drain { () throws(RecordingError) in
        try SensorKitDecoder(path: path, blockCapacity: 4096, duplicateWindow: 4096, format: .myDataHelpsJSON)
    }
    return 0
}

@main
struct Main {
    static func main() { FuzzSupport.run(fuzzMyDataHelps) }
}

import FuzzSupport
import Recordings

func fuzzAppleHealth(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let path = FuzzSupport.write(FuzzSupport.buffer(data, size), name: "input.csv")
    FuzzSupport.drain { () throws(RecordingError) in try AppleHealthECGDecoder(path: path, blockCapacity: 4096) }
    return 0
}

@main
struct Main {
    static func main() { FuzzSupport.run(fuzzAppleHealth) }
}

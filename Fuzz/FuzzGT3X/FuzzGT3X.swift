import FuzzSupport
import Recordings

func fuzzGT3X(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let path = FuzzSupport.write(FuzzSupport.buffer(data, size), name: "input.gt3x")
    FuzzSupport.drain { () throws(RecordingError) in try GT3XDecoder(path: path, blockCapacity: 4096) }
    return 0
}

@main
struct Main {
    static func main() { FuzzSupport.run(fuzzGT3X) }
}

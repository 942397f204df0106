import FuzzSupport
import Recordings

/// Any content: sniffed, opened and decoded as whatever it looks like (gzip and xz included).
func fuzzOpener(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let path = FuzzSupport.write(FuzzSupport.buffer(data, size), name: "input")
    FuzzSupport.drain { () throws(RecordingError) in
        try RecordingOpener.open(path: path, options: DecodeOptions(blockCapacity: 4096)).decoder
    }
    return 0
}

@main
struct Main {
    static func main() { FuzzSupport.run(fuzzOpener) }
}

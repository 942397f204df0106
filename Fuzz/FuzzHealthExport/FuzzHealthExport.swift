import FuzzSupport
import Recordings

/// The export.xml tokenizer and decoder (``AppleHealthExportDecoder``), in memory: the first byte
/// picks the read size (1…256 bytes), so tokens split across reads at every place.
func fuzzHealthExport(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = Array(FuzzSupport.buffer(data, size))
    let chunk = 1 + Int(bytes.first ?? 0)
    FuzzSupport.drain { () throws(RecordingError) in
        AppleHealthExportDecoder(bytes: Array(bytes.dropFirst()), blockCapacity: 64, chunkSize: chunk)
    }
    return 0
}

@main
struct Main {
    static func main() { FuzzSupport.run(fuzzHealthExport) }
}

import FuzzSupport
import Recordings

/// Input: a header, a NUL byte, then the bytes of the signal file `f.dat` (the header may name
/// any file; names other than f.dat are simply missing). Without a NUL the whole input is the header.
func fuzzWFDB(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let all = FuzzSupport.buffer(data, size)
    let split = all.firstIndex(of: 0) ?? all.count
    let header = FuzzSupport.write(UnsafeRawBufferPointer(rebasing: all[0..<split]), name: "r.hea")
    FuzzSupport.write(UnsafeRawBufferPointer(rebasing: all[min(split + 1, all.count)...]), name: "f.dat")
    FuzzSupport.drain { () throws(RecordingError) in
        try WFDBDecoder(path: header, blockCapacity: 4096, framesPerRead: 600, sensor: { _ in .electrocardiogram })
    }
    FuzzSupport.drain { () throws(RecordingError) in
        try WFDBDecoder(path: header, blockCapacity: 4096, sensor: { _ in .electrocardiogram }, verifiesIntegrity: false)
    }
    _ = try? WFDBAnnotations(bytes: Array(all), path: "input.atr")
    return 0
}

@main
struct Main {
    static func main() { FuzzSupport.run(fuzzWFDB) }
}

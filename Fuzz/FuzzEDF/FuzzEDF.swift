import FuzzSupport
import Recordings

/// Input: the bytes of an EDF/BDF file. Decoded with every signal delivered (physical and digital
/// values) and with the label rules, verifying and not.
func fuzzEDF(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let path = FuzzSupport.write(FuzzSupport.buffer(data, size), name: "f.edf")
    FuzzSupport.drain { () throws(RecordingError) in
        try EDFDecoder(path: path, blockCapacity: 4096, sensor: { _ in .photoplethysmogram })
    }
    FuzzSupport.drain { () throws(RecordingError) in
        try EDFDecoder(path: path, blockCapacity: 4096, verifiesIntegrity: false, digital: true)
    }
    return 0
}

@main
struct Main {
    static func main() { FuzzSupport.run(fuzzEDF) }
}

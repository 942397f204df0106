import FuzzSupport
import Recordings

func fuzzMATLAB(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let path = FuzzSupport.write(FuzzSupport.buffer(data, size), name: "input.mat")
    for mapping in [MATLABChannelMapping.spc2015(includesECG: false), .cpsc2019()] {
        FuzzSupport.drain { () throws(RecordingError) in try MATLABDecoder(path: path, mapping: mapping, blockCapacity: 4096) }
    }
    FuzzSupport.drain { () throws(RecordingError) in
        try RecordingOpener.open(path: path, options: DecodeOptions(blockCapacity: 4096, format: .matlab)).decoder
    }
    return 0
}

@main
struct Main {
    static func main() { FuzzSupport.run(fuzzMATLAB) }
}

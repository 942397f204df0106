import FuzzSupport
import Pipeline

/// A batch manifest and an analysis configuration file, parsed from the same bytes.
func fuzzManifest(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = FuzzSupport.buffer(data, size)
    let manifest = FuzzSupport.write(bytes, name: "batch.manifest")
    _ = try? RecordingDiscovery.expand([manifest])
    let config = FuzzSupport.write(bytes, name: "analysis.json")
    _ = try? AnalysisConfiguration(configurationFile: config)
    return 0
}

@main
struct Main {
    static func main() { FuzzSupport.run(fuzzManifest) }
}

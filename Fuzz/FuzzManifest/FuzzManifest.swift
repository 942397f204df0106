import FuzzSupport
import Pipeline

/// A batch manifest and an analysis configuration file, parsed from the same bytes. In the
/// manifest every '/' becomes '_', so that listed folders stay inside the scratch folder (a
/// manifest listing "/" would otherwise scan the whole file system: slow, not wrong).
func fuzzManifest(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = FuzzSupport.buffer(data, size)
    let local = bytes.map { $0 == 0x2F ? 0x5F : $0 }
    let manifest = local.withUnsafeBytes { FuzzSupport.write($0, name: "batch.manifest") }
    _ = try? RecordingDiscovery.expand([manifest])
    let config = FuzzSupport.write(bytes, name: "analysis.json")
    _ = try? AnalysisConfiguration(configurationFile: config)
    return 0
}

@main
struct Main {
    static func main() { FuzzSupport.run(fuzzManifest) }
}

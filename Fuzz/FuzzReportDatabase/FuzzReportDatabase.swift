import FuzzSupport
import Report

#if canImport(Glibc)
    import Glibc
#endif

/// Any bytes as a results database (issue 33): `sensorpipe report` must give its pages or a clean
/// ``ReportError`` for whatever the file holds (seeded with real databases and the crafted ones of
/// `Tests/PipelineTests/Fixtures/crafted/report`); a trap, hang or allocation beyond the limits
/// is a finding.
func fuzzReportDatabase(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let path = FuzzSupport.write(FuzzSupport.buffer(data, size), name: "results.sqlite")
    for suffix in ["-wal", "-shm", "-journal"] { unlink(path + suffix) }
    _ = try? Report.write(database: path, to: FuzzSupport.folder + "/report")
    return 0
}

@main
struct Main {
    static func main() { FuzzSupport.run(fuzzReportDatabase) }
}

import FuzzSupport
import Pipeline

#if canImport(Glibc)
    import Glibc
#endif

/// Any bytes as a shard of `sensorpipe merge` (issue 33): merged into a fresh target, refused with
/// the shard named, or merged; never a trap or a hang. A merge that succeeds must leave no
/// trigger or view in the target (merge never runs SQL read from an input).
func fuzzMerge(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let shard = FuzzSupport.write(FuzzSupport.buffer(data, size), name: "shard.sqlite")
    let target = FuzzSupport.folder + "/merged.sqlite"
    for p in [shard + "-wal", shard + "-shm", shard + "-journal", target, target + "-wal", target + "-shm"] { unlink(p) }
    do {
        _ = try ShardMerge.merge(shards: [shard], into: target)
    } catch {
        precondition("\(error)".contains(shard), "an error that does not name the shard: \(error)")
    }
    return 0
}

@main
struct Main {
    static func main() { FuzzSupport.run(fuzzMerge) }
}

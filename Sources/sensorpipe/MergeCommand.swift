import Foundation
import Pipeline

/// `sensorpipe merge`: shard databases → one database.
enum MergeCommand {
    static let usage = """
        USAGE: sensorpipe merge SHARD.sqlite… --out FILE

        Combines the databases written by `sensorpipe run --shard K/N` jobs into one (created if
        needed): runs, recordings, streams and every result table, ids renumbered so rows keep their
        recording. Recordings the target already holds (same path, content hash, configuration and
        status) are not copied twice. Each shard is merged in one transaction.

        OPTIONS:
          --out FILE      the merged database
          -h, --help      show this help
        """

    static func run(_ args: [String]) -> Int32 {
        var shards = [String]()
        var out: String?
        var cursor = ArgumentCursor(args, usage: usage)
        while let a = cursor.next() {
            switch a {
            case "--out": out = cursor.value(a, "a FILE")
            case "-h", "--help":
                print(usage)
                return 0
            default:
                if a.hasPrefix("-") { CLI.usageError("unknown option '\(a)'", usage: usage) }
                shards.append(a)
            }
        }
        guard let out else { CLI.usageError("--out FILE is required", usage: usage) }
        guard !shards.isEmpty else { CLI.usageError("no SHARD database given", usage: usage) }
        for s in shards where !FileManager.default.fileExists(atPath: s) {
            CLI.error("\(s): no such file")
            return 1
        }
        do {
            let summary = try ShardMerge.merge(shards: shards, into: out)
            print(
                "\(shards.count) shard(s) → \(out): \(summary.recordings) recording(s) merged, "
                    + "\(summary.duplicates) already present")
            return 0
        } catch {
            CLI.error("\(error)")
            return 1
        }
    }
}

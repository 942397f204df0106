import Foundation
import Pipeline

/// `sensorpipe merge`: shard databases → one database.
enum MergeCommand {
    static let spec = CommandSpec(
        name: "merge", summary: "combine the databases of sharded runs",
        synopsis: "merge SHARD.sqlite… --out FILE [--allow-mixed-config]",
        about: """
            Combines the databases written by `sensorpipe run --shard K/N` jobs into one (created if
            needed): runs, recordings, streams and every result table, ids renumbered so rows keep their
            recording. Recordings the target already holds (same path, content hash, configuration and
            status) are not copied twice. Shards whose runs used different configurations are refused
            unless --allow-mixed-config is given. The merge is written to a temporary file that
            replaces FILE only when every shard is in, so a failed merge leaves FILE as it was.
            """,
        options: [
            OptionSpec("--out", value: .file("FILE"), help: "the merged database"),
            OptionSpec("--allow-mixed-config", help: "merge shards analysed with different configurations"),
        ])
    static let usage = spec.usage

    static func run(_ args: [String]) -> Int32 {
        var shards = [String]()
        var out: String?
        var allowMixed = false
        var cursor = ArgumentCursor(args, usage: usage)
        while let a = cursor.next() {
            switch a {
            case "--out": out = cursor.value(a, "a FILE")
            case "--allow-mixed-config": allowMixed = true
            case "-h", "--help":
                print(usage)
                return 0
            default:
                if a.hasPrefix("-") { CLI.usageError("unknown option '\(a)'", usage: usage) }
                shards.append(a)
            }
        }
        guard let out else { CLI.usageError("--out FILE is required", usage: usage) }
        if out.isEmpty { CLI.usageError("--out needs a FILE, got an empty path", usage: usage) }
        guard !shards.isEmpty else { CLI.usageError("no SHARD database given", usage: usage) }
        for s in shards where !FileManager.default.fileExists(atPath: s) {
            CLI.error("\(s): no such file")
            return 1
        }
        do {
            let summary = try ShardMerge.merge(shards: shards, into: out, allowMixedConfigurations: allowMixed)
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

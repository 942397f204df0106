import Foundation
import Pipeline

/// `sensorpipe merge`: shard databases → one database.
enum MergeCommand {
    struct Options: CommandOptions {
        var arguments: [String] = []
        var out = ""
        var allowMixed = false
    }

    static var command: Command { Command(declaration) }

    static var declaration: CommandDeclaration<Options> {
        CommandDeclaration<Options>(
            name: "merge", summary: "combine the databases of sharded runs",
            arguments: .files("SHARD.sqlite…"),
            about: """
                Combines the databases written by `sensorpipe run --shard K/N` jobs into one (created if
                needed): runs, recordings, streams and every result table, ids renumbered so rows keep their
                recording. Recordings the target already holds (same path, content hash, configuration and
                status) are not copied twice. Shards whose runs used different configurations are refused
                unless --allow-mixed-config is given. The merge is written to a temporary file that
                replaces FILE only when every shard is in, so a failed merge leaves FILE as it was.
                """,
            options: [
                .value("--out", rule: .file("FILE"), required: true, help: "the merged database", \.out),
                .flag("--allow-mixed-config", help: "merge shards analysed with different configurations", \.allowMixed),
            ],
            run: run)
    }

    static func run(_ o: Options) -> Int32 {
        let (shards, out, allowMixed) = (o.arguments, o.out, o.allowMixed)
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

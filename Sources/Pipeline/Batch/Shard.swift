import Signals

/// One of `count` disjoint parts of a batch, for running a batch as independent jobs (a Slurm
/// job array, a Kubernetes indexed job): recording `p` belongs to shard
/// `mix(FNV-1a 64(p)) mod count + 1` (the SplitMix64 finaliser spreads FNV's weak low bits), so the shards cover every recording exactly once whatever
/// machine or order they run in, as long as every job is given the same input paths.
public struct Shard: Sendable, Hashable, CustomStringConvertible {
    /// This shard's number, 1…``count``.
    public let index: Int
    /// Number of shards, ≥ 1.
    public let count: Int

    /// Parses `K/N` (1 ≤ K ≤ N).
    /// - Returns: `nil` for anything else.
    public init?(_ text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let k = Int(parts[0]), let n = Int(parts[1]), n >= 1, k >= 1, k <= n else {
            return nil
        }
        index = k
        count = n
    }

    /// Whether the recording at `path` (as given, after folder expansion) belongs to this shard.
    /// - Complexity: O(path length).
    public func contains(path: String) -> Bool {
        var z = Array(path.utf8).withUnsafeBytes { ContentHash.fnv1a64($0) }
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        z ^= z >> 31
        return Int(z % UInt64(count)) + 1 == index
    }

    public var description: String { "\(index)/\(count)" }
}

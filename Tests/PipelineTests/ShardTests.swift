import Pipeline
import Testing

@Suite("Shard: N jobs cover a batch exactly once")
struct ShardTests {
    @Test("parsing K/N")
    func parsing() {
        #expect(Shard("1/1") != nil && Shard("3/4")?.index == 3 && Shard("3/4")?.count == 4)
        for bad in ["0/4", "5/4", "1/0", "x/2", "1/2/3", "12", ""] { #expect(Shard(bad) == nil, "\(bad)") }
    }

    @Test("every path lands in exactly one of N shards, and the split is roughly even", arguments: [1, 2, 3, 7, 16])
    func partition(n: Int) {
        let paths = (0..<2000).map { "data/participant-\($0 % 97)/ecg/session-\($0).ndjson.gz" }
        var perShard = [Int](repeating: 0, count: n)
        for p in paths {
            let owners = (1...n).filter { Shard("\($0)/\(n)")!.contains(path: p) }
            #expect(owners.count == 1, "\(p) in \(owners.count) shards")
            if let k = owners.first { perShard[k - 1] += 1 }
        }
        let expected = Double(paths.count) / Double(n)
        #expect(perShard.allSatisfy { abs(Double($0) - expected) < 0.25 * expected + 10 }, "\(perShard)")
    }
}

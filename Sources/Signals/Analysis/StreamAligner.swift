/// Puts the blocks of several claimed streams back into time order with a bounded buffer, for
/// analyses that combine streams (PPG optical channels with the device's accelerometer;
/// accelerometer with rotation rate, which SensorKit exports as separate fetches).
///
/// Each stream's blocks arrive in order, but streams arrive interleaved however their files are
/// laid out. ``push(_:into:)`` holds blocks back and releases them in order of their first
/// sample's time: a held block is released once every other stream of the aligner has delivered
/// data up to that time (its *horizon*) or has been declared ended (``end(stream:into:)``).
///
/// **Bound.** At most ``maxBufferedSamples`` samples are held. When a claimed stream is far
/// behind (or never delivers anything, e.g. a PPG export without the accelerometer), the
/// earliest held blocks are released anyway once the buffer is full or the newest horizon is more
/// than ``maxLagSeconds`` past them; such releases are counted in ``releasedAhead`` and the
/// late stream's blocks, when they come, are released as they arrive (still in order within
/// their stream). Memory is bounded by `maxBufferedSamples × (4 bytes × columns + 1 + 8)`.
///
/// Analyses using an aligner must make their results depend on sample times only, not on which
/// blocks were released together.
///
/// - Complexity: O(streams) per released block.
public struct StreamAligner: Sendable {
    /// Streams aligned (their ``AnnouncedStream/index``).
    public private(set) var streams: [Int]
    /// Longest time a block is held waiting for a stream that is behind, seconds.
    public let maxLagSeconds: Double
    /// Largest number of samples held.
    public let maxBufferedSamples: Int
    /// Blocks released before every other stream had reached their time (the lag or size bound
    /// was hit).
    public private(set) var releasedAhead = 0

    private var held: [[SampleBlock]]
    private var heads: [Int]
    private var horizon: [Double]
    private var ended: [Bool]
    private var buffered = 0

    /// Creates an aligner.
    /// - Parameters:
    ///   - streams: the stream indices to align.
    ///   - maxLagSeconds: how long a block waits for a stream that is behind (default 60 s).
    ///   - maxBufferedSamples: most samples held across all streams (default 2^20).
    public init(streams: [Int], maxLagSeconds: Double = 60, maxBufferedSamples: Int = 1 << 20) {
        precondition(maxLagSeconds >= 0 && maxBufferedSamples > 0, "bounds must be positive")
        self.streams = streams
        self.maxLagSeconds = maxLagSeconds
        self.maxBufferedSamples = maxBufferedSamples
        held = Array(repeating: [], count: streams.count)
        heads = Array(repeating: 0, count: streams.count)
        horizon = Array(repeating: -.infinity, count: streams.count)
        ended = Array(repeating: false, count: streams.count)
    }

    /// Adds a stream to align (announced after the aligner was made).
    public mutating func add(stream: Int) {
        guard !streams.contains(stream) else { return }
        streams.append(stream)
        held.append([])
        heads.append(0)
        horizon.append(-.infinity)
        ended.append(false)
    }

    /// Takes the next block of one of the streams and appends to `released` every block that can
    /// now go, in time order.
    /// - Complexity: O(streams) per released block.
    public mutating func push(_ block: SampleBlock, into released: inout [SampleBlock]) {
        guard let s = streams.firstIndex(of: block.stream) else {
            preconditionFailure("stream \(block.stream) is not aligned by this aligner")
        }
        guard block.count > 0 else { return }
        horizon[s] = max(horizon[s], block.time(at: block.count - 1))
        held[s].append(block)
        buffered += block.count
        drain(into: &released, force: false)
    }

    /// Declares that `stream` will deliver nothing more (its horizon becomes +∞).
    public mutating func end(stream: Int, into released: inout [SampleBlock]) {
        guard let s = streams.firstIndex(of: stream) else { return }
        ended[s] = true
        drain(into: &released, force: false)
    }

    /// Releases every held block, in time order (end of the recording).
    public mutating func finish(into released: inout [SampleBlock]) {
        for s in ended.indices { ended[s] = true }
        drain(into: &released, force: true)
    }

    private mutating func drain(into released: inout [SampleBlock], force: Bool) {
        while true {
            // The held block that starts first.
            var best = -1
            var bestTime = Double.infinity
            for s in held.indices where heads[s] < held[s].count {
                let t = held[s][heads[s]].time(at: 0)
                if t < bestTime { bestTime = t; best = s }
            }
            guard best >= 0 else { return }
            var ready = true
            for r in held.indices where r != best && !ended[r] && heads[r] >= held[r].count && horizon[r] < bestTime {
                ready = false
                break
            }
            if !ready && !force {
                let newest = horizon.max() ?? -.infinity
                guard buffered > maxBufferedSamples || newest - bestTime > maxLagSeconds else { return }
                releasedAhead += 1
            }
            let block = held[best][heads[best]]
            heads[best] += 1
            buffered -= block.count
            if heads[best] == held[best].count {
                held[best].removeAll(keepingCapacity: true)
                heads[best] = 0
            }
            released.append(block)
        }
    }
}

/// An exact set of recent sample keys, with memory bounded by a fixed count, for dropping
/// duplicated SensorKit samples (about 1 % of real exports repeat earlier results).
///
/// Keys are three 64-bit words compared exactly (never reduced to a fingerprint). Two
/// generations of ``capacity``/2 keys each are kept in open-addressing tables with linear probing
/// (load ≤ ½); when the current generation is full, the older one is forgotten wholesale (an O(1)
/// stamp change, no per-key deletion) and reused. **Bound:** a duplicate is always recognised when
/// its twin is among the last ``capacity``/2 distinct keys of its kind, and never when more than
/// ``capacity`` distinct keys came between; memory ≈ 64 bytes × capacity at most. The tables start
/// at ``initialSlots`` and double (rehashing both generations) while a generation would pass half
/// of them, so a file with few samples never allocates and zero-fills the full 64 bytes × capacity
/// (8 MiB per kind at the decoder's default, which cost a 1-MB file three times its decoding time).
struct DuplicateWindow {
    struct Key: Hashable {
        var a: UInt64
        var b: UInt64
        var c: UInt64
    }

    private struct Slot {
        var key: Key
        /// Generation stamp; the slot is occupied when it equals its table's current stamp.
        var stamp: UInt64
    }

    /// Most keys remembered (two generations of `capacity / 2`).
    let capacity: Int
    private let generationSize: Int
    /// Slots per table when the tables are first allocated.
    static let initialSlots = 1024
    /// Slots per table once fully grown: the power of two ≥ 2 × the generation size (load ≤ ½).
    private let fullSlots: Int
    private var tables: [[Slot]] = [[], []]
    private var stamps: [UInt64] = [1, 1]
    private var counts = [0, 0]
    private var current = 0
    private var mask = 0

    /// Creates an empty window remembering up to `capacity` keys (allocated on first use).
    init(capacity: Int) {
        precondition(capacity > 0)
        self.capacity = capacity
        generationSize = max(1, capacity / 2)
        var size = 1
        while size < 2 * generationSize { size <<= 1 }
        fullSlots = size
    }

    @inline(__always)
    private func slot(_ k: Key) -> Int {
        var h = k.a &* 0x9E37_79B9_7F4A_7C15 ^ k.b &* 0xC2B2_AE3D_27D4_EB4F ^ k.c &* 0x1656_67B1_9E37_79F9
        h ^= h >> 32
        h &*= 0xD6E8_FEB8_6659_FD93
        h ^= h >> 29
        return Int(truncatingIfNeeded: h) & mask
    }

    @inline(__always)
    private func contains(_ k: Key, table t: Int, from s0: Int) -> Bool {
        tables[t].withUnsafeBufferPointer { slots in
            let stamp = stamps[t]
            var s = s0
            while slots[s].stamp == stamp {
                if slots[s].key == k { return true }
                s = (s + 1) & mask
            }
            return false
        }
    }

    /// Largest time of any key inserted so far.
    private var latest = -Double.infinity
    /// Keys in arrival order not yet entered in the tables (a key later than every earlier key
    /// cannot be a duplicate, so in-order keys are only indexed in batches, before the next
    /// look-up or when this buffer is full — same result, far fewer scattered memory accesses).
    private var pending: [Key] = []

    /// Enters `k` (known to be new) in the current generation.
    @inline(__always)
    private mutating func index(_ k: Key) {
        if counts[current] == generationSize {
            // Forget the older generation and make it the current one.
            current = 1 - current
            stamps[current] += 1
            counts[current] = 0
        }
        if 2 * (counts[current] + 1) > mask + 1 && mask + 1 < fullSlots { grow() }
        let stamp = stamps[current]
        let s0 = slot(k)
        tables[current].withUnsafeMutableBufferPointer { slots in
            var s = s0
            while slots[s].stamp == stamp { s = (s + 1) & mask }
            slots[s] = Slot(key: k, stamp: stamp)
        }
        counts[current] += 1
    }

    /// Doubles both tables, re-entering each generation's occupied slots (amortised O(1) per key).
    private mutating func grow() {
        let size = 2 * (mask + 1)
        mask = size - 1
        let empty = Slot(key: Key(a: 0, b: 0, c: 0), stamp: 0)
        for t in 0..<2 {
            let stamp = stamps[t]
            var grown = [Slot](repeating: empty, count: size)
            grown.withUnsafeMutableBufferPointer { slots in
                for old in tables[t] where old.stamp == stamp {
                    var s = slot(old.key)
                    while slots[s].stamp == stamp { s = (s + 1) & mask }
                    slots[s] = old
                }
            }
            tables[t] = grown
        }
    }

    private mutating func catchUp() {
        for k in pending { index(k) }
        pending.removeAll(keepingCapacity: true)
    }

    /// Inserts `k`, whose time (one of its words) is `time`.
    /// - Parameters:
    ///   - k: the key.
    ///   - time: the time encoded in the key (Unix s): a key later than every key seen so far
    ///     cannot be a duplicate, which saves the look-up in the common in-order case.
    /// - Returns: `false` if `k` is already held (a duplicate), `true` if it was new.
    /// - Complexity: amortised O(1).
    @inline(__always)
    mutating func insert(_ k: Key, time: Double) -> Bool {
        if tables[0].isEmpty {
            let size = min(fullSlots, Self.initialSlots)
            let empty = Slot(key: Key(a: 0, b: 0, c: 0), stamp: 0)
            tables = [[Slot](repeating: empty, count: size), [Slot](repeating: empty, count: size)]
            mask = size - 1
            pending.reserveCapacity(min(generationSize, 4096))
        }
        if time > latest {
            latest = time
        } else {
            catchUp()
            let s0 = slot(k)
            if contains(k, table: current, from: s0) || contains(k, table: 1 - current, from: s0) { return false }
        }
        pending.append(k)
        if pending.count >= min(generationSize, 4096) { catchUp() }
        return true
    }
}

/// An exact set of the most recent sample keys, with memory bounded by a fixed count, for
/// dropping duplicated SensorKit samples (about 1 % of real exports repeat earlier results).
///
/// Keys are three 64-bit words compared exactly (never hashed down to a fingerprint), held in an
/// open-addressing table with linear probing and backward-shift deletion (Knuth, TAOCP vol. 3,
/// §6.4, Algorithm R). Insertion order is kept in a ring; once ``capacity`` keys are held, each
/// insertion forgets the oldest key. **Bound:** a duplicate is recognised when its twin is among
/// the last ``capacity`` distinct keys of its kind; memory ≈ 72 bytes × capacity at most.
struct DuplicateWindow {
    struct Key: Equatable {
        var a: UInt64
        var b: UInt64
        var c: UInt64
    }

    /// Most keys remembered.
    let capacity: Int
    private var keys: [Key] = []
    private var occupied: [Bool] = []
    private var mask = 0
    private var count = 0
    private var ring: [Key] = []
    private var ringHead = 0

    /// Creates an empty window remembering up to `capacity` keys (allocated as it fills).
    init(capacity: Int) {
        precondition(capacity > 0)
        self.capacity = capacity
    }

    @inline(__always)
    private func slot(_ k: Key) -> Int {
        var h = k.a &* 0x9E37_79B9_7F4A_7C15 ^ k.b &* 0xC2B2_AE3D_27D4_EB4F ^ k.c &* 0x1656_67B1_9E37_79F9
        h ^= h >> 32
        h &*= 0xD6E8_FEB8_6659_FD93
        h ^= h >> 29
        return Int(truncatingIfNeeded: h) & mask
    }

    /// Inserts `k`.
    /// - Returns: `false` if `k` is already held (a duplicate), `true` if it was new.
    /// - Complexity: amortised O(1).
    @inline(__always)
    mutating func insert(_ k: Key) -> Bool {
        if keys.isEmpty { grow() }
        var s = slot(k)
        while occupied[s] {
            if keys[s] == k { return false }
            s = (s + 1) & mask
        }
        keys[s] = k
        occupied[s] = true
        count += 1
        if ring.count < capacity {
            ring.append(k)
        } else {
            remove(ring[ringHead])
            ring[ringHead] = k
            ringHead = ringHead + 1 == capacity ? 0 : ringHead + 1
        }
        if 2 * count > keys.count { grow() }
        return true
    }

    private mutating func remove(_ k: Key) {
        var s = slot(k)
        while occupied[s] && keys[s] != k { s = (s + 1) & mask }
        guard occupied[s] else { return }
        occupied[s] = false
        count -= 1
        // Backward-shift the cluster that follows so lookups never stop early.
        var hole = s
        var j = (s + 1) & mask
        while occupied[j] {
            let home = slot(keys[j])
            // Move keys[j] into the hole unless its home lies cyclically in (hole, j].
            let inRange = hole <= j ? (home > hole && home <= j) : (home > hole || home <= j)
            if !inRange {
                keys[hole] = keys[j]
                occupied[hole] = true
                occupied[j] = false
                hole = j
            }
            j = (j + 1) & mask
        }
    }

    private mutating func grow() {
        let newSize = max(1024, keys.count * 2)
        let old = zip(keys, occupied).filter { $0.1 }.map { $0.0 }
        keys = [Key](repeating: Key(a: 0, b: 0, c: 0), count: newSize)
        occupied = [Bool](repeating: false, count: newSize)
        mask = newSize - 1
        for k in old {
            var s = slot(k)
            while occupied[s] { s = (s + 1) & mask }
            keys[s] = k
            occupied[s] = true
        }
    }
}

/// Exact order statistics of `Float` values for the waves family's medians and quartiles
/// (``IntervalAccumulator``, ``MedianBeatAccumulator``): the value at a position of the stable
/// ascending order (`sorted()`'s, equal values in input order), found by selection instead of a
/// full sort. Quickselect (Hoare CAR 1961, Algorithm 65: Find, Commun. ACM 4(7):321–322) with a
/// median-of-three pivot and branch-free Lomuto partitions (values below the pivot, then those
/// equal to it, so repeated values cost one pass), insertion sort below 16 values. Values that compare equal are equal
/// except +0 and −0: a zero's sign is read from the input order, as the stable sort places them.
enum WaveSort {
    /// The values at `positions` of the stable ascending order of `v`.
    /// - Parameters:
    ///   - v: finite values (or infinities; no NaN).
    ///   - positions: ascending positions in `0 ..< v.count`.
    /// - Returns: one value per position.
    static func orderStatistics(_ v: UnsafeBufferPointer<Float>, positions: [Int]) -> [Float] {
        let n = v.count
        guard n > 0 else { return [] }
        return withUnsafeTemporaryAllocation(of: Float.self, capacity: n) { work in
            let p = work.baseAddress!
            p.initialize(from: v.baseAddress!, count: n)
            var out = [Float]()
            out.reserveCapacity(positions.count)
            var lo = 0
            for k in positions {
                let x: Float
                if k < lo {
                    // Already in place (a repeated position).
                    x = p[k]
                } else if k == lo {
                    // The smallest of the rest.
                    var m = lo
                    for i in (lo + 1)..<n where p[i] < p[m] { m = i }
                    work.swapAt(m, lo)
                    x = p[lo]
                    lo += 1
                } else {
                    x = select(p, lo, n, k)
                    lo = k + 1
                }
                out.append(x == 0 ? zero(at: k, in: v) : x)
            }
            return out
        }
    }

    /// The zero at position `k` of the stable order of `v` (where a zero is): the (k − L)th
    /// zero of `v` in input order, L the count of negative values.
    private static func zero(at k: Int, in v: UnsafeBufferPointer<Float>) -> Float {
        var below = 0
        for x in v where x < 0 { below += 1 }
        var z = k - below
        for x in v where x == 0 {
            if z == 0 { return x }
            z -= 1
        }
        return 0
    }

    /// Rearranges `p[lo ..< hi]` so that `p[k]` holds the value of rank `k` (those before it are
    /// not above it, those after not below), and returns it.
    private static func select(_ p: UnsafeMutablePointer<Float>, _ lo0: Int, _ hi0: Int, _ k: Int) -> Float {
        var lo = lo0, hi = hi0
        while hi - lo > 16 {
            let a = p[lo], b = p[lo + (hi - lo) / 2], c = p[hi - 1]
            let pivot = Swift.max(Swift.min(a, b), Swift.min(Swift.max(a, b), c))
            // Below the pivot to the front (each value swapped with the boundary's, the
            // boundary advanced when it is below: no branch on the data).
            var s = lo
            for i in lo..<hi {
                let x = p[i]
                let below = x < pivot
                p[i] = p[s]
                p[s] = x
                s += below ? 1 : 0
            }
            if k < s {
                hi = s
                continue
            }
            // Then those equal to the pivot.
            var e = s
            for i in s..<hi {
                let x = p[i]
                let equal = !(pivot < x)
                p[i] = p[e]
                p[e] = x
                e += equal ? 1 : 0
            }
            if k < e { return p[k] }
            lo = e
        }
        var i = lo + 1
        while i < hi {
            let x = p[i]
            var j = i
            while j > lo && x < p[j - 1] {
                p[j] = p[j - 1]
                j -= 1
            }
            p[j] = x
            i += 1
        }
        return p[k]
    }
}

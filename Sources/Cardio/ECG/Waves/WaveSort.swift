/// Ascending, stable sorting of `Float` values for the waves family's medians and quartiles
/// (``IntervalAccumulator``, ``MedianBeatAccumulator``): the order `sorted()` gives (equal values
/// keep their input order, so even ±0 land where they did), without its generic comparator calls
/// and per-merge allocations. Insertion sort on runs of 16, then bottom-up merges between the
/// values and one scratch buffer (Knuth, The Art of Computer Programming vol. 3, §5.2.1 and
/// §5.2.4: straight insertion, straight two-way merging), O(n log n).
enum WaveSort {
    /// The values of `v` in ascending order (stable).
    /// - Parameter v: finite values (or infinities; no NaN).
    /// - Returns: `v` sorted.
    static func sorted(_ v: [Float]) -> [Float] {
        var s = v
        var t = [Float](repeating: 0, count: v.count)
        s.withUnsafeMutableBufferPointer { sp in
            t.withUnsafeMutableBufferPointer { tp in
                if let a = sp.baseAddress, let b = tp.baseAddress { sort(a, count: sp.count, scratch: b) }
            }
        }
        return s
    }

    /// Sorts `count` values at `p` in place (stable), using `count` values of `scratch`.
    static func sort(_ p: UnsafeMutablePointer<Float>, count n: Int, scratch: UnsafeMutablePointer<Float>) {
        let run = 16
        var lo = 0
        while lo < n {
            let hi = min(lo + run, n)
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
            lo = hi
        }
        var width = run
        var src = p, dst = scratch
        while width < n {
            var lo = 0
            while lo < n {
                let mid = min(lo + width, n), hi = min(lo + 2 * width, n)
                var a = lo, b = mid, k = lo
                while a < mid && b < hi {
                    // The left run's value first unless the right one is smaller: stable.
                    if src[b] < src[a] {
                        dst[k] = src[b]
                        b += 1
                    } else {
                        dst[k] = src[a]
                        a += 1
                    }
                    k += 1
                }
                if a < mid { (dst + k).update(from: src + a, count: mid - a) }
                if b < hi { (dst + k + (mid - a)).update(from: src + b, count: hi - b) }
                lo = hi
            }
            swap(&src, &dst)
            width *= 2
        }
        if src != p { p.update(from: src, count: n) }
    }
}

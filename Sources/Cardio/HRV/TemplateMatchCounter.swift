/// Exact counts of matching templates for sample and approximate entropy, in O(n log n) for
/// templates of length 2 and O(n log² n) for length 3, instead of the O(n²) pair loop.
///
/// Template `i` of length `m` is `(x[i], …, x[i+m−1])`; templates `i` and `j` match when their
/// Chebyshev distance is at most `r`: `|x[i+k] − x[j+k]| ≤ r` for every `k < m` (a template
/// matches itself). The count for template `i` is the number of `j` (self included) that match.
///
/// Templates are points in `m` dimensions and a match is a point in the box of half-width `r`
/// around another, so the counts are orthogonal range counts. The points are swept in order of
/// their first coordinate with a sliding window of the points within `r` of the current one;
/// for `m = 2` a Fenwick tree over the ranks of the second coordinate counts the window's points
/// in the second-coordinate range; for `m = 3` the Fenwick tree's nodes each hold the
/// third-coordinate ranks of their points, sorted, with an inner Fenwick tree over them (an
/// offline two-dimensional Fenwick tree), so each point is inserted, removed and queried in
/// O(log² n). Every comparison is the same floating-point test `|a − b| ≤ r` as the pair loop
/// (subtraction is monotone, so the window bounds and rank ranges found by searching are
/// exactly the matching sets): the counts are identical to brute force.
///
/// Sources: P. M. Fenwick, "A new data structure for cumulative frequency tables", Softw. Pract.
/// Exp. 24(3):327–336, 1994, doi:10.1002/spe.4380240306. J. L. Bentley, "Multidimensional
/// divide-and-conquer", Commun. ACM 23(4):214–229, 1980, doi:10.1145/358841.358850 (orthogonal
/// range counting). Entropy templates: J. S. Richman and J. R. Moorman, "Physiological
/// time-series analysis using approximate entropy and sample entropy", Am. J. Physiol. Heart
/// Circ. Physiol. 278(6):H2039–H2049, 2000, doi:10.1152/ajpheart.2000.278.6.H2039.
enum TemplateMatchCounter {
    /// Match counts (self included) of the `count` templates of length 2 starting at
    /// `0 ..< count`; needs `x.count ≥ count + 1`.
    ///
    /// `orderA`, when given, must be ``sortedIndices32(_:key:)`` of `0 ..< count` by `x[i]`.
    static func countsLength2(_ x: [Double], count n: Int, tolerance r: Double, orderA: [Int32]? = nil) -> [Int32] {
        precondition(n >= 1 && x.count >= n + 1)
        precondition(orderA.map { $0.count == n } ?? true)
        var result = [Int32](repeating: 0, count: n)
        x.withUnsafeBufferPointer { xs in
            let byA = orderA.map { $0.map { Int($0) } } ?? sortedIndices(n) { xs[$0] }
            let byB = sortedIndices(n) { xs[$0 + 1] }
            var rankB = [Int32](repeating: 0, count: n)
            var sortedB = [Double](repeating: 0, count: n)
            for (rank, i) in byB.enumerated() { rankB[i] = Int32(rank); sortedB[rank] = xs[i + 1] }
            var tree = [Int32](repeating: 0, count: n + 1)
            tree.withUnsafeMutableBufferPointer { t in
                sortedB.withUnsafeBufferPointer { sb in
                    var lo = 0, hi = 0 // window byA[lo ..< hi]
                    for p in byA {
                        let a = xs[p]
                        while hi < n && xs[byA[hi]] - a <= r { fenwickAdd(t, Int(rankB[byA[hi]]) + 1, 1); hi += 1 }
                        while a - xs[byA[lo]] > r { fenwickAdd(t, Int(rankB[byA[lo]]) + 1, -1); lo += 1 }
                        let (first, end) = rankRange(sb, around: xs[p + 1], r)
                        result[p] = fenwickSum(t, end) - fenwickSum(t, first)
                    }
                }
            }
        }
        return result
    }

    /// Match counts (self included) of the `count` templates of length 3 starting at
    /// `0 ..< count`; needs `x.count ≥ count + 2`.
    ///
    /// The points are split by third-coordinate rank into `groups` consecutive rank ranges (by
    /// default one per 131 072 templates, at most 8) and the sweep runs once per group with only
    /// that group's points in the two-dimensional Fenwick tree; a template's count is the sum
    /// over the groups its third-coordinate range meets, the same integers as one sweep. The
    /// tree's per-node lists then take about 12·n·log₂(n)/(2·groups) bytes instead of
    /// 12·n·log₂(n)/2 (a week of beats: ≈ 15 MB instead of ≈ 120 MB), for one more binary search
    /// per template and group.
    ///
    /// `orderA`, when given, must be ``sortedIndices32(_:key:)`` by `x[i]` of `0 ..< count` or of
    /// `0 ..< count + 1` (the index `count` is then dropped: the same strict order restricted).
    static func countsLength3(
        _ x: [Double], count n: Int, tolerance r: Double, groups: Int? = nil, orderA: [Int32]? = nil
    ) -> [Int32] {
        precondition(n >= 1 && x.count >= n + 2)
        precondition(groups.map { $0 >= 1 } ?? true, "template counts: groups must be ≥ 1")
        precondition(orderA.map { $0.count == n || $0.count == n + 1 } ?? true)
        var result = [Int32](repeating: 0, count: n)
        let byA: [Int32]
        if let given = orderA {
            byA = given.count == n ? given : given.filter { Int($0) != n }
        } else {
            byA = x.withUnsafeBufferPointer { xs in sortedIndices32(n) { xs[$0] } }
        }
        var rankB = [Int32](repeating: 0, count: n), rankC = [Int32](repeating: 0, count: n)
        var sortedB = [Double](repeating: 0, count: n), sortedC = [Double](repeating: 0, count: n)
        do {
            let byB = x.withUnsafeBufferPointer { xs in sortedIndices32(n) { xs[$0 + 1] } }
            for (rank, i) in byB.enumerated() { rankB[Int(i)] = Int32(rank); sortedB[rank] = x[Int(i) + 1] }
        }
        let byC = x.withUnsafeBufferPointer { xs in sortedIndices32(n) { xs[$0 + 2] } }
        for (rank, i) in byC.enumerated() { rankC[Int(i)] = Int32(rank); sortedC[rank] = x[Int(i) + 2] }
        let groupCount = min(n, groups ?? max(1, min(8, n / 131_072)))
        var offsets = [Int](repeating: 0, count: n + 2)
        var pathLength = [Int](repeating: 0, count: n + 1)
        for group in 0..<groupCount {
            let cLo = group * n / groupCount, cHi = (group + 1) * n / groupCount
            guard cHi > cLo else { continue }
            // Offline 2-D Fenwick tree over the group's points: node k (1-based over B-ranks)
            // lists the C-ranks of the points whose B-rank + 1 lies in (k − lowbit(k), k],
            // ascending; its inner Fenwick tree (1-based, one spare slot per node) lives at
            // inner[offset[k] + k + 1 …].
            for k in offsets.indices { offsets[k] = 0 }
            for i in pathLength.indices { pathLength[i] = 0 }
            for c in cLo..<cHi {
                let i = Int(byC[c])
                var k = Int(rankB[i]) + 1
                while k <= n { offsets[k + 1] += 1; pathLength[i + 1] += 1; k += k & -k }
            }
            for k in 1...(n + 1) { offsets[k] += offsets[k - 1] }
            for i in 0..<n { pathLength[i + 1] += pathLength[i] }
            let total = offsets[n + 1]
            var lists = [Int32](repeating: 0, count: total)
            // Each point's inner-tree position in every node on its update path, in path order.
            var positions = [Int32](repeating: 0, count: pathLength[n])
            do {
                var fill = offsets
                for c in cLo..<cHi { // ascending C-rank, so each list comes out sorted
                    let i = Int(byC[c])
                    var k = Int(rankB[i]) + 1
                    var slot = pathLength[i]
                    while k <= n {
                        positions[slot] = Int32(fill[k] - offsets[k] + 1)
                        lists[fill[k]] = rankC[i]
                        fill[k] += 1
                        slot += 1
                        k += k & -k
                    }
                }
            }
            var inner = [Int32](repeating: 0, count: total + n + 1)
            let range = (Int32(cLo), Int32(cHi))
            sweep(
                x, order: byA, rankB: rankB, rankC: rankC, sortedB: sortedB, sortedC: sortedC, offsets: offsets,
                pathLength: pathLength, positions: positions, lists: lists, inner: &inner, group: range, tolerance: r,
                into: &result)
        }
        return result
    }

    /// One sweep of ``countsLength3(_:count:tolerance:groups:)`` over the points whose C-rank lies
    /// in `group`, adding each template's matches among them to `result`.
    private static func sweep(
        _ x: [Double], order byA: [Int32], rankB: [Int32], rankC: [Int32], sortedB: [Double], sortedC: [Double],
        offsets: [Int], pathLength: [Int], positions: [Int32], lists: [Int32], inner: inout [Int32],
        group: (lo: Int32, hi: Int32), tolerance r: Double, into result: inout [Int32]
    ) {
        let n = byA.count
        x.withUnsafeBufferPointer { xs in
            byA.withUnsafeBufferPointer { order in
                rankB.withUnsafeBufferPointer { rb in
                    rankC.withUnsafeBufferPointer { rc in
                        offsets.withUnsafeBufferPointer { off in
                            pathLength.withUnsafeBufferPointer { path in
                                positions.withUnsafeBufferPointer { pos in
                                    lists.withUnsafeBufferPointer { ls in
                                        inner.withUnsafeMutableBufferPointer { fw in
                                            sortedB.withUnsafeBufferPointer { sb in
                                                sortedC.withUnsafeBufferPointer { sc in
                                                    result.withUnsafeMutableBufferPointer { out in
                                                        @inline(__always) func update(_ point: Int, _ delta: Int32) {
                                                            let c = rc[point]
                                                            guard c >= group.lo && c < group.hi else { return }
                                                            var k = Int(rb[point]) + 1
                                                            var slot = path[point]
                                                            while k <= n {
                                                                let start = off[k], size = off[k + 1] - start, base = start + k
                                                                var p = Int(pos[slot])
                                                                while p <= size { fw[base + p] &+= delta; p += p & -p }
                                                                slot += 1
                                                                k += k & -k
                                                            }
                                                        }
                                                        /// Active points in node k with C-rank in [cFirst, cEnd).
                                                        @inline(__always) func nodeCount(_ k: Int, _ cFirst: Int32, _ cEnd: Int32) -> Int32
                                                        {
                                                            let start = off[k], end = off[k + 1], base = start + k
                                                            var p1 = lowerBound(ls, start, end, cEnd) - start
                                                            var p0 = lowerBound(ls, start, start + p1, cFirst) - start
                                                            var s: Int32 = 0
                                                            while p1 > p0 { s &+= fw[base + p1]; p1 -= p1 & -p1 }
                                                            while p0 > p1 { s &-= fw[base + p0]; p0 -= p0 & -p0 }
                                                            return s
                                                        }
                                                        /// Active points with B-rank in [bFirst, bEnd) and C-rank in [cFirst, cEnd): the two
                                                        /// prefix paths of the outer tree stop where they meet.
                                                        @inline(__always) func boxCount(
                                                            _ bFirst: Int, _ bEnd: Int, _ cFirst: Int32, _ cEnd: Int32
                                                        ) -> Int32 {
                                                            var hiK = bEnd, loK = bFirst, s: Int32 = 0
                                                            while hiK > loK { s &+= nodeCount(hiK, cFirst, cEnd); hiK -= hiK & -hiK }
                                                            while loK > hiK { s &-= nodeCount(loK, cFirst, cEnd); loK -= loK & -loK }
                                                            return s
                                                        }
                                                        var lo = 0, hi = 0
                                                        for o in order {
                                                            let p = Int(o)
                                                            let a = xs[p]
                                                            while hi < n && xs[Int(order[hi])] - a <= r {
                                                                update(Int(order[hi]), 1); hi += 1
                                                            }
                                                            while a - xs[Int(order[lo])] > r { update(Int(order[lo]), -1); lo += 1 }
                                                            let (cFirst, cEnd) = rankRange(sc, around: xs[p + 2], r)
                                                            let first = max(Int32(cFirst), group.lo), end = min(Int32(cEnd), group.hi)
                                                            guard first < end else { continue }
                                                            let (bFirst, bEnd) = rankRange(sb, around: xs[p + 1], r)
                                                            out[p] &+= boxCount(bFirst, bEnd, first, end)
                                                        }
                                                    }
                                                }
                                            }
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    /// Both count arrays by the symmetric pair loop, O(n²): length-2 counts of templates
    /// `0 ..< x.count − 1` and length-3 counts of templates `0 ..< x.count − 2`. The reference
    /// for tests (``countsBySortedPairs(_:tolerance:maximumPairs:)`` gives the same counts
    /// faster).
    static func countsByPairs(_ x: [Double], tolerance r: Double) -> (length2: [Int32], length3: [Int32]) {
        let n = x.count
        precondition(n >= 3)
        var c2 = [Int32](repeating: 1, count: n - 1)
        var c3 = [Int32](repeating: 1, count: n - 2)
        x.withUnsafeBufferPointer { xs in
            c2.withUnsafeMutableBufferPointer { p2 in
                c3.withUnsafeMutableBufferPointer { p3 in
                    for i in 0..<(n - 1) {
                        let a = xs[i], b = xs[i + 1]
                        let c = i + 2 < n ? xs[i + 2] : 0
                        var own2: Int32 = 0, own3: Int32 = 0
                        var j = i + 1
                        while j < n - 1 {
                            if abs(a - xs[j]) <= r && abs(b - xs[j + 1]) <= r {
                                own2 += 1
                                p2[j] += 1
                                if j < n - 2 && i < n - 2 && abs(c - xs[j + 2]) <= r {
                                    own3 += 1
                                    p3[j] += 1
                                }
                            }
                            j += 1
                        }
                        p2[i] += own2
                        if i < n - 2 { p3[i] += own3 }
                    }
                }
            }
        }
        return (c2, c3)
    }

    /// Both count arrays by the pair loop over templates sorted by their first value (the
    /// sorting idea of Manis 2008's bucket-assisted algorithm and Pan et al. 2011): after the
    /// sort, the templates within `r` of template `k` in the first value are the run right after
    /// it, and only those pairs are tested on the other values; the same counts as
    /// ``countsByPairs(_:tolerance:)`` in O(n log n + P), `P` the number of pairs within `r` in
    /// the first value.
    ///
    /// Every test is the same `|a − b| ≤ r` as the pair loop: for sorted `a ≤ b`, `b − a` is
    /// `|a − b|` exactly (rounding is symmetric), and it grows with `b` (subtraction is
    /// monotone), so the run ends at the first `b − a > r` and holds exactly the matches.
    ///
    /// Sources: G. Manis, "Fast computation of approximate entropy", Comput. Methods Programs
    /// Biomed. 91(1):48–54, 2008, doi:10.1016/j.cmpb.2008.02.008. Y.-H. Pan, Y.-H. Wang, S.-F.
    /// Liang and K.-T. Lee, "Fast computation of sample entropy and approximate entropy in
    /// biomedicine", Comput. Methods Programs Biomed. 104(3):382–396, 2011,
    /// doi:10.1016/j.cmpb.2010.12.003.
    ///
    /// - Parameter maximumPairs: when `P` exceeds it, returns `nil` after the sort (O(n log n)):
    ///   the caller then uses the range-counting structures.
    static func countsBySortedPairs(
        _ x: [Double], tolerance r: Double, maximumPairs: Int = .max
    ) -> (length2: [Int32], length3: [Int32])? {
        precondition(x.count >= 3)
        let order = x.withUnsafeBufferPointer { xs in sortedIndices32(x.count - 1) { xs[$0] } }
        return countsBySortedPairs(x, order: order, tolerance: r, maximumPairs: maximumPairs)
    }

    /// ``countsBySortedPairs(_:tolerance:maximumPairs:)`` with the templates' order by first value
    /// given (``sortedIndices32(_:key:)`` of `0 ..< x.count − 1` by `x[i]`).
    static func countsBySortedPairs(
        _ x: [Double], order: [Int32], tolerance r: Double, maximumPairs: Int
    ) -> (length2: [Int32], length3: [Int32])? {
        let n = x.count
        precondition(n >= 3)
        let t = n - 1 // length-2 templates; the last one has no third value
        precondition(order.count == t)
        // Sorted structure of arrays; the last template's third value is NaN, which matches
        // nothing, and its length-3 count goes to a spare slot dropped at the end.
        var abc = [Double](repeating: 0, count: 3 * t)
        var c2 = [Int32](repeating: 1, count: t)
        var c3 = [Int32](repeating: 1, count: t)
        let withinBudget = x.withUnsafeBufferPointer { xs in
            order.withUnsafeBufferPointer { idx in
                abc.withUnsafeMutableBufferPointer { v -> Bool in
                    for k in 0..<t {
                        let i = Int(idx[k])
                        v[k] = xs[i]
                        v[t + k] = xs[i + 1]
                        v[2 * t + k] = i + 2 < n ? xs[i + 2] : .nan
                    }
                    let a = v.baseAddress!, b = a + t, c = b + t
                    if maximumPairs < .max && pairCount(sorted: UnsafeBufferPointer(start: a, count: t), r) > maximumPairs {
                        return false
                    }
                    c2.withUnsafeMutableBufferPointer { p2 in
                        c3.withUnsafeMutableBufferPointer { p3 in
                            for k in 0..<t {
                                let ak = a[k], bk = b[k], ck = c[k]
                                var own2: Int32 = 0, own3: Int32 = 0
                                var l = k + 1
                                while l < t && a[l] - ak <= r {
                                    if abs(bk - b[l]) <= r {
                                        let j = Int(idx[l])
                                        own2 &+= 1
                                        p2[j] &+= 1
                                        if abs(ck - c[l]) <= r {
                                            own3 &+= 1
                                            p3[j] &+= 1
                                        }
                                    }
                                    l += 1
                                }
                                let i = Int(idx[k])
                                p2[i] &+= own2
                                p3[i] &+= own3
                            }
                        }
                    }
                    return true
                }
            }
        }
        guard withinBudget else { return nil }
        c3.removeLast()
        return (c2, c3)
    }

    /// Pairs `k < l` of ascending values with `a[l] − a[k] ≤ r`, by two pointers in O(n).
    static func pairCount(sorted a: UnsafeBufferPointer<Double>, _ r: Double) -> Int {
        var total = 0, hi = 0
        for k in 0..<a.count {
            if hi < k + 1 { hi = k + 1 }
            while hi < a.count && a[hi] - a[k] <= r { hi += 1 }
            total += hi - k - 1
        }
        return total
    }

    /// Both count arrays (length 2 of templates `0 ..< x.count − 1`, length 3 of
    /// `0 ..< x.count − 2`), by whichever exact method is cheaper for the series: the sorted pair
    /// loop while the pairs within `r` in the first value are at most 512 per template (about
    /// where its cost, ~5 ns a pair, meets the range counting's ~3–5 µs a template; measured
    /// 2026-12-06 on 300–30 000-beat series), else the range-counting structures, which reuse the
    /// sort by first value.
    static func counts(_ x: [Double], tolerance r: Double) -> (length2: [Int32], length3: [Int32]) {
        let n = x.count
        precondition(n >= 3)
        let order = x.withUnsafeBufferPointer { xs in sortedIndices32(n - 1) { xs[$0] } }
        if let sorted = countsBySortedPairs(x, order: order, tolerance: r, maximumPairs: 512 * n) { return sorted }
        return (
            countsLength2(x, count: n - 1, tolerance: r, orderA: order),
            countsLength3(x, count: n - 2, tolerance: r, orderA: order)
        )
    }

    /// The brute-force counts (for tests): O(n²·m).
    static func bruteForceCounts(_ x: [Double], length m: Int, count n: Int, tolerance r: Double) -> [Int32] {
        var result = [Int32](repeating: 0, count: n)
        for i in 0..<n {
            var c: Int32 = 0
            for j in 0..<n {
                var match = true
                for k in 0..<m where abs(x[i + k] - x[j + k]) > r { match = false; break }
                if match { c += 1 }
            }
            result[i] = c
        }
        return result
    }

    // MARK: - Helpers

    /// Indices `0 ..< n` sorted by `key` (ties by index).
    static func sortedIndices(_ n: Int, key: (Int) -> Double) -> [Int] {
        var keys = [Double](repeating: 0, count: n)
        for i in 0..<n { keys[i] = key(i) }
        return keys.withUnsafeBufferPointer { k in
            (0..<n).sorted { k[$0] < k[$1] || (k[$0] == k[$1] && $0 < $1) }
        }
    }

    /// Indices `0 ..< n` as `Int32`, sorted by `key` (ties by index): the same order as
    /// ``sortedIndices(_:key:)`` (the comparison is a strict total order) in half the memory.
    static func sortedIndices32(_ n: Int, key: (Int) -> Double) -> [Int32] {
        precondition(n <= Int(Int32.max), "template counts: too many templates")
        var keys = [Double](repeating: 0, count: n)
        for i in 0..<n { keys[i] = key(i) }
        var order = [Int32](repeating: 0, count: n)
        for i in 0..<n { order[i] = Int32(i) }
        keys.withUnsafeBufferPointer { k in
            order.sort { a, b in
                let ka = k[Int(a)], kb = k[Int(b)]
                return ka < kb || (ka == kb && a < b)
            }
        }
        return order
    }

    /// Ranks `[first, end)` of the sorted values `v` with `|v − centre| ≤ r`.
    @inline(__always)
    static func rankRange(_ sorted: UnsafeBufferPointer<Double>, around centre: Double, _ r: Double) -> (Int, Int) {
        // first: smallest index with centre − v ≤ r (monotone in v).
        var lo = 0, hi = sorted.count
        while lo < hi {
            let mid = (lo + hi) >> 1
            if centre - sorted[mid] <= r { hi = mid } else { lo = mid + 1 }
        }
        let first = lo
        // end: smallest index with v − centre > r.
        hi = sorted.count
        while lo < hi {
            let mid = (lo + hi) >> 1
            if sorted[mid] - centre > r { hi = mid } else { lo = mid + 1 }
        }
        return (first, lo)
    }

    @inline(__always)
    static func lowerBound(_ a: UnsafeBufferPointer<Int32>, _ start: Int, _ end: Int, _ value: Int32) -> Int {
        var lo = start, hi = end
        while lo < hi {
            let mid = (lo + hi) >> 1
            if a[mid] < value { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    @inline(__always)
    static func fenwickAdd(_ t: UnsafeMutableBufferPointer<Int32>, _ position: Int, _ delta: Int32) {
        var k = position
        while k < t.count { t[k] &+= delta; k += k & -k }
    }

    /// Sum of positions `1 … count`.
    @inline(__always)
    static func fenwickSum(_ t: UnsafeMutableBufferPointer<Int32>, _ count: Int) -> Int32 {
        var k = count, s: Int32 = 0
        while k > 0 { s &+= t[k]; k -= k & -k }
        return s
    }

    @inline(__always)
    static func fenwickAdd(_ t: UnsafeMutableBufferPointer<Int32>, base: Int, size: Int, _ position: Int, _ delta: Int32) {
        var k = position
        while k <= size { t[base + k] &+= delta; k += k & -k }
    }

    @inline(__always)
    static func fenwickSum(_ t: UnsafeMutableBufferPointer<Int32>, base: Int, _ count: Int) -> Int32 {
        var k = count, s: Int32 = 0
        while k > 0 { s &+= t[base + k]; k -= k & -k }
        return s
    }
}

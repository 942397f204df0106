/// The inner algorithms of ``PeakFinder``, following SciPy's `_peak_finding_utils`
/// (`_local_maxima_1d`, `_select_by_peak_distance`, `_peak_prominences`, `_peak_widths`,
/// SciPy 1.17) step for step, so that indices and properties are identical.
enum PeakSearch {
    /// All local maxima, flat ones included: a run of equal samples whose nearest unequal
    /// neighbours on both sides are smaller. Writes indices (middle, rounded down), plateau sizes
    /// and edges. O(n).
    static func localMaxima(_ x: UnsafeBufferPointer<Double>, into r: inout Peaks) {
        let n = x.count
        guard n >= 3 else { return }
        var i = 1
        let iMax = n - 1
        while i < iMax {
            if x[i - 1] < x[i] {
                var ahead = i + 1
                while ahead < iMax && x[ahead] == x[i] { ahead += 1 }
                if x[ahead] < x[i] {
                    let left = i, right = ahead - 1
                    r.indices.append((left + right) / 2)
                    r.leftEdges.append(left)
                    r.rightEdges.append(right)
                    r.plateauSizes.append(right - left + 1)
                    i = ahead
                }
            }
            i += 1
        }
    }

    /// SciPy's `_select_by_peak_distance`: visits peaks by decreasing priority and removes the
    /// not-yet-removed neighbours closer than `⌈distance⌉`. Equal priorities are visited later
    /// index first (a stable ascending sort read backwards). O(p log p + p).
    static func selectByDistance(_ peaks: [Int], priority: [Double], distance: Double) -> [Bool] {
        let count = peaks.count
        let d = Int(distance.rounded(.up))
        var keep = [Bool](repeating: true, count: count)
        let order = (0..<count).sorted { a, b in
            priority[a] < priority[b] || (priority[a] == priority[b] && a < b)
        }
        for j in order.reversed() where keep[j] {
            var k = j - 1
            while k >= 0 && peaks[j] - peaks[k] < d {
                keep[k] = false
                k -= 1
            }
            k = j + 1
            while k < count && peaks[k] - peaks[j] < d {
                keep[k] = false
                k += 1
            }
        }
        return keep
    }

    /// SciPy's `_peak_prominences`: walks out from each peak while samples are not higher than
    /// it, tracking the lowest sample (the base) on each side, within `windowLength` if ≥ 2.
    static func prominences(_ x: UnsafeBufferPointer<Double>, peaks: [Int], windowLength: Int)
        -> ([Double], [Int], [Int])
    {
        var prominences = [Double](repeating: 0, count: peaks.count)
        var leftBases = [Int](repeating: 0, count: peaks.count)
        var rightBases = [Int](repeating: 0, count: peaks.count)
        for (n, peak) in peaks.enumerated() {
            var iMin = 0, iMax = x.count - 1
            if windowLength >= 2 {
                iMin = max(peak - windowLength / 2, iMin)
                iMax = min(peak + windowLength / 2, iMax)
            }
            let top = x[peak]
            var i = peak
            var leftMin = top
            leftBases[n] = peak
            while iMin <= i && x[i] <= top {
                if x[i] < leftMin {
                    leftMin = x[i]
                    leftBases[n] = i
                }
                i -= 1
            }
            i = peak
            var rightMin = top
            rightBases[n] = peak
            while i <= iMax && x[i] <= top {
                if x[i] < rightMin {
                    rightMin = x[i]
                    rightBases[n] = i
                }
                i += 1
            }
            prominences[n] = top - max(leftMin, rightMin)
        }
        return (prominences, leftBases, rightBases)
    }

    /// SciPy's `_peak_widths`: from the peak outwards to the first sample not above
    /// `x[p] − relativeHeight·prominence` (not past the bases), then linear interpolation.
    static func widths(
        _ x: UnsafeBufferPointer<Double>, peaks: [Int], relativeHeight: Double,
        prominences: [Double], leftBases: [Int], rightBases: [Int]
    )
        -> (widths: [Double], heights: [Double], left: [Double], right: [Double])
    {
        let count = peaks.count
        var widths = [Double](repeating: 0, count: count)
        var heights = widths, lefts = widths, rights = widths
        for p in 0..<count {
            let iMin = leftBases[p], iMax = rightBases[p], peak = peaks[p]
            let height = x[peak] - prominences[p] * relativeHeight
            heights[p] = height
            var i = peak
            while iMin < i && height < x[i] { i -= 1 }
            var left = Double(i)
            if x[i] < height && x[i + 1] != x[i] {
                left += (height - x[i]) / (x[i + 1] - x[i])
            }
            i = peak
            while i < iMax && height < x[i] { i += 1 }
            var right = Double(i)
            if x[i] < height && x[i - 1] != x[i] {
                right -= (height - x[i]) / (x[i - 1] - x[i])
            }
            widths[p] = right - left
            lefts[p] = left
            rights[p] = right
        }
        return (widths, heights, lefts, rights)
    }
}

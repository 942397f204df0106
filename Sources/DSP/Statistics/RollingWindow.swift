/// Centred rolling order statistics with shrinking windows at the ends, as pandas'
/// `Series.rolling(width, center=True, min_periods=1)` `.median()` and `.quantile(q)` (linear
/// interpolation), which NeuroKit2's artefact detection uses.
///
/// A sorted copy of the window is kept and updated by one removal and one insertion per step.
///
/// Source: pandas 2.x `pandas/_libs/window/aggregations.pyx` (`roll_median_c`,
/// `roll_quantile`).
package enum RollingWindow {
    /// Runs `body(sortedWindow)` for each centred window of odd `width` (fewer values at the
    /// ends).
    package static func forEachWindow(_ values: [Double], width: Int, _ body: (Int, [Double]) -> Void) {
        let n = values.count
        let half = width / 2
        var window = [Double]()
        window.reserveCapacity(width)
        var lo = 0, hi = 0 // window = values[lo ..< hi]
        for i in 0..<n {
            let newLo = Swift.max(0, i - half), newHi = Swift.min(n, i + half + 1)
            while hi < newHi { insert(values[hi], into: &window); hi += 1 }
            while lo < newLo { remove(values[lo], from: &window); lo += 1 }
            body(i, window)
        }
    }

    /// Rolling median (mean of the two middle values for even counts).
    package static func median(_ values: [Double], width: Int) -> [Double] {
        var out = [Double](repeating: 0, count: values.count)
        forEachWindow(values, width: width) { i, w in
            let c = w.count
            out[i] = c % 2 == 1 ? w[c / 2] : (w[c / 2] + w[c / 2 - 1]) / 2
        }
        return out
    }

    /// Rolling 25th and 75th percentiles (pandas' linear interpolation).
    package static func quartiles(_ values: [Double], width: Int) -> (lower: [Double], upper: [Double]) {
        var lower = [Double](repeating: 0, count: values.count)
        var upper = lower
        forEachWindow(values, width: width) { i, w in
            lower[i] = quantile(w, 0.25)
            upper[i] = quantile(w, 0.75)
        }
        return (lower, upper)
    }

    /// pandas' `roll_quantile` with linear interpolation on a sorted window.
    package static func quantile(_ sorted: [Double], _ q: Double) -> Double {
        let position = q * Double(sorted.count - 1)
        let index = Int(position)
        if position == Double(index) { return sorted[index] }
        let low = sorted[index], high = sorted[index + 1]
        return low + (high - low) * (position - Double(index))
    }

    package static func insert(_ v: Double, into w: inout [Double]) {
        var lo = 0, hi = w.count
        while lo < hi {
            let mid = (lo + hi) >> 1
            if w[mid] < v { lo = mid + 1 } else { hi = mid }
        }
        w.insert(v, at: lo)
    }

    package static func remove(_ v: Double, from w: inout [Double]) {
        var lo = 0, hi = w.count
        while lo < hi {
            let mid = (lo + hi) >> 1
            if w[mid] < v { lo = mid + 1 } else { hi = mid }
        }
        precondition(lo < w.count && w[lo] == v, "rolling window: value not found")
        w.remove(at: lo)
    }
}

/// The quadratic interpolating B-spline of `scipy.interpolate.interp1d(x, y, kind='quadratic')`
/// (SciPy's `make_interp_spline(x, y, k=2)`), which NeuroKit2 uses to resample RR intervals.
///
/// Knots: `x₀` three times, the midpoints `(x_i + x_{i+1})/2` for `i = 1 … n−3` (the first and
/// last midpoints omitted, "à la not-a-knot"), `x_{n−1}` three times; `n` coefficients. Each data
/// site then lies in the knot span `[t_{i+1}, t_{i+2})` (sites 0 and 1 in the first span, sites
/// `n−2` and `n−1` in the last), so the collocation matrix is tridiagonal; B-spline collocation
/// matrices are totally positive, so elimination without pivoting is stable (de Boor 1978,
/// ch. XIII; C. de Boor and A. Pinkus, "Backward error analysis for totally positive linear
/// systems", Numer. Math. 27:485–490, 1977, doi:10.1007/BF01399609).
///
/// Evaluation outside `[x₀, x_{n−1}]` returns the end values, as `interp1d`'s
/// `fill_value=(y[0], y[-1])` that NeuroKit2 passes.
///
/// Source: C. de Boor, "A Practical Guide to Splines", Springer, 1978 (B-spline recurrence,
/// BSPLVB); SciPy 1.17 `scipy/interpolate/_bsplines.py` (`_not_a_knot`).
package struct QuadraticInterpolatingSpline {
    /// Left end of each polynomial piece (knot span) and its coefficients `a + b·u + c·u²`,
    /// `u = x − start`.
    var starts: [Double] = []
    var a: [Double] = []
    var b: [Double] = []
    var c: [Double] = []
    let firstX: Double
    let lastX: Double
    let firstY: Double
    let lastY: Double

    /// - Precondition: at least 3 strictly increasing sites.
    package init(x: [Double], y: [Double]) {
        let n = x.count
        precondition(n >= 3 && y.count == n, "quadratic spline needs ≥ 3 sites")
        firstX = x[0]; lastX = x[n - 1]; firstY = y[0]; lastY = y[n - 1]
        // Knots t[0 ..< n+3].
        var t = [Double](repeating: 0, count: n + 3)
        t[0] = x[0]; t[1] = x[0]; t[2] = x[0]
        if n > 3 { for i in 1...(n - 3) { t[i + 2] = (x[i] + x[i + 1]) / 2 } }
        t[n] = x[n - 1]; t[n + 1] = x[n - 1]; t[n + 2] = x[n - 1]

        // Span index l (t[l] ≤ x < t[l+1], last span closed) of each site; columns l−2 … l.
        func span(ofSite i: Int) -> Int {
            if i <= 1 { return 2 }
            if i >= n - 2 { return n - 1 }
            return i + 1
        }
        // Tridiagonal system: sub[i]·c[i−1] + diag[i]·c[i] + sup[i]·c[i+1] = y[i], eliminated
        // row by row as it is assembled (Thomas algorithm: the same operations in the same order
        // as assembling first, without a sub-diagonal array); back-substitution overwrites the
        // right-hand side with the coefficients. Three arrays of n while solving, instead of six.
        var coef = y
        do {
            var diag = [Double](repeating: 0, count: n)
            var sup = [Double](repeating: 0, count: n)
            for i in 0..<n {
                let l = span(ofSite: i)
                let basis = Self.basis(x[i], span: l, knots: t)
                var sub = 0.0
                // Columns l−2, l−1, l relative to row i.
                for (offset, value) in [(l - 2, basis.0), (l - 1, basis.1), (l, basis.2)] {
                    switch offset - i {
                    case -1: sub = value
                    case 0: diag[i] = value
                    case 1: sup[i] = value
                    default: precondition(value == 0, "quadratic spline: unexpected band structure")
                    }
                }
                if i > 0 {
                    let m = sub / diag[i - 1]
                    diag[i] -= m * sup[i - 1]
                    coef[i] -= m * coef[i - 1]
                }
            }
            coef[n - 1] = coef[n - 1] / diag[n - 1]
            for i in stride(from: n - 2, through: 0, by: -1) {
                coef[i] = (coef[i] - sup[i] * coef[i + 1]) / diag[i]
            }
        }
        // Polynomial form of each non-empty span l = 2 … n−1.
        let spans = n - 2
        starts.reserveCapacity(spans); a.reserveCapacity(spans)
        b.reserveCapacity(spans); c.reserveCapacity(spans)
        for l in 2...(n - 1) {
            let t0 = t[l], t1 = t[l + 1]
            // Value at three points of the span determines the quadratic exactly.
            let h = t1 - t0
            let v0 = Self.value(t0, span: l, knots: t, coef: coef)
            let vm = Self.value(t0 + h / 2, span: l, knots: t, coef: coef)
            let v1 = Self.value(t1, span: l, knots: t, coef: coef)
            // q(u) = v0 + B·u + C·u², through (0, v0), (h/2, vm), (h, v1).
            let cc = 2 * (v1 - 2 * vm + v0) / (h * h)
            let bb = (v1 - v0) / h - cc * h
            starts.append(t0); a.append(v0); b.append(bb); c.append(cc)
        }
    }

    /// The three non-zero quadratic B-splines `B_{l−2}, B_{l−1}, B_l` at `x` in span `l`
    /// (de Boor's BSPLVB recurrence).
    static func basis(_ x: Double, span l: Int, knots t: [Double]) -> (Double, Double, Double) {
        let left1 = x - t[l], left2 = x - t[l - 1]
        let right1 = t[l + 1] - x, right2 = t[l + 2] - x
        // Degree 1.
        let term0 = 1 / (right1 + left1)
        let n0 = right1 * term0
        let n1 = left1 * term0
        // Degree 2.
        let termA = n0 / (right1 + left2)
        let m0 = right1 * termA
        var saved = left2 * termA
        let termB = n1 / (right2 + left1)
        let m1 = saved + right2 * termB
        saved = left1 * termB
        return (m0, m1, saved)
    }

    static func value(_ x: Double, span l: Int, knots t: [Double], coef: [Double]) -> Double {
        let bs = basis(x, span: l, knots: t)
        return coef[l - 2] * bs.0 + coef[l - 1] * bs.1 + coef[l] * bs.2
    }

    /// Evaluates the spline at `count` points `x₀ + i·step` (`i = 0 ..< count`), ascending,
    /// writing into `output`.
    /// - Complexity: O(count + pieces).
    package func evaluate(start: Double, step: Double, count: Int, into output: UnsafeMutablePointer<Double>) {
        evaluate(start: start, step: step, firstIndex: 0, count: count, into: output)
    }

    /// Evaluates the spline at the points `x₀ + i·step` for `i = firstIndex ..< firstIndex + count`
    /// (a window of the grid of ``evaluate(start:step:count:into:)``, bit for bit the same values),
    /// writing into `output`. Lets a long resampled series be produced piece by piece.
    /// - Complexity: O(count + log pieces) for `step > 0` (binary search for the first piece).
    package func evaluate(
        start: Double, step: Double, firstIndex: Int, count: Int,
        into output: UnsafeMutablePointer<Double>
    ) {
        starts.withUnsafeBufferPointer { s in
            a.withUnsafeBufferPointer { pa in
                b.withUnsafeBufferPointer { pb in
                    c.withUnsafeBufferPointer { pc in
                        var piece = -1
                        let last = s.count - 1
                        for i in 0..<count {
                            let x = start + Double(firstIndex + i) * step
                            if x < firstX { output[i] = firstY; continue }
                            if x > lastX { output[i] = lastY; continue }
                            if piece < 0 {
                                // Largest piece ≤ last whose start is ≤ x: where the ascending scan
                                // from piece 0 would stand (starts are non-decreasing, s[0] = x₀).
                                var lo = 0, hi = last
                                while lo < hi {
                                    let mid = (lo + hi + 1) / 2
                                    if s[mid] <= x { lo = mid } else { hi = mid - 1 }
                                }
                                piece = lo
                            }
                            while piece < last && x >= s[piece + 1] { piece += 1 }
                            let u = x - s[piece]
                            output[i] = pa[piece] + u * (pb[piece] + u * pc[piece])
                        }
                    }
                }
            }
        }
    }
}

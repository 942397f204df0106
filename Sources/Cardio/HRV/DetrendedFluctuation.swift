import DSP

#if canImport(Glibc)
    import Glibc
#endif

/// Detrended fluctuation analysis (DFA) of an interval series, as NeuroKit2's `fractal_dfa`
/// (order 1, overlapping windows, q = 2), with each window's straight-line fit in closed form
/// from cumulative sums instead of a least-squares solve per window.
///
/// The profile is `y_k = Σ_{j≤k} (x_j − x̄)`. For a scale (window length) `w`, windows start at
/// `0, ⌊w/2⌋, 2⌊w/2⌋, … < n − w` (NeuroKit2's `np.arange(0, n − w, w // 2)`); in each, the
/// least-squares line over `u = 0 … w−1` is removed and the residual variance (divided by `w`)
/// is taken; variances ≤ 1e-8 are dropped, and `F(w) = √mean(variance)`. The scaling exponent
/// `α` is the least-squares slope of `log₂ F(w)` against `log₂ w` over the given scales.
///
/// Closed form: with window sums `S₀ = Σy`, `S₁ = Σu·y`, `S₂ = Σy²`, the residual sum of
/// squares is `S₂ − S₀²/w − (S₁ − (w−1)/2·S₀)² / (w(w²−1)/12)`. The sums come from prefix sums
/// over the whole profile, whose magnitude (up to ~10⁷ ms over a day) dwarfs a short window's
/// residual; the prefix sums and the first two terms are therefore carried in double-double
/// arithmetic (about 106 bits), so each window's variance is accurate to double precision. One
/// window then costs O(1) and a scale O(n/w).
///
/// Sources: C.-K. Peng, S. Havlin, H. E. Stanley and A. L. Goldberger, "Quantification of scaling
/// exponents and crossover phenomena in nonstationary heartbeat time series", Chaos 5(1):82–87,
/// 1995, doi:10.1063/1.166141. T. J. Dekker, "A floating-point technique for extending the
/// available precision", Numer. Math. 18:224–242, 1971, doi:10.1007/BF01397083 (exact products
/// and sums). D. Makowski et al., NeuroKit2 (2021), doi:10.3758/s13428-020-01516-y.
struct DetrendedFluctuation {
    let count: Int
    /// Prefix sums (exclusive) of y, j·y and y², each as (high, low) double-double pairs.
    var p0: [DoubleDouble]
    var p1: [DoubleDouble]
    var p2: [DoubleDouble]

    init(_ x: [Double]) {
        let n = x.count
        count = n
        var sum = 0.0
        for v in x { sum += v }
        let mean = sum / Double(n)
        p0 = [DoubleDouble](repeating: .zero, count: n + 1)
        p1 = p0
        p2 = p0
        var y = 0.0
        var a = DoubleDouble.zero, b = DoubleDouble.zero, c = DoubleDouble.zero
        for j in 0..<n {
            y += x[j] - mean // np.cumsum(signal − mean)
            a = a + y
            b = b + DoubleDouble.product(Double(j), y)
            c = c + DoubleDouble.product(y, y)
            p0[j + 1] = a
            p1[j + 1] = b
            p2[j + 1] = c
        }
    }

    /// F(w) for one scale; NaN when no window has variance above 1e-8.
    func fluctuation(scale w: Int) -> Double {
        precondition(w >= 2 && w < count, "DFA scale must be in 2 ..< n")
        let hop = w / 2
        let wd = Double(w)
        let centre = (wd - 1) / 2
        let sxx = wd * (wd * wd - 1) / 12
        var total = 0.0
        var used = 0
        p0.withUnsafeBufferPointer { q0 in
            p1.withUnsafeBufferPointer { q1 in
                p2.withUnsafeBufferPointer { q2 in
                    var s = 0
                    while s < count - w {
                        let e = s + w
                        let s0 = Window.subtract(q0[e], q0[s])
                        let s1 = Window.subtract(q1[e], q1[s])
                        let s2 = Window.subtract(q2[e], q2[s])
                        // Σ(y − ȳ)² = S₂ − S₀²/w, in double-double.
                        let syy = Window.value(Window.subtract(s2, Window.divide(Window.square(s0), wd)))
                        // Σ(u − ū)(y − ȳ) = Σ j·y − (s + (w−1)/2)·S₀, u = j − s.
                        let sxy = Window.value(Window.subtract(s1, Window.multiply(s0, Double(s) + centre)))
                        let variance = (syy - sxy * sxy / sxx) / wd
                        if variance > 1e-8 { total += variance; used += 1 }
                        s += hop
                    }
                }
            }
        }
        return used > 0 ? (total / Double(used)).squareRoot() : .nan
    }

    /// The window's double-double operations: DSP's `DoubleDouble` `−`, `square`, `/`, `*` and
    /// `value`, operation for operation, on (high, low) pairs. Called from this module the DSP
    /// operators stayed function calls (ten per window, about half of DFA's time); these inline,
    /// and performing the same operations in the same order gives the same bits.
    private enum Window {
        typealias Pair = (high: Double, low: Double)

        @inline(__always) static func twoSum(_ a: Double, _ b: Double) -> Pair {
            let s = a + b
            let bb = s - a
            let e = (a - (s - bb)) + (b - bb)
            return (s, e)
        }

        @inline(__always) static func quickTwoSum(_ a: Double, _ b: Double) -> Pair {
            let s = a + b
            return (s, b - (s - a))
        }

        @inline(__always) static func split(_ a: Double) -> (Double, Double) {
            let t = 134_217_729.0 * a // 2^27 + 1
            let hi = t - (t - a)
            return (hi, a - hi)
        }

        @inline(__always) static func product(_ a: Double, _ b: Double) -> Pair {
            let p = a * b
            let (ah, al) = split(a)
            let (bh, bl) = split(b)
            let e = ((ah * bh - p) + ah * bl + al * bh) + al * bl
            return (p, e)
        }

        @inline(__always) static func add(_ a: Pair, _ b: Pair) -> Pair {
            let s = twoSum(a.high, b.high)
            let t = twoSum(a.low, b.low)
            let u = quickTwoSum(s.high, s.low + t.high)
            return quickTwoSum(u.high, u.low + t.low)
        }

        @inline(__always) static func subtract(_ a: Pair, _ b: Pair) -> Pair { add(a, (-b.high, -b.low)) }

        @inline(__always) static func subtract(_ a: DoubleDouble, _ b: DoubleDouble) -> Pair {
            add((a.high, a.low), (-b.high, -b.low))
        }

        @inline(__always) static func square(_ a: Pair) -> Pair {
            let p = product(a.high, a.high)
            return quickTwoSum(p.high, p.low + 2 * a.high * a.low)
        }

        @inline(__always) static func multiply(_ a: Pair, _ b: Double) -> Pair {
            let p = product(a.high, b)
            return quickTwoSum(p.high, p.low + a.low * b)
        }

        @inline(__always) static func divide(_ a: Pair, _ b: Double) -> Pair {
            let q1 = a.high / b
            let r = subtract(a, product(q1, b))
            let q2 = r.high / b
            return quickTwoSum(q1, q2)
        }

        @inline(__always) static func value(_ a: Pair) -> Double { a.high + a.low }
    }

    /// Scaling exponent: least-squares slope of log₂ F against log₂ scale.
    func alpha(scales: [Int]) -> Double {
        precondition(scales.count >= 2)
        var u = [Double](), v = [Double]()
        for w in scales {
            u.append(log2(Double(w)))
            v.append(log2(fluctuation(scale: w)))
        }
        let m = Double(u.count)
        let uMean = u.reduce(0, +) / m, vMean = v.reduce(0, +) / m
        var suv = 0.0, suu = 0.0
        for i in u.indices {
            suv += (u[i] - uMean) * (v[i] - vMean)
            suu += (u[i] - uMean) * (u[i] - uMean)
        }
        return suv / suu
    }
}

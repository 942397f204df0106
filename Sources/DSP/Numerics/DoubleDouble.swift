/// A double-double number `high + low`, `|low| ≤ ulp(high)/2` (Dekker 1971; the QD library of
/// Y. Hida, X. S. Li and D. H. Bailey, "Algorithms for quad-double precision floating point
/// arithmetic", Proc. ARITH-15, 2001, doi:10.1109/ARITH.2001.930115). Products use Veltkamp's
/// split rather than a fused multiply-add.
@frozen package struct DoubleDouble: Sendable {
    package var high: Double
    package var low: Double

    package static let zero = DoubleDouble(high: 0, low: 0)

    @inlinable package var value: Double { high + low }

    @inlinable
    package static func twoSum(_ a: Double, _ b: Double) -> DoubleDouble {
        let s = a + b
        let bb = s - a
        let e = (a - (s - bb)) + (b - bb)
        return DoubleDouble(high: s, low: e)
    }

    @inlinable
    package static func quickTwoSum(_ a: Double, _ b: Double) -> DoubleDouble {
        let s = a + b
        return DoubleDouble(high: s, low: b - (s - a))
    }

    @inlinable
    package static func split(_ a: Double) -> (Double, Double) {
        let t = 134_217_729.0 * a // 2^27 + 1
        let hi = t - (t - a)
        return (hi, a - hi)
    }

    /// Exact product `a·b` as a double-double.
    @inlinable
    package static func product(_ a: Double, _ b: Double) -> DoubleDouble {
        let p = a * b
        let (ah, al) = split(a)
        let (bh, bl) = split(b)
        let e = ((ah * bh - p) + ah * bl + al * bh) + al * bl
        return DoubleDouble(high: p, low: e)
    }

    @inlinable
    package static func square(_ a: DoubleDouble) -> DoubleDouble {
        let p = product(a.high, a.high)
        return quickTwoSum(p.high, p.low + 2 * a.high * a.low)
    }

    @inlinable
    package static func + (a: DoubleDouble, b: DoubleDouble) -> DoubleDouble {
        let s = twoSum(a.high, b.high)
        let t = twoSum(a.low, b.low)
        let u = quickTwoSum(s.high, s.low + t.high)
        return quickTwoSum(u.high, u.low + t.low)
    }

    @inlinable
    package static func + (a: DoubleDouble, b: Double) -> DoubleDouble {
        let s = twoSum(a.high, b)
        return quickTwoSum(s.high, s.low + a.low)
    }

    @inlinable
    package static prefix func - (a: DoubleDouble) -> DoubleDouble { DoubleDouble(high: -a.high, low: -a.low) }

    @inlinable
    package static func - (a: DoubleDouble, b: DoubleDouble) -> DoubleDouble { a + (-b) }

    @inlinable
    package static func * (a: DoubleDouble, b: Double) -> DoubleDouble {
        let p = product(a.high, b)
        return quickTwoSum(p.high, p.low + a.low * b)
    }

    @inlinable
    package static func / (a: DoubleDouble, b: Double) -> DoubleDouble {
        let q1 = a.high / b
        let r = a - product(q1, b)
        let q2 = r.high / b
        return quickTwoSum(q1, q2)
    }
}

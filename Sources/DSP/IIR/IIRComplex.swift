#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A minimal complex number for filter design (internal).
///
/// Division and square root follow the algorithms NumPy uses (Smith's division as in NumPy's
/// complex `divide` loop; C99 `csqrt` as in glibc), so that pole/zero positions — and hence
/// SciPy's discrete pairing decisions in `zpk2sos` — are reproduced, not merely approximated.
struct IIRComplex: Equatable, Sendable {
    var re: Double
    var im: Double

    init(_ re: Double, _ im: Double = 0) {
        self.re = re
        self.im = im
    }

    static let zero = IIRComplex(0, 0)
    static let one = IIRComplex(1, 0)

    var conjugate: IIRComplex { IIRComplex(re, -im) }
    /// |z| via `hypot` (as `np.abs`).
    var magnitude: Double { hypot(re, im) }
    /// `np.isreal`: the imaginary part is exactly zero.
    var isReal: Bool { im == 0 }

    static prefix func - (z: IIRComplex) -> IIRComplex { IIRComplex(-z.re, -z.im) }
    static func + (a: IIRComplex, b: IIRComplex) -> IIRComplex { IIRComplex(a.re + b.re, a.im + b.im) }
    static func - (a: IIRComplex, b: IIRComplex) -> IIRComplex { IIRComplex(a.re - b.re, a.im - b.im) }
    static func * (a: IIRComplex, b: IIRComplex) -> IIRComplex {
        IIRComplex(a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re)
    }
    /// Complex times real, component-wise (what NumPy's complex × float broadcast yields).
    static func * (a: IIRComplex, s: Double) -> IIRComplex { IIRComplex(a.re * s, a.im * s) }
    static func * (s: Double, a: IIRComplex) -> IIRComplex { IIRComplex(s * a.re, s * a.im) }
    static func / (a: IIRComplex, s: Double) -> IIRComplex { IIRComplex(a.re / s, a.im / s) }

    /// Smith's algorithm with a reciprocal scale, exactly as NumPy's complex `divide` loop.
    static func / (a: IIRComplex, b: IIRComplex) -> IIRComplex {
        let absRe = abs(b.re), absIm = abs(b.im)
        if absRe >= absIm {
            if absRe == 0 && absIm == 0 {
                return IIRComplex(a.re / absRe, a.im / absIm)
            }
            let rat = b.im / b.re
            let scl = 1.0 / (b.re + b.im * rat)
            return IIRComplex((a.re + a.im * rat) * scl, (a.im - a.re * rat) * scl)
        } else {
            let rat = b.re / b.im
            let scl = 1.0 / (b.im + b.re * rat)
            return IIRComplex((a.re * rat + a.im) * scl, (a.im * rat - a.re) * scl)
        }
    }

    /// Principal square root, following glibc's `csqrt` for finite arguments.
    var squareRoot: IIRComplex {
        if im == 0 {
            if re < 0 {
                return IIRComplex(0, copysign(sqrt(-re), im))
            }
            return IIRComplex(abs(sqrt(re)), copysign(0, im))
        }
        if re == 0 {
            let r =
                abs(im) >= 2 * Double.leastNormalMagnitude
                ? sqrt(0.5 * abs(im)) : 0.5 * sqrt(2 * abs(im))
            return IIRComplex(r, copysign(r, im))
        }
        let d = hypot(re, im)
        let r: Double, s: Double
        if re > 0 {
            r = sqrt(0.5 * (d + re))
            s = 0.5 * (im / r)
        } else {
            s = sqrt(0.5 * (d - re))
            r = abs(0.5 * (im / s))
        }
        return IIRComplex(r, copysign(s, im))
    }

    /// e^(iθ) = cos θ + i sin θ.
    static func unit(angle: Double) -> IIRComplex { IIRComplex(cos(angle), sin(angle)) }

    /// Product of a sequence, multiplied left to right (as `np.prod`), starting from 1.
    static func product(_ values: [IIRComplex]) -> IIRComplex {
        values.reduce(IIRComplex.one) { $0 * $1 }
    }
}

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Zeros, poles and gain of a rational transfer function (internal design representation).
///
/// Holds the analog prototype and its frequency transformations exactly as SciPy's
/// `signal._filter_design` computes them (`buttap`, `lp2lp_zpk`, `lp2hp_zpk`, `lp2bp_zpk`,
/// `lp2bs_zpk`, `bilinear_zpk`), operation by operation, so that designs agree with
/// `scipy.signal.butter(..., output='sos')` to rounding.
struct IIRZeroPoleGain: Sendable {
    var zeros: [IIRComplex]
    var poles: [IIRComplex]
    var gain: Double

    /// `len(p) - len(z)`: the number of zeros at infinity.
    var relativeDegree: Int { poles.count - zeros.count }

    /// Analog Butterworth low-pass prototype with cutoff 1 rad/s (Butterworth 1930): poles
    /// `-exp(iπm/(2N))` for `m = -N+1, -N+3, …, N-1`, no zeros, gain 1 (SciPy `buttap`).
    static func butterworthPrototype(order n: Int) -> IIRZeroPoleGain {
        var poles = [IIRComplex]()
        poles.reserveCapacity(n)
        var m = -n + 1
        while m < n {
            // np: 1j * pi * m / (2N) → imaginary part (π·m)/(2N); the middle pole is exactly −1.
            let angle = (Double.pi * Double(m)) / Double(2 * n)
            poles.append(-IIRComplex.unit(angle: angle))
            m += 2
        }
        return IIRZeroPoleGain(zeros: [], poles: poles, gain: 1)
    }

    /// Low-pass → low-pass with cutoff `wo` rad/s (`lp2lp_zpk`).
    func lowPassToLowPass(_ wo: Double) -> IIRZeroPoleGain {
        IIRZeroPoleGain(
            zeros: zeros.map { wo * $0 }, poles: poles.map { wo * $0 },
            gain: gain * pow(wo, Double(relativeDegree)))
    }

    /// Low-pass → high-pass with cutoff `wo` rad/s (`lp2hp_zpk`).
    func lowPassToHighPass(_ wo: Double) -> IIRZeroPoleGain {
        let w = IIRComplex(wo)
        let z = zeros.map { w / $0 } + Array(repeating: .zero, count: relativeDegree)
        let p = poles.map { w / $0 }
        let k = gain * (IIRComplex.product(zeros.map { -$0 }) / IIRComplex.product(poles.map { -$0 })).re
        return IIRZeroPoleGain(zeros: z, poles: p, gain: k)
    }

    /// Low-pass → band-pass centred on `wo` rad/s with bandwidth `bw` rad/s (`lp2bp_zpk`).
    func lowPassToBandPass(_ wo: Double, bandwidth bw: Double) -> IIRZeroPoleGain {
        let wo2 = pow(wo, 2)
        func shift(_ values: [IIRComplex]) -> [IIRComplex] {
            let scaled = values.map { ($0 * bw) / 2 }
            let roots = scaled.map { ($0 * $0 - IIRComplex(wo2)).squareRoot }
            return zip(scaled, roots).map { $0 + $1 } + zip(scaled, roots).map { $0 - $1 }
        }
        let z = shift(zeros) + Array(repeating: .zero, count: relativeDegree)
        return IIRZeroPoleGain(
            zeros: z, poles: shift(poles),
            gain: gain * pow(bw, Double(relativeDegree)))
    }

    /// Low-pass → band-stop centred on `wo` rad/s with bandwidth `bw` rad/s (`lp2bs_zpk`).
    func lowPassToBandStop(_ wo: Double, bandwidth bw: Double) -> IIRZeroPoleGain {
        let wo2 = pow(wo, 2)
        let half = IIRComplex(bw / 2)
        func shift(_ values: [IIRComplex]) -> [IIRComplex] {
            let inverted = values.map { half / $0 }
            let roots = inverted.map { ($0 * $0 - IIRComplex(wo2)).squareRoot }
            return zip(inverted, roots).map { $0 + $1 } + zip(inverted, roots).map { $0 - $1 }
        }
        let d = relativeDegree
        let z =
            shift(zeros) + Array(repeating: IIRComplex(0, wo), count: d)
            + Array(repeating: IIRComplex(0, -wo), count: d)
        let k = gain * (IIRComplex.product(zeros.map { -$0 }) / IIRComplex.product(poles.map { -$0 })).re
        return IIRZeroPoleGain(zeros: z, poles: shift(poles), gain: k)
    }

    /// Bilinear transform s = 2·fs·(z − 1)/(z + 1) (Oppenheim & Schafer, *Discrete-Time Signal
    /// Processing*, §7.2); zeros at infinity map to z = −1 (`bilinear_zpk`).
    func bilinear(sampleRate fs: Double) -> IIRZeroPoleGain {
        let fs2 = IIRComplex(2.0 * fs)
        let z = zeros.map { (fs2 + $0) / (fs2 - $0) } + Array(repeating: IIRComplex(-1), count: relativeDegree)
        let p = poles.map { (fs2 + $0) / (fs2 - $0) }
        let k =
            gain
            * (IIRComplex.product(zeros.map { fs2 - $0 })
            / IIRComplex.product(poles.map { fs2 - $0 })).re
        return IIRZeroPoleGain(zeros: z, poles: p, gain: k)
    }
}

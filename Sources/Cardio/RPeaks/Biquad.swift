import Foundation

/// One second-order IIR section (direct form I, `a0 = 1`), designed by the bilinear transform
/// with frequency pre-warping.
///
/// Designs: R. Bristow-Johnson, *Cookbook formulae for audio EQ biquad filter coefficients*
/// (2005), low-pass and high-pass with `Q = 1/√2`, which are the second-order Butterworth
/// sections (Butterworth 1930; bilinear transform: Oppenheim & Schafer, *Discrete-Time Signal
/// Processing*, 3rd ed., §7.2.2).
@usableFromInline
struct Biquad: Sendable {
    @usableFromInline var b0: Float, b1: Float, b2: Float, a1: Float, a2: Float

    /// Second-order Butterworth low-pass (`highPass == false`) or high-pass section.
    /// - Parameters:
    ///   - cutoff: −3 dB frequency, Hz (0 < cutoff < sampleRate / 2).
    ///   - sampleRate: Hz.
    ///   - highPass: high-pass instead of low-pass.
    init(butterworthCutoff cutoff: Double, sampleRate: Double, highPass: Bool) {
        precondition(cutoff > 0 && cutoff < sampleRate / 2, "cutoff \(cutoff) Hz outside (0, \(sampleRate / 2))")
        let w0 = 2 * Double.pi * cutoff / sampleRate
        let alpha = sin(w0) / (2 * (1 / 2.0.squareRoot()))
        let c = cos(w0)
        let a0 = 1 + alpha
        let nb0 = highPass ? (1 + c) / 2 : (1 - c) / 2
        let nb1 = highPass ? -(1 + c) : 1 - c
        b0 = Float(nb0 / a0); b1 = Float(nb1 / a0); b2 = Float(nb0 / a0)
        a1 = Float(-2 * c / a0); a2 = Float((1 - alpha) / a0)
    }

    /// Phase delay in samples at `frequency` Hz (−arg H / ω).
    func phaseDelay(frequency: Double, sampleRate: Double) -> Double {
        let w = 2 * Double.pi * frequency / sampleRate
        func poly(_ c0: Double, _ c1: Double, _ c2: Double) -> (Double, Double) {
            (c0 + c1 * cos(w) + c2 * cos(2 * w), -(c1 * sin(w) + c2 * sin(2 * w)))
        }
        let (nr, ni) = poly(Double(b0), Double(b1), Double(b2))
        let (dr, di) = poly(1, Double(a1), Double(a2))
        var phase = atan2(ni, nr) - atan2(di, dr)
        while phase > .pi { phase -= 2 * .pi }
        while phase <= -.pi { phase += 2 * .pi }
        return -phase / w
    }
}

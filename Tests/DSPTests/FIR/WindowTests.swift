import DSP
import Testing
import _TestSupport

@Suite("Windows against scipy.signal.windows")
struct WindowTests {
    static func window(_ c: FIRFixtureCase) -> Window {
        switch c.string("window") {
        case "rectangular": return .rectangular
        case "hann": return .hann
        case "hamming": return .hamming
        case "blackman": return .blackman
        default: return .kaiser(beta: c.double("beta"))
        }
    }

    @Test("Every window, length and symmetry matches SciPy to 1e-13 (peak 1)")
    func matchesSciPy() throws {
        let cases = try FIRFixtures.cases("windows")
        #expect(cases.count == 8 * 9 * 2)
        var worst = 0.0
        var lengthMismatches = 0
        for c in cases {
            let w = Self.window(c).coefficients(count: c.int("count"), periodic: !c.bool("symmetric"))
            guard w.count == c.values.count else { lengthMismatches += 1; continue }
            worst = max(worst, FIRFixtures.maxAbsoluteError(w, c.values))
        }
        #expect(lengthMismatches == 0)
        // Measured: bit-identical except Kaiser (1.3e-15, from I0); required ≤ 1e-12.
        #expect(worst < 1e-13, "worst absolute error \(worst)")
    }

    @Test("Kaiser end sample is 1/I0(beta): the Bessel series matches scipy.special.i0")
    func besselI0() throws {
        let x = try Fixtures.doubles("DSPTests", "fir/i0_x.npy")
        let expected = try Fixtures.doubles("DSPTests", "fir/i0.npy")
        var worst = 0.0
        for (beta, i0) in zip(x, expected) {
            // Symmetric length 3: w = [1/I0(β), 1, 1/I0(β)] (I0(0) = 1 at the ends).
            let w = Window.kaiser(beta: beta).coefficients(count: 3)
            worst = max(worst, abs(1 / w[0] - i0) / i0)
            #expect(w[1] == 1)
        }
        // Measured 1.3e-15 relative (x ≤ 500).
        #expect(worst < 1e-14, "worst relative error \(worst)")
    }

    @Test("Degenerate lengths")
    func degenerate() {
        for window in [Window.rectangular, .hann, .hamming, .blackman, .kaiser(beta: 8.6)] {
            #expect(window.coefficients(count: 0).isEmpty)
            #expect(window.coefficients(count: 1) == [1])
            #expect(window.coefficients(count: 1, periodic: true) == [1])
        }
    }
}

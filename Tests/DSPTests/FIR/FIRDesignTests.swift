import DSP
import Foundation
import Testing
import _TestSupport

@Suite("FIRDesign against scipy.signal.firwin / kaiserord")
struct FIRDesignTests {
    static func response(_ c: FIRFixtureCase) -> FIRDesign.Response {
        let f = c.doubles("cutoffs")
        switch c.string("kind") {
        case "lowpass": return .lowPass(cutoff: f[0])
        case "highpass": return .highPass(cutoff: f[0])
        case "bandpass": return .bandPass(low: f[0], high: f[1])
        case "bandstop": return .bandStop(low: f[0], high: f[1])
        default: return .multiBand(cutoffs: f, passZero: c.bool("pass_zero"))
        }
    }

    static func window(_ c: FIRFixtureCase) -> Window {
        switch c.string("window") {
        case "hann": return .hann
        case "hamming": return .hamming
        case "blackman": return .blackman
        case "boxcar": return .rectangular
        default: return .kaiser(beta: c.double("beta"))
        }
    }

    @Test("All designs (4 band types, several lengths, windows, Kaiser) match firwin")
    func matchesFirwin() throws {
        let cases = try FIRFixtures.cases("firwin")
        #expect(cases.count >= 40)
        var worstPeak = 0.0, worstElement = 0.0
        for c in cases {
            let design = try FIRDesign(
                tapCount: c.int("taps"), response: Self.response(c),
                sampleRate: c.double("sample_rate"), window: Self.window(c),
                scale: c.bool("scale"))
            #expect(design.taps.count == c.values.count)
            guard design.taps.count == c.values.count else { continue }
            worstPeak = max(worstPeak, Compare.maxErrorRelativeToPeak(design.taps, c.values))
            // Element-wise relative error, judged against 1e-9 of the peak for taps that are
            // pure rounding noise (sinc zeros, e.g. the fs/4 low-pass).
            worstElement = max(
                worstElement,
                Compare.maxRelativeError(design.taps, c.values, relativeFloor: 1e-9))
        }
        // Measured: 36 of 42 designs bit-identical; the Kaiser ones differ by ≤ 4.5e-16 of the
        // peak (1.4e-15 element-wise) through I0. Required ≤ 1e-12.
        #expect(worstPeak < 1e-13, "worst error relative to peak \(worstPeak)")
        #expect(worstElement < 1e-12, "worst element-wise relative error \(worstElement)")
    }

    @Test("Float taps are the Double taps rounded once")
    func floatTaps() throws {
        let d = try FIRDesign(tapCount: 101, response: .bandPass(low: 0.5, high: 40), sampleRate: 512)
        #expect(d.floatTaps == d.taps.map(Float.init))
    }

    @Test("kaiserord, kaiser_beta and kaiser_atten match SciPy")
    func kaiserFormulas() throws {
        let k = try FIRFixtures.json("kaiser.json")
        let orders = k["kaiserord"] as? [[String: Any]] ?? []
        let betas = k["kaiser_beta"] as? [[String: Any]] ?? []
        let attens = k["kaiser_atten"] as? [[String: Any]] ?? []
        #expect(orders.count == 4 && betas.count == 9 && attens.count == 3)
        func d(_ o: [String: Any], _ key: String) -> Double { (o[key] as? NSNumber)?.doubleValue ?? .nan }
        for o in orders {
            let (n, beta) = try FIRDesign.kaiserOrder(
                rippleDecibels: d(o, "ripple_db"),
                transitionWidth: d(o, "width_hz"),
                sampleRate: d(o, "sample_rate"))
            #expect(n == Int(d(o, "numtaps")))
            #expect(abs(beta - d(o, "beta")) <= 1e-12 * d(o, "beta"))
        }
        for o in betas {
            let beta = FIRDesign.kaiserBeta(attenuationDecibels: d(o, "attenuation_db"))
            #expect(abs(beta - d(o, "beta")) <= 1e-12 * abs(d(o, "beta")))
        }
        for o in attens {
            let a = FIRDesign.kaiserAttenuation(
                tapCount: Int(d(o, "taps")), transitionWidth: d(o, "width_hz"),
                sampleRate: d(o, "sample_rate"))
            #expect(abs(a - d(o, "attenuation_db")) <= 1e-12 * d(o, "attenuation_db"))
        }
    }

    @Test("Invalid specifications throw typed errors naming the problem")
    func errors() {
        func code(_ body: () throws -> Void) -> FIRDesignError.Code? {
            do { try body() } catch let e as FIRDesignError { return e.code } catch { return nil }
            return nil
        }
        #expect(
            code { _ = try FIRDesign(tapCount: 100, response: .highPass(cutoff: 5), sampleRate: 512) }
                == .evenTapCountPassesNyquist)
        #expect(
            code { _ = try FIRDesign(tapCount: 64, response: .bandStop(low: 45, high: 55), sampleRate: 512) }
                == .evenTapCountPassesNyquist)
        #expect(
            code {
                _ = try FIRDesign(
                    tapCount: 64, response: .multiBand(cutoffs: [10, 20, 30], passZero: false),
                    sampleRate: 512)
            } == .evenTapCountPassesNyquist)
        #expect(
            code { _ = try FIRDesign(tapCount: 101, response: .lowPass(cutoff: 256), sampleRate: 512) }
                == .invalidCutoff)
        #expect(
            code { _ = try FIRDesign(tapCount: 101, response: .lowPass(cutoff: 0), sampleRate: 512) }
                == .invalidCutoff)
        #expect(
            code { _ = try FIRDesign(tapCount: 101, response: .bandPass(low: 40, high: 40), sampleRate: 512) }
                == .invalidCutoff)
        #expect(
            code {
                _ = try FIRDesign(
                    tapCount: 101, response: .multiBand(cutoffs: [], passZero: true),
                    sampleRate: 512)
            } == .invalidCutoff)
        #expect(
            code { _ = try FIRDesign(tapCount: 0, response: .lowPass(cutoff: 10), sampleRate: 512) }
                == .invalidTapCount)
        #expect(
            code { _ = try FIRDesign(tapCount: 11, response: .lowPass(cutoff: 10), sampleRate: .nan) }
                == .invalidSampleRate)
        #expect(
            code {
                _ = try FIRDesign(
                    tapCount: 11, response: .lowPass(cutoff: 10), sampleRate: 512,
                    window: .kaiser(beta: .infinity))
            } == .invalidWindow)
        #expect(
            code { _ = try FIRDesign.kaiserOrder(rippleDecibels: 7, transitionWidth: 1, sampleRate: 512) }
                == .invalidSpecification)
        #expect(
            code { _ = try FIRDesign.kaiserOrder(rippleDecibels: 60, transitionWidth: 0, sampleRate: 512) }
                == .invalidSpecification)
        // Even tap counts are fine when the response is zero at Nyquist.
        #expect(
            code { _ = try FIRDesign(tapCount: 64, response: .bandPass(low: 5, high: 30), sampleRate: 512) }
                == nil)
        do {
            _ = try FIRDesign(tapCount: 101, response: .lowPass(cutoff: 300), sampleRate: 512)
        } catch {
            #expect(error.message.contains("300"))
        }
    }
}

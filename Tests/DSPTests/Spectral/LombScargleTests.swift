import DSP
import Foundation
import Testing
import _TestSupport

@Suite("Lomb-Scargle against scipy.signal.lombscargle")
struct LombScargleTests {
    static func caseNames() throws -> [String] {
        let list = try SpectralFixtures.params()["lombscargle"] as? [[String: Any]] ?? []
        return list.compactMap { $0["name"] as? String }
    }

    /// Every (normalize, floating_mean, weights, grid/list) combination in the fixtures.
    static let cases: [String] = (try? caseNames()) ?? []

    /// Per-point error for complex amplitudes: |z − z_ref| / max(|z_ref|, 1e-12 · max|z_ref|).
    static func complexError(re: [Double], im: [Double], expected: [Double]) -> Double {
        var peak = 0.0
        for k in re.indices { peak = max(peak, hypot(expected[2 * k], expected[2 * k + 1])) }
        var worst = 0.0
        for k in re.indices {
            let r = hypot(expected[2 * k], expected[2 * k + 1])
            let e = hypot(re[k] - expected[2 * k], im[k] - expected[2 * k + 1]) / max(r, 1e-12 * peak)
            worst = e.isNaN ? .infinity : max(worst, e)
        }
        return worst
    }

    func compute(_ c: [String: Any], timeOffset: Double = 0) throws -> (got: [Double], imaginary: [Double]?) {
        let times = try SpectralFixtures.doubles("ls_times").map { $0 + timeOffset }
        let values = try SpectralFixtures.doubles("ls_values")
        let weights = c["weighted"] as! Bool ? try SpectralFixtures.doubles("ls_weights") : nil
        let ls = try LombScargle(
            timesSeconds: times, values: values, weights: weights,
            floatingMean: c["floating_mean"] as! Bool)
        let normalize = c["normalize"] as! String
        let grid = try SpectralFixtures.params()["ls_grid"] as! [String: Any]
        let start = grid["start"] as! Double, step = grid["step"] as! Double
        let count = grid["count"] as! Int
        let frequencies =
            c["frequencies"] as! String == "grid"
            ? (0..<count).map { start + Double($0) * step }
            : try SpectralFixtures.doubles("ls_list_hz")
        if normalize == "amplitude" {
            let z = ls.amplitude(frequenciesHz: frequencies)
            return (z.real, z.imaginary)
        }
        let n: LombScargle.Normalization = normalize == "power" ? .power : .normalized
        if c["frequencies"] as! String == "grid" {
            return (ls.power(startHz: start, stepHz: step, count: count, normalization: n), nil)
        }
        return (ls.power(frequenciesHz: frequencies, normalization: n), nil)
    }

    @Test("Matches scipy.signal.lombscargle for every option (relative error < 1e-9)", arguments: cases)
    func matchesSciPy(name: String) throws {
        let c = try SpectralFixtures.spectralCase("lombscargle", name)
        let expected = try SpectralFixtures.doubles(name)
        let (got, imaginary) = try compute(c)
        let error =
            imaginary.map { Self.complexError(re: got, im: $0, expected: expected) }
            ?? SpectralFixtures.binError(got, expected)
        print("lombscargle \(name): error \(error)")
        #expect(error < 1e-9)
    }

    @Test(
        "Powers are unchanged when every time is shifted by 1e5 s (relative error < 1e-6)",
        arguments: ["ls_power_float_u_list", "ls_normalize_fixed_u_grid", "ls_power_float_w_grid"])
    func timeShiftInvariance(name: String) throws {
        let c = try SpectralFixtures.spectralCase("lombscargle", name)
        let expected = try SpectralFixtures.doubles(name)
        let (got, _) = try compute(c, timeOffset: 1e5)
        let error = SpectralFixtures.binError(got, expected)
        print("lombscargle shifted \(name): error \(error)")
        #expect(error < 1e-6)
    }

    /// Without a floating mean the 820 ms offset of the series cancels in every sum, costing
    /// about three digits in the smallest bins (SciPy's FFT path suffers the same), hence 1e-8
    /// there; with a floating mean 1e-9.
    @Test(
        "PSD normalisation equals scipy.signal.periodogram for even sampling (< 1e-8)",
        arguments: [false, true])
    func psdMatchesPeriodogram(floatingMean: Bool) throws {
        let t = try SpectralFixtures.doubles("lspsd_t")
        let y = Array(try SpectralFixtures.doubles("x4")[..<t.count])
        let f = try SpectralFixtures.doubles("lspsd_f")
        let expected = try SpectralFixtures.doubles(floatingMean ? "lspsd_p_constant" : "lspsd_p_none")
        let ls = try LombScargle(timesSeconds: t, values: y, floatingMean: floatingMean)
        let got = ls.power(frequenciesHz: f, normalization: .psd)
        let error = SpectralFixtures.binError(got, expected)
        let tolerance = floatingMean ? 1e-9 : 1e-8
        print("lombscargle psd floatingMean=\(floatingMean): error \(error)")
        #expect(error < tolerance)
        let step = f[1] - f[0]
        let gridGot = ls.power(startHz: f[0], stepHz: step, count: f.count, normalization: .psd)
        #expect(SpectralFixtures.binError(gridGot, expected) < tolerance)
    }

    @Test("Float values give the Double result")
    func floatValues() throws {
        let t = try SpectralFixtures.doubles("ls_times")
        let v = try SpectralFixtures.doubles("ls_values").map { Float($0) }
        let a = try LombScargle(timesSeconds: t, values: v)
        let b = try LombScargle(timesSeconds: t, values: v.map(Double.init))
        let f = [0.05, 0.1, 0.27]
        #expect(a.power(frequenciesHz: f) == b.power(frequenciesHz: f))
    }

    @Test("Bad data is reported as SpectralError")
    func badData() {
        #expect(throws: SpectralError.self) { try LombScargle(timesSeconds: [1], values: [1.0]) }
        #expect(throws: SpectralError.self) { try LombScargle(timesSeconds: [1, 1], values: [1.0, 2]) }
        #expect(throws: SpectralError.self) { try LombScargle(timesSeconds: [0, .nan], values: [1.0, 2]) }
        #expect(throws: SpectralError.self) { try LombScargle(timesSeconds: [0, 1], values: [1.0, .infinity]) }
        #expect(throws: SpectralError.self) {
            try LombScargle(timesSeconds: [0, 1], values: [1.0, 2], weights: [1, -1])
        }
        #expect(throws: SpectralError.self) {
            try LombScargle(timesSeconds: [0, 1], values: [1.0, 2], weights: [0, 0])
        }
    }
}

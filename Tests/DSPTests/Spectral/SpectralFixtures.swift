import DSP
import _TestSupport

/// Reads the `spectral` fixtures written by scripts/refvec/spectral.py.
enum SpectralFixtures {
    static func doubles(_ name: String) throws -> [Double] {
        try Fixtures.doubles("DSPTests", "spectral/\(name).npy")
    }

    static func params() throws -> [String: Any] {
        try Fixtures.json("DSPTests", "spectral/params.json")
    }

    /// The entry of `params[section]` whose "name" is `name`.
    static func spectralCase(_ section: String, _ name: String) throws -> [String: Any] {
        let list = try params()[section] as? [[String: Any]] ?? []
        guard let c = list.first(where: { $0["name"] as? String == name }) else {
            throw SpectralError(.tooFewSamples, "fixture params.json has no \(section) case \(name)")
        }
        return c
    }

    static func window(_ text: String) -> SpectralWindow { text == "boxcar" ? .boxcar : .hann }

    static func detrend(_ text: String) -> SpectralDetrend {
        switch text {
        case "constant": return .constant
        case "linear": return .linear
        default: return .none // SciPy detrend=False
        }
    }

    static func scaling(_ text: String) -> SpectralScaling { text == "spectrum" ? .spectrum : .density }

    /// Per-bin relative error `|a − b| / max(|b|, 1e-12 · max|b|)`: relative in every bin, with a
    /// floor twelve orders of magnitude below the peak for bins that are (numerically) zero,
    /// such as the DC bin after detrending.
    static func binError(_ a: [Double], _ b: [Double]) -> Double {
        Compare.maxRelativeError(a, b, relativeFloor: 1e-12)
    }
}

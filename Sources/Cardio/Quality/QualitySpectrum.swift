import DSP

/// The power spectral density behind pSQI and basSQI (see ``ECGSignalQualityIndex``): mean
/// removed (masked samples set to the mean), Welch with periodic-Hann segments of `⌊n/2⌋`
/// samples, 50 % overlap, no per-segment detrend, FFT length `2·⌊n/2⌋`, density scaling.
struct QualitySpectrum {
    /// Bin frequencies, Hz (`k · fs / fftLength`, evaluated as NumPy's `rfftfreq`).
    var frequencies: [Double]
    /// One-sided PSD, signal unit²/Hz.
    var power: [Double]

    /// The Welch estimator for windows of `count` samples.
    static func estimator(count: Int, sampleRate: Double) -> Welch {
        let segment = count / 2
        return Welch(
            segmentLength: segment, overlap: segment / 2, window: .hann, detrend: .none,
            scaling: .density, average: .mean, fftLength: 2 * segment, sampleRate: sampleRate)
    }

    init(_ x: UnsafeBufferPointer<Float>, masked: UnsafeBufferPointer<Bool>?, sampleRate: Double) {
        let mean = SampleMoments(x, masked: masked).mean
        var welch = Self.estimator(count: x.count, sampleRate: sampleRate)
        self.init(x, masked: masked, mean: mean, welch: &welch, scratch: nil)
    }

    /// - Parameters:
    ///   - mean: the unmasked samples' mean (subtracted; masked samples become 0).
    ///   - welch: an estimator from ``estimator(count:sampleRate:)`` for this count; reset here.
    ///   - scratch: a reusable `Double` buffer of at least `x.count` (or `nil` to allocate).
    init(
        _ x: UnsafeBufferPointer<Float>, masked: UnsafeBufferPointer<Bool>?, mean: Double,
        welch: inout Welch, scratch: UnsafeMutableBufferPointer<Double>?
    ) {
        precondition(x.count >= 2, "a spectrum needs at least 2 samples")
        let n = x.count
        let mu = mean.isFinite ? mean : 0
        let fill: (UnsafeMutableBufferPointer<Double>) -> Void = { d in
            if let m = masked {
                for i in 0..<n { d[i] = m[i] ? 0 : Double(x[i]) - mu }
            } else {
                for i in 0..<n { d[i] = Double(x[i]) - mu }
            }
        }
        welch.reset()
        if let s = scratch {
            precondition(s.count >= n, "scratch too small")
            let d = UnsafeMutableBufferPointer(rebasing: s[0..<n])
            fill(d)
            welch.process(UnsafeBufferPointer(d))
        } else {
            var d = [Double](repeating: 0, count: n)
            d.withUnsafeMutableBufferPointer { fill($0) }
            welch.process(d)
        }
        // The segment length is ≥ 1 and samples were fed, so the estimate cannot fail.
        let psd = try! welch.estimate()
        frequencies = psd.frequencies
        power = psd.power
    }

    /// Trapezoid-rule integral of the PSD over the bins with `band.lowerBound ≤ f < band.upperBound`
    /// (as `numpy.trapezoid(P[m], f[m])`), signal unit².
    func bandPower(_ band: Range<Double>) -> Double {
        var first = -1, last = -1
        for k in frequencies.indices where frequencies[k] >= band.lowerBound && frequencies[k] < band.upperBound {
            if first < 0 { first = k }
            last = k
        }
        guard first >= 0, last > first else { return 0 }
        var sum = 0.0
        for k in first..<last {
            sum += (frequencies[k + 1] - frequencies[k]) * (power[k + 1] + power[k]) / 2
        }
        return sum
    }
}

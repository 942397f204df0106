/// A sample type a spectral estimator accepts, widened exactly to `Double` for computation.
protocol SpectralSample { var spectralDouble: Double { get } }
extension Float: SpectralSample {
    @inline(__always) var spectralDouble: Double { Double(self) }
}
extension Double: SpectralSample {
    @inline(__always) var spectralDouble: Double { self }
}

/// The mutable state of a ``Welch`` estimator: look-back samples, FFT scratch and the running
/// sums of `|X[k]|²`. A class so the scratch memory (FFTW-aligned) is allocated once; ``Welch``
/// keeps value semantics by copying it on write.
final class WelchWorkspace: @unchecked Sendable {
    let segmentLength: Int
    let hop: Int
    let fftLength: Int
    let binCount: Int
    let detrend: SpectralDetrend
    let keepSegments: Bool
    let fft: RealFFT<Double>
    /// (n − 1)/2, the centre of the sample indices, for the linear detrend.
    let indexCentre: Double
    /// 1 / Σ(k − indexCentre)², for the linear detrend slope.
    let inverseIndexVariance: Double

    let window: UnsafeMutablePointer<Double> // segmentLength
    let fftInput: UnsafeMutablePointer<Double> // fftLength, zero beyond segmentLength
    let spectrum: UnsafeMutablePointer<Double> // 2 * binCount, interleaved
    let powerSum: UnsafeMutablePointer<Double> // binCount
    let carry: UnsafeMutablePointer<Double> // < segmentLength look-back samples
    let assembly: UnsafeMutablePointer<Double> // one straddling segment

    var carryCount = 0
    var segmentCount = 0
    var sampleCount = 0
    /// Per-segment `|X[k]|²` (segment-major), only for the median average.
    var segmentPowers: [Double] = []

    init(
        segmentLength: Int, hop: Int, fftLength: Int, window: [Double],
        detrend: SpectralDetrend, keepSegments: Bool
    ) {
        precondition(window.count == segmentLength)
        self.segmentLength = segmentLength
        self.hop = hop
        self.fftLength = fftLength
        self.binCount = fftLength / 2 + 1
        self.detrend = detrend
        self.keepSegments = keepSegments
        self.fft = RealFFT<Double>(count: fftLength)
        let n = Double(segmentLength)
        indexCentre = (n - 1) / 2
        // Σ (k − (n−1)/2)² = n(n² − 1)/12
        let variance = n * (n * n - 1) / 12
        inverseIndexVariance = variance > 0 ? 1 / variance : 0

        self.window = .allocate(capacity: segmentLength)
        self.window.initialize(from: window, count: segmentLength)
        fftInput = Double._allocate(fftLength)
        fftInput.initialize(repeating: 0, count: fftLength)
        spectrum = Double._allocate(2 * binCount)
        spectrum.initialize(repeating: 0, count: 2 * binCount)
        powerSum = .allocate(capacity: binCount)
        powerSum.initialize(repeating: 0, count: binCount)
        carry = .allocate(capacity: segmentLength)
        carry.initialize(repeating: 0, count: segmentLength)
        assembly = .allocate(capacity: segmentLength)
        assembly.initialize(repeating: 0, count: segmentLength)
    }

    deinit {
        window.deallocate()
        Double._free(fftInput)
        Double._free(spectrum)
        powerSum.deallocate()
        carry.deallocate()
        assembly.deallocate()
    }

    /// A deep copy (for copy-on-write in ``Welch``).
    func copy() -> WelchWorkspace {
        let c = WelchWorkspace(
            segmentLength: segmentLength, hop: hop, fftLength: fftLength,
            window: Array(UnsafeBufferPointer(start: window, count: segmentLength)),
            detrend: detrend, keepSegments: keepSegments)
        c.powerSum.update(from: powerSum, count: binCount)
        c.carry.update(from: carry, count: carryCount)
        c.carryCount = carryCount
        c.segmentCount = segmentCount
        c.sampleCount = sampleCount
        c.segmentPowers = segmentPowers
        return c
    }

    /// Forgets every sample and sum; keeps the configuration and scratch memory.
    func reset() {
        powerSum.update(repeating: 0, count: binCount)
        carryCount = 0
        segmentCount = 0
        sampleCount = 0
        segmentPowers = []
    }

    /// Consumes a block: every segment that is now complete is analysed; the samples from the
    /// next segment's start on (fewer than `segmentLength`) are kept as look-back.
    ///
    /// The signal is the concatenation `carry ++ block`; `q` is the start of the next segment in
    /// it. Segments inside the block are read in place; straddling ones are assembled first.
    /// Both paths widen the same values to `Double` and run the same arithmetic, so any split
    /// of a signal into blocks gives bit-identical sums.
    func consume<S: SpectralSample>(_ block: UnsafeBufferPointer<S>) {
        let m = block.count
        guard m > 0, let base = block.baseAddress else { return }
        let n = segmentLength
        let c = carryCount
        var q = 0
        while q + n <= c + m {
            if q < c {
                let fromCarry = c - q
                assembly.update(from: carry + q, count: fromCarry)
                for i in 0..<(n - fromCarry) { assembly[fromCarry + i] = base[i].spectralDouble }
                analyseSegment(UnsafePointer(assembly))
            } else {
                analyseSegment(base + (q - c))
            }
            q += hop
        }
        if q >= c {
            let start = q - c
            let keep = m - start
            for i in 0..<keep { carry[i] = base[start + i].spectralDouble }
            carryCount = keep
        } else {
            let kept = c - q
            if q > 0 { (carry).update(from: carry + q, count: kept) }
            for i in 0..<m { carry[kept + i] = base[i].spectralDouble }
            carryCount = kept + m
        }
        sampleCount += m
    }

    /// Detrends, windows (one fused pass into the FFT input), transforms and accumulates
    /// `|X[k]|²` for one segment of `segmentLength` samples.
    @inline(__always)
    func analyseSegment<S: SpectralSample>(_ x: UnsafePointer<S>) {
        let n = segmentLength
        let w = window
        let out = fftInput
        switch detrend {
        case .none:
            for i in 0..<n { out[i] = x[i].spectralDouble * w[i] }
        case .constant:
            // Eight accumulators: the adds of one chain wait on each other (latency-bound).
            var s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0, s4 = 0.0, s5 = 0.0, s6 = 0.0, s7 = 0.0
            var i = 0
            while i + 8 <= n {
                s0 += x[i].spectralDouble
                s1 += x[i + 1].spectralDouble
                s2 += x[i + 2].spectralDouble
                s3 += x[i + 3].spectralDouble
                s4 += x[i + 4].spectralDouble
                s5 += x[i + 5].spectralDouble
                s6 += x[i + 6].spectralDouble
                s7 += x[i + 7].spectralDouble
                i += 8
            }
            while i < n { s0 += x[i].spectralDouble; i += 1 }
            let mean = (((s0 + s1) + (s2 + s3)) + ((s4 + s5) + (s6 + s7))) / Double(n)
            for j in 0..<n { out[j] = (x[j].spectralDouble - mean) * w[j] }
        case .linear:
            // Least-squares line on centred indices: residual = x − mean − slope·(k − centre).
            let centre = indexCentre
            var s0 = 0.0, s1 = 0.0, t0 = 0.0, t1 = 0.0
            var i = 0
            while i + 2 <= n {
                let a = x[i].spectralDouble, b = x[i + 1].spectralDouble
                s0 += a
                s1 += b
                t0 += (Double(i) - centre) * a
                t1 += (Double(i + 1) - centre) * b
                i += 2
            }
            if i < n {
                let a = x[i].spectralDouble
                s0 += a
                t0 += (Double(i) - centre) * a
            }
            let mean = (s0 + s1) / Double(n)
            let slope = (t0 + t1) * inverseIndexVariance
            for j in 0..<n {
                out[j] = (x[j].spectralDouble - mean - slope * (Double(j) - centre)) * w[j]
            }
        }
        fft.forward(UnsafePointer(out), into: spectrum)
        let bins = binCount
        let spec = spectrum
        if keepSegments {
            let start = segmentPowers.count
            segmentPowers.append(contentsOf: repeatElement(0, count: bins))
            segmentPowers.withUnsafeMutableBufferPointer { p in
                for k in 0..<bins {
                    let re = spec[2 * k], im = spec[2 * k + 1]
                    p[start + k] = re * re + im * im
                }
            }
        } else {
            let acc = powerSum
            for k in 0..<bins {
                let re = spec[2 * k], im = spec[2 * k + 1]
                acc[k] += re * re + im * im
            }
        }
        segmentCount += 1
    }
}

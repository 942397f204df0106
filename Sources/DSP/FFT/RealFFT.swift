/// A real-input discrete Fourier transform of a fixed size, backed by a cached FFTW plan.
///
/// The forward transform maps `count` real samples to the `count / 2 + 1` non-negative-frequency
/// bins, stored **interleaved** (`re0, im0, re1, im1, …`, FFTW's native layout, so no copy is
/// needed): `X[k] = Σₙ x[n]·e^(−2πi·k·n/count)`. The inverse is unnormalised, so
/// `inverse(forward(x)) == count · x`.
///
/// Creating a `RealFFT` is cheap after the first time a size is seen (the plan is cached by
/// ``FFTPlanner``); one value may be used from many threads at once.
///
/// ```swift
/// let fft = RealFFT<Float>(count: 4096)
/// let spectrum = fft.forward(signal)          // 2 * 2049 Floats
/// ```
///
/// Source: FFTW 3 (Frigo & Johnson 2005), real-data DFTs (`fftw_plan_dft_r2c_1d`).
public struct RealFFT<Scalar: FFTScalar>: @unchecked Sendable {
    /// Number of real samples transformed.
    public let count: Int
    /// Number of `Scalar` values in a spectrum: `2 * (count / 2 + 1)`.
    public var spectrumCount: Int { 2 * (count / 2 + 1) }

    @usableFromInline let forwardAligned: OpaquePointer
    @usableFromInline let inverseAligned: OpaquePointer
    @usableFromInline let forwardUnaligned: OpaquePointer
    @usableFromInline let inverseUnaligned: OpaquePointer

    /// Creates (or fetches from the cache) the plans for `count`-point real transforms.
    /// - Parameter count: transform length in samples, ≥ 1. Sizes of the form 2^a·3^b·5^c·7^d
    ///   are fastest.
    /// - Complexity: O(1) when the size is cached; planning cost otherwise (see
    ///   ``FFTPlanner/Rigor``).
    public init(count: Int) {
        precondition(count >= 1, "RealFFT count must be ≥ 1")
        self.count = count
        forwardAligned = FFTPlanner.plan(Scalar.self, count: count, kind: .r2c, aligned: true)
        inverseAligned = FFTPlanner.plan(Scalar.self, count: count, kind: .c2r, aligned: true)
        forwardUnaligned = FFTPlanner.plan(Scalar.self, count: count, kind: .r2c, aligned: false)
        inverseUnaligned = FFTPlanner.plan(Scalar.self, count: count, kind: .c2r, aligned: false)
    }

    /// Forward transform on raw memory: reads `count` samples, writes ``spectrumCount`` values.
    /// - Parameters:
    ///   - input: `count` real samples (not modified).
    ///   - output: room for ``spectrumCount`` values; must not overlap `input`.
    /// - Complexity: O(n log n).
    @inlinable
    public func forward(_ input: UnsafePointer<Scalar>, into output: UnsafeMutablePointer<Scalar>) {
        let i = UnsafeMutablePointer(mutating: input)
        let aligned = Scalar._alignmentOf(i) == 0 && Scalar._alignmentOf(output) == 0
        Scalar._executeR2C(aligned ? forwardAligned : forwardUnaligned, i, output)
    }

    /// Inverse (unnormalised) transform on raw memory. **Destroys `spectrum`** (FFTW's c2r
    /// overwrites its input); copy first if you need it.
    /// - Parameters:
    ///   - spectrum: ``spectrumCount`` interleaved values; overwritten.
    ///   - output: room for `count` samples; must not overlap `spectrum`.
    /// - Complexity: O(n log n).
    @inlinable
    public func inverse(
        destroying spectrum: UnsafeMutablePointer<Scalar>,
        into output: UnsafeMutablePointer<Scalar>
    ) {
        let aligned = Scalar._alignmentOf(spectrum) == 0 && Scalar._alignmentOf(output) == 0
        Scalar._executeC2R(aligned ? inverseAligned : inverseUnaligned, spectrum, output)
    }

    /// Forward transform into a caller's buffer (resized to ``spectrumCount`` if needed).
    /// - Parameters:
    ///   - input: exactly `count` samples.
    ///   - output: receives the interleaved spectrum.
    /// - Complexity: O(n log n); no allocation when `output` already has the right size.
    @inlinable
    public func forward(_ input: [Scalar], into output: inout [Scalar]) {
        precondition(input.count == count, "RealFFT.forward: input must have \(count) samples")
        if output.count != spectrumCount { output = [Scalar](repeating: 0, count: spectrumCount) }
        input.withUnsafeBufferPointer { i in
            output.withUnsafeMutableBufferPointer { o in forward(i.baseAddress!, into: o.baseAddress!) }
        }
    }

    /// Forward transform of `input` (exactly `count` samples); returns the interleaved spectrum.
    /// - Complexity: O(n log n).
    @inlinable
    public func forward(_ input: [Scalar]) -> [Scalar] {
        var out = [Scalar]()
        forward(input, into: &out)
        return out
    }

    /// Inverse (unnormalised) transform of an interleaved spectrum into a caller's buffer.
    /// `spectrum` is left unchanged (it is copied to scratch first).
    /// - Complexity: O(n log n); allocates one scratch spectrum.
    @inlinable
    public func inverse(_ spectrum: [Scalar], into output: inout [Scalar]) {
        precondition(
            spectrum.count == spectrumCount,
            "RealFFT.inverse: spectrum must have \(spectrumCount) values")
        var scratch = spectrum
        if output.count != count { output = [Scalar](repeating: 0, count: count) }
        scratch.withUnsafeMutableBufferPointer { s in
            output.withUnsafeMutableBufferPointer { o in
                inverse(destroying: s.baseAddress!, into: o.baseAddress!)
            }
        }
    }

    /// Inverse (unnormalised) transform; returns `count` samples (`count · x` for `x`'s spectrum).
    /// - Complexity: O(n log n).
    @inlinable
    public func inverse(_ spectrum: [Scalar]) -> [Scalar] {
        var out = [Scalar]()
        inverse(spectrum, into: &out)
        return out
    }
}

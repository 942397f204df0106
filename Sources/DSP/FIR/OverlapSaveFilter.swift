#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A linear-phase FIR filter by streaming FFT **overlap-save** convolution, with its group delay
/// removed: the fast path for long filters (hundreds to thousands of taps).
///
/// Output sample `n` is `y[n] = Σₖ h[k]·x[n + D − k]` with `D = (M − 1)/2` rounded down, `x`
/// zero outside the signal, and as many outputs as inputs: exactly ``FIRFilter``'s definition
/// (and `numpy.convolve(x, h, mode="same")` for signals of at least `M` samples), up to
/// floating-point rounding. For odd `M` and symmetric taps (every ``FIRDesign``) it is
/// zero-phase. For even `M` the half-sample remainder of the group delay `(M − 1)/2` stays in the
/// output (as NumPy's `'same'` alignment does).
///
/// How it works (Oppenheim & Schafer 2010, §8.7.3): the signal is cut into frames of
/// `N = ` ``fftSize`` samples that overlap by `M − 1`; each frame is transformed with a real FFT,
/// multiplied by the precomputed filter spectrum (with FFTW's `1/N` inverse scaling folded in),
/// transformed back, and its last `L = N − M + 1` samples (those free of circular wrap-around)
/// are the next `L` samples of the linear convolution. The first `D` of them are dropped at the
/// start of a segment and ``finish(into:)`` pushes zeros to produce the last `D`.
///
/// Streaming: frames always start at the same absolute sample positions and are only
/// transformed once full, so feeding a signal in blocks of **any** sizes produces
/// **bit-identical** output to feeding it whole. Outputs lag inputs by up to `L + D` samples.
/// A copy of a filter continues the stream independently (copy-on-write buffers, so a filter
/// may be copied to and used from another task like an `Array`: the storage is mutated only
/// after `isKnownUniquelyReferenced`, hence the `@unchecked Sendable`).
///
/// Cost: two real FFTs of size `N` per `L` outputs, i.e. O(log N) per sample; no allocation
/// while streaming except to grow `output` (reserve its capacity to avoid that). The default
/// ``fftSize`` is the measured fastest power of two for the tap count (see
/// ``defaultFFTSize(tapCount:)``).
///
/// ```swift
/// let design = try FIRDesign(tapCount: 1025, response: .bandPass(low: 0.5, high: 40),
///                            sampleRate: 512)
/// var filter = OverlapSaveFilter<Float>(taps: design.taps)
/// var out = [Float]()
/// for block in blocks { filter.process(block, into: &out) }
/// filter.finish(into: &out)          // out.count == total input count
/// ```
///
/// Sources: A. V. Oppenheim and R. W. Schafer, *Discrete-Time Signal Processing*, 3rd ed.,
/// Pearson 2010, §8.7.3 (linear convolution with the DFT, overlap-save); T. G. Stockham,
/// "High-speed convolution and correlation", AFIPS Spring Joint Computer Conf. 1966,
/// doi:10.1145/1464182.1464209; FFTW 3 (Frigo & Johnson 2005) for the transforms.
public struct OverlapSaveFilter<Scalar: FFTScalar>: StreamingProcessor, @unchecked Sendable {
    /// Number of taps `M`.
    public let tapCount: Int
    /// FFT size `N` (≥ `M`), fixed at creation.
    public let fftSize: Int
    /// Delay removed from the output, in samples: `(tapCount − 1) / 2` rounded down.
    public var delay: Int { (tapCount - 1) / 2 }
    /// New samples consumed per FFT frame: `L = fftSize − tapCount + 1`.
    public var blockLength: Int { fftSize - tapCount + 1 }

    @usableFromInline let fft: RealFFT<Scalar>
    /// Filter spectrum divided by `N`, real and imaginary parts of the `N/2 + 1` bins.
    @usableFromInline let filterReal: [Scalar]
    @usableFromInline let filterImaginary: [Scalar]
    @usableFromInline var storage: OverlapSaveStorage<Scalar>

    /// Creates a streaming overlap-save filter.
    /// - Parameters:
    ///   - taps: `h[0] … h[M−1]`, at least one (e.g. ``FIRDesign/taps``). The filter spectrum
    ///     is computed in `Double` and rounded once to `Scalar`.
    ///   - fftSize: FFT size `N` ≥ `taps.count`; `nil` (default) for
    ///     ``defaultFFTSize(tapCount:)``. Sizes 2^a·3^b·5^c·7^d are fast; powers of two fastest.
    /// - Complexity: O(N log N), plus FFTW planning the first time a size is used.
    public init<T: BinaryFloatingPoint>(taps: [T], fftSize: Int? = nil) {
        precondition(!taps.isEmpty, "OverlapSaveFilter needs at least one tap")
        let m = taps.count
        let n = fftSize ?? Self.defaultFFTSize(tapCount: m)
        precondition(n >= m, "OverlapSaveFilter: fftSize \(n) must be ≥ the tap count \(m)")
        tapCount = m
        self.fftSize = n
        fft = RealFFT<Scalar>(count: n)
        var padded = [Double](repeating: 0, count: n)
        for i in 0..<m { padded[i] = Double(taps[i]) }
        let spectrum = RealFFT<Double>(count: n).forward(padded)
        let bins = n / 2 + 1
        let scale = 1 / Double(n)
        var re = [Scalar](repeating: 0, count: bins), im = [Scalar](repeating: 0, count: bins)
        for k in 0..<bins {
            re[k] = Scalar(spectrum[2 * k] * scale)
            im[k] = Scalar(spectrum[2 * k + 1] * scale)
        }
        filterReal = re
        filterImaginary = im
        storage = OverlapSaveStorage(fftSize: n, history: m - 1)
    }

    /// The FFT size used when none is given, from timings of this filter with FFTW on x86-64
    /// (taps 17 … 8193): the power of two at or above `16·(M − 1)` (at least 256), capped at
    /// 16384 for `Float` and 4096 for `Double` (beyond those the transforms fall out of the
    /// first-level cache and cost more per sample than the smaller overlap saves), but never
    /// below the power of two at or above `4·(M − 1)`, so that at least ~3/4 of each frame is
    /// new output. For 1025 taps: 16384 (`Float`), 4096 (`Double`).
    /// - Parameter tapCount: number of taps `M` ≥ 1.
    /// - Returns: `N`, a power of two ≥ `M`.
    /// - Complexity: O(1).
    public static func defaultFFTSize(tapCount: Int) -> Int {
        precondition(tapCount >= 1, "tapCount must be ≥ 1")
        func powerOfTwo(atLeast x: Int) -> Int {
            var n = 1
            while n < x { n *= 2 }
            return n
        }
        let order = tapCount - 1
        let cap = MemoryLayout<Scalar>.size == 4 ? 16384 : 4096
        let n = max(min(powerOfTwo(atLeast: 16 * order), cap), powerOfTwo(atLeast: 4 * order), 256)
        return max(n, powerOfTwo(atLeast: tapCount))
    }

    /// Filters `input` and appends every output that is now final to `output`.
    /// - Parameters:
    ///   - input: the next samples of the signal (any count, including 0).
    ///   - output: receives the filtered samples, a multiple of ``blockLength`` at a time; at
    ///     the end of the stream (after ``finish(into:)``) exactly as many as were input.
    /// - Complexity: O(input.count · log N) amortised.
    @inlinable
    public mutating func process(_ input: UnsafeBufferPointer<Scalar>, into output: inout [Scalar]) {
        guard let base = input.baseAddress, input.count > 0 else { return }
        if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
        let s = storage
        let n = fftSize, history = tapCount - 1
        let frame = s.frame
        var fill = s.fill
        var i = 0
        let count = input.count
        while i < count {
            let k = min(count - i, n - fill)
            (frame + fill).update(from: base + i, count: k)
            fill += k
            i += k
            if fill == n {
                convolveFrame(s, limit: Int.max, into: &output)
                fill = history
            }
        }
        s.fill = fill
        s.samplesIn += count
    }

    /// Appends the held-back outputs (computed with zeros after the signal) and resets the
    /// filter for a new segment.
    /// - Parameter output: receives the remaining samples, so that the segment's output count
    ///   equals its input count.
    /// - Complexity: O(N log N · ⌈(L + D)/L⌉).
    @inlinable
    public mutating func finish(into output: inout [Scalar]) {
        if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
        let s = storage
        let n = fftSize, history = tapCount - 1
        if s.samplesIn > 0 {
            let limit = s.samplesIn + delay
            while s.produced < limit {
                (s.frame + s.fill).update(repeating: 0, count: n - s.fill)
                convolveFrame(s, limit: limit, into: &output)
                s.fill = history
            }
        }
        s.frame.update(repeating: 0, count: history)
        s.fill = history
        s.samplesIn = 0
        s.produced = 0
    }

    /// Filters a whole signal from a fresh state (this filter's own state is not used).
    /// - Parameter input: the signal.
    /// - Returns: `input.count` filtered samples.
    /// - Complexity: O(input.count · log N).
    @inlinable
    public func apply(_ input: [Scalar]) -> [Scalar] {
        var f = self
        f.storage = OverlapSaveStorage(fftSize: fftSize, history: tapCount - 1)
        var out = [Scalar]()
        out.reserveCapacity(input.count)
        f.process(input, into: &out)
        f.finish(into: &out)
        return out
    }

    /// Convolves the full frame in `s`, appends its outputs with full-convolution index in
    /// `[delay, limit)`, advances `s.produced` by `L` and moves the last `M − 1` samples of the
    /// frame to its start. `s.fill` is left for the caller to reset.
    @inlinable
    func convolveFrame(_ s: OverlapSaveStorage<Scalar>, limit: Int, into output: inout [Scalar]) {
        let n = fftSize, history = tapCount - 1, l = n - history
        let frame = s.frame, spectrum = s.spectrum, result = s.result
        fft.forward(frame, into: spectrum)
        filterReal.withUnsafeBufferPointer { re in
            filterImaginary.withUnsafeBufferPointer { im in
                Self.multiply(spectrum, re.baseAddress!, im.baseAddress!, re.count)
            }
        }
        fft.inverse(destroying: spectrum, into: result)
        let produced = s.produced
        let first = max(produced, delay), last = min(produced + l, limit)
        if last > first {
            output.append(
                contentsOf: UnsafeBufferPointer(
                    start: result + history + (first - produced),
                    count: last - first))
        }
        s.produced = produced + l
        if history > 0 {
            memmove(frame, frame + l, history * MemoryLayout<Scalar>.stride)
        }
    }

    /// `spectrum[k] *= filter[k]` for interleaved complex `spectrum` and split `filter`.
    @inlinable
    static func multiply(
        _ s: UnsafeMutablePointer<Scalar>, _ re: UnsafePointer<Scalar>,
        _ im: UnsafePointer<Scalar>, _ bins: Int
    ) {
        for k in 0..<bins {
            let a = s[2 * k], b = s[2 * k + 1]
            let c = re[k], d = im[k]
            s[2 * k] = a * c - b * d
            s[2 * k + 1] = a * d + b * c
        }
    }
}

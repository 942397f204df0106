#if canImport(Glibc)
    import Glibc
#endif

/// The anti-aliasing filter of a rational resampler, laid out as polyphase sub-filters.
///
/// Internal to the resampling types. The prototype low-pass filter is the one
/// `scipy.signal.resample_poly` designs: `firwin(2·H + 1, 1 / max(up, down),
/// window=('kaiser', β))` with `H = 10 · max(up, down)`, scaled by `up`
/// (designed with ``FIRDesign``).
///
/// With input `x` (zero outside `0..<n`) and prototype `h` (length `2H + 1`), output sample `j` is
///
///     y[j] = Σₖ x[k] · h[j·down + H − k·up]
///
/// which is SciPy's `upfirdn` alignment after it drops `(H + pre_pad) / down` leading samples:
/// the filter's centre tap sits on the output sample. For `t = j·down + H`, only the phase
/// `p = t mod up` of the filter meets non-zero input samples; they are
/// `x[kmax − L + 1 … kmax]` with `kmax = ⌊t / up⌋` and `L = ⌊2H / up⌋ + 1`. Each phase is stored
/// reversed and zero-padded at the front to `L` taps, so every output is one contiguous
/// `L`-term dot product and only kept outputs are ever computed (Crochiere & Rabiner 1983,
/// *Multirate Digital Signal Processing*, Prentice-Hall, ch. 3, polyphase structures).
/// For pure decimation (`up == 1`) two consecutive outputs share each load of the taps. Every
/// output is summed in the same fixed order whatever its neighbours, so block-wise and
/// whole-signal results are bit-identical.
@usableFromInline
struct ResamplingKernel<Scalar: FFTScalar & SIMDScalar>: Sendable {
    /// Reduced up-sampling factor.
    @usableFromInline let up: Int
    /// Reduced down-sampling factor.
    @usableFromInline let down: Int
    /// Half length `H` of the prototype filter (which has `2H + 1` taps).
    @usableFromInline let halfLength: Int
    /// Taps per polyphase branch, `L = ⌊2H / up⌋ + 1`.
    @usableFromInline let tapsPerPhase: Int
    /// `up · L` taps, phase-major; branch `p` holds `h[p + (L−1−i)·up]` at index `i` (0 past the end).
    @usableFromInline let taps: [Scalar]

    /// Designs the kernel for `up / down` (already reduced by their gcd).
    init(up: Int, down: Int, kaiserBeta: Double) {
        precondition(up >= 1 && down >= 1, "resampling factors must be ≥ 1")
        self.up = up
        self.down = down
        let maxRate = max(up, down)
        precondition(maxRate <= 1 << 24, "resampling factors too large: the filter would need 20·\(maxRate) taps")
        halfLength = 10 * maxRate
        // scipy.signal.firwin(2H + 1, 1 / max_rate, window=('kaiser', β)) with fs = 2 (cut-off as
        // a fraction of Nyquist). For up == down == 1 the cut-off is Nyquist itself: that kernel
        // is never used (the identity returns its input), so a single unit tap stands in.
        let prototype: [Double]
        if maxRate == 1 {
            prototype = [Double](repeating: 0, count: 2 * halfLength + 1)
        } else {
            do {
                prototype = try FIRDesign(
                    tapCount: 2 * halfLength + 1,
                    response: .lowPass(cutoff: 1 / Double(maxRate)),
                    sampleRate: 2, window: .kaiser(beta: kaiserBeta)
                ).taps
            } catch {
                preconditionFailure("resampling filter design failed: \(error)")
            }
        }
        let length = 2 * halfLength
        let perPhase = length / up + 1
        tapsPerPhase = perPhase
        // SciPy casts the taps to the input's dtype, then multiplies by `up` in that dtype.
        let gain = Scalar(up)
        var laidOut = [Scalar](repeating: 0, count: up * perPhase)
        for p in 0..<up {
            for i in 0..<perPhase {
                let index = p + (perPhase - 1 - i) * up
                if index <= length { laidOut[p * perPhase + i] = Scalar(prototype[index]) * gain }
            }
        }
        taps = laidOut
    }

    /// Index of the last input sample that output `j` depends on, `⌊(j·down + H) / up⌋`.
    @inlinable
    func lastInput(ofOutput j: Int) -> Int { (j * down + halfLength) / up }

    /// Index of the first input sample that output `j` depends on.
    @inlinable
    func firstInput(ofOutput j: Int) -> Int { lastInput(ofOutput: j) - tapsPerPhase + 1 }

    /// The first output index whose last input sample is at or after `k`: ⌈(k·up − H) / down⌉, ≥ 0.
    @inlinable
    func firstOutput(needingInputAtOrAfter k: Int) -> Int {
        let v = k * up - halfLength
        return v <= 0 ? 0 : (v + down - 1) / down
    }

    /// Number of output samples for `n` input samples, `⌈n·up / down⌉` (SciPy's `n_out`).
    @inlinable
    func outputCount(forInputCount n: Int) -> Int { (n * up + down - 1) / down }

    /// Computes outputs `outputs.lowerBound ..< outputs.upperBound` into `out[0...]`.
    ///
    /// `source[0]` is input sample `sourceStart`; the caller guarantees that every sample from
    /// `firstInput(ofOutput: lowerBound)` to `lastInput(ofOutput: upperBound − 1)` is in `source`.
    @inlinable
    func compute(
        _ source: UnsafePointer<Scalar>, sourceStart: Int, outputs: Range<Int>,
        into out: UnsafeMutablePointer<Scalar>
    ) {
        if outputs.isEmpty { return }
        let up = self.up, down = self.down, length = tapsPerPhase
        let downWhole = down / up, downRemainder = down % up
        let t = outputs.lowerBound * down + halfLength
        var kmax = t / up
        var phase = t - kmax * up
        taps.withUnsafeBufferPointer { tb in
            let taps = tb.baseAddress!
            var o = out
            var remaining = outputs.count
            if up == 1 {
                // Pure decimation: one branch, so two outputs share every tap load.
                while remaining >= 2 {
                    let x = source + (kmax - length + 1 - sourceStart)
                    let (y0, y1) = Self.dot2(taps, x, x + down, length)
                    o[0] = y0
                    o[1] = y1
                    o += 2
                    kmax += 2 * down
                    remaining -= 2
                }
            }
            while remaining > 0 {
                remaining -= 1
                let x = source + (kmax - length + 1 - sourceStart)
                o.pointee = Self.dot(taps + phase * length, x, length)
                o += 1
                kmax += downWhole
                phase += downRemainder
                if phase >= up {
                    phase -= up
                    kmax += 1
                }
            }
        }
    }

    /// `Σ a[i]·b[i]` over `count` terms with independent SIMD accumulators and a fixed
    /// summation order (so block-wise and whole-signal results are bit-identical).
    @inlinable @inline(__always)
    static func dot(_ a: UnsafePointer<Scalar>, _ b: UnsafePointer<Scalar>, _ count: Int) -> Scalar {
        typealias V = SIMD8<Scalar>
        @inline(__always) func load(_ p: UnsafePointer<Scalar>) -> V {
            UnsafeRawPointer(p).loadUnaligned(as: V.self)
        }
        var acc0 = V(), acc1 = V()
        var i = 0
        while i &+ 16 <= count {
            acc0 += load(a + i) * load(b + i)
            acc1 += load(a + i + 8) * load(b + i + 8)
            i &+= 16
        }
        if i &+ 8 <= count {
            acc0 += load(a + i) * load(b + i)
            i &+= 8
        }
        var s0 = Scalar.zero, s1 = Scalar.zero
        while i &+ 2 <= count {
            s0 += a[i] * b[i]
            s1 += a[i &+ 1] * b[i &+ 1]
            i &+= 2
        }
        if i < count { s0 += a[i] * b[i] }
        // Pairwise horizontal reduction (a short dependency chain).
        let v = acc0 + acc1
        let w = v.lowHalf + v.highHalf
        let z = w.lowHalf + w.highHalf
        return (z[0] + z[1]) + (s0 + s1)
    }

    /// Two dot products `Σ a[i]·b[i]` and `Σ a[i]·c[i]` sharing the loads of `a`; each result is
    /// bit-identical to ``dot(_:_:_:)`` (same accumulators, same order).
    @inlinable @inline(__always)
    static func dot2(
        _ a: UnsafePointer<Scalar>, _ b: UnsafePointer<Scalar>, _ c: UnsafePointer<Scalar>,
        _ count: Int
    ) -> (Scalar, Scalar) {
        typealias V = SIMD8<Scalar>
        @inline(__always) func load(_ p: UnsafePointer<Scalar>) -> V {
            UnsafeRawPointer(p).loadUnaligned(as: V.self)
        }
        var b0 = V(), b1 = V(), c0 = V(), c1 = V()
        var i = 0
        while i &+ 16 <= count {
            let t0 = load(a + i), t1 = load(a + i + 8)
            b0 += t0 * load(b + i)
            b1 += t1 * load(b + i + 8)
            c0 += t0 * load(c + i)
            c1 += t1 * load(c + i + 8)
            i &+= 16
        }
        if i &+ 8 <= count {
            let t0 = load(a + i)
            b0 += t0 * load(b + i)
            c0 += t0 * load(c + i)
            i &+= 8
        }
        var sb0 = Scalar.zero, sb1 = Scalar.zero, sc0 = Scalar.zero, sc1 = Scalar.zero
        while i &+ 2 <= count {
            sb0 += a[i] * b[i]
            sb1 += a[i &+ 1] * b[i &+ 1]
            sc0 += a[i] * c[i]
            sc1 += a[i &+ 1] * c[i &+ 1]
            i &+= 2
        }
        if i < count {
            sb0 += a[i] * b[i]
            sc0 += a[i] * c[i]
        }
        let vb = b0 + b1, vc = c0 + c1
        let wb = vb.lowHalf + vb.highHalf, wc = vc.lowHalf + vc.highHalf
        let zb = wb.lowHalf + wb.highHalf, zc = wc.lowHalf + wc.highHalf
        return ((zb[0] + zb[1]) + (sb0 + sb1), (zc[0] + zc[1]) + (sc0 + sc1))
    }

    // MARK: - Filter design

}

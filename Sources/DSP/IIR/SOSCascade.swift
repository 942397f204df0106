/// Storage types the SOS kernels read and write; arithmetic is always `Double`.
protocol IIRSample {
    static func fromIIRDouble(_ value: Double) -> Self
    var iirDouble: Double { get }
    /// Loads `p[0], p[1]` (unaligned) as doubles.
    static func iirLoadPair(_ p: UnsafePointer<Self>) -> SIMD2<Double>
    /// Stores the two lanes to `p[0], p[1]` (unaligned).
    static func iirStorePair(_ v: SIMD2<Double>, _ p: UnsafeMutablePointer<Self>)
}

extension Float: IIRSample {
    @inline(__always) static func fromIIRDouble(_ value: Double) -> Float { Float(value) }
    @inline(__always) var iirDouble: Double { Double(self) }
    @inline(__always) static func iirLoadPair(_ p: UnsafePointer<Float>) -> SIMD2<Double> {
        SIMD2<Double>(UnsafeRawPointer(p).loadUnaligned(as: SIMD2<Float>.self))
    }
    @inline(__always) static func iirStorePair(_ v: SIMD2<Double>, _ p: UnsafeMutablePointer<Float>) {
        UnsafeMutableRawPointer(p).storeBytes(of: SIMD2<Float>(v), as: SIMD2<Float>.self)
    }
}

extension Double: IIRSample {
    @inline(__always) static func fromIIRDouble(_ value: Double) -> Double { value }
    @inline(__always) var iirDouble: Double { self }
    @inline(__always) static func iirLoadPair(_ p: UnsafePointer<Double>) -> SIMD2<Double> {
        UnsafeRawPointer(p).loadUnaligned(as: SIMD2<Double>.self)
    }
    @inline(__always) static func iirStorePair(_ v: SIMD2<Double>, _ p: UnsafeMutablePointer<Double>) {
        UnsafeMutableRawPointer(p).storeBytes(of: v, as: SIMD2<Double>.self)
    }
}

/// Compile-time width of a group: four sections, or two for a last group with one or two real
/// sections (so that short cascades do not pay for identity sections).
protocol IIRGroupWidth {
    static var four: Bool { get }
}
enum IIRFourSections: IIRGroupWidth { static var four: Bool { true } }
enum IIRTwoSections: IIRGroupWidth { static var four: Bool { false } }

/// Compile-time direction of a pass over memory.
protocol IIRDirection {
    /// +1 (increasing addresses) or −1 (decreasing: a backward pass read in reverse).
    static var stride: Int { get }
}
enum IIRForward: IIRDirection { static var stride: Int { 1 } }
enum IIRBackward: IIRDirection { static var stride: Int { -1 } }

/// Compile-time choice of the numerator form (so the hot loop carries no branch).
protocol IIRNumeratorForm {
    /// `true`: every section's numerator was divided by its `b0` and the product of the `b0`s is
    /// applied once to the input, saving one multiply per section and sample.
    static var unitLeading: Bool { get }
}
enum IIRUnitLeading: IIRNumeratorForm { static var unitLeading: Bool { true } }
enum IIRGeneralLeading: IIRNumeratorForm { static var unitLeading: Bool { false } }

/// The filtering engine behind ``SOSFilter`` and ``ZeroPhaseSOSFilter`` (internal).
///
/// Each section runs in direct form I in `Double`,
/// `y[n] = (((b1·x[n−1] + b2·x[n−2]) − a2·y[n−2]) + b0·x[n]) − a1·y[n−1]`
/// (Oppenheim & Schafer 2010, §6.3), whose loop-carried dependency is one multiply and one
/// subtraction (transposed direct form II, SciPy's form, carries a multiply and two additions).
/// When every `b0` is non-zero the numerators are divided by their `b0` and the product of the
/// `b0`s is applied once to the input, saving a multiply per section and sample.
///
/// Sections are processed four at a time, *skewed*: at step `n` section `k` of a group works on
/// sample `n − 2k` and takes its input from section `k − 1`'s output of two steps earlier. The
/// four recurrences are then independent within a step and run as two `SIMD2<Double>` pairs
/// (SSE2); the two-step hand-over keeps the cross-section latency off the critical path, so a
/// step costs about one multiply-subtract latency. The first and last samples of every call are
/// done in plain cascade order with the same arithmetic, so results are bitwise independent of
/// how a signal is cut into calls. Longer cascades run group by group over blocks of
/// ``blockLength`` samples held in a `Double` scratch buffer; a last group with one or two real
/// sections runs two lanes wide, other missing sections are identities.
@usableFromInline
struct SOSCascade: Sendable {
    /// Samples per block when several groups of four sections are chained.
    static let blockLength = 1024

    /// Number of real sections.
    let sectionCount: Int
    /// Number of groups of four (padded) sections.
    let groupCount: Int
    /// Numerator form: see ``IIRNumeratorForm``.
    let unitLeading: Bool
    /// Factor applied to the input of the first section (product of all `b0`s when
    /// `unitLeading`, else 1).
    let inputGain: Double
    /// Five coefficients per padded section, `b0, b1, b2, a1, a2` (the `b`s divided by `b0` when
    /// `unitLeading`), stored field-major within each group of four sections (index
    /// `20·group + 4·field + 3 − lane`) so that neighbouring sections' values are adjacent and pair up
    /// into vector registers.
    let coefficients: [Double]
    /// The original (SciPy-unit) coefficients of the real sections, for state conversions.
    let original: [SOS.Section]
    /// `scales[k]`: internal signal after section `k` = `scales[k]` × the signal SciPy's
    /// cascade has at that point; `inputScale` likewise for the cascade input.
    let scales: [Double]
    /// Four state values per padded section, `x[n−1], x[n−2], y[n−1], y[n−2]` (internal units),
    /// field-major within each group (index `16·group + 4·field + 3 − lane`).
    var state: [Double]
    /// Block buffer for chained groups (empty for one group).
    var scratch: [Double]
    /// Samples processed since the state was last set, modulo ``flushInterval``.
    var position = 0

    /// Every this many samples (counted from the start of a segment, so independent of how the
    /// signal is cut into calls) state values below ``flushThreshold`` in magnitude are set to
    /// zero. A decaying state would otherwise sink into the subnormal range, where x86 arithmetic
    /// is ~80× slower (measured: 250 ns instead of 3 ns per sample after an impulse followed by
    /// zeros — flat or zero-padded recordings do this); with the flush they run at full speed.
    static let flushInterval = 8192
    /// Magnitude below which state values are flushed to zero: 1e-290, far below any signal and
    /// above the subnormal range (< 2.2e-308).
    static let flushThreshold = 1e-290

    init(_ sos: SOS) {
        let sections = sos.sections
        sectionCount = sections.count
        groupCount = (sections.count + 3) / 4
        original = sections
        unitLeading = sections.allSatisfy { $0.b0 != 0 && $0.b0.isFinite }
        var gain = 1.0
        var coefficients = [Double](repeating: 0, count: groupCount * 20)
        for k in 0..<(groupCount * 4) {
            var row: [Double] = [1, 0, 0, 0, 0] // identity for padding sections
            if k < sections.count {
                let s = sections[k]
                if unitLeading {
                    gain *= s.b0
                    row = [1, s.b1 / s.b0, s.b2 / s.b0, s.a1, s.a2]
                } else {
                    row = [s.b0, s.b1, s.b2, s.a1, s.a2]
                }
            }
            for field in 0..<5 { coefficients[Self.coefficientIndex(k, field)] = row[field] }
        }
        inputGain = unitLeading ? gain : 1
        self.coefficients = coefficients
        var scales = [Double](repeating: 1, count: sections.count)
        if unitLeading {
            var r = 1.0
            for k in stride(from: sections.count - 1, through: 0, by: -1) {
                scales[k] = r
                r *= sections[k].b0
            }
        }
        self.scales = scales
        state = [Double](repeating: 0, count: groupCount * 16)
        scratch = groupCount > 1 ? [Double](repeating: 0, count: Self.blockLength) : []
    }

    /// Index of coefficient `field` (0…4: b0, b1, b2, a1, a2) of section `k`.
    static func coefficientIndex(_ k: Int, _ field: Int) -> Int { 20 * (k / 4) + 4 * field + 3 - k % 4 }
    /// Index of state `field` (0…3: x[n−1], x[n−2], y[n−1], y[n−2]) of section `k`.
    static func stateIndex(_ k: Int, _ field: Int) -> Int { 16 * (k / 4) + 4 * field + 3 - k % 4 }

    /// Internal units of the cascade input relative to SciPy's.
    var inputScale: Double { inputGain }

    // MARK: - State

    /// Zero state (`sosfilt` without `zi`).
    mutating func resetToZero() {
        position = 0
        for i in state.indices { state[i] = 0 }
    }

    /// The state after a constant input `level` has been applied forever (`sosfilt_zi · level`).
    mutating func setSteadyState(inputLevel level: Double) {
        position = 0
        var v = inputGain * level
        let coefficients = self.coefficients
        for k in 0..<(groupCount * 4) {
            func c(_ field: Int) -> Double { coefficients[Self.coefficientIndex(k, field)] }
            let denominator = 1 + c(3) + c(4)
            precondition(denominator != 0, "SOS section \(k) has a pole at z = 1: no steady state")
            let y = v * ((c(0) + c(1) + c(2)) / denominator)
            state[Self.stateIndex(k, 0)] = v
            state[Self.stateIndex(k, 1)] = v
            state[Self.stateIndex(k, 2)] = y
            state[Self.stateIndex(k, 3)] = y
            v = y
        }
    }

    /// Sets the state from SciPy's transposed-direct-form-II state `zi` (one `[z0, z1]` row per
    /// section): the direct-form-I history chosen gives the same future output.
    mutating func setConditions(_ zi: [[Double]]) {
        precondition(zi.count == sectionCount, "initial conditions need \(sectionCount) rows, got \(zi.count)")
        resetToZero()
        for (k, s) in original.enumerated() {
            precondition(zi[k].count == 2, "each initial-condition row has 2 values (z0, z1)")
            let z0 = zi[k][0], z1 = zi[k][1]
            var v1 = 0.0, v2 = 0.0, y1 = 0.0, y2 = 0.0
            if s.b2 != 0 {
                v1 = z1 / s.b2
                v2 = (z0 - s.b1 * v1) / s.b2
            } else if s.a2 != 0 {
                y1 = -z1 / s.a2
                y2 = -(z0 + s.a1 * y1) / s.a2
            } else {
                precondition(z1 == 0, "section \(k) is first order (b2 = a2 = 0): its z1 must be 0")
                if s.b1 != 0 {
                    v1 = z0 / s.b1
                } else if s.a1 != 0 {
                    y1 = -z0 / s.a1
                } else {
                    precondition(z0 == 0, "section \(k) has no memory: its initial conditions must be 0")
                }
            }
            let inScale = k == 0 ? inputScale : scales[k - 1]
            state[Self.stateIndex(k, 0)] = inScale * v1
            state[Self.stateIndex(k, 1)] = inScale * v2
            state[Self.stateIndex(k, 2)] = scales[k] * y1
            state[Self.stateIndex(k, 3)] = scales[k] * y2
        }
    }

    /// The current state as SciPy's transposed-direct-form-II `zf` (one `[z0, z1]` row per section).
    func conditions() -> [[Double]] {
        original.enumerated().map { k, s in
            let inScale = k == 0 ? inputScale : scales[k - 1]
            let v1 = state[Self.stateIndex(k, 0)] / inScale, v2 = state[Self.stateIndex(k, 1)] / inScale
            let y1 = state[Self.stateIndex(k, 2)] / scales[k], y2 = state[Self.stateIndex(k, 3)] / scales[k]
            return [s.b1 * v1 + s.b2 * v2 - s.a1 * y1 - s.a2 * y2, s.b2 * v1 - s.a2 * y1]
        }
    }

    // MARK: - Filtering entry points

    /// Filters `count` Floats from `input` into `output`, continuing from the current state.
    /// Forward: sample `i` is at `input[i]`. `reversed`: sample `i` is at `input[−i]` (the
    /// pointers address the first sample processed, the highest address), as for the backward
    /// pass of zero-phase filtering. `input` and `output` may be the same memory.
    @usableFromInline
    mutating func filter(
        _ input: UnsafePointer<Float>, _ output: UnsafeMutablePointer<Float>,
        count: Int, reversed: Bool = false
    ) {
        drive(input, output, count, reversed)
    }

    /// `Double` variant of ``filter(_:_:count:reversed:)-(UnsafePointer<Float>,_,_,_)``.
    @usableFromInline
    mutating func filter(
        _ input: UnsafePointer<Double>, _ output: UnsafeMutablePointer<Double>,
        count: Int, reversed: Bool = false
    ) {
        drive(input, output, count, reversed)
    }

    private mutating func drive<I: IIRSample, O: IIRSample>(
        _ input: UnsafePointer<I>, _ output: UnsafeMutablePointer<O>, _ count: Int, _ reversed: Bool
    ) {
        var done = 0
        let d = reversed ? -1 : 1
        while done < count {
            // Pieces end where the stream crosses a multiple of flushInterval.
            let piece = min(count - done, Self.flushInterval - position)
            let i = input + done * d, o = output + done * d
            switch (unitLeading, reversed) {
            case (true, false): driveForm(IIRUnitLeading.self, IIRForward.self, i, o, piece)
            case (true, true): driveForm(IIRUnitLeading.self, IIRBackward.self, i, o, piece)
            case (false, false): driveForm(IIRGeneralLeading.self, IIRForward.self, i, o, piece)
            case (false, true): driveForm(IIRGeneralLeading.self, IIRBackward.self, i, o, piece)
            }
            done += piece
            position += piece
            if position == Self.flushInterval {
                position = 0
                for k in state.indices where abs(state[k]) < Self.flushThreshold { state[k] = 0 }
            }
        }
    }

    private mutating func driveForm<I: IIRSample, O: IIRSample, F: IIRNumeratorForm, D: IIRDirection>(
        _ form: F.Type, _ direction: D.Type, _ input: UnsafePointer<I>, _ output: UnsafeMutablePointer<O>,
        _ count: Int
    ) {
        let groups = groupCount, gain = inputGain, d = D.stride
        let lastIsPair = sectionCount - 4 * (groups - 1) <= 2
        @inline(__always) func last<T: IIRSample>(
            _ c: UnsafePointer<Double>, _ s: UnsafeMutablePointer<Double>,
            _ i: UnsafePointer<T>, _ o: UnsafeMutablePointer<O>,
            _ n: Int, _ g: Double
        ) {
            if lastIsPair {
                Self.runGroup(form, IIRTwoSections.self, direction, c, s, i, o, n, g)
            } else {
                Self.runGroup(form, IIRFourSections.self, direction, c, s, i, o, n, g)
            }
        }
        coefficients.withUnsafeBufferPointer { cb in
            let c = cb.baseAddress!
            state.withUnsafeMutableBufferPointer { sb in
                let s = sb.baseAddress!
                if groups == 1 {
                    last(c, s, input, output, count, gain)
                    return
                }
                scratch.withUnsafeMutableBufferPointer { wb in
                    var start = 0
                    while start < count {
                        let n = min(Self.blockLength, count - start)
                        // The block buffer is walked in the same direction as the signal.
                        let w = d > 0 ? wb.baseAddress! : wb.baseAddress! + (n - 1)
                        Self.runGroup(form, IIRFourSections.self, direction, c, s, input + start * d, w, n, gain)
                        for g in 1..<(groups - 1) {
                            Self.runGroup(
                                form, IIRFourSections.self, direction, c + 20 * g, s + 16 * g,
                                UnsafePointer(w), w, n, 1)
                        }
                        last(c + 20 * (groups - 1), s + 16 * (groups - 1), UnsafePointer(w), output + start * d, n, 1)
                        start += n
                    }
                }
            }
        }
    }

    // MARK: - Kernel

    /// One direct-form-I step of one section; every path uses this, so results are identical.
    @inline(__always)
    static func step<F: IIRNumeratorForm>(
        _ form: F.Type, _ x: Double, _ b0: Double, _ b1: Double, _ b2: Double, _ a1: Double, _ a2: Double,
        _ v1: inout Double, _ v2: inout Double, _ y1: inout Double, _ y2: inout Double
    ) -> Double {
        let u = F.unitLeading ? x : b0 * x
        let y = (((b1 * v1 + b2 * v2) - a2 * y2) + u) - a1 * y1
        v2 = v1
        v1 = x
        y2 = y1
        y1 = y
        return y
    }

    /// The steady-state part of ``runGroup``: `steps` steps in which section `k` works on sample
    /// `n − 2k` (`input[0]` is sample 6 of the call), fed by section `k − 1`'s output of two steps
    /// earlier, i.e. its `y[n−2]` before this step.
    ///
    /// Written with explicit `SIMD2<Double>` pairs — A = sections (3, 2), B = sections (1, 0),
    /// matching the field-major state layout — two steps per iteration, so that every operation is
    /// a vector operation and the hand-over between sections is one `shufpd`. (Left to itself the
    /// SLP vectoriser pairs the scalar form unpredictably and runs up to 2× slower.) Each lane
    /// computes exactly ``step(_:_:_:_:_:_:_:_:_:_:_:)``'s expression.
    @inline(never)
    static func skewedLoop<F: IIRNumeratorForm, W: IIRGroupWidth, D: IIRDirection, I: IIRSample, O: IIRSample>(
        _ form: F.Type, _ width: W.Type, _ direction: D.Type,
        _ c: UnsafePointer<Double>, _ s: UnsafeMutablePointer<Double>,
        _ input: UnsafePointer<I>, _ output: UnsafeMutablePointer<O>, _ steps: Int, _ gain: Double
    ) {
        typealias V = SIMD2<Double>
        @inline(__always) func pair(_ p: UnsafePointer<Double>) -> V { V(p[0], p[1]) }
        // Coefficients are read from memory at each use (cheap loads off the critical path), so
        // that the sixteen SSE registers hold the state instead of spilling it.
        let cv = UnsafeRawPointer(c)
        var bA0: V { cv.loadUnaligned(fromByteOffset: 0, as: V.self) }
        var bB0: V { cv.loadUnaligned(fromByteOffset: 16, as: V.self) }
        var bA1: V { cv.loadUnaligned(fromByteOffset: 32, as: V.self) }
        var bB1: V { cv.loadUnaligned(fromByteOffset: 48, as: V.self) }
        var bA2: V { cv.loadUnaligned(fromByteOffset: 64, as: V.self) }
        var bB2: V { cv.loadUnaligned(fromByteOffset: 80, as: V.self) }
        var aA1: V { cv.loadUnaligned(fromByteOffset: 96, as: V.self) }
        var aB1: V { cv.loadUnaligned(fromByteOffset: 112, as: V.self) }
        var aA2: V { cv.loadUnaligned(fromByteOffset: 128, as: V.self) }
        var aB2: V { cv.loadUnaligned(fromByteOffset: 144, as: V.self) }
        var vA1 = pair(s), vB1 = pair(s + 2), vA2 = pair(s + 4), vB2 = pair(s + 6)
        var yA1 = pair(s + 8), yB1 = pair(s + 10), yA2 = pair(s + 12), yB2 = pair(s + 14)
        var source = input
        var target = output
        @inline(__always) func lead(_ b0: V, _ u: V) -> V { F.unitLeading ? u : b0 * u }
        let gains = V(repeating: gain)
        @inline(__always) func load() -> Double {
            let x = source.pointee.iirDouble
            source += D.stride
            return F.unitLeading ? gain * x : x
        }
        @inline(__always) func store(_ y: Double) {
            target.pointee = O.fromIIRDouble(y)
            target += D.stride
        }
        for _ in 0..<(steps / 2) {
            // Two input samples with one vector load and conversion (lanes in memory order).
            let raw = I.iirLoadPair(D.stride > 0 ? source : source - 1)
            let xs = F.unitLeading ? gains * raw : raw
            let x0 = D.stride > 0 ? xs[0] : xs[1], x1 = D.stride > 0 ? xs[1] : xs[0]
            source += 2 * D.stride
            // Step n: inputs (x3, x2) = (y22, y12), (x1, x0) = (y02, x).
            let inB = V(yB2[1], x0)
            let oB = (((bB1 * vB1 + bB2 * vB2) - aB2 * yB2) + lead(bB0, inB)) - aB1 * yB1
            // Step n + 1: the y[n−2] are now the previous y[n−1].
            let inB2 = V(yB1[1], x1)
            let oB2 = (((bB1 * inB + bB2 * vB1) - aB2 * yB1) + lead(bB0, inB2)) - aB1 * oB
            var out = V(oB[0], oB2[0])
            if W.four {
                let inA = V(yA2[1], yB2[0])
                let oA = (((bA1 * vA1 + bA2 * vA2) - aA2 * yA2) + lead(bA0, inA)) - aA1 * yA1
                let inA2 = V(yA1[1], yB1[0])
                let oA2 = (((bA1 * inA + bA2 * vA1) - aA2 * yA1) + lead(bA0, inA2)) - aA1 * oA
                vA2 = inA; vA1 = inA2; yA2 = oA; yA1 = oA2
                out = V(oA[0], oA2[0])
            }
            vB2 = inB; vB1 = inB2; yB2 = oB; yB1 = oB2
            if D.stride > 0 {
                O.iirStorePair(out, target)
            } else {
                O.iirStorePair(V(out[1], out[0]), target - 1)
            }
            target += 2 * D.stride
        }
        if steps % 2 == 1 {
            let x0 = load()
            let inB = V(yB2[1], x0)
            let oB = (((bB1 * vB1 + bB2 * vB2) - aB2 * yB2) + lead(bB0, inB)) - aB1 * yB1
            var out = oB[0]
            if W.four {
                let inA = V(yA2[1], yB2[0])
                let oA = (((bA1 * vA1 + bA2 * vA2) - aA2 * yA2) + lead(bA0, inA)) - aA1 * yA1
                vA2 = vA1; vA1 = inA; yA2 = yA1; yA1 = oA
                out = oA[0]
            }
            vB2 = vB1; vB1 = inB; yB2 = yB1; yB1 = oB
            store(out)
        }
        @inline(__always) func put(_ p: UnsafeMutablePointer<Double>, _ v: V) { p[0] = v[0]; p[1] = v[1] }
        put(s, vA1); put(s + 2, vB1); put(s + 4, vA2); put(s + 6, vB2)
        put(s + 8, yA1); put(s + 10, yB1); put(s + 12, yA2); put(s + 14, yB2)
    }

    /// Runs one group of four sections over `count` samples (see the type's discussion).
    @inline(__always)
    static func runGroup<F: IIRNumeratorForm, W: IIRGroupWidth, D: IIRDirection, I: IIRSample, O: IIRSample>(
        _ form: F.Type, _ width: W.Type, _ direction: D.Type,
        _ c: UnsafePointer<Double>, _ s: UnsafeMutablePointer<Double>,
        _ input: UnsafePointer<I>, _ output: UnsafeMutablePointer<O>, _ count: Int, _ gain: Double
    ) {
        let inputStride = D.stride, outputStride = D.stride
        let b30 = c[0], b20 = c[1], b10 = c[2], b00 = c[3]
        let b31 = c[4], b21 = c[5], b11 = c[6], b01 = c[7]
        let b32 = c[8], b22 = c[9], b12 = c[10], b02 = c[11]
        let a31 = c[12], a21 = c[13], a11 = c[14], a01 = c[15]
        let a32 = c[16], a22 = c[17], a12 = c[18], a02 = c[19]
        var v31 = s[0], v21 = s[1], v11 = s[2], v01 = s[3]
        var v32 = s[4], v22 = s[5], v12 = s[6], v02 = s[7]
        var y31 = s[8], y21 = s[9], y11 = s[10], y01 = s[11]
        var y32 = s[12], y22 = s[13], y12 = s[14], y02 = s[15]

        @inline(__always) func source(_ i: Int) -> Double {
            let x = input[i * inputStride].iirDouble
            return F.unitLeading ? gain * x : x
        }
        @inline(__always) func lane0(_ x: Double) -> Double {
            step(form, x, b00, b01, b02, a01, a02, &v01, &v02, &y01, &y02)
        }
        @inline(__always) func lane1(_ x: Double) -> Double {
            step(form, x, b10, b11, b12, a11, a12, &v11, &v12, &y11, &y12)
        }
        @inline(__always) func lane2(_ x: Double) -> Double {
            step(form, x, b20, b21, b22, a21, a22, &v21, &v22, &y21, &y22)
        }
        @inline(__always) func lane3(_ x: Double) -> Double {
            step(form, x, b30, b31, b32, a31, a32, &v31, &v32, &y31, &y32)
        }

        let skew = W.four ? 6 : 2 // samples by which the last section lags the first
        if count < 16 {
            // Plain cascade order.
            for i in 0..<count {
                let o1 = lane1(lane0(source(i)))
                output[i * outputStride] = O.fromIIRDouble(W.four ? lane3(lane2(o1)) : o1)
            }
        } else {
            // Ramp-in: section k takes samples 0 ..< skew − 2k in cascade order.
            for m in 0..<skew {
                let o0 = lane0(source(m))
                if W.four && m < 4 {
                    let o1 = lane1(o0)
                    if m < 2 { _ = lane2(o1) }
                }
            }
            // Steady state (a separate function, so that its registers are allocated alone).
            s[0] = v31; s[1] = v21; s[2] = v11; s[3] = v01
            s[4] = v32; s[5] = v22; s[6] = v12; s[7] = v02
            s[8] = y31; s[9] = y21; s[10] = y11; s[11] = y01
            s[12] = y32; s[13] = y22; s[14] = y12; s[15] = y02
            skewedLoop(form, width, direction, c, s, input + skew * inputStride, output, count - skew, gain)
            v31 = s[0]; v21 = s[1]; v11 = s[2]; v01 = s[3]
            v32 = s[4]; v22 = s[5]; v12 = s[6]; v02 = s[7]
            y31 = s[8]; y21 = s[9]; y11 = s[10]; y01 = s[11]
            y32 = s[12]; y22 = s[13]; y12 = s[14]; y02 = s[15]
            // Ramp-out: finish the later sections on their last 2, 4, 6 samples in cascade order.
            let t0 = y02, t1 = y01 // section 0 outputs at count−2, count−1
            if W.four {
                let u0 = y12, u1 = y11 // section 1 outputs at count−4, count−3
                let u2 = lane1(t0), u3 = lane1(t1)
                let w0 = y22, w1 = y21 // section 2 outputs at count−6, count−5
                let w2 = lane2(u0), w3 = lane2(u1), w4 = lane2(u2), w5 = lane2(u3)
                let base = count - 6
                output[base * outputStride] = O.fromIIRDouble(lane3(w0))
                output[(base + 1) * outputStride] = O.fromIIRDouble(lane3(w1))
                output[(base + 2) * outputStride] = O.fromIIRDouble(lane3(w2))
                output[(base + 3) * outputStride] = O.fromIIRDouble(lane3(w3))
                output[(base + 4) * outputStride] = O.fromIIRDouble(lane3(w4))
                output[(base + 5) * outputStride] = O.fromIIRDouble(lane3(w5))
            } else {
                output[(count - 2) * outputStride] = O.fromIIRDouble(lane1(t0))
                output[(count - 1) * outputStride] = O.fromIIRDouble(lane1(t1))
            }
        }

        s[0] = v31; s[1] = v21; s[2] = v11; s[3] = v01
        s[4] = v32; s[5] = v22; s[6] = v12; s[7] = v02
        s[8] = y31; s[9] = y21; s[10] = y11; s[11] = y01
        s[12] = y32; s[13] = y22; s[14] = y12; s[15] = y02
    }
}

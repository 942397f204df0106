/// Storage types the SOS kernels read and write; arithmetic is always `Double`.
protocol IIRSample {
    init(iirDouble: Double)
    var iirDouble: Double { get }
}

extension Float: IIRSample {
    @inline(__always) init(iirDouble value: Double) { self = Float(value) }
    @inline(__always) var iirDouble: Double { Double(self) }
}

extension Double: IIRSample {
    @inline(__always) init(iirDouble value: Double) { self = value }
    @inline(__always) var iirDouble: Double { self }
}

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
/// subtraction (transposed direct form II, SciPy's form, needs three operations).
///
/// Sections are processed four at a time, *skewed*: at step `n` section `k` of a group works on
/// sample `n − 2k` and takes its input from section `k − 1`'s output of two steps earlier. The
/// four recurrences are then independent within a step, so they overlap in the pipeline and the
/// compiler pairs them into SSE2 vector operations; the two-step hand-over keeps the cross-section
/// latency off the critical path. The first and last six samples of every call are done in
/// plain cascade order (same arithmetic, so results are bitwise independent of how a signal is cut
/// into calls). More than four sections are run group by group over blocks of ``blockLength``
/// samples held in a `Double` scratch buffer; missing sections of the last group are identities.
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
    /// Five coefficients per padded section: `b0, b1, b2, a1, a2` (the `b`s divided by `b0` when
    /// `unitLeading`).
    let coefficients: [Double]
    /// The original (SciPy-unit) coefficients of the real sections, for state conversions.
    let original: [SOS.Section]
    /// `scales[k]`: internal signal after section `k` = `scales[k]` × the signal SciPy's
    /// cascade has at that point; `inputScale` likewise for the cascade input.
    let scales: [Double]
    /// Four state values per padded section: `x[n−1], x[n−2], y[n−1], y[n−2]` (internal units).
    var state: [Double]
    /// Block buffer for chained groups (empty for one group).
    var scratch: [Double]

    init(_ sos: SOS) {
        let sections = sos.sections
        sectionCount = sections.count
        groupCount = (sections.count + 3) / 4
        original = sections
        unitLeading = sections.allSatisfy { $0.b0 != 0 && $0.b0.isFinite }
        var gain = 1.0
        var coefficients = [Double]()
        coefficients.reserveCapacity(groupCount * 20)
        for s in sections {
            if unitLeading {
                gain *= s.b0
                coefficients += [1, s.b1 / s.b0, s.b2 / s.b0, s.a1, s.a2]
            } else {
                coefficients += [s.b0, s.b1, s.b2, s.a1, s.a2]
            }
        }
        for _ in sections.count..<(groupCount * 4) { coefficients += [1, 0, 0, 0, 0] }
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

    /// Internal units of the cascade input relative to SciPy's.
    var inputScale: Double { inputGain }

    // MARK: - State

    /// Zero state (`sosfilt` without `zi`).
    mutating func resetToZero() {
        for i in state.indices { state[i] = 0 }
    }

    /// The state after a constant input `level` has been applied forever (`sosfilt_zi · level`).
    mutating func setSteadyState(inputLevel level: Double) {
        var v = inputGain * level
        for k in 0..<(groupCount * 4) {
            let c = 5 * k
            let denominator = 1 + coefficients[c + 3] + coefficients[c + 4]
            precondition(denominator != 0, "SOS section \(k) has a pole at z = 1: no steady state")
            let y = v * ((coefficients[c] + coefficients[c + 1] + coefficients[c + 2]) / denominator)
            state[4 * k] = v
            state[4 * k + 1] = v
            state[4 * k + 2] = y
            state[4 * k + 3] = y
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
            state[4 * k] = inScale * v1
            state[4 * k + 1] = inScale * v2
            state[4 * k + 2] = scales[k] * y1
            state[4 * k + 3] = scales[k] * y2
        }
    }

    /// The current state as SciPy's transposed-direct-form-II `zf` (one `[z0, z1]` row per section).
    func conditions() -> [[Double]] {
        original.enumerated().map { k, s in
            let inScale = k == 0 ? inputScale : scales[k - 1]
            let v1 = state[4 * k] / inScale, v2 = state[4 * k + 1] / inScale
            let y1 = state[4 * k + 2] / scales[k], y2 = state[4 * k + 3] / scales[k]
            return [s.b1 * v1 + s.b2 * v2 - s.a1 * y1 - s.a2 * y2, s.b2 * v1 - s.a2 * y1]
        }
    }

    // MARK: - Filtering entry points

    /// Filters `count` Floats read at `input[i·inputStride]` into `output[i·outputStride]`;
    /// input and output may be the same memory with the same stride.
    @usableFromInline
    mutating func filter(_ input: UnsafePointer<Float>, inputStride: Int,
                         _ output: UnsafeMutablePointer<Float>, outputStride: Int, count: Int) {
        drive(input, inputStride, output, outputStride, count)
    }

    /// `Double` variant of ``filter(_:inputStride:_:outputStride:count:)-(UnsafePointer<Float>,_,_,_,_)``.
    @usableFromInline
    mutating func filter(_ input: UnsafePointer<Double>, inputStride: Int,
                         _ output: UnsafeMutablePointer<Double>, outputStride: Int, count: Int) {
        drive(input, inputStride, output, outputStride, count)
    }

    private mutating func drive<I: IIRSample, O: IIRSample>(
        _ input: UnsafePointer<I>, _ inputStride: Int,
        _ output: UnsafeMutablePointer<O>, _ outputStride: Int, _ count: Int
    ) {
        guard count > 0 else { return }
        if unitLeading {
            driveForm(IIRUnitLeading.self, input, inputStride, output, outputStride, count)
        } else {
            driveForm(IIRGeneralLeading.self, input, inputStride, output, outputStride, count)
        }
    }

    private mutating func driveForm<I: IIRSample, O: IIRSample, F: IIRNumeratorForm>(
        _ form: F.Type, _ input: UnsafePointer<I>, _ inputStride: Int,
        _ output: UnsafeMutablePointer<O>, _ outputStride: Int, _ count: Int
    ) {
        let groups = groupCount, gain = inputGain
        coefficients.withUnsafeBufferPointer { cb in
            let c = cb.baseAddress!
            state.withUnsafeMutableBufferPointer { sb in
                let s = sb.baseAddress!
                if groups == 1 {
                    Self.runGroup(form, c, s, input, inputStride, output, outputStride, count, gain)
                    return
                }
                scratch.withUnsafeMutableBufferPointer { wb in
                    let w = wb.baseAddress!
                    var start = 0
                    while start < count {
                        let n = min(Self.blockLength, count - start)
                        Self.runGroup(form, c, s, input + start * inputStride, inputStride, w, 1, n, gain)
                        for g in 1..<(groups - 1) {
                            Self.runGroup(form, c + 20 * g, s + 16 * g, UnsafePointer(w), 1, w, 1, n, 1)
                        }
                        Self.runGroup(form, c + 20 * (groups - 1), s + 16 * (groups - 1), UnsafePointer(w), 1,
                                      output + start * outputStride, outputStride, n, 1)
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

    /// Runs one group of four sections over `count` samples (see the type's discussion).
    @inline(__always)
    static func runGroup<F: IIRNumeratorForm, I: IIRSample, O: IIRSample>(
        _ form: F.Type, _ c: UnsafePointer<Double>, _ s: UnsafeMutablePointer<Double>,
        _ input: UnsafePointer<I>, _ inputStride: Int,
        _ output: UnsafeMutablePointer<O>, _ outputStride: Int, _ count: Int, _ gain: Double
    ) {
        let b00 = c[0], b01 = c[1], b02 = c[2], a01 = c[3], a02 = c[4]
        let b10 = c[5], b11 = c[6], b12 = c[7], a11 = c[8], a12 = c[9]
        let b20 = c[10], b21 = c[11], b22 = c[12], a21 = c[13], a22 = c[14]
        let b30 = c[15], b31 = c[16], b32 = c[17], a31 = c[18], a32 = c[19]
        var v01 = s[0], v02 = s[1], y01 = s[2], y02 = s[3]
        var v11 = s[4], v12 = s[5], y11 = s[6], y12 = s[7]
        var v21 = s[8], v22 = s[9], y21 = s[10], y22 = s[11]
        var v31 = s[12], v32 = s[13], y31 = s[14], y32 = s[15]

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

        if count < 16 {
            // Plain cascade order.
            for i in 0..<count {
                output[i * outputStride] = O(iirDouble: lane3(lane2(lane1(lane0(source(i))))))
            }
        } else {
            // Ramp-in: section k takes samples 0 ..< 6 − 2k in cascade order.
            for m in 0..<6 {
                let o0 = lane0(source(m))
                if m < 4 {
                    let o1 = lane1(o0)
                    if m < 2 { _ = lane2(o1) }
                }
            }
            // Steady state: section k works on sample n − 2k, fed by section k − 1's output of two
            // steps earlier (its y[n−2] before this step's update).
            var n = 6
            while n < count {
                let x0 = source(n), x1 = y02, x2 = y12, x3 = y22
                _ = lane0(x0)
                _ = lane1(x1)
                _ = lane2(x2)
                let o3 = lane3(x3)
                output[(n - 6) * outputStride] = O(iirDouble: o3)
                n += 1
            }
            // Ramp-out: finish sections 1, 2, 3 on their last 2, 4, 6 samples in cascade order.
            let t0 = y02, t1 = y01                  // section 0 outputs at count−2, count−1
            let u0 = y12, u1 = y11                  // section 1 outputs at count−4, count−3
            let u2 = lane1(t0), u3 = lane1(t1)
            let w0 = y22, w1 = y21                  // section 2 outputs at count−6, count−5
            let w2 = lane2(u0), w3 = lane2(u1), w4 = lane2(u2), w5 = lane2(u3)
            let base = count - 6
            output[base * outputStride] = O(iirDouble: lane3(w0))
            output[(base + 1) * outputStride] = O(iirDouble: lane3(w1))
            output[(base + 2) * outputStride] = O(iirDouble: lane3(w2))
            output[(base + 3) * outputStride] = O(iirDouble: lane3(w3))
            output[(base + 4) * outputStride] = O(iirDouble: lane3(w4))
            output[(base + 5) * outputStride] = O(iirDouble: lane3(w5))
        }

        s[0] = v01; s[1] = v02; s[2] = y01; s[3] = y02
        s[4] = v11; s[5] = v12; s[6] = y11; s[7] = y12
        s[8] = v21; s[9] = v22; s[10] = y21; s[11] = y22
        s[12] = v31; s[13] = v32; s[14] = y31; s[15] = y32
    }
}

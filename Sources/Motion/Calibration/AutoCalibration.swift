import DSP

/// The outcome of the auto-calibration of one accelerometer stream (van Hees et al. 2014).
///
/// Calibrated acceleration is `(raw + offset) · scale` per axis, in g (GGIR's convention).
public struct CalibrationResult: Sendable, Hashable {
    /// Whether the calibration was applied to the epochs: the still windows populate the
    /// sphere and the fit lowers the error below 10 mg (``AutoCalibration/acceptedErrorG``).
    public var accepted: Bool
    /// Still 10-s windows found (per-axis SD < 13 mg, |mean| < 2 g).
    public var stillWindows: Int
    /// Mean |‖mean‖ − 1 g| of the still windows before and after the fit, in g (`nil` when no
    /// fit was made).
    public var errorBeforeG: Double?
    public var errorAfterG: Double?
    /// Offsets added per axis before scaling, in g (zero unless a fit was made).
    public var offsetG: SIMD3<Double>
    /// Scale factors per axis (one unless a fit was made).
    public var scale: SIMD3<Double>
    /// Iterations of the reweighted fit.
    public var iterations: Int
    /// Why the calibration was not applied, or `nil`.
    public var reason: String?

    /// No fit made, with the reason.
    static func notFitted(stillWindows: Int, errorBeforeG: Double?, reason: String) -> CalibrationResult {
        CalibrationResult(
            accepted: false, stillWindows: stillWindows, errorBeforeG: errorBeforeG, errorAfterG: nil, offsetG: .zero,
            scale: .one, iterations: 0, reason: reason)
    }
}

/// Auto-calibration of a three-axis accelerometer against local gravity after van Hees et al.
/// 2014, "Autocalibration of accelerometer data for free-living physical activity assessment
/// using local gravity and temperature: an evaluation on four continents", J Appl Physiol
/// 117(7):738–744, doi:10.1152/japplphysiol.00421.2014, as GGIR implements it (without the
/// temperature term: phones and watches do not record the sensor's temperature).
///
/// Non-overlapping 10-s windows whose three axes all have an SD below 13 mg and a mean within
/// ±2 g are still: their mean acceleration should lie on the unit sphere. An offset and a scale per
/// axis are fitted by iteratively reweighted least squares (Zhou Fang's scheme in GGIR): each
/// iteration projects the calibrated points onto the sphere and regresses, per axis, the
/// projection on the calibrated value (weighted least squares solved by LAPACK `dgelsd` through
/// ``LeastSquaresSolution``), with weights `min(1 / distance, 100)`; at most 1000 iterations,
/// stopping when the weighted residual changes by less than 1e-10.
///
/// Acceptance (GGIR's rule): at least 10 still windows; each axis has still windows below −0.3 g
/// and above +0.3 g (the sphere is populated); after the fit the mean error is below 0.01 g and
/// lower than before. GGIR additionally waits for 72 h of loaded data (`minloadcrit`) before it
/// stops loading; here the whole recording is used at once, so that rule does not apply.
public enum AutoCalibration {
    /// Window length in s.
    public static let windowSeconds = 10
    /// Per-axis SD below which a window is still, in g.
    public static let stillSDG = 0.013
    /// |mean| bound of a still window (excludes clipping), in g.
    public static let maximumMeanG = 2.0
    /// Each axis needs still windows below −this and above +this, in g.
    public static let sphereCriterionG = 0.3
    /// The fitted error must fall below this, in g.
    public static let acceptedErrorG = 0.01
    /// Fewest still windows for a fit.
    public static let minimumStillWindows = 10

    /// Fits offset and scale to the mean accelerations of still windows and applies the
    /// acceptance rule.
    /// - Parameter points: mean acceleration of each still window, in g.
    /// - Returns: the fit and whether it is accepted.
    /// - Complexity: O(iterations · points); at most 1000 iterations.
    public static func fit(_ points: [SIMD3<Double>]) -> CalibrationResult {
        let n = points.count
        func meanError(_ offset: SIMD3<Double>, _ scale: SIMD3<Double>) -> Double {
            var e = 0.0
            for p in points {
                let c = (p + offset) * scale
                e += abs((c * c).sum().squareRoot() - 1)
            }
            return e / Double(max(n, 1))
        }
        guard n >= minimumStillWindows else {
            return .notFitted(
                stillWindows: n, errorBeforeG: n > 0 ? meanError(.zero, .one) : nil,
                reason: "\(n) still 10-s windows (at least \(minimumStillWindows) needed)")
        }
        let before = meanError(.zero, .one)
        var low = SIMD3<Double>(repeating: .infinity), high = SIMD3<Double>(repeating: -.infinity)
        for p in points {
            low = pointwiseMin(low, p)
            high = pointwiseMax(high, p)
        }
        var missing = [String]()
        for (axis, name) in ["x", "y", "z"].enumerated()
        where !(low[axis] < -sphereCriterionG && high[axis] > sphereCriterionG) {
            missing.append(
                "\(name) \(Int((low[axis] * 1000).rounded()))…\(Int((high[axis] * 1000).rounded())) mg")
        }
        if !missing.isEmpty {
            return .notFitted(
                stillWindows: n, errorBeforeG: before,
                reason:
                    "still windows do not reach ±\(Int(sphereCriterionG * 1000)) mg on every axis (\(missing.joined(separator: ", ")))"
            )
        }
        var offset = SIMD3<Double>.zero, scale = SIMD3<Double>.one
        var weights = [Double](repeating: 1, count: n)
        var current = [SIMD3<Double>](repeating: .zero, count: n)
        var closest = current
        var previousResidual = Double.infinity
        var iterations = 0
        var design = [Double](repeating: 0, count: 2 * n)
        var target = [Double](repeating: 0, count: n)
        for iteration in 1...1000 {
            iterations = iteration
            for i in 0..<n {
                let c = (points[i] + offset) * scale
                current[i] = c
                closest[i] = c / (c * c).sum().squareRoot()
            }
            var offsetChange = SIMD3<Double>.zero, scaleChange = SIMD3<Double>.one
            for axis in 0..<3 {
                for i in 0..<n {
                    let w = weights[i].squareRoot()
                    design[2 * i] = w
                    design[2 * i + 1] = w * current[i][axis]
                    target[i] = w * closest[i][axis]
                }
                guard let solution = try? LeastSquaresSolution(Matrix(rows: n, columns: 2, elements: design), target)
                else {
                    return .notFitted(stillWindows: n, errorBeforeG: before, reason: "the least-squares solve failed")
                }
                offsetChange[axis] = solution.solution[0, 0]
                scaleChange[axis] = solution.solution[1, 0]
            }
            var residual = 0.0, weightSum = 0.0
            for i in 0..<n {
                let c = current[i] * scaleChange + offsetChange
                current[i] = c
                let d = c - closest[i]
                residual += weights[i] * (d * d).sum()
                weightSum += weights[i]
            }
            // GGIR: 3 · mean over the n × 3 entries of w · d² / Σw.
            residual = residual / Double(n) / weightSum
            offset += offsetChange / (scale * scaleChange)
            scale *= scaleChange
            for i in 0..<n {
                let d = current[i] - closest[i]
                weights[i] = min(1 / max((d * d).sum().squareRoot(), 1e-300), 100)
            }
            if abs(residual - previousResidual) < 1e-10 { break }
            previousResidual = residual
        }
        let after = meanError(offset, scale)
        var result = CalibrationResult(
            accepted: false, stillWindows: n, errorBeforeG: before, errorAfterG: after, offsetG: offset, scale: scale,
            iterations: iterations, reason: nil)
        if !(after.isFinite && offset.x.isFinite && offset.y.isFinite && offset.z.isFinite) {
            result.reason = "the fit did not converge to finite values"
        } else if after >= acceptedErrorG {
            result.reason = "error after the fit \(Self.milli(after)) mg is not below \(Self.milli(acceptedErrorG)) mg"
        } else if after >= before {
            result.reason = "the fit does not lower the error (\(Self.milli(before)) → \(Self.milli(after)) mg)"
        } else {
            result.accepted = true
        }
        return result
    }

    static func milli(_ g: Double) -> String {
        let v = (g * 10_000).rounded() / 10
        return "\(v)"
    }
}

/// Collects the still 10-s windows of a grid stream (clock-aligned windows of whole grid
/// samples; a window interrupted by a gap is not used).
///
/// - Complexity: O(1) per grid sample; memory O(still windows), at most
///   ``maximumWindows`` points (24 MB; about 10 years of still windows).
struct StillWindowCollector {
    static let maximumWindows = 1_000_000
    let samplesPerWindow: Int
    private var window = Int.min
    private var n = 0
    private var shift = SIMD3<Double>.zero
    private var sum = SIMD3<Double>.zero
    private var squares = SIMD3<Double>.zero
    /// Mean acceleration of each still window, in g.
    private(set) var points: [SIMD3<Double>] = []

    init(sampleRate: Int) {
        samplesPerWindow = sampleRate * AutoCalibration.windowSeconds
    }

    /// Adds grid samples `firstIndex …` (a contiguous run).
    mutating func add(
        firstIndex: Int, x: UnsafeBufferPointer<Float>, y: UnsafeBufferPointer<Float>, z: UnsafeBufferPointer<Float>
    ) {
        let spw = samplesPerWindow
        var w = window, count = n, s = shift, acc = sum, sq = squares
        let total = x.count
        var i = 0
        while i < total {
            // One stretch of samples within one window: the window index once per stretch.
            let k = firstIndex + i
            let index = k >= 0 ? k / spw : (k - spw + 1) / spw
            if index != w {
                close(count, s, acc, sq)
                w = index
                count = 0
                s = SIMD3<Double>(Double(x[i]), Double(y[i]), Double(z[i]))
                acc = .zero
                sq = .zero
            }
            let end = min(total, i + ((index + 1) * spw - k))
            for j in i..<end {
                let d = SIMD3<Double>(Double(x[j]), Double(y[j]), Double(z[j])) - s
                acc += d
                sq += d * d
            }
            count += end - i
            i = end
        }
        window = w
        n = count
        shift = s
        sum = acc
        squares = sq
    }

    /// A gap: the window in progress is incomplete and not used.
    mutating func endRun() {
        window = Int.min
        n = 0
    }

    /// Closes the window in progress at the end of the stream.
    mutating func finish() {
        close(n, shift, sum, squares)
        window = Int.min
        n = 0
    }

    private mutating func close(_ count: Int, _ s: SIMD3<Double>, _ acc: SIMD3<Double>, _ sq: SIMD3<Double>) {
        guard count == samplesPerWindow, count > 1, points.count < Self.maximumWindows else { return }
        let c = Double(count)
        let mean = s + acc / c
        let variance = (sq - acc * acc / c) / (c - 1)
        let limit = AutoCalibration.stillSDG * AutoCalibration.stillSDG
        let bound = AutoCalibration.maximumMeanG
        guard variance.x < limit, variance.y < limit, variance.z < limit,
            abs(mean.x) < bound, abs(mean.y) < bound, abs(mean.z) < bound
        else { return }
        points.append(mean)
    }
}

/// Finds peaks (local maxima) in a signal and selects them by height, threshold, distance,
/// prominence, width and plateau size — `scipy.signal.find_peaks`, with the same indices and
/// properties.
///
/// Definitions (SciPy reference guide, `scipy.signal.find_peaks`, `peak_prominences`,
/// `peak_widths`, SciPy 1.17):
/// - A **peak** is a sample, or a flat run of equal samples (a plateau), whose neighbours on both
///   sides are strictly smaller. The first and last samples are never peaks. A plateau is
///   reported at its middle sample, rounded down for even lengths.
/// - **Threshold**: the vertical distance to the neighbouring samples, `x[p] − x[p∓1]`.
/// - **Distance**: the minimal horizontal distance in samples (rounded up) between kept peaks;
///   peaks are considered from the highest down, and each one kept removes all lower-priority
///   peaks closer than the distance. Of peaks with *equal* height, the later one is considered
///   first (a stable sort). SciPy orders peaks with NumPy's unstable `argsort`, whose order of
///   equal heights depends on the CPU's SIMD sort, so for exactly tied peaks closer than the
///   distance SciPy's own answer varies between machines; without such ties the results are
///   identical.
/// - **Prominence** (topographic prominence): `x[p]` minus the higher of the two bases, where the
///   left (right) base is the minimum of `x` between the peak and the nearest sample to its left
///   (right) that is higher than the peak, or the signal's edge (or the window's edge when
///   `windowLength` is set). Ties in the base minimum keep the sample closest to the peak.
/// - **Width**: the distance between the two points where a horizontal line at
///   `x[p] − relativeHeight · prominence` crosses the signal (linearly interpolated), searched
///   no further than the bases.
///
/// Conditions are applied in SciPy's order: plateau size, height, threshold, distance,
/// prominence, width; each sees only the peaks kept by the previous ones.
///
/// ```swift
/// let finder = PeakFinder(height: .atLeast(0.5), distance: 0.3 * 360, prominence: .atLeast(0.6))
/// let r = finder.find(in: ecg360Hz)        // r.indices, r.prominences!, r.leftBases!
/// ```
///
/// The input must not contain NaN (comparisons with NaN are false, as in SciPy, so a NaN
/// sample simply never takes part in a peak; results are then still those of SciPy).
public struct PeakFinder: Sendable {
    /// An optional minimum and maximum (both inclusive) for a peak property, like SciPy's
    /// `number` or `(min, max)` condition arguments. A literal `0.5` means "at least 0.5".
    public struct Limits: Sendable, Hashable, ExpressibleByFloatLiteral, ExpressibleByIntegerLiteral {
        /// Smallest accepted value (inclusive), or `nil` for no lower limit.
        public var minimum: Double?
        /// Largest accepted value (inclusive), or `nil` for no upper limit.
        public var maximum: Double?

        /// Creates limits; with both `nil` the property is computed and reported but no peak is
        /// removed (SciPy's `(None, None)`).
        /// - Parameters:
        ///   - minimum: inclusive lower limit, or `nil`.
        ///   - maximum: inclusive upper limit, or `nil`.
        /// - Complexity: O(1).
        public init(minimum: Double? = nil, maximum: Double? = nil) {
            self.minimum = minimum
            self.maximum = maximum
        }

        /// Creates a lower limit from a literal.
        /// - Parameter value: inclusive minimum.
        /// - Complexity: O(1).
        public init(floatLiteral value: Double) { self.init(minimum: value) }
        /// Creates a lower limit from a literal.
        /// - Parameter value: inclusive minimum.
        /// - Complexity: O(1).
        public init(integerLiteral value: Int) { self.init(minimum: Double(value)) }

        /// Values ≥ `minimum`.
        /// - Parameter minimum: inclusive lower limit.
        /// - Returns: limits with only a minimum.
        /// - Complexity: O(1).
        public static func atLeast(_ minimum: Double) -> Limits { Limits(minimum: minimum) }
        /// Values ≤ `maximum`.
        /// - Parameter maximum: inclusive upper limit.
        /// - Returns: limits with only a maximum.
        /// - Complexity: O(1).
        public static func atMost(_ maximum: Double) -> Limits { Limits(maximum: maximum) }
        /// Values in `minimum ... maximum`.
        /// - Parameters:
        ///   - minimum: inclusive lower limit.
        ///   - maximum: inclusive upper limit.
        /// - Returns: limits with both ends.
        /// - Complexity: O(1).
        public static func between(_ minimum: Double, _ maximum: Double) -> Limits {
            Limits(minimum: minimum, maximum: maximum)
        }
        /// No limit: compute and report the property only.
        public static let unbounded = Limits()

        /// SciPy's `_select_by_property`: `min <= v` and `v <= max` (false for NaN).
        @usableFromInline
        func accepts(_ value: Double) -> Bool {
            if let minimum, !(minimum <= value) { return false }
            if let maximum, !(value <= maximum) { return false }
            return true
        }
    }

    /// Required peak height `x[p]`, in the signal's units (SciPy `height`).
    public var height: Limits?
    /// Required vertical distance to both neighbours, in the signal's units: the minimum is
    /// compared with the smaller, the maximum with the larger of the two (SciPy `threshold`).
    public var threshold: Limits?
    /// Minimal horizontal distance between peaks in samples, ≥ 1, rounded up (SciPy `distance`).
    public var distance: Double?
    /// Required prominence, in the signal's units (SciPy `prominence`).
    public var prominence: Limits?
    /// Required width in samples at ``relativeHeight`` of the prominence (SciPy `width`).
    public var width: Limits?
    /// Required plateau size in samples (SciPy `plateau_size`).
    public var plateauSize: Limits?
    /// Window in samples, > 1, that limits the search for the prominence bases to
    /// `p − windowLength/2 … p + windowLength/2` (integer division; SciPy `wlen`); `nil` searches
    /// the whole signal.
    public var windowLength: Int?
    /// Height at which widths are measured, as a fraction of the prominence (≥ 0, default 0.5,
    /// SciPy `rel_height`).
    public var relativeHeight: Double

    /// Creates a peak finder; every condition is optional (`nil` = not applied, not reported).
    /// - Parameters:
    ///   - height: limits on `x[p]` (signal units).
    ///   - threshold: limits on the vertical distance to the neighbouring samples (signal units).
    ///   - distance: minimal distance between peaks in samples, ≥ 1.
    ///   - prominence: limits on the prominence (signal units).
    ///   - width: limits on the width in samples.
    ///   - plateauSize: limits on the plateau length in samples.
    ///   - windowLength: prominence search window in samples (> 1), or `nil` for the whole signal.
    ///   - relativeHeight: relative height for widths, ≥ 0; default 0.5.
    /// - Complexity: O(1).
    public init(
        height: Limits? = nil, threshold: Limits? = nil, distance: Double? = nil,
        prominence: Limits? = nil, width: Limits? = nil, plateauSize: Limits? = nil,
        windowLength: Int? = nil, relativeHeight: Double = 0.5
    ) {
        if let distance { precondition(distance >= 1, "PeakFinder: distance must be ≥ 1") }
        if let windowLength { precondition(windowLength > 1, "PeakFinder: windowLength must be > 1") }
        precondition(relativeHeight >= 0, "PeakFinder: relativeHeight must be ≥ 0")
        self.height = height
        self.threshold = threshold
        self.distance = distance
        self.prominence = prominence
        self.width = width
        self.plateauSize = plateauSize
        self.windowLength = windowLength
        self.relativeHeight = relativeHeight
    }

    /// Finds the peaks of `signal` that satisfy every condition.
    /// - Parameter signal: samples (NaN-free).
    /// - Returns: the kept peaks in increasing index order, with their properties.
    /// - Complexity: O(n) to find local maxima, O(p log p) for the distance condition,
    ///   O(Σ base spans) for prominences — O(n·p) in the worst case, O(p·windowLength) with a
    ///   window — and the same for widths.
    public func find(in signal: [Double]) -> Peaks {
        signal.withUnsafeBufferPointer { find(in: $0) }
    }

    /// Finds the peaks of a `Float` signal (evaluated in `Double`, as SciPy converts to float64).
    /// - Parameter signal: samples (NaN-free).
    /// - Returns: the kept peaks with their properties.
    /// - Complexity: as ``find(in:)-(Array<Double>)`` plus an O(n) conversion.
    public func find(in signal: [Float]) -> Peaks {
        find(in: signal.map(Double.init))
    }

    /// Finds the peaks of `signal` that satisfy every condition.
    /// - Parameter signal: samples (NaN-free).
    /// - Returns: the kept peaks in increasing index order, with their properties.
    /// - Complexity: as ``find(in:)-(Array<Double>)``.
    public func find(in signal: UnsafeBufferPointer<Double>) -> Peaks {
        let x = signal
        var r = Peaks()
        PeakSearch.localMaxima(x, into: &r)
        r.heights = r.indices.map { x[$0] }

        if let plateauSize {
            let sizes = r.plateauSizes
            r.keep { plateauSize.accepts(Double(sizes[$0])) }
        }
        if let height {
            let heights = r.heights
            r.keep { height.accepts(heights[$0]) }
        }
        if let threshold {
            r.leftThresholds = r.indices.map { x[$0] - x[$0 - 1] }
            r.rightThresholds = r.indices.map { x[$0] - x[$0 + 1] }
            let left = r.leftThresholds!, right = r.rightThresholds!
            r.keep { i in
                // SciPy compares the minimum with the smaller, the maximum with the larger side.
                let lo = Swift.min(left[i], right[i]), hi = Swift.max(left[i], right[i])
                if let t = threshold.minimum, !(t <= lo) { return false }
                if let t = threshold.maximum, !(hi <= t) { return false }
                return true
            }
        }
        if let distance {
            let keep = PeakSearch.selectByDistance(r.indices, priority: r.heights, distance: distance)
            r.keep { keep[$0] }
        }
        if prominence != nil || width != nil {
            let (p, lb, rb) = PeakSearch.prominences(x, peaks: r.indices, windowLength: windowLength ?? -1)
            r.prominences = p
            r.leftBases = lb
            r.rightBases = rb
        }
        if let prominence {
            let p = r.prominences!
            r.keep { prominence.accepts(p[$0]) }
        }
        if let width {
            let w = PeakSearch.widths(
                x, peaks: r.indices, relativeHeight: relativeHeight,
                prominences: r.prominences!, leftBases: r.leftBases!,
                rightBases: r.rightBases!)
            r.widths = w.widths
            r.widthHeights = w.heights
            r.leftIntersections = w.left
            r.rightIntersections = w.right
            r.keep { width.accepts(w.widths[$0]) }
        }
        return r
    }
}

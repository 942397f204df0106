/// The peaks found by ``PeakFinder`` and their properties (SciPy's `find_peaks` return values).
///
/// All arrays are parallel to ``indices`` (one entry per kept peak, increasing index order).
/// Properties of conditions that were not requested are `nil`, as SciPy omits them from its
/// `properties` dictionary; heights and plateau edges are always reported.
public struct Peaks: Sendable, Hashable {
    /// Sample indices of the peaks (the middle of a plateau, rounded down).
    public var indices: [Int] = []
    /// `x[p]`, in the signal's units (SciPy `peak_heights`).
    public var heights: [Double] = []
    /// Plateau lengths in samples, 1 for a sharp peak (SciPy `plateau_sizes`).
    public var plateauSizes: [Int] = []
    /// First sample of each plateau (SciPy `left_edges`).
    public var leftEdges: [Int] = []
    /// Last sample of each plateau (SciPy `right_edges`).
    public var rightEdges: [Int] = []
    /// `x[p] − x[p−1]` (SciPy `left_thresholds`); set when a threshold condition was given.
    public var leftThresholds: [Double]?
    /// `x[p] − x[p+1]` (SciPy `right_thresholds`); set when a threshold condition was given.
    public var rightThresholds: [Double]?
    /// Topographic prominences, in the signal's units (SciPy `prominences`); set when a
    /// prominence or width condition was given.
    public var prominences: [Double]?
    /// Index of the lowest point between the peak and the left reference (SciPy `left_bases`).
    public var leftBases: [Int]?
    /// Index of the lowest point between the peak and the right reference (SciPy `right_bases`).
    public var rightBases: [Int]?
    /// Widths in samples at the evaluation height (SciPy `widths`); set when a width condition
    /// was given.
    public var widths: [Double]?
    /// The evaluation heights `x[p] − relativeHeight · prominence` (SciPy `width_heights`).
    public var widthHeights: [Double]?
    /// Interpolated position (fractional sample index) of the left crossing (SciPy `left_ips`).
    public var leftIntersections: [Double]?
    /// Interpolated position (fractional sample index) of the right crossing (SciPy `right_ips`).
    public var rightIntersections: [Double]?

    /// Creates an empty result.
    /// - Complexity: O(1).
    public init() {}

    /// Number of peaks.
    /// - Complexity: O(1).
    public var count: Int { indices.count }

    /// Keeps the peaks `i` for which `predicate(i)` is true, in every array.
    mutating func keep(_ predicate: (Int) -> Bool) {
        let mask = (0..<indices.count).map(predicate)
        if mask.allSatisfy({ $0 }) { return }
        func filter<T>(_ a: [T]) -> [T] {
            var out = [T]()
            out.reserveCapacity(a.count)
            for i in a.indices where mask[i] { out.append(a[i]) }
            return out
        }
        func filter<T>(_ a: [T]?) -> [T]? { a.map { filter($0) } }
        indices = filter(indices)
        heights = filter(heights)
        plateauSizes = filter(plateauSizes)
        leftEdges = filter(leftEdges)
        rightEdges = filter(rightEdges)
        leftThresholds = filter(leftThresholds)
        rightThresholds = filter(rightThresholds)
        prominences = filter(prominences)
        leftBases = filter(leftBases)
        rightBases = filter(rightBases)
        widths = filter(widths)
        widthHeights = filter(widthHeights)
        leftIntersections = filter(leftIntersections)
        rightIntersections = filter(rightIntersections)
    }
}

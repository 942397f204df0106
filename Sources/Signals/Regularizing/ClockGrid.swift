/// A uniform time grid: grid point `k` (any integer) at time `origin + k / sampleRate` seconds, or
/// `origin + k · step` for a grid declared by its step.
///
/// The shared core of every regulariser that puts samples on a uniform grid by linear
/// interpolation (Recordings' ``Regularizer``, the motion family's clock grid, the PPG family's
/// 25-Hz analysis grid): the grid's times, computed exactly as each user declared them, and the
/// walk over the grid points that each input interval covers (``GridWalk``).
///
/// Grid times `k / R` of an integral rate `R` in 2…1024 come from a table (``GridTimes``) that
/// gives exactly the correctly rounded quotient, so `time(k)` equals `origin + Double(k) / R`
/// bit for bit without a division.
public struct ClockGrid: Sendable {
    /// Time of grid point 0, seconds (0: the grid is anchored to the clock, so two streams of
    /// one device share their grid and epochs start on a grid point).
    public let origin: Double
    /// Grid rate in Hz.
    public let sampleRate: Double
    /// The step of a grid declared by its step (``init(step:origin:)``), else `nil`.
    @usableFromInline let step: Double?
    /// The division-free grid times of an integral rate in 2…1024 (``GridTimes``), else `nil`.
    public let table: GridTimes?

    /// A grid of `sampleRate` points per second from `origin`: point `k` at
    /// `origin + Double(k) / sampleRate` (correctly rounded division).
    /// - Parameters:
    ///   - sampleRate: grid rate in Hz (> 0, finite).
    ///   - origin: time of grid point 0, seconds (default 0: aligned to the clock).
    public init(sampleRate: Double, origin: Double = 0) {
        precondition(sampleRate > 0 && sampleRate.isFinite, "ClockGrid: sampleRate must be positive")
        self.origin = origin
        self.sampleRate = sampleRate
        step = nil
        table = GridTimes(sampleRate: sampleRate)
    }

    /// A grid of one point every `step` seconds from `origin`: point `k` at
    /// `origin + Double(k) * step` (the product, as a grid declared by its step computes it).
    /// - Parameters:
    ///   - step: grid spacing in seconds (> 0, finite).
    ///   - origin: time of grid point 0, seconds.
    public init(step: Double, origin: Double) {
        precondition(step > 0 && step.isFinite, "ClockGrid: step must be positive")
        self.origin = origin
        sampleRate = 1 / step
        self.step = step
        table = nil
    }

    /// Time of grid point `k`, seconds.
    /// - Complexity: O(1), no division for an integral rate in 2…1024.
    @inlinable
    public func time(_ k: Int) -> Double {
        if let step { return origin + Double(k) * step }
        if let table, let t = table.time(k) { return origin + t }
        return origin + Double(k) / sampleRate
    }
}

/// The walk every regulariser shares: input samples in time order, and for each input interval
/// `(previous, t]` the grid points it covers, each handed to the caller with its time, which
/// interpolates `value(g) = a + (b − a) · (g − previous) / (t − previous)` between the two input
/// samples that bracket it (GGIR's linear resampling: van Hees et al. 2013, "Separating movement
/// and gravity components in an acceleration signal and implications for the assessment of
/// human daily physical activity", PLoS ONE 8(4):e61691, doi:10.1371/journal.pone.0061691).
///
/// A grid point is due at input time `t` when its time is at most `t` (``snap`` 0) or, with a
/// snap tolerance, when `t · R − k ≥ −snap` in grid intervals (the grid anchored at 0); a point
/// within the tolerance of `t` is the input sample itself (`onSample`). Where runs end (gaps,
/// masked samples, segments) and what a point holds (columns, flags, masks) is the caller's.
///
/// Streaming: the walk's state is the next grid index, so any split of the input into blocks
/// gives the same points.
public struct GridWalk: Sendable {
    /// The grid.
    public let grid: ClockGrid
    /// Snap tolerance in grid intervals (0: exact time comparisons).
    public let snap: Double
    /// The next grid point not yet handed over.
    public var next: Int

    /// Creates a walk over `grid` starting at grid point `next`.
    /// - Parameters:
    ///   - grid: the grid.
    ///   - snap: tolerance in grid intervals within which an input time counts as on a grid point
    ///     (≥ 0; only for a grid anchored at 0, ``ClockGrid/origin`` = 0).
    ///   - next: the first grid point to hand over.
    public init(grid: ClockGrid, snap: Double = 0, next: Int = 0) {
        precondition(snap >= 0 && (snap == 0 || grid.origin == 0), "GridWalk: snapping needs a clock-anchored grid")
        self.grid = grid
        self.snap = snap
        self.next = next
    }

    /// Starts a run at input time `t`: ``next`` becomes the first grid point at or after `t`
    /// (within ``snap``), and the result says whether `t` is on that point (then the caller
    /// writes the input sample there and advances ``next`` by one).
    /// - Complexity: O(1).
    @inlinable
    public mutating func startRun(at t: Double) -> Bool {
        let position = (t - grid.origin) * grid.sampleRate
        let k = Int((position - snap).rounded(.up))
        next = k
        return abs(Double(k) - position) <= snap
    }

    /// Hands over every grid point not yet handed over whose time is before `t`, as
    /// `point(k, time)` (points before a run's first sample).
    /// - Complexity: O(points handed over).
    @inlinable @inline(__always)
    public mutating func advance(before t: Double, _ point: (_ index: Int, _ time: Double) -> Void) {
        while true {
            let g = grid.time(next)
            if !(g < t) { break }
            point(next, g)
            next += 1
        }
    }

    /// Hands over every grid point not yet handed over that is due at input time `t`, in order,
    /// as `point(k, time, onSample)`; `onSample` is true when the point is `t` itself (exactly,
    /// or within ``snap`` grid intervals). `point` must not use the walk.
    /// - Complexity: O(points handed over).
    @inlinable @inline(__always)
    public mutating func advance(
        through t: Double, _ point: (_ index: Int, _ time: Double, _ onSample: Bool) -> Void
    ) {
        while let p = nextDue(through: t) { point(p.index, p.time, p.onSample) }
    }

    /// The next grid point due at input time `t` (``next`` moves past it), or `nil` when none
    /// is: ``advance(through:_:)`` one point at a time, for a caller that does more between
    /// points (hands over a full buffer).
    /// - Complexity: O(1).
    @inlinable @inline(__always)
    public mutating func nextDue(through t: Double) -> (index: Int, time: Double, onSample: Bool)? {
        let k = next
        if snap == 0 {
            let g = grid.time(k)
            if g > t { return nil }
            next = k + 1
            return (k, g, g == t)
        }
        let offset = t * grid.sampleRate - Double(k) // grid intervals from the grid point to t
        if offset < -snap { return nil }
        next = k + 1
        return (k, grid.time(k), offset <= snap)
    }
}

/// Grid times `k / R` for an integral grid rate `R` in 2…1024 without a division:
/// `Double(q) + RN(r / R)` with `k = q·R + r`, 0 ≤ r ≤ R, which is exactly the correctly rounded
/// `Double(k) / R` (IEEE 754) whenever 2¹¹ ≤ q < 2⁴² (the upper bound keeps k < 2⁵³, exact as a
/// double). Proof: the exact quotient is S = q + r/R ≥ 2¹¹, whose rounding boundaries (midpoints
/// between neighbouring doubles) are multiples of 2⁻⁴²; a boundary B ≠ S is at least
/// 1/(R·2⁴²) ≥ 2⁻⁵² away from S, since R·2⁴²·(S − B) is a non-zero integer, while RN(r/R) is within
/// 2⁻⁵⁴ of r/R (r/R ≤ 1). So S and q + RN(r/R) round to the same double, unless S is itself a
/// boundary; then r/R is a multiple of 2⁻⁴², exact in a double, and the two sums are equal.
/// (Also checked against Python's correctly rounded integer division for 2.25 million random k
/// and every R in 1…1024: no difference.)
public struct GridTimes: Sendable {
    /// The rate R.
    public let rate: Int
    /// `fractions[r]` = RN(r / R) for r in 0…R (the last is 1, for k + 1 when r = R − 1).
    public let fractions: [Double]
    /// The quotients for which the table is exact.
    public static let exact = (1 << 11)..<(1 << 42)

    /// The table for `sampleRate`, or `nil` when it is not an integer in 2…1024.
    public init?(sampleRate: Double) {
        guard sampleRate >= 2, sampleRate <= 1024, sampleRate == sampleRate.rounded() else { return nil }
        rate = Int(sampleRate)
        fractions = (0...rate).map { Double($0) / sampleRate }
    }

    /// Floor quotient and remainder of `k` by the rate.
    @inlinable
    public func divide(_ k: Int) -> (quotient: Int, remainder: Int) {
        let q = k >= 0 ? k / rate : (k - rate + 1) / rate
        return (q, k - q * rate)
    }

    /// `k / R` (the correctly rounded quotient) from the table, or `nil` where the table is not
    /// exact (k / R outside ``exact``).
    @inlinable
    public func time(_ k: Int) -> Double? {
        let (q, r) = divide(k)
        guard Self.exact.contains(q) else { return nil }
        return Double(q) + fractions[r]
    }
}
